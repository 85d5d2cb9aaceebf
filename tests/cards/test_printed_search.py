"""The fallback without all_cards data: Scryfall's `lang:` search through the fake, cached."""

from __future__ import annotations

import aiohttp
import pytest

from bot.cards.budget import Budget
from bot.cards.foreign import PrintedSearch, printed_query, search_printed
from bot.cards.scryfall import ScryfallClient, ScryfallUnavailable
from tests.fakes.allcards import foreign_printings
from tests.fakes.fixtures import FakeClock


@pytest.fixture
async def client(fake_scryfall):
    foreign_printings()  # built once per session, before the fake's first `lang:` answer needs it
    async with aiohttp.ClientSession() as session:
        yield ScryfallClient(session, fake_scryfall.base_url, budget=Budget(), timeout=30, max_retries=0)


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Foudre", "fr"), ("Blitzschlag", "de"), ("稲妻", "ja"), ("稲妻", None), ("blitzschlag", None)],
)
async def test_printed_names_resolve_through_search(client, fake_scryfall, text, lang):
    assert await search_printed(client, text, lang) == ["Lightning Bolt"]
    query = fake_scryfall.requests[-1].query["q"]
    assert f"lang:{lang or 'any'}" in query


async def test_only_exact_printed_names_count(client):
    """Scryfall's phrase matches longer names too (`Blitz` in `Blitzschlag`); those are not this name."""
    assert await search_printed(client, "Blitzsch", "de") == []
    assert await search_printed(client, "Zwang", "de") == ["Coercion", "Duress"]
    assert await search_printed(client, "Sonnenuntergang", "de") == ["Dusk // Dawn"]
    assert await search_printed(client, "Nichtsda Gibtsnicht", "fr") == []


async def test_answers_are_cached_and_expire(client, fake_scryfall):
    clock = FakeClock()
    search = PrintedSearch(client, ttl=100, negative_ttl=10, timer=clock)
    assert await search.names("Foudre", "fr") == ["Lightning Bolt"]
    asked = fake_scryfall.count("/cards/search")
    assert await search.names("FOUDRE", "fr") == ["Lightning Bolt"]
    assert fake_scryfall.count("/cards/search") == asked  # the second lookup makes no request
    assert await search.names("Keinekarte", "de") == []
    assert await search.names("keinekarte", "de") == []
    assert fake_scryfall.count("/cards/search") == asked + 1
    clock.advance(11)
    assert await search.names("Keinekarte", "de") == []
    assert await search.names("Foudre", "fr") == ["Lightning Bolt"]
    assert fake_scryfall.count("/cards/search") == asked + 2
    clock.advance(100)
    assert await search.names("Foudre", "fr") == ["Lightning Bolt"]
    assert fake_scryfall.count("/cards/search") == asked + 3


async def test_errors_are_not_cached(client, fake_scryfall):
    search = PrintedSearch(client, timer=FakeClock())
    fake_scryfall.mode = "down"
    with pytest.raises(ScryfallUnavailable):
        await search.names("Foudre", "fr")
    fake_scryfall.mode = "ok"
    assert await search.names("Foudre", "fr") == ["Lightning Bolt"]


def test_the_query_is_quoted_and_the_language_checked():
    assert printed_query('Le "Foudre"', "fr") == 'lang:fr unique:prints "Le Foudre"'
    assert printed_query("職業：野蠻人", "zht") == 'lang:zht unique:prints "職業：野蠻人"'
    assert printed_query("x", "xx").startswith("lang:any ")


async def test_nothing_to_search(client, fake_scryfall):
    assert await search_printed(client, "   ", "ja") == []
    assert fake_scryfall.count("/cards/search") == 0
