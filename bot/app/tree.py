"""The command tree: every interaction is observed and counted, the per-user cooldown is applied, and
expected errors are turned into replies in one place, the `EXPECTED` table (error type -> outcome and
reply), the way Red-DiscordBot's tree maps errors. Cogs raise typed errors and stay thin.

A reply for a card option that names several cards, or no card but close names, carries a `Choice`: the
tree then answers with a menu of the candidates (`bot.app.picks.CardPick`) whose pick runs the command
again with the picked card in that option: each command runs its work through `run_command` with its options,
and the pick calls that same work with the picked card (`retry`). Interactions that are not slash commands (a
pick, a submitted form) that re-run or finish a command are observed like it, and get their errors answered the
same way, through `run_followup`.

The per-user cooldown (`USER_RATE`) is discord.py's own `CooldownMapping`, keyed by user: one budget across
all commands, picks that re-run a command included; autocomplete is never limited.

Every command is declared for both installation kinds (a server install, and a user install that works in
DMs, group DMs and any server) as far as the application's settings allow (`sync_contexts`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext.commands import CooldownMapping

from bot.app.context import App
from bot.app.observe import COMMAND, RECEIVED, RETRY, record
from bot.app.options import CardQuery, card_query, option_for
from bot.app.picks import CardPick, Choice, Rerun, Retry
from bot.app.replies import Sent, received_at, send_ephemeral
from bot.cards.model import AmbiguousCard, BadCardName, CardNotFound, ScryfallBusy, ScryfallUnavailable
from bot.deck.errors import CommanderNotFound, NoCommander
from bot.deck.parser import DeckInputError
from bot.deck.sources import DeckSourceError, DeckSourceErrorCode
from bot.ops.metrics import Outcome
from bot.present import choices, deck_errors, decklinks, errors, i18n
from bot.present.message import CONTENT_LIMIT
from bot.present.render import truncate

__all__ = ["EXPECTED", "ErrorReply", "IdentityTree", "InputProblem", "expected_reply", "record", "unwrap"]

log = logging.getLogger(__name__)

#: A command's work: the interaction and the command's options (by name), as its callback received them.
Work = Callable[..., Awaitable[None]]

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


def _card_reply(query: str, option: str | None, names: list[str], *, ambiguous: bool) -> ErrorReply:
    """The reply for a card option that names several cards (`ambiguous`) or none: the candidates or the
    close names, offered as a `Choice` when there are any."""
    kind: choices.PickKind = "ambiguous" if ambiguous else "not_found"
    text = (errors.ambiguous_text if ambiguous else errors.not_found_text)(query, names, option)
    choice = Choice(kind, query, option, tuple(names)) if names else None
    return ErrorReply(Outcome.AMBIGUOUS if ambiguous else Outcome.NOT_FOUND, text, choice)


_DECK_SOURCE_OUTCOMES = {
    DeckSourceErrorCode.MALFORMED_URL: Outcome.INVALID,
    DeckSourceErrorCode.PRIVATE: Outcome.NOT_FOUND,
    DeckSourceErrorCode.NOT_FOUND: Outcome.NOT_FOUND,
    DeckSourceErrorCode.NOT_A_DECK: Outcome.INVALID,
    DeckSourceErrorCode.TOO_LARGE: Outcome.INVALID,
}


def _deck_source(e: DeckSourceError) -> ErrorReply:
    outcome = _DECK_SOURCE_OUTCOMES.get(e.code, Outcome.BUSY)  # unavailable, rate-limited, busy: try again
    text = decklinks.deck_link_error_text(
        e.code.value, e.site.label if e.site else None, e.retry_after_seconds
    )
    return ErrorReply(outcome, text)


#: Every expected error, most specific first: its outcome (metrics, log) and what the user is told.
EXPECTED: tuple[tuple[type[Exception], Callable[[Any], ErrorReply]], ...] = (
    (InputProblem, lambda e: ErrorReply(Outcome.INVALID, e.text)),
    (BadCardName, _bad_name),
    (CardNotFound, lambda e: _card_reply(e.query, e.option, e.suggestions, ambiguous=False)),
    (AmbiguousCard, lambda e: _card_reply(e.query, e.option, e.candidates, ambiguous=True)),
    (ScryfallBusy, lambda e: ErrorReply(Outcome.BUSY, errors.busy_text(e.retry_after))),
    (
        ScryfallUnavailable,
        lambda e: ErrorReply(Outcome.SCRYFALL_UNAVAILABLE, errors.unavailable_text(e.retry_after)),
    ),
    (CommanderNotFound, lambda e: _card_reply(e.query, e.option, e.suggestions, ambiguous=e.ambiguous)),
    (NoCommander, lambda e: ErrorReply(Outcome.INVALID, decklinks.no_commander_text())),
    (DeckInputError, lambda e: ErrorReply(Outcome.INVALID, deck_errors.deck_input_text(e))),
    (DeckSourceError, _deck_source),
    (
        app_commands.CommandOnCooldown,
        lambda e: ErrorReply(Outcome.COOLDOWN, errors.cooldown_text(e.retry_after)),
    ),
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


class IdentityTree(app_commands.CommandTree[Any]):
    """Observes every interaction, applies the per-user cooldown, answers expected errors."""

    def __init__(self, client: Any, **options: Any) -> None:
        options.setdefault("allowed_contexts", EVERYWHERE)
        super().__init__(client, **options)
        self.cooldown: CooldownMapping[discord.Interaction[Any]] | None = None
        self.clock: Callable[[], float] = time.time  # the cooldown's clock (tests pass a fake one)

    @property
    def app(self) -> App:
        app: App = self.client
        return app

    def limit_users(self, rate: tuple[int, float] | None) -> None:
        """At most `rate` = (commands, seconds) per user across all commands (USER_RATE); None: no limit."""
        self.cooldown = CooldownMapping.from_cooldown(*rate, user_of) if rate else None

    def sync_contexts(self, app: discord.AppInfo | None) -> app_commands.AppInstallationType:
        """Declare every command for the installation kinds the application has enabled; logs how to enable
        the user install when it is off. Returns what is declared."""
        installs = install_types(app)
        self.allowed_installs = installs
        if not installs.user:
            log.warning(
                "user install is off for this application, so the commands work only where the bot "
                "is invited; to let people add it to their account, enable 'User Install' in the "
                "Developer Portal (Installation > Installation Contexts)"
            )
        return installs

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Start observing the interaction; refuse a slash command over the user's cooldown (USER_RATE) with
        discord.py's CommandOnCooldown, answered by `on_error`. Autocomplete is never limited."""
        i18n.set_locale(interaction.locale.value)  # replies in the player's language (this task only)
        started = time.perf_counter()
        interaction.extras[RECEIVED] = started
        self.app.watch(interaction, started)
        self._check_cooldown(interaction)
        return True

    def _check_cooldown(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.autocomplete:
            refuse_over_cooldown(self.cooldown, interaction, self.clock())

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await self.answer_error(interaction, error)

    async def answer_error(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
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
            self.app.metrics.observe_reply_error(original.status)
            log.warning(
                "Discord rejected the reply to /%s (HTTP %s, code %s): %s",
                command,
                original.status,
                original.code,
                str(original.text)[:200],
            )
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
    def _pick_view(self, interaction: discord.Interaction[Any], choice: Choice) -> CardPick | None:
        """A menu for `choice` when the interaction's command can be re-run with that option replaced."""
        retry: Retry | None = interaction.extras.get(RETRY)
        rerun = retry(choice.option, choice.query) if retry is not None else None
        if rerun is None:
            return None
        return CardPick(choice, rerun, owner_id=interaction.user.id, timeout=self.app.pick_timeout)

    async def run_command(self, interaction: discord.Interaction[Any], work: Work, **options: Any) -> None:
        """Run a slash command's `work` with its options, so that a card option that needs a pick can be
        finished by the pick: the pick calls `work` again with the picked card (`retry`)."""
        interaction.extras[RETRY] = self.retry(self._command_name(interaction), work, options)
        await work(interaction, **options)

    def retry(self, name: str, work: Work, options: Mapping[str, Any]) -> Retry:
        """How to run the command `name` (its `work` with `options`) again with one card option replaced by a
        picked name, under the user's cooldown (`run_followup`)."""

        def retry(label: str | None, query: str) -> Rerun | None:
            option = option_for(options, label, query)
            if option is None:
                return None
            typed: CardQuery = options[option]

            async def rerun(again: discord.Interaction[Any], name_picked: str) -> None:
                async def run() -> None:
                    picked = card_query(typed.option, name_picked, commander=typed.commander)
                    replaced = {**options, option: picked}
                    again.extras[RETRY] = self.retry(name, work, replaced)
                    await work(again, **replaced)

                await self.run_followup(again, name, self.retry(name, work, options), run, cooldown=True)

            return rerun

        return retry

    async def run_followup(
        self,
        interaction: discord.Interaction[Any],
        name: str,
        retry: Retry,
        work: Callable[[], Awaitable[object]],
        *,
        cooldown: bool = False,
    ) -> None:
        """Run `work` for an interaction that re-runs or finishes the command `name` (a pick, a submitted
        form), whose payload names no command: observed like that command, under the user's cooldown with
        `cooldown`, its errors answered by `answer_error` (a card option that needs a pick gets a menu whose
        pick runs `retry`)."""
        started = received_at(interaction)
        interaction.extras[COMMAND] = name
        interaction.extras[RETRY] = retry
        self.app.watch(interaction, started)
        try:
            if cooldown:
                self._check_cooldown(interaction)
            await work()
        except Exception as exc:
            interaction.command_failed = True
            await self.answer_error(interaction, exc)

    async def _send(
        self,
        interaction: discord.Interaction[Any],
        text: str,
        *,
        quiet: bool = False,
        view: discord.ui.View | None = None,
    ) -> Sent:
        sent = await send_ephemeral(interaction, text, view=view)
        if sent.error is not None:
            refused = sent.error
            self.app.metrics.observe_reply_error(refused.status)
            log.log(
                logging.DEBUG if quiet else logging.WARNING,
                "could not send error reply (HTTP %s): %s",
                refused.status,
                str(refused.text)[:200],
            )
            if view is not None:
                view.stop()
        return sent


def user_of(interaction: discord.Interaction[Any]) -> int:
    """The cooldown's key: the user, whatever the command."""
    return interaction.user.id


def refuse_over_cooldown(
    cooldown: CooldownMapping[discord.Interaction[Any]] | None,
    interaction: discord.Interaction[Any],
    now: float,
) -> None:
    """Count one command of the interaction's user at `now` (seconds); raise discord.py's CommandOnCooldown
    when the user is over the limit."""
    bucket = cooldown.get_bucket(interaction, now) if cooldown is not None else None
    wait = bucket.update_rate_limit(now) if bucket is not None else None
    if bucket is not None and wait is not None:
        raise app_commands.CommandOnCooldown(bucket, wait)


def join_within(text: str, line: str) -> str:
    """`text` and `line` on the next line, `text` shortened so both fit in a message's content."""
    room = CONTENT_LIMIT - len(line) - 1
    return f"{truncate(text, room)}\n{line}"


def _query_of(error: BaseException) -> str | None:
    query = (
        error.query
        if isinstance(error, CardNotFound | AmbiguousCard | BadCardName | CommanderNotFound)
        else None
    )
    return query or None
