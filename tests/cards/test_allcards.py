"""The all_cards importer: download through the fake Scryfall, stream, keep only the languages turned on."""

from __future__ import annotations

import gzip
import json
import sqlite3
import tracemalloc
from pathlib import Path

import aiohttp
import pytest

from bot import cli
from bot.cards.allcards import (
    import_printed_names,
    imported_languages,
    load_printed_names,
    printed_rows,
    sync_printed_names,
)
from bot.cards.budget import Budget
from bot.cards.bulk import BulkFormatError
from bot.cards.cache import CardCache
from bot.cards.scryfall import ScryfallClient, ScryfallUnavailable
from tests.fakes.allcards import printed_texts
from tests.fakes.scryfall import FakeScryfall
from tests.shared_data import all_cards


@pytest.fixture
def small_file(tmp_path):
    """A small all_cards file: Lightning Bolt in English, German, French and Japanese, Dusk // Dawn in German."""
    bolt = {"object": "card", "lang": "en", "name": "Lightning Bolt", "oracle_id": "bolt"}
    dusk = {
        "object": "card",
        "lang": "de",
        "name": "Dusk // Dawn",
        "oracle_id": "dusk",
        "card_faces": [
            {"name": "Dusk", "printed_name": "Sonnenuntergang"},
            {"name": "Dawn", "printed_name": "Sonnenaufgang"},
        ],
    }
    objects = [
        bolt,
        dusk,
        dict(bolt, lang="de", printed_name="Blitzschlag"),
        dict(bolt, lang="fr", printed_name="Foudre"),
        dict(bolt, lang="ja", printed_name="稲妻"),
    ]
    path = tmp_path / "all-cards.json.gz"
    path.write_bytes(gzip.compress(json.dumps(objects).encode()))
    return path


def _langs_in_table(db):
    with sqlite3.connect(db) as conn:
        return {lang for (lang,) in conn.execute("SELECT DISTINCT lang FROM printed_names")}


async def test_sync_downloads_all_cards_and_keeps_only_the_languages_on(tmp_path):
    db = tmp_path / "cache" / "cards.sqlite3"
    async with FakeScryfall() as fake, aiohttp.ClientSession() as session:
        fake.serve_all_cards()
        client = ScryfallClient(session, fake.base_url, budget=Budget(), timeout=30)
        result = await sync_printed_names(client, db, ["de"])
    assert fake.count("/bulk-data") == 1 and fake.count("/bulk/all-cards.json.gz") == 1
    assert not db.with_name(db.name + ".all-cards.json").exists()  # the download is deleted
    assert _langs_in_table(db) == {"de"}
    assert result.printings > 15_000
    assert 15_000 < result.names < 25_000
    index = load_printed_names(db, ["de"])
    assert index is not None
    assert index.lookup("Blitzschlag") == ["Lightning Bolt"]
    assert index.lookup("Sonnenuntergang") == ["Dusk // Dawn"]
    assert index.lookup("Zwang") == ["Coercion", "Duress"]
    assert index.lookup("Foudre") == []  # French is not turned on
    assert set(imported_languages(db)) == {"de"}


async def test_sync_of_a_file_without_the_languages_keeps_the_names(tmp_path, small_file):
    """The bot's own import (in a child process) fails the same way, and keeps what it had."""
    db = tmp_path / "cards.sqlite3"
    import_printed_names(small_file, db, ["de"])
    english = [{"object": "card", "lang": "en", "name": "Sol Ring", "oracle_id": "ring"}]
    async with FakeScryfall() as fake, aiohttp.ClientSession() as session:
        fake.serve_all_cards(gzip.compress(json.dumps(english).encode()))
        client = ScryfallClient(session, fake.base_url, budget=Budget(), timeout=30)
        with pytest.raises(BulkFormatError, match="holds no printings in de: its 1 card objects are in en"):
            await sync_printed_names(client, db, ["de"])
    assert _langs_in_table(db) == {"de"}


async def test_sync_without_an_all_cards_file_listed(tmp_path):
    async with FakeScryfall() as fake, aiohttp.ClientSession() as session:
        client = ScryfallClient(session, fake.base_url, budget=Budget(), timeout=5)
        with pytest.raises(ScryfallUnavailable):
            await sync_printed_names(client, tmp_path / "cards.sqlite3", ["de"])
    assert not (tmp_path / "cards.sqlite3").exists()


