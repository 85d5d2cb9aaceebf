"""/deckcheck: a Commander decklist checked against its commanders (`bot.app.decks.check_deck`); `color` is
the color a commander chose before the game (CR 903.4b)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.bot import IdentityBot
from bot.app.context import Interaction
from bot.app.decks import check_deck, slash_source
from bot.app.options import COLOR_CHOICES, Commander, Partner

MAX_PASTE = 6000  # Discord's longest string option


class DeckCog(commands.Cog, name="Deck"):
    def __init__(self, bot: IdentityBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="deckcheck", description="Check a whole Commander decklist against its commander."
    )
    @app_commands.describe(
        commander="Your commander (leave it out when the list marks it)",
        partner="Your second commander (Partner, Background, ...), if any",
        decklist="The decklist as a text file (Moxfield, Archidekt, Arena, MTGO or plain export)",
        list_text="Or paste the decklist here (one card per line, or all on one line)",
        url="Or a deck link: Archidekt, Moxfield, TappedOut, MTGGoldfish, Deckstats, Scryfall, TCGplayer…",
        color="The color your commander chose before the game (The Prismatic Piper, ...)",
    )
    @app_commands.rename(list_text="list")
    @app_commands.choices(color=COLOR_CHOICES)
    async def deckcheck(
        self,
        interaction: Interaction,
        commander: Commander | None = None,
        partner: Partner | None = None,
        decklist: discord.Attachment | None = None,
        list_text: app_commands.Range[str, 1, MAX_PASTE] | None = None,
        url: app_commands.Range[str, 1, 500] | None = None,
        color: app_commands.Choice[str] | None = None,
    ) -> None:
        deck, chosen = slash_source(decklist, list_text, url), [color.value] if color else []
        await self.bot.tree.run_command(
            interaction, check_deck, deck=deck, commander=commander, partner=partner, chosen=chosen
        )


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(DeckCog(bot))
