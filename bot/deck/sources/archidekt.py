"""Archidekt's deck answer (`GET {ARCHIDEKT_API_BASE}/decks/<id>/`) as a `FetchedDeck`.

`cards[]` with `quantity`, `categories` and `card.oracleCard.name`; the deck's `categories[]` say which are
`includedInDeck`. The "Commander" category marks a commander, `companion` (or "Companion") the companion; a
card's first (primary) category decides the rest: "Sideboard", "Maybeboard"/"Considering", or any category
not included in the deck (maybeboard).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.deck.entries import Section
from bot.deck.sources.links import Site
from bot.deck.sources.result import (
    DEFAULT_MAX_ENTRIES,
    EntryProblem,
    FetchedDeck,
    RawEntry,
    build,
    check_answer,
    check_size,
    face_name,
    not_a_deck,
    obj,
    tidy_name,
)

SITE = Site.ARCHIDEKT


def _section(item: Mapping[str, Any], included: Mapping[str, bool]) -> Section:
    folded = [c.casefold() for c in item.get("categories") or () if isinstance(c, str)]
    primary = folded[0] if folded else None
    if "commander" in folded:
        return Section.COMMANDER
    if item.get("companion") is True or "companion" in folded:
        return Section.COMPANION
    if primary == "sideboard":
        return Section.SIDEBOARD
    if primary in ("maybeboard", "considering") or (primary is not None and included.get(primary) is False):
        return Section.MAYBEBOARD
    return Section.MAIN


def _entry(item: Any, included: Mapping[str, bool]) -> RawEntry | None:
    if not isinstance(item, Mapping):
        return RawEntry(Section.MAIN, None, None, problem=EntryProblem.NOT_AN_OBJECT)
    if item.get("deletedAt"):
        return None  # removed from the deck; kept by the site for its history
    oracle = obj(obj(item.get("card")).get("oracleCard"))
    name = tidy_name(oracle.get("name")) or face_name(oracle, "faces")
    return RawEntry(_section(item, included), name, item.get("quantity"))


def read_archidekt(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """A `FetchedDeck` from an Archidekt answer (JSON-decoded), or a `DeckSourceError`."""
    if not isinstance(payload, dict) or not isinstance(payload.get("cards"), list):
        raise not_a_deck(SITE, "shape", "no cards list")
    check_answer(SITE, deck_id, payload.get("id"), "private" if payload.get("private") is True else "")
    check_size(SITE, len(payload["cards"]), max_entries)
    included = {
        c["name"].casefold(): c.get("includedInDeck") is not False
        for c in payload.get("categories") or ()
        if isinstance(c, Mapping) and isinstance(c.get("name"), str)
    }
    raws = [raw for item in payload["cards"] if (raw := _entry(item, included)) is not None]
    return build(SITE, deck_id, payload.get("name"), raws)
