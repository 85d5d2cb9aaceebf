"""`python -m bot [run | sync-cards | check-deck | healthcheck]`: see `bot.cli` (and `--help`).

`healthcheck` alone (Docker runs it every 30 s) goes straight to `bot.healthcheck`, without importing
discord.py and the rest of the bot.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """`bot.cli.main`, except that the bare `healthcheck` command imports only what it needs."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["healthcheck"]:
        from bot.healthcheck import healthcheck

        return healthcheck()
    from bot.cli import main as cli

    return cli(args)


if __name__ == "__main__":
    raise SystemExit(main())
