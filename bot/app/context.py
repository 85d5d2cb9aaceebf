"""The bot as the Discord layer's parts see it (`App`, read from `interaction.client` by `app_of`), so they
need not import the bot class, which imports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import discord

from bot.app.recent import RecentNames
from bot.cards.service import CardService
from bot.deck.sources import DeckSites
from bot.ops.metrics import BotMetrics


class App(Protocol):
    """`bot.app.bot.IdentityBot`, as its parts see it."""

    cards: CardService
    deck_sites: DeckSites
    metrics: BotMetrics
    recent: RecentNames
    emoji: Mapping[str, str]
    pick_timeout: float

    def watch(self, interaction: discord.Interaction[Any]) -> None: ...


def app_of(interaction: discord.Interaction[Any]) -> App:
    app: App = interaction.client
    return app
