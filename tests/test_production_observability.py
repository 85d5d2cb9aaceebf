"""The bot's own /metrics and /healthz (METRICS_PORT), the Docker HEALTHCHECK probe, and the one
structured log line per command (never the token, no user text beyond the card name)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import sys

import aiohttp
import pytest

from bot.ops.logs import setup_logging
from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, import_bulk, running, settle, user
from tests.test_app import REPO

pytestmark = pytest.mark.timeout(60)

ALLOWED_FIELDS = {"ts", "level", "logger", "msg", "event", "command", "outcome", "latency_ms", "cache_hit",
                  "guild_id", "card", "shard_id"}


async def get(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with session.get(url) as resp:
        return resp.status, await resp.text()


async def probe(env: dict[str, str]) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.ops.healthcheck", cwd=REPO, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    return proc.returncode, out.decode() + err.decode()


async def test_metrics_health_and_one_log_line_per_command(tmp_path):
    cache_path = tmp_path / "cache.sqlite3"
    await asyncio.to_thread(import_bulk, cache_path)
    stream = io.StringIO()
    root = logging.getLogger()
    old_level = root.level
    async with FakeScryfall([]) as scryfall, FakeDiscord() as fake:
        handler = setup_logging("INFO", json=True, token=fake.token, stream=stream)
        try:
            settings = bot_settings(fake, scryfall, cache_path, metrics_port=0, bulk_refresh_hours=24,
                                    log_format="json")
            async with running(settings, fake) as runtime, aiohttp.ClientSession() as http:
                bot, server = runtime.bot, runtime.health
                assert server is not None
                base = server.url
                assert server.port and server.host == "127.0.0.1"
                async with asyncio.timeout(10):  # 503 until discord.py reports ready
                    while True:
                        status, body = await get(http, base + "/healthz")
                        if status == 200:
                            break
                        assert status == 503 and "gateway" in json.loads(body)["failing"]
                        await asyncio.sleep(0.1)
                assert json.loads(body)["checks"] == {"gateway": "ok", "cache": "ok", "card_data": "ok"}

                env = {k: v for k, v in os.environ.items() if not k.startswith(("METRICS_", "DISCORD_"))}
                env |= {"METRICS_PORT": str(server.port), "PYTHONPATH": str(REPO)}
                code, text = await probe(env)  # what Docker's HEALTHCHECK runs
                assert code == 0 and '"status": "ok"' in text

                ok = await fake.invoke("identity", {"card": "Lightning Bolt"}, user=user(1))
                assert ok.embeds[0]["title"] == "Lightning Bolt"
                hostile = "Qwxz <@123> **zzyzx** " + fake.token
                missing = await fake.invoke("identity", {"card": hostile}, user=user(2))
                assert missing.ephemeral
                assert await fake.autocomplete("identity", {"card": "lightning b"}, focused="card")
                fits = await fake.invoke("fits", {"card": "Dismember", "commander": "Kumano"}, user=user(3))
                assert fits.embeds
                await settle(bot)

                status, metrics = await get(http, base + "/metrics")
                assert status == 200
                for line in (
                    'identity_bot_commands_total{command="identity",outcome="ok"} 1.0',
                    'identity_bot_commands_total{command="identity",outcome="not_found"} 1.0',
                    'identity_bot_commands_total{command="fits",outcome="ok"} 1.0',
                    'identity_bot_autocomplete_total{outcome="ok"} 1.0',
                    'identity_bot_autocomplete_latency_seconds_count 1.0',
                    'identity_bot_command_latency_seconds_count{command="identity"} 2.0',
                    'identity_bot_scryfall_requests_total{endpoint="named",status="404"} 1.0',
                    'identity_bot_gateway_connected{shard="0"} 1.0',
                    'identity_bot_guilds 1.0',
                ):
                    assert line in metrics, line
                assert 'identity_bot_cache_lookups_total{result="hit"}' in metrics
                assert 'identity_bot_card_lookups_total{result="local"}' in metrics
                assert 'identity_bot_card_data{key="complete"} 1.0' in metrics
                assert "process_cpu_seconds_total" in metrics

                # A dropped socket is resumed; afterwards the endpoint still reports healthy.
                await fake.drop(0, code=4000)
                await fake.wait_resumed()
                async with asyncio.timeout(10):
                    while (await get(http, base + "/healthz"))[0] != 200:  # noqa: ASYNC110
                        await asyncio.sleep(0.05)
            code, text = await probe(env)  # the bot is gone: nothing answers
            assert code == 1 and "unreachable" in text
        finally:
            root.removeHandler(handler)
            root.setLevel(old_level)

    output = stream.getvalue()
    assert fake.token not in output
    commands = [json.loads(line) for line in output.splitlines()
                if line.startswith("{") and json.loads(line).get("event") == "command"]
    assert [(c["command"], c["outcome"]) for c in commands] == [
        ("identity", "ok"), ("identity", "not_found"), ("fits", "ok")]  # autocomplete is not logged per call
    for c in commands:
        assert set(c) <= ALLOWED_FIELDS, set(c) - ALLOWED_FIELDS
        assert c["guild_id"] == int(fake.guild_id) and c["latency_ms"] >= 0
    assert commands[0]["card"] == "Lightning Bolt" and commands[0]["cache_hit"] is True
    assert commands[2]["card"] == "Dismember"
    assert "[REDACTED]" in commands[1]["card"] and "\n" not in commands[1]["card"]
    assert "zzyzx" not in output.replace(commands[1]["card"], "")  # user text only in the card field
