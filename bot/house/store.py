"""`HouseStore`: the bot's access to the house tables of the card cache file (its own aiosqlite connection).
Each server's rules are read once, then served from memory; a change here drops that server's copy, and a
change by another process (`python -m bot house import`) is seen through the house stamp in `meta`, which
every house write bumps (one query per command; the card data's own writes leave it alone). Every change is one transaction: after a crash the rules are the old or the new ones."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import aiosqlite
from cachetools import LRUCache

from bot.house.rules import NO_RULES, Ban, Rules

log = logging.getLogger(__name__)

CACHED_SERVERS = 10_000  # servers whose rules stay in memory
STAMP = "SELECT value FROM meta WHERE key = 'house_stamp'"
# Every write of house rules bumps the stamp in the same transaction; `bot.house.backup` writes these too.
BUMP_STAMP = (
    "INSERT INTO meta (key, value) VALUES ('house_stamp', '1') "
    "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
)
ADD_BAN = "INSERT OR IGNORE INTO house_bans (guild_id, card_key, name, added_at) VALUES (?, ?, ?, ?)"
SET_BRACKET = "INSERT OR REPLACE INTO house_brackets (guild_id, bracket, set_at) VALUES (?, ?, ?)"
DELETE_BANS = "DELETE FROM house_bans WHERE guild_id = ?"
DELETE_BRACKET = "DELETE FROM house_brackets WHERE guild_id = ?"


class HouseRulesUnavailable(Exception):
    """The house rules can't be saved (no cache file, or it refused the write): nothing was changed."""


class HouseStore:
    """Open with `await HouseStore.open(cache_path)`; close with `close()`."""

    def __init__(self, db: aiosqlite.Connection | None, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock
        self._rules: LRUCache[int, Rules] = LRUCache(CACHED_SERVERS)
        self._stamp: object = None
        self._writing = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, *, clock: Callable[[], float] = time.time) -> HouseStore:
        """The store of the (prepared) cache file at `path`; with no file (":memory:") the rules can only be
        read, as none (changes are refused, so none is lost at the next start)."""
        if str(path) == ":memory:":
            log.error("house rules: no card cache file (CACHE_PATH), so house rules can't be kept this run")
            return cls(None, clock)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        await db.execute("PRAGMA busy_timeout = 30000")
        return cls(db, clock)

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()

    async def __aenter__(self) -> HouseStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def rules(self, guild_id: int) -> Rules:
        """The server's rules (no query when they are in memory and no other process changed the file)."""
        if self._db is None:
            return NO_RULES
        await self._check_stamp()
        if (cached := self._rules.get(guild_id)) is not None:
            return cached
        bans = await self._db.execute_fetchall(
            "SELECT card_key, name FROM house_bans WHERE guild_id = ? ORDER BY name", (guild_id,)
        )
        bracket = await self._db.execute_fetchall(
            "SELECT bracket FROM house_brackets WHERE guild_id = ?", (guild_id,)
        )
        rules = Rules(tuple(Ban(str(k), str(n)) for k, n in bans), next((int(b) for (b,) in bracket), None))
        self._rules[guild_id] = rules
        return rules

    async def _check_stamp(self) -> None:
        """Forget every server's copy when another connection changed house rules."""
        assert self._db is not None
        if (stamp := next(iter(await self._db.execute_fetchall(STAMP)), None)) != self._stamp:
            self._rules.clear()
            self._stamp = stamp

    async def ban(self, guild_id: int, ban: Ban) -> bool:
        """Ban a card in the server; False when it already was."""
        return await self._write(guild_id, ADD_BAN, (guild_id, ban.key, ban.name, self._clock())) > 0

    async def unban(self, guild_id: int, ban: Ban) -> bool:
        """Lift a ban; False when the card was not banned."""
        sql = "DELETE FROM house_bans WHERE guild_id = ? AND card_key = ?"
        return await self._write(guild_id, sql, (guild_id, ban.key)) > 0

    async def set_bracket(self, guild_id: int, bracket: int) -> None:
        await self._write(guild_id, SET_BRACKET, (guild_id, bracket, self._clock()))

    async def clear(self, guild_id: int) -> Rules:
        """Remove every house rule of the server, in one transaction; the rules it had."""
        before = await self.rules(guild_id)
        await self._write(guild_id, DELETE_BANS, (guild_id,), DELETE_BRACKET)
        return before

    async def _write(self, guild_id: int, sql: str, args: tuple[object, ...], *more: str) -> int:
        """Run `sql` (then each of `more`, with the guild id) in one transaction; the rows it changed."""
        if self._db is None:
            raise HouseRulesUnavailable("no cache file")
        async with self._writing:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    await self._check_stamp()
                    await self._db.execute(BUMP_STAMP)
                    self._stamp = next(iter(await self._db.execute_fetchall(STAMP)), None)
                    changed = (await self._db.execute(sql, args)).rowcount
                    for statement in more:
                        changed += (await self._db.execute(statement, (guild_id,))).rowcount
                    await self._db.execute("COMMIT")
                except BaseException:
                    await self._db.execute("ROLLBACK")
                    self._stamp = None  # read again next time
                    raise
            except sqlite3.Error as exc:
                log.error("house rules: could not save a change for server %s: %s", guild_id, exc)
                raise HouseRulesUnavailable(str(exc)) from exc
            finally:
                self._rules.pop(guild_id, None)
        return changed
