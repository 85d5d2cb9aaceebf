"""End to end: the real IdentityBot, started through its normal `start()`, against the fake Discord
(REST + gateway on 127.0.0.1) and the fake Scryfall serving the whole shared data set.

Set up like a production install: the local card data was imported first (as `python -m bot
sync-cards` does), so known cards answer directly and Scryfall is asked only about names the local
data can't place. (The Scryfall-only mode, deferring then caching, runs in tests/test_app.py.)

One bot per module (module-scoped fixture and event loop) keeps the suite fast. Tests read the
recorded command sync and interaction callbacks, exactly what Discord would have received.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import pytest_asyncio

from bot.app.bot import IdentityBot
from bot.settings import load_settings
from tests.fakes.discord import FakeDiscord, Reply
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import running_bot

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

NO_PARSE = []


@dataclass
class Env:
    bot: IdentityBot
    discord: FakeDiscord
    scryfall: FakeScryfall


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def env(tmp_path_factory, card_cache_copy):
    scryfall = FakeScryfall.with_shared_data()
    await scryfall.start()
    fake = FakeDiscord()
    api_base = await fake.start()
    cache_path = card_cache_copy(tmp_path_factory.mktemp("e2e") / "cache.sqlite3")
    settings = load_settings(
        discord_token=fake.token,
        discord_api_base=api_base,
        scryfall_api_base=scryfall.base_url,
        cache_path=cache_path,
        bulk_refresh_hours=24,  # the data is fresh, so no download during the run
        sync_commands=True,
        dev_guild_id=None,
        scryfall_timeout=3.0,
        user_rate="off",
        mana_emoji="",
        mana_emoji_upload=False,
    )
    async with running_bot(settings, fake) as bot:
        yield Env(bot, fake, scryfall)
    await fake.close()
    await scryfall.close()


def assert_no_pings(reply: Reply) -> None:
    mentions = reply.allowed_mentions
    assert mentions is not None
    assert mentions.get("parse") == NO_PARSE
    assert not mentions.get("users") and not mentions.get("roles")
    assert mentions.get("replied_user") in (None, False)


def field(reply: Reply, name: str) -> str:
    return next(f["value"] for f in reply.embeds[0]["fields"] if f["name"] == name)


@pytest.fixture(autouse=True)
def discord_rules_kept(env):
    """After every test: nothing the fake Discord would have rejected, and one callback each."""
    yield
    assert env.discord.violations == []
    assert env.discord.unhandled == []
    for record in env.discord.interactions.values():
        assert len(record.callbacks) == 1, record.payload["data"]


# ------------------------------------------------------------------------------------------ startup
async def test_commands_synced_globally_before_identify(env):
    syncs = env.discord.command_syncs
    assert len(syncs) == 1 and syncs[0].scope == "global"
    assert {"fits", "help", "identity"} <= set(syncs[0].names)  # other cogs (e.g. /deckcheck) may add more
    identity = syncs[0].command("identity")
    assert [
        (o["name"], o["type"], o.get("required", False), o.get("autocomplete", False))
        for o in identity["options"]
    ] == [("card", 3, True, True)]
    fits = syncs[0].command("fits")
    assert [(o["name"], o.get("required", False), o.get("autocomplete", False)) for o in fits["options"]] == [
        ("card", True, True),
        ("commander", True, True),
        ("partner", False, True),
        ("color", False, False),
        ("partner_color", False, False),
    ]
    requests = env.discord.requests
    sync_at = requests.index(("PUT", f"/applications/{env.discord.application_id}/commands"))
    ws_at = next(i for i, r in enumerate(requests) if r[0] == "WS")
    assert sync_at < ws_at  # synced in setup_hook, before the gateway connection
    assert ("GET", "/gateway/bot") in requests[:ws_at]
    identify = env.discord.identifies[0]
    assert identify["intents"] & ((1 << 1) | (1 << 8) | (1 << 15)) == 0  # no privileged intents
    assert "token" not in identify


# ----------------------------------------------------------------------------------------- /identity
async def test_identity_fires_of_undeath(env):
    before = env.scryfall.count()
    reply = await env.discord.invoke("identity", {"card": "Fires of Undeath"})
    assert not reply.deferred and reply.callback_type == 4  # known locally: answered directly
    assert env.scryfall.count() == before
    assert not reply.ephemeral
    embed = reply.embeds[0]
    assert embed["title"] == "Fires of Undeath"
    assert embed["url"].startswith("https://scryfall.com/card/")
    assert embed["thumbnail"]["url"].startswith("https://")
    assert embed["description"].startswith("{2}{R} \u00b7 Instant\n")  # the card like a card
    assert field(reply, "Color") == "{R} red"
    assert field(reply, "Color identity") == "{B}{R} black and red"
    assert "{B} \u2014 flashback cost: Flashback {5}**{B}**" in field(reply, "Why")
    assert "Warnings" not in [f["name"] for f in embed["fields"]]  # fresh data, legal card
    assert_no_pings(reply)


async def test_fits_dismember_commander_kumano(env):
    reply = await env.discord.invoke("fits", {"card": "Dismember", "commander": "Kumano"})
    assert not reply.ephemeral
    embed = reply.embeds[0]
    assert embed["title"] == "❌ Dismember does not fit"
    assert "Black is outside the deck\u2019s color identity" in embed["description"]
    assert "**Kumano, Master Yamabushi** is red" in embed["description"]  # resolved to the commander
    assert field(reply, "Commander") == "Kumano, Master Yamabushi: {R} red"
    assert field(reply, "Outside: black") == "{B/P} \u2014 mana cost: {1}**{B/P}{B/P}**"
    # the reply used a card other than the text typed, and says so
    assert embed["description"].startswith("You typed: Kumano (Kumano, Master Yamabushi)\n")
    assert_no_pings(reply)


async def test_a_misspelt_card_is_answered_showing_what_was_typed(env):
    reply = await env.discord.invoke("identity", {"card": "Lightnig Bolt"})
    assert reply.embeds[0]["title"] == "Lightning Bolt"
    assert reply.embeds[0]["description"].startswith("You typed: Lightnig Bolt\n")
    exact = await env.discord.invoke("identity", {"card": "lightning bolt"})
    assert "You typed" not in exact.embeds[0]["description"]


async def test_fits_a_fitting_card(env):
    reply = await env.discord.invoke(
        "fits", {"card": "Lightning Bolt", "commander": "Kumano, Master Yamabushi"}
    )
    embed = reply.embeds[0]
    assert embed["title"] == "✅ Lightning Bolt fits"
    assert "Warnings" not in [f["name"] for f in embed["fields"]]


async def test_fits_with_a_partner_pair(env):
    reply = await env.discord.invoke(
        "fits",
        {"card": "Fires of Undeath", "commander": "Tymna the Weaver", "partner": "Kraum, Ludevic's Opus"},
    )
    embed = reply.embeds[0]
    assert embed["title"] == "✅ Fires of Undeath fits"
    deck = field(reply, "Commanders")
    assert "Tymna the Weaver: {W}{B}" in deck and "Kraum, Ludevic's Opus: {U}{R}" in deck
    assert "Together: {W}{U}{B}{R}" in deck
    # a pair that can't be partners: the headline says the deck can't exist, and why, once
    bad = await env.discord.invoke(
        "fits",
        {"card": "Lightning Bolt", "commander": "Kumano, Master Yamabushi", "partner": "Tymna the Weaver"},
    )
    assert bad.embeds[0]["title"].startswith("\u26d4 This deck can\u2019t exist: ")
    assert (
        "\n".join([bad.embeds[0]["title"], bad.embeds[0]["description"]]).count(
            "can\u2019t be commanders together"
        )
        == 2
    )  # the headline's reason, then the full sentence


async def test_help(env):
    reply = await env.discord.invoke("help")
    assert reply.ephemeral and not reply.deferred
    assert "/identity" in reply.text() and "/fits" in reply.text() and "903.4" in reply.text()


# ------------------------------------------------------------------------------------------- errors
async def test_unknown_card_suggests_names(env):
    reply = await env.discord.invoke("identity", {"card": "Fires Undeath Plover"})
    assert reply.ephemeral
    assert not reply.embeds
    assert "I couldn't find a card named “Fires Undeath Plover”" in reply.content
    assert "Did you mean" in reply.content and "**Fires of Undeath**" in reply.content
    record = env.discord.interactions[reply.interaction_id]
    if reply.deferred:  # the public "thinking…" message was removed, the error went out ephemeral
        assert record.deleted and record.followups and not record.edits
    assert_no_pings(reply)


async def test_six_thousand_character_name_is_refused_without_scryfall(env):
    before = env.scryfall.count()
    reply = await env.discord.invoke("identity", {"card": "x" * 6000})
    assert reply.ephemeral and not reply.deferred
    assert "6,000 characters" in reply.content and "200" in reply.content
    assert len(reply.content) < 400
    reply = await env.discord.invoke("fits", {"card": "Sol Ring", "commander": "k" * 201})
    assert reply.ephemeral and "`commander`" in reply.content
    assert env.scryfall.count() == before


async def test_control_characters_only_is_refused_without_deferring(env):
    before = env.scryfall.count()
    reply = await env.discord.invoke("identity", {"card": "\u200b\x07\u2028 \t"})
    assert reply.ephemeral and not reply.deferred
    assert "“”" not in reply.content  # not "I couldn't find a card named “”"
    assert env.scryfall.count() == before


async def test_everyone_in_input_pings_nobody(env):
    reply = await env.discord.invoke("identity", {"card": "@everyone"})
    assert reply.ephemeral
    assert "@everyone" not in reply.content and "@\u200beveryone" in reply.content
    assert_no_pings(reply)
    reply = await env.discord.invoke(
        "fits", {"card": "Sol Ring", "commander": "@here <@&110000000000000099> **x**"}
    )
    assert "@here" not in reply.content and "<@&110000000000000099>" not in reply.content
    assert "\\*\\*x\\*\\*" in reply.content
    assert_no_pings(reply)


async def test_scryfall_down_says_so(env):
    env.scryfall.mode = "down"
    try:
        reply = await env.discord.invoke("identity", {"card": "Qwerty Zxcv Plover"})
    finally:
        env.scryfall.mode = "ok"
    assert reply.deferred and reply.ephemeral
    assert "Scryfall" in reply.content and "try again" in reply.content
    assert not env.discord.interactions[reply.interaction_id].edits  # no public answer was left behind
    # cached cards still answer while Scryfall is down
    env.scryfall.mode = "down"
    try:
        cached = await env.discord.invoke("identity", {"card": "Dismember"})
    finally:
        env.scryfall.mode = "ok"
    assert cached.embeds and cached.embeds[0]["title"] == "Dismember" and not cached.deferred


# ------------------------------------------------------------------------------------- autocomplete
async def test_autocomplete_fire_lists_fires_of_undeath_in_a_fresh_server(env):
    """No one in this server looked anything up: the card service's ranking alone must offer it."""
    payload = env.discord.interaction_payload("identity", {"card": "fire"}, type=4, focused="card")
    fresh = str(int(payload["guild_id"]) + 1)
    payload["guild_id"] = payload["guild"]["id"] = fresh
    payload["authorizing_integration_owners"] = {"0": fresh}
    await env.discord.send_interaction(payload)
    choices = (await env.discord.wait_for_reply(payload["id"])).choices
    names = [c["name"] for c in choices]
    assert "Fires of Undeath" in names
    assert names[0].startswith("Fire ")  # the shortest completions of the typed word come first
    assert len(choices) == 25 and len(set(names)) == 25


