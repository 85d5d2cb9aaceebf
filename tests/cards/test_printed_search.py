"""The fallback without all_cards data: Scryfall's `lang:any` search through the fake, cached."""

from __future__ import annotations

import time

import aiohttp
import pytest

from bot.cards.budget import Budget
from bot.cards.foreign import PrintedSearch, printed_query, search_printings
from bot.cards.scryfall import ScryfallClient, ScryfallUnavailable
from tests.fakes.allcards import foreign_printings
from tests.fakes.budget import FastForwardBudget
from tests.fakes.fixtures import FakeClock


@pytest.fixture
async def client(fake_scryfall):
    foreign_printings()  # built once per session, before the fake's first `lang:` answer needs it
    async with aiohttp.ClientSession() as session:
        budget = FastForwardBudget()  # Scryfall's pace on a fake clock: no test here waits for a turn
        yield ScryfallClient(session, fake_scryfall.base_url, budget=budget, timeout=30, max_retries=0)


async def search_printed(client, text, langs=()):
    return (await search_printings(client, text)).names.lookup(text, langs)


async def names(search: PrintedSearch, text: str, langs=()) -> list[str]:
    """The English names (alphabetical, `langs` first) a cached search says are printed as `text`."""
    return (await search.printings(text)).names.lookup(text, langs)


@pytest.mark.parametrize("text", ["Foudre", "Blitzschlag", "稲妻", "blitzschlag", "FULMINE"])
async def test_printed_names_resolve_through_search(client, fake_scryfall, text):
    assert await search_printed(client, text) == ["Lightning Bolt"]
    query = fake_scryfall.requests[-1].query["q"]
    assert query.startswith("lang:any unique:prints ")  # one request, whatever the language


async def test_only_exact_printed_names_count(client):
    """Scryfall's phrase matches longer names too (`Blitz` in `Blitzschlag`); those are not this name."""
    assert await search_printed(client, "Blitzsch") == []
    assert await search_printed(client, "Zwang") == ["Coercion", "Duress"]
    assert await search_printed(client, "Sonnenuntergang") == ["Dusk // Dawn"]
    assert await search_printed(client, "Nichtsda Gibtsnicht") == []


async def test_the_languages_of_the_printings_count(client):
    """Every language in one answer: accents typed choose (es `Relámpago` is Lightning Bolt, pt `Relâmpago`
    Thunderbolt), the player's language narrows a name two languages print for different cards."""
    assert await search_printed(client, "Relámpago") == ["Lightning Bolt"]
    assert await search_printed(client, "Relâmpago") == ["Thunderbolt"]
    assert await search_printed(client, "Relampago") == ["Lightning Bolt", "Thunderbolt"]
    assert await search_printed(client, "Relampago", ("pt",)) == ["Thunderbolt"]


async def test_answers_are_cached_and_expire(client, fake_scryfall):
    clock = FakeClock()
    search = PrintedSearch(client, ttl=100, negative_ttl=10, timer=clock)
    assert await names(search, "Foudre", ("fr",)) == ["Lightning Bolt"]
    asked = fake_scryfall.count("/cards/search")
    assert await names(search, "FOUDRE") == ["Lightning Bolt"]
    assert fake_scryfall.count("/cards/search") == asked  # the second lookup makes no request
    assert await names(search, "Keinekarte", ("de",)) == []
    assert await names(search, "keinekarte") == []
    assert fake_scryfall.count("/cards/search") == asked + 1
    clock.advance(11)
    assert await names(search, "Keinekarte") == []
    assert await names(search, "Foudre") == ["Lightning Bolt"]
    assert fake_scryfall.count("/cards/search") == asked + 2
    clock.advance(100)
    assert await names(search, "Foudre") == ["Lightning Bolt"]
    assert fake_scryfall.count("/cards/search") == asked + 3


async def test_errors_are_not_cached(client, fake_scryfall):
    search = PrintedSearch(client, timer=FakeClock())
    fake_scryfall.mode = "down"
    with pytest.raises(ScryfallUnavailable):
        await names(search, "Foudre")
    assert search.known("Foudre") is None
    fake_scryfall.mode = "ok"
    assert await names(search, "Foudre") == ["Lightning Bolt"]


def test_the_query_is_quoted():
    assert printed_query('Le "Foudre"') == 'lang:any unique:prints "Le Foudre"'
    assert printed_query("職業：野蠻人") == 'lang:any unique:prints "職業：野蠻人"'


async def test_nothing_to_search(client, fake_scryfall):
    assert await search_printed(client, "   ") == []
    assert fake_scryfall.count("/cards/search") == 0


async def test_the_answers_kept_are_bounded_by_their_names(client, fake_scryfall):
    search = PrintedSearch(client, timer=FakeClock(), remembered=40)
    assert await names(search, "Foudre") == ["Lightning Bolt"]
    assert search.known("Foudre") is not None
    await names(search, "Blitzschlag")
    await names(search, "Fulmine")
    assert search.known("Foudre") is None  # the least recently used answer went first
    assert search.known("Fulmine") is not None


async def test_a_long_prefix_is_never_searched(client, fake_scryfall):
    search = PrintedSearch(client, timer=FakeClock())
    assert await search.starting("Foudre " * 40) == []
    assert fake_scryfall.count("/cards/search") == 0


async def test_a_long_prefix_costs_linear_time(client, fake_scryfall):
    """Hostile input: `starting` reads a prefix once and looks up only prefixes as long as a card option
    (growth n vs 10 n: linear, never quadratic)."""
    search = PrintedSearch(client, timer=FakeClock())
    await names(search, "Foudre")  # one answer cached, so every prefix length is looked up
    timings = []
    for n in (1_000, 10_000):
        started = time.perf_counter()
        for _ in range(20):
            assert await search.starting("Foudre" + "x" * n) == []
        timings.append(time.perf_counter() - started)
    assert timings[1] < timings[0] * 20 + 0.05
    assert fake_scryfall.count("/cards/search") == 1


async def test_names_looked_up_before_answer_their_prefixes(fake_scryfall):
    """No free turn: the answers for longer phrases (names looked up) still offer what starts so."""
    async with aiohttp.ClientSession() as session:
        slow = Budget(rates={"slow": 0.01, "fast": 0.01})
        search = PrintedSearch(ScryfallClient(session, fake_scryfall.base_url, budget=slow, timeout=30))
        await search.printings("Gegenzauber")  # the one turn
        assert not search.client.can_go_now("/cards/search")
        [found] = await search.starting("Gegenz")
        assert ("Gegenzauber", "Counterspell") in found.complete("Gegenz")
        assert await search.starting("Blitzsch") == []  # nothing known, no turn: nothing, at once
    assert fake_scryfall.count("/cards/search") == 1
