"""Commander Spellbook's export downloaded by the bot (`ComboRefresh` in the bulk refresher, built by the
composition root) and by `sync-cards`, from the fake Spellbook over 127.0.0.1: first start, the daily refresh on
a fake clock, refused exports, an unreachable host, and answers without the network afterwards."""

from __future__ import annotations

import asyncio
import functools
import logging
import time

import aiohttp
import pytest

from bot.cards.cache import CardCache
from bot.cards.refresh import BulkRefresher
from bot.cli import main
from bot.combos.load import import_variants
from bot.combos.store import ComboRefresh, ComboStore, sync_variants
from bot.main import assemble
from bot.settings import load_settings
from tests.fakes.fixtures import FakeClock, fake_settings
from tests.fakes.scryfall import FakeScryfall
from tests.fakes.spellbook import FakeSpellbook, export, generated, use, variant
from tests.shared_data import all_cards

NAMES = [c["name"] for c in all_cards()[:3000]]
WIN = variant([use("Thassa's Oracle", "H"), use("Demonic Consultation", "H")], ["Win the game"])
FIRST = export([WIN, *generated(30, NAMES, seed=5)])
SECOND = export([WIN, *generated(50, NAMES, seed=6)])
DECK = ["Thassa's Oracle", "Demonic Consultation", "Island"]


@pytest.fixture
async def world(tmp_path):
    """(the fake Spellbook serving FIRST, a combo store on a new cache, its refresh on a fake clock)."""
    async with (
        FakeSpellbook(FIRST) as fake,
        await CardCache.open(tmp_path / "cache.sqlite3") as cache,
        aiohttp.ClientSession() as session,
    ):
        settings = load_settings(spellbook_json_base=fake.base_url)
        store, clock = ComboStore(cache), FakeClock(time.time())
        sync = functools.partial(sync_variants, session, settings, cache.path, least=10)
        yield fake, store, ComboRefresh(store, sync, 24, clock)


async def hold_first(store: ComboStore, tmp_path) -> None:
    """The combos of FIRST held, imported here (the export the fake serves, without a download and an import
    child): for the tests of a later refresh, not of the first."""
    source = tmp_path / "first.json"
    source.write_bytes(FIRST)
    await asyncio.to_thread(import_variants, source, store.cache.path, least=10)
    assert await store.held()


async def test_first_start_imports_then_answers_offline_and_refreshes_a_day_later(world):
    fake, store, refresh = world
    assert not (await store.find(DECK)).checked
    await refresh.refresh_due()
    assert fake.count() == 1
    request = fake.requests[0]
    assert (
        request.headers["User-Agent"].startswith("IdentityBot/")
        and "(+https://" in request.headers["User-Agent"]
    )
    assert request.headers["Accept-Encoding"] == "gzip"
    found = await store.find(DECK)
    assert found.checked and [c.id for c in found.combos] == [WIN["id"]]
    for _ in range(5):  # answers from the cache: Spellbook is asked nothing more
        await store.find(NAMES[:100])
        await refresh.refresh_due()
    assert fake.count() == 1 and refresh.due_in() > 23 * 3600
    fake.serve(SECOND)
    refresh.clock.advance(25 * 3600)  # type: ignore[attr-defined]
    await refresh.refresh_due()
    assert fake.count() == 2
    with_new = await store.find([c["name"] for c in all_cards()])
    assert len(with_new.combos) == 51


@pytest.mark.parametrize("fault", ["truncated", "malformed"])
async def test_a_refused_export_keeps_the_combos_held_with_one_log_line(world, caplog, fault, tmp_path):
    fake, store, refresh = world
    await hold_first(store, tmp_path)
    held = await store.find(DECK)
    setattr(fake, fault, True)
    with caplog.at_level(logging.INFO, logger="bot.combos"):
        assert await refresh.refresh_now() is None
    lines = [r for r in caplog.records if r.name == "bot.combos.store"]
    assert len(lines) == 1 and lines[0].levelno == logging.ERROR
    assert "refused, the combos held stay in use: it is not a whole export" in lines[0].getMessage()
    assert await store.find(DECK) == held
    assert 23 * 3600 < refresh.due_in() <= 25 * 3600  # not downloaded again before the next period


