"""Slash commands /identity, /fits and /help. Thin: the card options find the cards, the identity engine
judges them, the presentation layer words the answer, the tree answers errors."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.bot import IdentityBot
from bot.app.options import CardOption, CardQuery, resolve_options, scope_of
from bot.app.replies import send_reply
from bot.identity import analyze, check_fit, check_pairing, commander_eligibility
from bot.present import embeds
from bot.present.message import Reply

Card = app_commands.Transform[CardQuery, CardOption()]
FitCard = app_commands.Transform[CardQuery, CardOption("card")]
Commander = app_commands.Transform[CardQuery, CardOption("commander", commander=True)]
Partner = app_commands.Transform[CardQuery, CardOption("partner", commander=True)]


class IdentityCog(commands.Cog, name="Identity"):
    def __init__(self, bot: IdentityBot) -> None:
        self.bot = bot

    def remember(self, interaction: discord.Interaction[Any], card: dict[str, Any], *,
                 commander: bool | None = None) -> None:
        """Offer this card first in this server's autocomplete for a while."""
        if commander is None:
            commander = commander_eligibility(card).ok
        self.bot.recent.add(scope_of(interaction), str(card.get("name") or ""), commander=commander)

    @app_commands.command(name="identity", description="Explain a card's color and its Commander color identity.")
    @app_commands.describe(card="Card name (start typing and pick one)")
    async def identity(self, interaction: discord.Interaction[IdentityBot], card: Card) -> None:
        [found] = await resolve_options(interaction, [card])
        self.remember(interaction, found.card)
        embed = embeds.identity_embed(analyze(found.card), found.card, emoji=self.bot.emoji,
                                      stale=embeds.stale_note([found]))
        await send_reply(interaction, Reply(embeds=[embed]))

    @app_commands.command(name="fits", description="Check whether a card fits a Commander deck led by a commander.")
    @app_commands.describe(
        card="The card to check",
        commander="Your commander",
        partner="Your second commander (Partner, Background, ...), if any",
    )
    async def fits(self, interaction: discord.Interaction[IdentityBot], card: FitCard, commander: Commander,
                   partner: Partner | None = None) -> None:
        found = await resolve_options(interaction, [card, commander] + ([partner] if partner else []))
        the_card, *leaders = found
        leader_cards = [r.card for r in leaders]
        result = check_fit(the_card.card, leader_cards)
        # A Background is no commander alone but is one beside a Choose a Background creature (CR 903.3).
        valid_pair = len(leader_cards) == 2 and check_pairing(leader_cards[0], leader_cards[1]).ok
        self.remember(interaction, the_card.card)
        for leader in leader_cards:
            self.remember(interaction, leader, commander=valid_pair or commander_eligibility(leader).ok)
        embed = embeds.fits_embed(result, the_card.card, leader_cards, emoji=self.bot.emoji,
                                  stale=embeds.stale_note(found))
        await send_reply(interaction, Reply(embeds=[embed]))

    @app_commands.command(name="help", description="What this bot does: color, color identity, and examples.")
    async def help_command(self, interaction: discord.Interaction[IdentityBot]) -> None:
        await send_reply(interaction, Reply(embeds=[embeds.help_embed(self.bot.emoji)], ephemeral=True))


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(IdentityCog(bot))
