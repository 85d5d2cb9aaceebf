"""Scryfall's request budget for one process: turn spacing per group, deadlines, 429 lockouts.

Every test runs on looptime's fake event-loop clock: `asyncio.sleep` and aiolimiter's timers move the loop's
time forward at once, so the figures below are exact and nothing sleeps for real."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.cards.budget import DEFAULT_RATES, SAFETY, Budget, BudgetExceeded
from tests.rates import max_in_window

pytestmark = pytest.mark.looptime


def now() -> float:
    return asyncio.get_running_loop().time()


def test_max_in_window_counts_correctly() -> None:
    assert max_in_window([0.0, 0.5, 0.99]) == 3
    assert max_in_window([1.0, 0.0, 0.5]) == 2
    assert max_in_window([0.0, 0.1, 0.2, 5.0]) == 3


async def test_many_tasks_are_spaced_per_group_and_use_the_whole_budget() -> None:
    budget = Budget(rates={"slow": 10.0, "fast": 40.0})
    granted: dict[str, list[float]] = {"slow": [], "fast": []}

    async def one(group: str) -> None:
        await budget.acquire(group, now() + 30)
        granted[group].append(now())

    await asyncio.gather(*(one("slow") for _ in range(20)), *(one("fast") for _ in range(50)))
    for group, rate in (("slow", 10.0), ("fast", 40.0)):
        times = sorted(granted[group])
        interval = budget.intervals[group]
        assert interval == pytest.approx(1 / (rate * SAFETY))
        assert max_in_window(times) <= rate * SAFETY + 1, f"more than {rate}/s granted to {group}"
        assert min(b - a for a, b in itertools.pairwise(times)) >= interval - 1e-6
        assert times[-1] - times[0] == pytest.approx((len(times) - 1) * interval, abs=0.01)  # no slower


async def test_default_rates_are_scryfalls_at_85_percent_scaled_by_the_setting() -> None:
    assert Budget().intervals["slow"] == pytest.approx(1 / (DEFAULT_RATES["slow"] * 0.85))
    assert Budget().intervals["fast"] == pytest.approx(1 / (10 * 0.85))
    assert Budget(scale=0.5).intervals["slow"] == pytest.approx(1 / (2 * 0.85 * 0.5))


async def test_waiters_are_served_in_arrival_order() -> None:
    budget = Budget(rates={"slow": 25.0})
    order: list[int] = []

    async def one(i: int) -> None:
        await budget.acquire("slow", now() + 30)
        order.append(i)

    await asyncio.gather(*(asyncio.create_task(one(i)) for i in range(15)))
    assert order == list(range(15))


async def test_deadline_refusal_is_immediate_and_says_when_the_turn_would_come() -> None:
    budget = Budget(rates={"slow": 2.0 / SAFETY})  # one turn every 0.5 s
    start = now()
    await budget.acquire("slow", start + 0.1)  # free: goes at once
    waiting = [asyncio.create_task(budget.acquire("slow", start + 10)) for _ in range(3)]
    await asyncio.sleep(0)
    with pytest.raises(BudgetExceeded) as err:
        await budget.acquire("slow", start + 1.0)  # three queued ahead: its turn is 2 s away
    assert now() == start and not err.value.locked
    assert err.value.retry_after == pytest.approx(2.0)
    assert not budget.can_go_now("slow")
    await asyncio.gather(*waiting)
    assert now() - start == pytest.approx(1.5, abs=0.01)


async def test_a_lockout_refuses_short_deadlines_and_holds_long_ones() -> None:
    budget = Budget()
    budget.lock_out(30)
    assert budget.locked_for() == pytest.approx(30)
    assert not budget.can_go_now("fast")
    start = now()
    with pytest.raises(BudgetExceeded) as err:
        await budget.acquire("fast", start + 8)
    assert err.value.locked and err.value.retry_after == pytest.approx(30) and now() == start
    await budget.acquire("fast", start + 40)  # a deadline past the lockout waits it out
    assert now() - start == pytest.approx(30, abs=0.01)
    assert budget.locked_for() == 0 and budget.lockouts == 1


async def test_a_lockout_that_starts_while_a_request_waits_stops_it() -> None:
    budget = Budget(rates={"slow": 2.0 / SAFETY})
    start = now()
    await budget.acquire("slow", start + 1)
    waiter = asyncio.create_task(budget.acquire("slow", start + 5))
    await asyncio.sleep(0.1)
    budget.lock_out(30)  # a 429 arrives while the waiter waits for its turn
    with pytest.raises(BudgetExceeded) as err:
        await waiter
    assert err.value.locked and now() - start == pytest.approx(0.5, abs=0.01)


async def test_a_cancelled_waiter_leaves_the_queue() -> None:
    budget = Budget(rates={"slow": 2.0 / SAFETY})
    start = now()
    await budget.acquire("slow", start + 1)
    waiter = asyncio.create_task(budget.acquire("slow", start + 5))
    await asyncio.sleep(0.1)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await budget.acquire("slow", start + 5)  # the cancelled one no longer counts ahead of it
    assert now() - start == pytest.approx(0.5, abs=0.01)


async def test_a_deadline_already_past_is_no_lockout() -> None:
    """A retry whose deadline went by during a slow attempt is "busy", never a 429 that did not happen."""
    with pytest.raises(BudgetExceeded) as caught:
        await Budget().acquire("slow", now() - 1)
    assert not caught.value.locked
