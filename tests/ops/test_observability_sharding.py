"""Discord's guild -> shard formula and the SHARD_IDS parser."""

from __future__ import annotations

import random

import pytest

from bot.ops.sharding import parse_shard_ids, shard_for_guild

DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake(ms_since_discord_epoch: int, low_bits: int) -> int:
    return (ms_since_discord_epoch << 22) | (low_bits & ((1 << 22) - 1))


def test_shard_depends_only_on_the_timestamp_part():
    rng = random.Random(6)
    for _ in range(2000):
        ms = rng.randrange(0, 1 << 41)
        guild = snowflake(ms, rng.randrange(1 << 22))
        for count in (1, 2, 3, 16, 1000):
            assert shard_for_guild(guild, count) == ms % count


def test_known_values():
    assert shard_for_guild(0, 2) == 0
    assert shard_for_guild(1 << 22, 2) == 1
    assert shard_for_guild((1 << 22) - 1, 2) == 0  # worker/process/increment bits do not matter
    assert shard_for_guild(81384788765712384, 2) == (81384788765712384 >> 22) % 2
    assert shard_for_guild(81384788765712384, 1) == 0


def test_both_shards_get_guilds():
    rng = random.Random(1)
    guilds = [snowflake(rng.randrange(10**12), rng.randrange(1 << 22)) for _ in range(200)]
    assert {shard_for_guild(g, 2) for g in guilds} == {0, 1}


def test_invalid_arguments():
    with pytest.raises(ValueError):
        shard_for_guild(1, 0)
    with pytest.raises(ValueError):
        shard_for_guild(-1, 2)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("0,1", [0, 1]),
        ("0-3", [0, 1, 2, 3]),
        (" 4 , 0-1 ,1", [0, 1, 4]),
        ("7", [7]),
        ("2 - 3", [2, 3]),
        ("", None),
        ("  ", None),
        (None, None),
        ([3, 1, 1], [1, 3]),
        ((), None),
    ],
)
def test_parse_shard_ids(spec, expected):
    assert parse_shard_ids(spec) == expected


@pytest.mark.parametrize("spec", ["a", "0,,1", "3-1", "-1", "0-99999", "1.5", "0;1", [True], [-1], ["1"]])
def test_parse_shard_ids_rejects(spec):
    with pytest.raises(ValueError):
        parse_shard_ids(spec)
