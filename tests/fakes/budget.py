"""Scryfall's request budget on a fake clock, for the tests that wait on Scryfall's pace without testing it.

`FastForwardBudget()` is the bot's `Budget` (the same intervals, queue estimates and 429 lockout) whose turns
are kept on a `SkipClock`: the event loop's time plus every wait for a turn skipped so far. Where the real
limiter would sleep until the turn comes, the clock jumps to it and the request goes at once. So `can_go_now`
answers as in production (a turn is taken for one interval after each request), but no test waits on it.
Requests are never held in a queue, so the budget never runs out before a deadline (ScryfallBusy): tests of
the pace itself use `Budget()` on looptime's fake loop clock (tests/cards/test_budget.py,
test_scryfall_rate.py).
"""

from __future__ import annotations

import asyncio

from bot.cards.budget import Budget


class SkipClock:
    """The running event loop's time plus every wait skipped so far (`skip`)."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return asyncio.get_running_loop().time() + self.skipped

    def skip(self, seconds: float) -> None:
        self.skipped += max(0.0, seconds)


class SkippingLimiter:
    """aiolimiter's leaky bucket (`max_rate` per `time_period`, the `has_capacity` and `acquire` the budget
    uses) on `clock`: where `acquire` would sleep until enough capacity has leaked out, the clock skips
    ahead that far."""

    def __init__(self, max_rate: float, time_period: float, clock: SkipClock) -> None:
        self.max_rate, self.time_period, self.clock = max_rate, time_period, clock
        self._level = 0.0
        self._last: float | None = None

    def _leak(self) -> None:
        now = self.clock()
        if self._last is not None:
            self._level = max(0.0, self._level - (now - self._last) * self.max_rate / self.time_period)
        self._last = now

    def has_capacity(self, amount: float = 1) -> bool:
        self._leak()
        return self._level + amount <= self.max_rate

    async def acquire(self, amount: float = 1) -> None:
        if not self.has_capacity(amount):
            self.clock.skip((self._level + amount - self.max_rate) * self.time_period / self.max_rate)
            self._leak()
            self._level = min(self._level, self.max_rate - amount)  # no float residue left to wait for
            await asyncio.sleep(0)  # other tasks run, as they would have during the wait
        self._level += amount


class FastForwardBudget(Budget):
    """`Budget(**options)` whose waits for a turn pass at once (`clock`: the turns' clock)."""

    def __init__(self, **options: object) -> None:
        self.clock = SkipClock()
        super().__init__(**options)  # type: ignore[arg-type]

    def limiter(self, max_rate: float, time_period: float) -> SkippingLimiter:  # type: ignore[override]
        return SkippingLimiter(max_rate, time_period, self.clock)

    async def pause(self, seconds: float) -> None:
        """A backoff between attempts passes at once too (the turns' clock skips it)."""
        self.clock.skip(seconds)
        await asyncio.sleep(0)
