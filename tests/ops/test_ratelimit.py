"""Per-user cooldown (USER_RATE): sliding window, injected clock, bounded memory."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ops.ratelimit import UserRateLimiter, parse_rate
from bot.present.errors import cooldown_text as cooldown_message


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock():
    return FakeClock()


def test_allows_rate_then_refuses_with_retry_after(clock):
    limiter = UserRateLimiter(rate=5, per=10.0, clock=clock)
    for i in range(5):
        assert limiter.hit(42) is None, i
        clock.advance(1.0)
    # hits at t=0..4, now t=5: the oldest leaves the window at t=10
    assert limiter.hit(42) == pytest.approx(5.0)
    assert limiter.refused == 1
    assert limiter.retry_after(42) == pytest.approx(5.0)


def test_window_slides_one_hit_at_a_time(clock):
    limiter = UserRateLimiter(rate=2, per=10.0, clock=clock)
    assert limiter.hit("u") is None  # t=0
    clock.advance(4)
    assert limiter.hit("u") is None  # t=4
    clock.advance(5)
    assert limiter.hit("u") == pytest.approx(1.0)  # t=9: first leaves at 10
    clock.advance(1)
    assert limiter.hit("u") is None  # t=10: first hit has left
    assert limiter.hit("u") == pytest.approx(4.0)  # t=10: second (t=4) leaves at 14


def test_refused_hits_do_not_extend_the_lockout(clock):
    limiter = UserRateLimiter(rate=1, per=10.0, clock=clock)
    assert limiter.hit(1) is None
    for _ in range(50):
        clock.advance(0.1)
        assert limiter.hit(1) is not None
    clock.advance(10.0 - 5.0 + 0.001)
    assert limiter.hit(1) is None


def test_users_are_independent(clock):
    limiter = UserRateLimiter(rate=1, per=10.0, clock=clock)
    assert limiter.hit(1) is None
    assert limiter.hit(1) is not None
    assert limiter.hit(2) is None
    assert limiter.retry_after(3) == 0.0


def test_disabled_limiter_allows_everything(clock):
    limiter = UserRateLimiter.from_spec("off", clock=clock)
    assert not limiter.enabled
    assert all(limiter.hit(7) is None for _ in range(1000))
    assert len(limiter) == 0
    assert UserRateLimiter.from_spec("0", clock=clock).hit(1) is None


def test_from_spec(clock):
    limiter = UserRateLimiter.from_spec("3/2", clock=clock)
    assert (limiter.rate, limiter.per) == (3, 2.0)
    assert [limiter.hit(1) for _ in range(4)][:3] == [None, None, None]


def test_idle_users_are_evicted(clock):
    limiter = UserRateLimiter(rate=5, per=10.0, clock=clock)
    for user in range(1000):
        limiter.hit(user)
    assert len(limiter) == 1000
    clock.advance(10.5)
    limiter.hit("new")
    assert len(limiter) == 1  # everyone idle for a full window is gone


def test_eviction_keeps_users_still_in_their_window(clock):
    limiter = UserRateLimiter(rate=1, per=10.0, clock=clock)
    limiter.hit("old")
    clock.advance(6)
    limiter.hit("recent")
    clock.advance(5)  # old: 11 s ago (idle), recent: 5 s ago (still limited)
    limiter.hit("other")
    assert len(limiter) == 2
    assert limiter.hit("recent") == pytest.approx(5.0)
    assert limiter.hit("old") is None


def test_max_users_caps_memory(clock):
    limiter = UserRateLimiter(rate=5, per=10.0, clock=clock, max_users=100)
    for user in range(10_000):
        limiter.hit(user)
        clock.advance(0.0001)
    assert len(limiter) == 100


def test_reset(clock):
    limiter = UserRateLimiter(rate=1, per=10.0, clock=clock)
    limiter.hit(1)
    limiter.hit(2)
    limiter.reset(1)
    assert limiter.hit(1) is None
    assert limiter.hit(2) is not None
    limiter.reset()
    assert len(limiter) == 0


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("5/10", (5, 10.0)),
        (" 5 / 10 ", (5, 10.0)),
        ("5/10s", (5, 10.0)),
        ("3/1.5", (3, 1.5)),
        ("1/.5", (1, 0.5)),
        ("0", None),
        ("off", None),
        ("OFF", None),
        ("", None),
        (None, None),
        ("0/10", None),
    ],
)
def test_parse_rate(spec, expected):
    assert parse_rate(spec) == expected


@pytest.mark.parametrize("spec", ["5", "five/10", "5/0", "5/-1", "-5/10", "5/10/2", "5/inf", "5/10m"])
def test_parse_rate_rejects(spec):
    with pytest.raises(ValueError):
        parse_rate(spec)


def test_invalid_construction():
    with pytest.raises(ValueError):
        UserRateLimiter(rate=-1)
    with pytest.raises(ValueError):
        UserRateLimiter(rate=1, per=0)
    with pytest.raises(ValueError):
        UserRateLimiter(rate=1, per=1, max_users=0)


def test_cooldown_message_rounds_up():
    assert "3 seconds" in cooldown_message(2.01)
    assert "1 second." in cooldown_message(0.2)


@settings(max_examples=200, deadline=None)
@given(
    rate=st.integers(1, 6),
    per=st.sampled_from([0.5, 1.0, 2.5, 10.0]),
    steps=st.lists(st.tuples(st.integers(0, 3), st.floats(0, 3, allow_nan=False)), min_size=1, max_size=120),
)
def test_matches_a_brute_force_sliding_window(rate, per, steps):
    """Exactly the naive model: allowed iff fewer than `rate` accepted hits in (now - per, now]."""
    clock = FakeClock(0.0)
    limiter = UserRateLimiter(rate=rate, per=per, clock=clock)
    accepted: dict[int, list[float]] = {}
    for user, gap in steps:
        clock.advance(gap)
        now = clock.now
        result = limiter.hit(user)
        live = [t for t in accepted.get(user, []) if t > now - per]
        if len(live) < rate:
            assert result is None
            accepted.setdefault(user, []).append(now)
        else:
            assert result is not None and result > 0
            assert result == pytest.approx(live[-rate] + per - now)
        assert len(limiter) <= 4