def test_a_new_import_replaces_the_languages(small_file, tmp_path):
    db = tmp_path / "cards.sqlite3"
    result = import_printed_names(small_file, db, ["de", "fr"], clock=lambda: 1000.0)
    assert (result.printings, result.names) == (3, 5)  # Blitzschlag, Foudre, the joined and the face names
    assert _langs_in_table(db) == {"de", "fr"}
    assert imported_languages(db) == {"de": 1000.0, "fr": 1000.0}
    import_printed_names(small_file, db, ["ja"], clock=lambda: 2000.0)
    assert _langs_in_table(db) == {"ja"}
    assert imported_languages(db) == {"ja": 2000.0}
    index = load_printed_names(db, ["ja"])
    assert index is not None and index.lookup("稲妻") == ["Lightning Bolt"]
    assert load_printed_names(db, ["de"]) is None


def test_the_most_printed_spelling_is_shown(tmp_path):
    objects = [
        {"object": "card", "lang": "ja", "name": "Sol Ring", "oracle_id": "o1", "printed_name": n}
        for n in ("太陽のリング", "太陽の指輪", "太陽の指輪")
    ]
    path = tmp_path / "all.json"
    path.write_text(json.dumps(objects))
    import_printed_names(path, tmp_path / "cards.sqlite3", ["ja"])
    index = load_printed_names(tmp_path / "cards.sqlite3", ["ja"])
    assert index is not None
    assert index.complete("太陽の", 5) == [
        ("太陽の指輪", "Sol Ring"),
        ("太陽のリング", "Sol Ring"),
    ]  # most printed first
    with sqlite3.connect(tmp_path / "cards.sqlite3") as conn:
        assert dict(conn.execute("SELECT printed, prints FROM printed_names")) == {
            "太陽の指輪": 2,
            "太陽のリング": 1,
        }


def test_keys_of_another_version_are_folded_again(tmp_path):
    objects = [
        {
            "object": "card",
            "lang": "de",
            "name": "Lightning Bolt",
            "oracle_id": "o",
            "printed_name": "Blitzschlag",
        }
    ]
    path, db = tmp_path / "all.json", tmp_path / "cards.sqlite3"
    path.write_text(json.dumps(objects))
    import_printed_names(path, db, ["de"])
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT key FROM printed_names").fetchall() == [("blitzschlag",)]
        conn.execute("UPDATE printed_names SET key = 'stale'")
        conn.execute("UPDATE printed_languages SET key_version = key_version - 1")
    index = load_printed_names(db, ["de"])
    assert index is not None and index.lookup("BLITZ SCHLAG") == ["Lightning Bolt"]


def test_streaming_memory_is_bounded_by_the_names_kept(tmp_path):
    """The file is read as a stream: peak memory stays far below the file's size (each object here carries
    10 KB of other fields, like Scryfall's own)."""
    path = tmp_path / "all.json"
    with path.open("w") as fh:
        fh.write("[")
        for n in range(3000):
            lang = ("de", "fr", "en")[n % 3]
            obj = {
                "object": "card",
                "lang": lang,
                "name": f"Card {n % 500}",
                "oracle_id": f"o{n % 500}",
                "printed_name": f"Karte {n % 500}",
                "printed_text": f"Text {n % 500}",
                "flavor_text": "x" * 10_000,
            }
            fh.write(("," if n else "") + json.dumps(obj))
        fh.write("]")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        result = import_printed_names(path, tmp_path / "cards.sqlite3", ["de"])
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (result.printings, result.names, result.texts) == (1000, 500, 500)  # one text per card
    assert peak < size / 10, (peak, size)


def test_rows_of_one_printing():
    english = {"object": "card", "lang": "en", "name": "Lightning Bolt", "oracle_id": "o"}
    french = dict(english, lang="fr", printed_name="Foudre")
    assert printed_rows(english, {"en", "fr"}) == []
    assert printed_rows(french, {"de"}) == []
    assert printed_rows(french, {"fr"}) == [("fr", "Foudre", "o", "Lightning Bolt")]
    reversible = {
        "object": "card",
        "lang": "de",
        "name": "X // X",
        "card_faces": [{"oracle_id": "r", "printed_name": "Y"}, {"oracle_id": "r", "printed_name": "Y"}],
    }
    assert printed_rows(reversible, {"de"}) == [("de", "Y // Y", "r", "X // X"), ("de", "Y", "r", "X // X")]
    assert printed_rows({"object": "set", "lang": "de"}, {"de"}) == []
    assert printed_rows(["not", "a", "card"], {"de"}) == []


def test_feature_off_reads_nothing(tmp_path):
    db = tmp_path / "cards.sqlite3"
    assert load_printed_names(db, ["de"]) is None and imported_languages(db) == {}  # no file
    sqlite3.connect(db).close()
    assert load_printed_names(db, ["de"]) is None and imported_languages(db) == {}  # no table
    assert load_printed_names(db, []) is None
    assert not [fd for fd in Path("/proc/self/fd").iterdir() if fd.resolve() == db]  # no connection left open


