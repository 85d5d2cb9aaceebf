"""Card TTL, negative cache and stale-on-error, driven by a hand-moved clock."""

from __future__ import annotations

import pytest

from bot.cards.model import CardNotFound, ScryfallUnavailable
from tests.cards import cache_counts
from tests.fakes.fixtures import FakeClock


async def test_cards_expire_after_cache_ttl(fake_scryfall, make_card_service):
    clock = FakeClock()
    service = await make_card_service(clock=clock, cache_ttl=100)
    assert (await service.resolve("Sol Ring")).source == "api"
    clock.advance(99)
    assert (await service.resolve("sol ring")).source == "cache"
    assert (await service.peek("Sol Ring")).source == "cache"
    assert fake_scryfall.count() == 1
    clock.advance(2)  # expired now
    assert await service.peek("Sol Ring") is None
    fresh = await service.resolve("Sol Ring")
    assert fresh.source == "api" and fresh.name == "Sol Ring"
    assert fake_scryfall.count() == 2
    assert fake_scryfall.requests[-1].path.startswith("/cards/")  # refreshed by id
    assert (await service.resolve("Sol Ring")).source == "cache"
    assert fake_scryfall.count() == 2


async def test_fuzzy_answers_are_remembered_and_expire(fake_scryfall, make_card_service):
    clock = FakeClock()
    service = await make_card_service(clock=clock, cache_ttl=100)
    assert (await service.resolve("lightnig bolt")).name == "Lightning Bolt"
    assert (await service.resolve("lightnig bolt")).source == "cache"
    assert fake_scryfall.count() == 1
    clock.advance(101)
    assert (await service.resolve("lightnig bolt")).source == "api"
    assert fake_scryfall.count() == 2


async def test_negative_cache(fake_scryfall, make_card_service):
    clock = FakeClock()
    service = await make_card_service(clock=clock, negative_ttl=60)
    with pytest.raises(CardNotFound):
        await service.resolve("Qwxyz Blorptastic")
    sent = fake_scryfall.count()
    assert sent >= 1
    clock.advance(59)
    with pytest.raises(CardNotFound):
        await service.resolve("qwxyz  blorptastic")
    assert fake_scryfall.count() == sent
    assert service.metrics.value("identity_bot_card_lookups_total", {"result": "negative"}) == 1
    clock.advance(2)
    with pytest.raises(CardNotFound):
        await service.resolve("Qwxyz Blorptastic")
    assert fake_scryfall.count("/cards/named") == 2


async def test_negative_ttl_zero_disables_it(fake_scryfall, make_card_service):
    service = await make_card_service(negative_ttl=0)
    for _ in range(2):
        with pytest.raises(CardNotFound):
            await service.resolve("Qwxyz Blorptastic")
    assert fake_scryfall.count("/cards/named") == 2


@pytest.mark.looptime  # the timeout, backoff and the fake's delay pass on the loop's fake clock
@pytest.mark.parametrize("fault", ["down", "slow", "malformed", "429"])
async def test_stale_entry_served_when_scryfall_fails(fake_scryfall, make_card_service, fault):
    clock = FakeClock()
    service = await make_card_service(clock=clock, cache_ttl=100, scryfall_timeout=0.8)
    original = await service.resolve("Fire // Ice")
    clock.advance(500)
    before = cache_counts(service.cache.path)
    if fault == "down":
        fake_scryfall.mode = "down"
    elif fault == "slow":
        fake_scryfall.delay = 3.0
    elif fault == "malformed":
        fake_scryfall.malformed_json = True
    else:
        fake_scryfall.fail_next(429, retry_after=60)
    stale = await service.resolve("fire/ice")
    assert stale.source == "stale" and stale.stale
    assert stale.card == original.card
    assert cache_counts(service.cache.path) == before
    fake_scryfall.reset()
    if fault != "429":
        assert (await service.resolve("Fire // Ice")).source == "api"


async def test_no_stale_entry_means_unavailable(fake_scryfall, make_card_service):
    service = await make_card_service(backoff=0.0)  # the retries at once: their timing is not tested here
    fake_scryfall.mode = "down"
    with pytest.raises(ScryfallUnavailable):
        await service.resolve("Sol Ring")
    assert (cache_counts(service.cache.path)) == {"cards": 0, "names": 0, "queries": 0, "negative": 0}
