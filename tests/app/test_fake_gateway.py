"""The fake Discord sends gateway events by intent, as Discord does: READY lists the servers as unavailable,
GUILD_CREATE follows only with GUILDS, chat events only with their intents, message content only with
MESSAGE_CONTENT; and it loads servers of realistic size."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import aiohttp
import pytest

from tests.fakes.discord import FakeDiscord
from tests.fakes.guilds import Intent, delivered

pytestmark = pytest.mark.timeout(30)


async def identify(fake: FakeDiscord, session: aiohttp.ClientSession, intents: int) -> dict[str, Any]:
    """Connect and IDENTIFY with `intents`; returns READY's data."""
    ws = await session.ws_connect(fake.gateway_url)
    await ws.receive()  # HELLO
    await ws.send_str(json.dumps({"op": 2, "d": {"token": fake.token, "intents": intents, "properties": {}}}))
    ready = json.loads((await ws.receive()).data)
    assert ready["t"] == "READY"
    return ready["d"]


def events(fake: FakeDiscord) -> Counter[str]:
    return Counter(frame["t"] for frame in fake.shards[0].sent)


async def test_with_guilds_every_server_arrives_in_guild_create_at_realistic_size():
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        servers = fake.load_servers(5, channels=30, roles=12, in_voice=2)
        ready = await identify(fake, session, Intent.GUILDS)
        assert ready["guilds"] == [{"id": g, "unavailable": True} for g in servers]
        created = [f["d"] for f in fake.shards[0].sent if f["t"] == "GUILD_CREATE"]
        assert [g["id"] for g in created] == servers
        guild = created[0]
        assert len(guild["channels"]) == 30 and len(guild["roles"]) == 12
        assert {c["type"] for c in guild["channels"]} == {0, 2, 4}  # text, voice, categories
        # a bot without the presences intent gets itself and the people in voice as members, no one else
        assert guild["members"][0]["user"]["id"] == fake.bot_user_id
        assert {m["user"]["id"] for m in guild["members"][1:]} == {
            v["user_id"] for v in guild["voice_states"]
        }
        assert len(guild["voice_states"]) == 2 and guild["member_count"] > len(guild["members"])


async def test_without_guilds_no_guild_create_and_no_chat():
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        fake.load_servers(3)
        ready = await identify(fake, session, 0)
        assert len(ready["guilds"]) == 3 and all(g["unavailable"] for g in ready["guilds"])
        assert await fake.chat(100) == 0
        assert events(fake) == Counter({"READY": 1})


async def test_chat_events_only_with_their_intents_and_content_only_with_message_content():
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        fake.load_servers(2)
        await identify(fake, session, Intent.GUILD_MESSAGES | Intent.GUILD_VOICE_STATES)
        sent = await fake.chat(100)
        seen = events(fake)
        assert seen["MESSAGE_CREATE"] == 60 and seen["VOICE_STATE_UPDATE"] == 10 and sent == 70
        assert seen["MESSAGE_REACTION_ADD"] == seen["TYPING_START"] == seen["GUILD_CREATE"] == 0
        messages = [f["d"] for f in fake.shards[0].sent if f["t"] == "MESSAGE_CREATE"]
        assert all(m["content"] == "" for m in messages)  # no MESSAGE_CONTENT: no content


async def test_default_intents_get_every_chat_event():
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        fake.load_servers(2)
        default = (
            Intent.GUILDS
            | Intent.GUILD_MESSAGES
            | Intent.GUILD_MESSAGE_REACTIONS
            | Intent.GUILD_MESSAGE_TYPING
            | Intent.GUILD_VOICE_STATES
        )
        await identify(fake, session, default)
        assert await fake.chat(100) == 100
        seen = events(fake)
        assert (seen["GUILD_CREATE"], seen["MESSAGE_REACTION_ADD"], seen["TYPING_START"]) == (2, 20, 10)


def test_message_content_rules():
    bot = "42"
    message = {"guild_id": "1", "content": "[[Sol Ring]]", "mentions": [], "embeds": [{"title": "x"}]}
    assert delivered("MESSAGE_CREATE", message, Intent.GUILD_MESSAGES, bot)["content"] == ""
    assert delivered("MESSAGE_CREATE", message, Intent.GUILD_MESSAGES, bot)["embeds"] == []
    full = Intent.GUILD_MESSAGES | Intent.MESSAGE_CONTENT
    assert delivered("MESSAGE_CREATE", message, full, bot) == message
    mentioning = message | {"mentions": [{"id": bot}]}
    assert (
        delivered("MESSAGE_CREATE", mentioning, Intent.GUILD_MESSAGES, bot) == mentioning
    )  # said to the bot
    dm = {"content": "hi", "channel_id": "7"}
    assert delivered("MESSAGE_CREATE", dm, Intent.GUILD_MESSAGES, bot) is None  # a DM needs DIRECT_MESSAGES
    assert delivered("MESSAGE_CREATE", dm, Intent.DIRECT_MESSAGES, bot) == dm  # content of DMs always comes
    assert delivered("INTERACTION_CREATE", {"guild_id": "1"}, 0, bot) == {"guild_id": "1"}  # needs no intent
