"""/deckcheck commander:<name> [partner:<name>] [decklist:<attachment>] [list:<text>].

Checks a whole Commander decklist (uploaded as a text file, or pasted) against its commander: color
identity with evidence, unknown names, singleton, deck size, banned cards, commander eligibility and
partner pairing. The reply is a summary embed; when the report is long, the full plain-text report (the
same one `python -m bot check-deck` prints) is attached as a file. Bad input gets an ephemeral error.
The interaction is deferred first: the attachment has to be downloaded and names may need Scryfall.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.bot import note, reply_error
from bot.cards.model import ScryfallUnavailable
from bot.deck.parser import MAX_BYTES, DeckInputError, decode, split_pasted
from bot.deck.runner import CommanderNotFound, check_decklist
from bot.present import embeds, render
from bot.present.deck_report import FILE_NAME, needs_attachment, summary_embed, text_report

if TYPE_CHECKING:
    from bot.app.bot import IdentityBot

log = logging.getLogger("bot.cogs.deck")

NO_PINGS = discord.AllowedMentions.none()
MAX_PASTE = 6000  # Discord's longest string option
AUTOCOMPLETE_TIMEOUT = 2.0  # Discord drops autocomplete answers after 3 s


def input_problem(commander: str, partner: str | None, decklist: discord.Attachment | None,
                  pasted: str | None) -> str | None:
    """An ephemeral error text for options that can't be checked, or None when they are fine."""
    for label, value in (("commander", commander), ("partner", partner)):
        if value is None:
            continue
        if label == "commander" and not value.strip():
            return embeds.empty_text(label)
        if len(value) > embeds.MAX_INPUT:
            return embeds.too_long_text(len(value), label)
    if decklist is None and not (pasted and pasted.strip()):
        return ("Please give the decklist: attach it as a text file (`decklist:`) or paste it (`list:`). "
                "Exports from Moxfield, Archidekt, Arena or MTGO work as they are.")
    if decklist is not None and pasted and pasted.strip():
        return "Please give the decklist once: either as a file (`decklist:`) or pasted (`list:`), not both."
    if decklist is not None and decklist.size > MAX_BYTES:
        return (f"That file is {decklist.size:,} bytes; a decklist file can be at most {MAX_BYTES // 1024} KB. "
                f"Please upload just the list.")
    return None


class DeckCog(commands.Cog, name="Deck"):
    def __init__(self, bot: IdentityBot) -> None:
        self.bot = bot

    async def _read(self, decklist: discord.Attachment | None, pasted: str | None) -> str:
        if decklist is None:
            return split_pasted(pasted or "")
        try:
            data = await decklist.read()
        except discord.HTTPException as exc:
            raise DeckInputError("I couldn't download the attached file; please upload it again") from exc
        return decode(data)

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
        interaction: discord.Interaction,
        commander: str,
        partner: str | None = None,
        decklist: discord.Attachment | None = None,
        list_text: app_commands.Range[str, 1, MAX_PASTE] | None = None,
    ) -> None:
        problem = input_problem(commander, partner, decklist, list_text)
        if problem:
            note(interaction, "invalid")
            await reply_error(interaction, problem)
            return
        await interaction.response.defer(thinking=True)
        try:
            text = await self._read(decklist, list_text)
            report, resolved = await check_decklist(self.bot.cards, text, commander, partner)
        except CommanderNotFound as exc:
            note(interaction, "ambiguous" if exc.ambiguous else "not_found", card=exc.query)
            if exc.ambiguous:
                await reply_error(interaction, embeds.ambiguous_text(exc.query, exc.suggestions, exc.option))
            else:
                await reply_error(interaction, embeds.not_found_text(exc.query, exc.suggestions, exc.option))
            return
        except DeckInputError as exc:
            note(interaction, "invalid")
            await reply_error(interaction, f"I can't check that decklist: {render.echo(str(exc), 300)}.")
            return
        except ScryfallUnavailable as exc:
            note(interaction, "scryfall_unavailable")
            await reply_error(interaction, embeds.unavailable_text(exc.retry_after))
            return
        note(interaction, "stale" if any(r.source == "stale" for r in resolved) else "ok",
             card=" + ".join(report.commanders) or None,
             cache_hit=all(r.source in ("cache", "local") for r in resolved) if resolved else None)
        full = text_report(report)
        attach = needs_attachment(report, full)
        embed = summary_embed(report, emoji=self.bot.emoji, attached=attach, stale=embeds.stale_note(resolved))
        if attach:
            file = discord.File(io.BytesIO(full.encode("utf-8")), filename=FILE_NAME)
            await interaction.edit_original_response(embed=embed, attachments=[file], allowed_mentions=NO_PINGS)
        else:
            await interaction.edit_original_response(embed=embed, allowed_mentions=NO_PINGS)

    async def _complete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Commander names for a partial name from the card service; never raises."""
        if not current or len(current) > embeds.MAX_INPUT or self.bot.cards is None:
            return []
        try:
            async with asyncio.timeout(AUTOCOMPLETE_TIMEOUT):
                names = await self.bot.cards.autocomplete(current, commanders_only=True)
        except Exception as exc:  # a slow or failing lookup must not break typing
            note(interaction, "timeout" if isinstance(exc, TimeoutError) else "error")
            log.warning("deckcheck autocomplete for %r failed: %s", current[:50], type(exc).__name__)
            return []
        values = list(dict.fromkeys(str(n)[:100] for n in names if str(n).strip()))[:25]
        return [app_commands.Choice(name=v, value=v) for v in values]

    @deckcheck.autocomplete("commander")
    async def _commander(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._complete(interaction, current)

    @deckcheck.autocomplete("partner")
    async def _partner(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._complete(interaction, current)


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(DeckCog(bot))
