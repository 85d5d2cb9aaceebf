"""Benchmark: the local name index (autocomplete latency, build time, event-loop stall, memory).

Run: python bench/names.py [--queries N] [--skip-stall]

Two name sets are measured:
- the shared data set (24,249 cards, with EDHREC ranks, commander flags and card ranks as the cache keeps them);
- a Scryfall-size set of about 36,000 names: the real names plus deterministic synthetic ones made from
  the real names' words ("Ashen Bloodrager", "Vow of the Ember", "Keldra, Sky Tyrant" ...), 80% of them
  with a random EDHREC rank (most Scryfall cards have one).

For each set it prints:
- autocomplete latency p50/p99/max over a few thousand realistic queries, as wall time and as the
  thread's CPU time. Queries are 1-12 characters,
  typed from the start of a name or of a later word, some with a slip, a fifth of them for commander
  options; the card is drawn half from all names and half from the ranked ones.
- index build time, for input in random order and for input already sorted by key (the cache can read
  names `ORDER BY norm`).
- the longest event-loop stall while the index is built in a worker thread. An asyncio task sleeps 1 ms
  in a loop and the largest lateness is recorded, over several builds. For comparison, it also prints
  the stall beside a pure-Python thread, which is the floor set by the switch interval and by other
  processes on the machine, and the stall caused by one plain `sorted()` of 150,000 tuples in a thread.
- the memory the index holds (tracemalloc), and the CPU time to free an index once it is dropped.

Figures depend on the machine; a shared, busy machine shows higher tails.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import pct
from bot.cards.index import NameIndex
from bot.cards.names import normalize
from bot.cards.rows import can_be_commander, card_rank, popularity
from bot.cards.search import IndexEntry
from tests.shared_data import all_cards

SCRYFALL_SIZE = 36_000
SEED = 2026


def real_entries() -> list[IndexEntry]:
    """The shared data set's names, as the card cache's name rows hold them."""
    return [
        IndexEntry(c["name"], normalize(c["name"]), c["id"], can_be_commander(c), card_rank(c), popularity(c))
        for c in all_cards()
    ]


def synthetic_entries(real: list[IndexEntry], total: int, seed: int = SEED) -> list[IndexEntry]:
    """`real` plus made-up names mixing the real names' words, up to `total` distinct names (deterministic)."""
    rng = random.Random(seed)
    words = sorted(
        {
            w
            for e in real
            for w in e.name.replace(",", "").split()
            if w.isalpha() and len(w) > 2 and w[0].isupper()
        }
    )
    first_names = sorted(
        {e.name.split(",")[0] for e in real if "," in e.name and " " not in e.name.split(",")[0]}
    )
    taken = {e.name for e in real}
    out = list(real)
    total += len(real) - len(taken)  # the real data repeats a few names; count distinct names
    patterns: list[Callable[[], tuple[str, bool]]] = [
        lambda: (f"{rng.choice(words)} {rng.choice(words)}", False),
        lambda: (f"{rng.choice(words)} of {rng.choice(words)}", False),
        lambda: (f"{rng.choice(words)} of the {rng.choice(words)}", False),
        lambda: (f"{rng.choice(words)}{rng.choice(words).lower()} {rng.choice(words)}", False),
        lambda: (f"{rng.choice(first_names)}, {rng.choice(words)} {rng.choice(words)}", True),
        lambda: (f"{rng.choice(words)} {rng.choice(words)} {rng.choice(words)}", False),
    ]
    n = 0
    while len(out) < total:
        name, legendary = rng.choice(patterns)()
        if name in taken:
            continue
        taken.add(name)
        rank = rng.randint(1, 40_000) if rng.random() < 0.8 else None
        out.append(
            IndexEntry(name, normalize(name), f"synthetic-{n}", legendary and rng.random() < 0.6, 0, rank)
        )
        n += 1
    return out


def realistic_queries(entries: list[IndexEntry], count: int, seed: int = SEED) -> list[tuple[str, bool]]:
    """(typed text, commanders_only) pairs: 1-12 characters of a name or of a later word, some with a slip."""
    rng = random.Random(seed)
    ranked = [e for e in entries if e.popularity is not None]
    commanders = [e for e in entries if e.commander]
    out: list[tuple[str, bool]] = []
    letters = "abcdefghijklmnopqrstuvwxyz"
    while len(out) < count:
        commander = rng.random() < 0.2
        pool = commanders if commander else (ranked if rng.random() < 0.5 else entries)
        name = rng.choice(pool).name
        words = name.split()
        start = 0 if rng.random() < 0.7 or len(words) == 1 else name.index(rng.choice(words[1:]))
        text = name[start : start + rng.randint(1, 12)]
        if len(text) >= 4 and rng.random() < 0.1:
            i = rng.randrange(1, len(text))
            slip = rng.choice(("drop", "swap", "wrong"))
            if slip == "drop":
                text = text[:i] + text[i + 1 :]
            elif slip == "swap" and i + 1 < len(text):
                text = text[:i] + text[i + 1] + text[i] + text[i + 2 :]
            else:
                text = text[:i] + rng.choice(letters) + text[i + 1 :]
        out.append((text, commander))
    return out


