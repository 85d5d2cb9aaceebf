"""The command tree: every interaction is observed and counted, the per-user cooldown is applied, and
expected errors are turned into replies in one place, the `EXPECTED` table (error type -> outcome and
reply), the way Red-DiscordBot's tree maps errors. Cogs raise typed errors and stay thin.

A reply for a card option that names several cards, or no card but close names, carries a `Choice`: the
tree then answers with a menu of the candidates (`bot.app.picks.CardPick`) whose pick runs the command
again with the picked card in that option (`retry_for_command`, `rerun_command`). Interactions that are not
slash commands (a pick, a submitted form) that re-run or finish a command are observed like it, and get their
errors answered the same way, through `run_followup`.

Every command is declared for both installation kinds (a server install, and a user install that works in
DMs, group DMs and any server) as far as the application's settings allow (`sync_contexts`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.app.observe import COMMAND, RECEIVED, RETRY, record
from bot.app.options import card_query_text
from bot.app.picks import CardPick, Choice, Rerun, Retry, option_of
from bot.app.replies import Sent, received_at, send_ephemeral
from bot.cards.model import AmbiguousCard, BadCardName, CardNotFound, ScryfallBusy, ScryfallUnavailable
from bot.deck.errors import CommanderNotFound, NoCommander
from bot.deck.parser import DeckInputError
from bot.deck.sources import DeckSourceError, DeckSourceErrorCode
from bot.ops.metrics import Outcome
from bot.present import choices, deck_errors, decklinks, errors
from bot.present.message import CONTENT_LIMIT
from bot.present.render import truncate

if TYPE_CHECKING:
    from bot.app.bot import IdentityBot

__all__ = ["EXPECTED", "ErrorReply", "IdentityTree", "InputProblem", "expected_reply", "record", "unwrap"]

log = logging.getLogger(__name__)

#: Where every command can be used: servers, the DM with the bot, group DMs and DMs between users.
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


class InputProblem(Exception):
    """Options a command can't work with; `text` (from the presentation layer) says why."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True, slots=True)
class ErrorReply:
    """What the user is told about an expected error: the outcome (metrics, log), the text, and for a card
    option the user can fix by picking, the `Choice` to offer."""

    outcome: Outcome
    text: str
    choice: Choice | None = None


def _bad_name(e: BadCardName) -> ErrorReply:
    if e.problem == "too_long":
        return ErrorReply(Outcome.INVALID, errors.too_long_text(e.length, e.option))
    return ErrorReply(Outcome.INVALID, errors.empty_text(e.option))


def _pick(kind: choices.PickKind, query: str, option: str | None, names: list[str]) -> Choice | None:
    return Choice(kind, query, option, tuple(names)) if names else None


def _card_reply(query: str, option: str | None, names: list[str], *, ambiguous: bool) -> ErrorReply:
    """The reply for a card option that names several cards (`ambiguous`) or none: the candidates or the
    close names, offered as a `Choice` when there are any."""
    if ambiguous:
        return ErrorReply(Outcome.AMBIGUOUS, errors.ambiguous_text(query, names, option),
                          _pick("ambiguous", query, option, names))
    return ErrorReply(Outcome.NOT_FOUND, errors.not_found_text(query, names, option),
                      _pick("not_found", query, option, names))


def _not_found(e: CardNotFound) -> ErrorReply:
    return _card_reply(e.query, e.option, e.suggestions, ambiguous=False)


def _ambiguous(e: AmbiguousCard) -> ErrorReply:
    return _card_reply(e.query, e.option, e.candidates, ambiguous=True)


def _commander(e: CommanderNotFound) -> ErrorReply:
    return _card_reply(e.query, e.option, e.suggestions, ambiguous=e.ambiguous)


_DECK_SOURCE_OUTCOMES = {
    DeckSourceErrorCode.MALFORMED_URL: Outcome.INVALID,
    DeckSourceErrorCode.PRIVATE: Outcome.NOT_FOUND,
    DeckSourceErrorCode.NOT_FOUND: Outcome.NOT_FOUND,
    DeckSourceErrorCode.NOT_A_DECK: Outcome.INVALID,
    DeckSourceErrorCode.TOO_LARGE: Outcome.INVALID,
}


