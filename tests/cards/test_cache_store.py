"""The SQLite cache: name normalisation, schema migrations, WAL, corrupt files."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cards.cache import CardCache
from bot.cards.index import NameIndex
from bot.cards.names import clean_input, normalize, rank_candidates
from bot.cards.rows import can_be_commander, name_keys
from bot.cards.schema import MIGRATIONS, SCHEMA_VERSION
from tests.cards import cache_counts
from tests.shared_data import card


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("Fire // Ice", "fire ice"),
        ("fire ice", "fire ice"),
        ("Fire/Ice", "fire ice"),
        ("  FIRE   //ICE ", "fire ice"),
        ("Æther Vial", "aether vial"),
        ("Lim-Dûl's Vault", "lim duls vault"),
        ("Kumano, Master Yamabushi", "kumano master yamabushi"),
        ("Kumano’s Pupils", "kumanos pupils"),
        ("_____", "_____"),
    ],
)
def test_normalize(raw, key):
    assert normalize(raw) == key


def test_clean_input_strips_control_characters():
    assert clean_input("Sol\x00 Ring\u200b\n") == "Sol Ring"
    assert clean_input("\x07\x1b  ") == ""


def test_name_keys_include_faces():
    keys = dict(name_keys(card("Civilized Scholar // Homicidal Brute")))
    assert keys == {"civilized scholar homicidal brute": 0, "civilized scholar": 1, "homicidal brute": 1}
    assert dict(name_keys(card("Fire // Ice"))) == {"fire ice": 0, "fire": 1, "ice": 1}


def test_commander_detection():
    assert can_be_commander(card("Kumano, Master Yamabushi"))
    assert not can_be_commander(card("Kumano Faces Kakkazan // Etching of Kumano"))
    assert not can_be_commander(card("Kumano's Pupils"))
    assert can_be_commander(card("Daretti, Scrap Savant"))  # "can be your commander"


def test_name_index_candidates_rank_whole_words_first():
    from bot.cards.search import IndexEntry

    names = ["Kumano's Pupils", "Kumano, Master Yamabushi", "Kumano Faces Kakkazan // Etching of Kumano"]
    index = NameIndex(
        IndexEntry(n, normalize(n), str(i), n.startswith("Kumano,"), 0) for i, n in enumerate(names)
    )
    assert index.candidates("kumano") == [
        "Kumano, Master Yamabushi",
        "Kumano Faces Kakkazan // Etching of Kumano",
        "Kumano's Pupils",
    ]
    assert index.match("kumano", commanders_only=True).names == ["Kumano, Master Yamabushi"]
    assert index.match("yamabushi").names == ["Kumano, Master Yamabushi"]
    assert index.match("kumano mastr yamabushi").kind == "unique"  # typo, fuzzy
    assert index.match("zzzz qqqq").kind == "none"


async def test_new_cache_is_wal_and_current(tmp_path):
    path = tmp_path / "deep" / "dir" / "cards.sqlite3"
    cache = await CardCache.open(path)
    await cache.put_cards([card("Sol Ring")])
    await cache.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT name FROM cards").fetchall() == [("Sol Ring",)]
    conn.close()


async def test_migrates_a_version_1_cache_keeping_its_cards(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[1])
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version VALUES (1)")
    conn.commit()
    conn.close()
    cache = await CardCache.open(path)
    await cache.put_cards([card("Sol Ring")])
    await cache.close()
    # reopen the upgraded file: every later version's tables exist, data kept
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO queries VALUES ('fuzzy', 'x', 'y', 0)")
    assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
    cache = await CardCache.open(path)
    rows = await cache.lookup_name("sol ring")
    assert [r.name for r in rows] == ["Sol Ring"]
    await cache.close()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "newer"])
async def test_corrupt_cache_is_moved_aside_and_rebuilt(
    fake_scryfall, make_card_service, tmp_path, caplog, damage
):
    path = tmp_path / "cache" / "cards.sqlite3"
    path.parent.mkdir(parents=True)
    if damage == "garbage":
        path.write_bytes(b"this is not a database at all\n" * 200)
    else:
        cache = await CardCache.open(path)
        await cache.put_cards(
            [card(n) for n in ("Sol Ring", "Lightning Bolt", "Dismember", "Fire // Ice")] * 1
        )
        await cache.close()
        if damage == "truncated":
            data = path.read_bytes()
            path.write_bytes(data[:4096] + b"\x00" * 100 + data[4096 + 100 : len(data) // 2])
        else:
            conn = sqlite3.connect(path)
            conn.execute("UPDATE schema_version SET version = 99")
            conn.commit()
            conn.close()
    with caplog.at_level(logging.ERROR, logger="bot.cards.schema"):
        service = await make_card_service()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.cards.schema"]
    assert len(lines) == 1 and "moved it to" in lines[0], lines
    assert list(path.parent.glob("cards.sqlite3.corrupt-*"))
    assert not service.cache.in_memory
    resolved = await service.resolve("Sol Ring")
    assert resolved.name == "Sol Ring" and resolved.source == "api"
    # A second start opens the rebuilt cache without complaint (no crash loop) and remembers the card.
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="bot.cards.schema"):
        again = await make_card_service()
    assert not [r for r in caplog.records if r.name == "bot.cards.schema"]
    assert (await again.peek("Sol Ring")).source == "cache"
    assert fake_scryfall.count() == 1


async def test_unusable_location_falls_back_to_memory(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("a file where a directory should be")
    with caplog.at_level(logging.ERROR, logger="bot.cards.schema"):
        cache = await CardCache.open(blocker / "cards.sqlite3")
    assert cache.in_memory
    assert await cache.put_cards([card("Sol Ring")]) == 1
    assert [r.name for r in await cache.lookup_name("sol ring")] == ["Sol Ring"]
    assert any("in-memory" in r.getMessage() for r in caplog.records)
    await cache.close()


async def test_only_card_objects_are_stored(tmp_path):
    cache = await CardCache.open(tmp_path / "c.sqlite3")
    stored = await cache.put_cards(
        [
            {"object": "error", "code": "not_found", "status": 404},
            {"object": "card", "name": "No Id"},
            card("Sol Ring"),
        ]
    )
    assert stored == 1
    assert cache_counts(cache.path)["cards"] == 1
    await cache.close()


@given(st.text(max_size=60))
def test_normalize_is_idempotent_and_clean_input_has_no_controls(text):
    key = normalize(text)
    assert normalize(key) == key
    assert key == key.strip()
    cleaned = clean_input(text)
    assert not any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in cleaned)
    assert normalize(cleaned) == normalize(clean_input(cleaned))


@given(st.lists(st.sampled_from(["Fire", "Ice", "Kumano", "Bolt", "Sol", "Ring"]), min_size=1, max_size=4))
def test_split_spellings_share_a_key(parts):
    assert normalize(" // ".join(parts)) == normalize(" ".join(parts)) == normalize("/".join(parts))


def test_rank_candidates():
    names = ["Kumano's Pupils", "Etching of Kumano", "Kumano, Master Yamabushi", "Akumanoid"]
    assert rank_candidates("kumano", names, {}.get) == [
        "Kumano, Master Yamabushi",
        "Etching of Kumano",
        "Kumano's Pupils",
        "Akumanoid",
    ]
