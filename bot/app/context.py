"""What the Discord layer's parts share: the bot as they see it (`app_of`) and the `interaction.extras` keys
`RECEIVED` (deferral budget start), `COMMAND` (what a pick or form finishes), `RUN` and the outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import discord

from bot.app.recent import RecentNames
from bot.cards.model import Resolved
from bot.cards.service import CardService
from bot.combos.store import ComboStore
from bot.deck.sources import DeckSites
from bot.house.store import HouseStore
from bot.ops.metrics import BotMetrics, Outcome

Interaction = discord.Interaction[Any]  # any client: the parts see the bot through `App`
RECEIVED = "received"
COMMAND = "command"
RUN = "run"


class App(Protocol):
    """`bot.app.bot.IdentityBot`, as its parts see it."""

    cards: CardService
    deck_sites: DeckSites
    combos: ComboStore | None
    house: HouseStore
    metrics: BotMetrics
    recent: RecentNames
    emoji: Mapping[str, str]
    pick_timeout: float

    def watch(self, interaction: Interaction) -> None: ...


def app_of(interaction: Interaction) -> App:
    return interaction.client


def record(
    interaction: Interaction, outcome: Outcome, *, card: str | None = None, cache_hit: bool | None = None
) -> None:
    """Tell the bot how a command went (read once the interaction's task ends)."""
    values = {"outcome": outcome, "card": card, "cache_hit": cache_hit}
    interaction.extras.update({k: v for k, v in values.items() if v is not None})


def record_found(interaction: Interaction, resolved: Sequence[Resolved], *, card: str | None) -> None:
    """A command found its cards: STALE or OK, and whether the cache or local data answered them all."""
    stale = any(r.stale for r in resolved)
    hit = all(r.source in ("cache", "local") for r in resolved) if resolved else None
    record(interaction, Outcome.STALE if stale else Outcome.OK, card=card, cache_hit=hit)
