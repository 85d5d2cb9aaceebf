"""Fixtures of the deck tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    """An aiohttp session for the deck-site clients under test."""
    async with aiohttp.ClientSession() as s:
        yield s
