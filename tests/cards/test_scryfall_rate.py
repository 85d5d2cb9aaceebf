"""Politeness: Scryfall's per-endpoint limits over any one-second window, and the 429 lockout.

On looptime's fake event-loop clock: waits for a turn or a lockout move the loop's time at once, and the fake
Scryfall records each request at the loop's time, so the windows below are exact and nothing sleeps."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

from bot.cards.budget import Budget
from bot.cards.model import ScryfallUnavailable
from bot.cards.scryfall import HEADERS, ScryfallClient
from tests.cards import cache_counts
from tests.rates import max_in_window
from tests.shared_data import all_cards

SLOW_PATHS = ("/cards/search", "/cards/named", "/cards/random", "/cards/collection")


def now() -> float:
    return asyncio.get_running_loop().time()


# The cache's writes answer from aiosqlite's own thread, which looptime can't see: it would move its clock to the
# next timer (as far as a TTL) after its default 42 idle loop cycles, before a write answers. 400 give the thread
# a few milliseconds of real time first (measured: 18 of 18 runs green, 8 of them beside 3 busy processes).
@pytest.mark.looptime(noop_cycles=400)
async def test_burst_of_100_names_respects_both_limits(fake_scryfall, make_card_service):
    service = await make_card_service(scryfall_timeout=60.0, budget=Budget())
    names = sorted({c["name"] for c in all_cards() if c.get("layout") == "normal"})
    resolve_names = names[100:112]  # 12 fuzzy lookups (/cards/named)
    commander_names = [
        "Kumano, Master Yamabushi",
        "Atraxa, Praetors' Voice",
        "Edgar Markov",
        "Krenko, Mob Boss",
    ]  # 4 searches (/cards/search)
    prefixes = sorted({n[:6] for n in names[2000:]})[:84]  # 84 autocompletes (10/s endpoint)
    assert len(prefixes) == 84

    started = now()
    results = await asyncio.gather(
        *(service.resolve(n) for n in resolve_names),
        *(service.resolve_commander(n) for n in commander_names),
        *(service.client.autocomplete(p) for p in prefixes),
    )
    elapsed = now() - started
    assert [r.name for r in results[:12]] == resolve_names
    assert [r.name for r in results[12:16]] == commander_names
    assert all(isinstance(r, list) for r in results[16:])

    slow = fake_scryfall.times(*SLOW_PATHS)
    fast = sorted(r.time for r in fake_scryfall.requests if r.path not in SLOW_PATHS)
    # names asked while other slow requests wait share /cards/collection requests, so fewer than 16
    assert fake_scryfall.count("/cards/collection") >= 1 and len(slow) < 16 and len(fast) == 84
    assert max_in_window(slow) <= 2, "more than 2 requests/s to Scryfall's 2/s endpoints"
    assert max_in_window(fast) <= 10, "more than 10 requests/s to Scryfall's other endpoints"
    assert elapsed < 12  # 16 slow requests at most, 1.7/s


@pytest.mark.looptime
async def test_rate_setting_scales_limits_down(fake_scryfall):
    async with aiohttp.ClientSession(headers=HEADERS) as session:
        client = ScryfallClient(session, fake_scryfall.base_url, budget=Budget(scale=0.5), timeout=10)
        await asyncio.gather(*(client.named_fuzzy(n) for n in ("Sol Ring", "Lightning Bolt", "Dismember")))
    times = fake_scryfall.times("/cards/named")
    assert len(times) == 3
    assert times[2] - times[0] >= 2.0  # 1 request/s at rate 0.5


async def test_429_locks_everything_out_for_30_seconds_by_default(fake_scryfall, make_card_service):
    service = await make_card_service(budget=Budget())
    fake_scryfall.fail_next(429, retry_after=1)
    with pytest.raises(ScryfallUnavailable) as err:
        await service.resolve("Sol Ring")
    assert err.value.retry_after == pytest.approx(30, abs=1)
    sent = fake_scryfall.count()
    assert sent == 1

    # Other endpoints, other names: refused at once (real time: the loop's may jump while SQLite works), nothing sent.
    started = time.perf_counter()
    with pytest.raises(ScryfallUnavailable) as again:
        await service.resolve("Lightning Bolt")
    assert again.value.retry_after == pytest.approx(30, abs=1.5)
    assert await service.autocomplete("light") == []
    batch = await service.resolve_many(["Dismember", "Kitchen Finks"])
    assert not batch.found and set(batch.unavailable) == {"Dismember", "Kitchen Finks"}
    assert time.perf_counter() - started < err.value.retry_after / 2  # not after the lockout, on any machine
    assert fake_scryfall.count() == sent
    assert service.metrics.value("identity_bot_scryfall_rate_limited_total") == 1
    assert (cache_counts(service.cache.path))["cards"] == 0


@pytest.mark.looptime
async def test_no_request_for_30_seconds_after_a_429(fake_scryfall):
    async with aiohttp.ClientSession(headers=HEADERS) as session:
        client = ScryfallClient(session, fake_scryfall.base_url, budget=Budget(), timeout=3.0)
        fake_scryfall.fail_next(429)  # no Retry-After header: 30 s anyway
        with pytest.raises(ScryfallUnavailable):
            await client.named_fuzzy("Sol Ring")
        for step in (1, 10, 15):  # 26 s in total; closer than the 3 s deadline the client would wait it out
            await asyncio.sleep(step)
            with pytest.raises(ScryfallUnavailable) as err:
                await client.named_fuzzy("Sol Ring")
            assert 0 < err.value.retry_after <= 30
        assert fake_scryfall.count() == 1
        await asyncio.sleep(4.1)
        assert (await client.named_fuzzy("Sol Ring"))["name"] == "Sol Ring"
    assert fake_scryfall.count() == 2


@pytest.mark.looptime
async def test_retry_after_longer_than_lockout_wins_and_requests_wait(fake_scryfall):
    async with aiohttp.ClientSession(headers=HEADERS) as session:
        client = ScryfallClient(
            session, fake_scryfall.base_url, budget=Budget(), timeout=3.0, lockout_seconds=0.2
        )
        fake_scryfall.fail_next(429, times=3, retry_after=1)
        with pytest.raises(ScryfallUnavailable) as err:
            await client.named_fuzzy("Sol Ring")  # short lockouts are waited out within the deadline
        assert err.value.retry_after == pytest.approx(1, abs=0.01)
        hit = fake_scryfall.times("/cards/named")
        assert len(hit) == 3
        assert hit[1] - hit[0] >= 0.99 and hit[2] - hit[1] >= 0.99  # Retry-After (1 s) won over 0.2 s
        card = await client.named_fuzzy("Lightning Bolt")  # waits for the lockout, then is sent
        assert card["name"] == "Lightning Bolt"
    last = fake_scryfall.times("/cards/named")[-1]
    assert last - hit[2] >= 0.99


@pytest.mark.looptime
async def test_limits_are_shared_by_every_client_of_one_budget(fake_scryfall):
    budget = Budget()
    async with aiohttp.ClientSession(headers=HEADERS) as session:
        a = ScryfallClient(session, fake_scryfall.base_url, budget=budget, timeout=10)
        b = ScryfallClient(session, fake_scryfall.base_url, budget=budget, timeout=10)
        await asyncio.gather(
            a.named_fuzzy("Sol Ring"),
            b.named_fuzzy("Lightning Bolt"),
            a.named_fuzzy("Dismember"),
            b.named_fuzzy("Kitchen Finks"),
        )
    assert max_in_window(fake_scryfall.times("/cards/named")) <= 2


@pytest.mark.looptime
async def test_a_lookup_whose_turn_is_past_its_deadline_is_busy_at_once(fake_scryfall):
    """No waiting past the deadline: a request whose slot comes too late says when to retry, honestly."""
    from bot.cards.model import ScryfallBusy

    async with aiohttp.ClientSession(headers=HEADERS) as session:
        client = ScryfallClient(session, fake_scryfall.base_url, budget=Budget(), timeout=1.0)
        names = ["Sol Ring", "Lightning Bolt", "Dismember", "Kitchen Finks", "Counterspell", "Fire // Ice"]
        started = now()
        outcomes = await asyncio.gather(*(client.named_fuzzy(n) for n in names), return_exceptions=True)
    answered = [o for o in outcomes if isinstance(o, dict)]
    busy = [o for o in outcomes if isinstance(o, ScryfallBusy)]
    assert len(answered) == 2 and len(busy) == 4  # slots 0.59 s apart; a 1 s deadline fits two
    assert all(0 < b.retry_after < 4 for b in busy)
    assert now() - started < 1.5
    assert fake_scryfall.count("/cards/named") == 2
