"""What the Discord layer notes on an interaction while handling it (`interaction.extras`), read by the bot's
observer once the interaction's task ends (`IdentityBot.watch`), and by the error replies.

- `record(...)`: how a command went (outcome, first card, whether the cache answered);
- `RECEIVED`: when the bot started handling the interaction (`time.perf_counter()`), so every step of one
  interaction spends one deferral budget (`replies.defer_if_slow`);
- `COMMAND`: the command's name for interactions that re-run or finish a command (a pick in a menu, a
  submitted form), whose payload names no command;
- `RETRY`: how to run the interaction's command again with one card option replaced (`bot.app.picks`).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ops.metrics import Outcome

RECEIVED = "received"
COMMAND = "command"
RETRY = "retry"


def record(interaction: discord.Interaction[Any], outcome: Outcome | None = None, *, card: str | None = None,
           cache_hit: bool | None = None) -> None:
    """Tell the observer how a command went (read once the interaction's task ends)."""
    extras = interaction.extras
    if outcome is not None:
        extras["outcome"] = outcome
    if card is not None:
        extras["card"] = card
    if cache_hit is not None:
        extras["cache_hit"] = cache_hit
