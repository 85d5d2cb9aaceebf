"""Access to the shared Scryfall data set at ../shared/data (read-only)."""

from __future__ import annotations

import gzip
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("SHARED_DIR", REPO_ROOT.parent / "shared"))
CARDS_FILE = SHARED_DIR / "data" / "scryfall-cards.jsonl.gz"


@lru_cache(maxsize=1)
def all_cards() -> tuple[dict[str, Any], ...]:
    """Every card object in the shared data set (24,249 of them). Cached per process."""
    with gzip.open(CARDS_FILE, "rt", encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


@lru_cache(maxsize=1)
def cards_by_name() -> dict[str, dict[str, Any]]:
    return {card["name"]: card for card in all_cards()}


def card(name: str) -> dict[str, Any]:
    """A deep copy of the named card (full Scryfall name, e.g. 'Fire // Ice')."""
    return json.loads(json.dumps(cards_by_name()[name]))


def without_answers(card_obj: dict[str, Any]) -> dict[str, Any]:
    """The card with Scryfall's `colors`/`color_identity` answers removed (top level and faces)."""
    out = json.loads(json.dumps(card_obj))
    for key in ("colors", "color_identity"):
        out.pop(key, None)
    for face in out.get("card_faces") or ():
        face.pop("colors", None)
        face.pop("color_identity", None)
    return out