async def test_autocomplete_fire_lists_fires_of_undeath(env):
    await env.discord.invoke("identity", {"card": "Fires of Undeath"})  # someone in the server asked about it
    choices = await env.discord.autocomplete("identity", {"card": "fire"}, focused="card")
    names = [c["name"] for c in choices]
    assert names[0] == "Fires of Undeath"  # recently looked up here: first
    assert "Fire // Ice" in names  # then the card service's matches
    assert len(choices) == 25
    assert all(c["name"] == c["value"] and len(c["name"]) <= 100 for c in choices)
    assert len(set(names)) == len(names)


async def test_autocomplete_commander_options_only_offer_commanders(env):
    choices = await env.discord.autocomplete(
        "fits", {"card": "Sol Ring", "commander": "kumano"}, focused="commander"
    )
    names = [c["name"] for c in choices]
    assert "Kumano, Master Yamabushi" in names
    assert "Kumano's Pupils" not in names
    card_choices = await env.discord.autocomplete("fits", {"card": "kumano"}, focused="card")
    assert "Kumano's Pupils" in [c["name"] for c in card_choices]
    assert await env.discord.autocomplete("identity", {"card": "y" * 300}, focused="card") == []


# ------------------------------------------------------------------------------- nothing goes unanswered
async def test_unknown_command_still_gets_one_reply(env):
    reply = await env.discord.invoke("nonexistent")
    assert reply.ephemeral and "something went wrong" in reply.content


