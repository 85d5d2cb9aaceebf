"""Per-user cooldown: at most ``rate`` commands in any ``per``-second window (``USER_RATE``, e.g. "5/10").

A sliding-window log: each user keeps the timestamps of their last ``rate`` accepted commands (a bounded
deque). A command is allowed when fewer than ``rate`` of those fall inside the last ``per`` seconds;
otherwise :meth:`UserRateLimiter.hit` returns how long until the oldest one leaves the window. Refused
attempts are not recorded, so a user who keeps clicking is never locked out for longer than ``per``.

Memory stays bounded: users are kept in order of their last accepted command, so everyone whose newest
accepted command is older than ``per`` (and who is therefore indistinguishable from a new user) is
dropped from the front of the map in amortised O(1); ``max_users`` caps the map even under a flood of
distinct ids.
"""

from __future__ import annotations

import math
import re
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable

__all__ = ["UserRateLimiter", "parse_rate"]

_OFF = {"", "0", "off", "none", "false", "no", "disabled"}
_RATE_RE = re.compile(r"^\s*(\d+)\s*/\s*(\d+(?:\.\d+)?|\.\d+)\s*s?\s*$", re.IGNORECASE)


def parse_rate(spec: str | None) -> tuple[int, float] | None:
    """Parse ``USER_RATE``: ``"5/10"`` -> ``(5, 10.0)`` (5 commands per 10 s); ``"0"``/``"off"`` -> None.

    Also accepts a trailing ``s`` (``"5/10s"``) and fractional seconds (``"3/1.5"``).
    Raises ValueError with a readable message for anything else.
    """
    if spec is None:
        return None
    text = str(spec).strip()
    if text.lower() in _OFF:
        return None
    match = _RATE_RE.match(text)
    if not match:
        raise ValueError(
            f"USER_RATE must look like '5/10' (commands per seconds) or 'off', not {text[:40]!r}"
        )
    rate, per = int(match.group(1)), float(match.group(2))
    if rate == 0:
        return None
    if not (per > 0 and math.isfinite(per)):
        raise ValueError("USER_RATE: the period (after '/') must be a positive number of seconds")
    return rate, per


class UserRateLimiter:
    """Sliding-window per-key limiter with an injectable clock.

    >>> t = [0.0]
    >>> limiter = UserRateLimiter(rate=2, per=10.0, clock=lambda: t[0])
    >>> limiter.hit(1), limiter.hit(1), limiter.hit(1)
    (None, None, 10.0)
    """

    __slots__ = ("rate", "per", "max_users", "_clock", "_hits", "refused")

    def __init__(
        self,
        rate: int = 5,
        per: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        *,
        max_users: int = 100_000,
    ) -> None:
        if rate < 0:
            raise ValueError("rate must be >= 0 (0 disables the limiter)")
        if rate and not (per > 0 and math.isfinite(per)):
            raise ValueError("per must be a positive number of seconds")
        if max_users < 1:
            raise ValueError("max_users must be at least 1")
        self.rate = int(rate)
        self.per = float(per)
        self.max_users = max_users
        self._clock = clock
        self._hits: OrderedDict[Hashable, deque[float]] = OrderedDict()
        self.refused = 0  # number of refused hits since creation (for metrics/tests)

    @classmethod
    def from_spec(
        cls, spec: str | None, clock: Callable[[], float] = time.monotonic, *, max_users: int = 100_000
    ) -> UserRateLimiter:
        """Build from a ``USER_RATE`` string; ``"off"``/``"0"`` gives a limiter that allows everything."""
        parsed = parse_rate(spec)
        if parsed is None:
            return cls(rate=0, per=1.0, clock=clock, max_users=max_users)
        return cls(rate=parsed[0], per=parsed[1], clock=clock, max_users=max_users)

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def __len__(self) -> int:
        """Users currently tracked (bounded by ``max_users``; idle users are evicted on each hit)."""
        return len(self._hits)

    def hit(self, user_id: Hashable) -> float | None:
        """Record one command by ``user_id``. Returns None when allowed, else seconds until allowed."""
        if not self.rate:
            return None
        now = self._clock()
        self._evict_idle(now)
        window_start = now - self.per
        stamps = self._hits.get(user_id)
        if stamps is not None:
            while stamps and stamps[0] <= window_start:
                stamps.popleft()
            if len(stamps) >= self.rate:
                self.refused += 1
                return max(stamps[0] + self.per - now, 0.0) or math.ulp(self.per)
            stamps.append(now)
            self._hits.move_to_end(user_id)
            return None
        self._hits[user_id] = deque((now,), maxlen=self.rate)
        if len(self._hits) > self.max_users:
            self._hits.popitem(last=False)
        return None

    def retry_after(self, user_id: Hashable) -> float:
        """Seconds until ``user_id`` may run a command again (0.0 when allowed now); records nothing."""
        if not self.rate:
            return 0.0
        stamps = self._hits.get(user_id)
        if not stamps:
            return 0.0
        now = self._clock()
        live = [t for t in stamps if t > now - self.per]
        if len(live) < self.rate:
            return 0.0
        return max(live[0] + self.per - now, 0.0)

    def reset(self, user_id: Hashable | None = None) -> None:
        """Forget one user, or everyone when ``user_id`` is None."""
        if user_id is None:
            self._hits.clear()
        else:
            self._hits.pop(user_id, None)

    def _evict_idle(self, now: float) -> None:
        # Users are ordered by their newest accepted hit, so the idle ones are all at the front.
        cutoff = now - self.per
        hits = self._hits
        while hits:
            first = next(iter(hits.values()))
            if first and first[-1] > cutoff:
                break
            hits.popitem(last=False)
