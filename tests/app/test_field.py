"""How the bot holds up in the field (issue 15): a Discord host that never answers, a metrics port in use,
SIGTERM during the connect, health that reports missing card data, a real `--help`, and the first start
without local data (commander options from Scryfall's own search)."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest
from aiohttp import web

from bot.cli import main
from bot.main import run
from bot.ops.healthcheck import probe_url
from bot.settings import load_settings
from tests.app.test_app import run_bot
from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.fakes.server import serve
from tests.production_world import bot_settings, running

pytestmark = pytest.mark.timeout(90)


class SilentServer:
    """An HTTP server that accepts every request and never answers (a stuck proxy or firewall) until the
    test releases it; `asked` is set once a request has come in."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.release = asyncio.Event()
        self.paths: list[str] = []

    async def hang(self, request: web.Request) -> web.Response:
        self.paths.append(request.path)
        self.asked.set()
        await self.release.wait()
        return web.Response(status=503)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[str]:
        """Serve; yield the API base. On exit the held requests are let go, so shutdown need not wait."""
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.hang)
        runner, url = await serve(app, "127.0.0.1")
        try:
            yield url + "/api/v10"
        finally:
            self.release.set()
            await runner.cleanup()


async def test_a_discord_host_that_never_answers_is_one_clear_error(tmp_path, capsys):
    silent = SilentServer()
    async with silent.running() as base:
        settings = load_settings(
            _env_file=None,
            discord_token="abc.def.ghi",
            discord_api_base=base,
            scryfall_api_base="http://127.0.0.1:9",
            bulk_refresh_hours=0,
            cache_path=tmp_path / "cache.sqlite3",
            mana_emoji_upload=False,
        )
        code = await asyncio.wait_for(run(settings, connect_timeout=1.0), 30)
    assert code == 1 and silent.paths == ["/api/v10/users/@me"]  # it asked, and gave up waiting
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: Discord did not answer within 1 s at " + base)


async def test_a_metrics_port_in_use_is_named_as_such(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = load_settings(
            _env_file=None,
            discord_token="abc.def.ghi",
            discord_api_base="http://127.0.0.1:9",
            metrics_port=port,
            bulk_refresh_hours=0,
            cache_path=tmp_path / "cache.sqlite3",
            mana_emoji_upload=False,
        )
        code = await asyncio.wait_for(run(settings), 30)
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"cannot serve /metrics and /healthz on 127.0.0.1:{port}" in err[0]
    assert "cannot talk to Discord" not in err[0]


async def test_sigterm_during_the_connect_exits_0_without_an_error(tmp_path):
    silent = SilentServer()
    async with silent.running() as base:
        proc = await run_bot(
            tmp_path,
            "run",
            DISCORD_TOKEN="abc.def.ghi",
            DISCORD_API_BASE=base,
            SCRYFALL_API_BASE="http://127.0.0.1:9",
            BULK_REFRESH_HOURS="0",
        )
        try:
            # logging in: the host took the request and says nothing
            await asyncio.wait_for(silent.asked.wait(), 30)
            assert proc.returncode is None
            proc.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(proc.communicate(), 30)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    assert proc.returncode == 0, err.decode()
    assert "error" not in err.decode().lower()


async def test_health_says_when_there_is_no_card_data_to_answer_from(tmp_path):
    async with FakeScryfall([]) as scryfall, FakeDiscord() as fake:
        scryfall.mode = "down"  # the first bulk download fails
        settings = bot_settings(
            fake,
            scryfall,
            tmp_path / "cache.sqlite3",
            metrics_port=0,
            bulk_refresh_hours=24,
            scryfall_timeout=1.0,
        )
        async with running(settings, fake) as runtime, aiohttp.ClientSession() as http:
            assert runtime.health is not None
            healthz = probe_url(runtime.health.host, runtime.health.port)
            async with asyncio.timeout(30):
                while True:  # once the gateway is ready and the first download has failed (asked after it)
                    failed = runtime.refresher.failures > 0
                    async with http.get(healthz) as resp:
                        body = json.loads(await resp.text())
                    if failed and "gateway" not in body.get("failing", ["gateway"]):
                        break
                    await asyncio.sleep(0.1)
            assert resp.status == 503 and body["failing"] == ["card_data"]
            assert "the bulk download failed 1 time(s)" in body["checks"]["card_data"]


def test_help_names_every_command(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for command in ("run", "sync-cards", "check-deck", "healthcheck"):
        assert command in text
    with pytest.raises(SystemExit):
        main(["check-deck", "--help"])
    deck_help = capsys.readouterr().out
    assert "--commander" in deck_help and "--color" in deck_help and "exit codes" in deck_help


async def test_first_start_without_local_data_reads_like_with_it(tmp_path):
    """No bulk data yet: commander options come from Scryfall's own is:commander search, so `kumano` offers
    and means Kumano, Master Yamabushi (not Kumano's Blessing or Orbweaver Kumo)."""
    async with FakeScryfall.with_shared_data() as scryfall, FakeDiscord() as fake:
        settings = bot_settings(fake, scryfall, tmp_path / "cache.sqlite3")
        async with running(settings, fake):
            choices = await fake.autocomplete(
                "fits", {"card": "Sol Ring", "commander": "kumano"}, focused="commander"
            )
            assert [c["name"] for c in choices] == ["Kumano, Master Yamabushi"]
            reply = await fake.invoke("fits", {"card": "Lightning Bolt", "commander": "kumano"})
            assert reply.embeds and "Kumano, Master Yamabushi" in reply.text()
            assert "✅" in reply.embeds[0]["title"]
            assert {r.query.get("q") for r in scryfall.requests if r.path == "/cards/search"} >= {
                "kumano is:commander"
            }
            assert fake.violations == []
