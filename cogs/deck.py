"""/deckcheck [commander] [partner] [decklist:<file>] [list:<text>] [url:<deck link>] [color].

Checks a whole Commander decklist against its commanders: color identity with evidence, unknown names,
singleton, deck size, banned cards, commander eligibility and partner pairing. The list is an uploaded text
file, pasted text (read by the deck parser as is, one line or many), or a public Archidekt or Moxfield deck
link (its commanders taken from the deck). `commander` may be left out when the list names its commanders;
`color` is the color chosen before the game for a commander that chooses one (CR 903.4b).

The reply is a summary embed; when the report is long, the full plain-text report (the same one
`python -m bot check-deck` prints) is attached. Options are validated before anything else, and the
interaction is deferred only when the work (a download, a deck site, Scryfall) takes long enough to need it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.bot import IdentityBot
from bot.app.decks import DeckSource, check_deck, deck_check_reply, slash_source
from bot.app.options import COLOR_CHOICES, CardQuery, Commander, Partner, read_names_in_players_language
from bot.app.replies import defer_if_slow, send_reply

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
        url="Or a link to a public Archidekt or Moxfield deck",
        color="The color your commander chose before the game (The Prismatic Piper, ...)",
    )
    @app_commands.rename(list_text="list")
    @app_commands.choices(color=COLOR_CHOICES)
    async def deckcheck(
        self,
        interaction: discord.Interaction[IdentityBot],
        commander: Commander | None = None,
        partner: Partner | None = None,
        decklist: discord.Attachment | None = None,
        list_text: app_commands.Range[str, 1, MAX_PASTE] | None = None,
        url: app_commands.Range[str, 1, 500] | None = None,
        color: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.bot.tree.run_command(
            interaction,
            self.check,
            source=slash_source(decklist, list_text, url),
            commander=commander,
            partner=partner,
            chosen=[color.value] if color else [],
        )

    async def check(
        self,
        interaction: discord.Interaction[Any],
        source: DeckSource,
        commander: CardQuery | None,
        partner: CardQuery | None,
        chosen: list[str],
    ) -> None:
        """/deckcheck's work (also run by a pick that fixed a commander's name)."""
        read_names_in_players_language(interaction)
        checked = await defer_if_slow(
            interaction,
            check_deck(
                self.bot,
                source,
                commander.text if commander else None,
                partner.text if partner else None,
                chosen=chosen,
            ),
        )
        await send_reply(interaction, deck_check_reply(interaction, self.bot, checked))


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(DeckCog(bot))
