"""/house: a server's house rules (`bot.app.house`). `show` is for everyone; `ban`, `unban`, `bracket` and
`clear` check Manage Server when run, so the group stays visible to all (`default_member_permissions` would
hide it whole). Only where the bot is installed in a server: no DMs, no user installs."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.app import house
from bot.app.bot import IdentityBot
from bot.app.context import Interaction
from bot.app.options import CardOption, CardQuery
from bot.deck.brackets import BRACKETS

Card = app_commands.Transform[CardQuery, CardOption("card")]
Level = app_commands.Range[int, BRACKETS[0], BRACKETS[-1]]


class HouseCog(commands.Cog, name="House"):
    group = app_commands.Group(
        name="house",
        description="This server's house rules: cards banned here and the bracket played.",
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
    )

    def __init__(self, bot: IdentityBot) -> None:
        self.bot = bot

    @group.command(name="ban", description="Ban a card in this server (needs Manage Server).")
    @app_commands.describe(card="The card to ban here (start typing and pick one)")
    async def ban(self, interaction: Interaction, card: Card) -> None:
        await self.bot.tree.run_command(interaction, house.ban, card=card)

    @group.command(name="unban", description="Lift a house ban in this server (needs Manage Server).")
    @app_commands.describe(card="The card to allow again")
    async def unban(self, interaction: Interaction, card: Card) -> None:
        await self.bot.tree.run_command(interaction, house.unban, card=card)

    @group.command(name="bracket", description="Set the bracket this server plays (needs Manage Server).")
    @app_commands.describe(level="Bracket 1-5: limits Game Changers, mass land denial, extra turns, combos")
    async def bracket(self, interaction: Interaction, level: Level) -> None:
        await self.bot.tree.run_command(interaction, house.set_bracket, level=level)

    @group.command(name="show", description="List this server's house rules.")
    async def show(self, interaction: Interaction) -> None:
        await self.bot.tree.run_command(interaction, house.show)

    @group.command(name="clear", description="Remove all of this server's house rules (needs Manage Server).")
    async def clear(self, interaction: Interaction) -> None:
        await self.bot.tree.run_command(interaction, house.clear)


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(HouseCog(bot))
