"""What the Discord layer's parts need from the bot, as a Protocol: the tree, the card options and the deck
commands read it from `interaction.client` (`app_of`) without importing the bot class, which imports them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import discord

from bot.app.recent import RecentNames
from bot.cards.service import CardService
from bot.deck.sources import DeckSites
from bot.ops.metrics import BotMetrics


class App(Protocol):
    """The bot as its parts see it (`bot.app.bot.IdentityBot` is one)."""

    cards: CardService
    deck_sites: DeckSites
    metrics: BotMetrics
    recent: RecentNames
    emoji: Mapping[str, str]
    pick_timeout: float

    def watch(self, interaction: discord.Interaction[Any], started: float) -> None: ...


def app_of(interaction: discord.Interaction[Any]) -> App:
    """The bot handling `interaction`."""
    app: App = interaction.client
    return app
