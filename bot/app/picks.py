"""Ambiguity as a choice: a card option that names several cards (or no card, but close names) is answered
with an ephemeral select menu of the candidates, best first; picking one finishes the original command for
that user, with the picked card in place of what was typed.

The error table (`bot.app.tree`) says which errors offer a choice (`Choice`: the option, what was typed, the
names). Re-running is the command's business: a `Retry` (noted on the interaction under `observe.RETRY` by
`IdentityTree.run_command`, or by a command itself) turns (option, typed text) into a `Rerun`, the coroutine
that runs the command's work again for a new interaction with one card name. This module
only shows the menu and calls the `Rerun`:

- only the user who asked can pick (the menu is ephemeral, and `interaction_check` says so to anyone else);
- one pick per menu: the prompt then says which card was picked and loses its menu;
- the menu expires after `timeout` seconds (the prompt then says so and loses its menu);
- errors of the re-run are answered by the `Rerun` like those of any command (a new choice included).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.app.replies import NO_PINGS, Sent, received_at
from bot.present import choices, i18n

log = logging.getLogger(__name__)

PICK_TIMEOUT = 600.0  # seconds a menu stays usable (an interaction's token lives 15 minutes)

#: Runs the command again for `interaction` (the pick) with the picked card name; answers its own errors.
Rerun = Callable[[discord.Interaction[Any], str], Awaitable[None]]
#: (option label or None, typed text) -> how to re-run the command with that option replaced, or None.
Retry = Callable[[str | None, str], Rerun | None]


@dataclass(frozen=True, slots=True)
class Choice:
    """A card option the user can fix by picking: `kind` ("ambiguous" or "not_found"), what was typed
    (`query`), the option's name (`option`, None when the command has one card option) and the names to
    offer, best first."""

    kind: choices.PickKind
    query: str
    option: str | None
    names: tuple[str, ...]


class CardPick(discord.ui.View):
    """The menu: one string select of up to 25 card names (values are indexes, so names of any length
    work). Send it with the prompt, then set `sent` so the prompt can be edited after the pick or expiry."""

    def __init__(self, choice: Choice, rerun: Rerun, *, owner_id: int, timeout: float = PICK_TIMEOUT) -> None:
        super().__init__(timeout=timeout)
        self.choice = choice
        self.rerun = rerun
        self.owner_id = owner_id
        self.names = list(dict.fromkeys(choice.names))[: choices.MENU_OPTIONS]
        self.sent: Sent | None = None
        self.picked: str | None = None
        self.locale = i18n.current_locale()  # the expiry note is worded like the prompt
        self.select: discord.ui.Select[CardPick] = discord.ui.Select(
            custom_id=f"pick:{secrets.token_hex(8)}",
            placeholder=choices.pick_placeholder(choice.option),
            options=[
                discord.SelectOption(label=choices.pick_label(name), value=str(i))
                for i, name in enumerate(self.names)
            ],
        )
        self.select.callback = self._picked  # type: ignore[method-assign]
        self.add_item(self.select)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only the user who ran the command may pick, and only once. A pick is its own interaction (its own
        task), so its replies are worded in its locale here."""
        i18n.set_locale(interaction.locale.value)
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message(
                choices.not_your_pick_text(), ephemeral=True, allowed_mentions=NO_PINGS
            )
            return False
        if self.picked is not None:
            await interaction.response.send_message(
                choices.pick_taken_text(), ephemeral=True, allowed_mentions=NO_PINGS
            )
            return False
        return True

    async def _picked(self, interaction: discord.Interaction[Any]) -> None:
        received_at(interaction)
        name = self.names[int(self.select.values[0])]
        self.picked = name
        self.stop()
        if self.sent is not None:  # the menu goes first, so it can't be used twice while the command runs
            await self.sent.edit(choices.picked_text(name, self.choice.option))
        await self.rerun(interaction, name)

    async def on_timeout(self) -> None:
        if self.picked is None and self.sent is not None:
            with i18n.using(self.locale):
                await self.sent.edit(choices.pick_expired_text(self.choice.query, self.choice.option))

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        log.error("error in a card pick", exc_info=(type(error), error, error.__traceback__))
