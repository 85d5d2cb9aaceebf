"""Deck check: is every card of a Commander decklist legal with its commander?

- `parser.parse(text)`: the decklist formats people paste (pure).
- `check.check_deck(parsed, commanders, resolved, unknown)`: the checks (pure).
- `runner.check_decklist(cards, text, commander, partner)`: resolve through the card service, then check.
- `report.text_report(report)` / `report.summary_embed(report)`: the outputs.
- `cli(argv)`: `python -m bot check-deck FILE --commander NAME [--partner NAME]`; prints the same report
  the bot attaches. Exit code 0 legal, 1 problems found, 2 bad input (unreadable file, list too long,
  unknown commander), 3 Scryfall unavailable (could not check).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.deck.check import DeckReport, Problem, ProblemKind, check_deck
from bot.deck.parser import DeckInputError, ParsedDeck, decode, parse
from bot.deck.runner import CommanderNotFound, check_decklist
from bot.present.deck_report import summary_embed, text_report

__all__ = [
    "CommanderNotFound",
    "DeckInputError",
    "DeckReport",
    "ParsedDeck",
    "Problem",
    "ProblemKind",
    "check_deck",
    "check_decklist",
    "cli",
    "decode",
    "parse",
    "summary_embed",
    "text_report",
]

EXIT_LEGAL, EXIT_PROBLEMS, EXIT_BAD_INPUT, EXIT_UNAVAILABLE = 0, 1, 2, 3


def _read(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise DeckInputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return decode(data)


async def _run(text: str, commander: str, partner: str | None) -> tuple[int, str]:
    from bot.cards.model import ScryfallUnavailable
    from bot.cards.service import CardService
    from bot.present.embeds import stale_note
    from bot.settings import load_settings

    service = await CardService.create(load_settings())
    try:
        report, resolved = await check_decklist(service, text, commander, partner)
    except ScryfallUnavailable as exc:
        return EXIT_UNAVAILABLE, f"Scryfall is not answering ({exc.reason}); try again in a minute."
    finally:
        await service.close()
    note = stale_note(resolved)
    if note:
        report.warnings.append(note)
    return (EXIT_LEGAL if report.legal else EXIT_PROBLEMS), text_report(report)


def cli(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot check-deck",
        description="Check a Commander decklist against its commander: color identity, singleton, deck size, "
                    "banned cards, commander eligibility and partner pairing. Exit code 0 legal, 1 problems "
                    "found, 2 bad input, 3 Scryfall unavailable.",
    )
    parser.add_argument("file", help="decklist text file (Moxfield/Arena/MTGO/plain), or - for stdin")
    parser.add_argument("--commander", required=True, help="the commander's name")
    parser.add_argument("--partner", default=None, help="the second commander (partner, background, ...)")
    args = parser.parse_args(list(sys.argv[2:] if argv is None else argv))
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    try:
        text = _read(args.file)
        code, output = asyncio.run(_run(text, args.commander, args.partner))
    except DeckInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if code in (EXIT_LEGAL, EXIT_PROBLEMS):
        sys.stdout.write(output)
    else:
        print(f"error: {output}", file=sys.stderr)
    return code
