"""Commander brackets and Game Changers, as data. The Commander Format Panel's Game Changers list changes a few
times a year, so the card's own `game_changer` field (as Scryfall serves it) is the source, never a list here.
Brackets 1 and 2 allow no Game Changer, bracket 3 up to three, brackets 4 and 5 any number. The other bracket
guidelines (mass land denial, extra turns, early two-card combos) are not judged from card data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

BRACKETS = (1, 2, 3, 4, 5)
# The most Game Changers each bracket allows; None: any number.
MAX_GAME_CHANGERS: Mapping[int, int | None] = {1: 0, 2: 0, 3: 3, 4: None, 5: None}


def is_game_changer(card: Mapping[str, Any]) -> bool:
    """Whether Scryfall lists the card as a Game Changer (`game_changer: true`)."""
    return card.get("game_changer") is True


def allows(bracket: int, game_changers: int) -> bool:
    """Whether a deck with `game_changers` Game Changers may play in `bracket`."""
    limit = MAX_GAME_CHANGERS[bracket]
    return limit is None or game_changers <= limit


def bracket_floor(game_changers: int) -> int:
    """The lowest bracket a deck with this many Game Changers may play in (1 when it has none)."""
    return next(bracket for bracket in BRACKETS if allows(bracket, game_changers))
