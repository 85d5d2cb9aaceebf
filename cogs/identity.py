"""Slash commands /identity, /fits and /help. Thin glue: the card service finds cards, the identity
engine explains them, `bot.present.embeds` renders the answer.

Replies: when every card is already known locally (`cards.peek`) the answer goes out directly;
otherwise the interaction is deferred first (Scryfall may take a moment). Errors are ephemeral.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.bot import note, reply_error
from bot.cards.model import AmbiguousCard, CardLookupError, CardNotFound, Resolved, ScryfallUnavailable
from bot.cards.names import clean_input, normalize
from bot.identity import analyze, check_fit, check_pairing, commander_eligibility
from bot.present import embeds

if TYPE_CHECKING:
    from bot.app.bot import IdentityBot

log = logging.getLogger("bot.cogs.identity")

AUTOCOMPLETE_TIMEOUT = 2.0  # Discord drops autocomplete answers after 3 s
MAX_CHOICES = 25
RECENT_FIRST = 5  # recently looked-up names shown before the card service's matches
NO_PINGS = discord.AllowedMentions.none()


class RecentNames:
    """Card names recently looked up, per server (or per user in DMs), newest first.

    Autocomplete shows the ones matching what is being typed before the card service's matches, so
    the cards a server talks about are one keystroke away (`fire` -> Fires of Undeath once someone
    asked about it). Bounded: `per_scope` names for each of at most `scopes` servers.
    """

    def __init__(self, per_scope: int = 64, scopes: int = 2048) -> None:
        self.per_scope = per_scope
        self.scopes = scopes
        self._by_scope: OrderedDict[int, OrderedDict[str, tuple[str, bool]]] = OrderedDict()

    def add(self, scope: int, name: str, *, commander: bool) -> None:
        names = self._by_scope.get(scope)
        if names is None:
            names = self._by_scope[scope] = OrderedDict()
            if len(self._by_scope) > self.scopes:
                self._by_scope.popitem(last=False)
        else:
            self._by_scope.move_to_end(scope)
        names[name] = (normalize(name), commander)
        names.move_to_end(name)
        if len(names) > self.per_scope:
            names.popitem(last=False)

    def matching(self, scope: int, text: str, *, commanders_only: bool = False,
                 limit: int = RECENT_FIRST) -> list[str]:
        names = self._by_scope.get(scope)
        q = normalize(text)
        if not names or not q:
            return []
        out: list[str] = []
        for name, (key, commander) in reversed(names.items()):
            if commanders_only and not commander:
                continue
            if f" {q}" in f" {key}":  # the name, or one of its words, starts with the text
                out.append(name)
                if len(out) == limit:
                    break
        return out


def scope_of(interaction: discord.Interaction) -> int:
    return interaction.guild_id or interaction.user.id


@dataclass(frozen=True, slots=True)
class Query:
    label: str | None  # the option name shown in error messages (None when there is only one)
    name: str
    commander: bool = False


def input_problem(name: str | None, label: str | None = None) -> str | None:
    """Why a typed card name can't be looked up (empty, too long), or None when it is fine."""
    if name is None or not clean_input(name):  # nothing left once control characters are removed
        return embeds.empty_text(label)
    if len(name) > embeds.MAX_INPUT:
        return embeds.too_long_text(len(name), label)
    return None


OUTCOME_OF = {CardNotFound: "not_found", AmbiguousCard: "ambiguous", ScryfallUnavailable: "scryfall_unavailable"}


def note_found(interaction: discord.Interaction, found: list[Resolved]) -> None:
    """Observer notes for an answered command: stale or ok, the (first) card's name, cache hit or not."""
    note(interaction, "stale" if any(r.source == "stale" for r in found) else "ok", card=found[0].name,
         cache_hit=all(r.source in ("cache", "local") for r in found))


def lookup_error_text(error: CardLookupError, label: str | None = None) -> str:
    if isinstance(error, CardNotFound):
        return embeds.not_found_text(error.query, error.suggestions, label)
    if isinstance(error, AmbiguousCard):
        return embeds.ambiguous_text(error.query, error.candidates, label)
    if isinstance(error, ScryfallUnavailable):
        return embeds.unavailable_text(error.retry_after)
    return embeds.error_text()


async def send_embed(interaction: discord.Interaction, embed: discord.Embed) -> None:
    """Answer with `embed`: directly, or by editing the deferred "thinking…" message."""
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=embed, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)


