"""Benchmark: what being in many servers costs the bot, beside bare discord.py bots.

Three bots, each its own process, against the fake Discord (servers of realistic size as GUILD_CREATE
carries them to a bot, events sent by intent as Discord does, `tests/fakes/guilds.py`):

- `identity-bot`: this bot (`python -m bot`, local card data);
- `bare-default`: a bare discord.py client with `Intents.default()` and one `/identity` command;
- `bare-none`: the same with `Intents.none()`.

For each it prints the RSS with 1 server and with `--servers` (default 2,000), then its CPU % over `--seconds`
(default 30) with `/identity` every `--every` s (default 0.2) and no chat ("idle"), then the same with a chat
stream of `--chat` events/s (default 300: messages, reactions, typing, voice moves across the servers), and
the `/identity` latency (sent -> reply) in both.

    python bench/servers.py [--servers 2000] [--chat 300] [--seconds 30] [--every 0.2] [--only identity-bot]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def bare_bot(kind: str, token: str, api_base: str) -> None:
    """A bare discord.py client (`Intents.default()` or `Intents.none()`) with one `/identity` command."""
    import discord
    from discord import app_commands

    from bot.app.endpoints import use_api_base, use_gateway

    use_api_base(api_base)

    class Bare(discord.Client):
        def __init__(self) -> None:
            super().__init__(
                intents=discord.Intents.default() if kind == "bare-default" else discord.Intents.none(),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            self.tree = app_commands.CommandTree(self)

            @self.tree.command(name="identity", description="Answer.")
            async def identity(interaction: discord.Interaction, card: str) -> None:
                await interaction.response.send_message(f"{card}: ok")

        async def setup_hook(self) -> None:
            await use_gateway(self.http)
            await self.tree.sync()

    Bare().run(token, log_handler=None)


if __name__ == "__main__" and len(sys.argv) == 5 and sys.argv[1] == "--child":  # a bare bot's process
    bare_bot(sys.argv[2], sys.argv[3], sys.argv[4])
    raise SystemExit(0)

from bench.common import REPO, bot_env, pct  # noqa: E402
from tests.fakes.discord import FakeDiscord  # noqa: E402
from tests.fakes.scryfall import FakeScryfall  # noqa: E402
from tests.production_world import import_bulk  # noqa: E402

BOTS = ("identity-bot", "bare-default", "bare-none")
TICKS = os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


async def settled_rss(pid: int, limit: float = 120.0) -> float:
    """The RSS once it stops growing (the start-up and GUILD_CREATE handling are over)."""
    last, stable, began = rss_mb(pid), 0, time.monotonic()
    while stable < 6 and time.monotonic() - began < limit:
        await asyncio.sleep(0.5)
        now = rss_mb(pid)
        stable = stable + 1 if abs(now - last) < 0.3 else 0
        last = now
    return last


@contextlib.asynccontextmanager
async def bot_running(
    kind: str, fake: FakeDiscord, scryfall: FakeScryfall, cache: Path, tmp: Path
) -> AsyncIterator[asyncio.subprocess.Process]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SCRYFALL_", "CACHE_", "USER_"))
    }
    env["PYTHONPATH"] = str(REPO)
    if kind == "identity-bot":
        env |= bot_env(fake, scryfall, cache)
        args = [sys.executable, "-m", "bot", "run"]
    else:
        args = [sys.executable, __file__, "--child", kind, fake.token, fake.api_base]
    proc = await asyncio.create_subprocess_exec(*args, cwd=tmp, env=env, stdout=asyncio.subprocess.DEVNULL)
    try:
        async with asyncio.timeout(120):
            while not (fake.ready.is_set() and "global" in fake.commands):
                if proc.returncode is not None:
                    raise SystemExit(f"{kind} exited with {proc.returncode}")
                await asyncio.sleep(0.05)
        yield proc
    finally:
        if proc.returncode is None:
            proc.terminate()
        await proc.wait()


async def identity_calls(fake: FakeDiscord, seconds: float, every: float) -> list[float]:
    """`/identity` every `every` s for `seconds`; the latency of each (sent -> reply), in seconds."""
    latencies: list[float] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        began = time.perf_counter()
        await fake.invoke("identity", {"card": "Sol Ring"})
        latencies.append(time.perf_counter() - began)
        await asyncio.sleep(max(0.0, every - (time.perf_counter() - began)))
    return latencies


async def phase(
    fake: FakeDiscord, pid: int, seconds: float, every: float, chat: float
) -> tuple[float, list[float]]:
    """CPU % of `pid` and the `/identity` latencies over `seconds`, with `chat` events/s (0: none)."""
    cpu0, wall0 = cpu_seconds(pid), time.monotonic()
    calls = asyncio.create_task(identity_calls(fake, seconds, every))
    if chat:
        await fake.chat(int(chat * seconds), per_second=chat)
    latencies = await calls
    return (cpu_seconds(pid) - cpu0) / (time.monotonic() - wall0) * 100, latencies


def ms(latencies: list[float]) -> str:
    return f"p50 {pct(latencies, 50) * 1000:.1f} ms, p99 {pct(latencies, 99) * 1000:.1f} ms"


async def measure(
    kind: str, args: argparse.Namespace, scryfall: FakeScryfall, cache: Path, tmp: Path
) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for servers in (1, args.servers):
        async with FakeDiscord() as fake:
            fake.load_servers(servers)
            async with bot_running(kind, fake, scryfall, cache, tmp) as proc:
                await fake.invoke("identity", {"card": "Sol Ring"})  # warm up
                result[f"rss_{servers}"] = await settled_rss(proc.pid)
                print(f"{kind}: RSS {result[f'rss_{servers}']:.1f} MB with {servers} server(s)", flush=True)
                if servers == 1:
                    continue
                idle, idle_lat = await phase(fake, proc.pid, args.seconds, args.every, 0)
                busy, busy_lat = await phase(fake, proc.pid, args.seconds, args.every, args.chat)
                result |= {"idle": idle, "busy": busy, "idle_lat": idle_lat, "busy_lat": busy_lat}
                print(
                    f"{kind}: CPU {idle:.1f} % idle, {busy:.1f} % under {args.chat:.0f} chat events/s; "
                    f"/identity idle {ms(idle_lat)}, under chat {ms(busy_lat)}",
                    flush=True,
                )
                if fake.violations:
                    raise SystemExit(f"Discord rules broken: {fake.violations[:3]}")
    return result


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=2000)
    parser.add_argument("--chat", type=float, default=300.0, help="chat events per second")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=0.2, help="seconds between /identity calls")
    parser.add_argument("--only", choices=BOTS, action="append")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-servers-"))
    cache = tmp / "cache.sqlite3"
    await asyncio.to_thread(import_bulk, cache)
    results = {}
    async with FakeScryfall([]) as scryfall:
        for kind in args.only or BOTS:
            results[kind] = await measure(kind, args, scryfall, cache, tmp)
    print(
        f"\n{'bot':<14} {'RSS 1':>8} {'RSS ' + str(args.servers):>10} {'CPU idle':>9} {'CPU chat':>9}  "
        f"/identity p50 idle -> chat"
    )
    for kind, r in results.items():
        print(
            f"{kind:<14} {r['rss_1']:>6.1f}MB {r[f'rss_{args.servers}']:>8.1f}MB {r['idle']:>8.1f}% "
            f"{r['busy']:>8.1f}%  {pct(r['idle_lat'], 50) * 1000:.1f} -> {pct(r['busy_lat'], 50) * 1000:.1f} ms"
        )
    if "identity-bot" in results:
        r = results["identity-bot"]
        print(
            f"identity-bot: RSS {r[f'rss_{args.servers}'] - r['rss_1']:+.1f} MB for {args.servers} servers "
            f"(target within 5), CPU {r['busy'] - r['idle']:+.1f} points under chat (target within 2)"
        )


if __name__ == "__main__":
    asyncio.run(main())