def _deck_source(e: DeckSourceError) -> ErrorReply:
    outcome = _DECK_SOURCE_OUTCOMES.get(e.code, Outcome.BUSY)  # unavailable, rate-limited, busy: try again
    text = decklinks.deck_link_error_text(e.code.value, e.site.label if e.site else None, e.retry_after_seconds)
    return ErrorReply(outcome, text)


#: Every expected error, most specific first: its outcome (metrics, log) and what the user is told.
EXPECTED: tuple[tuple[type[Exception], Callable[[Any], ErrorReply]], ...] = (
    (InputProblem, lambda e: ErrorReply(Outcome.INVALID, e.text)),
    (BadCardName, _bad_name),
    (CardNotFound, _not_found),
    (AmbiguousCard, _ambiguous),
    (ScryfallBusy, lambda e: ErrorReply(Outcome.BUSY, errors.busy_text(e.retry_after))),
    (ScryfallUnavailable, lambda e: ErrorReply(Outcome.SCRYFALL_UNAVAILABLE, errors.unavailable_text(e.retry_after))),
    (CommanderNotFound, _commander),
    (NoCommander, lambda e: ErrorReply(Outcome.INVALID, decklinks.no_commander_text())),
    (DeckInputError, lambda e: ErrorReply(Outcome.INVALID, deck_errors.deck_input_text(e))),
    (DeckSourceError, _deck_source),
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


def install_types(app: discord.AppInfo | None) -> app_commands.AppInstallationType:
    """The installation kinds to declare: those the application has enabled (Developer Portal >
    Installation); a server install when it says nothing."""
    guild = app is not None and app.guild_integration_config is not None
    user = app is not None and app.user_integration_config is not None
    if not guild and not user:
        return app_commands.AppInstallationType(guild=True)
    return app_commands.AppInstallationType(guild=guild, user=user)


class IdentityTree(app_commands.CommandTree["IdentityBot"]):
    """Observes every interaction, applies the per-user cooldown, answers expected errors."""

    def __init__(self, client: IdentityBot, **options: Any) -> None:
        options.setdefault("allowed_contexts", EVERYWHERE)
        super().__init__(client, **options)

    def sync_contexts(self, app: discord.AppInfo | None) -> app_commands.AppInstallationType:
        """Declare every command for the installation kinds the application has enabled; logs how to enable
        the user install when it is off. Returns what is declared."""
        installs = install_types(app)
        self.allowed_installs = installs
        if not installs.user:
            log.warning("user install is off for this application, so the commands work only where the bot "
                        "is invited; to let people add it to their account, enable 'User Install' in the "
                        "Developer Portal (Installation > Installation Contexts)")
        return installs

    async def interaction_check(self, interaction: discord.Interaction[IdentityBot], /) -> bool:
        """Start observing the interaction; refuse a slash command over the user's cooldown (USER_RATE) with
        discord.py's CommandOnCooldown, answered by `on_error`. Autocomplete is never limited."""
        started = time.perf_counter()
        interaction.extras[RECEIVED] = started
        self.client.watch(interaction, started)
        self._check_cooldown(interaction)
        return True

    def _check_cooldown(self, interaction: discord.Interaction[IdentityBot]) -> None:
        limiter = self.client.limiter
        if interaction.type is discord.InteractionType.autocomplete or limiter is None:
            return
        wait = limiter.hit(interaction.user.id)
        if wait is not None:
            raise app_commands.CommandOnCooldown(app_commands.Cooldown(limiter.rate, limiter.per), wait)

    async def on_error(self, interaction: discord.Interaction[IdentityBot],
                       error: app_commands.AppCommandError) -> None:
        await self.answer_error(interaction, error)

    async def answer_error(self, interaction: discord.Interaction[IdentityBot], error: BaseException) -> None:
        """Answer an error of any interaction (slash or message command, pick, form): an expected error
        with its reply (a menu to pick from when it offers a choice and the command can be re-run), a
        refused reply by logging it, a bug by logging it and saying sorry."""
        command = self._command_name(interaction)
        original = unwrap(error)
        reply = expected_reply(original)
        if reply is not None:
            record(interaction, reply.outcome, card=_query_of(original))
            view = self._pick_view(interaction, reply.choice) if reply.choice is not None else None
            if view is not None and reply.choice is not None:
                text = join_within(reply.text, choices.pick_hint(reply.choice.kind))
                view.sent = await self._send(interaction, text, view=view)
            else:
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

    @staticmethod
    def _command_name(interaction: discord.Interaction[Any]) -> str:
        if interaction.command is not None:
            return interaction.command.qualified_name
        return str(interaction.extras.get(COMMAND) or "?")

    # ------------------------------------------------------------------------------- picking a card
    def _pick_view(self, interaction: discord.Interaction[IdentityBot], choice: Choice) -> CardPick | None:
        """A menu for `choice` when the interaction's command can be re-run with that option replaced."""
        retry: Retry | None = interaction.extras.get(RETRY)
        if retry is None and isinstance(interaction.command, app_commands.Command) \
                and interaction.type is discord.InteractionType.application_command:
            retry = self.retry_for_command(interaction.command, interaction.namespace)
        rerun = retry(choice.option, choice.query) if retry is not None else None
        if rerun is None:
            return None
        return CardPick(choice, rerun, owner_id=interaction.user.id, timeout=self.client.pick_timeout)

    def retry_for_command(self, command: app_commands.Command[Any, ..., Any],
                          namespace: app_commands.Namespace) -> Retry:
        """How to run a slash command again with one card option replaced (its other options unchanged)."""

        def retry(label: str | None, query: str) -> Rerun | None:
            option = option_of(list(namespace), label, query, card_query_text)
            if option is None:
                return None

            async def rerun(interaction: discord.Interaction[Any], name: str) -> None:
                await self.rerun_command(interaction, command, replaced_option(namespace, option, name))

            return rerun

        return retry

    async def rerun_command(self, interaction: discord.Interaction[IdentityBot],
                            command: app_commands.Command[Any, ..., Any], namespace: app_commands.Namespace) -> None:
        """Run `command` with `namespace` for `interaction` (a pick), under the user's cooldown, through
        `run_followup` (a later option that needs a pick gets its own menu)."""
        await self.run_followup(
            interaction, command.qualified_name, self.retry_for_command(command, namespace),
            # discord.py's own path for a command with its options (transformers, then the callback)
            lambda: command._invoke_with_namespace(interaction, namespace), cooldown=True)

    async def run_followup(self, interaction: discord.Interaction[IdentityBot], name: str, retry: Retry,
                           work: Callable[[], Awaitable[object]], *, cooldown: bool = False) -> None:
        """Run `work` for an interaction that re-runs or finishes the command `name` (a pick, a submitted
        form), whose payload names no command: observed like that command, under the user's cooldown with
        `cooldown`, its errors answered by `answer_error` (a card option that needs a pick gets a menu whose
        pick runs `retry`)."""
        started = received_at(interaction)
        interaction.extras[COMMAND] = name
        interaction.extras[RETRY] = retry
        self.client.watch(interaction, started)
        try:
            if cooldown:
                self._check_cooldown(interaction)
            await work()
        except Exception as exc:
            interaction.command_failed = True
            await self.answer_error(interaction, exc)

    async def _send(self, interaction: discord.Interaction[IdentityBot], text: str, *, quiet: bool = False,
                    view: discord.ui.View | None = None) -> Sent:
        sent = await send_ephemeral(interaction, text, view=view)
        if sent.error is not None:
            refused = sent.error
            self.client.metrics.observe_reply_error(refused.status)
            log.log(logging.DEBUG if quiet else logging.WARNING, "could not send error reply (HTTP %s): %s",
                    refused.status, str(refused.text)[:200])
            if view is not None:
                view.stop()
        return sent


def replaced_option(namespace: app_commands.Namespace, option: str, value: Any) -> app_commands.Namespace:
    """A copy of a command's options with one replaced (a Namespace answers None for any missing attribute,
    which `copy.copy` can't handle, so the copy is made by hand)."""
    replaced = app_commands.Namespace.__new__(app_commands.Namespace)
    replaced.__dict__.update(namespace.__dict__)
    replaced.__dict__[option] = value
    return replaced


def join_within(text: str, line: str) -> str:
    """`text` and `line` on the next line, `text` shortened so both fit in a message's content."""
    room = CONTENT_LIMIT - len(line) - 1
    return f"{truncate(text, room)}\n{line}"


def _query_of(error: BaseException) -> str | None:
    query = error.query if isinstance(error, CardNotFound | AmbiguousCard | BadCardName | CommanderNotFound) else None
    return query or None
