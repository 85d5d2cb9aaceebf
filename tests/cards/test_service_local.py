"""CardService over the imported shared data set: local answers, partial names, autocomplete.

The tests that only read the local data share one service and fake Scryfall for the module (opening a
service builds its name index: most of a second); its request log is cleared for each test. The tests that
add cards to Scryfall or take it down have their own (`own_local`, `own_scryfall`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.cards.model import AmbiguousCard, CardNotFound
from bot.cards.service import CardService
from tests.fakes.fixtures import card_services
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import copy_database
from tests.shared_data import card

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def imported(tmp_path_factory, card_cache_copy):
    return card_cache_copy(tmp_path_factory.mktemp("bulk") / "cards.sqlite3")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def module_scryfall() -> AsyncIterator[FakeScryfall]:
    async with FakeScryfall.with_shared_data() as fake:
        yield fake


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def module_local(module_scryfall, card_cache_copy, tmp_path_factory) -> AsyncIterator[CardService]:
    folder = tmp_path_factory.mktemp("local")
    async with card_services(module_scryfall, folder) as make:
        yield await make(cache_path=card_cache_copy(folder / "cards.sqlite3"))


@pytest_asyncio.fixture(loop_scope="module")
async def fake_scryfall(module_scryfall) -> AsyncIterator[FakeScryfall]:
    """The module's fake Scryfall, its request log cleared before and after each test."""
    module_scryfall.reset()
    yield module_scryfall
    module_scryfall.reset()


@pytest_asyncio.fixture(loop_scope="module")
async def local(module_local, fake_scryfall) -> CardService:
    """The module's service over the imported data set, talking to `fake_scryfall`."""
    return module_local


@pytest_asyncio.fixture(loop_scope="module")
async def own_scryfall() -> AsyncIterator[FakeScryfall]:
    """A fake Scryfall of the test's own (it changes the cards served, or the fake's mode)."""
    async with FakeScryfall.with_shared_data() as fake:
        yield fake


@pytest_asyncio.fixture(loop_scope="module")
async def own_local(imported, tmp_path, own_scryfall) -> AsyncIterator[CardService]:
    """A service of the test's own over a copy of the imported data set, talking to `own_scryfall`."""
    async with card_services(own_scryfall, tmp_path) as make:
        yield await make(cache_path=copy_database(imported, tmp_path / "cards.sqlite3"))


async def test_exact_and_faces_are_local(local, fake_scryfall):
    bolt = await local.resolve("Lightning Bolt")
    assert bolt.source == "local" and bolt.data_age_days is not None
    for typed, name in [
        ("fire ice", "Fire // Ice"),
        ("Fire/Ice", "Fire // Ice"),
        ("Homicidal Brute", "Civilized Scholar // Homicidal Brute"),
        ("Æther Vial", "Aether Vial"),
        ("lim dul's vault", "Lim-Dûl's Vault"),
    ]:
        assert (await local.resolve(typed)).name == name
    assert (await local.peek("Sol Ring")).source == "local"
    assert fake_scryfall.count() == 0


async def test_partial_names_and_typos_are_local(local, fake_scryfall):
    assert (await local.resolve("Master Yamabushi")).name == "Kumano, Master Yamabushi"
    assert (await local.resolve("kitchen fink")).name == "Kitchen Finks"
    assert (await local.resolve("Dismembr")).name == "Dismember"
    with pytest.raises(AmbiguousCard) as err:
        await local.resolve("Kumano")
    assert err.value.candidates[:2] == [
        "Kumano, Master Yamabushi",
        "Kumano Faces Kakkazan // Etching of Kumano",
    ]
    assert fake_scryfall.count() == 0


async def test_commander_preference_is_local(local, fake_scryfall):
    assert (await local.resolve_commander("Kumano")).name == "Kumano, Master Yamabushi"
    assert (await local.resolve_commander("kumano")).name == "Kumano, Master Yamabushi"
    # an exact non-commander name is still what the user asked for
    assert (await local.resolve_commander("Kumano's Pupils")).name == "Kumano's Pupils"
    assert (await local.resolve_commander("Atraxa")).name == "Atraxa, Praetors' Voice"
    assert fake_scryfall.count() == 0


