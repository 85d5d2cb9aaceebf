"""The SQLite card cache (aiosqlite, WAL, versioned schema with migrations).

Tables:
- `cards`: Scryfall card objects by id (with oracle id, display name, where they came from, when).
- `names`: normalised name -> card id, full names (kind 0) and face names (kind 1).
- `queries`: a fuzzy/commander query that Scryfall answered -> card id (so typos are asked once).
- `negative`: queries Scryfall said do not exist, until `expires_at`.
- `meta`: bulk data date, import bookkeeping.

A file that is not a readable cache (garbage, truncated, from a newer version) is logged once, moved
aside to `<name>.corrupt-<timestamp>` and replaced by a new empty cache; if even that fails the cache
lives in memory for this run. Nothing is ever cached from an error response.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import aiosqlite
from cachetools import LRUCache

from bot.cards.names import normalize
from bot.cards.search import IndexEntry
from bot.identity import IdentityError, is_commander_candidate, pairing_traits

log = logging.getLogger(__name__)

SCHEMA_VERSION = 4

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
}
# Columns a migration adds whose values come from the card itself: filled in Python right after it.
BACKFILLS: dict[int, str] = {4: "pairing"}

NON_GAME_LAYOUTS = frozenset({
    "token", "double_faced_token", "emblem", "art_series", "vanguard", "planar", "scheme", "augment", "host",
})
_CORRUPT_WORDS = ("not a database", "malformed", "corrupt", "disk image", "unsupported file format")


class CacheCorrupt(Exception):
    """The cache file cannot be used (raised internally; the cache is then rebuilt)."""


# ----------------------------------------------------------------------------------------------
# Card -> rows


def card_rank(card: dict[str, Any]) -> int:
    """Lower is better when several cards share a name (real cards before tokens and Alchemy copies)."""
    rank = 0
    if card.get("layout") in NON_GAME_LAYOUTS:
        rank += 10
    if str(card.get("name", "")).startswith("A-"):
        rank += 5
    games = card.get("games")
    if games and "paper" not in games:
        rank += 1
    return rank


def popularity(card: dict[str, Any]) -> int | None:
    """Scryfall's `edhrec_rank` (1 = the card most played in Commander), or None when EDHREC ranks it not."""
    value = card.get("edhrec_rank")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def pairing_code(card: dict[str, Any]) -> str:
    """The engine's pairing summary of a card (its partner abilities, Background, Time Lord Doctor), stored
    so the partner option's autocomplete can offer only cards that pair with the chosen commander."""
    try:
        return pairing_traits(card).encode()
    except IdentityError:
        return ""


def can_be_commander(card: dict[str, Any]) -> bool:
    """Whether commander pickers should offer the card (the engine's rule: eligible alone, or a Background)."""
    try:
        return is_commander_candidate(card)
    except IdentityError:
        return False


def name_keys(card: dict[str, Any]) -> list[tuple[str, int]]:
    """(normalised name, kind) pairs: the full name (kind 0) and each face name (kind 1)."""
    name = str(card.get("name", ""))
    full = normalize(name)
    keys = [(full, 0)]
    seen = {full}
    for face in card.get("card_faces") or ():
        face_name = face.get("name") if isinstance(face, dict) else None
        if face_name:
            key = normalize(str(face_name))
            if key and key not in seen:
                seen.add(key)
                keys.append((key, 1))
    return keys


def is_card(obj: Any) -> bool:
    return (isinstance(obj, dict) and isinstance(obj.get("id"), str) and isinstance(obj.get("name"), str)
            and bool(obj["name"]) and obj.get("object", "card") == "card")


def card_rows(card: dict[str, Any], source: str, now: float, raw: str | None = None
              ) -> tuple[tuple[Any, ...], list[tuple[str, str, int]]]:
    """The `cards` row and `names` rows for one card object."""
    commander = can_be_commander(card)
    row = (card["id"], card.get("oracle_id"), card["name"], source, now, card_rank(card),
           1 if commander else 0, popularity(card), pairing_code(card) if commander else "",
           raw if raw is not None else json.dumps(card, separators=(",", ":")))
    return row, [(key, card["id"], kind) for key, kind in name_keys(card)]


def index_entries(rows: Iterable[tuple[Any, ...]]) -> list[IndexEntry]:
    """`IndexEntry`s from `CardCache.name_rows()`."""
    return [IndexEntry(name=r[1], norm=r[0], card_id=r[2], commander=bool(r[3]), rank=r[4], popularity=r[5],
                       pairing=r[6]) for r in rows]


INSERT_CARD = "INSERT OR REPLACE INTO cards (id, oracle_id, name, source, fetched_at, rank, commander, " \
              "popularity, pairing, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
INSERT_NAME = "INSERT OR IGNORE INTO names (norm, card_id, kind) VALUES (?, ?, ?)"


# ----------------------------------------------------------------------------------------------
# Opening, checking, migrating (synchronous; shared with the bulk importer)


def connect_sync(path: Path | str, *, timeout: float = 30.0) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    return conn


def _is_corruption(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError) \
        or any(word in str(exc).lower() for word in _CORRUPT_WORDS)


