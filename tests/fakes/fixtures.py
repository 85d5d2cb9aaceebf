"""Pytest fixtures around the fake Scryfall; import them into a test module or conftest:

    from tests.fakes.fixtures import fake_scryfall, card_service, make_card_service  # noqa: F401
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import pytest

from bot.cards.service import CardService
from bot.main import open_cards
from bot.settings import Settings, load_settings
from tests.fakes.scryfall import FakeScryfall


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


@pytest.fixture
async def make_card_service(fake_scryfall: FakeScryfall, tmp_path: Any
                            ) -> AsyncIterator[Callable[..., Awaitable[CardService]]]:
    """Factory: `await make_card_service(**settings_overrides, clock=..., lockout_seconds=...)`, built by the
    composition root (`bot.main.open_cards`). Services share the fake and `tmp_path`; all close at the end."""
    async with AsyncExitStack() as stack:

        async def make(*, clock: Any = None, lockout_seconds: float | None = None,
                       **overrides: Any) -> CardService:
            kwargs: dict[str, Any] = {}
            if clock is not None:
                kwargs["clock"] = clock
            if lockout_seconds is not None:
                kwargs["lockout_seconds"] = lockout_seconds
            settings = fake_settings(fake_scryfall, tmp_path, **overrides)
            return await stack.enter_async_context(open_cards(settings, **kwargs))

        yield make


@pytest.fixture
async def card_service(make_card_service: Callable[..., Awaitable[CardService]]) -> CardService:
    """A CardService with an empty cache talking to `fake_scryfall`."""
    return await make_card_service()
