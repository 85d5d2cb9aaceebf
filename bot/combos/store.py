"""The cache's combo table (`COMBO_TABLE`), owned here: `import_variants` fills them from Commander Spellbook's
export (`{"timestamp", "version", "variants": [...], "aliases": [...]}`), swapping in what it streamed only
once the document parsed whole with plausibly many variants; `ComboStore` finds a deck's combos (one indexed
query); `ComboRefresh` downloads the export on the bulk data's schedule (`BulkRefresher(also=...)`)."""

from __future__ import annotations

import contextlib
import functools
import gzip
import io
import json
import logging
import math
import sqlite3
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

import aiohttp
import ijson

from bot import BOT_NAME, __version__
from bot.cards.bulk import in_child
from bot.cards.cache import CardCache
from bot.cards.names import normalize
from bot.cards.schema import COMBO_INDEX, COMBO_TABLE, connect_for_import
from bot.cards.scryfall import download_file
from bot.combos.model import COMBO, ComboFindings
from bot.settings import Settings

log = logging.getLogger(__name__)

MIN_VARIANTS = 10_000  # an export with fewer is refused (Spellbook's holds about 100,000)
CANDIDATES = "SELECT id, keys FROM combos WHERE anchor IN (SELECT value FROM json_each(?))"  # the index only
FACTS = "SELECT facts FROM combos WHERE id IN (SELECT value FROM json_each(?))"


class ComboDataError(Exception):
    """Not a whole Commander Spellbook export (truncated, malformed, too small): refused."""


class ComboImport(NamedTuple):
    combos: int
    skipped: int  # variants not of the export's shape
    seconds: float


def import_variants(
    source: Path | str | io.BufferedReader, db_path: Path | str, *, least: int = MIN_VARIANTS
) -> ComboImport:
    """Make the combo tables hold exactly the variants of the export `source` (a path or an open binary file,
    gzipped or not), or raise ComboDataError and change nothing. Synchronous."""
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        reader = source if isinstance(source, io.BufferedReader) else stack.enter_context(open(source, "rb"))
        conn = stack.enter_context(contextlib.closing(connect_for_import(db_path)))
        _write(conn, "DROP TABLE IF EXISTS combos_new", COMBO_TABLE.format("_new"))
        cut = None
        try:
            stream = gzip.GzipFile(fileobj=reader) if reader.peek(2)[:2] == b"\x1f\x8b" else reader
            count, skipped = _read(conn, ijson.items(stream, "variants.item", use_float=True))
            held = conn.execute("SELECT value FROM meta WHERE key = 'combos_count'").fetchone()
            least, total = max(least, int(held[0]) // 2 if held else 0), count + skipped
            if count < least or skipped * 10 > total:  # too few, or more than a tenth not of the shape
                raise ComboDataError(f"only {count:,} of its {total:,} variants are usable, not {least:,}")
            stamps = f"('combos_imported_at', '{time.time()!r}'), ('combos_count', '{count}')"
            swap = ("DROP TABLE combos", "ALTER TABLE combos_new RENAME TO combos", COMBO_INDEX)
            _write(conn, *swap, f"INSERT OR REPLACE INTO meta VALUES {stamps}")
        except (ijson.JSONError, EOFError, OSError, zlib.error, sqlite3.IntegrityError, MemoryError) as exc:
            cut = str(exc).splitlines()[0] if str(exc) else type(exc).__name__  # raised below: `exc` is freed
        finally:
            _write(conn, "DROP TABLE IF EXISTS combos_new")
    if cut is not None:
        raise ComboDataError(f"it is not a whole export, cut short or not JSON ({cut})")
    return ComboImport(count, skipped, time.perf_counter() - started)


def _write(conn: sqlite3.Connection, *sql: str, rows: Iterable[Any] | None = None) -> None:
    """One transaction: each statement of `sql`, once for each of `rows` when given."""
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        for statement in sql:
            conn.execute(statement) if rows is None else conn.executemany(statement, rows)


def _read(conn: sqlite3.Connection, variants: Iterable[Any]) -> tuple[int, int]:
    """Insert `variants` into the staging table, 2,000 a transaction, then anchor each at its card used in the
    fewest combos (a deck holding a combo holds its anchor); (combos, variants skipped)."""
    count = skipped = 0
    rows: list[tuple[str, str, str]] = []
    used: Counter[str] = Counter()
    for variant in chain(variants, [None]):  # None: the end
        if variant is None or len(rows) >= 2000:
            _write(conn, "INSERT INTO combos_new VALUES (?, NULL, ?, ?)", rows=rows)  # a repeated id: refused
            rows = []
        try:
            combo = COMBO.validate_python(variant)
            if "" in (keys := sorted({normalize(piece.name) for piece in combo.uses})):
                raise ValueError("a name of nothing but spaces")
        except ValueError:  # pydantic's ValidationError too
            skipped += variant is not None
            continue
        rows.append((combo.id, "\n".join(keys), COMBO.dump_json(combo).decode()))
        used.update(keys)
        count += 1
    conn.create_function("rarest", 1, lambda keys: min(keys.split("\n"), key=used.__getitem__))
    _write(conn, "UPDATE combos_new SET anchor = rarest(keys)")
    return count, skipped


async def sync_variants(
    session: aiohttp.ClientSession, settings: Settings, db_path: Path | str, *, least: int = MIN_VARIANTS
) -> ComboImport:
    """Download `variants.json` from SPELLBOOK_JSON_BASE (kept gzipped) beside the cache and import it in a
    child process. An answer other than 200, or a connection that fails: aiohttp's error."""
    dest = Path(db_path).with_suffix(".spellbook-variants.gz")
    agent = f"{BOT_NAME}/{__version__} (+{settings.decksite_contact})"
    headers = {"User-Agent": agent, "Accept": "application/json", "Accept-Encoding": "gzip"}
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=60)
    uri, ok = f"{settings.spellbook_json_base}/variants.json", aiohttp.ClientResponse.raise_for_status
    try:
        await download_file(session, uri, dest, ok, headers=headers, timeout=timeout, auto_decompress=False)
        import_ = functools.partial(import_variants, str(dest), str(db_path), least=least)
        return await in_child(import_, memory=1 << 30)  # the import needs 80 MB
    finally:
        dest.unlink(missing_ok=True)


