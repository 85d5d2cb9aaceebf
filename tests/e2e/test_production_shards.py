"""Sharding against the fake Discord, which hands each guild to shard (guild_id >> 22) % shard_count:
one process running both shards (AutoShardedBot), and one process per shard sharing one cache file."""

from __future__ import annotations

import asyncio
import logging

import pytest
from discord.ext import commands

from bot.app.bot import IDENTIFY_SPACING, IdentityBot
from bot.ops.server import gateway_check
from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import (
    CARD_NAMES,
    bot_settings,
    running_bot,
    settle,
    user,
)
from tests.shared_data import card

pytestmark = pytest.mark.timeout(60)

BASE = 262_144_000  # guild snowflakes (BASE + k) << 22 land on shard k % 2
GUILDS = [((BASE + k) << 22) | (17 * k) for k in range(4)]  # shards 0, 1, 0, 1
ON_SHARD = {0: [GUILDS[0], GUILDS[2]], 1: [GUILDS[1], GUILDS[3]]}


def interaction_shard(fake: FakeDiscord, interaction_id: str) -> int:
    """The shard whose session carried this INTERACTION_CREATE."""
    hits = [
        shard
        for shard, session in fake.shards.items()
        if any(f["t"] == "INTERACTION_CREATE" and f["d"]["id"] == interaction_id for f in session.sent)
    ]
    assert len(hits) == 1, hits
    return hits[0]


async def test_one_bot_class_one_shard_by_default(tmp_path, make_card_service):
    cards = await make_card_service()

    def bot(**overrides):
        return IdentityBot(
            bot_settings_stub(tmp_path, **overrides),
            cards=cards,
            deck_sites=None,  # type: ignore[arg-type]
            house=None,  # type: ignore[arg-type]
            metrics=cards.metrics,
            extensions=(),
        )

    plain = bot()
    assert isinstance(plain, commands.AutoShardedBot) and (plain.shard_count, plain.shard_ids) == (1, None)
    sharded = bot(shard_count=4, shard_ids="2-3")
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
    # Production keeps Discord's IDENTIFY spacing between shards (tests pass identify_spacing=0).
    assert sharded.identify_spacing == IDENTIFY_SPACING == 5.0


def bot_settings_stub(tmp_path, **overrides):
    from bot.settings import load_settings

    return load_settings(
        discord_token="a.b.c",
        discord_api_base="http://127.0.0.1:9/api/v10",
        cache_path=tmp_path / "c.sqlite3",
        shard_count=overrides.pop("shard_count", None),
        shard_ids=overrides.pop("shard_ids", None),
        **overrides,
    )


@pytest.mark.slow
async def test_two_shards_in_one_process_answer_on_both_shards(imported_cache, caplog):
    caplog.set_level(logging.INFO, logger="bot.commands")
    cache_path = imported_cache
    async with FakeScryfall([]) as scryfall, FakeDiscord(guild_ids=GUILDS, recommended_shards=2) as fake:
        assert [fake.guilds_of_shard(s, 2) for s in (0, 1)] == [[str(g) for g in ON_SHARD[s]] for s in (0, 1)]
        settings = bot_settings(fake, scryfall, cache_path, shard_count=2, bulk_refresh_hours=24)
        async with running_bot(settings, fake, shards=[0, 1]) as bot:
            assert sorted(i["shard"] for i in fake.identifies) == [[0, 2], [1, 2]]
            async with asyncio.timeout(10):
                while len(bot.guilds) < len(GUILDS):  # noqa: ASYNC110
                    await asyncio.sleep(0.02)
            assert sorted(g.id for g in bot.guilds) == sorted(GUILDS)
            assert sorted(bot.shards) == [0, 1]

            for shard, guilds in ON_SHARD.items():
                for i, guild in enumerate(guilds):
                    name = CARD_NAMES[shard * 2 + i]
                    payload = fake.interaction_payload(
                        "identity", {"card": name}, guild_id=guild, user=user(i)
                    )
                    await fake.send_interaction(payload)
                    reply = await fake.wait_for_reply(payload["id"])
                    assert reply.embeds[0]["title"] == name
                    assert interaction_shard(fake, payload["id"]) == shard == bot.shard_of(guild)
            await settle(bot)
            lines = [r for r in caplog.records if r.name == "bot.commands"]
            assert sorted(r.shard_id for r in lines) == [0, 0, 1, 1]
            await asyncio.wait_for(bot.wait_until_ready(), 10)  # READY once every shard is up
            assert gateway_check(bot) is True

            # Shard 1 loses its socket: it alone RESUMEs; shard 0 is untouched.
            missed = fake.interaction_payload("help", {}, guild_id=ON_SHARD[1][0])
            await fake.drop(1, missed=[missed])
            resume = await fake.wait_resumed()
            assert resume["shard"] == 1 and resume["replayed"] >= 1
            assert (await fake.wait_for_reply(missed["id"])).embeds
            reply = await fake.invoke(
                "fits", {"card": "Dismember", "commander": "Kumano"}, guild_id=ON_SHARD[0][1]
            )
            assert reply.embeds[0]["title"] == "❌ Dismember does not fit"
            assert len(fake.identifies) == 2
            await settle(bot)
            assert (
                bot.metrics.value("identity_bot_gateway_reconnects_total", {"shard": "1", "kind": "resume"})
                == 1
            )
            assert fake.violations == []


