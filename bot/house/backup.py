"""House rules as JSON, for backups (the format: docs/house-rules.md): `export_rules` reads every server's rules
from a cache file, `import_rules` checks a whole file before writing anything and then replaces the rules of
the servers it lists in one transaction (servers it does not list keep theirs)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.cards.schema import connect_for_import, connect_sync
from bot.deck.brackets import BRACKETS
from bot.house.rules import Ban, Rules
from bot.house.store import ADD_BAN, BUMP_STAMP, DELETE_BANS, DELETE_BRACKET, SET_BRACKET

FORMAT = "identity-bot house rules"
VERSION = 1
MAX_ID = 2**63 - 1  # a Discord snowflake fits SQLite's INTEGER
MAX_TEXT = 200  # characters of a card key or name


class HouseFileError(ValueError):
    """The file is no house rules export this bot can read; the message says where and why."""


def export_rules(db_path: Path | str) -> dict[str, Any]:
    """Every server's house rules in the cache at `db_path`; sqlite3.Error when it has no house tables."""
    if not Path(db_path).is_file():
        raise FileNotFoundError(f"no such file: {db_path}")
    with contextlib.closing(connect_sync(db_path)) as conn:
        bans = conn.execute(
            "SELECT guild_id, card_key, name FROM house_bans ORDER BY guild_id, name"
        ).fetchall()
        brackets = dict(conn.execute("SELECT guild_id, bracket FROM house_brackets").fetchall())
    servers: dict[int, dict[str, Any]] = {}
    for guild_id in sorted({g for g, _k, _n in bans} | set(brackets)):
        servers[guild_id] = {"guild_id": str(guild_id), "bracket": brackets.get(guild_id), "bans": []}
    for guild_id, key, name in bans:
        servers[guild_id]["bans"].append({"key": key, "name": name})
    stamp = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return {"format": FORMAT, "version": VERSION, "exported_at": stamp, "servers": list(servers.values())}


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise HouseFileError(f"{where}: expected a text of 1 to {MAX_TEXT} characters, got {value!r:.60}")
    return value


def _server(item: object, where: str) -> tuple[int, Rules]:
    if not isinstance(item, Mapping):
        raise HouseFileError(f"{where}: expected an object")
    raw_id = item.get("guild_id")
    if not isinstance(raw_id, str | int) or isinstance(raw_id, bool) or not str(raw_id).isdecimal():
        raise HouseFileError(f"{where}.guild_id: expected a server id, got {raw_id!r:.60}")
    if not 0 < (guild_id := int(str(raw_id))) <= MAX_ID:
        raise HouseFileError(f"{where}.guild_id: {guild_id} is no server id")
    bracket = item.get("bracket")
    if bracket is not None and (isinstance(bracket, bool) or bracket not in BRACKETS):
        raise HouseFileError(f"{where}.bracket: expected 1 to 5 or null, got {bracket!r:.60}")
    bans = item.get("bans", [])
    if not isinstance(bans, list):
        raise HouseFileError(f"{where}.bans: expected a list")
    read: dict[str, Ban] = {}
    for i, ban in enumerate(bans):
        if not isinstance(ban, Mapping):
            raise HouseFileError(f"{where}.bans[{i}]: expected an object")
        key = _text(ban.get("key"), f"{where}.bans[{i}].key")
        read.setdefault(key, Ban(key, _text(ban.get("name"), f"{where}.bans[{i}].name")))
    return guild_id, Rules(tuple(read.values()), bracket)


def read_export(data: object) -> dict[int, Rules]:
    """The rules per server of an export (`export_rules`'s shape); HouseFileError naming the first problem."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise HouseFileError(f'not a house rules export (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise HouseFileError(f"export version {data.get('version')!r} is not one this bot reads ({VERSION})")
    if not isinstance(servers := data.get("servers"), list):
        raise HouseFileError('"servers": expected a list')
    out: dict[int, Rules] = {}
    for i, item in enumerate(servers):
        guild_id, rules = _server(item, f"servers[{i}]")
        if guild_id in out:
            raise HouseFileError(f"servers[{i}]: server {guild_id} is listed twice")
        out[guild_id] = rules
    return out


def import_rules(db_path: Path | str, data: object, *, clock: float | None = None) -> dict[int, Rules]:
    """Replace the rules of every server `data` lists, in one transaction (all or nothing); what was read.
    The cache file is created or migrated first; OSError when it can't be written."""
    servers = read_export(data)
    now = time.time() if clock is None else clock
    with contextlib.closing(connect_for_import(db_path)) as conn, conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(BUMP_STAMP)
        for guild_id, rules in servers.items():
            conn.execute(DELETE_BANS, (guild_id,))
            conn.execute(DELETE_BRACKET, (guild_id,))
            conn.executemany(ADD_BAN, [(guild_id, b.key, b.name, now) for b in rules.bans])
            if rules.bracket is not None:
                conn.execute(SET_BRACKET, (guild_id, rules.bracket, now))
    return servers
