"""Benchmark: replies while the running bot refreshes a bulk file of Scryfall's real size (issue 15.4).

Run: python bench/refresh.py [--rate 20] [--after 5] [--first-start]

1. Builds an oracle_cards file of Scryfall's real size (`bench/realistic.py`: 36,000 cards, about 160 MB of
   JSON, served gzipped like Scryfall) and serves it from the fake Scryfall.
2. Imports the shared data set as yesterday's bulk data, so the bot's refresh (BULK_REFRESH_HOURS=24) falls
   due a few seconds after it starts.
3. Runs the bot as its own process (`python -m bot`) against the fake Discord, and from the moment it is
   ready sends `/identity` at `--rate` per second (cards the local data answers) and autocomplete at half
   that, until the new index is live (the bot's /metrics says 36,000 names) and `--after` seconds more.
4. Prints the first-response latency (dispatch of INTERACTION_CREATE to the first callback arriving at the
   fake Discord) before, during and after the refresh: p50, p99, max, and how many took over 150 ms and
   over 3 s. Targets (issue 15): first-response p99 under 150 ms during the refresh, nothing past 3 s.

`--first-start` (issue 18): no local data at all; the bot downloads and imports the file on start while
it answers (from Scryfall and its cache meanwhile). Autocomplete then answers from what it knows, at once:
the run counts the empty answers it gives before the local data is live.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import gc
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.common import CARDS, bot_env, bot_process, free_port, pct  # noqa: E402
from bench.realistic import bulk_file, scryfall_size_cards  # noqa: E402
from bot.cards.bulk import import_file  # noqa: E402
from tests.fakes.discord import FakeDiscord  # noqa: E402
from tests.fakes.scryfall import FakeScryfall  # noqa: E402
from tests.shared_data import CARDS_FILE  # noqa: E402

PREFIXES = ["fire", "sol r", "light", "kuma", "counter", "swords", "cultiv", "command t", "bolt", "atra"]
DUE_AFTER = 8.0  # seconds after start when the refresh falls due


async def card_data(http: aiohttp.ClientSession, port: int) -> dict[str, float]:
    """The bot's `identity_bot_card_data` gauges: names in its index, data age in days."""
    try:
        async with http.get(f"http://127.0.0.1:{port}/metrics") as resp:
            text = await resp.text()
    except aiohttp.ClientError:
        return {}
    return {
        m.group(1): float(m.group(2))
        for m in re.finditer(r'identity_bot_card_data\{key="(\w+)"\} ([-0-9.e+]+)', text)
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=20.0, help="/identity commands per second")
    parser.add_argument(
        "--after", type=float, default=5.0, help="seconds to keep going once the index is live"
    )
    parser.add_argument(
        "--first-start", action="store_true", help="no local data: download and import on start"
    )
    args = parser.parse_args()

    t0 = time.perf_counter()
    cards = await asyncio.to_thread(scryfall_size_cards)
    raw, packed = await asyncio.to_thread(bulk_file, cards)
    print(
        f"bulk file: {len(cards):,} cards, {len(raw) / 1e6:.0f} MB JSON, {len(packed) / 1e6:.0f} MB gzipped "
        f"(built in {time.perf_counter() - t0:.0f} s)"
    )

    tmp = Path(tempfile.mkdtemp(prefix="bench-refresh-"))
    cache = tmp / "cache.sqlite3"
    yesterday = time.time() - 24 * 3600 + DUE_AFTER  # imported a day ago, less a few seconds
    # stamped as imported yesterday: the refresh is due `DUE_AFTER` s from now
    if not args.first_start:
        await asyncio.to_thread(import_file, CARDS_FILE, cache, updated_at=yesterday, clock=lambda: yesterday)

    scryfall = FakeScryfall(cards if args.first_start else ())  # first start: the API answers meanwhile
    scryfall.serve_bulk(raw, packed)
    scryfall.bulk_updated_at = datetime.datetime.now(datetime.UTC).isoformat()  # today's data
    await scryfall.start()
    # The bench process holds the 36,000 cards and the file: keep them out of its own garbage collector's
    # full scans, which would otherwise pause the fake Discord and inflate the latencies it measures.
    gc.collect()
    gc.freeze()
    fake = FakeDiscord()
    await fake.start()
    port = free_port()
    env = bot_env(fake, scryfall, cache, log_level="INFO", metrics_port=str(port))
    phases: dict[str, list[float]] = {"before": [], "during": [], "after": []}
    complete_at: list[float] = []
    ac_latency: list[float] = []
    ac_empty: list[str] = []
    shown: set[str] = set()
    first_shows: list[float] = []
    try:
        async with bot_process(env, tmp, stdout=asyncio.subprocess.DEVNULL):
            await fake.wait_ready(timeout=60)
            async with aiohttp.ClientSession() as http:
                loop = asyncio.get_running_loop()
                live_at: float | None = None
                names = 0.0
                i = 0
                pending: set[asyncio.Task[None]] = set()

                def phase() -> str:
                    if live_at is not None:
                        return "after"
                    return "during" if scryfall.count("/bulk/oracle-cards.json.gz") else "before"

                async def command(n: int) -> None:
                    which = phase()
                    name = CARDS[n % len(CARDS)]
                    shown_before = name in shown
                    reply = await fake.invoke("identity", {"card": name}, timeout=30)
                    if not reply.embeds:
                        raise SystemExit(f"unexpected reply: {reply}")
                    shown.add(name)
                    if shown_before:
                        phases[which].append(reply.latency)
                    else:  # its first showing: a Scryfall lookup (only at first start), counted apart
                        first_shows.append(reply.latency)

                async def complete(n: int) -> None:
                    started = time.perf_counter()
                    which = phase()
                    choices = await fake.autocomplete(
                        "identity", {"card": PREFIXES[n % len(PREFIXES)]}, focused="card"
                    )
                    ac_latency.append(time.perf_counter() - started)
                    if not choices:
                        if which == "after" or not args.first_start:
                            raise SystemExit("empty autocomplete")
                        ac_empty.append(which)

                start = loop.time()
                while live_at is None or loop.time() < live_at + args.after:
                    i += 1
                    pending.add(asyncio.create_task(command(i)))
                    if i % 2 == 0:
                        pending.add(asyncio.create_task(complete(i)))
                    pending = {t for t in pending if not t.done()}
                    if live_at is None and i % int(args.rate) == 0:
                        data = await card_data(http, port)
                        if 0 <= data.get("age_days", -1) < 0.5:  # yesterday's data replaced by today's
                            live_at = loop.time()
                            complete_at.append(live_at - start)
                            names = data.get("names", 0)
                    if loop.time() - start > 600:
                        raise SystemExit("the refresh did not finish within 10 minutes")
                    await asyncio.sleep(1 / args.rate)
                await asyncio.gather(*pending)

            print()
            print("| phase | replies | p50 | p99 | max | over 150 ms | over 3 s |")
            print("|---|---|---|---|---|---|---|")
            for name, values in phases.items():
                over = sum(1 for v in values if v > 0.150)
                print(
                    f"| {name} the refresh (cards shown before) | {len(values)} | {pct(values, 50) * 1000:.1f} ms | "
                    f"{pct(values, 99) * 1000:.1f} ms | {max(values, default=0) * 1000:.1f} ms | {over} | "
                    f"{sum(1 for v in values if v > 3)} |"
                )
            print(
                f"\nautocomplete during the run: p50 {pct(ac_latency, 50) * 1000:.1f} ms, p99 "
                f"{pct(ac_latency, 99) * 1000:.1f} ms, max {max(ac_latency) * 1000:.1f} ms ({len(ac_latency)}; "
                f"{len(ac_empty)} empty before the local data was live)"
            )
            print(
                f"cards not shown before (sent while nobody had seen them yet): {len(first_shows)}, max "
                f"{max(first_shows, default=0) * 1000:.0f} ms, none past 3 s: {all(v < 3 for v in first_shows)}"
            )
            print(
                f"new index ({names:,.0f} names) live {complete_at[0]:.1f} s after the traffic started; "
                f"{os.cpu_count()} CPUs; Discord rule violations: {len(fake.violations)}"
            )
    finally:
        await fake.close()
        await scryfall.close()


if __name__ == "__main__":
    asyncio.run(main())
