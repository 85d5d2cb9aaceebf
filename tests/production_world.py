"""Helpers for the production tests (tests/test_production_*.py) and bench/load.py: settings pointing at
the fakes, a bot started through its normal `start()` on the fake gateway, bursts of interactions.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import statistics
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord.http import Route

from bot.app.bot import IdentityBot
from bot.cards.bulk import import_file
from bot.main import Runtime, assemble
from bot.settings import Settings, load_settings
from tests.fakes.budget import FastForwardBudget
from tests.fakes.discord import FakeDiscord, Reply
from tests.fakes.scryfall import FakeScryfall

# Real card names of the shared data set, for realistic traffic.
CARD_NAMES = (
    "Fires of Undeath",
    "Lightning Bolt",
    "Dismember",
    "Sol Ring",
    "Fire // Ice",
    "Counterspell",
    "Kumano, Master Yamabushi",
    "Llanowar Elves",
    "Swords to Plowshares",
    "Birds of Paradise",
)


def bot_settings(
    fake: FakeDiscord, scryfall: FakeScryfall | str, cache_path: Path, **overrides: Any
) -> Settings:
    """Settings for a bot talking to `fake` and `scryfall` (a fake or a base URL), cache at `cache_path`."""
    values: dict[str, Any] = {
        "discord_token": fake.token,
        "discord_api_base": fake.api_base,
        "scryfall_api_base": scryfall if isinstance(scryfall, str) else scryfall.base_url,
        "cache_path": cache_path,
        "bulk_refresh_hours": 0,
        "sync_commands": True,
        "dev_guild_id": None,
        "scryfall_timeout": 3.0,
        "user_rate": "off",
        "mana_emoji": "",
        "mana_emoji_upload": False,  # replies show text symbols ({B}); tests/test_e2e_emoji.py turns it on
        "metrics_port": None,
        "shard_count": None,
        "shard_ids": None,
        "log_format": "text",
        # deck sites: nowhere unless a test gives its fake (Archidekt/Moxfield tests always do)
        **dict.fromkeys(
            (
                "tappedout_base",
                "mtggoldfish_base",
                "deckstats_base",
                "aetherhub_base",
                "tcgplayer_decks_api_base",
            ),
            "http://127.0.0.1:9",
        ),
        "edhrec_json_base": "http://127.0.0.1:9",
    }
    values.update(overrides)
    return load_settings(**values)


def import_bulk(cache_path: Path) -> None:
    """Fill the cache with the shared data set, as `python -m bot sync-cards` would. Tests take a copy of
    one such import instead (the `imported_cache` fixture, `tests/fakes/fixtures.py`)."""
    from tests.shared_data import write_bulk_file

    bulk = write_bulk_file(cache_path.with_name(cache_path.name + ".oracle-cards.jsonl"))
    import_file(bulk, cache_path, updated_at=time.time())
    bulk.unlink()


def copy_database(source: Path, target: Path) -> Path:
    """Copy the SQLite database `source` to `target`; returns `target`. A closed database (no WAL or journal
    beside it, like the templates of tests/fakes) is copied as a file, ten times faster; else SQLite's online
    backup makes a consistent copy, WAL content included."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if not any(Path(f"{source}{side}").exists() for side in ("-wal", "-journal")):
        shutil.copyfile(source, target)
        return target
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
    return target


@asynccontextmanager
async def running_bot(
    settings: Settings, fake: FakeDiscord, *, shards: Iterable[int] | None = None, **options: Any
) -> AsyncIterator[IdentityBot]:
    """`running(...)`'s bot."""
    async with running(settings, fake, shards=shards, **options) as runtime:
        yield runtime.bot


@asynccontextmanager
async def running(
    settings: Settings, fake: FakeDiscord, *, shards: Iterable[int] | None = None, **options: Any
) -> AsyncIterator[Runtime]:
    """The bot as the composition root builds it (`bot.main.assemble`, `options` passed on), started on the
    fake gateway; waits for READY on every shard in `shards`, closes at exit. Shards identify without the
    5 s spacing production keeps; the Scryfall budget is a `FastForwardBudget` unless `budget=` is given."""
    options.setdefault("identify_spacing", 0.0)
    options.setdefault("budget", FastForwardBudget())
    # discord.py's REST base is one global (`bot.app.endpoints`): a bot started while another runs (a module's
    # bot beside a test's own) takes it over, so it goes back to the other bot's once this one stops.
    previous = Route.BASE
    try:
        async with _started(settings, fake, shards, options) as runtime:
            yield runtime
    finally:
        Route.BASE = previous


@asynccontextmanager
async def _started(
    settings: Settings, fake: FakeDiscord, shards: Iterable[int] | None, options: dict[str, Any]
) -> AsyncIterator[Runtime]:
    async with assemble(settings, **options) as runtime:
        bot = runtime.bot
        assert settings.discord_token is not None
        task = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
        ready = asyncio.create_task(fake.wait_ready(timeout=30, shards=shards if shards is not None else [0]))
        done, _ = await asyncio.wait({task, ready}, timeout=35, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            task.result()  # the bot died during startup: show why
        assert ready in done, "the bot never became ready on the fake gateway"
        ready.result()
        try:
            yield runtime
        finally:
            await bot.close()
            await asyncio.wait_for(task, 15)


def user(i: int) -> dict[str, Any]:
    uid = str(1_200_000_000_000_000_000 + i)
    return {
        "id": uid,
        "username": f"user{i}",
        "discriminator": "0",
        "global_name": f"User {i}",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
    }


@dataclass
class BurstResult:
    replies: list[Reply]
    seconds: float
    payloads: list[dict[str, Any]] = field(default_factory=list)

    @property
    def latencies(self) -> list[float]:
        return sorted(r.latency for r in self.replies)

    def percentile(self, p: float) -> float:
        values = self.latencies
        if not values:
            return float("nan")
        k = min(len(values) - 1, max(0, round(p / 100 * len(values) + 0.5) - 1))
        return values[k]

    @property
    def throughput(self) -> float:
        return len(self.replies) / self.seconds if self.seconds else float("inf")

    def summary(self) -> str:
        lat = self.latencies
        return (
            f"{len(self.replies)} replies in {self.seconds:.2f} s ({self.throughput:.0f}/s); latency "
            f"p50 {statistics.median(lat) * 1000:.1f} ms, p99 {self.percentile(99) * 1000:.1f} ms, "
            f"max {lat[-1] * 1000:.1f} ms"
        )


async def burst(
    fake: FakeDiscord,
    calls: list[tuple[str, dict[str, Any], dict[str, Any]]],
    *,
    timeout: float = 60.0,  # noqa: ASYNC109
    guild_id: int | str | None = None,
) -> BurstResult:
    """Dispatch every (command, options, user) on the gateway at once, then wait for every reply."""
    payloads = [
        fake.interaction_payload(name, options, user=u, guild_id=guild_id) for name, options, u in calls
    ]
    started = time.perf_counter()
    for payload in payloads:
        await fake.send_interaction(payload)
    replies = await asyncio.gather(*(fake.wait_for_reply(p["id"], timeout) for p in payloads))
    return BurstResult(list(replies), time.perf_counter() - started, payloads)


async def settle(bot: IdentityBot, timeout: float = 10.0) -> None:  # noqa: ASYNC109
    """Wait until the bot has finished (and recorded) every interaction it is handling."""
    async with asyncio.timeout(timeout):
        while any(not t.done() for t in bot.inflight):  # noqa: ASYNC110
            await asyncio.sleep(0.01)
    await asyncio.sleep(0)
