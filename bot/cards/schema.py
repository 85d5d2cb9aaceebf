"""The card cache file: versioned schema, migrations, opening and checking (synchronous; shared by the cache
and the bulk importer); a file that is no readable cache is moved aside and rebuilt (docs/house-rules.md)."""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import time
from pathlib import Path

from bot.cards.rows import pairing_code

log = logging.getLogger(__name__)
house_log = logging.getLogger(f"{__name__}.house")  # the house rules of a cache moved aside

SCHEMA_VERSION = 6
#: Tables of data only people make (a server's house rules): never replaced by a card import.
HOUSE_TABLES = ("house_bans", "house_brackets")
#: Commander Spellbook's combos (`bot.combos`), made empty by migration 6; each combo import fills a copy
#: (suffix "_new") and swaps it in. `keys`: its card keys, one a line; `anchor`: the one in the fewest combos.
COMBO_TABLE = "CREATE TABLE IF NOT EXISTS combos{} (id TEXT PRIMARY KEY, anchor TEXT, keys TEXT, facts TEXT) WITHOUT ROWID"
COMBO_INDEX = "CREATE INDEX IF NOT EXISTS combos_anchor ON combos (anchor, keys)"

# Each entry upgrades the schema from version N-1 to N. Never edit a released step; add a new one.
MIGRATIONS: dict[int, str] = {
    1: """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS cards (
            id TEXT PRIMARY KEY,
            oracle_id TEXT,
            name TEXT NOT NULL,
            source TEXT NOT NULL,
            fetched_at REAL NOT NULL,
            rank INTEGER NOT NULL DEFAULT 0,
            commander INTEGER NOT NULL DEFAULT 0,
            json TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS cards_oracle ON cards (oracle_id);
        CREATE TABLE IF NOT EXISTS names (
            norm TEXT NOT NULL,
            card_id TEXT NOT NULL,
            kind INTEGER NOT NULL,
            PRIMARY KEY (norm, card_id)
        ) WITHOUT ROWID;
    """,
    2: """
        CREATE TABLE IF NOT EXISTS queries (
            kind TEXT NOT NULL,
            norm TEXT NOT NULL,
            card_id TEXT NOT NULL,
            fetched_at REAL NOT NULL,
            PRIMARY KEY (kind, norm)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS negative (
            kind TEXT NOT NULL,
            norm TEXT NOT NULL,
            expires_at REAL NOT NULL,
            suggestions TEXT NOT NULL DEFAULT '[]',
            PRIMARY KEY (kind, norm)
        ) WITHOUT ROWID;
    """,
    3: """
        ALTER TABLE cards ADD COLUMN popularity INTEGER;
    """,
    4: """
        ALTER TABLE cards ADD COLUMN pairing TEXT NOT NULL DEFAULT '';
    """,
    5: """
        CREATE TABLE IF NOT EXISTS house_bans (
            guild_id INTEGER NOT NULL,
            card_key TEXT NOT NULL,
            name TEXT NOT NULL,
            added_at REAL NOT NULL,
            PRIMARY KEY (guild_id, card_key)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS house_brackets (
            guild_id INTEGER PRIMARY KEY,
            bracket INTEGER NOT NULL CHECK (bracket BETWEEN 1 AND 5),
            set_at REAL NOT NULL
        );
    """,
    6: f"{COMBO_TABLE.format('')}; {COMBO_INDEX};",
}
_HOUSE_COLUMNS = {
    "house_bans": "guild_id, card_key, name, added_at",
    "house_brackets": "guild_id, bracket, set_at",
}
_CORRUPT_WORDS = ("not a database", "malformed", "corrupt", "disk image", "unsupported file format")


class CacheCorrupt(Exception):
    """The cache file cannot be used (the cache is then rebuilt)."""


def connect_sync(path: Path | str) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 30000")
    return conn


