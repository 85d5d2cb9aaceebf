"""The bot's own /metrics and /healthz (METRICS_PORT), the Docker HEALTHCHECK probe, and the one
structured log line per command (never the token, no user text beyond the card name)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bot.cards.bulk import import_file
from bot.cards.schema import prepare_database
from bot.healthcheck import healthcheck
from bot.ops.healthcheck import base_url, check_endpoint, check_health, probe_url
from bot.ops.logs import setup_logging
from bot.ops.metrics import BotMetrics
from bot.ops.server import HealthServer
from tests.app.test_app import REPO
from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, running, settle, user
from tests.shared_data import card

pytestmark = pytest.mark.timeout(60)

ALLOWED_FIELDS = {
    "ts",
    "level",
    "logger",
    "msg",
    "event",
    "command",
    "outcome",
    "latency_ms",
    "cache_hit",
    "guild_id",
    "card",
    "shard_id",
}


async def get(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with session.get(url) as resp:
        return resp.status, await resp.text()


async def probe(env: dict[str, str], cwd: Path = REPO) -> tuple[int, str]:
    """Run `python -m bot healthcheck` (what Docker's HEALTHCHECK runs); (exit code, stdout + stderr)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "healthcheck",
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, out.decode() + err.decode()


@pytest.fixture
def probe_here(clean_env, monkeypatch, capsys) -> Callable[..., tuple[int, str]]:
    """`probe_here(**env)`: the probe's entry (`bot.healthcheck.healthcheck`) in this process, in an empty
    working directory, with no bot settings but `env`; (exit code, output). The process Docker runs is
    tested above, in the test of the running bot."""
    earlier: list[str] = []
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")  # a bot with its token (without one: the next test)

    def run(**values: str) -> tuple[int, str]:
        for key in earlier:
            monkeypatch.delenv(key, raising=False)
        earlier[:] = values
        for key, value in values.items():
            monkeypatch.setenv(key, value)
        code = healthcheck()
        return code, capsys.readouterr().out

    return run


def assert_one_line(text: str) -> str:
    """The probe printed exactly one non-empty line and no traceback; returns that line."""
    lines = text.strip().splitlines()
    assert len(lines) == 1 and lines[0].strip(), text
    assert "Traceback" not in text
    return lines[0]


@pytest.mark.slow
async def test_metrics_health_and_one_log_line_per_command(imported_cache):
    cache_path = imported_cache
    stream = io.StringIO()
    root = logging.getLogger()
    old_level = root.level
    async with FakeScryfall([]) as scryfall, FakeDiscord() as fake:
        handler = setup_logging("INFO", json=True, token=fake.token, stream=stream)
        try:
            settings = bot_settings(
                fake, scryfall, cache_path, metrics_port=0, bulk_refresh_hours=24, log_format="json"
            )
            async with running(settings, fake) as runtime, aiohttp.ClientSession() as http:
                bot, server = runtime.bot, runtime.health
                assert server is not None
                base = base_url(server.host, server.port)
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
                env |= {
                    "METRICS_PORT": str(server.port),
                    "PYTHONPATH": str(REPO),
                    "DISCORD_TOKEN": fake.token,
                }
                code, text = await probe(env)  # what Docker's HEALTHCHECK runs
                assert code == 0 and '"status": "ok"' in assert_one_line(text)

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
                    "identity_bot_autocomplete_latency_seconds_count 1.0",
                    'identity_bot_command_latency_seconds_count{command="identity"} 2.0',
                    'identity_bot_scryfall_requests_total{endpoint="named",status="404"} 1.0',
                    'identity_bot_gateway_connected{shard="0"} 1.0',
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
            assert code == 1 and assert_one_line(text).startswith("unreachable: http://127.0.0.1:")
        finally:
            root.removeHandler(handler)
            root.setLevel(old_level)

    output = stream.getvalue()
    assert fake.token not in output
    commands = [
        json.loads(line)
        for line in output.splitlines()
        if line.startswith("{") and json.loads(line).get("event") == "command"
    ]
    assert [(c["command"], c["outcome"]) for c in commands] == [
        ("identity", "ok"),
        ("identity", "not_found"),
        ("fits", "ok"),
    ]  # autocomplete is not logged per call
    for c in commands:
        assert set(c) <= ALLOWED_FIELDS, set(c) - ALLOWED_FIELDS
        assert c["guild_id"] == int(fake.guild_id) and c["latency_ms"] >= 0
    assert commands[0]["card"] == "Lightning Bolt" and commands[0]["cache_hit"] is True
    assert commands[2]["card"] == "Dismember"
    assert "[REDACTED]" in commands[1]["card"] and "\n" not in commands[1]["card"]
    assert "zzyzx" not in output.replace(commands[1]["card"], "")  # user text only in the card field


# -- the HEALTHCHECK probe on its own -------------------------------------------------------------------


async def test_probe_without_metrics_port_checks_the_card_cache(tmp_path, probe_here):
    """No METRICS_PORT: healthy only when the cache file opens read-only and holds cards; each failure is
    one line saying why (exit 1), never a traceback."""
    cache = tmp_path / "cache.sqlite3"

    code, text = probe_here(CACHE_PATH=str(cache))
    assert code == 1 and "no cache file at " + str(cache) in assert_one_line(text)

    cache.write_bytes(b"this is not a database, " * 200)
    code, text = probe_here(CACHE_PATH=str(cache), METRICS_PORT="")  # empty = unset
    assert code == 1 and "unreadable" in assert_one_line(text) and "not a database" in text
    cache.unlink()

    await asyncio.to_thread(prepare_database, cache)  # what the bot does on start: schema, no cards
    code, text = probe_here(CACHE_PATH=str(cache))
    assert code == 1 and "holds no card data" in assert_one_line(text)

    names = ["Lightning Bolt", "Fire // Ice", "Kumano, Master Yamabushi"]
    bulk = tmp_path / "three.jsonl"
    bulk.write_text("".join(json.dumps(card(name)) + "\n" for name in names), encoding="utf-8")
    await asyncio.to_thread(import_file, bulk, cache)
    code, text = probe_here(CACHE_PATH=str(cache))
    assert code == 0 and assert_one_line(text) == f"ok: cache {cache} holds 3 cards"


def test_probe_without_a_token_says_the_bot_is_not_running(probe_here, monkeypatch):
    """A container started with an empty DISCORD_TOKEN: `docker ps` shows unhealthy for that reason."""
    monkeypatch.delenv("DISCORD_TOKEN")
    code, text = probe_here(METRICS_PORT="9100")
    assert code == 1 and assert_one_line(text).startswith(
        "DISCORD_TOKEN is not set, so the bot is not running"
    )


async def test_probe_empty_cache_path_means_the_default_in_the_users_data_directory(tmp_path, probe_here):
    """`--env-file` passes `CACHE_PATH=` as an empty value: the probe then uses the bot's default, the user's
    data directory (in the image, the bot user's data directory is a link to the /data volume)."""
    default = tmp_path / "xdg-data" / "identity-bot" / "cache.sqlite3"
    code, text = probe_here(CACHE_PATH="")
    assert code == 1 and f"no cache file at {default}:" in assert_one_line(text)

    bulk = tmp_path / "one.jsonl"
    bulk.write_text(json.dumps(card("Sol Ring")) + "\n", encoding="utf-8")
    await asyncio.to_thread(import_file, bulk, default)
    code, text = probe_here(CACHE_PATH="  ")
    assert code == 0 and assert_one_line(text) == f"ok: cache {default} holds 1 cards"


@pytest.mark.parametrize(
    ("port", "reason"),
    [
        ("abc", "invalid configuration: METRICS_PORT: Input should be a valid integer"),
        ("70000", "invalid configuration: METRICS_PORT: Input should be less than or equal to 65535"),
        ("0", "METRICS_PORT=0 binds a random port"),
    ],
)
async def test_probe_rejects_a_metrics_port_it_cannot_ask(tmp_path, port, reason, probe_here):
    code, text = probe_here(METRICS_PORT=port, CACHE_PATH=str(tmp_path / "x.sqlite3"))
    assert code == 1 and assert_one_line(text).startswith(reason)


async def test_check_health_reports_the_failing_healthz_checks_in_one_line(tmp_path):
    """With a port, the probe asks /healthz (the bot's own HealthServer here) and names what fails."""
    state: dict[str, bool | str] = {"gateway": "gateway socket closed", "cache": True}

    async def health() -> dict[str, bool | str]:
        return dict(state)

    server = HealthServer(BotMetrics(process_metrics=False), health, host="127.0.0.1", port=0)
    await server.start()
    try:
        assert server.port
        ok, reason = await asyncio.to_thread(check_health, "0.0.0.0", server.port, tmp_path / "unused", 5.0)
        assert not ok
        assert (
            reason
            == f"unhealthy: http://127.0.0.1:{server.port}/healthz answered gateway: gateway socket closed"
        )

        state.update(gateway=True, cache="cache file missing\nsecond line")
        ok, reason = await asyncio.to_thread(check_health, "127.0.0.1", server.port, tmp_path / "unused", 5.0)
        assert (
            not ok
            and reason.endswith("answered cache: cache file missing second line")
            and "\n" not in reason
        )

        state.update(cache=True)
        ok, reason = await asyncio.to_thread(check_health, "", server.port, tmp_path / "unused", 5.0)
        assert ok and reason.startswith(f'ok: http://127.0.0.1:{server.port}/healthz {{"status": "ok"')
    finally:
        await server.stop()
    ok, reason = await asyncio.to_thread(check_health, "127.0.0.1", server.port, tmp_path / "unused", 5.0)
    assert not ok and reason.startswith(f"unreachable: http://127.0.0.1:{server.port}/healthz: ")


async def test_check_endpoint_other_answers_and_a_hung_server():
    """A non-JSON error page gives its status and text; a server that never answers fails within the
    timeout instead of hanging the probe."""

    async def broken(request: web.Request) -> web.Response:
        return web.Response(status=500, text="Internal\nServer Error")

    app = web.Application()
    app.router.add_get("/healthz", broken)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        ok, reason = await asyncio.to_thread(check_endpoint, probe_url("127.0.0.1", port), 5.0)
        assert (
            not ok
            and reason
            == f"unhealthy: http://127.0.0.1:{port}/healthz answered HTTP 500: Internal Server Error"
        )
    finally:
        await runner.cleanup()

    silent = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)  # accepts, never answers
    port = silent.sockets[0].getsockname()[1]
    try:
        started = time.monotonic()
        ok, reason = await asyncio.to_thread(check_endpoint, probe_url("127.0.0.1", port), 0.5)
        assert not ok and reason.startswith("unreachable:") and "timed out" in reason
        assert time.monotonic() - started < 5
    finally:
        silent.close()


def test_probe_url_reaches_wildcard_and_ipv6_binds():
    assert probe_url("0.0.0.0", 9100) == "http://127.0.0.1:9100/healthz"
    assert probe_url("", 9100) == "http://127.0.0.1:9100/healthz"
    assert probe_url("::", 9100) == "http://[::1]:9100/healthz"
    assert probe_url("fd00::5", 80) == "http://[fd00::5]:80/healthz"
    assert probe_url("bot.internal", 9100) == "http://bot.internal:9100/healthz"
