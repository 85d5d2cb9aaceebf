"""Why a decklist or an option of the deck check can't be used, as data: a code and its details.

Every word is the presentation layer's (`bot.present.deck_errors`); `str()` is a developer-facing summary
for logs. All of them are `DeckInputError`s, so callers that only need "bad input" catch that one class.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from bot.deck.entries import DeckInputError


class DeckCheckCode(StrEnum):
    NO_COMMANDER = "no_commander"  # neither the options nor the list name one
    COMMANDER_NOT_FOUND = "commander_not_found"  # data: option, query, suggestions, ambiguous
    TOO_MANY_COMMANDERS = "too_many_commanders"  # data: count, names (the list marks more than two)
    OPTION_TOO_LONG = "option_too_long"  # data: option, length, limit
    NOT_A_COLOR = "not_a_color"  # data: text
    NO_CHOOSER = "no_chooser"  # a chosen color, but no commander chooses one (CR 903.4b)
    TOO_MANY_COLORS = "too_many_colors"  # data: given, choosers


class DeckCheckError(DeckInputError):
    """A decklist or option the deck check can't use: `code` and `data` say why."""

    code: DeckCheckCode

    def __init__(self, code: DeckCheckCode, **data: Any) -> None:
        super().__init__(code, **data)


class NoCommander(DeckCheckError):
    """Neither the options nor the list name a commander."""

    def __init__(self) -> None:
        super().__init__(DeckCheckCode.NO_COMMANDER)


class CommanderNotFound(DeckCheckError):
    """The commander (or partner) option, or (`option` None) a commander the list marks, names no card;
    `suggestions` are close names, never used in its place."""

    def __init__(
        self, option: str | None, query: str, suggestions: Sequence[str] = (), ambiguous: bool = False
    ) -> None:
        self.option = option
        self.query = query
        self.suggestions = list(suggestions)
        self.ambiguous = ambiguous
        super().__init__(
            DeckCheckCode.COMMANDER_NOT_FOUND,
            option=option,
            query=query,
            suggestions=self.suggestions,
            ambiguous=ambiguous,
        )
