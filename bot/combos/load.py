"""Commander Spellbook's export (`{"timestamp", "version", "variants": [...], "aliases": [...]}`) into the
cache's combo table (`COMBO_TABLE`): `import_variants` swaps in what it streamed only once the document parsed
whole with plausibly many variants. It runs in the import child, which loads this module's imports only: no
aiohttp, no discord.py (docs/card-data.md)."""

from __future__ import annotations

import contextlib
import gzip
import io
import sqlite3
import time
import zlib
from collections import Counter
from collections.abc import Iterable
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

import ijson

from bot.cards.names import normalize
from bot.cards.schema import COMBO_INDEX, COMBO_TABLE, connect_for_import
from bot.combos.model import COMBO

MIN_VARIANTS = 10_000  # an export with fewer is refused (Spellbook's holds about 100,000)


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
