"""/deckcheck commander:<name> [partner:<name>] [decklist:<attachment>] [list:<text>].

Checks a whole Commander decklist (uploaded as a text file, or pasted) against its commander: color
identity with evidence, unknown names, singleton, deck size, banned cards, commander eligibility and
partner pairing. The reply is a summary embed; when the report is long, the full plain-text report (the
same one `python -m bot check-deck` prints) is attached. The interaction is deferred first: the attachment
has to be downloaded and names may need Scryfall.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.bot import IdentityBot
from bot.app.options import CardOption, CardQuery
from bot.app.replies import send_reply
from bot.app.tree import InputProblem, record
from bot.deck.parser import MAX_BYTES, decode, split_pasted
from bot.deck.runner import check_decklist
from bot.ops.metrics import Outcome
from bot.present import errors
from bot.present.deck_report import deck_reply
from bot.present.embeds import stale_note

MAX_PASTE = 6000  # Discord's longest string option

Commander = app_commands.Transform[CardQuery, CardOption("commander", commander=True)]
Partner = app_commands.Transform[CardQuery, CardOption("partner", commander=True)]


def check_list_options(decklist: discord.Attachment | None, pasted: str | None) -> None:
    """Raise InputProblem when the list options can't be checked (none, both, a file too big)."""
    if decklist is None and not (pasted and pasted.strip()):
        raise InputProblem(errors.deck_options_text("no_list"))
    if decklist is not None and pasted and pasted.strip():
        raise InputProblem(errors.deck_options_text("both_lists"))
    if decklist is not None and decklist.size > MAX_BYTES:
        raise InputProblem(errors.deck_options_text("file_too_big", size=decklist.size, limit=MAX_BYTES))


async def read_list(decklist: discord.Attachment | None, pasted: str | None) -> str:
    if decklist is None:
        return split_pasted(pasted or "")
    try:
        data = await decklist.read()
    except discord.HTTPException as exc:
        raise InputProblem(errors.attachment_unreadable_text()) from exc
    return decode(data)


class DeckCog(commands.Cog, name="Deck"):
    def __init__(self, bot: IdentityBot) -> None:
        self.bot = bot

    @app_commands.command(name="deckcheck", description="Check a whole Commander decklist against its commander.")
    @app_commands.describe(
        commander="Your commander",
        partner="Your second commander (Partner, Background, ...), if any",
        decklist="The decklist as a text file (Moxfield, Archidekt, Arena, MTGO or plain export)",
        list_text="Or paste the decklist here (one card per line, or separated by ;)",
    )
    @app_commands.rename(list_text="list")
    async def deckcheck(
        self,
        interaction: discord.Interaction[IdentityBot],
        commander: Commander,
        partner: Partner | None = None,
        decklist: discord.Attachment | None = None,
        list_text: app_commands.Range[str, 1, MAX_PASTE] | None = None,
    ) -> None:
        check_list_options(decklist, list_text)
        await interaction.response.defer(thinking=True)
        text = await read_list(decklist, list_text)
        report, resolved = await check_decklist(self.bot.cards, text, commander.text,
                                                partner.text if partner else None)
        record(interaction, Outcome.STALE if any(r.stale for r in resolved) else Outcome.OK,
               card=" + ".join(report.commanders) or None,
               cache_hit=all(r.source in ("cache", "local") for r in resolved) if resolved else None)
        await send_reply(interaction, deck_reply(report, emoji=self.bot.emoji, stale=stale_note(resolved)))


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(DeckCog(bot))
