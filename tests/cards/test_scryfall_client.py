"""ScryfallClient against the fake Scryfall: headers, typed errors, retries, timeouts, single-flight.

On looptime's fake event-loop clock: turns, backoff and the fake's delays pass at once."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest

from bot import BOT_NAME, __version__
from bot.cards.budget import Budget
from bot.cards.model import ScryfallUnavailable
from bot.cards.scryfall import (
    HEADERS,
    ScryfallAmbiguous,
    ScryfallBadRequest,
    ScryfallClient,
    ScryfallNotFound,
    endpoint_group,
)
from bot.ops.metrics import BotMetrics
from tests.fakes.scryfall import FakeScryfall

pytestmark = pytest.mark.looptime


@pytest.fixture
async def fake():
    async with FakeScryfall.with_shared_data() as server:
        yield server


@pytest.fixture
async def session():
    async with aiohttp.ClientSession(headers=HEADERS) as http:
        yield http


def make_client(session: aiohttp.ClientSession, base_url: str, **options) -> ScryfallClient:
    return ScryfallClient(
        session, base_url, budget=Budget(), metrics=BotMetrics(process_metrics=False), **options
    )


@pytest.fixture
async def client(fake, session):
    c = make_client(session, fake.base_url, timeout=3.0, backoff=0.01)
    yield c
    c.close()


def requests(client: ScryfallClient, endpoint: str, status: str) -> float:
    assert client.metrics is not None
    return (
        client.metrics.value("identity_bot_scryfall_requests_total", {"endpoint": endpoint, "status": status})
        or 0
    )


async def test_every_request_names_the_app_and_accepts_json(fake, client):
    await client.named_fuzzy("Sol Ring")
    await client.autocomplete("sol")
    assert fake.count() == 2
    for req in fake.requests:
        assert req.headers["User-Agent"] == f"{BOT_NAME}/{__version__}"
        assert req.headers["Accept"] == "application/json"


async def test_named_fuzzy(fake, client):
    card = await client.named_fuzzy("Lightning Bolt")
    assert card["name"] == "Lightning Bolt" and card["object"] == "card"
    card = await client.named_fuzzy("lightnig bolt")
    assert card["name"] == "Lightning Bolt"
    assert [r.query for r in fake.requests] == [{"fuzzy": "Lightning Bolt"}, {"fuzzy": "lightnig bolt"}]


async def test_error_objects_become_typed_errors(client):
    with pytest.raises(ScryfallNotFound) as nf:
        await client.named_fuzzy("No Such Card At All")
    assert str(nf.value).startswith("404 not_found: ")
    with pytest.raises(ScryfallAmbiguous) as amb:
        await client.named_fuzzy("Kumano")
    assert str(amb.value).startswith("404 ambiguous: ")
    with pytest.raises(ScryfallNotFound):
        await client.search("zzqqxx is:commander")


async def test_search_autocomplete_card_and_bulk(fake, client):
    found = await client.search("Kumano is:commander")
    assert [c["name"] for c in found.cards] == ["Kumano, Master Yamabushi"] and found.complete
    assert not (await client.search("a")).complete  # more than one page matches
    names = await client.autocomplete("kumano")
    assert "Kumano, Master Yamabushi" in names and len(names) <= 20
    bolt = await client.named_fuzzy("Lightning Bolt")
    assert (await client.card(bolt["id"]))["id"] == bolt["id"]
    entry = await client.bulk_entry("oracle_cards")
    assert entry["download_uri"].startswith(fake.base_url)


async def test_collection_limits_and_not_found(fake, client):
    cards = await client.collection([{"name": "Sol Ring"}, {"name": "Not A Card Name"}])
    assert [c["name"] for c in cards] == ["Sol Ring"]
    taken = await client.collection(lambda: [{"name": "Lightning Bolt"}])  # a batch taken when its slot comes
    assert [c["name"] for c in taken] == ["Lightning Bolt"]
    with pytest.raises(ValueError):
        await client.collection([{"name": "Sol Ring"}] * 76)
    assert fake.count("/cards/collection") == 2  # the oversized batch was never sent
    # ...and the fake itself refuses more than 75, like Scryfall
    async with (
        aiohttp.ClientSession() as raw,
        raw.post(
            fake.base_url + "/cards/collection", json={"identifiers": [{"name": "Sol Ring"}] * 76}
        ) as resp,
    ):
        assert resp.status == 422
        assert resp.content_type == "application/json"
        assert (await resp.json())["object"] == "error"
    with pytest.raises(ScryfallBadRequest):
        await client._request_bounded(
            "POST", "/cards/collection", None, lambda: {"identifiers": [{"name": "x"}] * 76}
        )


async def test_5xx_is_retried_then_succeeds(fake, client):
    fake.fail_next(502, times=1)
    card = await client.named_fuzzy("Sol Ring")
    assert card["name"] == "Sol Ring"
    assert fake.count("/cards/named") == 2
    assert client.metrics is not None
    assert client.metrics.value("identity_bot_scryfall_retries_total", {"endpoint": "named"}) == 1
    assert requests(client, "named", "502") == 1 and requests(client, "named", "200") == 1


async def test_5xx_retries_are_bounded(fake, client):
    fake.mode = "down"
    with pytest.raises(ScryfallUnavailable) as err:
        await client.named_fuzzy("Sol Ring")
    assert "500" in err.value.reason
    assert fake.count("/cards/named") == client.max_retries + 1


async def test_malformed_json_is_unavailable_and_not_retried(fake, client):
    fake.malformed_json = True
    with pytest.raises(ScryfallUnavailable) as err:
        await client.named_fuzzy("Sol Ring")
    assert "malformed" in err.value.reason
    assert fake.count() == 1


async def test_slow_answers_hit_the_total_timeout(fake, session):
    fake.delay = 5.0
    client = make_client(session, fake.base_url, timeout=0.6, backoff=0.01)
    started = asyncio.get_running_loop().time()
    with pytest.raises(ScryfallUnavailable):
        await client.named_fuzzy("Sol Ring")
    assert asyncio.get_running_loop().time() - started < 1.5


async def test_connection_refused_is_unavailable(session):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = make_client(session, f"http://127.0.0.1:{port}", timeout=2.0, backoff=0.01)
    with pytest.raises(ScryfallUnavailable) as err:
        await client.named_fuzzy("Sol Ring")
    assert "reach" in err.value.reason
    assert requests(client, "named", "error") == client.max_retries + 1


async def test_concurrent_identical_requests_share_one(fake, client):
    fake.delay = 0.2
    results = await asyncio.gather(*(client.named_fuzzy("Sol Ring") for _ in range(20)))
    assert {r["name"] for r in results} == {"Sol Ring"}
    assert fake.count("/cards/named") == 1
    # errors are shared too
    fake.delay = 0.0
    outcomes = await asyncio.gather(
        *(client.named_fuzzy("Nope Nope") for _ in range(5)), return_exceptions=True
    )
    assert all(isinstance(o, ScryfallNotFound) for o in outcomes)
    assert fake.count("/cards/named") == 2


def test_endpoint_groups():
    assert [
        endpoint_group(p) for p in ("/cards/search", "/cards/named", "/cards/random", "/cards/collection")
    ] == ["slow"] * 4
    assert [endpoint_group(p) for p in ("/cards/autocomplete", "/cards/abc", "/bulk-data")] == ["fast"] * 3