class ComboStore:
    """The combos held in the file of `cache`."""

    def __init__(self, cache: CardCache) -> None:
        self.cache = cache
        self.imported_at: float | None = None  # of the combos held, as `held` last read it

    async def held(self) -> bool:
        """Whether the cache holds combos (False: never imported, or only refused or failed downloads)."""
        stamp = (await self.cache.get_metas(["combos_imported_at"])).get("combos_imported_at")
        self.imported_at = None if stamp is None else float(stamp)
        return stamp is not None

    async def find(self, names: Iterable[str], commanders: Iterable[str] = ()) -> ComboFindings:
        """Every combo whose every card is among `names` or `commanders` (Scryfall's full names, matched by
        their `normalize` key, never fuzzily), most popular first."""
        if not await self.held():
            return ComboFindings(checked=False)
        deck = {normalize(name) for name in chain(names, commanders)}
        rows = await self.cache.rows(CANDIDATES, [json.dumps(sorted(deck))])
        ids = json.dumps([combo_id for combo_id, keys in rows if deck.issuperset(keys.split("\n"))])
        found = [COMBO.validate_json(facts) for (facts,) in await self.cache.rows(FACTS, [ids])]
        found.sort(key=lambda combo: (-(combo.popularity or 0), combo.id))
        return ComboFindings(True, tuple(found), self.imported_at)


@dataclass
class ComboRefresh:
    """`sync()` (download and import the export) every `every_hours` (0: never), for the bulk refresher, which
    retries a failed download after 1, 2, 4, ... minutes. A refused export is logged and tried again a period
    later. The combos held stay in use."""

    store: ComboStore
    sync: Callable[[], Awaitable[ComboImport]]
    every_hours: float
    clock: Callable[[], float] = time.time
    refused_at: float = -math.inf

    def due_in(self) -> float:
        last = max(self.store.imported_at or -math.inf, self.refused_at)
        return max(0.0, last + self.every_hours * 3600 - self.clock()) if self.every_hours > 0 else math.inf

    async def refresh_due(self) -> ComboImport | None:  # an import by another process counts
        await self.store.held()
        return await self.refresh_now() if self.due_in() <= 0 else None

    async def refresh_now(self) -> ComboImport | None:
        """Download and import the export now; None when it was refused (logged)."""
        try:
            result = await self.sync()
        except ComboDataError as exc:
            self.refused_at = self.clock()
            log.error("Commander Spellbook's combo export refused, the combos held stay in use: %s", exc)
            return None
        await self.store.held()
        log.info("combos: imported %d Commander Spellbook variants in %.1f s", result.combos, result.seconds)
        return result
