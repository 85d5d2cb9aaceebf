"""`python -m bot [run | sync-cards | check-deck | healthcheck]`: see `bot.main` (and `--help`)."""

from bot.main import main

if __name__ == "__main__":
    raise SystemExit(main())
