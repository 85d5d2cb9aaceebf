"""The per-user cooldown (USER_RATE) on discord.py's CooldownMapping: one budget per user across all commands,
time passed explicitly (a fake clock)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands
from discord.ext.commands import CooldownMapping
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app.tree import refuse_over_cooldown, user_of
from bot.present.errors import cooldown_text


def interaction(user: int, command: str = "identity") -> Any:
    return SimpleNamespace(user=SimpleNamespace(id=user), command=SimpleNamespace(qualified_name=command))


def mapping(rate: int, per: float) -> CooldownMapping[Any]:
    return CooldownMapping.from_cooldown(rate, per, user_of)


def test_rate_commands_then_cooldown_with_retry_after():
    cooldown = mapping(5, 10.0)
    for i in range(5):
        refuse_over_cooldown(cooldown, interaction(42), 1000.0 + i)
    with pytest.raises(app_commands.CommandOnCooldown) as refused:
        refuse_over_cooldown(cooldown, interaction(42), 1005.0)
    assert refused.value.retry_after == pytest.approx(5.0)  # the window opened at 1000
    assert (refused.value.cooldown.rate, refused.value.cooldown.per) == (5, 10.0)
    refuse_over_cooldown(cooldown, interaction(42), 1010.5)  # a new window


def test_one_budget_across_all_commands_and_users_apart():
    cooldown = mapping(2, 10.0)
    refuse_over_cooldown(cooldown, interaction(1, "identity"), 1000.0)
    refuse_over_cooldown(cooldown, interaction(1, "fits"), 1000.0)
    with pytest.raises(app_commands.CommandOnCooldown):
        refuse_over_cooldown(cooldown, interaction(1, "deckcheck"), 1001.0)
    refuse_over_cooldown(cooldown, interaction(2, "deckcheck"), 1001.0)  # someone else is not limited


def test_off_means_no_limit():
    for _ in range(1000):
        refuse_over_cooldown(None, interaction(7), 1000.0)


def test_cooldown_message_rounds_up():
    assert "3 seconds" in cooldown_text(2.01)
    assert "1 second." in cooldown_text(0.2)


@settings(max_examples=200, deadline=None)
@given(
    rate=st.integers(1, 6),
    per=st.sampled_from([0.5, 1.0, 2.5, 10.0]),
    steps=st.lists(st.tuples(st.integers(0, 3), st.floats(0, 3, allow_nan=False)), min_size=1, max_size=120),
)
def test_never_more_than_rate_commands_in_a_window(rate, per, steps):
    """Whatever the timing, a user gets at most `rate` commands in any window discord.py opens, and a refusal
    says how long until the window ends."""
    cooldown, now = mapping(rate, per), 1000.0
    windows: dict[int, tuple[float, int]] = {}  # user -> (window start, accepted in it)
    for user, gap in steps:
        now += gap
        start, used = windows.get(user, (-1e9, 0))
        if now > start + per:
            start, used = now, 0
        try:
            refuse_over_cooldown(cooldown, interaction(user), now)
        except app_commands.CommandOnCooldown as refused:
            assert used == rate
            assert refused.retry_after == pytest.approx(start + per - now)
        else:
            assert used < rate
            windows[user] = (start, used + 1)
            continue
        windows[user] = (start, used)
