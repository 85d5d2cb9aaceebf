"""The card side of the composition root, all that the terminal commands need and no discord.py: the card
service on its own HTTP session and cache (`open_cards`), its Scryfall client, and the process's exit codes
with the one `error: ...` line (`fail`). `bot.main` builds the bot on top of it."""

from __future__ import annotations

import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from bot import __version__
from bot.cards.budget import Budget
from bot.cards.cache import CardCache
from bot.cards.foreign import ForeignNames, PrintedSearch
from bot.cards.scryfall import HEADERS, ScryfallClient
from bot.cards.service import CardService
from bot.ops.metrics import BotMetrics
from bot.settings import Settings

EXIT_OK, EXIT_ERROR, EXIT_CONFIG = 0, 1, 2


def fail(message: str, code: int) -> int:
    """Print the one `error: ...` line for a way the bot can't start; returns `code`."""
    print(f"error: {message}", file=sys.stderr, flush=True)
    return code


def scryfall_client(settings: Settings, session: aiohttp.ClientSession, **options: Any) -> ScryfallClient:
    """The Scryfall client; `options` go to `ScryfallClient` (`budget` defaults to SCRYFALL_RATE's)."""
    options["budget"] = options.get("budget") or Budget(scale=settings.scryfall_rate)
    return ScryfallClient(session, settings.scryfall_api_base, timeout=settings.scryfall_timeout, **options)


@asynccontextmanager
async def open_cards(
    settings: Settings,
    *,
    metrics: BotMetrics | None = None,
    clock: Callable[[], float] = time.time,
    **options: Any,
) -> AsyncIterator[CardService]:
    """The card service on its own HTTP session and cache, closed on exit; `clock` and `options` for tests."""
    metrics = metrics or BotMetrics(version=__version__, process_metrics=False)
    async with (
        aiohttp.ClientSession(headers=HEADERS) as session,
        await CardCache.open(settings.cache_path, clock=clock) as cache,
    ):
        client = scryfall_client(settings, session, metrics=metrics, **options)
        ttl, negative_ttl = settings.cache_ttl, settings.negative_ttl
        # Names printed in other languages: the local index with CARD_LANGUAGES, else Scryfall's search.
        foreign = ForeignNames(PrintedSearch(client, ttl=ttl, negative_ttl=negative_ttl, timer=clock))
        cards = CardService(
            cache,
            client,
            metrics=metrics,
            cache_ttl=ttl,
            negative_ttl=negative_ttl,
            clock=clock,
            foreign=foreign,
        )
        await cards.load_index()
        if settings.card_languages:
            await foreign.load(settings.cache_path, settings.card_languages)
        try:
            yield cards
        finally:
            cards.close()