def schema_version(conn: sqlite3.Connection) -> int:
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'"
    ).fetchone()
    if not exists:
        if conn.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]:
            raise CacheCorrupt("tables but no schema_version table")
        return 0
    if (row := conn.execute("SELECT version FROM schema_version").fetchone()) is None:
        raise CacheCorrupt("empty schema_version table")
    return int(row[0])


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the schema up to `SCHEMA_VERSION`, one transaction per step."""
    if (start := schema_version(conn)) > SCHEMA_VERSION:
        raise CacheCorrupt(f"schema version {start} is newer than this bot knows ({SCHEMA_VERSION})")
    for version in range(start + 1, SCHEMA_VERSION + 1):
        with conn:  # commits, or rolls back on an error
            conn.execute("BEGIN IMMEDIATE")
            if schema_version(conn) >= version:  # another process migrated meanwhile
                continue
            for statement in MIGRATIONS[version].split(";"):
                if statement.strip():
                    conn.execute(statement)
            if version == 4:  # the commanders' partner abilities, from each cached commander
                rows = conn.execute("SELECT id, json FROM cards WHERE commander = 1").fetchall()
                conn.executemany(
                    "UPDATE cards SET pairing = ? WHERE id = ?",
                    [(pairing_code(json.loads(raw)), card_id) for card_id, raw in rows],
                )
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            conn.execute("DELETE FROM schema_version")
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))


def connect_for_import(db_path: Path | str) -> sqlite3.Connection:
    """A connection to the prepared cache at `db_path`; OSError when only an in-memory one could be had."""
    usable = prepare_database(db_path)
    if str(usable) == ":memory:":
        raise OSError(f"cannot write the card cache at {db_path}")
    return connect_sync(usable)


def _check_and_migrate(path: Path) -> None:
    conn = connect_sync(path)
    try:
        conn.execute("PRAGMA journal_mode = WAL").fetchone()
        if not (result := conn.execute("PRAGMA quick_check").fetchone()) or result[0] != "ok":
            raise CacheCorrupt(f"integrity check failed: {result[0] if result else 'no result'}")
        migrate(conn)
    finally:
        conn.close()


def _move_aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    path.rename(target)
    for suffix in ("-wal", "-shm", "-journal"):
        if (side := path.with_name(path.name + suffix)).exists():
            try:
                side.rename(target.with_name(target.name + suffix))
            except OSError:
                side.unlink(missing_ok=True)
    return target


def prepare_database(path: Path | str) -> Path | str:
    """Make `path` a usable, current cache; the path to open (":memory:" as the last resort). A locked
    database (another process is writing) is no corruption and is left alone."""
    if str(path) == ":memory:":
        return path
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        log.error("card cache: cannot create directory %s (%s); using an in-memory cache", path.parent, exc)
        return ":memory:"
    try:
        _check_and_migrate(path)
        return path
    except (CacheCorrupt, sqlite3.DatabaseError) as exc:
        text = str(exc).lower()
        if isinstance(exc, sqlite3.OperationalError) and not any(word in text for word in _CORRUPT_WORDS):
            if "locked" in text or "busy" in text:
                raise
            reason = f"unreadable ({exc})"
        else:
            reason = f"corrupt ({exc})"
    try:
        moved = _move_aside(path) if path.exists() else None
        where = moved.name if moved else "nowhere (it vanished)"
        log.error("card cache %s is %s; moved it to %s and started a new cache", path, reason, where)
        _check_and_migrate(path)
        if moved is not None:
            rescue_house_rules(moved, path)
        return path
    except (OSError, CacheCorrupt, sqlite3.DatabaseError) as exc:
        log.error("card cache %s cannot be rebuilt (%s); using an in-memory cache for this run", path, exc)
        return ":memory:"


def rescue_house_rules(moved: Path, path: Path) -> None:
    """Copy the house rules of the cache `moved` aside into the new cache at `path`; when they can't be read,
    log loudly where they are and how to restore them (the moved file is kept)."""
    try:
        with contextlib.closing(connect_sync(path)) as conn:
            conn.execute("ATTACH DATABASE ? AS old", (str(moved),))
            tables = {row[0] for row in conn.execute("SELECT name FROM old.sqlite_master WHERE type='table'")}
            copied = 0
            with conn:
                conn.execute("BEGIN IMMEDIATE")
                for table in (t for t in HOUSE_TABLES if t in tables):
                    columns = _HOUSE_COLUMNS[table]
                    copied += conn.execute(
                        f"INSERT OR IGNORE INTO main.{table} ({columns}) SELECT {columns} FROM old.{table}"
                    ).rowcount
            conn.execute("DETACH DATABASE old")
    except sqlite3.Error as exc:
        house_log.error(
            "HOUSE RULES NOT RESTORED: any house rules in %s could not be read (%s). Keep that file: restore "
            "them with `python -m bot house export --db %s rules.json` then `python -m bot house import "
            "rules.json`, or import your last `python -m bot house export` backup.",
            moved,
            exc,
            moved,
        )
        return
    if copied:
        house_log.warning("house rules: copied %d rows from %s into the new cache", copied, moved)
