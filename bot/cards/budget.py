"""Scryfall's request limits for this process: one `aiolimiter.AsyncLimiter` per endpoint group, and the 429
pause.

Scryfall allows 2 requests/s to /cards/search, /cards/named, /cards/random and /cards/collection (group
"slow") and 10/s elsewhere (group "fast"); a 429 means every request must pause. Each group gets a leaky
bucket of capacity 1 that drains in `1 / (rate * scale * safety)` seconds, so requests of a group are
spaced at least that far apart (never two in one interval, whatever the burst). The limits are per
process: processes sharing a host split `SCRYFALL_RATE` between them (the composition root passes it as
`scale`).

    await budget.acquire("slow", deadline)   # returns at this request's turn, or raises BudgetExceeded
    ...send the request...
    budget.lock_out(seconds)                 # after a 429: every request of this process pauses

Time is the event loop's clock (`loop.time()`, what aiolimiter uses); deadlines are readings of it.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping

from aiolimiter import AsyncLimiter

DEFAULT_RATES: Mapping[str, float] = {"slow": 2.0, "fast": 10.0}  # Scryfall's published requests/s
SAFETY = 0.85  # fraction of the published limits actually used (margin for network jitter)


class BudgetExceeded(Exception):
    """No turn before the caller's deadline. `retry_after`: seconds until this caller's turn would have
    come (the queue ahead of it drained, any lockout over); `locked`: a 429 lockout is in force."""

    def __init__(self, retry_after: float, locked: bool) -> None:
        self.retry_after = max(0.0, retry_after)
        self.locked = locked
        what = "Scryfall asked us to slow down (429)" if locked else "Scryfall request budget exhausted"
        super().__init__(f"{what}; next turn in {self.retry_after:.2f} s")


def _now() -> float:
    return asyncio.get_running_loop().time()


class Budget:
    """Request turns per endpoint group and the 429 lockout for one process.

    `rates`: published requests per second per group; each group is used at `rate * scale * safety`.
    """

    def __init__(
        self, *, rates: Mapping[str, float] = DEFAULT_RATES, scale: float = 1.0, safety: float = SAFETY
    ) -> None:
        for name, value in (("scale", scale), ("safety", safety)):
            if not 0 < value <= 1:
                raise ValueError(f"{name} must be in (0, 1], got {value!r}")
        if not rates or any(not (r > 0 and math.isfinite(r)) for r in rates.values()):
            raise ValueError("rates must map at least one group to a positive requests/s figure")
        self.scale = scale
        self._intervals = {g: 1.0 / (r * scale * safety) for g, r in rates.items()}
        self._limiters = {g: AsyncLimiter(1, interval) for g, interval in self._intervals.items()}
        self._queued = dict.fromkeys(rates, 0)
        self._locked_until = -math.inf
        self.lockouts = 0

    def interval(self, group: str) -> float:
        """Seconds between two requests of `group` (ValueError for an unknown group)."""
        try:
            return self._intervals[group]
        except KeyError:
            raise ValueError(f"unknown budget group {group!r} (known: {sorted(self._intervals)})") from None

    def locked_for(self) -> float:
        """Seconds left in the current 429 lockout (0 when not locked)."""
        return max(0.0, self._locked_until - _now())

    def lock_out(self, seconds: float) -> None:
        """Record a 429: no request of this process goes for `seconds` from now."""
        self.lockouts += 1
        self._locked_until = max(self._locked_until, _now() + seconds)

    def can_go_now(self, group: str) -> bool:
        """Whether a request of `group` would go at once (nobody waiting, no lockout, a free turn)."""
        return not self._queued[group] and not self.locked_for() and self._limiters[group].has_capacity()

    async def acquire(self, group: str, deadline: float) -> None:
        """Wait for this request's turn in `group` and return at it.

        If the turn, or the end of a 429 lockout, would come after `deadline` (an event-loop time), raises
        `BudgetExceeded` at once. The wait is estimated from the requests queued ahead: each takes one
        interval, so the estimate is never shorter than the real wait."""
        interval = self.interval(group)
        limiter = self._limiters[group]
        while True:
            left = deadline - _now()
            locked = self.locked_for()
            if locked > left:
                raise BudgetExceeded(locked, locked=True)
            if locked:
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


__all__ = ["DEFAULT_RATES", "SAFETY", "Budget", "BudgetExceeded"]