async def test_unknown_to_local_data_goes_to_scryfall(own_local, own_scryfall):
    new = card("Sol Ring") | {
        "id": "00000000-0000-0000-0000-00000000beef",
        "oracle_id": "x",
        "name": "Zyzzyva Test Dragon",
    }
    own_scryfall.add_cards([new])
    resolved = await own_local.resolve("Zyzzyva Test Dragon")
    assert resolved.source == "api" and resolved.card["id"] == new["id"]
    # like no known name: first searched as a printed name (issue 26), then Scryfall's own lookup
    assert own_scryfall.count() - own_scryfall.count("/cards/search") == 1
    assert own_scryfall.count("/cards/search") == 1
    with pytest.raises(CardNotFound) as err:
        await own_local.resolve("Lightnign Bolts of Qwxyz")
    assert len(err.value.suggestions) <= 5


async def test_autocomplete_is_local_and_discord_sized(local, fake_scryfall):
    names = await local.autocomplete("kum")
    # most played first: Kumena (EDHREC rank 4122) before the unranked Kumano cards, shortest first
    assert names[:2] == ["Kumena, Tyrant of Orazca", "Kumano, Master Yamabushi"]
    commanders = await local.autocomplete("kum", commanders_only=True)
    assert commanders[:2] == ["Kumena, Tyrant of Orazca", "Kumano, Master Yamabushi"]
    assert not {"Kumano's Pupils", "Kumano Faces Kakkazan // Etching of Kumano"} & set(commanders)
    assert all(local.index.entries[n].commander for n in commanders)
    assert "Kumano, Master Yamabushi" in await local.autocomplete("yamab")
    assert "Lightning Bolt" in await local.autocomplete("lightnig bolt")
    many = await local.autocomplete("a")
    assert len(many) == 25
    long = await local.autocomplete("Our Market Research")
    assert long and all(len(n) <= 100 for n in long)
    assert await local.autocomplete("") == []
    assert fake_scryfall.count() == 0


async def test_resolve_many_is_local(local, fake_scryfall):
    batch = await local.resolve_many(["Sol Ring", "Fire/Ice", "Homicidal Brute", "Command Tower"])
    found, missing = batch.found, batch.missing
    assert {k: v.name for k, v in found.items()} == {
        "Sol Ring": "Sol Ring",
        "Fire/Ice": "Fire // Ice",
        "Homicidal Brute": "Civilized Scholar // Homicidal Brute",
        "Command Tower": "Command Tower",
    }
    assert missing == {}
    assert fake_scryfall.count() == 0


NEWER = {
    "object": "card",
    "id": "00000000-0000-4000-8000-0000000c0de1",
    "oracle_id": "00000000-0000-4000-8000-0000000c0de2",
    "name": "Kitchen Finks Reborn",
    "layout": "normal",
    "mana_cost": "{1}{G/W}{G/W}",
    "cmc": 3.0,
    "type_line": "Creature — Ouphe",
    "oracle_text": "Persist",
    "colors": ["G", "W"],
    "color_identity": ["G", "W"],
    "legalities": {"commander": "legal"},
    "games": ["paper"],
}  # not in the data


async def test_a_deck_list_is_read_exactly_and_never_guessed(own_local, own_scryfall):
    """Evidence of issue 19: offline, a real card the local data lacks was read as a look-alike."""
    own_scryfall.add_cards([NEWER])
    typed = [
        "Fire/Ice",
        "Fire / Ice",
        "homicidal brute",
        "LIGHTNING BOLT",
        "Kitchen Fink",
        "Kitchen Finks Reborn",
    ]
    own_scryfall.mode = "down"
    offline = await own_local.resolve_many(typed)
    assert {t: r.name for t, r in offline.found.items()} == {
        "Fire/Ice": "Fire // Ice",
        "Fire / Ice": "Fire // Ice",
        "LIGHTNING BOLT": "Lightning Bolt",
        "homicidal brute": "Civilized Scholar // Homicidal Brute",
    }
    assert offline.missing == {}  # offline nothing is said not to exist: it may be newer than the data
    assert set(offline.unavailable) == {"Kitchen Fink", "Kitchen Finks Reborn"}
    assert offline.suggestions["Kitchen Fink"][0] == "Kitchen Finks"
    assert offline.suggestions["Kitchen Finks Reborn"][0] == "Kitchen Finks"  # a suggestion, never the card

    own_scryfall.mode = "ok"
    online = await own_local.resolve_many(typed)
    assert online.found["Kitchen Finks Reborn"].name == "Kitchen Finks Reborn"  # Scryfall knows it exactly
    assert "Kitchen Fink" not in online.found and online.missing["Kitchen Fink"][0] == "Kitchen Finks"
    assert online.suggestions["Kitchen Fink"] == online.missing["Kitchen Fink"]
