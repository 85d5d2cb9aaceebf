"""`python -m bot identity`, `fits` and `check-deck`: the bot's /identity, /fits and deck check on a terminal,
from the same card service (Scryfall, or the local card data `sync-cards` fills) and the same words."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

from bot.cards.foreign import use_player_langs
from bot.cards.model import AmbiguousCard, BadCardName, CardNotFound, Resolved, ScryfallUnavailable
from bot.cards.printed import scryfall_language
from bot.cards.service import CardService
from bot.combos.store import ComboStore
from bot.compose import open_cards
from bot.deck.check import color_letter
from bot.deck.parser import DeckInputError, InputIssue, ParsedDeck, card_query_text, decode, parse
from bot.deck.report import ProblemKind
from bot.deck.runner import check_decklist
from bot.identity import ChosenColorMisplaced, analyze, assign_chosen, check_fit
from bot.identity.model import FitVerdict
from bot.present import deck_errors, embeds, i18n, terminal
from bot.present.deck_report import text_report
from bot.settings import Settings

# The exit codes, in the scheme of `check-deck`.
ANSWERED, DOES_NOT_FIT, BAD_INPUT, UNAVAILABLE = 0, 1, 2, 3
LOCALES = ("en", *i18n.SUPPORTED)
FLAGS = {"card": None, "commander": "--commander", "partner": "--partner"}  # an option's flag, in errors

IDENTITY_EXIT_CODES = """exit codes:
  0  the card is explained
  2  bad input: no such card (with "did you mean" names), a name matching several cards (with them)
  3  Scryfall is unreachable and the local card data has no answer (the message says how to fill it)"""

FITS_EXIT_CODES = """exit codes:
  0  the card fits
  1  it does not fit, fits only with a chosen color not given yet (--color), or the deck can't exist
  2  bad input: no such card, a name matching several cards, a bad or misplaced --color
  3  Scryfall is unreachable and the local card data has no answer (the message says how to fill it)"""

DECK_EXIT_CODES = """exit codes:
  0  the deck is legal
  1  problems found (also when some names could not be checked: the problems found are certain)
  2  bad input: unreadable or binary file, list too long, no commander, unknown or mistyped commander
     (with "did you mean" names), a bad --color
  3  some names could not be checked because Scryfall was unreachable and nothing else is wrong (the report
     on stdout lists them), or nothing at all could be looked up (a message on stderr, no report)"""


class Unanswered(Exception):
    """A command that can't answer: the exit code and the line (without `error: `) to print."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(text)
        self.code = code


async def _look_up(cards: CardService, query: str, option: str, *, commander: bool = False) -> Resolved:
    """The card a name means, as the bot resolves an option; Unanswered says why not."""
    flag, query = FLAGS.get(option), card_query_text(query)  # a decklist line works, as in the bot's options
    try:
        return await (cards.resolve_commander if commander else cards.resolve)(query)
    except CardNotFound as exc:
        raise Unanswered(BAD_INPUT, terminal.not_a_card_text(query, exc.suggestions, flag)) from None
    except AmbiguousCard as exc:
        raise Unanswered(BAD_INPUT, terminal.several_cards_text(query, exc.candidates, flag)) from None
    except BadCardName:
        raise Unanswered(BAD_INPUT, terminal.not_a_card_text(query, (), flag)) from None
    except ScryfallUnavailable as exc:
        text = terminal.unavailable_text(exc.reason, local_data=cards.has_local_data)
        raise Unanswered(UNAVAILABLE, text) from None


async def _identity(settings: Settings, args: argparse.Namespace) -> int:
    async with open_cards(settings, budget=args.budget) as cards:
        found = await _look_up(cards, args.name, "card")
    typed = found.typed(card_query_text(args.name))
    stale = embeds.stale_note([found])
    reply = embeds.identity_reply(analyze(found.card), found.card, stale=stale, typed=typed)
    sys.stdout.write(terminal.reply_text(reply, bold=sys.stdout.isatty()))
    return ANSWERED


async def _fits(settings: Settings, args: argparse.Namespace) -> int:
    colors = [color_letter(c) if c is not None else None for c in (args.color, args.partner_color)]
    asked = [("card", args.card, False), ("commander", args.commander, True)]
    asked += [("partner", args.partner, True)] if args.partner else []
    async with open_cards(settings, budget=args.budget) as cards:
        found = [await _look_up(cards, query, option, commander=leads) for option, query, leads in asked]
    the_card, *leaders = found
    leader_cards = [r.card for r in leaders]
    try:
        chosen = assign_chosen([analyze(c) for c in leader_cards], *colors)
    except ChosenColorMisplaced as exc:
        flag = "--" + exc.option.replace("_", "-")
        raise Unanswered(BAD_INPUT, terminal.chosen_color_text(flag, exc.commander)) from None
    result = check_fit(the_card.card, leader_cards, chosen)
    queries = [card_query_text(q) for _option, q, _leads in asked]
    typed = [(said, r.name) for q, r in zip(queries, found, strict=True) if (said := r.typed(q))]
    stale = embeds.stale_note(found)
    reply = embeds.fits_reply(result, the_card.card, leader_cards, stale=stale, typed=typed)
    sys.stdout.write(terminal.reply_text(reply, bold=sys.stdout.isatty()))
    return ANSWERED if result.verdict is FitVerdict.FITS else DOES_NOT_FIT


def _read_deck(path: str) -> ParsedDeck:
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise DeckInputError(InputIssue.UNREADABLE_FILE, path=path, reason=exc.strerror or str(exc)) from exc
    return parse(decode(data), filename=None if path == "-" else path)


