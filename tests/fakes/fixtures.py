"""Pytest fixtures around the fake Scryfall and the card cache (a plugin of tests/conftest.py):
fake_scryfall, make_card_service, card_service, imported_cache, card_cache_copy.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

try:
    import fcntl
except ImportError:  # Windows: no lock, so two workers may each build a file (the last one stays)
    fcntl = None  # type: ignore[assignment]

from bot.cards.service import CardService
from bot.compose import open_cards
from bot.settings import Settings, load_settings
from tests.fakes.budget import FastForwardBudget
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import copy_database, import_bulk


class FakeClock:
    """A clock tests move by hand: `clock()` returns the time, `clock.advance(seconds)` moves it."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def fake_settings(fake: FakeScryfall, tmp_path: Any, **overrides: Any) -> Settings:
    """Settings pointing at `fake`, with a cache in `tmp_path` and background sync off."""
    values: dict[str, Any] = {
        "scryfall_api_base": fake.base_url,
        "cache_path": tmp_path / "cache" / "cards.sqlite3",
        "bulk_refresh_hours": 0,
        "scryfall_timeout": 3.0,
        "mana_emoji_upload": False,
    }
    values.update(overrides)
    return load_settings(**values)


@pytest.fixture
async def fake_scryfall() -> AsyncIterator[FakeScryfall]:
    """A running fake Scryfall serving the whole shared data set."""
    async with FakeScryfall.with_shared_data() as fake:
        yield fake


@asynccontextmanager
async def card_services(
    fake: FakeScryfall, tmp_path: Any
) -> AsyncIterator[Callable[..., Awaitable[CardService]]]:
    """`make_card_service`'s factory for `fake` and `tmp_path` (for a fixture on another event loop)."""
    async with AsyncExitStack() as stack:

        async def make(
            *,
            clock: Any = None,
            lockout_seconds: float | None = None,
            budget: Any = None,
            backoff: float | None = None,
            **overrides: Any,
        ) -> CardService:
            kwargs: dict[str, Any] = {"budget": FastForwardBudget() if budget is None else budget}
            if clock is not None:
                kwargs["clock"] = clock
            if lockout_seconds is not None:
                kwargs["lockout_seconds"] = lockout_seconds
            if backoff is not None:  # the retries' backoff (0: at once, for tests not of the retry timing)
                kwargs["backoff"] = backoff
            settings = fake_settings(fake, tmp_path, **overrides)
            return await stack.enter_async_context(open_cards(settings, **kwargs))

        yield make


@pytest.fixture
async def make_card_service(
    fake_scryfall: FakeScryfall, tmp_path: Any
) -> AsyncIterator[Callable[..., Awaitable[CardService]]]:
    """Factory: `await make_card_service(**settings_overrides, clock=..., lockout_seconds=..., budget=...,
    backoff=...)`, built by the composition root (`bot.main.open_cards`). Services share the fake and
    `tmp_path`; all close at the end. The Scryfall budget is a `FastForwardBudget` (no wait for a turn) unless the test gives its own."""
    async with card_services(fake_scryfall, tmp_path) as make:
        yield make


@pytest.fixture
async def card_service(make_card_service: Callable[..., Awaitable[CardService]]) -> CardService:
    """A CardService with an empty cache talking to `fake_scryfall`."""
    return await make_card_service()


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]) -> Path:
    """The file `name` in a folder all pytest-xdist workers of this run share, written by `build(path)` in
    the first worker that asks for it while the others wait (their setup needs it too): work done once per
    run, not once per worker. `build` must leave a whole file (a SQLite database closed)."""
    base = tmp_path_factory.getbasetemp()
    folder = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    path = folder / name
    with (folder / f"{name}.lock").open("w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not path.exists():
            part = folder / f"{name}.part"
            part.unlink(missing_ok=True)  # a build that failed in another worker
            build(part)
            part.replace(path)
    return path


@pytest.fixture(scope="session")
def card_cache_copy(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """`card_cache_copy(path)`: a card cache at `path` holding the shared data set, as `python -m bot
    sync-cards` imports it. The import runs once per run (`built_once`); every call copies that database,
    so each test (or module) owns its file."""
    template = built_once(tmp_path_factory, "imported-cards.sqlite3", import_bulk)
    return lambda path: copy_database(template, path)


@pytest.fixture
def imported_cache(card_cache_copy: Callable[[Path], Path], tmp_path: Path) -> Path:
    """This test's own card cache, `tmp_path / "cache.sqlite3"`, holding the imported shared data set."""
    return card_cache_copy(tmp_path / "cache.sqlite3")
