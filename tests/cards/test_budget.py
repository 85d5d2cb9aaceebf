"""The Scryfall request budget: slot spacing, fairness, deadlines, 429 lockouts, clock jumps, and one budget
shared by several OS processes through the sidecar file (including processes killed mid-run)."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cards.budget import (
    BUSY_RETRY_AFTER,
    DEFAULT_RATES,
    SAFETY,
    Budget,
    BudgetExceeded,
    LocalBudget,
    SharedBudget,
    budget_path,
    open_budget,
)
from tests.fakes.fixtures import FakeClock
from tests.rates import max_in_window

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("local", "shared")

MakeBudget = Callable[..., Awaitable[Budget]]



def test_max_in_window_counts_correctly() -> None:
    assert max_in_window([0.0, 0.5, 0.99]) == 3
    assert max_in_window([1.0, 0.0, 0.5]) == 2
    assert max_in_window([0.0, 0.1, 0.2, 5.0]) == 3


@pytest.fixture
async def make_budget(tmp_path: Path) -> AsyncIterator[MakeBudget]:
    """Factory: `await make_budget(kind, **options)`: a LocalBudget, or a SharedBudget on a file in tmp_path.
    Every budget made is closed at the end."""
    made: list[Budget] = []

    async def make(kind: str, **options: Any) -> Budget:
        budget: Budget
        if kind == "local":
            budget = LocalBudget(**options)
        else:
            budget = await SharedBudget.open(tmp_path / f"cards.sqlite3{len(made)}.budget", **options)
        made.append(budget)
        return budget

    yield make
    for budget in made:
        await budget.close()


# ----------------------------------------------------------------------------------------------
# One process


@pytest.mark.parametrize("kind", KINDS)
async def test_many_tasks_are_spaced_per_group_and_use_the_whole_budget(make_budget: MakeBudget,
                                                                        kind: str) -> None:
    budget = await make_budget(kind, rates={"slow": 10.0, "fast": 40.0})
    granted: dict[str, list[float]] = {"slow": [], "fast": []}

    async def one(group: str) -> None:
        await budget.acquire(group, time.monotonic() + 30)
        granted[group].append(time.monotonic())

    await asyncio.gather(*(one("slow") for _ in range(20)), *(one("fast") for _ in range(50)))
    for group, rate in (("slow", 10.0), ("fast", 40.0)):
        times = sorted(granted[group])
        interval = budget.interval(group)
        assert interval == pytest.approx(1 / (rate * SAFETY))
        assert max_in_window(times) <= rate, f"more than {rate}/s granted to {group}"
        assert min(b - a for a, b in zip(times, times[1:], strict=False)) >= interval / 2
        span = times[-1] - times[0]
        assert span >= (len(times) - 1) * interval - 0.05  # spaced: never faster than the budget
        assert span <= (len(times) - 1) * interval + 1.0  # and the groups do not slow each other down
    assert budget.stats["granted"] == 70 and budget.stats["refused"] == 0


@pytest.mark.parametrize("kind", KINDS)
async def test_waiters_are_served_in_arrival_order(make_budget: MakeBudget, kind: str) -> None:
    budget = await make_budget(kind, rates={"slow": 25.0})
    order: list[int] = []

    async def one(i: int) -> None:
        await budget.acquire("slow", time.monotonic() + 30)
        order.append(i)

    tasks = [asyncio.create_task(one(i)) for i in range(15)]
    await asyncio.gather(*tasks)
    assert order == list(range(15))


@pytest.mark.parametrize("kind", KINDS)
async def test_deadline_refusal_is_immediate_and_says_when_the_next_slot_is(make_budget: MakeBudget,
                                                                            kind: str) -> None:
    budget = await make_budget(kind, rates={"slow": 2.0}, safety=1.0)  # one slot every 0.5 s
    assert budget.interval("slow") == 0.5
    t0 = time.monotonic()
    await budget.acquire("slow", t0 + 10)  # slot 0: at once
    assert time.monotonic() - t0 < 0.1
    queued = [asyncio.create_task(budget.acquire("slow", t0 + 10)) for _ in range(2)]  # slots 0.5, 1.0
    await asyncio.sleep(0.05)

    asked = time.monotonic()
    with pytest.raises(BudgetExceeded) as refused:
        await budget.acquire("slow", asked + 0.8)  # its slot would be 1.5 s after t0
    assert time.monotonic() - asked < 0.1, "a refusal must not wait"
    assert refused.value.locked is False
    assert refused.value.retry_after == pytest.approx(t0 + 1.5 - asked, abs=0.06)

    await budget.acquire("slow", time.monotonic() + 10)  # the refusal reserved nothing: slot 1.5
    assert 1.45 <= time.monotonic() - t0 < 1.8
    await asyncio.gather(*queued)
    assert budget.stats["refused"] == 1


@pytest.mark.parametrize("kind", KINDS)
async def test_a_lockout_refuses_short_deadlines_and_holds_long_ones(make_budget: MakeBudget,
                                                                     kind: str) -> None:
    budget = await make_budget(kind, rates={"slow": 2.0, "fast": 10.0}, safety=1.0)
    assert await budget.locked_for() == 0.0
    t0 = time.monotonic()
    await budget.lock_out(1.0)
    assert await budget.locked_for() == pytest.approx(1.0, abs=0.05)
    assert budget.locked_for_hint() == pytest.approx(1.0, abs=0.05)
    for group in ("slow", "fast"):
        with pytest.raises(BudgetExceeded) as refused:
            await budget.acquire(group, time.monotonic() + 0.3)
        assert refused.value.locked is True
        assert refused.value.retry_after == pytest.approx(1.0 - (time.monotonic() - t0), abs=0.06)
    assert time.monotonic() - t0 < 0.3
    await budget.lock_out(0.2)  # a shorter lockout never shortens the current one
    assert await budget.locked_for() == pytest.approx(1.0 - (time.monotonic() - t0), abs=0.05)

    await budget.acquire("fast", time.monotonic() + 3)
    assert 0.95 <= time.monotonic() - t0 < 1.4
    assert await budget.locked_for() == 0.0


@pytest.mark.parametrize("kind", KINDS)
async def test_a_lockout_that_starts_while_a_request_waits_stops_it(make_budget: MakeBudget,
                                                                    kind: str) -> None:
    budget = await make_budget(kind, rates={"slow": 2.0}, safety=1.0)
    t0 = time.monotonic()
    await budget.acquire("slow", t0 + 10)
    patient = asyncio.create_task(budget.acquire("slow", t0 + 10))  # slot at 0.5 s
    hasty = asyncio.create_task(budget.acquire("slow", t0 + 1.2))  # slot at 1.0 s
    await asyncio.sleep(0.1)
    await budget.lock_out(1.5)  # until about 1.6 s: past hasty's deadline, within patient's

    with pytest.raises(BudgetExceeded) as refused:
        await hasty
    assert refused.value.locked is True
    assert time.monotonic() - t0 < 1.3  # told at its slot, not after the lockout
    await patient
    assert time.monotonic() - t0 >= 1.55, "a request went out during a lockout"


@pytest.mark.parametrize("kind", KINDS)
async def test_a_waiter_that_wakes_late_pushes_the_next_one_back(make_budget: MakeBudget, kind: str) -> None:
    """Spacing holds on grant times, not just on reserved slots: a late wake-up (a busy event loop) must
    not bunch two requests together."""
    sleeps = 0

    async def first_sleep_oversleeps(seconds: float) -> None:
        nonlocal sleeps
        sleeps += 1
        await asyncio.sleep(seconds + (0.3 if sleeps == 1 else 0.0))

    budget = await make_budget(kind, rates={"slow": 2.0}, safety=1.0, sleep=first_sleep_oversleeps)
    granted: list[float] = []

    async def one() -> None:
        await budget.acquire("slow", time.monotonic() + 10)
        granted.append(time.monotonic())

    first = asyncio.create_task(one())  # at once
    await asyncio.sleep(0.01)
    await asyncio.gather(first, one(), one())  # slots 0.5 (woken at 0.8) and 1.0
    gaps = [b - a for a, b in zip(granted, granted[1:], strict=False)]
    assert gaps[0] >= 0.75  # the late one
    assert gaps[1] >= 0.5 - 0.01, f"two requests {gaps[1]:.3f} s apart"
    assert sleeps == 3  # the on-time waiter slept once more, for the late one


@pytest.mark.parametrize("kind", KINDS)
async def test_exact_arithmetic_and_a_backward_clock_jump_with_fake_clocks(make_budget: MakeBudget,
                                                                           kind: str) -> None:
    wall, mono = FakeClock(), FakeClock(1000.0)
    sleeps: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        wall.advance(seconds)
        mono.advance(seconds)

    budget = await make_budget(kind, rates={"slow": 2.0}, safety=1.0, clock=wall, monotonic=mono,
                               sleep=fake_sleep)
    await budget.acquire("slow", mono())  # uncontended: granted with a zero deadline, no sleep
    assert sleeps == []
    with pytest.raises(BudgetExceeded) as refused:
        await budget.acquire("slow", mono() + 0.4)
    assert (refused.value.retry_after, refused.value.locked) == (pytest.approx(0.5), False)
    await budget.acquire("slow", mono() + 0.5)  # waits exactly one interval
    assert sleeps == [pytest.approx(0.5)]

    await budget.lock_out(30)
    assert await budget.locked_for() == pytest.approx(30)
    wall.advance(-3600)  # the wall clock is stepped back an hour
    assert await budget.locked_for() == pytest.approx(30)
    with pytest.raises(BudgetExceeded) as locked:
        await budget.acquire("slow", mono() + 1)
    assert (locked.value.retry_after, locked.value.locked) == (pytest.approx(30), True)
    wall.advance(29.0)
    mono.advance(29.0)
    await budget.acquire("slow", mono() + 1.5)  # the rest of the lockout, not an hour
    assert sleeps[-1] == pytest.approx(1.0) and sum(sleeps) == pytest.approx(1.5)
    assert await budget.locked_for() == 0.0

    wall.advance(7200)  # a forward jump just lets the next request go at once
    await budget.acquire("slow", mono())
    assert len(sleeps) == 2


@pytest.mark.parametrize("kind", KINDS)
async def test_a_cancelled_waiter_gives_its_slot_back(make_budget: MakeBudget, kind: str) -> None:
    budget = await make_budget(kind, rates={"slow": 2.0}, safety=1.0)
    t0 = time.monotonic()
    await budget.acquire("slow", t0 + 10)
    waiter = asyncio.create_task(budget.acquire("slow", t0 + 10))  # slot at 0.5 s
    await asyncio.sleep(0.05)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await asyncio.sleep(0.02)
    await budget.acquire("slow", time.monotonic() + 10)  # takes the freed slot at 0.5 s, not 1.0 s
    assert 0.45 <= time.monotonic() - t0 < 0.8


async def test_bad_groups_and_settings_are_rejected() -> None:
    budget = LocalBudget()
    assert budget.rates == dict(DEFAULT_RATES)
    assert budget.interval("slow") == pytest.approx(1 / (2 * SAFETY))
    with pytest.raises(ValueError, match="unknown budget group"):
        await budget.acquire("medium", time.monotonic() + 1)
    assert LocalBudget(scale=0.5).interval("fast") == pytest.approx(2 * budget.interval("fast"))
    slow = budget.interval("slow")
    budget.lower_scale(0.5)
    budget.lower_scale(1.0)  # never raised again
    assert budget.scale == 0.5 and budget.interval("slow") == pytest.approx(2 * slow)
    bad: dict[str, Any]
    for bad in ({"scale": 0.0}, {"scale": 1.5}, {"safety": 0.0}, {"rates": {}}, {"rates": {"slow": -1.0}}):
        with pytest.raises(ValueError):
            LocalBudget(**bad)


# ----------------------------------------------------------------------------------------------
# The sidecar file


async def test_open_budget_uses_a_sidecar_next_to_the_cache(tmp_path: Path) -> None:
    assert isinstance(await open_budget(None), LocalBudget)
    assert isinstance(await open_budget(":memory:"), LocalBudget)
    for where in (":memory:", tmp_path / "clocked" / "cache.sqlite3"):
        clock = FakeClock()
        clocked = await open_budget(where, clock=clock)
        await clocked.lock_out(10)
        clock.advance(4)
        assert await clocked.locked_for() == pytest.approx(6)
        await clocked.close()
    cache = tmp_path / "data" / "cache.sqlite3"
    budget = await open_budget(cache, scale=0.5)
    try:
        assert isinstance(budget, SharedBudget) and budget.shared
        assert budget.path == budget_path(cache) == tmp_path / "data" / "cache.sqlite3.budget"
        assert budget.path.exists() and not cache.exists()  # the cache file itself is not touched
        assert budget.interval("slow") == pytest.approx(1 / (2 * 0.5 * SAFETY))
        await budget.acquire("slow", time.monotonic() + 1)
    finally:
        await budget.close()
    await budget.close()  # idempotent


async def test_a_garbage_budget_file_is_replaced(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    cache = tmp_path / "cache.sqlite3"
    budget_path(cache).write_bytes(b"this is not a database" * 100)
    with caplog.at_level(logging.ERROR, logger="bot.cards.budget"):
        budget = await open_budget(cache)
    try:
        assert isinstance(budget, SharedBudget) and budget.shared
        assert "unreadable" in caplog.text
        await budget.lock_out(5)
        assert await budget.locked_for() == pytest.approx(5, abs=0.1)
    finally:
        await budget.close()


async def test_an_unusable_location_falls_back_to_a_per_process_budget(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("x")
    with caplog.at_level(logging.ERROR, logger="bot.cards.budget"):
        budget = await open_budget(blocker / "cache.sqlite3")
    assert isinstance(budget, LocalBudget)
    assert "this process only" in caplog.text
    await budget.acquire("fast", time.monotonic() + 1)


async def test_a_long_cache_write_does_not_hold_up_the_budget(tmp_path: Path) -> None:
    """Why a sidecar: a bulk import holding the cache's write lock must not stall Scryfall requests."""
    cache = tmp_path / "cache.sqlite3"
    writer = sqlite3.connect(str(cache), isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("CREATE TABLE cards (id TEXT PRIMARY KEY)")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO cards VALUES ('x')")
    budget = await open_budget(cache)
    try:
        started = time.monotonic()
        for _ in range(3):
            await budget.acquire("fast", time.monotonic() + 0.5)
        await budget.lock_out(1)
        assert time.monotonic() - started < 0.6
    finally:
        writer.execute("ROLLBACK")
        writer.close()
        await budget.close()


# ----------------------------------------------------------------------------------------------
# Several OS processes on one file


def _worker_main() -> None:
    """Entry point of a worker process: `python -c '...' <budget file> <role> <json params>`."""
    asyncio.run(_worker(Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])))


