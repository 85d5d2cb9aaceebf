"""Bot processes sharing one cache file share Scryfall's limits and its 429 lockouts: real OS processes,
each building the bot's card stack with the composition root (`bot.main.open_cards`), against one fake
Scryfall on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.main import open_cards
from bot.settings import load_settings
from tests.fakes.scryfall import FakeScryfall
from tests.rates import max_in_window
from tests.shared_data import all_cards

ROOT = Path(__file__).resolve().parents[2]


def _names(n: int, skip: int = 0) -> list[str]:
    return sorted({c["name"] for c in all_cards() if c.get("layout") == "normal"})[skip:skip + n]



def _client_main() -> None:
    """Worker: `python -c ... <base url> <cache path> <json names>`; looks the names up after "go"."""
    asyncio.run(_client(sys.argv[1], Path(sys.argv[2]), json.loads(sys.argv[3])))


async def _client(base_url: str, cache_path: Path, names: list[str]) -> None:
    settings = load_settings(_env_file=None, scryfall_api_base=base_url, cache_path=cache_path,
                             scryfall_timeout=30, bulk_refresh_hours=0)
    async with open_cards(settings) as cards:  # the bot's card stack: the host's budget beside the cache
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        results = await asyncio.gather(*(cards.client.named_fuzzy(n) for n in names), return_exceptions=True)
        print(json.dumps([r["name"] if isinstance(r, dict) else {"retry_after": getattr(r, "retry_after", None)}
                          for r in results]), flush=True)


async def _run_clients(base_url: str, cache_path: Path, batches: list[list[str]]) -> list[Any]:
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from tests.cards.test_scryfall_shared_budget import _client_main; _client_main()",
        base_url, str(cache_path), json.dumps(names), cwd=str(ROOT),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE) for names in batches]
    for proc in procs:
        assert proc.stdout is not None
        assert (await asyncio.wait_for(proc.stdout.readline(), 60)).strip() == b"ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    outs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs)), 120)
    return [json.loads(out.decode().strip().splitlines()[-1]) for out, _ in outs]


@pytest.mark.slow
async def test_two_processes_on_one_cache_file_keep_to_two_requests_per_second(tmp_path: Path) -> None:
    names = _names(12)
    async with FakeScryfall([c for c in all_cards() if c["name"] in set(names)]) as fake:
        results = await _run_clients(fake.base_url, tmp_path / "cache.sqlite3", [names[:6], names[6:]])
        assert results == [names[:6], names[6:]]
        times = fake.times("/cards/named")
    assert len(times) == 12
    assert max_in_window(times) <= 2, "two processes together went over Scryfall's 2 requests/s"
    assert times[-1] - times[0] >= 11 / (2 * 0.85) - 0.1  # one budget for both, not one each


@pytest.mark.slow
async def test_a_429_seen_by_one_process_pauses_the_other(tmp_path: Path) -> None:
    first, second = _names(1), _names(1, skip=1)
    cache = tmp_path / "cache.sqlite3"
    async with FakeScryfall([c for c in all_cards() if c["name"] in {*first, *second}]) as fake:
        fake.fail_next(429, retry_after=60)
        [[answer]] = await _run_clients(fake.base_url, cache, [first])
        assert answer["retry_after"] == pytest.approx(60, abs=1)
        [[other]] = await _run_clients(fake.base_url, cache, [second])
        assert 55 < other["retry_after"] <= 60  # refused at once, from the shared lockout
        assert fake.count() == 1
