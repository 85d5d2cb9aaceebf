"""`/deckcheck url:` end to end: the real bot against the fake Discord, the fake Scryfall and fake Archidekt
and Moxfield servers answering with the sites' response shapes (tests/data/decksites). Public decks are
checked with the commanders the deck names; private, missing and malformed decks, links that name no deck,
and slow sites get a clear ephemeral message.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from bot.app.bot import IdentityBot
from bot.app.replies import DEFER_AFTER
from bot.deck.sources import DeckSites, Site
from tests.fakes.decksites import FakeArchidekt, FakeDeckSite, FakeMoxfield, load_sample
from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, running

pytestmark = pytest.mark.asyncio(loop_scope="module")

ARCHIDEKT_PARTNERS = "7281944"
ARCHIDEKT_KUMANO = "5113207"
MOXFIELD_NIV = "H_9XBcW317Loe7nrOx11r_"
MOXFIELD_PARTNERS = "0OpflgKa_hD5fs6VNRFySN"
TAPPEDOUT = "https://tappedout.net/mtg-decks/mtg-parser-3-amigos/"
EDHREC = "https://edhrec.com/average-decks/adamaro-first-to-desire"
OTHER_SITES = {
    "GET /mtg-decks/mtg-parser-3-amigos/": "tappedout_page_2025.html",
    "GET /pages/average-decks/adamaro-first-to-desire.json": "edhrec_average_adamaro_2024.json",
}


class World:
    def __init__(
        self,
        discord: FakeDiscord,
        scryfall: FakeScryfall,
        archidekt: FakeArchidekt,
        moxfield: FakeMoxfield,
        bot: IdentityBot,
        others: FakeDeckSite,
    ) -> None:
        self.discord = discord
        self.scryfall = scryfall
        self.archidekt = archidekt
        self.moxfield = moxfield
        self.bot = bot
        self.others = others

    async def deckcheck(self, url: str, **options: str):
        return await self.discord.invoke("deckcheck", {"url": url, **options}, timeout=30)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory, card_cache_copy):
    tmp: Path = tmp_path_factory.mktemp("decklinks")
    cache = tmp / "cards.sqlite3"
    card_cache_copy(cache)
    archidekt_decks = [load_sample("archidekt_partners.json"), load_sample("archidekt_commander.json")]
    moxfield_decks = [load_sample("moxfield_commander.json"), load_sample("moxfield_partners_v2.json")]
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeDiscord() as discord,
        FakeArchidekt(archidekt_decks) as archidekt,
        FakeMoxfield(moxfield_decks) as moxfield,
        FakeDeckSite(OTHER_SITES) as others,
    ):
        bases = ("tappedout", "mtggoldfish", "deckstats", "aetherhub", "tcgplayer_decks_api", "edhrec_json")
        settings = bot_settings(
            discord,
            scryfall,
            cache,
            archidekt_api_base=archidekt.base_url,
            moxfield_api_base=moxfield.base_url,
            **{f"{name}_base": others.base_url for name in bases},
        )
        async with running(settings, discord) as runtime:
            yield World(discord, scryfall, archidekt, moxfield, runtime.bot, others)


@pytest_asyncio.fixture(loop_scope="module")
async def w(world):
    """The module's world; the bot's deck sites as a bot just started has them, on the addresses the composition
    root gave it: nothing cached, and no wait for a site's next request slot (one a second, tests/deck's
    business) left over from the test before."""
    for site in (world.archidekt, world.moxfield, world.others):
        site.requests.clear()
        site.private.clear()
        site.delay, site.malformed = 0.0, None
    world.others.challenge = False
    assembled = world.bot.deck_sites
    async with aiohttp.ClientSession() as session:
        world.bot.deck_sites = DeckSites(
            session,
            archidekt_base=assembled.bases[Site.ARCHIDEKT],
            moxfield_base=assembled.bases[Site.MOXFIELD],
            contact_url=world.bot.settings.decksite_contact,
            moxfield_user_agent=world.bot.settings.moxfield_user_agent,
            bases=assembled.bases,
        )
        try:
            yield world
        finally:
            await world.bot.deck_sites.aclose()
            world.bot.deck_sites = assembled
    assert world.discord.violations == []


async def test_public_archidekt_deck_with_its_commanders(w):
    reply = await w.deckcheck(f"https://archidekt.com/decks/{ARCHIDEKT_PARTNERS}/tymna-thrasios")
    assert not reply.ephemeral
    embed = reply.embeds[0]
    assert embed["title"] in (
        "Deck check: Tymna the Weaver + Thrasios, Triton Hero",
        "Deck check: Thrasios, Triton Hero + Tymna the Weaver",
    )
    assert embed["description"].startswith("✅ **Legal.** 100 cards"), reply.text()
    assert f"<https://archidekt.com/decks/{ARCHIDEKT_PARTNERS}>" in reply.content
    assert "on Archidekt" in reply.content
    [request] = w.archidekt.requests
    assert request.path == f"/api/decks/{ARCHIDEKT_PARTNERS}/"
    assert request.headers["User-Agent"].startswith("IdentityBot/")
    assert w.discord.violations == []


async def test_public_moxfield_deck_and_the_short_cache(w):
    url = f"https://www.moxfield.com/decks/{MOXFIELD_NIV}"
    reply = await w.deckcheck(url)
    assert reply.embeds[0]["title"] == "Deck check: Niv-Mizzet, Parun"
    assert reply.embeds[0]["description"].startswith("✅ **Legal.**"), reply.text()
    assert "on Moxfield" in reply.content
    again = await w.deckcheck(f"<{url}>")  # Discord's no-preview form of a link
    assert again.embeds[0]["description"] == reply.embeds[0]["description"]
    assert w.moxfield.count(MOXFIELD_NIV) == 1  # the second check was answered from the cache


async def test_commander_option_with_a_link(w):
    reply = await w.deckcheck(f"https://moxfield.com/decks/{MOXFIELD_PARTNERS}", commander="Kumano")
    embed = reply.embeds[0]
    assert "Kumano, Master Yamabushi" in embed["title"]
    assert embed["description"].startswith("❌"), reply.text()


async def test_private_deck(w):
    w.archidekt.make_private(ARCHIDEKT_KUMANO)
    reply = await w.deckcheck(f"https://archidekt.com/decks/{ARCHIDEKT_KUMANO}")
    assert reply.ephemeral and not reply.embeds
    assert not reply.deferred  # the site answered at once: no public "thinking…" before the error
    assert "That Archidekt deck is private" in reply.content
    assert w.archidekt.count(ARCHIDEKT_KUMANO) == 1


async def test_missing_deck(w):
    reply = await w.deckcheck("https://www.moxfield.com/decks/AAAAAAAAAAAAAAAAAAAAAA")
    assert reply.ephemeral
    assert "I couldn't find that deck on Moxfield" in reply.content


async def test_malformed_links_are_refused_without_a_request(w):
    no_id = await w.deckcheck("https://www.moxfield.com/decks/")
    assert no_id.ephemeral and not no_id.deferred
    assert "That Moxfield link doesn't point at a deck" in no_id.content
    other = await w.deckcheck("https://example.com/decks/123")
    assert other.ephemeral and "isn't a deck link" in other.content
    assert w.moxfield.requests == [] and w.archidekt.requests == []


async def test_malformed_answer(w):
    w.moxfield.malformed = "json"
    reply = await w.deckcheck(f"https://www.moxfield.com/decks/{MOXFIELD_NIV}")
    assert reply.ephemeral
    assert "Moxfield answered, but not with a deck I can read" in reply.content


async def test_slow_site_defers_then_answers(w):
    # longer than the bot waits before deferring, shorter than its timeout
    w.archidekt.delay = DEFER_AFTER + 0.3
    reply = await w.deckcheck(f"https://archidekt.com/decks/{ARCHIDEKT_KUMANO}")
    assert reply.deferred and not reply.ephemeral
    assert reply.embeds[0]["title"] == "Deck check: Kumano, Master Yamabushi"


async def test_too_slow_site_is_an_ephemeral_retry_hint(w):
    """A site slower than the client's deadline (past the bot's deferral): the "thinking…" is replaced by an
    ephemeral message."""
    deadline = DEFER_AFTER + 0.3
    bot = w.bot
    sites = bot.deck_sites
    async with aiohttp.ClientSession() as session:
        bot.deck_sites = DeckSites(
            session,
            archidekt_base=w.archidekt.base_url,
            moxfield_base=w.moxfield.base_url,
            contact_url="https://example.org/bot",
            timeout=deadline,
        )
        try:
            w.archidekt.delay = deadline + 1.0
            reply = await w.deckcheck(f"https://archidekt.com/decks/{ARCHIDEKT_KUMANO}")
        finally:
            with contextlib.suppress(Exception):
                await bot.deck_sites.aclose()
            bot.deck_sites = sites
    assert reply.ephemeral and reply.deferred
    assert "Archidekt isn't answering right now (or took too long)" in reply.content
    [thinking] = [
        m
        for m in w.discord.messages.values()
        if m.interaction_id == reply.interaction_id and m.id != reply.message_id
    ]
    assert thinking.deleted  # the public "thinking…" is gone


async def test_tappedout_deck_with_its_partners_and_owner(w):
    reply = await w.deckcheck(TAPPEDOUT)
    assert not reply.ephemeral
    assert reply.embeds[0]["title"] == "Deck check: Kraum, Ludevic's Opus + Vial Smasher the Fierce"
    assert f"**[mtg-parser] 3 Amigos** by gorila on TappedOut: <{TAPPEDOUT}>" in reply.content
    assert [r.path for r in w.others.requests] == ["/mtg-decks/mtg-parser-3-amigos/"]


async def test_edhrec_average_deck_says_it_is_no_players_deck(w):
    reply = await w.deckcheck(EDHREC + "/")
    assert reply.embeds[0]["title"] == "Deck check: Adamaro, First to Desire"
    assert "EDHREC's average list, not a player's deck" in reply.content
    assert not reply.ephemeral and [r.path for r in w.others.requests] == [
        "/pages/average-decks/adamaro-first-to-desire.json"
    ]


async def test_anti_bot_refusal_names_the_sites_export(w):
    w.others.challenge = True
    reply = await w.deckcheck(TAPPEDOUT)
    assert reply.ephemeral and not reply.embeds
    assert "TappedOut refused an automatic read (its anti-bot protection)" in reply.content
    assert "Export → CSV" in reply.content


async def test_archetype_link_is_not_a_deck_and_asks_nothing(w):
    reply = await w.deckcheck("https://www.mtggoldfish.com/archetype/modern-rakdos-scam#paper")
    assert reply.ephemeral and not reply.deferred
    assert "That MTGGoldfish link is an archetype" in reply.content
    assert w.others.requests == []
