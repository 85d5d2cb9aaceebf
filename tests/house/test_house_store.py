"""House rules are data nobody may lose: they live in the card cache file's house tables, which a schema
upgrade from the previous version creates beside the old data, a card-data import never touches, a crash
mid-write leaves old or new (never half), and a cache moved aside as corrupt hands over to the new cache."""

from __future__ import annotations

import contextlib
import gzip
import itertools
import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.cards.allcards import import_printed_names
from bot.cards.bulk import import_file
from bot.cards.cache import CardCache
from bot.cards.schema import MIGRATIONS, SCHEMA_VERSION, prepare_database
from bot.house.backup import import_rules
from bot.house.rules import Ban, Rules, ban_of
from bot.house.store import HouseRulesUnavailable, HouseStore
from tests.shared_data import CARDS_FILE, card

GUILD, OTHER = 1_100_000_000_000_000_100, 1_100_000_000_000_000_500
ROOT = Path(__file__).parents[2]


def house_rows(path: Path) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        bans = db.execute(
            "SELECT guild_id, card_key, name FROM house_bans ORDER BY guild_id, name"
        ).fetchall()
        brackets = db.execute("SELECT guild_id, bracket FROM house_brackets ORDER BY guild_id").fetchall()
    return [*bans, *brackets]


async def cache_with_rules(tmp_path: Path) -> Path:
    """A new cache file whose house rules ban Sol Ring and set bracket 2 in GUILD."""
    path = tmp_path / "cards.sqlite3"
    prepare_database(path)
    async with await HouseStore.open(path) as store:
        await store.ban(GUILD, ban_of(card("Sol Ring")))
        await store.set_bracket(GUILD, 2)
    return path


async def rules_in(path: Path, guild: int = GUILD) -> Rules:
    async with await HouseStore.open(path) as store:
        return await store.rules(guild)


async def test_ban_unban_bracket_clear(tmp_path):
    path = tmp_path / "cards.sqlite3"
    prepare_database(path)
    sol, bolt = ban_of(card("Sol Ring")), ban_of(card("Lightning Bolt"))
    async with await HouseStore.open(path) as store:
        assert (await store.rules(GUILD)).empty
        assert await store.ban(GUILD, sol) and not await store.ban(GUILD, sol)
        await store.ban(GUILD, bolt)
        await store.set_bracket(GUILD, 2)
        await store.set_bracket(GUILD, 3)
        rules = await store.rules(GUILD)
        assert [b.name for b in rules.bans] == ["Lightning Bolt", "Sol Ring"] and rules.bracket == 3
        assert rules.banned(card("Sol Ring")) and not rules.banned(card("Dismember"))
        assert (await store.rules(OTHER)).empty  # one server's rules are its own
        assert await store.unban(GUILD, sol) and not await store.unban(GUILD, sol)
        removed = await store.clear(GUILD)
        assert removed.bans == (bolt,) and removed.bracket == 3
        assert (await store.rules(GUILD)).empty
    assert house_rows(path) == []


async def test_a_change_by_another_process_is_seen_at_the_next_command(tmp_path):
    path = tmp_path / "cards.sqlite3"
    prepare_database(path)
    async with await HouseStore.open(path) as store:
        assert (await store.rules(GUILD)).empty  # now in memory
        export = {
            "format": "identity-bot house rules",
            "version": 1,
            "servers": [{"guild_id": str(GUILD), "bracket": 1}],
        }
        import_rules(path, export)  # as `python -m bot house import` does, on its own connection
        assert (await store.rules(GUILD)).bracket == 1


async def test_the_card_caches_own_writes_keep_the_rules_in_memory(tmp_path):
    """Rules are read once: a Scryfall answer stored in the same file (the card cache's own connection) does not
    make the store read them again; a house write of another connection (its stamp) does."""
    path = await cache_with_rules(tmp_path)
    async with await HouseStore.open(path) as store, await CardCache.open(path) as cache:
        assert (await store.rules(GUILD)).bracket == 2  # now in memory
        with contextlib.closing(sqlite3.connect(path)) as db, db:  # a change no house write made: unseen
            db.execute("UPDATE house_brackets SET bracket = 4")
        await cache.put_cards([card("Lightning Bolt")])
        assert (await store.rules(GUILD)).bracket == 2
        import_rules(path, {"format": "identity-bot house rules", "version": 1, "servers": []})
        assert (await store.rules(GUILD)).bracket == 4  # the stamp moved: read again
        await store.set_bracket(OTHER, 3)  # its own write keeps the other servers' copies
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            db.execute("UPDATE house_brackets SET bracket = 5 WHERE guild_id = ?", (GUILD,))
        assert (await store.rules(GUILD)).bracket == 4 and (await store.rules(OTHER)).bracket == 3


def test_a_card_is_banned_by_oracle_id_or_by_name():
    sol = card("Sol Ring")
    rules = Rules((ban_of(sol),))
    reprint = {**sol, "id": "another-printing", "name": "Sol Ring"}
    renamed = {**sol, "name": "Sol Ring (renamed)"}
    assert rules.banned(reprint) and rules.banned(renamed)
    assert Rules((Ban("no-oracle-id", "Sol Ring"),)).banned({"name": "sol ring"})
    assert not rules.banned(card("Lightning Bolt"))
    with pytest.raises(ValueError):
        Rules(bracket=6)


