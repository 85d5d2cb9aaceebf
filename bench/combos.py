"""Benchmark: Commander Spellbook's combo export at its real size (issue 31).

    python bench/combos.py [--variants 100000] [--finds 300]

1. Writes an export of `--variants` variants in the real shape (tests/fakes/spellbook.py: about 5 KB of JSON
   each, as Spellbook's ~480 MB for ~90,000; card names of the shared data set, the most played cards in many
   combos) and gzips it, as json.commanderspellbook.com serves it.
2. Runs the bot's refresh of it (`ComboRefresh`: the download from the fake Spellbook over 127.0.0.1, gzip
   encoded, and the import in a child process) on a card cache, and reports the wall time, the import time,
   this process's RSS growth during it and the import child's peak RSS (targets: import < 60 s; RSS < +60 MB
   over the bot's idle RSS: this process's growth plus the child's peak over a bare child's).
3. Times warm `ComboStore.find()` for 100-card decks (99 cards and a commander, from the cards most used in
   combos and others; target p99 < 50 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gzip
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.common import pct  # noqa: E402
from bot.cards.cache import CardCache  # noqa: E402
from bot.combos.store import ComboRefresh, ComboStore, sync_variants  # noqa: E402
from bot.settings import load_settings  # noqa: E402
from tests.fakes.spellbook import FakeSpellbook, generated  # noqa: E402
from tests.shared_data import all_cards  # noqa: E402


def rss_mb() -> float:
    return status_mb(Path("/proc/self/status").read_text(), "VmRSS")


def bare_child_mb() -> float:
    """Peak RSS of a child that imports what the import child imports and does nothing (its own high-water
    mark, read in it: what a fork counts of this process before the exec is left out)."""
    code = "import bot.combos.load, pathlib; print(pathlib.Path('/proc/self/status').read_text())"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    return status_mb(out.stdout, "VmHWM")


def status_mb(status: str, key: str) -> float:
    line = next(line for line in status.splitlines() if line.startswith(f"{key}:"))
    return int(line.split()[1]) / 1024


def children_peak_mb(besides: int) -> float:
    """The highest VmHWM of this process's children now alive but `besides` (0 when none)."""
    peaks = [0.0]
    for task in Path("/proc/self/task").iterdir():
        for pid in set((task / "children").read_text().split()) - {str(besides)}:
            with contextlib.suppress(OSError, StopIteration):
                peaks.append(status_mb(Path(f"/proc/{pid}/status").read_text(), "VmHWM"))
    return max(peaks)


def write_export(path: Path, count: int, names: list[str]) -> int:
    """The export, written in pieces (the bench's memory stays small); bytes of JSON."""
    popular = names[:400] * 40 + names  # the most played cards in many combos, as in Spellbook
    size = 0
    with gzip.open(path, "wb", compresslevel=6) as out:
        head = b'{"timestamp": "2026-11-20T09:00:00+00:00", "version": "6.4.0", "variants": ['
        out.write(head)
        size += len(head)
        for start in range(0, count, 5000):
            batch = generated(min(5000, count - start), popular, seed=start)
            for variant in batch:
                variant["id"] = f"{start}-{variant['id']}"  # unique across batches
            text = (b"," if start else b"") + json.dumps(batch).encode()[1:-1]
            out.write(text)
            size += len(text)
        out.write(b'], "aliases": []}')
    return size + 17


async def serve(export: Path) -> None:
    """`--serve FILE`: the fake Spellbook serving the gzipped export FILE, in a process of its own (its memory
    is not the bot's), until killed; prints its base URL."""
    fake = FakeSpellbook()
    fake.serve_gzipped(await asyncio.to_thread(export.read_bytes))
    async with fake:
        print(fake.base_url, flush=True)
        await asyncio.Event().wait()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=int, default=100_000)
    parser.add_argument("--finds", type=int, default=300)
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return await serve(args.serve)
    names = sorted({c["name"] for c in all_cards()}, key=lambda n: random.Random(n).random())
    with tempfile.TemporaryDirectory() as tmp:
        export = Path(tmp) / "variants.json.gz"
        started = time.perf_counter()
        raw = await asyncio.to_thread(write_export, export, args.variants, names)
        gz = export.stat().st_size
        print(
            f"export: {args.variants:,} variants, {raw / 1e6:.0f} MB JSON, {gz / 1e6:.1f} MB gzipped "
            f"(written in {time.perf_counter() - started:.0f} s)"
        )
        bare = bare_child_mb()
        server = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--serve", str(export), stdout=asyncio.subprocess.PIPE
        )
        assert server.stdout is not None
        base_url = (await server.stdout.readline()).decode().strip()
        async with (
            await CardCache.open(Path(tmp) / "cache.sqlite3") as cache,
            aiohttp.ClientSession() as http,
        ):
            settings = load_settings(spellbook_json_base=base_url)
            store = ComboStore(cache)
            sync = functools.partial(sync_variants, http, settings, cache.path)
            idle, peak, child, done = rss_mb(), [0.0], [0.0], threading.Event()

            def sample() -> None:
                while not done.wait(0.05):
                    peak[0] = max(peak[0], rss_mb())
                    child[0] = max(child[0], children_peak_mb(besides=server.pid))

            sampler = threading.Thread(target=sample)
            sampler.start()
            started = time.perf_counter()
            result = await ComboRefresh(store, sync, 24).refresh_now()
            wall = time.perf_counter() - started
            done.set()
            sampler.join()
            assert result is not None, "the export was refused"
            growth = max(0.0, peak[0] - idle)
            print(
                f"refresh: {result.combos:,} combos; download and import {wall:.1f} s (import {result.seconds:.1f} s)"
            )
            print(
                f"RSS: this process {idle:.0f} MB idle, +{growth:.1f} MB during the refresh; import child peak "
                f"{child[0]:.0f} MB (a bare child: {bare:.0f} MB, so +{child[0] - bare:.0f} MB); "
                f"total over idle +{growth + child[0] - bare:.0f} MB"
            )
            rng = random.Random(3)
            times = []
            found = 0
            for i in range(args.finds):
                deck = rng.sample(names[:400], 60) + rng.sample(names[400:], 40)
                t0 = time.perf_counter()
                findings = await store.find(deck[1:], deck[:1])
                times.append((time.perf_counter() - t0) * 1000)
                found += len(findings.combos)
                if i == 0:
                    times.clear()  # warm-up
            print(
                f"find() for a 100-card deck: p50 {pct(times, 50):.1f} ms, p99 {pct(times, 99):.1f} ms, "
                f"max {max(times):.1f} ms; {found / args.finds:.0f} combos found a deck"
            )
            server.kill()
            await server.wait()
            ok = result.seconds < 60 and growth + child[0] - bare < 60 and pct(times, 99) < 50
            print("targets met" if ok else "TARGETS MISSED")


if __name__ == "__main__":
    asyncio.run(main())
