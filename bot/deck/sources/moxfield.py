"""Moxfield's deck answer (`GET {MOXFIELD_API_BASE}/v3/decks/all/<publicId>`) as a `FetchedDeck`.

`boards.{commanders, companions, mainboard, sideboard, maybeboard, ...}.cards.<id>.{quantity, card.name}`;
the older v2 shape (the same boards as top-level maps keyed by card name) is read too.
`visibility: "private"` is private, `"deleted"` not found; `"unlisted"` decks are readable by link, as on
the site. Boards the bot does not know are reported as problems, not dropped.
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

SITE = Site.MOXFIELD
# Moxfield boards -> sections. signatureSpells (Oathbreaker) are part of the deck.
BOARDS: dict[str, Section] = {
    "commanders": Section.COMMANDER,
    "companions": Section.COMPANION,
    "mainboard": Section.MAIN,
    "signatureSpells": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    **dict.fromkeys(
        ("tokens", "attractions", "stickers", "contraptions", "planes", "schemes"), Section.TOKENS
    ),
}


def _boards(payload: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """board name -> its cards map, from the v3 shape (`boards.<board>.cards`) or the v2 one."""
    if isinstance(payload.get("boards"), Mapping):
        boards: dict[str, Mapping[str, Any]] = {}
        for key, board in payload["boards"].items():
            if not isinstance(board, Mapping) or not isinstance(board.get("cards", {}), Mapping):
                raise not_a_deck(SITE, "shape", f"board {key!r} has no cards map")
            boards[str(key)] = board.get("cards", {})
        return boards
    boards = {key: payload[key] for key in BOARDS if isinstance(payload.get(key), Mapping)}
    if not boards:
        raise not_a_deck(SITE, "shape", "no boards")
    return boards


def _entry(board: str, map_key: Any, item: Any, v3: bool) -> RawEntry:
    section = BOARDS.get(board)
    if section is None:
        label = tidy_name(obj(obj(item).get("card")).get("name")) or tidy_name(map_key)
        return RawEntry(Section.TOKENS, None, None, problem=EntryProblem.UNKNOWN_BOARD, label=label)
    if not isinstance(item, Mapping):
        return RawEntry(section, None, None, problem=EntryProblem.NOT_AN_OBJECT)
    card = obj(item.get("card"))
    name = tidy_name(card.get("name")) or face_name(card, "card_faces")
    return RawEntry(section, name or (None if v3 else tidy_name(map_key)), item.get("quantity"))


def read_moxfield(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """A `FetchedDeck` from a Moxfield answer (JSON-decoded), or a `DeckSourceError`."""
    if not isinstance(payload, dict):
        raise not_a_deck(SITE, "shape", f"a {type(payload).__name__}, not an object")
    visibility = str(payload.get("visibility")).casefold()
    check_answer(SITE, deck_id, payload.get("publicId"), visibility)
    boards = _boards(payload)
    check_size(SITE, sum(len(cards) for cards in boards.values()), max_entries)
    v3 = "boards" in payload
    raws = [_entry(board, key, item, v3) for board, cards in boards.items() for key, item in cards.items()]
    return build(SITE, deck_id, payload.get("name"), raws)
