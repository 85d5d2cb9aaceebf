"""The test suite's fake Discord, fake Scryfall and fake Commander Spellbook as a standalone process, for scripts/docker-smoke.sh.

    python scripts/smoke_fakes.py --host 172.17.0.1 --info /tmp/fakes.json

The fakes listen on ``--host`` (an address a container can reach, e.g. the Docker bridge gateway); the fake
Scryfall serves the test card data set (API and the oracle_cards bulk file), the fake Spellbook an export of
combos of those cards. Once they listen, the script writes ``--info``, a JSON object with the values for the
bot's ``.env`` (``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``SCRYFALL_API_BASE``, ``SPELLBOOK_JSON_BASE``) and ``control``, the URL of a small control server on
127.0.0.1 for the smoke script:

- ``GET /status``: identifies so far, connected shards, Scryfall bulk-file downloads and bulk-data requests,
  Discord rule violations, registered commands;
- ``GET /invoke?command=identity&card=NAME[&wait=SECONDS]``: waits until the bot is connected on the
  gateway, runs the slash command like a user and returns the reply (``title``, ``ephemeral``, ``text``).

It runs until SIGTERM or SIGINT, then closes the fakes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from anywhere: the fakes live in the repo's tests/
    sys.path.insert(0, str(REPO))

from aiohttp import web  # noqa: E402

from tests.fakes.discord import FakeDiscord  # noqa: E402
from tests.fakes.scryfall import FakeScryfall  # noqa: E402
from tests.fakes.server import serve as serve_app  # noqa: E402
from tests.fakes.spellbook import FakeSpellbook, export, generated  # noqa: E402

BULK_FILES = ("/bulk/oracle-cards.json", "/bulk/oracle-cards.json.gz")


def status(discord: FakeDiscord, scryfall: FakeScryfall) -> dict[str, Any]:
    """What the smoke script checks: gateway sessions, bulk downloads, rule violations."""
    return {
        "identifies": len(discord.identifies),
        "connected_shards": discord.connected_shards(),
        "bulk_downloads": sum(scryfall.count(path) for path in BULK_FILES),
        "bulk_data_requests": scryfall.count("/bulk-data"),
        "scryfall_requests": scryfall.count(),
        "violations": list(discord.violations),
        "commands": sorted({c["name"] for cmds in discord.commands.values() for c in cmds}),
    }


async def wait_connected(discord: FakeDiscord) -> None:
    """Until the bot has a live gateway session on shard 0 (after a restart: its new session)."""
    while 0 not in discord.connected_shards():  # noqa: ASYNC110 (the fake has no event for this)
        await asyncio.sleep(0.1)


def control_app(discord: FakeDiscord, scryfall: FakeScryfall) -> web.Application:
    """The control server's routes (see the module docstring)."""

    async def get_status(request: web.Request) -> web.Response:
        return web.json_response(status(discord, scryfall))

    async def invoke(request: web.Request) -> web.Response:
        command = request.query.get("command", "identity")
        options = {k: v for k, v in request.query.items() if k not in {"command", "wait"}}
        wait = float(request.query.get("wait", "30"))
        try:
            async with asyncio.timeout(wait):
                await wait_connected(discord)
            reply = await discord.invoke(command, options, timeout=wait)
        except (TimeoutError, RuntimeError, KeyError) as exc:
            return web.json_response({"error": f"{type(exc).__name__}: {exc}"}, status=504)
        title = reply.embeds[0].get("title") if reply.embeds else None
        return web.json_response({"title": title, "ephemeral": reply.ephemeral, "text": reply.text()})

    app = web.Application()
    app.router.add_get("/status", get_status)
    app.router.add_get("/invoke", invoke)
    return app


async def serve(host: str, info_path: Path) -> None:
    """Start both fakes and the control server, write ``info_path``, run until SIGTERM/SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    scryfall = FakeScryfall.with_shared_data()
    scryfall.host = host
    discord = FakeDiscord()
    names = [c["name"] for c in scryfall.cards[:3000]]
    spellbook = FakeSpellbook(export(generated(12_000, names, seed=1)), host=host)  # the bot refuses < 10,000
    await scryfall.start()
    await discord.start(host=host)
    await spellbook.__aenter__()
    runner, control = await serve_app(control_app(discord, scryfall), "127.0.0.1")
    info = {
        "DISCORD_TOKEN": discord.token,
        "DISCORD_API_BASE": discord.api_base,
        "SCRYFALL_API_BASE": scryfall.base_url,
        "SPELLBOOK_JSON_BASE": spellbook.base_url,
        "control": control,
        "cards": len(scryfall.cards),
        "pid": os.getpid(),
    }
    tmp = info_path.with_name(info_path.name + ".tmp")
    tmp.write_text(json.dumps(info), encoding="utf-8")
    tmp.replace(info_path)  # appears complete or not at all
    print(
        f"fakes: Discord {discord.api_base}, Scryfall {scryfall.base_url} ({len(scryfall.cards)} cards), "
        f"control {info['control']}",
        flush=True,
    )
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        await discord.close()
        await scryfall.close()
        await spellbook.__aexit__(None, None, None)


def main(argv: list[str] | None = None) -> int:
    """Parse ``--host`` and ``--info`` and serve until stopped."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="address both fakes listen on")
    parser.add_argument("--info", type=Path, required=True, help="where to write the JSON with the URLs")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.host, args.info))
    return 0


if __name__ == "__main__":
    sys.exit(main())
