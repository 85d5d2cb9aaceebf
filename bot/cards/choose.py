"""Which card a Scryfall search answer means for what the player typed, and the commander search itself."""

from __future__ import annotations

import re
from typing import Any

from bot.cards.names import normalize, rank_candidates
from bot.cards.rows import name_keys, popularity

_SEARCH_OPERATORS = {"or", "and", "not"}


def commander_query(q: str) -> str:
    """A Scryfall search for commanders named like `q` (its words, the search operators among them quoted)."""
    words = [w.strip("-'") for w in re.sub(r"[^\w'\- ]+", " ", q).split()]
    words = [f'"{w}"' if w.lower() in _SEARCH_OPERATORS else w for w in words if w]
    return " ".join([*words, "is:commander"])


def pick(q: str, n: str, cards: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, list[str]]:
    """The card a search result means (None when several fit equally), and the names ranked for `q` when it
    took ranking to decide ([] otherwise)."""
    if len(cards) == 1:
        return cards[0], []
    if exact := [c for c in cards if any(key == n for key, _kind in name_keys(c))]:
        return exact[0], []
    ranked = rank_candidates(q, [c["name"] for c in cards], {c["name"]: popularity(c) for c in cards}.get)
    first, *rivals = [normalize(name).startswith(n + " ") for name in ranked]
    if first and not any(rivals):  # only the first name goes on from what was typed
        return {c["name"]: c for c in cards}[ranked[0]], ranked
    return None, ranked
