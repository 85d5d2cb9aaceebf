"""Card names printed in other languages, end to end on the fake Discord (issue 20): the real bot, the fake
Scryfall, the shared data set imported; every test runs with the printed names imported (`index`) and
without them (`search`: Scryfall's `lang:` search answers, once per name, then its cache)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio

from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, copy_database, running

pytestmark = pytest.mark.asyncio(loop_scope="module")
pytest_plugins = ("tests.fakes.printed_cache",)


@dataclass
class World:
    mode: str
    discord: FakeDiscord
    scryfall: FakeScryfall

    def searches(self) -> int:
        return self.scryfall.count("/cards/search")


@pytest_asyncio.fixture(loop_scope="module", scope="module", params=["index", "search"])
async def world(request, tmp_path_factory, printed_cache_template) -> AsyncIterator[World]:
    cache = copy_database(printed_cache_template, tmp_path_factory.mktemp("foreign") / "cards.sqlite3")
    languages = "all" if request.param == "index" else ""
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeDiscord() as discord,
        contextlib.AsyncExitStack() as stack,
    ):
        settings = bot_settings(discord, scryfall, cache, card_languages=languages)
        await stack.enter_async_context(running(settings, discord))
        yield World(request.param, discord, scryfall)


@pytest_asyncio.fixture(loop_scope="module")
async def w(world: World) -> AsyncIterator[World]:
    world.scryfall.requests.clear()
    yield world
    assert world.discord.violations == []


def asked(w: World, searches: int) -> None:
    """The requests a test made: none with the index, `searches` `lang:` searches without it."""
    assert w.searches() == (0 if w.mode == "index" else searches)


async def test_identity_in_french(w):
    reply = await w.discord.invoke("identity", {"card": "Foudre"}, locale="fr", timeout=30)
    assert not reply.ephemeral
    embed = reply.embeds[0]
    assert embed["title"] == "Lightning Bolt"
    assert embed["description"].splitlines()[0] == "Vous avez saisi\u00a0: Foudre"
    asked(w, 1)
    again = await w.discord.invoke("identity", {"card": "foudre"}, locale="fr", timeout=30)
    assert again.embeds[0]["title"] == "Lightning Bolt"
    asked(w, 1)  # the second lookup is a cache hit


async def test_fits_in_german(w):
    reply = await w.discord.invoke(
        "fits", {"card": "Blitzschlag", "commander": "Krenko der Boss"}, locale="de", timeout=30
    )
    embed = reply.embeds[0]
    assert embed["title"] == "✅ Lightning Bolt passt" and "Krenko, Mob Boss" in reply.text()
    assert "Blitzschlag (Lightning Bolt), Krenko der Boss (Krenko, Mob Boss)" in embed["description"]
    asked(w, 2)


async def test_english_names_show_no_typed_line(w):
    reply = await w.discord.invoke("identity", {"card": "Lightning Bolt"}, locale="fr")
    assert "saisi" not in reply.embeds[0]["description"]
    assert w.scryfall.requests == []


async def test_a_shared_german_name_offers_both_cards(w):
    reply = await w.discord.invoke("identity", {"card": "Zwang"}, locale="de", timeout=30)
    assert reply.ephemeral
    [custom_id] = reply.custom_ids
    options = reply.select_options(custom_id)
    assert sorted(o["label"] for o in options) == ["Coercion", "Duress"]
    value = next(o["value"] for o in options if o["label"] == "Duress")
    result = await w.discord.select(reply, custom_id, [value], timeout=30)
    assert result.embeds[0]["title"] == "Duress"
    asked(w, 1)


async def test_autocomplete_in_german_and_japanese(w):
    german = await w.discord.autocomplete("identity", {"card": "blitz"}, focused="card", locale="de")
    japanese = await w.discord.autocomplete("identity", {"card": "稲妻"}, focused="card", locale="ja")
    english = await w.discord.autocomplete("identity", {"card": "blitz"}, focused="card")
    # never waits for Scryfall's pace: without the index 稲妻 (no English name) is searched only at once
    assert w.searches() == 0 if w.mode == "index" else w.searches() <= 1
    assert all(len(c["name"]) <= 100 for c in german + japanese)
    assert not any("—" in c["name"] for c in english)
    if w.mode == "index":
        assert {"name": "Blitzschlag — Lightning Bolt", "value": "Lightning Bolt"} in german
        assert japanese[0] == {"name": "稲妻 — Lightning Bolt", "value": "Lightning Bolt"}


async def test_message_names_in_japanese(w):
    message = w.discord.message("[[稲妻]] と [[Sol Ring]]")
    reply = await w.discord.invoke_message_command("Explain card names", message, locale="ja", timeout=30)
    lines = reply.content.splitlines()
    assert "Lightning Bolt" in lines[0] and "(稲妻)" in lines[0]
    assert "Sol Ring" in lines[1] and "(" not in lines[1].split("**")[-1].split(":")[0]
    asked(w, 1)


async def test_a_german_decklist(w):
    deck = (
        "1 Derevi, Himmlische Taktikerin *CMDR*\n1 Llanowarelfen\n1 Zorn Gottes\n1 Fakt oder Fiktion\n"
        "1 Feuermasse\n"
    )  # names no other test of this module looks up
    reply = await w.discord.invoke("deckcheck", {"list": deck}, locale="de", timeout=30)
    text = reply.text()
    assert (
        "Derevi, Empyrial Tactician" in text and "Pyroclasm" in text
    )  # the report names the cards in English
    assert "unbekannt" not in text.lower(), text
    asked(w, 5)  # one search per German name


async def test_deckcheck_with_a_german_commander_option(w):
    deck = "1 Gedankenwirbel\n1 Schwarzer Ritus\n"
    reply = await w.discord.invoke(
        "deckcheck", {"commander": "Zur der Verzauberer", "list": deck}, locale="de", timeout=30
    )
    text = reply.text()
    assert "Zur the Enchanter" in text and "unbekannt" not in text.lower(), text
    asked(w, 3)


async def test_check_this_decklist_in_french(w):
    message = w.discord.message(
        "1 Krenko le caïd *CMDR*\n1 Contresort\n1 Anneau solaire\n1 Tour de commandement\n"
    )
    reply = await w.discord.invoke_message_command("Check this decklist", message, locale="fr", timeout=30)
    text = reply.text()
    assert "Krenko, Mob Boss" in text and "Counterspell" in text and "inconnu" not in text.lower(), text
    asked(w, 4)
