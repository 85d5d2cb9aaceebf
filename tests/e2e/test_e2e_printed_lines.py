"""Evidence lines as the player's cards print them, end to end on the fake Discord (issue 26): the real bot,
the fake Scryfall, the fake `all_cards` imported (printed text of real cards: `tests/data/printed_texts.json`).
With `CARD_LANGUAGES` (`index`) a German reply quotes the German line; without it (`search`), the Oracle line
marked English, as before."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio

from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, copy_database, running

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]
pytest_plugins = ("tests.fakes.printed_cache",)

NOTE = "Kartenzeilen auf Englisch zitiert (Oracle-Text)"


@dataclass
class World:
    mode: str
    discord: FakeDiscord


@pytest_asyncio.fixture(loop_scope="module", scope="module", params=["index", "search"])
async def w(request, tmp_path_factory, printed_cache_template) -> AsyncIterator[World]:
    cache = copy_database(printed_cache_template, tmp_path_factory.mktemp("quotes") / "cards.sqlite3")
    languages = "all" if request.param == "index" else ""
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeDiscord() as discord,
        contextlib.AsyncExitStack() as stack,
    ):
        settings = bot_settings(discord, scryfall, cache, card_languages=languages)
        await stack.enter_async_context(running(settings, discord))
        yield World(request.param, discord)
        assert discord.violations == []


async def test_identity_quotes_the_german_line(w):
    reply = await w.discord.invoke("identity", {"card": "Feuer der Untoten"}, locale="de", timeout=30)
    embed = reply.embeds[0]
    why = embed["fields"][-1]["value"]
    if w.mode == "index":
        assert "Kosten für Rückblende: Rückblende {5}**{B}**" in why and "Flashback" not in why
        assert NOTE not in embed["footer"]["text"]
    else:
        assert "Kosten für Rückblende: Flashback {5}**{B}**" in why
        assert embed["footer"]["text"].endswith(NOTE)
    english = await w.discord.invoke("identity", {"card": "Fires of Undeath"}, locale="en-US", timeout=30)
    assert "flashback cost: Flashback {5}**{B}**" in english.embeds[0]["fields"][-1]["value"]


async def test_a_line_printed_with_other_symbols_is_quoted_from_the_oracle_text(w):
    reply = await w.discord.invoke("identity", {"card": "Gerechtigkeit"}, locale="de", timeout=30)
    embed = reply.embeds[0]
    assert "sacrifice Justice unless you pay **{W}{W}**" in embed["fields"][-1]["value"]
    assert embed["footer"]["text"].endswith(NOTE)


async def test_fits_and_deckcheck_quote_the_german_lines(w):
    fits = await w.discord.invoke(
        "fits", {"card": "Verweilende Seelen", "commander": "Krenko der Boss"}, locale="de", timeout=30
    )
    deck = await w.discord.invoke(
        "deckcheck",
        {"commander": "Krenko der Boss", "list": "1 Treuloses Plündern\n1 Feuer der Untoten\n"},
        locale="de",
        timeout=30,
    )
    line = "Rückblende {1}**{B}**" if w.mode == "index" else "Flashback {1}**{B}**"
    assert line in fits.embeds[0]["fields"][-1]["value"]
    shown = deck.text()
    assert ("Rückblende {5}**{B}**" if w.mode == "index" else "Flashback {5}**{B}**") in shown
