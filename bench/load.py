"""Benchmark: a burst of interactions from many users against the bot, with the per-user cooldown on.

Run: python bench/load.py [--interactions 1000] [--users 50] [--user-rate 5/10] [--process]

The shared card data is imported into a fresh cache first (as `python -m bot sync-cards` does); the bot
runs in this process (default) or as its own `python -m bot` process (--process, closer to production:
the bot gets a core of its own). All interactions are dispatched on the fake gateway at once, users
interleaved, each user asking the same number of times. Prints the burst throughput (replies/s), latency
p50/p99/max (dispatch to the reply arriving at the fake Discord), and how many replies were answers and
how many were cooldown replies (expected: each user gets USER_RATE's N answers, the rest cooldowns,
when the burst lasts less than the window). Every reply is checked against Discord's rules.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.settings import parse_rate  # noqa: E402
from tests.fakes.discord import FakeDiscord  # noqa: E402
from tests.fakes.scryfall import FakeScryfall  # noqa: E402
from tests.production_world import (  # noqa: E402
    CARD_NAMES,
    bot_settings,
    burst,
    import_bulk,
    running_bot,
    user,
)

COOLDOWN_TEXT = "You're sending commands a little fast"


def calls(interactions: int, users: int) -> list[tuple[str, dict, dict]]:
    out = []
    for i in range(interactions):
        u, k = i % users, i // users
        name = CARD_NAMES[(u + k) % len(CARD_NAMES)]
        out.append(
            ("identity", {"card": name}, user(u))
            if k % 4
            else ("fits", {"card": name, "commander": "Kumano"}, user(u))
        )
    return out


async def wait_process_ready(fake: FakeDiscord, proc: asyncio.subprocess.Process) -> None:
    ready = asyncio.create_task(fake.wait_ready(timeout=60))
    exited = asyncio.create_task(proc.wait())
    done, _ = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
    if exited in done:
        raise SystemExit("the bot exited: " + (await proc.stderr.read()).decode()[-2000:])  # type: ignore[union-attr]
    exited.cancel()
    async with asyncio.timeout(30):
        while "global" not in fake.commands:  # noqa: ASYNC110
            await asyncio.sleep(0.05)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interactions", type=int, default=1000)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--user-rate", default="5/10")
    parser.add_argument(
        "--process", action="store_true", help="run the bot as its own `python -m bot` process"
    )
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-load-"))
    cache_path = tmp / "cache.sqlite3"
    t0 = time.perf_counter()
    await asyncio.to_thread(import_bulk, cache_path)
    print(f"imported the card data in {time.perf_counter() - t0:.1f} s")

    async with FakeScryfall([]) as scryfall, FakeDiscord() as fake:
        work = calls(args.interactions, args.users)
        if args.process:
            env = {
                k: v
                for k, v in os.environ.items()
                if not k.startswith(
                    ("DISCORD_", "SCRYFALL_", "CACHE_", "BULK_", "METRICS_", "USER_RATE", "SHARD_", "LOG_")
                )
            }
            env |= {
                "PYTHONPATH": str(REPO),
                "DISCORD_TOKEN": fake.token,
                "DISCORD_API_BASE": fake.api_base,
                "SCRYFALL_API_BASE": scryfall.base_url,
                "SPELLBOOK_JSON_BASE": "http://127.0.0.1:9",  # never reached: no combo data
                "CACHE_PATH": str(cache_path),
                "BULK_REFRESH_HOURS": "24",
                "USER_RATE": args.user_rate,
                "LOG_LEVEL": "WARNING",
                "MANA_EMOJI_UPLOAD": "false",
            }
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "run",
                cwd=tmp,
                env=env,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
            try:
                await wait_process_ready(fake, proc)
                await fake.invoke("help", {}, user=user(10_000))  # warm up
                result = await burst(fake, work, timeout=120)
            finally:
                proc.terminate()
                await proc.wait()
        else:
            settings = bot_settings(
                fake, scryfall, cache_path, user_rate=args.user_rate, bulk_refresh_hours=24
            )
            async with running_bot(settings, fake):
                await fake.invoke("help", {}, user=user(10_000))  # warm up
                result = await burst(fake, work, timeout=120)

    cooldowns: Counter[str] = Counter()
    answers = 0
    for payload, reply in zip(result.payloads, result.replies, strict=True):
        if COOLDOWN_TEXT in reply.content:
            cooldowns[payload["member"]["user"]["id"]] += 1
        elif reply.embeds:
            answers += 1
    rate = parse_rate(args.user_rate)
    per_user = -(-args.interactions // args.users)
    expected = 0 if rate is None else args.users * max(0, per_user - rate[0])
    lat = result.latencies
    where = "separate process" if args.process else "in-process"
    print(
        f"burst: {args.interactions} interactions from {args.users} users, USER_RATE {args.user_rate}, "
        f"bot {where}"
    )
    print(
        f"  throughput   {result.throughput:.0f} replies/s ({len(result.replies)} replies in "
        f"{result.seconds:.2f} s)"
    )
    print(
        f"  latency      p50 {statistics.median(lat) * 1000:.1f} ms   p99 {result.percentile(99) * 1000:.1f} ms"
        f"   max {lat[-1] * 1000:.1f} ms"
    )
    print(f"  answers      {answers}")
    print(f"  cooldowns    {sum(cooldowns.values())} (expected {expected} if the burst fits in the window)")
    print(f"  violations   {len(fake.violations)}")
    if fake.violations:
        raise SystemExit(f"Discord rules broken: {fake.violations[:3]}")


if __name__ == "__main__":
    asyncio.run(main())
