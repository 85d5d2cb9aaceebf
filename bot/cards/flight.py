"""Sharing Scryfall requests: identical calls share one execution (`SingleFlight`); exact names needing
Scryfall together travel in one `/cards/collection` request (`CollectionBatcher`). Hand-written: asyncio has
no single-flight, and async-lru would also keep the answers, which the card cache alone decides."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from bot.cards.model import MAX_COLLECTION
from bot.cards.rows import name_keys

Card = dict[str, Any]
Collect = Callable[[Callable[[], list[dict[str, str]]]], Awaitable[list[Card]]]


class SingleFlight:
    """Concurrent calls with the same key share one execution of the coroutine."""

    def __init__(self) -> None:
        self._tasks: dict[Any, asyncio.Task[Any]] = {}

    async def run(self, key: Any, factory: Callable[[], Awaitable[Any]]) -> Any:
        if (task := self._tasks.get(key)) is None:
            task = self._tasks[key] = asyncio.ensure_future(factory())
            task.add_done_callback(functools.partial(self._done, key))
        return await asyncio.shield(task)

    def _done(self, key: Any, task: asyncio.Task[Any]) -> None:
        if self._tasks.get(key) is task:
            del self._tasks[key]
        if not task.cancelled():
            task.exception()  # mark as retrieved; every waiter gets it re-raised

    def cancel_all(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()

    async def aclose(self) -> None:
        """Cancel every call under way and wait until they have ended."""
        tasks = list(self._tasks.values())
        self.cancel_all()
        await asyncio.gather(*tasks, return_exceptions=True)  # nobody is waiting any more


def by_name_key(cards: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Cards by each full and face name key; the first card with a key keeps it."""
    by_key: dict[str, dict[str, Any]] = {}
    for card in cards:
        for key, _kind in name_keys(card):
            by_key.setdefault(key, card)
    return by_key


class CollectionBatcher:
    """Names that need Scryfall together travel in one `/cards/collection` request (75 names, taken when
    its turn comes). `find` gives the card of that exact key, or None (ask the fuzzy endpoint then)."""

    def __init__(self, collect: Collect) -> None:
        self.collect = collect
        self._pending: dict[str, tuple[str, list[asyncio.Future[dict[str, Any] | None]]]] = {}
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    async def find(self, query: str, key: str) -> dict[str, Any] | None:
        future: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self._pending.setdefault(key, (query, []))[1].append(future)
        if not self.busy:
            self._task = asyncio.create_task(self._run(), name="scryfall-collection-batch")
        return await asyncio.shield(future)

    async def _run(self) -> None:
        while self._pending:
            await self._send_one()

    async def _send_one(self) -> None:
        taken: dict[str, tuple[str, list[asyncio.Future[dict[str, Any] | None]]]] = {}

        def take() -> list[dict[str, str]]:
            for key in list(self._pending)[:MAX_COLLECTION]:
                taken[key] = self._pending.pop(key)
            return [{"name": query} for query, _futures in taken.values()]

        try:
            cards = await self.collect(take)
        except BaseException as exc:
            waiting = taken or dict(self._pending)  # failed before its slot came: everyone waiting
            if not taken:
                self._pending.clear()
            for _query, futures in waiting.values():
                for future in futures:
                    if not future.done():
                        future.set_exception(exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
            return
        by_key = by_name_key(cards)
        for key, (_query, futures) in taken.items():
            for future in futures:
                if not future.done():
                    future.set_result(by_key.get(key))

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
