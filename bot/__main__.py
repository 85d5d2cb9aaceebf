"""Entry point: `python -m bot [run|sync-cards|check-deck] ...`.

- `python -m bot` (or `python -m bot run`): run the Discord bot.
- `python -m bot sync-cards [--file PATH]`: fill the local card database from Scryfall bulk data.
- `python -m bot check-deck FILE --commander NAME [--partner NAME]`: check a decklist on a terminal.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args and not args[0].startswith("-") else "run"
    rest = args[1:] if args and not args[0].startswith("-") else args
    if command in {"-h", "--help", "help"}:
        print(__doc__)
        return 0
    if command == "run":
        from bot.app.bot import cli as run_cli

        return run_cli(rest)
    if command == "sync-cards":
        from bot.cards.bulk import cli as sync_cli

        return sync_cli(rest)
    if command == "check-deck":
        from bot.deck import cli as deck_cli

        return deck_cli(rest)
    print(f"unknown command {command!r}; try: run, sync-cards, check-deck", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
