"""BulkRefresher: the card data's refresh, then the printed names' and `also`'s (the combos), and the reload
of data another process imported (docs/card-data.md)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, wait_exponential

from bot.cards.allcards import imported_languages, sync_printed_names
from bot.cards.bulk import ImportResult, sync_from_scryfall
from bot.cards.service import CardService

log = logging.getLogger(__name__)

WATCH_SECONDS = 30.0


class Refreshable(Protocol):
    """More data refreshed after the card data, on its own schedule."""

    def due_in(self) -> float: ...

    async def refresh_due(self) -> object: ...


class BulkRefresher:
    """The background refresh and watch of one card service (start with `start()`, end with `stop()`)."""

    def __init__(
        self,
        cards: CardService,
        *,
        every_hours: float,
        watch_seconds: float = WATCH_SECONDS,
        clock: Callable[[], float] = time.time,
        languages: Sequence[str] = (),
        also: Sequence[Refreshable] = (),
    ) -> None:
        self.cards = cards
        self.also = tuple(also)
        self.languages = tuple(languages)
        self.period = every_hours * 3600
        self.watch_seconds = watch_seconds
        self._clock = clock
        self._tasks: list[asyncio.Task[None]] = []
        self._lock = asyncio.Lock()
        self.failures = 0

    def start(self) -> None:
        if self.cards.cache.in_memory or self._tasks:
            return
        self._tasks.append(asyncio.create_task(self._watch(), name="bulk-watch"))
        if self.period > 0:
            self._tasks.append(asyncio.create_task(self._refresh_loop(), name="bulk-refresh"))

    async def stop(self) -> None:
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def refresh_now(self) -> ImportResult:
        """Download and import oracle_cards now, then reload the index (one refresh at a time)."""
        async with self._lock:
            result = await sync_from_scryfall(self.cards.client, self.cards.cache.path)
            await self.cards.load_index()
            log.info("bulk data: imported %d cards in %.1f s", result.cards, result.seconds)
            return result

    async def refresh_printed(self) -> bool:
        """Import the printed names when one of `languages` is missing or older than the period, then
        (re)load their index; False when nothing was imported."""
        if not self.languages:
            return False
        db_path = Path(self.cards.cache.path)
        imported = await asyncio.to_thread(imported_languages, db_path)
        due = (
            not set(self.languages) <= set(imported)
            or min(imported[lang] for lang in self.languages) + self.period <= self._clock()
        )
        if due:
            async with self._lock:
                result = await sync_printed_names(self.cards.client, db_path, self.languages)
            log.info("printed names: kept %d names in %.1f s", result.names, result.seconds)
        if due or self.cards.foreign.index is None:
            await self.cards.foreign.load(db_path, self.languages)
        return due

    async def refresh_due(self) -> None:
        """The oracle data when it is due, then the printed names and `also` when they are."""
        if self._due_in() <= 0:
            await self.refresh_now()
        await self.refresh_printed()
        for data in self.also:
            await data.refresh_due()

    def _due_in(self) -> float:
        last = self.cards.bulk_imported_at if self.cards.index_complete else None
        return 0.0 if last is None else max(0.0, last + self.period - self._clock())

    def _failed(self, state: RetryCallState) -> None:
        self.failures = state.attempt_number
        wait = state.next_action.sleep if state.next_action is not None else 0.0
        failure = state.outcome.exception() if state.outcome is not None else None
        log.warning("bulk data refresh failed (%s); next try in %.0f s", failure, wait)

    async def _refresh_loop(self) -> None:
        while True:
            retrying = AsyncRetrying(
                wait=wait_exponential(multiplier=60, max=min(self.period, 3600)),
                retry=retry_if_exception_type(Exception),
                before_sleep=self._failed,
            )
            async for attempt in retrying:  # retried after 1, 2, 4, ... minutes; cancellation ends it
                with attempt:
                    await self.refresh_due()
            self.failures = 0
            await asyncio.sleep(min([self._due_in(), *(data.due_in() for data in self.also)]))

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.watch_seconds)
            try:
                stamp = (await self.cards.cache.get_metas(["bulk_imported_at"])).get("bulk_imported_at")
            except Exception as exc:  # a broken cache is reported by lookups and health, not here
                log.debug("bulk watch could not read the cache: %s", exc)
                continue
            if stamp is not None and float(stamp) != self.cards.bulk_imported_at and not self._lock.locked():
                log.info("newer bulk data in the cache (another process imported it); reloading")
                await self.cards.load_index()
                await self.cards.foreign.load(self.cards.cache.path, self.languages)
