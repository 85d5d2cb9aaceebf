"""Archidekt's deck answer (`GET {ARCHIDEKT_API_BASE}/decks/<id>/`) as a `FetchedDeck`.

`cards[]` with `quantity`, `categories` (names) and `card.oracleCard.name`; the deck's `categories[]` say
which categories are `includedInDeck`. A card in the "Commander" category is a commander; a card flagged
`companion` (or in "Companion") is the companion; a card whose first (primary) category is "Sideboard" is
sideboard, "Maybeboard"/"Considering" maybeboard, and any other primary category that is not included in
the deck counts as maybeboard too. A deck answered with `private: true` is private.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.deck.entries import Section
from bot.deck.sources.links import DeckSourceError, DeckSourceErrorCode, Site
from bot.deck.sources.result import (
    DEFAULT_MAX_ENTRIES,
    EntryProblem,
    FetchedDeck,
    RawEntry,
    build,
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
    card = obj(item.get("card"))
    oracle = obj(card.get("oracleCard"))
    name = tidy_name(oracle.get("name")) or face_name(oracle, "faces")
    return RawEntry(
        _section(item, included), name, item.get("quantity"), problem=None if name else EntryProblem.NO_NAME
    )


def read_archidekt(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """Build a `FetchedDeck` from an Archidekt answer (already JSON-decoded). `DeckSourceError`: PRIVATE for
    `private: true`, NOT_A_DECK for a wrong shape or another deck's answer, TOO_LARGE past `max_entries`."""
    if not isinstance(payload, dict) or not isinstance(payload.get("cards"), list):
        raise not_a_deck(SITE, "shape", "no cards list")
    if payload.get("private") is True:
        raise DeckSourceError(DeckSourceErrorCode.PRIVATE, SITE, status=200)
    answered_id = payload.get("id")
    if answered_id is not None and str(answered_id) != deck_id:
        raise not_a_deck(SITE, "mismatched_id", f"asked for {deck_id}, got {answered_id}")
    check_size(SITE, len(payload["cards"]), max_entries)
    included = {
        c["name"].casefold(): c.get("includedInDeck") is not False
        for c in payload.get("categories") or ()
        if isinstance(c, Mapping) and isinstance(c.get("name"), str)
    }
    raws = [raw for item in payload["cards"] if (raw := _entry(item, included)) is not None]
    return build(SITE, deck_id, payload.get("name"), raws)