def schema_version(conn: sqlite3.Connection) -> int:
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'").fetchone()
    if not exists:
        tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
        if tables:
            raise CacheCorrupt("tables but no schema_version table")
        return 0
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    if row is None:
        raise CacheCorrupt("empty schema_version table")
    return int(row[0])


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema up to `target`, one transaction per step. Returns the version it started at."""
    start = schema_version(conn)
    if start > SCHEMA_VERSION:
        raise CacheCorrupt(f"schema version {start} is newer than this bot knows ({SCHEMA_VERSION})")
    for version in range(start + 1, target + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = schema_version(conn)
            if current >= version:  # another process migrated meanwhile
                conn.execute("COMMIT")
                continue
            for statement in MIGRATIONS[version].split(";"):
                if statement.strip():
                    conn.execute(statement)
            if version in BACKFILLS:
                _backfill(conn, BACKFILLS[version])
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            conn.execute("DELETE FROM schema_version")
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return start


def _backfill(conn: sqlite3.Connection, column: str) -> None:
    """Fill a column a migration just added from each cached card (only `pairing` so far: the commanders'
    partner abilities; other cards can't be partners, and their rows keep the default)."""
    rows = conn.execute("SELECT id, json FROM cards WHERE commander = 1").fetchall()
    conn.executemany(f"UPDATE cards SET {column} = ? WHERE id = ?",  # noqa: S608 - a column name of ours
                     [(pairing_code(json.loads(raw)), card_id) for card_id, raw in rows])


def _check_and_migrate(path: Path) -> None:
    conn = connect_sync(path)
    try:
        conn.execute("PRAGMA journal_mode = WAL").fetchone()
        result = conn.execute("PRAGMA quick_check").fetchone()
        if not result or result[0] != "ok":
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
        side = path.with_name(path.name + suffix)
        if side.exists():
            try:
                side.rename(target.with_name(target.name + suffix))
            except OSError:
                side.unlink(missing_ok=True)
    return target


def prepare_database(path: Path | str) -> Path | str:
    """Make `path` a usable, current cache. Returns the path to open (":memory:" as the last resort).

    Corrupt/unreadable/newer files are moved aside with one clear log line and rebuilt. A locked
    database (another process is writing) is not corruption and is left alone.
    """
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
        if isinstance(exc, sqlite3.OperationalError) and not _is_corruption(exc):
            if "locked" in str(exc).lower() or "busy" in str(exc).lower():
                raise
            reason = f"unreadable ({exc})"
        else:
            reason = f"corrupt ({exc})"
    try:
        moved = _move_aside(path) if path.exists() else None
        log.error("card cache %s is %s; moved it to %s and started a new cache", path, reason,
                  moved.name if moved else "nowhere (it vanished)")
        _check_and_migrate(path)
        return path
    except (OSError, CacheCorrupt, sqlite3.DatabaseError) as exc:
        log.error("card cache %s cannot be rebuilt (%s); using an in-memory cache for this run", path, exc)
        return ":memory:"


# ----------------------------------------------------------------------------------------------
# The async cache


@dataclass(slots=True)
class CardRow:
    """A cached card plus where it came from; `kind` is how the name matched (0 full name, 1 face)."""

    id: str
    name: str
    source: str  # "bulk" or "api"
    fetched_at: float
    rank: int
    commander: bool
    kind: int
    raw: str

    def card(self) -> dict[str, Any]:
        return json.loads(self.raw)


_ROW_COLUMNS = "c.id, c.name, c.source, c.fetched_at, c.rank, c.commander"


class CardCache:
    """Async access to the card cache. Open with `await CardCache.open(path)`."""

    def __init__(self, db: aiosqlite.Connection, path: Path | str, clock: Callable[[], float]) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._parsed: LRUCache[str, dict[str, Any]] = LRUCache(4096)
        self._closed = False
        # One connection serves every coroutine: a write transaction must not interleave with another.
        self._writing = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, *, clock: Callable[[], float] = time.time) -> CardCache:
        usable = await asyncio.to_thread(prepare_database, path)
        db = await aiosqlite.connect(str(usable), isolation_level=None)
        await db.execute("PRAGMA busy_timeout = 30000")
        if str(usable) == ":memory:":
            await db.executescript("".join(MIGRATIONS[v] for v in sorted(MIGRATIONS))
                                   + "CREATE TABLE schema_version (version INTEGER NOT NULL);"
                                   + f"INSERT INTO schema_version VALUES ({SCHEMA_VERSION});")
        else:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
        return cls(db, usable, clock)

    async def __aenter__(self) -> CardCache:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def in_memory(self) -> bool:
        return str(self.path) == ":memory:"

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._db.close()

    # -- reads -----------------------------------------------------------------------------------

    def parse(self, row: CardRow) -> dict[str, Any]:
        """The card object of `row` (parsed once, then served from a small LRU)."""
        key = f"{row.id}:{row.fetched_at}"
        card = self._parsed.get(key)
        if card is None:
            card = row.card()
            self._parsed[key] = card
        return card

    async def lookup_name(self, norm: str) -> list[CardRow]:
        """Cards whose full or face name normalises to `norm`, best first (full names, real cards, bulk)."""
        rows = await self._db.execute_fetchall(
            f"SELECT {_ROW_COLUMNS}, n.kind, c.json FROM names n JOIN cards c ON c.id = n.card_id "
            "WHERE n.norm = ? ORDER BY n.kind, c.rank, c.source = 'bulk' DESC, c.fetched_at DESC",
            (norm,))
        return [CardRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7]) for r in rows]

    async def get_card(self, card_id: str) -> CardRow | None:
        rows = await self._db.execute_fetchall(
            f"SELECT {_ROW_COLUMNS}, 0, c.json FROM cards c WHERE c.id = ?", (card_id,))
        for r in rows:
            return CardRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7])
        return None

    async def get_query(self, kind: str, norm: str) -> tuple[str, float] | None:
        rows = await self._db.execute_fetchall(
            "SELECT card_id, fetched_at FROM queries WHERE kind = ? AND norm = ?", (kind, norm))
        for r in rows:
            return str(r[0]), float(r[1])
        return None

    async def get_negative(self, kind: str, norm: str) -> list[str] | None:
        """Suggestions stored with an unexpired not-found entry, or None when there is none."""
        rows = await self._db.execute_fetchall(
            "SELECT suggestions FROM negative WHERE kind = ? AND norm = ? AND expires_at > ?",
            (kind, norm, self._clock()))
        for r in rows:
            try:
                value = json.loads(r[0])
            except ValueError:
                value = []
            return [str(s) for s in value] if isinstance(value, list) else []
        return None

    async def name_rows(self) -> list[tuple[Any, ...]]:
        """Every full name in the cache as raw rows, sorted by key (the index merges less); `index_entries`
        turns them into `IndexEntry`s (36,000 objects: call it off the event loop)."""
        return cast(list[tuple[Any, ...]], list(await self._db.execute_fetchall(
            "SELECT n.norm, c.name, c.id, c.commander, c.rank, c.popularity, c.pairing FROM names n "
            "JOIN cards c ON c.id = n.card_id WHERE n.kind = 0 ORDER BY n.norm")))

    async def name_entries(self) -> list[IndexEntry]:
        """Every full name in the cache, for the in-memory NameIndex."""
        rows = await self.name_rows()
        return await asyncio.to_thread(index_entries, rows)

    async def count_cards(self, source: str | None = None) -> int:
        if source is None:
            rows = await self._db.execute_fetchall("SELECT count(*) FROM cards")
        else:
            rows = await self._db.execute_fetchall("SELECT count(*) FROM cards WHERE source = ?", (source,))
        return int(list(rows)[0][0])

    async def counts(self) -> dict[str, int]:
        out = {}
        for table in ("cards", "names", "queries", "negative"):
            rows = await self._db.execute_fetchall(f"SELECT count(*) FROM {table}")
            out[table] = int(list(rows)[0][0])
        return out

    async def get_meta(self, key: str) -> str | None:
        rows = await self._db.execute_fetchall("SELECT value FROM meta WHERE key = ?", (key,))
        for r in rows:
            return str(r[0])
        return None

    async def get_metas(self, keys: Iterable[str]) -> dict[str, str]:
        """The `meta` values of `keys` that are set, read in one query (one consistent snapshot)."""
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return {}
        rows = await self._db.execute_fetchall(
            f"SELECT key, value FROM meta WHERE key IN ({', '.join('?' * len(wanted))})",  # noqa: S608 - placeholders only
            wanted)
        return {str(r[0]): str(r[1]) for r in rows}

    # -- writes ----------------------------------------------------------------------------------

    async def put_cards(self, cards: Iterable[dict[str, Any]], *, source: str = "api") -> int:
        """Store card objects (only real card objects; anything else is ignored). Returns how many."""
        now = self._clock()
        card_rows_: list[tuple[Any, ...]] = []
        names: list[tuple[str, str, int]] = []
        for card in cards:
            if not is_card(card):
                continue
            row, name_rows = card_rows(card, source, now)
            card_rows_.append(row)
            names.extend(name_rows)
        if not card_rows_:
            return 0
        async with self._writing:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                await self._db.executemany(INSERT_CARD, card_rows_)
                await self._db.executemany(INSERT_NAME, names)
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
        return len(card_rows_)

    async def put_query(self, kind: str, norm: str, card_id: str) -> None:
        async with self._writing:
            await self._db.execute(
                "INSERT OR REPLACE INTO queries (kind, norm, card_id, fetched_at) VALUES (?, ?, ?, ?)",
                (kind, norm, card_id, self._clock()))

    async def put_negative(self, kind: str, norm: str, ttl: float, suggestions: Sequence[str] = ()) -> None:
        if ttl <= 0:
            return
        async with self._writing:
            await self._db.execute(
                "INSERT OR REPLACE INTO negative (kind, norm, expires_at, suggestions) VALUES (?, ?, ?, ?)",
                (kind, norm, self._clock() + ttl, json.dumps(list(suggestions))))
