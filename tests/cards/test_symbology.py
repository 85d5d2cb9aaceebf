"""Scryfall's card symbols through the project's client: GET /symbology, then each wanted symbol's SVG.

On looptime's fake event-loop clock: retries' backoff passes at once."""

from __future__ import annotations

import aiohttp
import pytest

from bot import BOT_NAME
from bot.cards.budget import Budget
from bot.cards.model import ScryfallUnavailable
from bot.cards.scryfall import HEADERS, ScryfallClient
from bot.cards.symbology import symbol_svgs
from bot.present.mana_art import SYMBOLS
from tests.fakes.scryfall import FakeScryfall, symbol_svg

pytestmark = pytest.mark.looptime


@pytest.fixture
async def fake():
    async with FakeScryfall() as server:
        yield server


@pytest.fixture
async def client(fake):
    async with aiohttp.ClientSession(headers=HEADERS) as session:
        c = ScryfallClient(session, fake.base_url, budget=Budget(), timeout=3.0, backoff=0.01)
        yield c
        c.close()


async def test_wanted_symbols_come_with_their_svg(fake, client):
    svgs = await symbol_svgs(client, ["W", "G/U/P", "2/W", "½", "T"])
    assert svgs == {s: symbol_svg(s) for s in ("W", "G/U/P", "2/W", "½", "T")}
    assert fake.count("/symbology") == 1
    assert fake.count("/card-symbols/", prefix=True) == 5  # only the wanted ones are downloaded
    assert all(r.headers["User-Agent"].startswith(BOT_NAME + "/") for r in fake.requests)


async def test_symbols_scryfall_lacks_are_left_out(fake, client):
    fake.symbology_lacks = frozenset({"HU", "B"})
    assert set(await symbol_svgs(client, ["HU", "B", "R", "NOT-A-SYMBOL"])) == {"R"}
    assert fake.count("/card-symbols/", prefix=True) == 1


async def test_a_failed_list_raises_unavailable(fake, client):
    fake.symbology_status = 503
    with pytest.raises(ScryfallUnavailable):
        await symbol_svgs(client, ["W"])
    assert fake.count("/card-symbols/", prefix=True) == 0


async def test_a_failed_image_raises_unavailable(fake, client):
    fake.fail_next(500, times=2)  # the list, then its retry, fail; the retry after that gets it
    listed = await client.symbology()
    assert len(listed) == len(SYMBOLS) and fake.count("/symbology") == 3
    fake.mode = "down"
    with pytest.raises(ScryfallUnavailable, match="HTTP 500"):
        await client.file(listed[0]["svg_uri"])


async def test_an_oversized_file_is_refused(fake, client):
    uri = (await client.symbology())[0]["svg_uri"]
    assert await client.file(uri, max_bytes=1000) == symbol_svg("W")
    with pytest.raises(ScryfallUnavailable, match="larger than"):
        await client.file(uri, max_bytes=10)
