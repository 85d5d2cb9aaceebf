"""What the Discord layer notes on an interaction (`interaction.extras`) while handling it, read by
`IdentityBot.watch` once its task ends (metrics, the command's log line) and by the error replies:
`RECEIVED` (when handling started: one deferral budget per interaction), `COMMAND` (the command a pick or a
form finishes, whose payload names none) and `RUN` (the command's work and options, for a pick to re-run).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.cards.model import Resolved
from bot.ops.metrics import Outcome

RECEIVED = "received"
COMMAND = "command"
RUN = "run"


def record(
    interaction: discord.Interaction[Any],
    outcome: Outcome | None = None,
    *,
    card: str | None = None,
    cache_hit: bool | None = None,
) -> None:
    """Tell the bot how a command went (read once the interaction's task ends)."""
    values = {"outcome": outcome, "card": card, "cache_hit": cache_hit}
    interaction.extras.update({k: v for k, v in values.items() if v is not None})


def record_found(
    interaction: discord.Interaction[Any], resolved: Sequence[Resolved], *, card: str | None
) -> None:
    """A command found its cards: STALE when any came from stale data, else OK, and whether the cache or
    local data answered them all (unknown when none was looked up)."""
    record(
        interaction,
        Outcome.STALE if any(r.stale for r in resolved) else Outcome.OK,
        card=card,
        cache_hit=all(r.source in ("cache", "local") for r in resolved) if resolved else None,
    )
