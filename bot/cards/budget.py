"""One Scryfall request budget per host, shared by every process that uses the same card cache.

Scryfall allows 2 requests/s to /cards/search, /cards/named, /cards/random and /cards/collection (group
"slow") and 10/s elsewhere (group "fast"), and a 429 means every request must pause. A budget hands out
request slots for each group, spaced `1 / (rate * scale * safety)` seconds apart, and records 429
lockouts, so the Scryfall client calls it before every request:

    await budget.acquire("slow", deadline)   # sleeps until this request's slot, or raises BudgetExceeded
    ...send the request...
    await budget.lock_out(seconds)           # after a 429; every process sharing the budget pauses

Two implementations with one interface (`Budget`):

- `SharedBudget`: the state lives in a small SQLite file next to the cache (`<cache file>.budget`, see
  `budget_path`), so all processes on one host that share `CACHE_PATH` share one budget. It is a sidecar
  rather than a table in the cache because the bulk import holds the cache's write lock for a whole batch
  (2,000 cards, tens of milliseconds and more on a busy host, longer for its final commit): every
  request would queue behind it, and the budget's own writes (one or two per request) would compete with
  cache writers for the same lock and grow the cache's WAL. The sidecar's transactions last
  microseconds and are the only writers of that file.
- `LocalBudget`: the same algorithm on an in-process state, for an in-memory cache (no file) or as the
  fallback when the sidecar cannot be opened.

The algorithm (`_reserve`, `_confirm`; identical for both): each group keeps `next` (the next free slot)
and `grant` (when the last request was let through). `acquire` first *reserves* the slot
max(now, next, grant + interval, lockout end) in one atomic step, moving `next` one interval past it;
callers therefore queue in arrival order (first come, first served) across processes and sleep without
polling. When the slot lies beyond the caller's deadline nothing is reserved and `BudgetExceeded` is
raised at once. On waking it *confirms* in a second atomic step: the request goes only if at least one
interval has passed since the last grant *and* no lockout began meanwhile; otherwise it sleeps again (or
gives up at its deadline). The confirmation makes the spacing a hard guarantee on grant times even when a
process wakes late or a lockout arrives while it sleeps. An uncontended acquire grants in the first step.

Clocks. The shared state is kept in wall-clock seconds (`time.time`): it is the one clock every process
and container on a host reads alike, and it keeps its meaning across restarts and reboots (a lockout
recorded before a restart still holds after it). Steps run one at a time and read the clock inside the
lock, so the clock never goes backwards between steps except by a clock jump: a step that sees a time
earlier than the last one recorded shifts every stored time back by the difference, so a backward jump
never stalls the budget (a forward jump lets at most one request per group through early and shortens
a lockout by the jump). Deadlines are the caller's process clock (`time.monotonic`, which is
`loop.time()` for asyncio's default loop). Atomicity across processes is SQLite's `BEGIN IMMEDIATE` on
the sidecar (WAL mode, so readers never wait); no lock is held between steps, so a crashed process
holds nothing (the OS drops its file locks), and the slots it reserved simply pass unused. All SQLite
work runs on one worker thread per budget, never on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

log = logging.getLogger(__name__)

DEFAULT_RATES: Mapping[str, float] = {"slow": 2.0, "fast": 10.0}  # Scryfall's published requests/s
SAFETY = 0.85  # fraction of the published limits actually used (margin for network jitter)
BUDGET_SUFFIX = ".budget"
BUSY_RETRY_AFTER = 1.0  # retry_after reported when another process holds the budget file too long

_SEEN = "seen"  # the latest clock reading any step recorded
_LOCK = "locked_until"  # end of the current 429 lockout

T = TypeVar("T")
State = dict[str, float]


class BudgetExceeded(Exception):
    """No slot before the caller's deadline. `retry_after`: seconds until the earliest slot this caller
    could have had (the queue ahead of it drained, any lockout over); `locked`: a 429 lockout is in force."""

    def __init__(self, retry_after: float, locked: bool) -> None:
        self.retry_after = max(0.0, retry_after)
        self.locked = locked
        what = "Scryfall asked us to slow down (429)" if locked else "Scryfall request budget exhausted"
        super().__init__(f"{what}; next slot in {self.retry_after:.2f} s")


# ----------------------------------------------------------------------------------------------
# The ledger: pure steps over a state dict (every value a clock reading), applied atomically by a store.


@dataclass(frozen=True, slots=True)
class _Step:
    """Outcome of one atomic step: go now, sleep until `at` (shared clock), or refuse."""

    kind: Literal["grant", "wait", "refuse"]
    at: float = 0.0
    retry_after: float = 0.0
    locked: bool = False


_GRANT = _Step("grant")


def _next_key(group: str) -> str:
    return "next:" + group


def _grant_key(group: str) -> str:
    return "grant:" + group


def _rebase(state: State, now: float) -> None:
    """Record `now`; if the clock went back since the last step, shift every stored time back with it."""
    seen = state.get(_SEEN)
    if seen is not None and now < seen:
        shift = seen - now
        for key in state:
            state[key] -= shift
    state[_SEEN] = now


def _lock_end(state: State, floor: float) -> float:
    return max(state.get(_LOCK, -math.inf), floor)


def _reserve(state: State, group: str, interval: float, now: float, left: float, floor: float) -> _Step:
    """Grant at once, or reserve the group's next free slot if it lies within `left` seconds, or refuse.

    `floor` is a lockout end known only to this process (recorded while the shared state was unusable)."""
    _rebase(state, now)
    lock_end = _lock_end(state, floor)
    last = state.get(_grant_key(group), -math.inf)
    slot = max(now, state.get(_next_key(group), -math.inf), last + interval, lock_end)
    if slot <= now:
        state[_grant_key(group)] = now
        state[_next_key(group)] = now + interval
        return _GRANT
    wait = slot - now
    if wait > left:
        return _Step("refuse", retry_after=wait, locked=lock_end > now)
    state[_next_key(group)] = slot + interval
    return _Step("wait", at=slot)


def _confirm(state: State, group: str, interval: float, now: float, left: float, floor: float) -> _Step:
    """At (or after) a reserved slot: grant if an interval has passed since the last grant and no lockout
    is in force; otherwise say when to look again, or refuse if that is past the deadline."""
    _rebase(state, now)
    lock_end = _lock_end(state, floor)
    earliest = max(state.get(_grant_key(group), -math.inf) + interval, lock_end)
    if now >= earliest:
        state[_grant_key(group)] = now
        state[_next_key(group)] = max(state.get(_next_key(group), -math.inf), now + interval)
        return _GRANT
    wait = earliest - now
    if wait > left:
        return _Step("refuse", retry_after=wait, locked=lock_end > now)
    return _Step("wait", at=earliest)


def _release(state: State, group: str, slot: float, interval: float) -> None:
    """Give back a reserved, unused slot if it is still the last one in the queue."""
    key = _next_key(group)
    if state.get(key) == slot + interval:
        state[key] = slot


def _lock_out(state: State, now: float, seconds: float) -> float:
    """Extend the lockout to at least `seconds` from now; returns its end."""
    _rebase(state, now)
    state[_LOCK] = max(state.get(_LOCK, -math.inf), now + seconds)
    return state[_LOCK]


def _locked_for(state: State, now: float) -> float:
    """Seconds left in the lockout (read-only; measured from the latest time any step saw)."""
    return max(0.0, state.get(_LOCK, -math.inf) - max(now, state.get(_SEEN, now)))


# ----------------------------------------------------------------------------------------------
# The interface and the acquire loop (shared by both stores)


def _check_fraction(name: str, value: float) -> None:
    if not 0 < value <= 1:
        raise ValueError(f"{name} must be in (0, 1], got {value!r}")


class Budget(ABC):
    """Scryfall request slots per endpoint group and the 429 lockout, one state per store.

    `rates`: published requests per second per group; every group is used at `rate * scale * safety`.
    `clock`: the store's clock (seconds; shared by all users of the store); `monotonic`: this process's
    clock for deadlines; `sleep`: how to wait (tests inject fakes for all three).
    """

    def __init__(self, *, rates: Mapping[str, float] = DEFAULT_RATES, scale: float = 1.0,
                 safety: float = SAFETY, clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        _check_fraction("scale", scale)
        _check_fraction("safety", safety)
        if not rates or any(not (r > 0 and math.isfinite(r)) for r in rates.values()):
            raise ValueError("rates must map at least one group to a positive requests/s figure")
        self.rates = dict(rates)
        self.scale = scale
        self.safety = safety
        self._intervals = self._intervals_for(scale)
        self._clock = clock
        self._monotonic = monotonic
        self._sleep = sleep
        self._hint = -math.inf  # latest lockout end this process has seen (store clock)
        self._local_lock = -math.inf  # a lockout this process could not record in the store
        self._background: set[asyncio.Task[None]] = set()
        self.stats: dict[str, int] = {"granted": 0, "waited": 0, "refused": 0, "lockouts": 0}

    # -- the store: apply one pure step atomically ---------------------------------------------------

    @abstractmethod
    async def _apply(self, step: Callable[[State, float], T], *, deadline: float | None = None,
                     write: bool = True, abandoned: Callable[[T], None] | None = None) -> T:
        """Run `step(state, now)` atomically on the stored state and persist what it changed.

        `now` is read from `clock` inside the atomic section. With `deadline`, waiting for other processes
        is bounded by it (then `BudgetExceeded(BUSY_RETRY_AFTER, locked=False)`). If the caller is
        cancelled while the step still completes, `abandoned(result)` is called with its result."""

    def _release_later(self, group: str, slot: float, interval: float) -> None:
        """Give back a reserved slot without awaiting (called on cancellation and refusal)."""
        with contextlib.suppress(RuntimeError):  # no running loop: the slot just passes
            task = asyncio.get_running_loop().create_task(self._quiet_release(group, slot, interval))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _quiet_release(self, group: str, slot: float, interval: float) -> None:
        try:
            await self._apply(lambda st, now: _release(st, group, slot, interval))
        except (sqlite3.Error, BudgetExceeded, RuntimeError):
            log.debug("could not give back a budget slot (it will pass unused)", exc_info=True)

    # -- public interface -------------------------------------------------------------------------

    def lower_scale(self, scale: float) -> None:
        """Use at most `scale` of the published rates from now on (a higher value changes nothing), so
        clients sharing one budget get the most cautious of their settings."""
        _check_fraction("scale", scale)
        if scale < self.scale:
            self.scale = scale
            self._intervals = self._intervals_for(scale)

    def _intervals_for(self, scale: float) -> dict[str, float]:
        """Seconds between two requests of each group at `scale` of the published rates (with the margin)."""
        return {g: 1.0 / (r * scale * self.safety) for g, r in self.rates.items()}

    def interval(self, group: str) -> float:
        """Seconds between two requests of `group` (ValueError for an unknown group)."""
        try:
            return self._intervals[group]
        except KeyError:
            raise ValueError(f"unknown budget group {group!r} (known: {sorted(self._intervals)})") from None

    async def acquire(self, group: str, deadline: float) -> None:
        """Wait for the next free slot of `group` (shared by every user of the store) and return at it.

        `deadline` is a `monotonic` reading. If the slot, or the end of a 429 lockout, lies beyond it,
        raises `BudgetExceeded` at once (nothing reserved). Cancelling the wait gives the slot back when
        nobody has queued behind it."""
        interval = self.interval(group)

        def left() -> float:
            return deadline - self._monotonic()

        def abandoned(step: _Step) -> None:
            if step.kind == "wait":
                self._release_later(group, step.at, interval)

        step = await self._apply(lambda st, now: self._remember(
            st, _reserve(st, group, interval, now, left(), self._local_lock)), deadline=deadline,
            abandoned=abandoned)
        if step.kind == "grant":
            self.stats["granted"] += 1
            return
        if step.kind == "refuse":
            self.stats["refused"] += 1
            raise BudgetExceeded(step.retry_after, step.locked)
        slot = step.at
        self.stats["waited"] += 1
        granted = False
        try:
            while True:
                await self._sleep(max(0.0, step.at - self._clock()))
                step = await self._apply(lambda st, now: self._remember(
                    st, _confirm(st, group, interval, now, left(), self._local_lock)), deadline=deadline)
                if step.kind == "grant":
                    granted = True
                    self.stats["granted"] += 1
                    return
                if step.kind == "refuse":
                    self.stats["refused"] += 1
                    raise BudgetExceeded(step.retry_after, step.locked)
        finally:
            if not granted:
                self._release_later(group, slot, interval)

    async def lock_out(self, seconds: float) -> None:
        """Record a 429: no slot is granted to anyone sharing the store for `seconds` from now."""
        self.stats["lockouts"] += 1
        self._hint = max(self._hint, await self._apply(lambda st, now: _lock_out(st, now, seconds)))

    async def locked_for(self) -> float:
        """Seconds left in the current lockout, whichever process recorded it (0 when not locked)."""
        left = await self._apply(_locked_for, write=False)
        if left > 0:
            self._hint = max(self._hint, self._clock() + left)
        return left

    def locked_for_hint(self) -> float:
        """Seconds left in the latest lockout this process has seen, without touching the store (for
        synchronous callers such as health output; `locked_for()` is authoritative)."""
        return max(0.0, self._hint - self._clock())

    async def close(self) -> None:
        """Finish giving back slots of cancelled waiters, then release the store (idempotent)."""
        if self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def __aenter__(self) -> Budget:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _remember(self, state: State, step: _Step) -> _Step:
        """Note a lockout seen in the state (for `locked_for_hint`); runs inside the atomic step."""
        lock = state.get(_LOCK)
        if lock is not None and lock > self._hint:
            self._hint = lock
        return step


class LocalBudget(Budget):
    """The budget for one process (an in-memory cache, or the fallback when no file can be used).

    Safe to share between event loops and threads of one process. The clock defaults to `time.monotonic`
    (nothing outside the process reads the state)."""

    def __init__(self, *, rates: Mapping[str, float] = DEFAULT_RATES, scale: float = 1.0,
                 safety: float = SAFETY, clock: Callable[[], float] = time.monotonic,
                 monotonic: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        super().__init__(rates=rates, scale=scale, safety=safety, clock=clock, monotonic=monotonic,
                         sleep=sleep)
        self._state: State = {}
        self._mutex = threading.Lock()

    async def _apply(self, step: Callable[[State, float], T], *, deadline: float | None = None,
                     write: bool = True, abandoned: Callable[[T], None] | None = None) -> T:
        with self._mutex:  # held for microseconds, never across an await
            if write:
                return step(self._state, self._clock())
            return step(dict(self._state), self._clock())


# ----------------------------------------------------------------------------------------------
# The shared store: a sidecar SQLite file


_SCHEMA = "CREATE TABLE IF NOT EXISTS budget (key TEXT PRIMARY KEY, value REAL NOT NULL) WITHOUT ROWID"


def budget_path(cache_path: Path | str) -> Path:
    """The sidecar budget file for a cache file: `<cache file>.budget` in the same directory."""
    path = Path(cache_path)
    return path.with_name(path.name + BUDGET_SUFFIX)


def _hand_over(future: asyncio.Future[T], abandoned: Callable[[T], None]) -> None:
    """Pass a finished step's result to `abandoned` (its caller was cancelled meanwhile)."""
    if not future.cancelled() and future.exception() is None:
        abandoned(future.result())


