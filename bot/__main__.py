"""`python -m bot [run | sync-cards | check-deck | healthcheck]`: see `bot.main` (and `--help`).

`healthcheck` alone (Docker runs it every 30 s) goes straight to `bot.healthcheck`, without importing
discord.py and the rest of the bot.
"""

import sys

if __name__ == "__main__":
    if sys.argv[1:] == ["healthcheck"]:
        from bot.healthcheck import healthcheck

        raise SystemExit(healthcheck())
    from bot.main import main

    raise SystemExit(main())