class IdentityCog(commands.Cog, name="Identity"):
    def __init__(self, bot: IdentityBot) -> None:
        self.bot = bot
        self.recent = RecentNames()

    def remember(self, interaction: discord.Interaction, card: dict, *, commander: bool | None = None) -> None:
        if commander is None:
            commander = commander_eligibility(card).ok
        self.recent.add(scope_of(interaction), str(card.get("name") or ""), commander=commander)

    # ------------------------------------------------------------------------------------- helpers
    async def resolve_all(self, interaction: discord.Interaction, queries: list[Query]) -> list[Resolved] | None:
        """Resolve every query, replying with an ephemeral error (and returning None) when one fails.

        Answers from the local cache need no deferral; anything else defers first.
        """
        for q in queries:
            problem = input_problem(q.name, q.label)
            if problem:
                note(interaction, "invalid")
                await reply_error(interaction, problem)
                return None
        service = self.bot.cards
        peeked = [await service.peek(q.name.strip()) for q in queries]
        if all(p is not None for p in peeked):
            return peeked  # type: ignore[return-value]

        await interaction.response.defer(thinking=True)

        async def one(q: Query, known: Resolved | None) -> Resolved:
            if known is not None:
                return known
            if q.commander:
                return await service.resolve_commander(q.name.strip())
            return await service.resolve(q.name.strip())

        results = await asyncio.gather(*(one(q, p) for q, p in zip(queries, peeked, strict=True)),
                                       return_exceptions=True)
        for q, r in zip(queries, results, strict=True):
            if isinstance(r, CardLookupError):
                note(interaction, OUTCOME_OF.get(type(r), "error"), card=q.name)
                await reply_error(interaction, lookup_error_text(r, q.label))
                return None
        for r in results:
            if isinstance(r, BaseException):
                raise r
        return results  # type: ignore[return-value]

    async def complete(self, interaction: discord.Interaction, current: str, *,
                       commanders_only: bool = False) -> list[app_commands.Choice[str]]:
        """Autocomplete choices for a card option; never raises (an empty list on any problem)."""
        if not current or len(current) > embeds.MAX_INPUT or self.bot.cards is None:
            return []
        names = self.recent.matching(scope_of(interaction), current, commanders_only=commanders_only)
        try:
            async with asyncio.timeout(AUTOCOMPLETE_TIMEOUT):
                names += await self.bot.cards.autocomplete(current, commanders_only=commanders_only)
        except Exception as exc:  # a slow or failing lookup must not break typing
            note(interaction, "timeout" if isinstance(exc, TimeoutError) else "error")
            log.warning("autocomplete failed: %s", type(exc).__name__)
        choices: list[app_commands.Choice[str]] = []
        seen: set[str] = set()
        for name in names:
            value = str(name)[:100].rstrip()
            if not value or value in seen:
                continue
            seen.add(value)
            choices.append(app_commands.Choice(name=value, value=value))
            if len(choices) == MAX_CHOICES:
                break
        return choices

    # ------------------------------------------------------------------------------------ commands
    @app_commands.command(name="identity", description="Explain a card's color and its Commander color identity.")
    @app_commands.describe(card="Card name (start typing and pick one)")
    async def identity(self, interaction: discord.Interaction, card: str) -> None:
        found = await self.resolve_all(interaction, [Query(None, card)])
        if found is None:
            return
        resolved = found[0]
        note_found(interaction, found)
        self.remember(interaction, resolved.card)
        analysis = analyze(resolved.card)
        embed = embeds.identity_embed(analysis, resolved.card, emoji=self.bot.emoji,
                                      stale=embeds.stale_note(found))
        await send_embed(interaction, embed)

    @app_commands.command(name="fits", description="Check whether a card fits a Commander deck led by a commander.")
    @app_commands.describe(
        card="The card to check",
        commander="Your commander",
        partner="Your second commander (Partner, Background, ...), if any",
    )
    async def fits(self, interaction: discord.Interaction, card: str, commander: str,
                   partner: str | None = None) -> None:
        queries = [Query("card", card), Query("commander", commander, commander=True)]
        if partner is not None:
            queries.append(Query("partner", partner, commander=True))
        found = await self.resolve_all(interaction, queries)
        if found is None:
            return
        the_card, *leaders = found
        note_found(interaction, found)
        leader_cards = [r.card for r in leaders]
        result = check_fit(the_card.card, leader_cards)
        # A Background is no commander alone but is one beside a Choose a Background creature (CR 903.3).
        valid_pair = len(leader_cards) == 2 and check_pairing(leader_cards[0], leader_cards[1]).ok
        self.remember(interaction, the_card.card)
        for leader in leader_cards:
            self.remember(interaction, leader, commander=valid_pair or commander_eligibility(leader).ok)
        embed = embeds.fits_embed(result, the_card.card, leader_cards, emoji=self.bot.emoji,
                                  stale=embeds.stale_note(found))
        await send_embed(interaction, embed)

    @app_commands.command(name="help", description="What this bot does: color, color identity, and examples.")
    async def help_command(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=embeds.help_embed(self.bot.emoji), ephemeral=True,
                                                allowed_mentions=NO_PINGS)

    # -------------------------------------------------------------------------------- autocomplete
    @identity.autocomplete("card")
    async def _identity_card(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, current)

    @fits.autocomplete("card")
    async def _fits_card(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, current)

    @fits.autocomplete("commander")
    async def _fits_commander(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, current, commanders_only=True)

    @fits.autocomplete("partner")
    async def _fits_partner(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, current, commanders_only=True)


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(IdentityCog(bot))