async def test_one_process_per_shard_sharing_one_cache_file(tmp_path):
    cache_path = tmp_path / "shared" / "cache.sqlite3"
    async with (
        FakeScryfall([card(n) for n in CARD_NAMES]) as scryfall,
        FakeDiscord(guild_ids=GUILDS, recommended_shards=2) as fake,
    ):
        first = bot_settings(fake, scryfall, cache_path, shard_count=2, shard_ids="0")
        second = bot_settings(fake, scryfall, cache_path, shard_count=2, shard_ids="1", sync_commands=False)
        async with (
            running_bot(first, fake, shards=[0]) as bot0,
            running_bot(second, fake, shards=[1]) as bot1,
        ):
            assert sorted(bot0.shards) == [0] and sorted(bot1.shards) == [1]
            # Shard 0's process looks the card up on Scryfall and writes the shared cache ...
            reply = await fake.invoke("identity", {"card": "Fires of Undeath"}, guild_id=ON_SHARD[0][0])
            assert reply.deferred and reply.embeds[0]["title"] == "Fires of Undeath"
            asked = scryfall.count()
            # ... and shard 1's process answers the same card straight from that file.
            payload = fake.interaction_payload(
                "identity", {"card": "Fires of Undeath"}, guild_id=ON_SHARD[1][0]
            )
            await fake.send_interaction(payload)
            reply = await fake.wait_for_reply(payload["id"])
            assert interaction_shard(fake, payload["id"]) == 1
            assert not reply.deferred and reply.embeds[0]["title"] == "Fires of Undeath"
            assert scryfall.count() == asked
            await settle(bot0)
            await settle(bot1)
            done0 = bot0.metrics.value(
                "identity_bot_commands_total", {"command": "identity", "outcome": "ok"}
            )
            done1 = bot1.metrics.value(
                "identity_bot_commands_total", {"command": "identity", "outcome": "ok"}
            )
            assert (done0, done1) == (1, 1)
            assert fake.violations == []


# ------------------------------------------------------------------ the fake gateway on its own
async def test_fake_gateway_sessions_shards_and_resume_rules():
    """A raw websocket client checks the fake's gateway rules, so the tests above could fail."""
    import json

    import aiohttp

    async def hello(ws):
        assert json.loads((await ws.receive()).data)["op"] == 10

    async with FakeDiscord(guild_ids=GUILDS) as fake, aiohttp.ClientSession() as http:
        ws = await http.ws_connect(fake.gateway_url)
        await hello(ws)
        await ws.send_str(json.dumps({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": [1, 2]}}))
        ready = json.loads((await ws.receive()).data)
        assert ready["t"] == "READY" and ready["d"]["shard"] == [1, 2]
        assert [g["id"] for g in ready["d"]["guilds"]] == [str(g) for g in ON_SHARD[1]]
        creates = [json.loads((await ws.receive()).data) for _ in ON_SHARD[1]]
        assert [c["d"]["id"] for c in creates] == [str(g) for g in ON_SHARD[1]] and creates[-1]["s"] == 3
        with pytest.raises(RuntimeError):  # no session serves shard 0's guilds
            await fake.send_interaction(fake.interaction_payload("help", {}, guild_id=ON_SHARD[0][0]))

        missed = [fake.interaction_payload("help", {}, guild_id=g) for g in ON_SHARD[1]]
        await fake.drop(1, missed=missed)
        assert (await ws.receive()).data == 4000
        await ws.close()

        ws = await http.ws_connect(fake.gateway_url)  # a RESUME of an unknown session is refused
        await hello(ws)
        await ws.send_str(json.dumps({"op": 6, "d": {"token": fake.token, "session_id": "nope", "seq": 3}}))
        assert json.loads((await ws.receive()).data) == {"op": 9, "d": False, "s": None, "t": None}
        await ws.close()

        ws = await http.ws_connect(fake.gateway_url)  # the right one replays what was missed, then RESUMED
        await hello(ws)
        session_id = ready["d"]["session_id"]
        await ws.send_str(
            json.dumps({"op": 6, "d": {"token": fake.token, "session_id": session_id, "seq": 3}})
        )
        frames = [json.loads((await ws.receive()).data) for _ in range(3)]
        assert [(f["t"], f["s"]) for f in frames] == [
            ("INTERACTION_CREATE", 4),
            ("INTERACTION_CREATE", 5),
            ("RESUMED", 6),
        ]
        assert [f["d"]["id"] for f in frames[:2]] == [p["id"] for p in missed]
        assert fake.resumes[-1] == {"session_id": session_id, "seq": 3, "ok": True, "shard": 1, "replayed": 2}
        await ws.close()

        ws = await http.ws_connect(fake.gateway_url)  # a shard outside the count is refused (4010)
        await hello(ws)
        await ws.send_str(json.dumps({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": [2, 2]}}))
        closed = await ws.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4010
        assert any("invalid shard" in v for v in fake.violations)
        await ws.close()
