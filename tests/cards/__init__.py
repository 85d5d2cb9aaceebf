import contextlib
import sqlite3
from pathlib import Path


def cache_counts(path: Path | str) -> dict[str, int]:
    """Rows in each table of the card cache file at `path` (committed ones)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        tables = ("cards", "names", "queries", "negative")
        return {t: int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in tables}
