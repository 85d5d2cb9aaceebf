"""The metrics/health HTTP server, over real HTTP on 127.0.0.1 (port 0 = any free port)."""

from __future__ import annotations

import asyncio
import sqlite3

import aiohttp
import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.cli import main
from bot.ops import healthcheck
from bot.ops.metrics import BotMetrics
from bot.ops.server import HealthServer, gateway_check, run_checks, sqlite_check


async def ok():
    return {"gateway": True}


def url(server: HealthServer, path: str) -> str:
    return healthcheck.base_url(server.host, server.port) + path


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def test_metrics_endpoint_serves_prometheus_text(http):
    metrics = BotMetrics(process_metrics=False)
    metrics.observe_command("identity", "ok", 0.012, cache_hit=True)
    async with HealthServer(metrics, ok, host="127.0.0.1", port=0) as server:
        assert server.port and server.port > 0
        async with http.get(url(server, "/metrics")) as response:
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/plain")
            text = await response.text()
    families = {f.name: f for f in text_string_to_metric_families(text)}
    served = families["identity_bot_commands"].samples
    assert any(s.labels == {"command": "identity", "outcome": "ok"} and s.value == 1 for s in served)


async def test_healthz_ok_when_all_checks_pass(http, tmp_path):
    db = tmp_path / "cache.sqlite3"
    sqlite3.connect(db).execute("CREATE TABLE cards (x)").connection.close()

    async def health():
        return {"gateway": True, "cache": await sqlite_check(db)}

    async with (
        HealthServer(BotMetrics(process_metrics=False), health, port=0) as server,
        http.get(url(server, "/healthz")) as response,
    ):
        assert response.status == 200
        body = await response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"gateway": "ok", "cache": "ok"}
    assert "failing" not in body


async def test_healthz_503_names_the_failing_checks(http, tmp_path):
    state = {"gateway": False}

    async def health():
        return {"gateway": state["gateway"] or "not ready", "cache": await sqlite_check(tmp_path / "none.db")}

    async with HealthServer(BotMetrics(process_metrics=False), health, port=0) as server:
        async with http.get(url(server, "/healthz")) as response:
            assert response.status == 503
            body = await response.json()
        assert body["status"] == "fail"
        assert sorted(body["failing"]) == ["cache", "gateway"]
        assert body["checks"]["gateway"] == "not ready"
        assert "no cache file" in body["checks"]["cache"]


async def test_healthz_recovers_when_state_changes(http):
    state = {"up": False}

    async def health():
        return {"gateway": state["up"]}

    async with HealthServer(BotMetrics(process_metrics=False), health, port=0) as server:
        async with http.get(url(server, "/healthz")) as response:
            assert response.status == 503
        state["up"] = True
        async with http.get(url(server, "/healthz")) as response:
            assert response.status == 200


async def test_healthz_503_when_health_raises_or_hangs(http):
    async def boom():
        raise RuntimeError("secret detail")

    async def hang():
        await asyncio.sleep(30)
        return {}

    async with (
        HealthServer(BotMetrics(process_metrics=False), boom, port=0) as server,
        http.get(url(server, "/healthz")) as response,
    ):
        assert response.status == 503
        body = await response.json()
    assert body["checks"]["health"] == "raised RuntimeError"
    assert "secret detail" not in str(body)

    async with (
        HealthServer(BotMetrics(process_metrics=False), hang, port=0, health_timeout=0.2) as server,
        http.get(url(server, "/healthz")) as response,
    ):
        assert response.status == 503
        assert "timed out" in (await response.json())["checks"]["health"]


async def test_stop_closes_the_port(http):
    server = HealthServer(BotMetrics(process_metrics=False), ok, port=0)
    await server.start()
    metrics = url(server, "/metrics")
    async with http.get(metrics) as response:
        assert response.status == 200
    await server.stop()
    await server.stop()  # idempotent
    with pytest.raises(aiohttp.ClientConnectionError):
        async with http.get(metrics) as response:
            pass


