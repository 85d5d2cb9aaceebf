"""Card cache benchmark: bulk import rate and peak RSS, warm resolve and autocomplete latency.

    python bench/cache.py [--file PATH] [--lookups N]

1. Imports the shared data set (or --file) with `python -m bot sync-cards --file` in a child
   process and reports cards/s and the child's peak RSS (targets: >= 5,000 cards/s, < 250 MB).
2. Opens a CardService on the imported cache (Scryfall pointed at a closed port, so any network
   use would fail loudly) and times warm `resolve()` calls (target p99 < 2 ms) and `autocomplete()`
   over the full data set (target p99 < 20 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import free_port, pct  # noqa: E402
from bot.cards.service import CardService  # noqa: E402
from bot.compose import open_cards  # noqa: E402
from bot.ops.metrics import BotMetrics  # noqa: E402
from bot.settings import load_settings  # noqa: E402
from tests.shared_data import CARDS_FILE, all_cards  # noqa: E402


def run_import(src: Path, cache: Path) -> tuple[int, float, float, float]:
    """(cards, import seconds, wall seconds, child peak RSS MB)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "sync-cards", "--file", str(src), "--cache", str(cache)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"import failed: {proc.stderr.strip()}")
    match = re.search(r"imported (\d+) cards in ([\d.]+) s", proc.stdout)
    assert match, proc.stdout
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return int(match.group(1)), float(match.group(2)), wall, rss_mb


async def measure(cache: Path, lookups: int) -> dict[str, float]:
    dead = f"http://127.0.0.1:{free_port()}"
    settings = load_settings(cache_path=cache, scryfall_api_base=dead, bulk_refresh_hours=0)
    t0 = time.perf_counter()
    async with open_cards(settings, metrics=BotMetrics(process_metrics=False)) as service:
        open_s = time.perf_counter() - t0  # the cache opened and the name index loaded from it
        return await _measure(service, lookups) | {"open_s": open_s}


async def _measure(service: CardService, lookups: int) -> dict[str, float]:
    rng = random.Random(42)
    names = [c["name"] for c in all_cards()]
    sample = rng.sample(names, min(2000, len(names)))
    typed = [rng.choice([n, n.lower(), n.upper(), n.replace(" // ", "/")]) for n in sample]
    for name in typed:  # warm-up: every name resolved once
        await service.resolve(name)
    resolve_ms = []
    for _ in range(lookups):
        name = rng.choice(typed)
        t = time.perf_counter()
        await service.resolve(name)
        resolve_ms.append((time.perf_counter() - t) * 1000)

    prefixes = []
    for _ in range(2000):
        name = rng.choice(names)
        cut = rng.randint(1, min(12, len(name)))
        prefix = name[:cut]
        if rng.random() < 0.2 and len(prefix) > 4:  # some typos
            i = rng.randrange(1, len(prefix) - 1)
            prefix = prefix[:i] + prefix[i + 1] + prefix[i] + prefix[i + 2 :]
        prefixes.append(prefix)
    for p in prefixes[:100]:
        await service.autocomplete(p)
    auto_ms = []
    for i, prefix in enumerate(prefixes):
        t = time.perf_counter()
        await service.autocomplete(prefix, commanders_only=(i % 5 == 0))
        auto_ms.append((time.perf_counter() - t) * 1000)
    requests = sum(
        sample.value
        for metric in service.metrics.registry.collect()
        if metric.name == "identity_bot_scryfall_requests"
        for sample in metric.samples
        if sample.name.endswith("_total")
    )
    return {
        "resolve_p50": statistics.median(resolve_ms),
        "resolve_p99": pct(resolve_ms, 99),
        "auto_p50": statistics.median(auto_ms),
        "auto_p99": pct(auto_ms, 99),
        "requests": requests,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=CARDS_FILE)
    parser.add_argument("--lookups", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cards.sqlite3"
        cards, seconds, wall, rss = run_import(args.file, cache)
        size_mb = cache.stat().st_size / 1e6
        print(
            f"import: {cards} cards in {seconds:.2f} s = {cards / seconds:,.0f} cards/s "
            f"(process wall {wall:.2f} s); peak RSS {rss:.0f} MB; cache file {size_mb:.0f} MB"
        )
        result = asyncio.run(measure(cache, args.lookups))
    print(f"service open (index of {cards} names): {result['open_s'] * 1000:.0f} ms")
    print(
        f"warm resolve: p50 {result['resolve_p50']:.3f} ms, p99 {result['resolve_p99']:.3f} ms "
        f"({args.lookups} lookups)"
    )
    print(f"autocomplete: p50 {result['auto_p50']:.3f} ms, p99 {result['auto_p99']:.3f} ms (2000 prefixes)")
    print(
        f"Scryfall requests during lookups: {result['requests']}; bench process peak RSS {result['rss_mb']:.0f} MB"
    )
    ok = (
        cards / seconds >= 5000
        and rss < 250
        and result["resolve_p99"] < 2
        and result["auto_p99"] < 20
        and result["requests"] == 0
    )
    print("targets:", "all met" if ok else "NOT all met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
