"""Gateway sharding: Discord's guild-to-shard formula and the ``SHARD_IDS`` parser."""

from __future__ import annotations

import re

MAX_SHARD_IDS = 4096  # far beyond any one process; catches "0-999999999" typos
_PART = re.compile(r"([0-9]+)(?:\s*-\s*([0-9]+))?")


def shard_for_guild(guild_id: int, shard_count: int) -> int:
    """The shard that receives ``guild_id``'s events: ``(guild_id >> 22) % shard_count`` (Discord's rule)."""
    if shard_count < 1 or guild_id < 0:
        raise ValueError(f"no shard for guild {guild_id} among {shard_count} shards")
    return (guild_id >> 22) % shard_count


def parse_shard_ids(spec: str | list[int] | tuple[int, ...] | None) -> list[int] | None:
    """``SHARD_IDS``: ``"0-1,4"`` -> [0, 1, 4], sorted, without duplicates; blank -> None (every shard of
    ``SHARD_COUNT``); a list of ints (a keyword override) is checked. ValueError with a readable message."""
    if spec is None or isinstance(spec, list | tuple):
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in spec or ()):
            raise ValueError(f"SHARD_IDS entries must be non-negative integers, not {spec!r}")
        return sorted(set(spec or ())) or None
    ids: set[int] = set()
    for part in map(str.strip, spec.split(",") if spec.strip() else ()):
        if (match := _PART.fullmatch(part)) is None:
            raise ValueError(f"SHARD_IDS must be numbers and ranges like '0,1' or '0-3', not {part[:20]!r}")
        low, high = int(match[1]), int(match[2] or match[1])
        if high < low:
            raise ValueError(f"SHARD_IDS range {part!r} runs backwards")
        if len(ids) + high - low >= MAX_SHARD_IDS:
            raise ValueError(f"SHARD_IDS lists too many shards (at most {MAX_SHARD_IDS})")
        ids.update(range(low, high + 1))
    return sorted(ids) or None
