"""Printed names typed by a player whose Discord is in English, on a default install (issue 26): the real bot
on the fake Discord, the fake Scryfall, complete local English data, `CARD_LANGUAGES` off. Real printed
names of several languages resolve through Scryfall's `lang:any` search, one request a name, in every
command: `/identity`, `/fits`, `/deckcheck`, `[[…]]` names, and autocomplete from what the bot knows."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio

from bot.cards.names import normalize
from bot.main import Runtime
from tests.fakes.allcards import printed_sample
from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, copy_database, running

pytestmark = pytest.mark.asyncio(loop_scope="module")
pytest_plugins = ("tests.fakes.printed_cache",)

LANGS = ("de", "fr", "es", "it", "pt", "ja")


@dataclass
class World:
    discord: FakeDiscord
    scryfall: FakeScryfall
    runtime: Runtime

    def searches(self) -> int:
        """Searches for printed names (a commander option also searches Scryfall's English commanders)."""
        return sum(1 for r in self.scryfall.requests if "lang:any" in r.query.get("q", ""))

    def sample(self, per_lang: int, seed: int) -> list[tuple[str, str, str]]:
        """Real printed names the bot's English index reads as no English name, not even by a typo."""
        index = self.runtime.bot.cards.index
        return printed_sample(
            LANGS, per_lang, seed=seed, english=lambda n: index.match(normalize(n)).kind != "none"
        )


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory, printed_cache_template) -> AsyncIterator[World]:
    cache = copy_database(printed_cache_template, tmp_path_factory.mktemp("english") / "cards.sqlite3")
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeDiscord() as discord,
        contextlib.AsyncExitStack() as stack,
    ):
        settings = bot_settings(discord, scryfall, cache, card_languages="")
        runtime = await stack.enter_async_context(running(settings, discord))
        yield World(discord, scryfall, runtime)


@pytest_asyncio.fixture(loop_scope="module")
async def w(world: World) -> AsyncIterator[World]:
    world.scryfall.reset()
    yield world
    assert world.discord.violations == []


async def test_identity_of_printed_names_in_six_languages(w):
    names = w.sample(1, seed=26)
    for lang, printed, english in names:
        reply = await w.discord.invoke("identity", {"card": printed}, timeout=30)  # English locale
        assert not reply.ephemeral, (lang, printed, reply.text())
        embed = reply.embeds[0]
        assert embed["title"] == english
        assert embed["description"].splitlines()[0] == f"You typed: {printed}"
    assert w.searches() == len(names)  # one request a name
    again = await w.discord.invoke("identity", {"card": names[0][1]}, timeout=30)
    assert again.embeds[0]["title"] == names[0][2] and w.searches() == len(names)  # remembered


async def test_fits_with_printed_names(w):
    reply = await w.discord.invoke(
        "fits", {"card": "Distorsione Caotica", "commander": "Krenko le caïd"}, timeout=30
    )  # Italian card, French commander
    embed = reply.embeds[0]
    assert embed["title"] == "✅ Chaos Warp fits" and "Krenko, Mob Boss" in reply.text()
    assert w.searches() == 2


async def test_a_deck_of_printed_names(w):
    names = w.sample(1, seed=3)
    deck = "1 Krenko der Boss *CMDR*\n" + "".join(f"1 {printed}\n" for _lang, printed, _english in names)
    reply = await w.discord.invoke("deckcheck", {"list": deck}, timeout=60)
    text = reply.text()
    assert "Krenko, Mob Boss" in text and "unknown" not in text.lower(), text
    assert w.searches() == len(names) + 1


async def test_names_in_a_message(w):
    [(_l1, first, english1), (_l2, second, english2)] = w.sample(1, seed=11)[:2]
    message = w.discord.message(f"[[{first}]] and [[{second}]]")
    reply = await w.discord.invoke_message_command("Explain card names", message, timeout=30)
    lines = reply.content.splitlines()
    assert english1 in lines[0] and f"({first})" in lines[0]
    assert english2 in lines[1] and f"({second})" in lines[1]


async def test_autocomplete_offers_printed_names_it_knows_without_waiting(w):
    names = w.sample(1, seed=26)  # looked up by the first test: their searches are remembered
    for _lang, printed, english in names:
        choices = await w.discord.autocomplete("identity", {"card": printed}, focused="card")
        assert choices[0] == {"name": f"{printed} — {english}", "value": english}
    assert w.searches() == 0
    skipped = w.runtime.bot.cards.client.budget.clock.skipped  # the fake clock's waits for a turn so far
    started = time.perf_counter()
    fresh = await w.discord.autocomplete("identity", {"card": "Gegenzaube"}, focused="card")
    assert time.perf_counter() - started < 3  # Discord's limit: it never waits for Scryfall's pace
    assert w.runtime.bot.cards.client.budget.clock.skipped == skipped  # not even on the fake clock
    assert w.searches() <= 1  # one search when a request can go at once, else none
    if w.searches():
        assert {"name": "Gegenzauber — Counterspell", "value": "Counterspell"} in fresh
    english = await w.discord.autocomplete("identity", {"card": "lightning"}, focused="card")
    assert not any("—" in c["name"] for c in english) and w.searches() <= 1


async def test_the_log_names_the_setting_when_players_of_a_language_arrive(w, caplog):
    with caplog.at_level(logging.INFO, logger="bot.cards.foreign"):
        for locale in ("de", "de", "en-US", "pt-BR"):
            await w.discord.invoke("identity", {"card": "Sol Ring"}, locale=locale, timeout=30)
    lines = [r.getMessage() for r in caplog.records if "CARD_LANGUAGES=" in r.getMessage()]
    assert len(lines) == 2 and "CARD_LANGUAGES=de " in lines[0] and "CARD_LANGUAGES=de,pt " in lines[1]


async def test_a_search_that_fails_is_couldnt_check(w):
    w.scryfall.down_paths.add("/cards/search")
    reply = await w.discord.invoke("identity", {"card": "Zorn Gottes"}, timeout=30)
    assert reply.ephemeral and "isn't answering" in reply.text()
    assert "couldn't find" not in reply.text().lower()
