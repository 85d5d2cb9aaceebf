"""Gateway sharding helpers: Discord's guild-to-shard formula and the ``SHARD_IDS`` parser."""

from __future__ import annotations

import re

__all__ = ["MAX_SHARD_IDS", "parse_shard_ids", "shard_for_guild"]

MAX_SHARD_IDS = 4096  # far beyond any single process; guards "0-999999999" typos
_RANGE_RE = re.compile(r"^(\d+)\s*-\s*(\d+)$")


def shard_for_guild(guild_id: int, shard_count: int) -> int:
    """The shard that receives ``guild_id``'s events: ``(guild_id >> 22) % shard_count`` (Discord's formula)."""
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    if guild_id < 0:
        raise ValueError("guild_id must be a non-negative snowflake")
    return (int(guild_id) >> 22) % int(shard_count)


def parse_shard_ids(spec: str | list[int] | tuple[int, ...] | None) -> list[int] | None:
    """Parse ``SHARD_IDS``: ``"0,1"`` -> [0, 1]; ``"0-3"`` -> [0, 1, 2, 3]; ``"0-1,4"`` -> [0, 1, 4].

    Empty or None -> None (all shards of ``SHARD_COUNT``). Duplicates are removed and the result sorted.
    A list or tuple of ints (e.g. from a JSON value or keyword override) is accepted as is.
    Raises ValueError with a readable message on malformed input.
    """
    if spec is None:
        return None
    if isinstance(spec, list | tuple):
        for value in spec:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"SHARD_IDS entries must be non-negative integers, not {value!r}")
        return sorted(set(spec)) or None
    text = str(spec).strip()
    if not text:
        return None
    ids: set[int] = set()
    for raw in text.split(","):
        ids.update(_shard_part(raw.strip(), text))
        if len(ids) > MAX_SHARD_IDS:
            raise ValueError("SHARD_IDS lists too many shards")
    return sorted(ids)


def _shard_part(part: str, text: str) -> range:
    """One comma-separated part of ``SHARD_IDS``: a number or a range ``low-high``."""
    if not part:
        raise ValueError(f"SHARD_IDS has an empty entry: {text[:60]!r}")
    if part.isdigit():
        return range(int(part), int(part) + 1)
    match = _RANGE_RE.match(part)
    if not match:
        raise ValueError(f"SHARD_IDS must be numbers and ranges like '0,1' or '0-3', not {part[:20]!r}")
    low, high = int(match.group(1)), int(match.group(2))
    if high < low:
        raise ValueError(f"SHARD_IDS range {part!r} runs backwards")
    if high - low + 1 > MAX_SHARD_IDS:
        raise ValueError(f"SHARD_IDS range {part!r} is too large")
    return range(low, high + 1)
