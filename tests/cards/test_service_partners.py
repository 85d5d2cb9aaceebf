"""Options that know each other (issue 14): the partner option offers only cards that can be paired with the
commander already chosen, with and without local data; misspellings are answered from complete local data
without asking Scryfall; names asked together share one /cards/collection request."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from bot.cards.budget import Budget
from bot.cards.bulk import import_file
from bot.cards.cache import CardCache
from bot.cards.index import build_index
from bot.cards.model import CardNotFound
from bot.cards.schema import MIGRATIONS
from bot.identity import can_pair, pairing_traits
from tests.rates import turn
from tests.shared_data import all_cards, card

NEW_CARDS = json.loads(
    (Path(__file__).parents[1] / "data" / "cards" / "commanders.json").read_text(encoding="utf-8")
)
NEW = {c["name"]: c for c in NEW_CARDS}


@pytest.fixture(scope="module")
def imported(tmp_path_factory, card_cache_copy):
    """The shared data set plus the 2022-2026 commanders of tests/data/cards, as a bulk import."""
    folder = tmp_path_factory.mktemp("partners")
    extra = folder / "new.jsonl"
    extra.write_text("".join(json.dumps(c) + "\n" for c in NEW_CARDS), encoding="utf-8")
    path = card_cache_copy(folder / "cards.sqlite3")
    import_file(extra, path, updated_at=time.time())
    return path


@pytest.fixture
async def local(imported, tmp_path, make_card_service):
    path = tmp_path / "cards.sqlite3"
    shutil.copy(imported, path)
    return await make_card_service(cache_path=path)


def pairs(a: str, b: str) -> bool:
    cards = {c["name"]: c for c in all_cards()} | NEW
    return can_pair(pairing_traits(cards[a]), pairing_traits(cards[b]))


async def test_partner_option_offers_only_cards_that_pair_with_the_commander(local, fake_scryfall):
    first = await local.autocomplete(
        "", partner_of="Tymna the Weaver"
    )  # nothing typed yet: the best partners
    assert {"Thrasios, Triton Hero", "Kraum, Ludevic's Opus"} <= set(first[:10])
    assert all(pairs("Tymna the Weaver", name) for name in first) and 10 < len(first) <= 25
    assert "Tymna the Weaver" not in first  # a deck can't have two copies of its commander
    th = await local.autocomplete("th", partner_of="Tymna the Weaver")
    assert th[0] == "Thrasios, Triton Hero" and all(pairs("Tymna the Weaver", n) for n in th)
    kr = await local.autocomplete("kr", partner_of="tymna")  # the commander as typed, not only picked
    assert "Kraum, Ludevic's Opus" in kr[:3] and all(pairs("Tymna the Weaver", n) for n in kr)
    assert fake_scryfall.count() == 0


async def test_background_doctor_and_two_partner_abilities(local):
    backgrounds = await local.autocomplete("", partner_of="Durnan of the Yawning Portal")
    assert backgrounds and {"Folk Hero", "Haunted One"} <= set(backgrounds)
    assert all(
        local.index.entries[n].pairing and "B" in local.index.entries[n].pairing.split(";")
        for n in backgrounds
    )
    doctors = await local.autocomplete("the", partner_of="Clara Oswald")
    assert {"The Tenth Doctor", "The Fourth Doctor"} <= set(doctors)
    amy = set(await local.autocomplete("", partner_of="Amy Pond"))  # Partner with Rory, or a Time Lord Doctor
    assert {"Rory Williams", "The Tenth Doctor"} <= amy and "Thrasios, Triton Hero" not in amy
    assert await local.autocomplete("", partner_of="Kumano, Master Yamabushi") == []  # no partner ability


@pytest.mark.looptime
async def test_partner_option_without_local_data_uses_scryfalls_search(fake_scryfall, make_card_service):
    service = await make_card_service()
    await service.resolve_commander("Tymna the Weaver")  # the commander option was answered: cached
    await turn(service, "/cards/search")
    names = await service.autocomplete("th", partner_of="Tymna the Weaver")
    assert "Thrasios, Triton Hero" in names[:3] and all(pairs("Tymna the Weaver", n) for n in names)
    assert "Tymna the Weaver" not in names
    searched = [r.query for r in fake_scryfall.requests if r.path == "/cards/search"]
    assert searched[-1] == {"q": "th is:commander", "order": "edhrec"}  # the most played first
    await turn(service, "/cards/search")
    thr = await service.autocomplete("thr", partner_of="Tymna the Weaver")
    assert thr == ["Thrasios, Triton Hero"]
    sent = fake_scryfall.count("/cards/search")
    assert await service.autocomplete("thras", partner_of="Tymna the Weaver") == thr
    assert fake_scryfall.count("/cards/search") == sent  # "thras" filtered "thr"'s complete first page


async def test_autocomplete_never_waits_for_scryfalls_pace_and_reuses_its_answers(
    fake_scryfall, make_card_service
):
    service = await make_card_service(budget=Budget())  # Scryfall's real pace
    await service.resolve_commander("Tymna the Weaver")  # takes the /cards/search turn
    started = time.perf_counter()
    assert (
        await service.autocomplete("th", partner_of="Tymna the Weaver") == []
    )  # no free turn: nothing, at once
    waited = (
        time.perf_counter() - started
    )  # less than the wait for the next /cards/search turn, on any machine
    assert waited < Budget().intervals["slow"] and fake_scryfall.count("/cards/search") == 1
    light = await service.autocomplete("light")  # /cards/autocomplete has a free turn
    assert "Light of Day" in light and fake_scryfall.count("/cards/autocomplete") == 1
    assert await service.autocomplete("Light") == light  # Scryfall's answer, kept a while
    assert fake_scryfall.count("/cards/autocomplete") == 1


async def test_commander_option_without_local_data_offers_only_commanders(fake_scryfall, make_card_service):
    service = await make_card_service()
    names = await service.autocomplete("kumano", commanders_only=True)
    assert names == ["Kumano, Master Yamabushi"]  # not Kumano's Blessing, Kumano's Pupils ...
    assert "Kumano's Pupils" in await service.autocomplete("kumano")  # the card option keeps every card


async def test_a_misspelling_is_answered_from_fresh_local_data_without_scryfall(local, fake_scryfall):
    with pytest.raises(CardNotFound) as err:
        await local.resolve("Lightnig Blot")  # a near miss of several known names
    assert "Lightning Bolt" in err.value.suggestions
    assert fake_scryfall.count() == fake_scryfall.count("/cards/search") == 1  # a printed name? (issue 26)
    fake_scryfall.add_cards(
        [
            card("Sol Ring")
            | {"id": "00000000-0000-0000-0000-0000000000aa", "oracle_id": "y", "name": "Zyzzyva Test Dragon"}
        ]
    )
    assert (await local.resolve("Zyzzyva Test Dragon")).source == "api"  # unlike anything known: maybe new


async def test_stale_local_data_asks_scryfall_about_misspellings(
    imported, tmp_path, fake_scryfall, make_card_service
):
    path = tmp_path / "old.sqlite3"
    shutil.copy(imported, path)
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE meta SET value = ? WHERE key = 'bulk_updated_at'", (repr(time.time() - 10 * 86_400),)
        )
    service = await make_card_service(cache_path=path)
    found = await service.resolve("Lightnig Blot")  # ten days old: it may lack newer cards, so it asks
    assert found.source == "api"
    assert fake_scryfall.count("/cards/named") == 1


async def test_burst_of_different_names_without_local_data_shares_collection_requests(
    fake_scryfall, make_card_service
):
    service = await make_card_service(scryfall_timeout=8.0, budget=Budget())  # waiting for turns is the point
    names = [c["name"] for c in all_cards() if c.get("layout") == "normal"][3000:3026]
    started = time.monotonic()
    found = await asyncio.gather(*(service.resolve(n) for n in names))
    assert [r.name for r in found] == names
    assert fake_scryfall.count("/cards/named") == 1 and fake_scryfall.count("/cards/collection") == 1
    assert time.monotonic() - started < 3


async def test_upgrading_a_cache_fills_the_commanders_pairing(tmp_path):
    path = tmp_path / "v3.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("".join(MIGRATIONS[v] for v in (1, 2, 3)))
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (3)")
    tymna = card("Tymna the Weaver")
    db.execute(
        "INSERT INTO cards (id, oracle_id, name, source, fetched_at, rank, commander, json) "
        "VALUES (?, ?, ?, 'bulk', 0, 0, 1, ?)",
        (tymna["id"], tymna["oracle_id"], tymna["name"], json.dumps(tymna)),
    )
    db.commit()
    db.close()
    cache = await CardCache.open(path)
    try:
        [entry] = list(build_index(await cache.name_rows()).entries.values()) or [None]
    finally:
        await cache.close()
    assert entry is None or entry.pairing == pairing_traits(tymna).encode()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT pairing FROM cards").fetchone() == (pairing_traits(tymna).encode(),)
