"""What the Discord layer notes on an interaction while handling it (`interaction.extras`), read by the bot
once the interaction's task ends (`IdentityBot.watch`: metrics and the command's log line), and by the error
replies.

- `record(...)`: how a command went (outcome, first card, whether the cache answered); `record_found` for a
  command that found its cards;
- `RECEIVED`: when the bot started handling the interaction (`time.perf_counter()`), so every step of one
  interaction spends one deferral budget (`replies.defer_if_slow`);
- `COMMAND`: the command's name for interactions that re-run or finish a command (a pick in a menu, a
  submitted form), whose payload names no command;
- `RETRY`: how to run the interaction's command again with one card option replaced (`bot.app.picks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.cards.model import Resolved
from bot.ops.metrics import Outcome

RECEIVED = "received"
COMMAND = "command"
RETRY = "retry"


def record(
    interaction: discord.Interaction[Any],
    outcome: Outcome | None = None,
    *,
    card: str | None = None,
    cache_hit: bool | None = None,
) -> None:
    """Tell the bot how a command went (read once the interaction's task ends)."""
    extras = interaction.extras
    if outcome is not None:
        extras["outcome"] = outcome
    if card is not None:
        extras["card"] = card
    if cache_hit is not None:
        extras["cache_hit"] = cache_hit


def record_found(
    interaction: discord.Interaction[Any], resolved: Sequence[Resolved], *, card: str | None
) -> None:
    """Tell the bot a command found its cards: STALE when any answer came from stale data, else OK, and
    whether the cache or local data answered them all (unknown when no card was looked up)."""
    record(
        interaction,
        Outcome.STALE if any(r.stale for r in resolved) else Outcome.OK,
        card=card,
        cache_hit=all(r.source in ("cache", "local") for r in resolved) if resolved else None,
    )