def _is_busy(exc: sqlite3.Error) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


class SharedBudget(Budget):
    """A budget stored in a small SQLite file, shared by every process that opens the same file.

    Open with `await SharedBudget.open(path)` (or `open_budget(cache_path)`). One worker thread per
    budget owns the connection; every step is one `BEGIN IMMEDIATE` transaction (read all rows, apply the
    step, write what changed, commit). If the file becomes unusable at run time (I/O error, deleted
    directory, ...) the budget logs it once and continues as a `LocalBudget` for this process."""

    def __init__(self, path: Path, *, rates: Mapping[str, float] = DEFAULT_RATES, scale: float = 1.0,
                 safety: float = SAFETY, clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
                 busy_timeout: float = 10.0) -> None:
        """Use `open()`; this only sets fields (no I/O)."""
        super().__init__(rates=rates, scale=scale, safety=safety, clock=clock, monotonic=monotonic,
                         sleep=sleep)
        self.path = path
        self.busy_timeout = busy_timeout
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scryfall-budget")
        self._conn: sqlite3.Connection | None = None
        self._busy_ms = -1
        self._fallback: LocalBudget | None = None
        self._closed = False

    @classmethod
    async def open(cls, path: Path | str, *, rates: Mapping[str, float] = DEFAULT_RATES, scale: float = 1.0,
                   safety: float = SAFETY, clock: Callable[[], float] = time.time,
                   monotonic: Callable[[], float] = time.monotonic,
                   sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
                   busy_timeout: float = 10.0) -> SharedBudget:
        """Open (creating if needed) the budget file at `path`. A file that is not a usable SQLite
        database is replaced. Raises `sqlite3.Error`/`OSError` when the file cannot be opened at all."""
        budget = cls(Path(path), rates=rates, scale=scale, safety=safety, clock=clock, monotonic=monotonic,
                     sleep=sleep, busy_timeout=busy_timeout)
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(budget._executor, budget._open_sync)
        except BaseException:
            budget._executor.shutdown(wait=False)
            raise
        return budget

    # -- worker-thread side ------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), timeout=self.busy_timeout, isolation_level=None,
                               check_same_thread=False)
        try:
            self._use_wal(conn)
            conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: no fsync per commit, no corruption
            conn.execute(_SCHEMA)
            conn.execute("SELECT count(*) FROM budget").fetchone()
        except BaseException:
            conn.close()
            raise
        return conn

    def _use_wal(self, conn: sqlite3.Connection) -> None:
        """Switch the file to WAL. Two processes creating the file at once race for this switch, and SQLite
        answers "locked" at once rather than waiting its busy timeout, so the loser retries (within it)."""
        give_up = time.monotonic() + self.busy_timeout
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or time.monotonic() > give_up:
                    raise
                time.sleep(0.02)

    def _open_sync(self) -> None:
        try:
            self._conn = self._connect()
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):
                raise  # cannot open, or busy: not the file's fault
            log.error("Scryfall budget file %s is unreadable (%s); starting a new one", self.path, exc)
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(str(self.path) + suffix).unlink(missing_ok=True)
            self._conn = self._connect()
        self._busy_ms = int(self.busy_timeout * 1000)

    def _set_busy(self, conn: sqlite3.Connection, deadline: float | None) -> None:
        seconds = self.busy_timeout
        if deadline is not None:
            seconds = min(seconds, max(0.0, deadline - self._monotonic()))
        ms = int(seconds * 1000)
        if ms != self._busy_ms:
            conn.execute(f"PRAGMA busy_timeout = {ms}")
            self._busy_ms = ms

    def _run_sync(self, step: Callable[[State, float], T], deadline: float | None, write: bool) -> T:
        conn = self._conn
        if conn is None:
            raise sqlite3.ProgrammingError("budget file is closed")
        self._set_busy(conn, deadline)
        if not write:
            rows = conn.execute("SELECT key, value FROM budget").fetchall()
            return step({k: float(v) for k, v in rows}, self._clock())
        conn.execute("BEGIN IMMEDIATE")
        try:
            rows = conn.execute("SELECT key, value FROM budget").fetchall()
            state: State = {k: float(v) for k, v in rows}
            before = dict(state)
            result = step(state, self._clock())
            changed = [(k, v) for k, v in state.items() if before.get(k) != v]
            if changed:
                conn.executemany("INSERT OR REPLACE INTO budget (key, value) VALUES (?, ?)", changed)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return result

    def _close_sync(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- event-loop side ---------------------------------------------------------------------------

    async def _apply(self, step: Callable[[State, float], T], *, deadline: float | None = None,
                     write: bool = True, abandoned: Callable[[T], None] | None = None) -> T:
        if self._fallback is not None:
            return await self._fallback._apply(step, deadline=deadline, write=write)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor, self._run_sync, step, deadline, write)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            if abandoned is not None:  # the step still runs to its end in the worker thread
                future.add_done_callback(lambda f: _hand_over(f, abandoned))
            raise
        except sqlite3.Error as exc:
            if _is_busy(exc):
                if deadline is not None:
                    raise BudgetExceeded(BUSY_RETRY_AFTER, locked=False) from None
                raise
            self._fail_over(exc)
            return await self._apply(step, deadline=deadline, write=write)

    def _fail_over(self, exc: sqlite3.Error) -> None:
        if self._fallback is None:
            log.error("Scryfall budget file %s failed (%s); limiting this process on its own from now on",
                      self.path, exc)
            fallback = LocalBudget(rates=self.rates, scale=self.scale, safety=self.safety,
                                   clock=self._clock, monotonic=self._monotonic, sleep=self._sleep)
            fallback._hint = self._hint
            lock = max(self._hint, self._local_lock)
            if lock > -math.inf:
                fallback._state[_LOCK] = lock
            self._fallback = fallback

    async def lock_out(self, seconds: float) -> None:
        """Record a 429 for every process sharing the file. If the file cannot be written (another process
        holds it past `busy_timeout`), the lockout still holds in this process."""
        try:
            await super().lock_out(seconds)
        except sqlite3.Error as exc:
            log.warning("could not record the Scryfall lockout in %s (%s); this process pauses anyway",
                        self.path, exc)
            self._local_lock = max(self._local_lock, self._clock() + seconds)
            self._hint = max(self._hint, self._local_lock)

    async def locked_for(self) -> float:
        """As `Budget.locked_for`; while another process holds the file past `busy_timeout`, the
        lockout this process last saw."""
        try:
            return await super().locked_for()
        except sqlite3.Error:
            return self.locked_for_hint()

    @property
    def shared(self) -> bool:
        """True while the file is in use (False after a failure switched to a per-process budget)."""
        return self._fallback is None and not self._closed

    async def close(self) -> None:
        if self._closed:
            return
        await super().close()
        self._closed = True
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, self._close_sync)
        finally:
            self._executor.shutdown(wait=False)


