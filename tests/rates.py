"""Rate measurements shared by the politeness tests (Scryfall's limits, the shared budget)."""

from __future__ import annotations


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
