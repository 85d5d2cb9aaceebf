"""Access to the Scryfall card data set the tests use (read-only).

The data set is not part of the repository: it is read from the shared folder beside the checkout,
``../shared/data/scryfall-cards.jsonl.gz`` (24,249 card objects; its provenance is in that folder's
README), and ``../shared/data/foreign-names.jsonl.gz`` holds printed names in ten languages. Setting
``SHARED_DIR`` to another directory that holds ``data/scryfall-cards.jsonl.gz`` makes the tests read that
copy instead.
"""

from __future__ import annotations

import gc
import gzip
import json
import os
from collections.abc import Callable
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any, TypeVar

REPO_ROOT = Path(__file__).resolve().parent.parent
GAME_CHANGERS_FILE = REPO_ROOT / "tests" / "data" / "game_changers.txt"
CARDS_NAME = "scryfall-cards.jsonl.gz"
FOREIGN_NAME = "foreign-names.jsonl.gz"


def _shared_dir(value: str | None) -> Path | None:
    """The ``SHARED_DIR`` override as a path, or None when it is unset or empty."""
    return Path(value).expanduser() if value and value.strip() else None


def cards_file_for(shared_dir: Path | None) -> Path:
    """The card data file: ``<shared_dir>/data/scryfall-cards.jsonl.gz``, else ``../shared`` beside the checkout."""
    return (shared_dir if shared_dir is not None else REPO_ROOT.parent / "shared") / "data" / CARDS_NAME


SHARED_DIR: Path | None = _shared_dir(os.environ.get("SHARED_DIR"))
CARDS_FILE: Path = cards_file_for(SHARED_DIR)
FOREIGN_FILE: Path = CARDS_FILE.with_name(FOREIGN_NAME)


@lru_cache(maxsize=1)
def game_changers() -> frozenset[str]:
    """The official Game Changers list (tests/data/game_changers.txt), by card name."""
    lines = GAME_CHANGERS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def with_game_changer(card_obj: dict[str, Any]) -> dict[str, Any]:
    """`card_obj` with Scryfall's `game_changer` field (true on the Game Changers list, else false) where it
    has none: the shared data set predates the field, Scryfall serves it on every card."""
    if "game_changer" not in card_obj:
        faces = [f.get("name") for f in card_obj.get("card_faces") or () if isinstance(f, dict)]
        card_obj["game_changer"] = any(n in game_changers() for n in (card_obj.get("name"), *faces[:1]))
    return card_obj


T = TypeVar("T")


def kept(load: Callable[[], T]) -> Callable[[], T]:
    """`load()` once per process, its objects then frozen out of the garbage collector's walks (`gc.freeze`):
    data alive for the whole run (hundreds of thousands of objects) would make every full collection slower."""

    @lru_cache(maxsize=1)
    @wraps(load)
    def once() -> T:
        value = load()
        gc.freeze()
        return value

    return once


@kept
def all_cards() -> tuple[dict[str, Any], ...]:
    """Every card object in the data set (24,249 of them), each with `game_changer` as Scryfall serves it.
    Cached per process."""
    if not CARDS_FILE.is_file():
        where = (
            f"SHARED_DIR={SHARED_DIR} points at no"
            if SHARED_DIR is not None
            else "no ../shared beside the checkout holds the"
        )
        raise FileNotFoundError(f"{where} card data file {CARDS_FILE}")
    with gzip.open(CARDS_FILE, "rt", encoding="utf-8") as fh:
        return tuple(with_game_changer(json.loads(line)) for line in fh if line.strip())


@kept
def all_analyses() -> tuple[Any, ...]:
    """`bot.identity.analyze` of every card of `all_cards()`, in its order (the engine is pure: worked out once
    per process for the tests that read all of them)."""
    from bot.identity import analyze

    return tuple(analyze(card) for card in all_cards())


@kept
def commander_flags() -> tuple[bool, ...]:
    """`bot.cards.rows.can_be_commander` of every card of `all_cards()`, in its order (once per process: the
    fake Scryfall's `is:commander` and the name index tests read all of them)."""
    from bot.cards.rows import can_be_commander

    return tuple(map(can_be_commander, all_cards()))


@lru_cache(maxsize=1)
def cards_by_name() -> dict[str, dict[str, Any]]:
    """The data set keyed by full card name (e.g. 'Fire // Ice')."""
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


def write_bulk_file(path: Path) -> Path:
    """The data set as an oracle_cards file (JSON Lines) at `path`, `game_changer` on every card."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(c, separators=(",", ":")) + "\n" for c in all_cards())
    return path
