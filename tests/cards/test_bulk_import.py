"""`python -m bot sync-cards`: file formats, the whole shared data set, downloads, kills, background sync."""

from __future__ import annotations

import asyncio
import gzip
import io
import itertools
import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cards.bulk import BulkFormatError, import_file, iter_cards
from bot.cards.refresh import BulkRefresher
from bot.compose import open_cards
from tests.cards import cache_counts
from tests.fakes.fixtures import fake_settings
from tests.fakes.scryfall import FakeScryfall
from tests.fakes.spellbook import FakeSpellbook, export, generated
from tests.shared_data import CARDS_FILE, REPO_ROOT, all_cards

TOTAL = len(all_cards())
PART = 8_000  # cards of the killed import's file


def count_cards(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM cards").fetchone()[0]
    finally:
        conn.close()


async def test_sync_cards_file_imports_everything_then_no_requests(
    fake_scryfall, make_card_service, tmp_path, capsys
):
    cache = tmp_path / "cache" / "cards.sqlite3"
    code = await asyncio.to_thread(main, ["sync-cards", "--file", str(CARDS_FILE), "--cache", str(cache)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"imported {TOTAL} cards" in out
    assert count_cards(cache) == TOTAL

    service = await make_card_service(cache_path=cache)
    assert service.has_local_data and service.data_age_days() is not None
    sample = random.Random(7).sample([c["name"] for c in all_cards()], 1500)
    for name in sample:
        resolved = await service.resolve(name)
        assert resolved.name == name and resolved.source == "local"
    assert (await service.resolve("Homicidal Brute")).name == "Civilized Scholar // Homicidal Brute"
    assert (await service.resolve("fire ice")).name == "Fire // Ice"
    assert (await service.resolve("Fire/Ice")).name == "Fire // Ice"
    assert (await service.resolve_commander("Kumano")).name == "Kumano, Master Yamabushi"
    assert (await service.resolve("lightnig bolt")).name == "Lightning Bolt"
    for prefix in ("kum", "sol r", "fire", "bolt", "a", "yamabushi", "lightnig"):
        assert await service.autocomplete(prefix), prefix
    batch = await service.resolve_many(sample[:200])
    found, missing = batch.found, batch.missing
    assert len(found) == 200 and missing == {}
    assert fake_scryfall.count() == 0


def _write(path: Path, cards: list[dict], fmt: str) -> None:
    if fmt == "list":  # a pretty-printed Scryfall list object
        data = json.dumps({"object": "list", "has_more": False, "data": cards}, indent=2).encode()
    elif fmt.startswith("json."):
        data = json.dumps(cards, indent=1).encode()
    elif fmt == "json":
        data = json.dumps(cards).encode()
    else:
        data = "".join(json.dumps(c) + "\n" for c in cards).encode()
    if fmt.endswith("gz"):
        data = gzip.compress(data)
    path.write_bytes(data)


@pytest.mark.parametrize("fmt", ["json", "json.gz", "jsonl", "jsonl.gz", "list"])
def test_import_formats(tmp_path, fmt):
    cards = [*list(all_cards()[:40]), {"object": "error", "code": "not_found"}]
    src = tmp_path / f"cards.{fmt}"
    _write(src, cards, fmt)
    result = import_file(src, tmp_path / "c.sqlite3", batch_size=7)
    assert (result.cards, result.skipped) == (40, 1)
    assert count_cards(tmp_path / "c.sqlite3") == 40
    again = import_file(src, tmp_path / "c.sqlite3")  # re-import replaces, no duplicates
    assert again.cards == 40 and count_cards(tmp_path / "c.sqlite3") == 40


def test_iter_cards_keeps_floats_as_floats(tmp_path):
    src = tmp_path / "a.json"
    _write(src, [dict(all_cards()[0], cmc=2.5)], "json")
    card, _raw = next(iter_cards(src))
    assert isinstance(card["cmc"], float) and card["cmc"] == 2.5  # not Decimal: must survive json.dumps


@pytest.mark.parametrize("content", [b"", b"hello world", b"[1, 2, 3]", b'{"a": 1}\nnot json\n'])
def test_bad_files_fail_cleanly(tmp_path, capsys, content):
    src = tmp_path / "bad.json"
    src.write_bytes(content)
    cache = tmp_path / "c.sqlite3"
    with pytest.raises((BulkFormatError, ValueError)):
        import_file(src, cache)
    assert main(["sync-cards", "--file", str(src), "--cache", str(cache)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the card data could not be imported:") and "Traceback" not in err
    assert main(["sync-cards", "--file", str(tmp_path / "missing.json"), "--cache", str(cache)]) == 1


def test_sync_cards_file_dash_reads_standard_input(tmp_path, capsys, monkeypatch):
    """`--file -` imports what stdin holds (gzipped or not), as `check-deck -` and `house import -` read it."""
    with gzip.open(CARDS_FILE) as fh:
        lines = b"".join(itertools.islice(fh, 300))
    monkeypatch.chdir(tmp_path)
    for data in (lines, gzip.compress(lines)):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        assert main(["sync-cards", "--file", "-", "--cache", str(tmp_path / "c.sqlite3")]) == 0
        assert "imported 300 cards" in capsys.readouterr().out
    assert count_cards(tmp_path / "c.sqlite3") == 300 and not (tmp_path / "-").exists()


async def test_killed_import_leaves_a_usable_cache(fake_scryfall, make_card_service, tmp_path):
    # A third of the data set (its finished import below is not the whole set's again, test_sync_cards_file_*
    # imports that), 18 times over: gzip members concatenate, ~145k cards, several seconds to import.
    with gzip.open(CARDS_FILE) as fh:
        part = tmp_path / "part.jsonl.gz"
        part.write_bytes(gzip.compress(b"".join(itertools.islice(fh, PART)), compresslevel=1))
    big = tmp_path / "big.jsonl.gz"
    big.write_bytes(part.read_bytes() * 18)
    cache = tmp_path / "cache" / "cards.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "sync-cards",
        "--file",
        str(big),
        "--cache",
        str(cache),
        "--batch-size",
        "500",
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        committed = 0
        while time.monotonic() < deadline and proc.returncode is None:
            await asyncio.sleep(0.02)
            if cache.exists():
                try:
                    committed = count_cards(cache)
                except sqlite3.Error:
                    committed = 0
                if committed >= 3000:
                    break
        assert proc.returncode is None, "the import finished before it could be killed"
        proc.send_signal(signal.SIGKILL)
        assert await asyncio.wait_for(proc.wait(), 10) == -signal.SIGKILL
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    fake_scryfall.mode = "down"
    service = await make_card_service(cache_path=cache)
    remaining = cache_counts(service.cache.path)["cards"]
    assert remaining >= committed >= 3000
    conn = sqlite3.connect(cache)
    names = [r[0] for r in conn.execute("SELECT name FROM cards ORDER BY rowid LIMIT 200")]
    conn.close()
    for name in names:
        assert (await service.resolve(name)).name == name
    assert await service.autocomplete(names[0][:4])
    assert fake_scryfall.count() == 0
    # the interrupted import is finished by running it again
    result = await asyncio.to_thread(import_file, part, cache)
    assert result.cards == PART


async def test_sync_cards_downloads_oracle_cards(tmp_path, monkeypatch, capsys):
    cards = list(all_cards()[:300])
    async with (
        FakeScryfall(cards) as fake,
        FakeSpellbook(export(generated(1, [c["name"] for c in cards]))) as spellbook,
    ):
        monkeypatch.setenv("SCRYFALL_API_BASE", fake.base_url)
        monkeypatch.setenv("SPELLBOOK_JSON_BASE", spellbook.base_url)  # the combos come after the cards
        cache = tmp_path / "dl" / "cards.sqlite3"
        code = await asyncio.to_thread(main, ["sync-cards", "--cache", str(cache), "--min-variants", "1"])
        assert code == 0, capsys.readouterr().err
        assert [r.path for r in fake.requests] == ["/bulk-data", "/bulk/oracle-cards.json.gz"]
        assert all(r.headers["User-Agent"].startswith("IdentityBot/") for r in fake.requests)
    assert count_cards(cache) == 300
    assert not list(cache.parent.glob("*.oracle-cards.json*"))  # download removed


async def test_sync_cards_reports_scryfall_outage(tmp_path, monkeypatch, capsys):
    async with FakeScryfall(all_cards()[:10]) as fake:
        fake.mode = "down"
        monkeypatch.setenv("SCRYFALL_API_BASE", fake.base_url)
        monkeypatch.setenv("SCRYFALL_TIMEOUT", "2")
        code = await asyncio.to_thread(main, ["sync-cards", "--cache", str(tmp_path / "c.sqlite3")])
    assert code == 1
    assert "Scryfall" in capsys.readouterr().err


async def test_background_refresh_fills_local_data(tmp_path):
    cards = list(all_cards()[1000:1400])
    async with FakeScryfall(cards) as fake:
        settings = fake_settings(fake, tmp_path, bulk_refresh_hours=24)
        async with open_cards(settings) as service:
            assert not service.has_local_data
            refresher = BulkRefresher(service, every_hours=24)
            refresher.start()
            try:
                async with asyncio.timeout(20):  # download, import in a child process, reload the index
                    while not service.has_local_data:  # noqa: ASYNC110
                        await asyncio.sleep(0.02)
            finally:
                await refresher.stop()
            assert 0 < service.data_age_days() < 3650
            sent = fake.count()
            resolved = await service.resolve(cards[5]["name"])
            assert resolved.source == "local" and resolved.data_age_days is not None
            assert await service.autocomplete(cards[7]["name"][:5])
            assert fake.count() == sent
        # a restart with fresh data does not download again
        async with open_cards(settings) as service:
            refresher = BulkRefresher(service, every_hours=24)
            refresher.start()
            await asyncio.sleep(0.2)
            await refresher.stop()
            assert fake.count("/bulk-data") == 1


async def test_background_refresh_off_when_zero(fake_scryfall, make_card_service):
    service = await make_card_service(bulk_refresh_hours=0)
    refresher = BulkRefresher(service, every_hours=0)
    refresher.start()
    await asyncio.sleep(0.1)
    await refresher.stop()
    assert fake_scryfall.count() == 0


async def test_a_failed_download_is_retried_soon_and_logged(fake_scryfall, make_card_service, caplog):
    service = await make_card_service()
    fake_scryfall.mode = "down"
    refresher = BulkRefresher(service, every_hours=24)
    with caplog.at_level(logging.WARNING, logger="bot.cards.refresh"):
        refresher.start()
        async with asyncio.timeout(20):
            while not refresher.failures:  # noqa: ASYNC110
                await asyncio.sleep(0.02)
        await refresher.stop()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.cards.refresh"]
    assert lines and "next try in 60 s" in lines[0]  # a minute, not the hour it used to wait


async def test_every_process_sees_an_import_done_by_another(fake_scryfall, make_card_service, tmp_path):
    """A `sync-cards` by hand (or another shard's refresh) reaches a running service within its watch period."""
    service = await make_card_service()
    assert not service.has_local_data
    refresher = BulkRefresher(service, every_hours=0, watch_seconds=0.1)
    refresher.start()
    try:
        path = tmp_path / "small.jsonl"
        path.write_text("\n".join(json.dumps(c) for c in all_cards()[:500]))
        await asyncio.to_thread(import_file, path, service.cache.path)
        async with asyncio.timeout(10):
            while not service.has_local_data:  # noqa: ASYNC110
                await asyncio.sleep(0.02)
    finally:
        await refresher.stop()
    assert len(service.index) == len({c["name"] for c in all_cards()[:500]})


@pytest.mark.looptime
async def test_failed_downloads_are_retried_after_1_2_4_minutes(fake_scryfall, make_card_service):
    """On looptime's fake loop clock: the minutes pass at once."""
    service = await make_card_service()
    fake_scryfall.mode = "down"
    refresher = BulkRefresher(service, every_hours=24)
    refresher.start()
    await asyncio.sleep(60 + 120 + 240 + 30)
    await refresher.stop()
    times = fake_scryfall.times("/bulk-data")
    attempts = [
        t for i, t in enumerate(times) if i == 0 or t - times[i - 1] > 30
    ]  # each with its own 5xx retries
    gaps = [b - a for a, b in itertools.pairwise(attempts)]
    assert len(attempts) == 4 and refresher.failures == 4
    assert [round(g / 60) for g in gaps] == [1, 2, 4]
