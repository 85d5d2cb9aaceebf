"""Deck check: is every card of a Commander decklist legal with its commander?

- `parser.parse(text)`: the decklist formats people paste, multi-line or on one line (pure);
  `parser.parse_card_line(text)`: one card as players paste it (card options).
- `check.check_deck(parsed, commanders, resolved, unknown, unavailable=...)`: the checks (pure).
- `runner.check_decklist(cards, text, commander=None, partner=None, chosen=())`: resolve through the card
  service, take the commanders from the options and the list, then check.
- `bot.present.deck_report.text_report(report)` / `summary_embed(report)`: the outputs (also reachable as
  `bot.deck.text_report` / `bot.deck.summary_embed`, imported on first use: the presentation layer sits above
  this package and imports it, so importing it here at module level would be circular).
- `cli(argv)`: `python -m bot check-deck FILE [--commander NAME] [--partner NAME] [--color C ...]`; prints the
  same report the bot attaches. Exit codes: see `EXIT_CODES`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.deck.check import DeckReport, Problem, ProblemKind, check_deck
from bot.deck.parser import CardLine, DeckInputError, ParsedDeck, decode, parse, parse_card_line
from bot.deck.runner import CommanderNotFound, NoCommander, check_decklist

__all__ = [
    "CardLine",
    "CommanderNotFound",
    "DeckInputError",
    "DeckReport",
    "NoCommander",
    "ParsedDeck",
    "Problem",
    "ProblemKind",
    "check_deck",
    "check_decklist",
    "cli",
    "decode",
    "parse",
    "parse_card_line",
    "summary_embed",
    "text_report",
]

EXIT_LEGAL, EXIT_PROBLEMS, EXIT_BAD_INPUT, EXIT_UNAVAILABLE = 0, 1, 2, 3
EXIT_CODES = """exit codes:
  0  the deck is legal
  1  problems found (also when some names could not be checked: the problems found are certain)
  2  bad input: unreadable or binary file, list too long, no commander, unknown or mistyped commander
     (with "did you mean" names), a bad --color
  3  some names could not be checked because Scryfall was unreachable and nothing else is wrong (the report
     on stdout lists them), or nothing at all could be looked up (a message on stderr, no report)"""


def __getattr__(name: str) -> Any:
    """`bot.deck.text_report` / `bot.deck.summary_embed`, imported from the presentation layer on first use."""
    if name in ("summary_embed", "text_report"):
        from bot.present import deck_report

        return getattr(deck_report, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _read(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise DeckInputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return decode(data)


def exit_code(report: DeckReport) -> int:
    """0 legal, 1 problems found (they win over unchecked names), 3 only names that could not be checked."""
    if report.legal:
        return EXIT_LEGAL
    return EXIT_PROBLEMS if report.findings else EXIT_UNAVAILABLE


async def _run(text: str, commander: str | None, partner: str | None,
               colors: Sequence[str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of one check."""
    from bot.cards.model import ScryfallUnavailable
    from bot.cards.service import CardService
    from bot.present.deck_report import text_report
    from bot.present.embeds import stale_note
    from bot.settings import load_settings

    service = await CardService.create(load_settings())
    try:
        report, resolved = await check_decklist(service, text, commander, partner, chosen=colors)
    except ScryfallUnavailable as exc:
        return EXIT_UNAVAILABLE, "", (f"error: Scryfall is not answering ({exc.reason}) and the local card data "
                                      f"could not answer either; nothing was checked. Try again in a minute.\n")
    finally:
        await service.close()
    note = stale_note(resolved)
    if note:
        report.warnings.append(note)
    code = exit_code(report)
    err = ""
    if not report.complete:
        unchecked = report.of_kind(ProblemKind.UNCHECKED)
        err = (f"warning: {len(unchecked)} name{'s' if len(unchecked) != 1 else ''} could not be checked "
               f"(Scryfall unreachable); the report lists them\n")
    return code, text_report(report), err


def cli(argv: Sequence[str] | None = None) -> int:
    """`python -m bot check-deck`: check a decklist file on a terminal; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m bot check-deck",
        description="Check a Commander decklist: color identity (with the symbol behind every misfit),\n"
                    "singleton, deck size, banned cards, commander eligibility and partner pairing.\n"
                    "Reads Moxfield, Archidekt, Arena, MTGO, TappedOut and plain exports, also pasted on\n"
                    "one line. Prints the report on stdout.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the decklist text file, or - to read it from stdin")
    parser.add_argument("--commander", default=None, metavar="NAME",
                        help="the commander (a partial name works: Kumano). Optional when the list marks its "
                             "commander(s): a Commander section, a 'Commander: Name' line, *CMDR* or Archidekt's "
                             "[Commander] category")
    parser.add_argument("--partner", default=None, metavar="NAME",
                        help="the second commander (Partner, Background, Doctor's companion, ...). Optional: "
                             "with --commander alone, a second commander the list marks is used too")
    parser.add_argument("--color", action="append", default=[], metavar="COLOR",
                        help="the color chosen before the game for a commander that chooses one (CR 903.4b, "
                             "e.g. The Prismatic Piper): W, U, B, R, G or white, blue, black, red, green. "
                             "Repeat once per such commander, in commander order; it counts in the deck's color "
                             "identity")
    args = parser.parse_args(list(sys.argv[2:] if argv is None else argv))
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    try:
        text = _read(args.file)
        code, out, err = asyncio.run(_run(text, args.commander, args.partner, args.color))
    except NoCommander:
        print(f"error: {NoCommander('give it with --commander NAME')}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except DeckInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code
