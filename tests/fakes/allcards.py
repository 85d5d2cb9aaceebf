"""A Scryfall `all_cards` bulk file made from the shared data set, and the foreign printings it holds.

Every card of `scryfall-cards.jsonl.gz` is one English printing (no `printed_name`), and every printed name
of `foreign-names.jsonl.gz` one printing in its language, in Scryfall's shape: `object: card`, `id`,
`oracle_id`, `lang`, English `name`, `layout`, `printed_name` — or, on multi-face cards, `card_faces[]`
each with its English `name` and `printed_name`. The printings of `tests/data/printed_texts.json` (typed
from the printed cards) carry their `printed_text`, the English `oracle_text` and `released_at` too, as
Scryfall's do. Built once per test session, on first use (about 210,000 objects).
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
import random
import uuid
from collections.abc import Callable, Collection, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from bot.cards.names import normalize
from bot.cards.printed import printed_key
from tests.shared_data import FOREIGN_FILE, all_cards, kept

printed_key_of = cache(printed_key)  # the key of a printed name of the data set, made once per process

_NAMESPACE = uuid.UUID("5f0c2a55-8f1e-4c3a-9d7e-0a1b2c3d4e5f")
PRINTED_TEXTS = Path(__file__).resolve().parent.parent / "data" / "printed_texts.json"


@lru_cache(maxsize=1)
def printed_texts() -> dict[tuple[str, str], dict[str, Any]]:
    """(English name, language) -> the printing of `printed_texts.json` (its text, set, release date)."""
    entries = json.loads(PRINTED_TEXTS.read_text(encoding="utf-8"))
    return {(e["name"], e["lang"]): e for e in entries}


@kept
def foreign_lines() -> tuple[dict[str, Any], ...]:
    """The lines of `foreign-names.jsonl.gz` (see its README)."""
    with gzip.open(FOREIGN_FILE, "rt", encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


_SEED = hashlib.sha1(_NAMESPACE.bytes)  # SHA-1 of the namespace: `_uuid5` hashes each name on a copy of it


def _uuid5(name: str) -> str:
    """`str(uuid.uuid5(_NAMESPACE, name))`, without building a UUID object (145,000 of them per process)."""
    sha = _SEED.copy()
    sha.update(name.encode())
    h = sha.hexdigest()  # version 5 in the third group, the RFC 4122 variant in the fourth's first digit
    return f"{h[:8]}-{h[8:12]}-5{h[13:16]}-{'89ab'[int(h[16], 16) & 3]}{h[17:20]}-{h[20:32]}"


def _english(card: dict[str, Any]) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "object": "card",
        "id": card["id"],
        "oracle_id": card.get("oracle_id"),
        "lang": "en",
        "name": card["name"],
        "layout": card.get("layout", "normal"),
    }
    if card.get("card_faces"):
        obj["card_faces"] = [{"object": "card_face", "name": f.get("name")} for f in card["card_faces"]]
    return obj


def _face_names(line: dict[str, Any], lang: str, index: int, joined: str | None, count: int) -> list[str]:
    """The printed face names of one multi-face printing: its joined name split, else the per-face lists."""
    parts = joined.split(" // ") if joined else []
    if len(parts) == count:
        return parts
    faces = line.get("faces") or [{}] * count
    names = []
    for face in faces[:count]:
        values = face.get("printed", {}).get(lang) or [joined or line["name"]]
        names.append(values[min(index, len(values) - 1)])
    return names


def _printings(line: dict[str, Any], card: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    joined_names: list[str] = line["printed"].get(lang, [])
    faces = card.get("card_faces") or []
    per_face = [len(f.get("printed", {}).get(lang, [])) for f in line.get("faces") or ()]
    out = []
    for i in range(max([len(joined_names), *per_face])):
        joined = joined_names[i] if i < len(joined_names) else None
        obj: dict[str, Any] = {
            "object": "card",
            "id": _uuid5(f"{card['id']}/{lang}/{i}"),
            "oracle_id": card.get("oracle_id"),
            "lang": lang,
            "name": card["name"],
            "layout": card.get("layout", "normal"),
        }
        if len(faces) > 1 and line.get("faces"):
            printed = _face_names(line, lang, i, joined, len(faces))
            obj["card_faces"] = [
                {"object": "card_face", "name": f.get("name"), "printed_name": p}
                for f, p in zip(faces, printed, strict=True)
            ]
        else:
            obj["printed_name"] = joined or joined_names[-1]
        if i == 0 and (typed := printed_texts().get((card["name"], lang))) is not None:
            obj["oracle_text"] = card.get("oracle_text", "")
            obj.update({k: typed[k] for k in ("printed_text", "released_at")})
        out.append(obj)
    return out


@kept
def foreign_printings() -> tuple[dict[str, Any], ...]:
    """One slim printing object per (card, language, printed name) of the foreign-names file."""
    by_key = {(c["name"], c.get("oracle_id")): c for c in all_cards()}
    out: list[dict[str, Any]] = []
    for line in foreign_lines():
        card = by_key[(line["name"], line["oracle_id"])]
        for lang in line["printed"]:
            out.extend(_printings(line, card, lang))
    return tuple(out)


@lru_cache(maxsize=1)
def all_cards_gz() -> bytes:
    """The whole file, a gzipped JSON array of English and foreign printings, as Scryfall serves it."""
    objects = [_english(c) for c in all_cards()]
    objects.extend(foreign_printings())
    return gzip.compress(json.dumps(objects, ensure_ascii=False).encode(), compresslevel=1)


def all_cards_gz_of(names: Collection[str]) -> bytes:
    """The all_cards file of the named cards only (their English and foreign printings, as in `all_cards_gz`):
    a small download for the tests of a refresh or a sync, not of the whole file."""
    objects = [_english(c) for c in all_cards() if c["name"] in names]
    objects.extend(p for p in foreign_printings() if p["name"] in names)
    return gzip.compress(json.dumps(objects, ensure_ascii=False).encode(), compresslevel=1)


def oracle_cards_of(count: int) -> bytes:
    """An oracle_cards file (JSON array) of the first `count` cards of the shared data set, for tests of a
    refresh or a sync that need a real download, not a 24,000-card one."""
    return json.dumps(list(all_cards()[:count])).encode()


@lru_cache(maxsize=1)
def _printed_owners() -> dict[str, frozenset[str]]:
    """Printed-name key -> the English names of the cards printed so (in any language)."""
    owners: dict[str, set[str]] = {}
    for line in foreign_lines():
        for names in line["printed"].values():
            for name in names:
                owners.setdefault(printed_key_of(name), set()).add(line["name"])
    return {key: frozenset(names) for key, names in owners.items()}


@lru_cache(maxsize=1)
def _english_keys() -> frozenset[str]:
    """Every name key of the English cards: the keys of the fake Scryfall's index of them (built once)."""
    from tests.fakes.scryfall import shared_index

    return frozenset(shared_index().by_key)


def printed_sample(
    langs: Sequence[str], per_lang: int, *, seed: int = 26, english: Callable[[str], bool] | None = None
) -> list[tuple[str, str, str]]:
    """(language, printed name, English name) drawn at random (seeded) from the foreign-names file, `per_lang`
    per language: names that print one card only, in every language, and are no English card's name (an
    exact English name is read in English first). `english(name)`: names it says are read as an English
    name's part (by the local index) are left out too."""
    owners, taken = _printed_owners(), _english_keys()
    rng = random.Random(seed)
    out: list[tuple[str, str, str]] = []
    for lang in langs:
        pool = [
            (lang, line["printed"][lang][0], line["name"])
            for line in foreign_lines()
            if lang in line["printed"] and not line.get("faces")
        ]
        rng.shuffle(pool)
        fits = (
            entry
            for entry in pool
            if owners[printed_key_of(entry[1])] == {entry[2]}
            and normalize(entry[1]) not in taken
            and not (english and english(entry[1]))
        )
        out.extend(itertools.islice(fits, per_lang))
    return out
