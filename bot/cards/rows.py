"""A Scryfall card object as the card cache stores it: rank among cards of one name, popularity, commander
and partner facts, its name keys and rows (shared by the cache and the bulk importer)."""

from __future__ import annotations

import json
from typing import Any

from bot.cards.names import normalize
from bot.identity import IdentityError, is_commander_candidate, pairing_traits

NON_GAME_LAYOUTS = frozenset(
    {"token", "double_faced_token", "emblem", "art_series", "vanguard", "planar", "scheme", "augment", "host"}
)


def card_rank(card: dict[str, Any]) -> int:
    """Lower is better when several cards share a name (real cards before tokens and Alchemy copies)."""
    games = card.get("games")
    alchemy = str(card.get("name", "")).startswith("A-")
    return 10 * (card.get("layout") in NON_GAME_LAYOUTS) + 5 * alchemy + bool(games and "paper" not in games)


def popularity(card: dict[str, Any]) -> int | None:
    """Scryfall's `edhrec_rank` (1 = the card most played in Commander), or None when EDHREC ranks it not."""
    value = card.get("edhrec_rank")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def pairing_code(card: dict[str, Any]) -> str:
    """The engine's pairing summary of a card (partner abilities, Background, Time Lord Doctor), so the
    partner option offers only cards that pair with the chosen commander."""
    try:
        return pairing_traits(card).encode()
    except IdentityError:
        return ""


def can_be_commander(card: dict[str, Any]) -> bool:
    """Whether commander pickers offer the card (the engine's rule: eligible alone, or a Background)."""
    try:
        return is_commander_candidate(card)
    except IdentityError:
        return False


def name_keys(card: dict[str, Any]) -> list[tuple[str, int]]:
    """(normalised name, kind) pairs: the full name (kind 0) and each face name (kind 1)."""
    keys = {normalize(str(card.get("name", ""))): 0}
    for face in card.get("card_faces") or ():
        if isinstance(face, dict) and face.get("name") and (key := normalize(str(face["name"]))):
            keys.setdefault(key, 1)
    return list(keys.items())


def is_card(obj: Any) -> bool:
    if not isinstance(obj, dict) or obj.get("object", "card") != "card":
        return False
    return isinstance(obj.get("id"), str) and isinstance(obj.get("name"), str) and bool(obj["name"])


def card_rows(
    card: dict[str, Any], source: str, now: float, raw: str | None = None
) -> tuple[tuple[Any, ...], list[tuple[str, str, int]]]:
    commander = can_be_commander(card)
    facts = (card_rank(card), int(commander), popularity(card), pairing_code(card) if commander else "")
    raw = raw if raw is not None else json.dumps(card, separators=(",", ":"))
    row = (card["id"], card.get("oracle_id"), card["name"], source, now, *facts, raw)
    return row, [(key, card["id"], kind) for key, kind in name_keys(card)]


INSERT_CARD = (
    "INSERT OR REPLACE INTO cards (id, oracle_id, name, source, fetched_at, rank, commander, "
    "popularity, pairing, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_NAME = "INSERT OR IGNORE INTO names (norm, card_id, kind) VALUES (?, ?, ?)"
