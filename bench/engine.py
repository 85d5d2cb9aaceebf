"""Benchmark: `analyze` throughput over the whole shared data set (single process) and peak memory.

Run: python bench/engine.py [--rounds N]
Prints cards/s (best and median of N rounds, cards with Scryfall's answers removed, as outside checks
use them) and the peak memory of one full pass measured with tracemalloc, plus the process's max RSS.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.identity import analyze
from tests.shared_data import all_cards, without_answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    cards = [without_answers(c) for c in all_cards()]
    n = len(cards)
    for c in cards[:2000]:  # warm-up (symbol cache, regex compilation)
        analyze(c)

    rates = []
    gc.collect()
    for _ in range(args.rounds):
        start = time.perf_counter()
        for c in cards:
            analyze(c)
        rates.append(n / (time.perf_counter() - start))

    gc.collect()
    tracemalloc.start()
    results = [analyze(c) for c in cards]  # keep every result alive: worst case for memory
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per_card = peak / n
    del results

    maxrss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"cards: {n}")
    print(
        f"analyze throughput: best {max(rates):,.0f} cards/s, median {statistics.median(rates):,.0f} cards/s "
        f"({args.rounds} rounds, one process, one core)"
    )
    print(
        f"peak traced memory for all {n} results kept alive: {peak / 2**20:.1f} MiB ({per_card:,.0f} B/card)"
    )
    print(f"process max RSS (includes the loaded data set): {maxrss_mb:.0f} MiB")


if __name__ == "__main__":
    main()
