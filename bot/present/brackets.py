"""What the bot says about Game Changers and Commander brackets: that a card is a Game Changer and what that
means for brackets (/identity, /fits), a deck's Game Changers and the lowest bracket their count allows (deck
checks). The card's own `game_changer` field is the source. The other bracket guidelines (mass land denial,
extra turns, early two-card combos) are not judged from card data: a deck check says so once, never guesses."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.deck.brackets import BRACKETS, MAX_GAME_CHANGERS, bracket_floor, is_game_changer
from bot.present import render
from bot.present.i18n import _, ngettext


def _none_allowed() -> str:
    return render.and_list(str(b) for b in BRACKETS if MAX_GAME_CHANGERS[b] == 0)


def card_line(card: Mapping[str, Any], name: str) -> str | None:
    """'X is a Game Changer: …' for a card Scryfall lists as one; None for any other card."""
    if not is_game_changer(card):
        return None
    limited = [(b, n) for b in BRACKETS if (n := MAX_GAME_CHANGERS[b])]
    text = _(
        "{card} is a Game Changer: decks in brackets {none} can\u2019t include it; in bracket {bracket} it "
        "counts toward the limit of {limit} Game Changers."
    )
    bracket, limit = limited[0] if limited else (max(BRACKETS), 0)
    return text.format(card=name, none=_none_allowed(), bracket=bracket, limit=limit)


def floor_sentence(count: int) -> str:
    """The lowest bracket `count` Game Changers allow."""
    if not count:
        return _("No Game Changers, so they set no bracket floor.")
    return ngettext(
        "{n} Game Changer: bracket {bracket} or higher.",
        "{n} Game Changers: bracket {bracket} or higher.",
        count,
    ).format(n=count, bracket=bracket_floor(count))


def unjudged_note() -> str:
    return _(
        "The other bracket guidelines (mass land denial, extra turns, early two-card combos) are not judged "
        "from card data."
    )


def deck_title(count: int) -> str:
    return _("Game Changers ({n})").format(n=count)


def deck_lines(names: Sequence[str], name: Callable[[str], str] = str) -> list[str]:
    """The deck's Game Changers, the floor their count sets, and the note on the other guidelines."""
    listed = [render.and_list(map(name, names))] if names else []
    return [*listed, floor_sentence(len(names)), unjudged_note()]