async def test_unexpected_error_is_answered_once(env, monkeypatch):
    async def broken_peek(name, commander=False):
        raise RuntimeError("database exploded")

    monkeypatch.setattr(env.bot.cards, "peek", broken_peek)
    reply = await env.discord.invoke("identity", {"card": "Sol Ring"})
    assert reply.ephemeral and not reply.deferred
    assert "something went wrong" in reply.content and "exploded" not in reply.content


async def test_unexpected_error_after_deferring(env, monkeypatch):
    async def nothing(name, commander=False, langs=()):
        return None

    async def broken_resolve(name, langs=()):
        raise RuntimeError("boom")

    monkeypatch.setattr(env.bot.cards, "peek", nothing)
    monkeypatch.setattr(env.bot.cards, "resolve", broken_resolve)
    reply = await env.discord.invoke("identity", {"card": "Sol Ring"})
    assert reply.deferred and reply.ephemeral
    assert "something went wrong" in reply.content
    record = env.discord.interactions[reply.interaction_id]
    assert record.deleted and not record.edits


async def test_ambiguous_name_lists_candidates(env):
    reply = await env.discord.invoke("identity", {"card": "Kumano"})
    assert reply.ephemeral and not reply.embeds
    assert "matches several cards" in reply.content
    assert "**Kumano, Master Yamabushi**" in reply.content and "**Kumano's Pupils**" in reply.content