async def test_cache_check_detects_a_corrupt_file(tmp_path):
    bad = tmp_path / "corrupt.sqlite3"
    bad.write_bytes(b"this is not a database" * 200)
    result = await sqlite_check(bad)
    assert isinstance(result, str) and "unreadable" in result
    good = tmp_path / "good.sqlite3"
    sqlite3.connect(good).execute("CREATE TABLE cards (x)").connection.close()
    assert await sqlite_check(good) is True


async def test_cache_checks_read_the_real_file_whatever_its_path(tmp_path):
    # "?", "#" and "%" in a file: URI would cut the path short and open (create) another file read-write
    home = tmp_path / "odd?v=1#part%41"
    home.mkdir()
    bad = home / "corrupt.sqlite3"
    bad.write_bytes(b"this is not a database" * 200)
    good = home / "good.sqlite3"
    sqlite3.connect(good).execute("CREATE TABLE cards (x)").connection.close()
    before = sorted(tmp_path.rglob("*"))
    result = await sqlite_check(bad)
    assert isinstance(result, str) and "unreadable" in result
    assert await sqlite_check(good) is True
    ok, reason = healthcheck.check_cache(bad, timeout=1.0)
    assert not ok and "unreadable" in reason
    assert sorted(tmp_path.rglob("*")) == before  # no stray database file anywhere


async def test_run_checks_names_each_failing_check():
    async def health():
        return {"cache": "cache unreadable", "gateway": True, "card_data": False}

    healthy, body = await run_checks(health)
    assert not healthy and body["failing"] == ["cache", "card_data"]
    assert body["checks"] == {"cache": "cache unreadable", "gateway": "ok", "card_data": "fail"}


async def test_gateway_check_on_a_real_client():
    client = discord.Client(intents=discord.Intents.none())
    assert "not ready" in gateway_check(client)
    await client.close()
    assert gateway_check(client) == "client closed"


def test_gateway_check_reports_closed_shards():
    class Shard:
        def __init__(self, closed):
            self.closed = closed

        def is_closed(self):
            return self.closed

    class ShardedClient:
        def __init__(self, shards):
            self.shards = shards

        def is_closed(self):
            return False

        def is_ready(self):
            return True

    assert gateway_check(ShardedClient({0: Shard(False), 1: Shard(False)})) is True
    assert gateway_check(ShardedClient({0: Shard(False), 1: Shard(True)})) == "shards disconnected: [1]"


async def test_docker_healthcheck_probe(clean_env, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    state = {"up": True}

    async def health():
        return {"gateway": state["up"]}

    async with HealthServer(BotMetrics(process_metrics=False), health, host="127.0.0.1", port=0) as server:
        # a wildcard METRICS_HOST is probed over loopback
        monkeypatch.setenv("METRICS_PORT", str(server.port))
        monkeypatch.setenv("METRICS_HOST", "0.0.0.0")
        assert await asyncio.to_thread(main, ["healthcheck"]) == 0
        state["up"] = False
        assert await asyncio.to_thread(main, ["healthcheck"]) == 1
    # server gone: unreachable -> unhealthy
    assert await asyncio.to_thread(main, ["healthcheck"]) == 1


def test_docker_healthcheck_without_metrics_port(clean_env, capsys, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    # No METRICS_PORT: the probe checks the card cache (CACHE_PATH's default: the user's data directory).
    assert main(["healthcheck"]) == 1
    default = clean_env / "xdg-data" / "identity-bot" / "cache.sqlite3"
    assert capsys.readouterr().out.startswith(f"no cache file at {default}")
    assert healthcheck.probe_url("0.0.0.0", 9000) == "http://127.0.0.1:9000/healthz"
    assert healthcheck.probe_url("10.0.0.5", 9000) == "http://10.0.0.5:9000/healthz"
    assert healthcheck.probe_url("::", 9000) == "http://[::1]:9000/healthz"
