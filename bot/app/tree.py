"""The command tree: every interaction is observed and counted, the per-user cooldown is applied, and
expected errors are turned into replies in one place, the `EXPECTED` table (error type -> outcome and
reply), the way Red-DiscordBot's tree maps errors. Cogs raise typed errors and stay thin.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.app.replies import send_error
from bot.cards.model import AmbiguousCard, BadCardName, CardNotFound, ScryfallBusy, ScryfallUnavailable
from bot.deck.parser import DeckInputError
from bot.deck.runner import CommanderNotFound
from bot.ops.metrics import Outcome
from bot.present import errors

if TYPE_CHECKING:
    from bot.app.bot import IdentityBot

log = logging.getLogger(__name__)


class InputProblem(Exception):
    """Options a command can't work with; `text` (from the presentation layer) says why."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True, slots=True)
class ErrorReply:
    outcome: Outcome
    text: str


def _bad_name(e: BadCardName) -> ErrorReply:
    if e.problem == "too_long":
        return ErrorReply(Outcome.INVALID, errors.too_long_text(e.length, e.option))
    return ErrorReply(Outcome.INVALID, errors.empty_text(e.option))


def _commander(e: CommanderNotFound) -> ErrorReply:
    if e.ambiguous:
        return ErrorReply(Outcome.AMBIGUOUS, errors.ambiguous_text(e.query, e.suggestions, e.option))
    return ErrorReply(Outcome.NOT_FOUND, errors.not_found_text(e.query, e.suggestions, e.option))


#: Every expected error, most specific first: its outcome (metrics, log) and what the user is told.
EXPECTED: tuple[tuple[type[Exception], Callable[[Any], ErrorReply]], ...] = (
    (InputProblem, lambda e: ErrorReply(Outcome.INVALID, e.text)),
    (BadCardName, _bad_name),
    (CardNotFound, lambda e: ErrorReply(Outcome.NOT_FOUND, errors.not_found_text(e.query, e.suggestions, e.option))),
    (AmbiguousCard, lambda e: ErrorReply(Outcome.AMBIGUOUS, errors.ambiguous_text(e.query, e.candidates, e.option))),
    (ScryfallBusy, lambda e: ErrorReply(Outcome.BUSY, errors.busy_text(e.retry_after))),
    (ScryfallUnavailable, lambda e: ErrorReply(Outcome.SCRYFALL_UNAVAILABLE, errors.unavailable_text(e.retry_after))),
    (CommanderNotFound, _commander),
    (DeckInputError, lambda e: ErrorReply(Outcome.INVALID, errors.deck_input_text(str(e)))),
    (app_commands.CommandOnCooldown, lambda e: ErrorReply(Outcome.COOLDOWN, errors.cooldown_text(e.retry_after))),
)


def expected_reply(error: BaseException) -> ErrorReply | None:
    """The reply for an expected error, or None for a bug."""
    for kind, make in EXPECTED:
        if isinstance(error, kind):
            return make(error)
    return None


def unwrap(error: BaseException) -> BaseException:
    """The error a command raised, out of discord.py's wrappers (CommandInvokeError, TransformerError)."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    if isinstance(error, app_commands.TransformerError) and error.__cause__ is not None:
        return error.__cause__
    return error


def record(interaction: discord.Interaction[Any], outcome: Outcome | None = None, *, card: str | None = None,
           cache_hit: bool | None = None) -> None:
    """Tell the observer how a command went (read once the interaction's task ends)."""
    extras = interaction.extras
    if outcome is not None:
        extras["outcome"] = outcome
    if card is not None:
        extras["card"] = card
    if cache_hit is not None:
        extras["cache_hit"] = cache_hit


class IdentityTree(app_commands.CommandTree["IdentityBot"]):
    """Observes every interaction, applies the per-user cooldown, answers expected errors."""

    async def interaction_check(self, interaction: discord.Interaction[IdentityBot], /) -> bool:
        """Start observing the interaction; refuse a slash command over the user's cooldown (USER_RATE) with
        discord.py's CommandOnCooldown, answered by `on_error`. Autocomplete is never limited."""
        self.client.watch(interaction, time.perf_counter())
        limiter = self.client.limiter
        if interaction.type is discord.InteractionType.application_command and limiter is not None:
            wait = limiter.hit(interaction.user.id)
            if wait is not None:
                raise app_commands.CommandOnCooldown(app_commands.Cooldown(limiter.rate, limiter.per), wait)
        return True

    async def on_error(self, interaction: discord.Interaction[IdentityBot],
                       error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        original = unwrap(error)
        reply = expected_reply(original)
        if reply is not None:
            record(interaction, reply.outcome, card=_query_of(original))
            await self._send(interaction, reply.text)
            return
        if isinstance(original, discord.HTTPException):
            # Discord refused our reply (or the interaction expired): log once, count, no retry loop.
            record(interaction, Outcome.REJECTED)
            self.client.metrics.observe_reply_error(original.status)
            log.warning("Discord rejected the reply to /%s (HTTP %s, code %s): %s", command, original.status,
                        original.code, str(original.text)[:200])
            if original.status not in (404, 429):  # 404: the interaction expired; 429: don't push harder
                await self._send(interaction, errors.error_text(), quiet=True)
            return
        record(interaction, Outcome.ERROR)
        if isinstance(error, app_commands.CommandNotFound):
            log.warning("interaction for unknown command %r", command)
        else:
            log.error("error in /%s", command, exc_info=(type(original), original, original.__traceback__))
        await self._send(interaction, errors.error_text())

    async def _send(self, interaction: discord.Interaction[IdentityBot], text: str, *, quiet: bool = False) -> None:
        refused = await send_error(interaction, text)
        if refused is not None:
            self.client.metrics.observe_reply_error(refused.status)
            log.log(logging.DEBUG if quiet else logging.WARNING, "could not send error reply (HTTP %s): %s",
                    refused.status, str(refused.text)[:200])


def _query_of(error: BaseException) -> str | None:
    query = error.query if isinstance(error, CardNotFound | AmbiguousCard | BadCardName | CommanderNotFound) else None
    return query or None
