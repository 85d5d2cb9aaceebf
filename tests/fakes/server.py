"""Serving a fake's aiohttp application on a free port of 127.0.0.1."""

from __future__ import annotations

from aiohttp import web


async def serve(app: web.Application, host: str, port: int = 0) -> tuple[web.AppRunner, str]:
    """Start `app` on `host` (port 0: any free port); return its runner and `http://host:port`."""
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1]  # (host, port) of the one socket, the port the system chose
    return runner, f"http://{host}:{bound}"
