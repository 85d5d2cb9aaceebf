"""The command tree: observes every interaction, applies one per-user cooldown (autocomplete never limited),
answers expected errors from `EXPECTED`; `run_command` keeps work and options so a pick can rerun them."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext.commands import CooldownMapping

from bot.app.context import COMMAND, RECEIVED, RUN, Interaction, app_of, record
from bot.app.options import option_for
from bot.app.picks import CardPick, Choice
from bot.app.replies import send_ephemeral
from bot.cards.model import AmbiguousCard, BadCardName, CardNotFound, ScryfallBusy, ScryfallUnavailable
from bot.cards.printed import scryfall_language
from bot.deck.errors import CommanderNotFound, NoCommander
from bot.deck.parser import DeckInputError
from bot.deck.sources import DeckSourceError, DeckSourceErrorCode
from bot.house.store import HouseRulesUnavailable
from bot.ops.metrics import Outcome
from bot.present import choices, deck_errors, decklinks, errors, house, i18n
from bot.present.message import CONTENT_LIMIT
from bot.present.render import truncate

log = logging.getLogger(__name__)

#: A command's work: called with the interaction and the command's options by name.
Work = Callable[..., Awaitable[None]]


class InputProblem(Exception):
    """Options a command can't work with; its text (from the presentation layer) says why."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to an expected error: outcome, text, the card it was about, the `Choice` to offer."""

    outcome: Outcome
    text: str
    card: str | None = None
    choice: Choice | None = None


def _bad_name(e: BadCardName) -> Answer:
    too_long = e.problem == "too_long"
    text = errors.too_long_text(e.length, e.option) if too_long else errors.empty_text(e.option)
    return Answer(Outcome.INVALID, text, e.query or None)


def _card_reply(query: str, option: str | None, names: list[str], *, ambiguous: bool) -> Answer:
    """A card option naming several cards (`ambiguous`) or none, with the names as a `Choice` when any."""
    kind: choices.PickKind = "ambiguous" if ambiguous else "not_found"
    text = (errors.ambiguous_text if ambiguous else errors.not_found_text)(query, names, option)
    choice = Choice(kind, query, option, tuple(names)) if names else None
    return Answer(Outcome.AMBIGUOUS if ambiguous else Outcome.NOT_FOUND, text, query or None, choice)


_DECK_SOURCE_OUTCOMES = {
    DeckSourceErrorCode.MALFORMED_URL: Outcome.INVALID,
    DeckSourceErrorCode.PRIVATE: Outcome.NOT_FOUND,
    DeckSourceErrorCode.NOT_FOUND: Outcome.NOT_FOUND,
    DeckSourceErrorCode.NOT_A_DECK: Outcome.INVALID,
    DeckSourceErrorCode.TOO_LARGE: Outcome.INVALID,
}


def _deck_source(e: DeckSourceError) -> Answer:
    outcome = _DECK_SOURCE_OUTCOMES.get(e.code, Outcome.BUSY)  # unavailable, rate-limited, busy: try again
    site = e.site.label if e.site else None
    return Answer(outcome, decklinks.deck_link_error_text(e.code.value, site, e.retry_after_seconds))


#: Every expected error, most specific first: its outcome (metrics, log) and what the user is told.
EXPECTED: tuple[tuple[type[Exception], Callable[[Any], Answer]], ...] = (
    (InputProblem, lambda e: Answer(Outcome.INVALID, str(e))),
    (BadCardName, _bad_name),
    (CardNotFound, lambda e: _card_reply(e.query, e.option, e.suggestions, ambiguous=False)),
    (AmbiguousCard, lambda e: _card_reply(e.query, e.option, e.candidates, ambiguous=True)),
    (ScryfallBusy, lambda e: Answer(Outcome.BUSY, errors.busy_text(e.retry_after))),
    (
        ScryfallUnavailable,
        lambda e: Answer(Outcome.SCRYFALL_UNAVAILABLE, errors.unavailable_text(e.retry_after)),
    ),
    (CommanderNotFound, lambda e: _card_reply(**e.data)),  # data: _card_reply's arguments
    (NoCommander, lambda e: Answer(Outcome.INVALID, decklinks.no_commander_text())),
    (DeckInputError, lambda e: Answer(Outcome.INVALID, deck_errors.deck_input_text(e))),
    (DeckSourceError, _deck_source),
    (app_commands.CommandOnCooldown, lambda e: Answer(Outcome.COOLDOWN, errors.cooldown_text(e.retry_after))),
    (HouseRulesUnavailable, lambda e: Answer(Outcome.ERROR, house.unavailable_text())),
)


