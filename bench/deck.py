"""Deck-check benchmark: cold and warm time for a 100-card deck, and the Scryfall requests it costs.

Runs the real CardService (empty SQLite cache in a temp dir, no bulk data) against the fake Scryfall
serving the shared data set, on the repo's sample Moxfield export (Kumano, 78 distinct names).

    python bench/deck.py [--warm-runs 50]

Cold: every name goes to /cards/collection (batches of 75 under Scryfall's 2 requests/s limit).
Warm: the same deck again; every name answers from the cache, and its combos from a Spellbook-size export
(`--combos` variants in the real shape, imported once; 0 leaves combos out). Target: warm p99 under 50 ms.

    python bench/deck.py [--warm-runs 200] [--combos 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import gzip
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.combos.load import import_variants  # noqa: E402
from bot.combos.store import ComboStore  # noqa: E402
from bot.compose import open_cards  # noqa: E402
from bot.deck.runner import check_decklist  # noqa: E402
from bot.present.deck_report import text_report  # noqa: E402
from tests.fakes.fixtures import fake_settings  # noqa: E402
from tests.fakes.scryfall import FakeScryfall  # noqa: E402
from tests.fakes.spellbook import export, generated  # noqa: E402
from tests.shared_data import all_cards  # noqa: E402

DECK = REPO / "tests" / "data" / "decks" / "kumano-moxfield.txt"


def import_combos(count: int, db: Path, deck_names: list[str]) -> float:
    """Import `count` generated variants over the deck's names and the 3,000 most played cards; seconds."""
    played = sorted((c for c in all_cards() if c.get("edhrec_rank")), key=lambda c: c["edhrec_rank"])
    names = list(dict.fromkeys(deck_names + [c["name"] for c in played[:3000]]))
    source = db.with_suffix(".variants.json.gz")
    source.write_bytes(gzip.compress(export(generated(count, names)), compresslevel=1))
    return import_variants(source, db, least=1).seconds


async def main(warm_runs: int, combos: int) -> None:
    text = DECK.read_text(encoding="utf-8")
    async with FakeScryfall(all_cards()) as fake:
        with tempfile.TemporaryDirectory() as tmp:
            async with open_cards(fake_settings(fake, Path(tmp))) as service:
                store = ComboStore(service.cache) if combos else None
                start = time.perf_counter()
                report, resolved = await check_decklist(service, text, "Kumano")
                cold = time.perf_counter() - start
                cold_requests = [(r.method, r.path) for r in fake.requests]
                assert report.legal, text_report(report)

                deck_names = [str(r.card["name"]) for r in resolved]
                imported = import_combos(combos, Path(service.cache.path), deck_names) if combos else 0.0
                fake.requests.clear()
                gc.freeze()  # the fake Scryfall's 24,249 cards live in this process, not the bot's: out of the GC
                times = []
                for _ in range(warm_runs):
                    start = time.perf_counter()
                    report, _ = await check_decklist(service, text, "Kumano", combos=store)
                    times.append(time.perf_counter() - start)
                warm_requests = len(fake.requests)

    times.sort()
    p50 = statistics.median(times) * 1000
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    print(f"deck: {DECK.name}: {report.card_count} cards, legal={report.legal}")
    print(
        f"cold deck check: {cold * 1000:.0f} ms, {len(cold_requests)} Scryfall requests "
        f"({', '.join(f'{m} {p}' for m, p in cold_requests)})"
    )
    found = f", {len(report.bracket.combos)} combos found among {combos:,} (imported in {imported:.1f} s)"
    print(
        f"warm deck check: p50 {p50:.1f} ms, p99 {p99:.1f} ms over {warm_runs} runs, "
        f"{warm_requests} Scryfall requests{found if combos else ''} (target: p99 under 50 ms)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm-runs", type=int, default=200)
    parser.add_argument("--combos", type=int, default=100_000, help="Spellbook variants imported (0: none)")
    args = parser.parse_args()
    asyncio.run(main(args.warm_runs, args.combos))
