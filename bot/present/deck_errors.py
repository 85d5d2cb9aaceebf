"""Why a decklist or a deck-check option can't be used, in words (`bot.deck.errors.DeckCheckError` codes).

`deck_input_text(error)` is the Discord reply; `cli_text(error)` the `check-deck` error line. Errors of the
parser that carry no code yet are shown as their message.
"""

from __future__ import annotations

from bot.deck.errors import CommanderNotFound, DeckCheckCode, DeckCheckError
from bot.deck.parser import DeckInputError
from bot.present.errors import deck_input_text as _reply

MARKS = "a Commander section, a `Commander: Name` line or `*CMDR*`"


def problem_text(error: DeckInputError, *, how: str = "give the commander") -> str:
    """The problem in a few words, without "I can't check"; `how` says how to name a commander where the
    words are read (a command-line option or a slash-command option)."""
    if not isinstance(error, DeckCheckError):
        return str(error)
    data, code = error.data, error.code
    if isinstance(error, CommanderNotFound):
        what = "matches several cards" if error.ambiguous else "is not a card I know"
        who = error.option or "the list's commander"
        hint = f"; did you mean {', '.join(error.suggestions[:5])}?" if error.suggestions else ""
        return f"{who} {error.query!r} {what}{hint}"
    texts = {
        DeckCheckCode.NO_COMMANDER: f"no commander named: {how}, or mark it in the list ({MARKS})",
        DeckCheckCode.OPTION_TOO_LONG: f"the {data.get('option')} name is {data.get('length', 0):,} characters "
                                       f"long; card names are at most {data.get('limit')}",
        DeckCheckCode.NOT_A_COLOR: f"{data.get('text')!r} is not a color; use W, U, B, R, G or white, blue, black, "
                                   f"red, green",
        DeckCheckCode.NO_CHOOSER: "a chosen color was given, but no commander of this deck chooses a color before the "
                                  "game (CR 903.4b)",
        DeckCheckCode.TOO_MANY_COLORS: f"{data.get('given')} chosen colors were given, but only {data.get('choosers')} "
                                       f"of the commanders chooses a color (CR 903.4b)",
    }
    if code is DeckCheckCode.TOO_MANY_COMMANDERS:
        names = list(data.get("names", ()))
        shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        return f"the list marks {data.get('count')} cards as commanders ({shown}); a deck has one or two: name the commander"
    return texts.get(code, code.value)


def deck_input_text(error: DeckInputError) -> str:
    """The reply to a decklist or option the check can't use."""
    return _reply(problem_text(error, how="give it with `commander:`"))


def cli_text(error: DeckInputError) -> str:
    """The `check-deck` error line."""
    return f"error: {problem_text(error, how='give it with --commander NAME')}"

