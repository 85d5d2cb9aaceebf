"""Benchmark: the real bot process (`python -m bot`) against the fake Discord and fake Scryfall.

Run: python bench/e2e.py [--latency N] [--burst N] [--window W] [--in-process]

Set up like production: the shared card data is imported into a fresh cache first (as
`python -m bot sync-cards` does), then the bot starts and syncs its commands. Prints:
- cached /identity latency, dispatch of INTERACTION_CREATE to the callback arriving at the fake
  Discord, p50/p99 over N sequential interactions (target p99 < 25 ms);
- sustained interactions/s with W interactions in flight (target >= 200/s on 2 cores);
- the bot's RSS after all interactions (read from /proc/<pid>/status; the bot runs in its own
  process unless --in-process).
Every reply is checked (an embed titled with the card name, no Discord rule broken).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.common import CARDS, bot_env, bot_process, pct  # noqa: E402
from bot.cards.bulk import import_file  # noqa: E402
from tests.fakes.discord import FakeDiscord  # noqa: E402
from tests.fakes.scryfall import FakeScryfall  # noqa: E402
from tests.shared_data import CARDS_FILE  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def one(fake: FakeDiscord, i: int) -> float:
    name = CARDS[i % len(CARDS)]
    reply = await fake.invoke("identity", {"card": name}, timeout=30)
    if not reply.embeds or reply.embeds[0]["title"] != name or reply.deferred:
        raise SystemExit(f"unexpected reply for {name}: {reply}")
    return reply.latency


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=int, default=500, help="sequential interactions for p50/p99")
    parser.add_argument("--burst", type=int, default=1000, help="interactions for the throughput run")
    parser.add_argument("--window", type=int, default=64, help="interactions in flight during the burst")
    parser.add_argument("--in-process", action="store_true", help="run the bot inside this process")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-e2e-"))
    cache = tmp / "cache.sqlite3"
    t0 = time.perf_counter()
    imported = await asyncio.to_thread(import_file, CARDS_FILE, cache, updated_at=time.time())
    print(f"imported {imported.cards} cards in {time.perf_counter() - t0:.1f} s")

    scryfall = FakeScryfall()  # no cards: every lookup here must be served locally
    await scryfall.start()
    fake = FakeDiscord()
    await fake.start()
    env = bot_env(fake, scryfall, cache)
    stack = contextlib.AsyncExitStack()
    started = time.perf_counter()
    if args.in_process:
        from bot.settings import load_settings
        from tests.production_world import running_bot

        settings = load_settings(**{k.lower(): v for k, v in env.items() if v})
        await stack.enter_async_context(running_bot(settings, fake))
        pid = os.getpid()
    else:
        pid = (await stack.enter_async_context(bot_process(env, tmp, stop_timeout=20))).pid
    try:
        await fake.wait_ready(timeout=60)
        print(
            f"bot ready (login, command sync, gateway) in {time.perf_counter() - started:.2f} s; "
            f"RSS {rss_mb(pid):.1f} MB"
        )

        for i in range(50):  # warm-up
            await one(fake, i)

        latencies = [await one(fake, i) for i in range(args.latency)]
        p50, p99 = pct(latencies, 50) * 1000, pct(latencies, 99) * 1000

        sem = asyncio.Semaphore(args.window)

        async def windowed(i: int) -> float:
            async with sem:
                return await one(fake, i)

        t = time.perf_counter()
        burst = await asyncio.gather(*(windowed(i) for i in range(args.burst)))
        elapsed = time.perf_counter() - t
        rate = args.burst / elapsed
        total = 50 + args.latency + args.burst
        rss = rss_mb(pid)

        print()
        print("| metric | value | target |")
        print("|---|---|---|")
        print(f"| cached /identity latency p50 (dispatch -> callback) | {p50:.1f} ms | |")
        print(f"| cached /identity latency p99 | {p99:.1f} ms | < 25 ms |")
        print(
            f"| sustained interactions/s ({args.window} in flight, {args.burst} interactions) | {rate:.0f}/s "
            f"| >= 200/s |"
        )
        print(
            f"| latency under load p50 / p99 | {pct(burst, 50) * 1000:.1f} / {pct(burst, 99) * 1000:.1f} ms | |"
        )
        print(
            f"| bot RSS after {total} interactions{' (includes the fakes)' if args.in_process else ''} "
            f"| {rss:.1f} MB | |"
        )
        print(f"| Discord rule violations | {len(fake.violations)} | 0 |")
        print(f"| Scryfall requests | {scryfall.count()} | 0 |")
        print(
            f"\n(mean {statistics.fmean(latencies) * 1000:.2f} ms, max {max(latencies) * 1000:.1f} ms; "
            f"{os.cpu_count()} CPUs)"
        )
        if fake.violations:
            print("violations:", fake.violations[:5])
    finally:
        await stack.aclose()
        await fake.close()
        await scryfall.close()


if __name__ == "__main__":
    asyncio.run(main())