async def test_upgrading_a_version_4_cache_keeps_its_cards_and_adds_the_house_tables(tmp_path):
    """An image upgrade: the previous schema version (4) with cards in it, opened by this version."""
    path = tmp_path / "v4.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        for version in range(1, 5):
            db.executescript(MIGRATIONS[version])
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (4)")
        db.commit()
    async with await CardCache.open(path) as cache:
        await cache.put_cards([card("Sol Ring")])
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION == 6
    async with await HouseStore.open(path) as store:
        await store.ban(GUILD, ban_of(card("Sol Ring")))
    async with await CardCache.open(path) as cache:  # a second start: nothing migrates again
        assert [r.name for r in await cache.lookup_name("sol ring")] == ["Sol Ring"]
    assert (await rules_in(path)).ban_count == 1


@pytest.mark.slow
async def test_rules_survive_card_data_imports(tmp_path):
    path = await cache_with_rules(tmp_path)
    before = house_rows(path)
    # `sync-cards` and the bulk refresh write into the same file (2,000 cards of the data set: the same writes)
    oracle = tmp_path / "oracle-cards.jsonl.gz"
    with gzip.open(CARDS_FILE) as fh:
        oracle.write_bytes(gzip.compress(b"".join(itertools.islice(fh, 2_000)), compresslevel=1))
    assert import_file(oracle, path).cards == 2_000
    printings = tmp_path / "all-cards.json"  # an all_cards file: a German printing
    bolt = card("Lightning Bolt")
    german = {"object": "card", "lang": "de", "name": bolt["name"], "oracle_id": bolt["oracle_id"]}
    printings.write_text(json.dumps([german | {"printed_name": "Blitzschlag"}]), encoding="utf-8")
    assert import_printed_names(printings, path, ["de"]).printings == 1  # they replace their own tables only
    assert house_rows(path) == before
    assert (await rules_in(path)).bracket == 2


CRASH_MID_WRITE = """
import os, signal, sys
from bot.cards.schema import connect_sync
db = connect_sync(sys.argv[1])
db.execute("BEGIN IMMEDIATE")
db.execute("DELETE FROM house_bans WHERE guild_id = ?", ({guild},))
db.executemany(
    "INSERT INTO house_bans (guild_id, card_key, name, added_at) VALUES (?, ?, ?, 0)",
    [({guild}, f"key-{{i}}", f"Card {{i}}") for i in range(5000)],
)
db.execute("INSERT OR REPLACE INTO house_brackets (guild_id, bracket, set_at) VALUES ({guild}, 5, 0)")
os.kill(os.getpid(), signal.SIGKILL)  # the power goes out before COMMIT
"""


def run_child(code: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, timeout=120)


@pytest.mark.slow
async def test_a_crash_mid_write_leaves_the_old_rules(tmp_path):
    path = await cache_with_rules(tmp_path)
    before = house_rows(path)
    child = run_child(textwrap.dedent(CRASH_MID_WRITE.format(guild=GUILD)), str(path))
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    assert house_rows(path) == before  # the WAL's uncommitted frames are ignored when the file reopens
    rules = await rules_in(path)
    assert [b.name for b in rules.bans] == ["Sol Ring"] and rules.bracket == 2
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


KILLED_IMPORT = """
import json, sys
from bot.house.backup import import_rules
print("importing", flush=True)
import_rules(sys.argv[1], json.load(open(sys.argv[2])))
print("imported", flush=True)
"""


@pytest.mark.slow
def test_an_import_killed_at_any_moment_leaves_old_or_new(tmp_path):
    path = tmp_path / "cards.sqlite3"
    one = [{"key": "sol", "name": "Sol Ring"}]
    import_rules(
        path,
        {
            "format": "identity-bot house rules",
            "version": 1,
            "servers": [{"guild_id": str(GUILD), "bans": one}],
        },
    )
    old = house_rows(path)
    bans = [{"key": f"key-{i}", "name": f"Card {i}"} for i in range(100_000)]
    export = {
        "format": "identity-bot house rules",
        "version": 1,
        "servers": [{"guild_id": str(GUILD), "bans": bans}],
    }
    file = tmp_path / "rules.json"
    file.write_text(json.dumps(export))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_IMPORT, str(path), str(file)], env=env, stdout=subprocess.PIPE
    )
    assert child.stdout is not None
    assert child.stdout.readline() == b"importing\n"  # killed while reading or writing
    child.kill()
    child.wait(60)
    rows = house_rows(path)
    assert rows == old or len(rows) == len(bans)
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_a_cache_moved_aside_hands_its_rules_to_the_new_one(tmp_path, caplog):
    path = tmp_path / "cards.sqlite3"
    prepare_database(path)
    async with await HouseStore.open(path) as store:
        await store.ban(GUILD, ban_of(card("Sol Ring")))
        await store.set_bracket(GUILD, 4)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE schema_version SET version = 99")  # a newer image's cache: unusable here
    with caplog.at_level(logging.WARNING):
        prepare_database(path)
    [moved] = tmp_path.glob("cards.sqlite3.corrupt-*")
    assert any("copied 2 rows" in r.getMessage() for r in caplog.records)
    rules = await rules_in(path)
    assert [b.name for b in rules.bans] == ["Sol Ring"] and rules.bracket == 4
    assert moved.exists()  # kept


async def test_an_unreadable_cache_says_how_to_restore_the_rules(tmp_path, caplog):
    path = tmp_path / "cards.sqlite3"
    path.write_bytes(b"this is not a database at all\n" * 200)
    with caplog.at_level(logging.ERROR):
        prepare_database(path)
    [moved] = tmp_path.glob("cards.sqlite3.corrupt-*")
    [line] = [r.getMessage() for r in caplog.records if "HOUSE RULES" in r.getMessage()]
    assert f"house export --db {moved}" in line and "house import" in line


async def test_without_a_cache_file_changes_are_refused(tmp_path):
    async with await HouseStore.open(":memory:") as store:
        assert (await store.rules(GUILD)).empty
        with pytest.raises(HouseRulesUnavailable):
            await store.ban(GUILD, ban_of(card("Sol Ring")))