def _say(obj: Any) -> None:
    sys.stdout.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
    sys.stdout.flush()


async def _worker(path: Path, role: str, params: dict[str, Any]) -> None:
    """Roles: `hammer` (tasks per group acquire in a loop for `seconds`, printing each grant's wall time),
    `lock` (record a lockout), `probe` (report the lockout and try one request), `hold` (take the file's
    write lock with plain SQLite and keep it until killed)."""
    if role == "hold":
        conn = sqlite3.connect(str(path), isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        _say("holding")
        await asyncio.sleep(120)
        return
    budget = await SharedBudget.open(path, rates=params.get("rates", DEFAULT_RATES))
    try:
        if role == "lock":
            await budget.lock_out(params["seconds"])
            _say({"locked_for": await budget.locked_for()})
        elif role == "probe":
            answer: dict[str, Any] = {"locked_for": await budget.locked_for()}
            try:
                await budget.acquire("slow", time.monotonic() + 0.2)
                answer["granted"] = True
            except BudgetExceeded as exc:
                answer.update(granted=False, retry_after=exc.retry_after, locked=exc.locked)
            _say(answer)
        elif role == "hammer":
            _say("ready")
            await asyncio.to_thread(sys.stdin.readline)
            end = time.time() + params["seconds"]

            async def hammer(group: str) -> None:
                while time.time() < end:
                    try:
                        await budget.acquire(group, time.monotonic() + params["horizon"])
                        _say({"g": group, "t": time.time()})
                    except BudgetExceeded:
                        _say({"g": group, "refused": time.time()})
                        await asyncio.sleep(0.05)

            await asyncio.gather(*(hammer(g) for g, n in params["tasks"].items() for _ in range(n)))
            _say("done")
    finally:
        await budget.close()


async def _spawn(path: Path, role: str, **params: Any) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from tests.cards.test_budget import _worker_main; _worker_main()",
        str(path), role, json.dumps(params), cwd=str(ROOT),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)


