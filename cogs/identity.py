"""Slash commands /identity, /fits and /help: the card options find the cards, the identity engine judges
them, the presentation layer words the answer, the tree answers errors."""

from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.ext import commands

from bot.app.bot import IdentityBot
from bot.app.context import Interaction
from bot.app.house import fit_here, rules_here
from bot.app.options import COLOR_CHOICES, CardOption, CardQuery, Commander, Partner, resolve_options
from bot.app.replies import send_reply
from bot.app.tree import InputProblem
from bot.identity import ChosenColorMisplaced, analyze, assign_chosen, check_fit, commander_eligibility
from bot.present import embeds, errors

Card = app_commands.Transform[CardQuery, CardOption()]
FitCard = app_commands.Transform[CardQuery, CardOption("card")]


class IdentityCog(commands.Cog, name="Identity"):
    def __init__(self, bot: IdentityBot) -> None:
        self.bot = bot

    def remember(self, interaction: Interaction, card: dict[str, Any], *, commander: bool = False) -> None:
        """Offer this card first in this server's autocomplete for a while."""
        commander = commander or commander_eligibility(card).ok
        self.bot.recent.add(interaction, str(card.get("name") or ""), commander=commander)

    @app_commands.command(
        name="identity", description="Explain a card's color and its Commander color identity."
    )
    @app_commands.describe(card="Card name (start typing and pick one)")
    async def identity(self, interaction: Interaction, card: Card) -> None:
        await self.bot.tree.run_command(interaction, self.explain, card=card)

    async def explain(self, interaction: Interaction, card: CardQuery) -> None:
        [found] = await resolve_options(interaction, [card])
        hit, typed = found.card, found.typed(card.text)
        stale, emoji = embeds.stale_note([found]), self.bot.emoji
        printed = (await self.bot.cards.printed_texts([hit])).get(found.name)
        self.remember(interaction, hit)
        rules = await rules_here(interaction)  # the server's bracket, if it has one
        bracket = rules.bracket if rules is not None else None
        reply = embeds.identity_reply(
            analyze(hit), hit, emoji=emoji, stale=stale, typed=typed, printed=printed, house_bracket=bracket
        )
        await send_reply(interaction, reply)

    @app_commands.command(
        name="fits", description="Check whether a card fits a Commander deck led by a commander."
    )
    @app_commands.describe(
        card="The card to check",
        commander="Your commander",
        partner="Your second commander (Partner, Background, ...), if any",
        color="The color your commander chose before the game (The Prismatic Piper, Clara Oswald, ...)",
        partner_color="The color your partner chose before the game, if it chooses one too",
    )
    @app_commands.choices(color=COLOR_CHOICES, partner_color=COLOR_CHOICES)
    async def fits(
        self,
        interaction: Interaction,
        card: FitCard,
        commander: Commander,
        partner: Partner | None = None,
        color: app_commands.Choice[str] | None = None,
        partner_color: app_commands.Choice[str] | None = None,
    ) -> None:
        colors = (color.value if color else None, partner_color.value if partner_color else None)
        await self.bot.tree.run_command(
            interaction, self.check_fits, card=card, commander=commander, partner=partner, colors=colors
        )

    async def check_fits(
        self,
        interaction: Interaction,
        card: CardQuery,
        commander: CardQuery,
        partner: CardQuery | None,
        colors: tuple[str | None, str | None],
    ) -> None:
        queries = [card, commander] + ([partner] if partner else [])
        found = await resolve_options(interaction, queries)
        hit, leaders = found[0].card, [r.card for r in found[1:]]
        try:  # the color each commander chose before the game (CR 903.4b)
            chosen = assign_chosen([analyze(c) for c in leaders], *colors)
        except ChosenColorMisplaced as exc:  # a color for a commander that chooses none
            raise InputProblem(errors.chosen_color_text(exc.option, exc.commander)) from None
        result = check_fit(hit, leaders, chosen)
        here = await fit_here(interaction, hit, leaders)  # this server's house rules
        printed = (await self.bot.cards.printed_texts([hit])).get(found[0].name)
        self.remember(interaction, hit)
        for leader in leaders:  # a Background leads beside a Choose a Background creature (CR 903.3)
            self.remember(interaction, leader, commander=not result.commander_problems)
        typed = [(said, r.name) for q, r in zip(queries, found, strict=True) if (said := r.typed(q.text))]
        stale, emoji = embeds.stale_note(found), self.bot.emoji
        reply = embeds.fits_reply(
            result, hit, leaders, emoji=emoji, stale=stale, typed=typed, house=here, printed=printed
        )
        await send_reply(interaction, reply)

    @app_commands.command(name="help", description="What this bot does: color, color identity, and examples.")
    async def help_command(self, interaction: Interaction) -> None:
        await send_reply(interaction, embeds.help_reply(self.bot.emoji))


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(IdentityCog(bot))
