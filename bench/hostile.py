"""Benchmark: hostile decklists beside a steady stream of /identity commands (issue 25).

Run: python bench/hostile.py [--seconds 10] [--rate 20] [--spaces 4000]

The bot runs in this process against the fake Discord and Scryfall, with the shared card data imported.
/identity arrives at `--rate` per second for `--seconds`, twice: alone, then with a `/deckcheck list:` of
`a` + `--spaces` spaces + `!` (and the two other slow shapes of issue 25) every second beside it. Prints the
/identity latency p50/p99 of both runs and every deck check's latency (dispatch to its answer). Target: each
deck check answered within 1 s, and /identity's p99 with them as without.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.fakes.discord import FakeDiscord, Reply  # noqa: E402
from tests.fakes.scryfall import FakeScryfall  # noqa: E402
from tests.production_world import CARD_NAMES, bot_settings, import_bulk, running_bot, user  # noqa: E402
from tests.shared_data import card  # noqa: E402

KUMANO = "Kumano, Master Yamabushi"


def hostile_lists(spaces: int) -> list[str]:
    run = " " * spaces
    return ["a" + run + "!", "1 Sol Ring" + run + "x\n1 Shock", "1 Sol Ring" + run + "; 1 Shock"]


async def stream(
    fake: FakeDiscord, seconds: float, rate: float, decks: list[str]
) -> tuple[list[Reply], list[Reply]]:
    """/identity at `rate` per second for `seconds`, and one of `decks` each second: (identity, deck) replies."""
    waits: list[asyncio.Task[Reply]] = []
    deck_waits: list[asyncio.Task[Reply]] = []
    started, n = time.perf_counter(), int(seconds * rate)
    for i in range(n):
        await asyncio.sleep(max(0.0, started + i / rate - time.perf_counter()))  # the pace of real traffic
        payload = fake.interaction_payload(
            "identity", {"card": CARD_NAMES[i % len(CARD_NAMES)]}, user=user(i)
        )
        await fake.send_interaction(payload)
        waits.append(asyncio.create_task(fake.wait_for_reply(payload["id"], 60)))
        if decks and i % int(rate) == 0:
            options = {"commander": KUMANO, "list": decks[(i // int(rate)) % len(decks)]}
            deck = fake.interaction_payload("deckcheck", options, user=user(100_000 + i))
            await fake.send_interaction(deck)
            deck_waits.append(asyncio.create_task(fake.wait_for_reply(deck["id"], 60)))
    return list(await asyncio.gather(*waits)), list(await asyncio.gather(*deck_waits))


def percentiles(replies: list[Reply]) -> str:
    lat = sorted(r.latency for r in replies)
    p99 = lat[min(len(lat) - 1, round(0.99 * len(lat) + 0.5) - 1)]
    return f"p50 {statistics.median(lat) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--spaces", type=int, default=4000)
    args = parser.parse_args()
    cache_path = Path(tempfile.mkdtemp(prefix="bench-hostile-")) / "cache.sqlite3"
    await asyncio.to_thread(import_bulk, cache_path)
    names = sorted({*CARD_NAMES, KUMANO, "Sol Ring", "Shock"})
    async with FakeScryfall([card(n) for n in names]) as scryfall, FakeDiscord() as fake:
        settings = bot_settings(fake, scryfall, cache_path, user_rate="off", bulk_refresh_hours=24)
        async with running_bot(settings, fake):
            await stream(fake, 1.0, args.rate, hostile_lists(1))  # warm up
            alone, _ = await stream(fake, args.seconds, args.rate, [])
            _, plain = await stream(fake, args.seconds, args.rate, hostile_lists(1))
            beside, decks = await stream(fake, args.seconds, args.rate, hostile_lists(args.spaces))
    print(f"/identity at {args.rate:g}/s for {args.seconds:g} s, alone:       {percentiles(alone)}")
    print(f"/identity beside a hostile /deckcheck each second: {percentiles(beside)}")
    print(f"/deckcheck of the same lists, one space each: latency {percentiles(plain)}")
    print("  each:", ", ".join(f"{r.latency * 1000:.0f} ms" for r in plain))
    answered = sum(1 for r in decks if r.embeds)
    print(
        f"/deckcheck of {args.spaces} spaces: {answered} of {len(decks)} answered with a report; latency "
        f"{percentiles(decks)}"
    )
    print("  each:", ", ".join(f"{r.latency * 1000:.0f} ms" for r in decks))


if __name__ == "__main__":
    asyncio.run(main())
