"""Why an option or the commanders of the deck check can't be used, as a code and its details (words:
`bot.present.deck_errors`). All are `DeckInputError`s, so "bad input" is one class to catch."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from bot.deck.entries import DeckInputError


class DeckCheckCode(StrEnum):
    NO_COMMANDER = "no_commander"  # neither the options nor the list name one
    COMMANDER_NOT_FOUND = "commander_not_found"  # data: option, query, names (close ones), ambiguous
    TOO_MANY_COMMANDERS = "too_many_commanders"  # data: count, names (the list marks more than two)
    OPTION_TOO_LONG = "option_too_long"  # data: option, length, limit
    NOT_A_COLOR = "not_a_color"  # data: text
    NO_CHOOSER = "no_chooser"  # a chosen color, but no commander chooses one (CR 903.4b)
    TOO_MANY_COLORS = "too_many_colors"  # data: given, choosers


class DeckCheckError(DeckInputError):
    """A decklist or option the deck check can't use: `code` and `data` say why."""

    code: DeckCheckCode


class NoCommander(DeckCheckError):
    def __init__(self) -> None:
        super().__init__(DeckCheckCode.NO_COMMANDER)


class CommanderNotFound(DeckCheckError):
    """A commander option, or (`option` None) one the list marks, names no card: `data` as its code says."""

    def __init__(
        self, option: str | None, query: str, suggestions: Sequence[str] = (), ambiguous: bool = False
    ) -> None:
        data = {"option": option, "query": query, "names": list(suggestions), "ambiguous": ambiguous}
        super().__init__(DeckCheckCode.COMMANDER_NOT_FOUND, **data)
