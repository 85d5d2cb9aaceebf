"""`python -m bot [run | sync-cards | check-deck | identity | fits | healthcheck]`: `bot.cli`, except that the bare
`healthcheck` (Docker runs it every 30 s) imports only `bot.healthcheck`, not discord.py and the bot."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["healthcheck"]:
        from bot.healthcheck import healthcheck

        return healthcheck()
    from bot.cli import main as cli

    return cli(args)


if __name__ == "__main__":
    raise SystemExit(main())