async def _line(proc: asyncio.subprocess.Process) -> str:
    """The worker's next output line (a minute at most: a worker starting on a busy machine)."""
    assert proc.stdout is not None
    async with asyncio.timeout(60):
        return (await proc.stdout.readline()).decode().strip()


async def _start_hammers(path: Path, n: int, **params: Any) -> list[asyncio.subprocess.Process]:
    """Start `n` hammer workers, wait until all are ready, then let them go together."""
    procs = [await _spawn(path, "hammer", **params) for _ in range(n)]
    for proc in procs:
        assert await _line(proc) == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    return procs


def _grants(output: bytes) -> list[dict[str, Any]]:
    """Parsed grant records of one worker's output (a killed worker's last line may be cut short)."""
    records = []
    for raw in output.decode().splitlines():
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if isinstance(record, dict) and "t" in record:
            records.append(record)
    return records


@pytest.mark.slow
@pytest.mark.parametrize("processes", [2, 3])
async def test_processes_sharing_the_file_stay_within_the_published_limits(tmp_path: Path,
                                                                           processes: int) -> None:
    path = tmp_path / "cache.sqlite3.budget"
    seconds = 4.0
    procs = await _start_hammers(path, processes, seconds=seconds, horizon=15.0,
                                 tasks={"slow": 3, "fast": 6})
    outputs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs)), 90)
    assert all(p.returncode == 0 for p in procs)
    per_process = [_grants(out) for out, _ in outputs]
    for group in ("slow", "fast"):
        rate = DEFAULT_RATES[group]
        merged = [r["t"] for grants in per_process for r in grants if r["g"] == group]
        assert max_in_window(merged) <= rate, f"{processes} processes exceeded {rate}/s on {group}"
        # The processes share one budget (together about as much as one process may send) and use it.
        assert len(merged) >= 0.7 * rate * SAFETY * seconds
        span = max(merged) - min(merged)
        assert len(merged) <= span * rate * SAFETY + 2
        counts = [sum(1 for r in grants if r["g"] == group) for grants in per_process]
        assert min(counts) >= len(merged) / (processes * 3), f"unfair split {counts}"


