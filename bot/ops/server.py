"""The operators' HTTP server (``METRICS_PORT``): ``/metrics``, and ``/healthz`` awaiting ``health()`` ->
``{check: True | False | reason}``: 200 when all pass, else 503 naming the ``"failing"``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from bot.ops.healthcheck import cache_cards
from bot.ops.metrics import BotMetrics

log = logging.getLogger(__name__)

CheckResult = bool | str
Health = Callable[[], Awaitable[Mapping[str, CheckResult]]]


async def run_checks(health: Health, limit_s: float = 2.0) -> tuple[bool, dict[str, Any]]:
    """Run ``health`` once within ``limit_s`` seconds; returns (healthy, JSON body)."""
    try:
        async with asyncio.timeout(limit_s):
            result = await health()
        checks = {k: "ok" if v is True else "fail" if v is False else str(v)[:200] for k, v in result.items()}
    except TimeoutError:
        checks = {"health": f"timed out after {limit_s:g} s"}
    except Exception as exc:  # reported by the endpoint, not raised
        log.warning("health check raised", exc_info=True)
        checks = {"health": f"raised {type(exc).__name__}"}
    failing = [name for name, value in checks.items() if value != "ok"]
    body: dict[str, Any] = {"status": "fail" if failing else "ok", "checks": checks}
    if failing:
        body["failing"] = failing
    return not failing, body


def gateway_check(client: Any) -> CheckResult:
    """Health of a discord.py AutoShardedClient: ready, not closed, every shard's socket open."""
    if client.is_closed():
        return "client closed"
    if not client.is_ready():
        return "not ready (gateway not connected yet)"
    down = sorted(shard_id for shard_id, info in client.shards.items() if info.is_closed())
    return f"shards disconnected: {down}" if down else True


async def sqlite_check(path: str | Path) -> CheckResult:
    """True when the SQLite card cache at ``path`` opens read-only and answers (off the event loop)."""
    cards = await asyncio.to_thread(cache_cards, path, 1.0)
    return cards if isinstance(cards, str) else True


class HealthServer:
    """``/metrics`` and ``/healthz`` on ``host:port`` (port 0: a free one, then in :attr:`port`)."""

    def __init__(
        self,
        metrics: BotMetrics,
        health: Health,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        health_timeout: float = 2.0,
    ) -> None:
        self.health = health
        self.host = host
        self.port = port
        self.health_timeout = health_timeout
        self.app = web.Application()
        self.app.router.add_get("/metrics", make_aiohttp_handler(metrics.registry))
        self.app.router.add_get("/healthz", self._healthz)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        runner = web.AppRunner(self.app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port, reuse_address=True).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]
        log.info("metrics server listening", extra={"host": self.host, "port": self.port})

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def __aenter__(self) -> HealthServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _healthz(self, request: web.Request) -> web.Response:
        healthy, body = await run_checks(self.health, self.health_timeout)
        return web.json_response(body, status=200 if healthy else 503, headers={"Cache-Control": "no-store"})
