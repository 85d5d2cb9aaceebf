"""Scryfall's request limits for this process and the 429 pause (docs/card-data.md), on the loop's clock."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping

from aiolimiter import AsyncLimiter

DEFAULT_RATES: Mapping[str, float] = {"slow": 2.0, "fast": 10.0}  # Scryfall's published requests/s
SAFETY = 0.85  # fraction of the published limits actually used (margin for network jitter)


class BudgetExceeded(Exception):
    """No turn before the caller's deadline; `retry_after`: when it would have come; `locked`: by a 429."""

    def __init__(self, retry_after: float, locked: bool) -> None:
        self.retry_after, self.locked = max(0.0, retry_after), locked
        what = "Scryfall asked us to slow down (429)" if locked else "Scryfall request budget exhausted"
        super().__init__(f"{what}; next turn in {self.retry_after:.2f} s")


def _now() -> float:
    return asyncio.get_running_loop().time()


class Budget:
    """Request turns per endpoint group (at `rate * scale * SAFETY` per second; settings check `scale`) and the
    429 lockout. `limiter`: the turns' limiter class (tests give one on a fake clock)."""

    limiter: Callable[[float, float], AsyncLimiter] = AsyncLimiter

    def __init__(self, *, rates: Mapping[str, float] = DEFAULT_RATES, scale: float = 1.0) -> None:
        self.intervals = {g: 1.0 / (r * scale * SAFETY) for g, r in rates.items()}
        self._limiters = {g: self.limiter(1, interval) for g, interval in self.intervals.items()}
        self._queued = dict.fromkeys(rates, 0)
        self._locked_until = -math.inf
        self.lockouts = 0

    def locked_for(self) -> float:
        return max(0.0, self._locked_until - _now())

    async def pause(self, seconds: float) -> None:
        """The backoff between two attempts at a request (tests skip it on their clock)."""
        await asyncio.sleep(seconds)

    def lock_out(self, seconds: float) -> None:
        self.lockouts += 1
        self._locked_until = max(self._locked_until, _now() + seconds)

    def can_go_now(self, group: str) -> bool:
        return not self._queued[group] and not self.locked_for() and self._limiters[group].has_capacity()

    async def acquire(self, group: str, deadline: float) -> None:
        """Return at this request's turn in `group`; BudgetExceeded at once when the turn or the end of a
        lockout would come after `deadline` (estimated as one interval per request queued ahead: never
        shorter than the real wait)."""
        interval, limiter = self.intervals[group], self._limiters[group]
        while True:
            left = deadline - _now()
            if locked := self.locked_for():
                if locked > left:
                    raise BudgetExceeded(locked, locked=True)
                await asyncio.sleep(locked)
                continue
            queued = self._queued[group]
            turn = 0.0 if not queued and limiter.has_capacity() else (queued + 1) * interval
            if turn > left:
                raise BudgetExceeded(turn, locked=False)
            self._queued[group] += 1
            try:
                await limiter.acquire()
            finally:
                self._queued[group] -= 1
            if not self.locked_for():  # a 429 that came while this request waited holds it back too
                return