def imported(file: str, db: Path, languages: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """`python -m bot sync-cards --printed FILE --cache DB` with CARD_LANGUAGES=`languages`."""
    monkeypatch.setenv("CARD_LANGUAGES", languages)
    return cli.main(["sync-cards", "--printed", file, "--cache", str(db)])


def test_bad_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        import_printed_names(tmp_path / "missing.json", tmp_path / "c.sqlite3", ["de"])
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    with pytest.raises(BulkFormatError):
        import_printed_names(empty, tmp_path / "c.sqlite3", ["de"])


def test_command_line(small_file, tmp_path, clean_env, capsys, monkeypatch):
    monkeypatch.delenv("CARD_LANGUAGES", raising=False)
    db = tmp_path / "cards.sqlite3"
    assert imported(str(small_file), db, "ja", monkeypatch) == 0
    assert "kept 1 names from 1 printings" in capsys.readouterr().out
    assert _langs_in_table(db) == {"ja"}
    assert imported(str(small_file), db, "", monkeypatch) == 2  # CARD_LANGUAGES is off
    assert imported(str(tmp_path / "nothing.json"), db, "de", monkeypatch) == 1
    assert "error: the printed names could not be imported: " in capsys.readouterr().err


async def test_one_printed_text_per_card_and_language_the_one_that_follows_the_oracle_text(tmp_path):
    """Of a card's printings in a language, the most recent whose lines match the Oracle lines is kept (a
    newer printing whose text lost its line break loses to it); each face's text on a card of two faces."""
    fires = next(c for c in all_cards() if c["name"] == "Fires of Undeath")
    text = printed_texts()[("Fires of Undeath", "de")]["printed_text"]
    base = {"object": "card", "lang": "de", "name": fires["name"], "oracle_id": fires["oracle_id"]}
    base |= {"printed_name": "Feuer der Untoten", "oracle_text": fires["oracle_text"]}
    dusk = {
        "object": "card",
        "lang": "de",
        "name": "Dusk // Dawn",
        "oracle_id": "dusk",
        "card_faces": [
            {"name": "Dusk", "printed_name": "Sonnenuntergang", "oracle_text": "A", "printed_text": "Ä"},
            {"name": "Dawn", "printed_name": "Sonnenaufgang", "oracle_text": "B", "printed_text": "Ö"},
        ],
    }
    objects = [
        dict(base, printed_text=text, released_at="2012-02-03"),
        dict(base, printed_text=text.replace("\n", " "), released_at="2024-06-07"),
        dict(base, printed_text=text, released_at="2016-01-01"),
        dict(base, lang="fr", printed_text="Les Feux", released_at="2012-02-03"),
        dict(base, lang="es"),  # no printed text
        dusk,
    ]
    path = tmp_path / "all.json"
    path.write_text(json.dumps(objects, ensure_ascii=False), encoding="utf-8")
    db = tmp_path / "cards.sqlite3"
    result = import_printed_names(path, db, ["de", "es"])
    assert result.texts == 2
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM printed_texts").fetchone() == (2,)
    async with await CardCache.open(db) as cache:
        assert await cache.printed_texts("de", [fires["oracle_id"], "dusk", "other"]) == {
            fires["oracle_id"]: [text],
            "dusk": ["Ä", "Ö"],
        }
        assert await cache.printed_texts("es", [fires["oracle_id"]]) == {}
    async with await CardCache.open(tmp_path / "none.sqlite3") as cache:
        assert await cache.printed_texts("de", [fires["oracle_id"]]) == {}


def test_a_file_without_printings_in_the_languages_is_an_error(
    small_file, tmp_path, clean_env, capsys, monkeypatch
):
    """An oracle_cards file (English only), or one lacking the languages asked for, fails the import, says
    what the file holds, and leaves the names already kept as they were."""
    db = tmp_path / "cards.sqlite3"
    assert imported(str(small_file), db, "de", monkeypatch) == 0
    capsys.readouterr()
    english = tmp_path / "oracle-cards.json"
    english.write_text(
        json.dumps([{"object": "card", "lang": "en", "name": "Sol Ring", "oracle_id": "ring"}])
    )
    assert imported(str(english), db, "de,fr", monkeypatch) == 1
    out, err = capsys.readouterr()
    assert "kept" not in out
    assert f"{english} holds no printings in de, fr" in err and "card objects are in en" in err
    assert "all_cards" in err
    assert imported(str(small_file), db, "ko", monkeypatch) == 1
    assert "no printings in ko" in capsys.readouterr().err
    assert _langs_in_table(db) == {"de"}  # the earlier import stands
    with pytest.raises(BulkFormatError, match="no printings in it"):
        import_printed_names(english, db, ["it"])