async def _check_deck(settings: Settings, args: argparse.Namespace) -> int:
    """The report on stdout, what could not be checked on stderr; problems found win over unchecked names."""
    deck = _read_deck(args.file)
    async with open_cards(settings, budget=args.budget) as cards:
        try:
            report, found = await check_decklist(
                cards, deck, args.commander, args.partner, chosen=args.color, combos=ComboStore(cards.cache)
            )
        except ScryfallUnavailable as exc:
            text = terminal.unavailable_text(exc.reason, local_data=cards.has_local_data)
            raise Unanswered(UNAVAILABLE, text) from None
    if note := embeds.stale_note(found):
        report.warnings.append(note)
    sys.stdout.write(text_report(report))
    if n := len(report.of_kind(ProblemKind.UNCHECKED)):
        print(
            f"warning: {n} name{'s' * (n != 1)} could not be checked; the report lists them", file=sys.stderr
        )
    return ANSWERED if report.legal else DOES_NOT_FIT if report.findings else UNAVAILABLE


def _command(run: Any) -> Any:
    """A handler `(args, settings) -> exit code` running the coroutine `run`, in `--locale`'s words."""

    def handler(args: argparse.Namespace, settings: Settings) -> int:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        with i18n.using(args.locale):
            lang = scryfall_language(args.locale)  # names printed in it are read first
            use_player_langs((lang,) if lang else ())
            try:
                return int(asyncio.run(run(settings, args)))
            except Unanswered as exc:
                print(f"error: {exc}", file=sys.stderr)
                return exc.code
            except DeckInputError as exc:  # a bad --color or decklist
                print(deck_errors.cli_text(exc), file=sys.stderr)
                return BAD_INPUT

    return handler


def _finish(parser: argparse.ArgumentParser, run: Any, exit_codes: str) -> None:
    """A subcommand's `--locale` (its last option), exit codes after the options and the handler of `run`."""
    parser.add_argument(
        "--locale",
        default="en",
        choices=LOCALES,
        help="the language of the answer, as Discord users with that language see it (default: en)",
    )
    parser.epilog, parser.formatter_class = exit_codes, argparse.RawDescriptionHelpFormatter
    parser.set_defaults(handler=_command(run))


def add_identity(commands: Any) -> None:
    """`identity NAME` in the subcommands `commands`."""
    parser = commands.add_parser(
        "identity",
        help="explain a card's color and color identity, as /identity does",
        description="Explain a card's color and its Commander color identity, symbol by symbol, as the "
        "bot's /identity does. Online it asks Scryfall like the bot; with the local card data (sync-cards) "
        "it needs no network.",
    )
    parser.add_argument(
        "name", help="the card name (a part of it or a name printed in another language works)"
    )
    _finish(parser, _identity, IDENTITY_EXIT_CODES)


def add_fits(commands: Any) -> None:
    """`fits CARD --commander NAME [--partner NAME] [--color C] [--partner-color C]` in `commands`."""
    parser = commands.add_parser(
        "fits",
        help="whether a card fits a deck led by a commander, as /fits does",
        description="Whether a card fits a Commander deck led by a commander (or two), and why, as the "
        "bot's /fits does: fits, does not fit, fits if you choose a color, or this deck can't exist.",
    )
    parser.add_argument("card", help="the card to check")
    parser.add_argument(
        "--commander", metavar="NAME", required=True, help="your commander (a part of the name works)"
    )
    parser.add_argument(
        "--partner", metavar="NAME", help="your second commander (Partner, Background, ...), if any"
    )
    parser.add_argument(
        "--color",
        metavar="COLOR",
        help="the color your commander chose before the game (CR 903.4b: The Prismatic Piper, Clara Oswald; "
        "the partner's when only the partner chooses one): W, U, B, R, G or white, blue, black, red, green",
    )
    parser.add_argument(
        "--partner-color",
        metavar="COLOR",
        help="the color your partner chose before the game, if it chooses one too",
    )
    _finish(parser, _fits, FITS_EXIT_CODES)


def add_check_deck(commands: Any) -> None:
    """`check-deck FILE [--commander NAME] [--partner NAME] [--color C ...]` in `commands`."""
    deck = commands.add_parser(
        "check-deck",
        help="check a Commander decklist on the terminal",
        description="Check a Commander decklist: color identity (with the symbol behind every misfit),\n"
        "singleton, deck size, banned cards, commander eligibility and partner pairing, and the deck's\n"
        "bracket. Reads Moxfield, Archidekt, Arena, MTGO, TappedOut and plain exports, also pasted on\n"
        "one line. Prints the report on stdout.",
    )
    deck.add_argument("file", help="the decklist text file, or - to read it from stdin")
    deck.add_argument(
        "--commander",
        metavar="NAME",
        help="the commander (a partial name works: Kumano; a misspelt one is refused with the names it "
        "may mean). Optional when the list marks its commander(s): a Commander section, a "
        "'Commander: Name' line, *CMDR* or Archidekt's [Commander] category",
    )
    deck.add_argument(
        "--partner",
        metavar="NAME",
        help="the second commander (Partner, Background, Doctor's companion, ...). Optional: "
        "with --commander alone, a second commander the list marks is used too",
    )
    deck.add_argument(
        "--color",
        action="append",
        default=[],
        metavar="COLOR",
        help="the color chosen before the game for a commander that chooses one (CR 903.4b, "
        "e.g. The Prismatic Piper): W, U, B, R, G or white, blue, black, red, green. "
        "Repeat once per such commander, in commander order; it counts in the deck's color identity",
    )
    _finish(deck, _check_deck, DECK_EXIT_CODES)
