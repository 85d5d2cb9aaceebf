"""Rate measurements shared by the politeness tests (Scryfall's limits, the shared budget)."""

from __future__ import annotations

import asyncio
from typing import Any


def max_in_window(times: list[float], window: float = 1.0) -> int:
    """Largest number of timestamps inside any half-open window of `window` seconds (any order)."""
    times = sorted(times)
    best = 0
    j = 0
    for i, t in enumerate(times):
        while times[j] <= t - window:
            j += 1
        best = max(best, i - j + 1)
    return best


async def turn(service: Any, path: str) -> None:
    """Let the loop's time pass (a fake clock under looptime) until a request to `path` can go at once."""
    for _ in range(600):
        if service.client.can_go_now(path):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"no free turn for {path} within 60 s")
