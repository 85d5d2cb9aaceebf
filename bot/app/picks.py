"""The pick menu: an ephemeral select of the candidates of an ambiguous or unknown card option; only the user
who asked picks, once, and the pick runs the command again with that card."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.app.context import Interaction
from bot.app.replies import Edit, received_at
from bot.present import choices, i18n

log = logging.getLogger(__name__)

PICK_TIMEOUT = 600.0  # seconds a menu stays usable (an interaction's token lives 15 minutes)
#: Runs the command again for the pick's interaction, with the picked card's name.
Rerun = Callable[[Interaction, str], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Choice:
    """A card option the user can fix by picking: what was typed, the option's name, the names to offer."""

    kind: choices.PickKind
    query: str
    option: str | None
    names: tuple[str, ...]


class CardPick(discord.ui.View):
    """One select of up to 25 card names (values are indexes, so names of any length work)."""

    def __init__(self, choice: Choice, rerun: Rerun, *, owner_id: int, timeout: float = PICK_TIMEOUT) -> None:
        super().__init__(timeout=timeout)
        self.choice, self.rerun, self.owner_id = choice, rerun, owner_id
        self.names = list(dict.fromkeys(choice.names))[: choices.MENU_OPTIONS]
        self.edit: Edit | None = None  # the prompt's, once it is sent
        self.picked: str | None = None
        self.locale = i18n.current_locale()  # the expiry note is worded like the prompt
        labels = [choices.pick_label(name) for name in self.names]
        options = [discord.SelectOption(label=label, value=str(i)) for i, label in enumerate(labels)]
        placeholder = choices.pick_placeholder(choice.option)
        self.select: discord.ui.Select[CardPick] = discord.ui.Select(placeholder=placeholder, options=options)
        self.select.callback = self._picked  # type: ignore[method-assign]
        self.add_item(self.select)

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """Only the user who ran the command may pick, and only once (worded in the pick's locale)."""
        i18n.set_locale(interaction.locale.value)
        if interaction.user.id != self.owner_id:
            refusal = choices.not_your_pick_text()
        elif self.picked is not None:
            refusal = choices.pick_taken_text()
        else:
            return True
        await interaction.response.send_message(refusal, ephemeral=True)
        return False

    async def _picked(self, interaction: Interaction) -> None:
        received_at(interaction)
        self.picked = self.names[int(self.select.values[0])]
        self.stop()
        # the menu goes first, so it can't be used again while the command runs
        await self._say(choices.picked_text(self.picked, self.choice.option))
        await self.rerun(interaction, self.picked)

    async def on_timeout(self) -> None:
        if self.picked is None:
            with i18n.using(self.locale):
                await self._say(choices.pick_expired_text(self.choice.query, self.choice.option))

    async def _say(self, content: str) -> None:
        """The prompt says `content` instead, without its menu."""
        try:
            if self.edit is not None:
                await self.edit(content=content, view=None)
        except discord.HTTPException as exc:
            log.debug("could not edit the pick's prompt (HTTP %s)", exc.status)
