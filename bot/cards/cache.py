"""The SQLite card cache (aiosqlite, WAL): `cards` by id, `names` (name key -> card id, full names kind 0,
face names kind 1), `queries` (a fuzzy or commander query Scryfall answered -> card id), `negative` (queries
Scryfall said do not exist, until `expires_at`), `meta`. Nothing is ever cached from an error response."""

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

from bot.cards.rows import INSERT_CARD, INSERT_NAME, card_rows, is_card
from bot.cards.schema import MIGRATIONS, SCHEMA_VERSION, prepare_database

log = logging.getLogger(__name__)


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


class CardCache:
    """Async access to the card cache. Open with `await CardCache.open(path)`."""

    def __init__(self, db: aiosqlite.Connection, path: Path | str, clock: Callable[[], float]) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._parsed: LRUCache[str, dict[str, Any]] = LRUCache(4096)
        # One connection serves every coroutine: write transactions must not interleave.
        self._writing = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, *, clock: Callable[[], float] = time.time) -> CardCache:
        usable = await asyncio.to_thread(prepare_database, path)
        db = await aiosqlite.connect(str(usable), isolation_level=None)
        await db.execute("PRAGMA busy_timeout = 30000")
        if str(usable) == ":memory:":
            await db.executescript(
                "".join(MIGRATIONS[v] for v in sorted(MIGRATIONS))
                + "CREATE TABLE schema_version (version INTEGER NOT NULL);"
                + f"INSERT INTO schema_version VALUES ({SCHEMA_VERSION});"
            )
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
        await self._db.close()  # a second close does nothing

    def parse(self, row: CardRow) -> dict[str, Any]:
        """The card object of `row` (parsed once, then served from a small LRU)."""
        key = f"{row.id}:{row.fetched_at}"
        if (card := self._parsed.get(key)) is None:
            card = self._parsed[key] = json.loads(row.raw)
        return card

    async def lookup_name(self, norm: str) -> list[CardRow]:
        """Cards whose full or face name normalises to `norm`, best first (full names, real cards, bulk)."""
        return (await self.lookup_names([norm])).get(norm, [])

    async def lookup_names(self, norms: Sequence[str]) -> dict[str, list[CardRow]]:
        """`lookup_name` of every key in `norms` in one query (a decklist's names): {key: its rows, best first}."""
        rows = await self._card_rows(
            "n.kind, c.json, n.norm FROM names n JOIN cards c ON c.id = n.card_id WHERE n.norm IN "
            "(SELECT value FROM json_each(?)) ORDER BY n.kind, c.rank, c.source = 'bulk' DESC, c.fetched_at DESC",
            json.dumps(list(norms)),
        )
        found: dict[str, list[CardRow]] = {}
        for norm, row in rows:
            found.setdefault(norm, []).append(row)
        return found

    async def get_card(self, card_id: str) -> CardRow | None:
        rows = await self._card_rows("0, c.json, '' FROM cards c WHERE c.id = ?", card_id)
        return next((row for _, row in rows), None)

    async def _card_rows(self, rest: str, arg: str) -> list[tuple[str, CardRow]]:
        rows = await self._db.execute_fetchall(
            f"SELECT c.id, c.name, c.source, c.fetched_at, c.rank, c.commander, {rest}", (arg,)
        )
        return [(r[8], CardRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], r[7])) for r in rows]

    async def get_query(self, kind: str, norm: str) -> tuple[str, float] | None:
        rows = await self._db.execute_fetchall(
            "SELECT card_id, fetched_at FROM queries WHERE kind = ? AND norm = ?", (kind, norm)
        )
        return next(((str(r[0]), float(r[1])) for r in rows), None)

    async def get_negative(self, kind: str, norm: str) -> list[str] | None:
        """Suggestions stored with an unexpired not-found entry, or None when there is none."""
        rows = await self._db.execute_fetchall(
            "SELECT suggestions FROM negative WHERE kind = ? AND norm = ? AND expires_at > ?",
            (kind, norm, self._clock()),
        )
        return next(([str(s) for s in json.loads(r[0])] for r in rows), None)  # as put_negative wrote them

    async def name_rows(self) -> list[tuple[Any, ...]]:
        """Every full name as raw rows for `bot.cards.index.build_index`, sorted by key (it merges less)."""
        rows = await self._db.execute_fetchall(
            "SELECT n.norm, c.name, c.id, c.commander, c.rank, c.popularity, c.pairing FROM names n "
            "JOIN cards c ON c.id = n.card_id WHERE n.kind = 0 ORDER BY n.norm"
        )
        return cast(list[tuple[Any, ...]], list(rows))

    async def printed_texts(self, lang: str, oracle_ids: Iterable[str]) -> dict[str, list[str]]:
        """{oracle id: its printed text per face} in `lang` for those of `oracle_ids` held (`bot.cards.allcards`
        imports them; none when never imported)."""
        ids = list(dict.fromkeys(oracle_ids))
        marks = ", ".join("?" * len(ids))
        query = f"SELECT oracle_id, faces FROM printed_texts WHERE lang = ? AND oracle_id IN ({marks})"
        try:
            rows = await self._db.execute_fetchall(query, (lang, *ids)) if ids else []
        except sqlite3.OperationalError:  # no table: never imported, or by an older version
            return {}
        return {str(oracle): json.loads(faces) for oracle, faces in rows}

    async def rows(self, query: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of a read-only `query`, for the other tables of the file (the combos of `bot.combos`)."""
        return [tuple(row) for row in await self._db.execute_fetchall(query, args)]

    async def get_metas(self, keys: Iterable[str]) -> dict[str, str]:
        """The `meta` values of `keys` that are set, read in one query (one consistent snapshot)."""
        wanted = list(keys)
        rows = await self._db.execute_fetchall(
            f"SELECT key, value FROM meta WHERE key IN ({', '.join('?' * len(wanted))})", wanted
        )
        return {str(r[0]): str(r[1]) for r in rows}

    async def put_cards(self, cards: Iterable[dict[str, Any]]) -> int:
        """Store the card objects among `cards`; returns how many."""
        now = self._clock()
        card_rows_: list[tuple[Any, ...]] = []
        names: list[tuple[str, str, int]] = []
        for card in cards:
            if not is_card(card):
                continue
            row, name_rows = card_rows(card, "api", now)
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
                (kind, norm, card_id, self._clock()),
            )

    async def put_negative(self, kind: str, norm: str, ttl: float, suggestions: Sequence[str] = ()) -> None:
        if ttl <= 0:
            return
        async with self._writing:
            await self._db.execute(
                "INSERT OR REPLACE INTO negative (kind, norm, expires_at, suggestions) VALUES (?, ?, ?, ?)",
                (kind, norm, self._clock() + ttl, json.dumps(list(suggestions))),
            )