class IdentityTree(app_commands.CommandTree[Any]):
    """Observes every interaction, applies the per-user cooldown, answers expected errors."""

    def __init__(self, client: Any, **options: Any) -> None:
        everywhere = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
        super().__init__(client, allowed_contexts=everywhere, **options)
        self.cooldown: CooldownMapping[Interaction] | None = None
        self.clock: Callable[[], float] = time.time  # the cooldown's clock (tests pass a fake one)

    def sync_contexts(self, app: discord.AppInfo | None) -> None:
        """Declare the commands for the installation kinds the application enables (by default a server's)."""
        guild = app is not None and app.guild_integration_config is not None
        user = app is not None and app.user_integration_config is not None
        self.allowed_installs = app_commands.AppInstallationType(guild=guild or not user, user=user)
        if not user:
            log.warning(
                "user install is off, so the commands work only where the bot is invited; enable "
                "'User Install' in the Developer Portal (Installation > Installation Contexts)"
            )

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """Observe the interaction; a slash command over the user's cooldown raises CommandOnCooldown."""
        i18n.set_locale(interaction.locale.value)  # replies in the player's language (this task only)
        interaction.extras[RECEIVED] = time.perf_counter()
        app = app_of(interaction)
        app.watch(interaction)
        app.cards.foreign.note_player(scryfall_language(interaction.locale.value))  # a log line, once
        if interaction.type is not discord.InteractionType.autocomplete:
            refuse_over_cooldown(self.cooldown, interaction, self.clock())
        return True

    async def on_error(self, interaction: Interaction, error: BaseException, /) -> None:
        """An expected error gets its reply (and a pick menu), a refused reply a log line, a bug a sorry."""
        command = _command_name(interaction)
        # the error the command raised, out of discord.py's wrappers
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(original, app_commands.TransformerError) and original.__cause__ is not None:
            original = original.__cause__
        reply = next((make(original) for kind, make in EXPECTED if isinstance(original, kind)), None)
        if reply is not None:
            record(interaction, reply.outcome, card=reply.card)
            view = self._pick(interaction, reply.choice) if reply.choice else None
            hint = choices.pick_hint(view.choice.kind) if view else ""  # the text shortened to fit beside it
            text = f"{truncate(reply.text, CONTENT_LIMIT - len(hint) - 1)}\n{hint}" if hint else reply.text
            edit = await send_ephemeral(interaction, text, view)
            if view is not None:
                view.edit = edit
            return
        if isinstance(original, discord.HTTPException):
            # Discord refused our reply (or the interaction expired): log once, count, no retry loop.
            record(interaction, Outcome.REJECTED)
            app_of(interaction).metrics.observe_reply_error(original.status)
            log.warning("Discord rejected the reply to /%s: %s", command, str(original)[:300])
            if original.status not in (404, 429):  # 404: the interaction expired; 429: don't push harder
                await send_ephemeral(interaction, errors.error_text(), quiet=True)
            return
        record(interaction, Outcome.ERROR)
        if isinstance(error, app_commands.CommandNotFound):
            log.warning("interaction for unknown command %r", command)
        else:
            log.error("error in /%s", command, exc_info=(type(original), original, original.__traceback__))
        await send_ephemeral(interaction, errors.error_text())

    def _pick(self, interaction: Interaction, choice: Choice) -> CardPick | None:
        """A menu whose pick reruns the command (when it ran through `run_command`) with the picked card."""
        work, options = interaction.extras.get(RUN, (None, {}))
        option = option_for(options, choice.option, choice.query)
        if work is None or option is None:
            return None
        name = _command_name(interaction)

        async def rerun(again: Interaction, picked: str) -> None:
            replaced = {**options, option: dataclasses.replace(options[option], text=picked)}
            await self.run_followup(again, name, work, replaced)

        return CardPick(choice, rerun, owner_id=interaction.user.id, timeout=app_of(interaction).pick_timeout)

    async def run_command(self, interaction: Interaction, work: Work, **options: Any) -> None:
        """Run a command's `work` with its options, kept so that a pick can run it again."""
        interaction.extras[RUN] = (work, options)
        await work(interaction, **options)

    async def run_followup(
        self, interaction: Interaction, name: str, work: Work, options: dict[str, Any]
    ) -> None:
        """`run_command` for a pick or a form, observed as the command `name`; a pick counts as a use."""
        interaction.extras[COMMAND] = name
        app_of(interaction).watch(interaction)
        try:
            if interaction.type is discord.InteractionType.component:
                refuse_over_cooldown(self.cooldown, interaction, self.clock())
            await self.run_command(interaction, work, **options)
        except Exception as exc:
            interaction.command_failed = True
            await self.on_error(interaction, exc)


def _command_name(interaction: Interaction) -> str:
    if interaction.command is not None:
        return interaction.command.qualified_name
    return str(interaction.extras.get(COMMAND) or "?")


def user_of(interaction: Interaction) -> int:
    """The cooldown's key: the user, whatever the command."""
    return interaction.user.id


def refuse_over_cooldown(
    cooldown: CooldownMapping[Interaction] | None, interaction: Interaction, now: float
) -> None:
    """Count one command of the interaction's user at `now`; CommandOnCooldown when over the limit."""
    bucket = cooldown.get_bucket(interaction, now) if cooldown is not None else None
    if bucket is not None and (wait := bucket.update_rate_limit(now)) is not None:
        raise app_commands.CommandOnCooldown(bucket, wait)