@pytest.mark.slow
async def test_a_lockout_recorded_by_one_process_is_honoured_by_the_others(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3.budget"
    here = await SharedBudget.open(path)
    try:
        locker = await _spawn(path, "lock", seconds=3.0)
        assert json.loads(await _line(locker))["locked_for"] == pytest.approx(3.0, abs=0.2)
        recorded = time.monotonic()
        await locker.wait()

        probe = await _spawn(path, "probe")
        answer = json.loads(await _line(probe))
        await probe.wait()
        assert answer["granted"] is False and answer["locked"] is True
        assert 0 < answer["locked_for"] <= 3.0 and answer["retry_after"] == pytest.approx(
            answer["locked_for"], abs=0.2)

        left = await here.locked_for()
        assert 0 < left <= 3.0 - (time.monotonic() - recorded) + 0.05
        with pytest.raises(BudgetExceeded) as refused:
            await here.acquire("fast", time.monotonic() + 0.1)
        assert refused.value.locked is True
        await here.acquire("fast", time.monotonic() + 5)
        assert time.monotonic() - recorded >= 3.0 - 0.25  # the lockout started before `recorded`
    finally:
        await here.close()


@pytest.mark.slow
async def test_a_process_killed_holding_the_file_lock_leaves_the_budget_usable(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3.budget"
    here = await SharedBudget.open(path)
    holder = await _spawn(path, "hold")
    try:
        assert await _line(holder) == "holding"
        asked = time.monotonic()
        with pytest.raises(BudgetExceeded) as busy:
            await here.acquire("fast", asked + 0.3)  # waits for the file only until its deadline
        assert (busy.value.retry_after, busy.value.locked) == (BUSY_RETRY_AFTER, False)
        assert 0.2 <= time.monotonic() - asked < 1.0
    finally:
        holder.kill()
        await holder.wait()
    asked = time.monotonic()
    await here.acquire("fast", asked + 2)
    await here.lock_out(0.1)
    assert time.monotonic() - asked < 0.5
    assert here.shared
    await here.close()


@pytest.mark.slow
async def test_a_process_killed_mid_run_leaves_the_budget_usable(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3.budget"
    horizon = 1.0  # a worker reserves at most this far ahead; a dead worker's slots pass within it
    victim, survivor = await _start_hammers(path, 2, seconds=4.0, horizon=horizon,
                                            tasks={"slow": 2, "fast": 4})
    await asyncio.sleep(1.5)
    victim.kill()
    killed = time.time()
    (victim_out, _), (survivor_out, _) = await asyncio.wait_for(
        asyncio.gather(victim.communicate(), survivor.communicate()), 60)
    assert survivor.returncode == 0
    victim_grants, survivor_grants = _grants(victim_out), _grants(survivor_out)
    assert victim_grants, "the victim never got a slot before it was killed"
    for group in ("slow", "fast"):
        merged = [r["t"] for r in victim_grants + survivor_grants if r["g"] == group]
        assert max_in_window(merged) <= DEFAULT_RATES[group]
    after = [r["t"] for r in survivor_grants if r["g"] == "fast" and r["t"] > killed + horizon + 0.2]
    end = max(r["t"] for r in survivor_grants)
    # Once the dead worker's reservations have passed, the survivor gets the whole budget.
    assert len(after) >= 0.6 * DEFAULT_RATES["fast"] * SAFETY * (end - killed - horizon - 0.2)