async def test_unreachable_on_first_start_the_deck_is_not_checked_and_the_refresher_retries(world, caplog):
    fake, store, refresh = world
    fake.mode = "down"
    async with FakeScryfall([]) as scryfall:
        scryfall.mode = "down"
        cards = type(
            "Cards", (), {"cache": store.cache, "bulk_imported_at": time.time(), "index_complete": True}
        )
        refresher = BulkRefresher(cards, every_hours=24, also=[refresh])  # type: ignore[arg-type]
        with pytest.raises(aiohttp.ClientResponseError, match="500"):
            await refresher.refresh_due()
    assert not (await store.find(DECK)).checked
    fake.mode = "ok"
    await refresher.refresh_due()  # the refresher's retry, 1, 2, 4, ... minutes later
    assert (await store.find(DECK)).combos


async def test_a_slow_spellbook_holds_up_nothing_but_its_own_refresh(world):
    fake, store, refresh = world
    fake.delay = 0.5
    began = time.perf_counter()
    task = asyncio.create_task(refresh.refresh_now())
    assert not (await store.find(DECK)).checked and time.perf_counter() - began < 0.4
    assert await task is not None and (await store.find(DECK)).checked


async def test_the_bot_refreshes_the_combos_with_the_bulk_data(imported_cache, caplog):
    """The composition root: the store is the bot's, the refresh one of the bulk refresher's; an export of
    this size is below the plausible (10,000 variants), so it is refused and the deck is not checked."""
    async with FakeSpellbook(FIRST) as fake, FakeScryfall([]) as scryfall:
        settings = fake_settings(
            scryfall, imported_cache.parent, bulk_refresh_hours=24, cache_path=imported_cache
        )
        settings = settings.model_copy(update={"spellbook_json_base": fake.base_url})
        with caplog.at_level(logging.ERROR, logger="bot.combos"):
            async with assemble(settings, extensions=()) as runtime, runtime.bot:
                async with asyncio.timeout(20):
                    while not fake.count() or not caplog.records:  # noqa: ASYNC110
                        await asyncio.sleep(0.02)
                found = await runtime.bot.combos.find(DECK)
    assert any(isinstance(also, ComboRefresh) for also in runtime.refresher.also)
    assert not found.checked and "only 31 of its 31 variants are usable, not 10,000" in caplog.text


async def test_sync_cards_downloads_the_combos_after_the_card_data(tmp_path, monkeypatch, capsys):
    async with FakeScryfall(all_cards()[:50]) as scryfall, FakeSpellbook(FIRST) as fake:
        monkeypatch.setenv("SCRYFALL_API_BASE", scryfall.base_url)
        monkeypatch.setenv("SPELLBOOK_JSON_BASE", fake.base_url)
        cache = tmp_path / "cache.sqlite3"
        code = await asyncio.to_thread(main, ["sync-cards", "--cache", str(cache), "--min-variants", "10"])
        assert code == 0, capsys.readouterr().err
        assert "imported 31 Commander Spellbook combos" in capsys.readouterr().out and fake.count() == 1
        fake.mode = "down"
        code = await asyncio.to_thread(main, ["sync-cards", "--cache", str(cache), "--min-variants", "10"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and err[-1].startswith("error: the combos could not be imported") and "500" in err[-1]
    assert not list(tmp_path.glob("*.gz*"))  # the download is removed


@pytest.mark.slow
async def test_a_deeply_nested_export_runs_out_of_the_import_childs_memory_only(world, caplog, tmp_path):
    """ijson's memory grows with the square of the nesting depth: 100,000 levels (200 KB) would take tens of
    GB. The import child may use 1 GB: the export is refused, the combos held stay, the bot is untouched."""
    fake, store, refresh = world
    await hold_first(store, tmp_path)
    deep = b'{"variants": [{"id": "1", "uses": ' + b"[" * 100_000 + b"]" * 100_000 + b"}]}"
    fake.serve(deep)
    with caplog.at_level(logging.ERROR, logger="bot.combos"):
        assert await refresh.refresh_now() is None
    assert "MemoryError" in caplog.text and (await store.find(DECK)).combos
