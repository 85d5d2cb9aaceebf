"""Benchmark: printed names and rules texts in other languages from an all_cards file of Scryfall's real size
(issues 20, 26).

Run: python bench/printed.py [--languages de] [--file PATH] [--regenerate]

1. Builds (once; kept outside the repository, default in the system's temp folder) an all_cards JSON array
   the size of Scryfall's: the shared data set's cards as English printings and their printed names as
   printings in ten languages, repeated to Scryfall's count of printings per language (about 460,000
   objects), each padded with the fields Scryfall's card objects carry (about 4.5 KB each, 2 GB in all).
2. Imports it the way the bot does (`import_printed_names` in a spawned child process) into a fresh cache
   file with `--languages` turned on: wall time, the child's own peak RSS, the file's size and the rows kept.
3. In a fresh Python process, loads the index (`load_printed_names`): load time and RSS before and after.
4. Lookup and autocomplete latency over 3,000 printed names and prefixes of that language.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.common import pct  # noqa: E402
from bot.cards.allcards import PrintedImport, import_printed_names  # noqa: E402
from bot.settings import CARD_LANGUAGES  # noqa: E402

# Scryfall's printings per language (its Languages page).
SCRYFALL_PRINTINGS = {
    "en": 92_421,
    "es": 43_628,
    "fr": 47_040,
    "de": 46_705,
    "it": 43_504,
    "pt": 38_066,
    "ja": 50_346,
    "ko": 15_297,
    "ru": 21_533,
    "zhs": 39_650,
    "zht": 23_424,
}
DEFAULT_FILE = Path(tempfile.gettempdir()) / "identity-bench" / "all-cards.json"


def _padding(card: dict[str, object], n: int) -> dict[str, object]:
    """The fields a real all_cards object carries besides what the import reads (about 3.5 KB more)."""
    uri = f"https://example.invalid/card/{card['id']}/{n}"
    return {
        "multiverse_ids": [n, n + 1],
        "mtgo_id": n,
        "tcgplayer_id": n,
        "cardmarket_id": n,
        "uri": uri,
        "scryfall_uri": uri + "?utm_source=api",
        "rulings_uri": uri + "/rulings",
        "prints_search_uri": uri + "/prints?order=released&q=oracleid&unique=prints",
        "image_uris": {
            k: f"{uri}/{k}.jpg?1562" for k in ("small", "normal", "large", "png", "art_crop", "border_crop")
        },
        "printed_text": card.get("oracle_text", ""),
        "printed_type_line": card.get("type_line", ""),
        "flavor_text": "x" * 1200,
        "artist": "Some Artist",
        "artist_ids": [str(card["id"])],
        "illustration_id": str(card["id"]),
        "border_color": "black",
        "frame": "2015",
        "full_art": False,
        "prices": {"usd": "0.25", "usd_foil": "1.10", "eur": "0.20", "eur_foil": None, "tix": "0.03"},
        "related_uris": {
            k: f"https://example.invalid/{k}?id={n}&utm_source=scryfall"
            for k in ("gatherer", "tcgplayer_infinite_articles", "tcgplayer_infinite_decks", "edhrec")
        },
        "purchase_uris": {
            k: f"https://example.invalid/{k}/product/{n}?utm_campaign=affiliate&utm_medium=api"
            for k in ("tcgplayer", "cardmarket", "cardhoarder")
        },
        "collector_number": str(n % 400),
        "rarity": "common",
        "digital": False,
        "booster": True,
    }


def generate(path: Path) -> int:
    """Write the file; return how many objects it holds."""
    from tests.fakes.allcards import foreign_printings
    from tests.shared_data import all_cards

    cards = {c["name"]: c for c in all_cards()}
    by_lang: dict[str, list[dict[str, object]]] = {}
    for printing in foreign_printings():
        by_lang.setdefault(printing["lang"], []).append(printing)
    by_lang["en"] = [
        {k: c[k] for k in ("object", "id", "oracle_id", "lang", "name", "layout") if k in c}
        for c in all_cards()
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as fh:
        fh.write("[")
        for lang, target in SCRYFALL_PRINTINGS.items():
            pool = by_lang[lang]
            for n in range(target):
                base = pool[n % len(pool)]
                full = cards[str(base["name"])]
                obj = {**{k: v for k, v in full.items() if k != "card_faces"}, **_padding(full, n), **base}
                fh.write(("," if count else "") + json.dumps(obj, ensure_ascii=False))
                count += 1
        fh.write("]")
    return count


def _import_measured(path: str, db: str, langs: list[str]) -> tuple[PrintedImport, int]:
    """The import as the bot's child process runs it, and that process's peak RSS in bytes."""
    result = import_printed_names(path, db, langs)
    return result, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


PROBE = r"""
import json, random, resource, sys, time
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()
from bot.cards.allcards import load_printed_names
from bot.cards.printed import printed_key
db, langs = sys.argv[1], sys.argv[2].split(",")
before = rss()
t = time.perf_counter(); index = load_printed_names(db, langs); load = time.perf_counter() - t
after = rss()
import sqlite3
rows = sqlite3.connect(db).execute("SELECT printed FROM printed_names").fetchall()
names = [r[0] for r in random.Random(7).sample(rows, min(3000, len(rows)))]
look, comp = [], []
for name in names:
    t = time.perf_counter(); index.lookup(name, prefer_langs=langs); look.append(time.perf_counter() - t)
    prefix = name[: max(2, len(name) // 3)]
    t = time.perf_counter(); index.complete(prefix, 25, prefer_langs=langs); comp.append(time.perf_counter() - t)
print(json.dumps({"entries": len(index), "load": load, "rss_before": before, "rss_after": after,
                  "lookup": look, "complete": comp}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--languages", default="de", help="comma-separated Scryfall codes, or all (default: de)"
    )
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, help="where the generated file is kept")
    parser.add_argument("--regenerate", action="store_true", help="build the file again")
    args = parser.parse_args()
    langs = [c.strip() for c in args.languages.split(",") if c.strip()]
    langs = list(CARD_LANGUAGES) if langs == ["all"] else langs
    if args.regenerate or not args.file.is_file():
        t = time.perf_counter()
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            count = pool.submit(generate, args.file).result()  # this process stays small for the import
        print(f"generated {count:,} objects in {time.perf_counter() - t:.0f} s")
    size = args.file.stat().st_size
    print(f"all_cards file: {size / 1e9:.2f} GB ({args.file})")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cards.sqlite3"
        t = time.perf_counter()
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            result, child_rss = pool.submit(_import_measured, str(args.file), str(db), langs).result()
        wall = time.perf_counter() - t
        db_size = sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))
        print(
            f"import ({','.join(langs)}): {wall:.1f} s wall, {result.printings:,} printings kept -> "
            f"{result.names:,} names, {result.texts:,} rules texts; child peak RSS {child_rss / 2**20:.0f} MiB; cache file {db_size / 2**20:.1f} MiB"
        )
        out = subprocess.run(
            [sys.executable, "-c", PROBE, str(db), ",".join(langs)],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        ).stdout
    probe = json.loads(out)
    grown = (probe["rss_after"] - probe["rss_before"]) / 2**20
    print(
        f"index: {probe['entries']:,} entries loaded in {probe['load'] * 1000:.0f} ms; RSS +{grown:.1f} MiB "
        f"({probe['rss_after'] / 2**20:.0f} MiB in all)"
    )
    for what in ("lookup", "complete"):
        values = [v * 1000 for v in probe[what]]
        print(f"{what}: p50 {pct(values, 50):.3f} ms, p99 {pct(values, 99):.3f} ms, max {max(values):.2f} ms")


if __name__ == "__main__":
    main()