def latency(index: NameIndex, queries: list[tuple[str, bool]]) -> tuple[list[float], list[float]]:
    """Milliseconds per `complete()` call, in query order: (wall time, CPU time of this thread).

    On a busy machine the wall time includes waits for a CPU; the thread's CPU time does not.
    """
    wall: list[float] = []
    cpu: list[float] = []
    for text, commander in queries:
        start, start_cpu = time.perf_counter(), time.thread_time()
        index.complete(text, limit=25, commanders_only=commander)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
    return wall, cpu


async def _stall_during(work: Callable[[], object]) -> float:
    """Largest lateness (ms) of a 1 ms sleep loop on the event loop while `work` runs in a worker thread."""
    worst = 0.0
    done = False

    async def ticker() -> None:
        nonlocal worst
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            worst = max(worst, (time.perf_counter() - before) * 1000 - 1.0)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    await asyncio.to_thread(work)
    done = True
    await task
    return worst


def stall_ms(work: Callable[[], object], rounds: int = 5) -> list[float]:
    """The worst stall of each of `rounds` runs of `work` (each on a fresh event loop)."""
    return [asyncio.run(_stall_during(work)) for _ in range(rounds)]


def busy_python(seconds: float = 0.3) -> None:
    """Pure-Python work, which gives the GIL up every switch interval: the stall floor of any thread."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        sum(range(100))


def stall_line(label: str, stalls: list[float]) -> str:
    return (
        f"{label}: worst {max(stalls):.1f} ms, median of rounds {statistics.median(stalls):.1f} ms "
        f"({', '.join(f'{x:.1f}' for x in stalls)})"
    )


def index_bytes(entries: list[IndexEntry]) -> int:
    """Bytes the built index keeps alive beyond its input entries (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    index = NameIndex(entries)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del index
    return after - before


def free_ms(entries: list[IndexEntry], rounds: int = 3) -> float:
    """Best CPU time (ms) to free an index when its last reference is dropped (the thread that drops it pays)."""
    best = float("inf")
    for _ in range(rounds):
        index = NameIndex(entries)
        start = time.thread_time()
        del index
        best = min(best, (time.thread_time() - start) * 1000)
    return best


def build_seconds(entries: list[IndexEntry], rounds: int = 3) -> float:
    """Best wall time of `NameIndex(entries)` over `rounds` builds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        NameIndex(entries)
        best = min(best, time.perf_counter() - start)
    return best


def report(label: str, entries: list[IndexEntry], queries: int, stall: bool) -> None:
    shuffled = list(entries)
    random.Random(SEED).shuffle(shuffled)
    by_key = sorted(entries, key=lambda e: e.norm)
    index = NameIndex(shuffled)
    commanders = sum(1 for e in index.entries.values() if e.commander)
    print(f"\n== {label}: {len(index):,} names ({commanders:,} commanders)")
    qs = realistic_queries(list(index.entries.values()), queries)
    latency(index, qs[:200])  # warm-up: regex cache, branch caches
    wall, cpu = latency(index, qs)
    for kind, times in (("wall", wall), ("CPU", cpu)):
        print(
            f"autocomplete over {len(qs):,} queries ({kind} time): p50 {pct(times, 50):.2f} ms, "
            f"p99 {pct(times, 99):.2f} ms, max {max(times):.2f} ms, mean {statistics.fmean(times):.2f} ms"
        )
    print(
        f"build: {build_seconds(shuffled):.2f} s (random order), {build_seconds(by_key):.2f} s (sorted by key)"
    )
    if stall:
        print(
            stall_line("event-loop stall while building in a thread", stall_ms(lambda: NameIndex(shuffled)))
        )
        print(stall_line("  same loop beside a pure-Python thread (floor)", stall_ms(busy_python)))
    print(
        f"index memory (tracemalloc): {index_bytes(shuffled) / 2**20:.1f} MiB; "
        f"freeing a dropped index: {free_ms(shuffled):.1f} ms CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=3000)
    parser.add_argument("--skip-stall", action="store_true", help="skip the event-loop stall measurement")
    args = parser.parse_args()
    real = real_entries()
    all_cards.cache_clear()  # the bot does not keep the card JSON in memory; neither should the stall test
    gc.collect()
    report("shared data set", real, args.queries, not args.skip_stall)
    report("Scryfall-size set", synthetic_entries(real, SCRYFALL_SIZE), args.queries, not args.skip_stall)
    if not args.skip_stall:
        rng = random.Random(SEED)
        items = [(f"{rng.random():.12f}", i) for i in range(150_000)]
        print(
            stall_line(
                "\nreference: one sorted() of 150,000 tuples in a thread", stall_ms(lambda: sorted(items), 3)
            )
        )
    print(
        f"(switch interval {sys.getswitchinterval() * 1000:.0f} ms; wall times include waits for a CPU "
        f"on a busy machine, CPU times do not)"
    )


if __name__ == "__main__":
    main()