async def open_budget(cache_path: Path | str | None, *, rates: Mapping[str, float] = DEFAULT_RATES,
                      scale: float = 1.0, safety: float = SAFETY,
                      clock: Callable[[], float] | None = None) -> Budget:
    """The budget for a card cache: a `SharedBudget` in `budget_path(cache_path)` for a cache file, a
    `LocalBudget` for no cache or ":memory:", and a `LocalBudget` (logged) when the file cannot be used.

    `clock` (tests only) replaces the store clock (`time.time` for the file, `time.monotonic` in process);
    every process sharing a file must use the same clock."""
    if cache_path is None or str(cache_path) == ":memory:":
        return LocalBudget(rates=rates, scale=scale, safety=safety, clock=clock or time.monotonic)
    path = budget_path(cache_path)
    try:
        await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
        return await SharedBudget.open(path, rates=rates, scale=scale, safety=safety, clock=clock or time.time)
    except (OSError, sqlite3.Error) as exc:
        log.error("cannot use the Scryfall budget file %s (%s); limits apply to this process only",
                  path, exc)
        return LocalBudget(rates=rates, scale=scale, safety=safety, clock=clock or time.monotonic)


__all__ = ["BUDGET_SUFFIX", "DEFAULT_RATES", "SAFETY", "Budget", "BudgetExceeded", "LocalBudget",
           "SharedBudget", "budget_path", "open_budget"]
