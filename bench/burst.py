"""Benchmark: a burst of different cards at first start, with no local card data (issue 15.2).

Run: python bench/burst.py [--cards 26]

The bot starts with an empty cache and no bulk data (BULK_REFRESH_HOURS=0), so every card must come from
the (fake) Scryfall, whose limits the bot keeps (2 requests/s to /cards/named and /cards/collection).
`--cards` different /identity commands arrive at once; the bot answers the first with /cards/named and
sends the names that arrive while that request waits together in one /cards/collection request. Prints the
Scryfall requests it took, every reply's latency (dispatch -> final answer) and how many replies were
"busy" or "Scryfall isn't answering" (target: none, while Scryfall answers every request).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.fakes.discord import FakeDiscord  # noqa: E402
from tests.fakes.scryfall import FakeScryfall  # noqa: E402
from tests.production_world import bot_settings, burst, running_bot, user  # noqa: E402
from tests.shared_data import all_cards  # noqa: E402


async def main(count: int) -> None:
    names = [c["name"] for c in all_cards() if c.get("layout") == "normal"][5000 : 5000 + count]
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeScryfall.with_shared_data() as scryfall, FakeDiscord() as fake:
            settings = bot_settings(fake, scryfall, Path(tmp) / "cache.sqlite3", scryfall_timeout=8.0)
            async with running_bot(settings, fake):
                scryfall.requests.clear()
                started = time.perf_counter()
                result = await burst(
                    fake, [("identity", {"card": n}, user(i)) for i, n in enumerate(names)], timeout=30
                )
                elapsed = time.perf_counter() - started
    answered = [r for r in result.replies if r.embeds]
    busy = [r for r in result.replies if "busy" in r.content or "isn't answering" in r.content]
    paths = [r.path for r in scryfall.requests]
    latencies = result.latencies  # sorted
    print(
        f"{count} different cards at once, no local data: {len(answered)} answered, {len(busy)} busy or "
        f"unavailable, in {elapsed:.2f} s"
    )
    print(
        f"Scryfall requests: {len(paths)} ({', '.join(sorted(set(paths)))}: "
        f"{', '.join(str(paths.count(p)) for p in sorted(set(paths)))})"
    )
    print(
        f"reply latency: p50 {latencies[len(latencies) // 2] * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms "
        f"(dispatch to the final answer; a deferred reply's 'thinking...' came first)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=26)
    asyncio.run(main(parser.parse_args().cards))
