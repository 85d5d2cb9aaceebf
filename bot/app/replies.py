"""Sending what the presentation layer wrote: `present.message.Reply` to discord.py, whatever state the
interaction is in (answered directly, or deferred with a "thinking…" placeholder). No message can ping
anyone: `allowed_mentions` is none on every send.

`defer_if_slow` is the one rule for deferring: work that finishes within the interaction's budget is
answered directly (an error then never flashes a public "thinking…"); only work still running after it
(a real network lookup) defers first.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord.utils import MISSING

from bot.app.observe import RECEIVED
from bot.present.message import Reply

NO_PINGS = discord.AllowedMentions.none()
DEFER_AFTER = 1.5  # seconds after an interaction arrived before slow work defers (Discord allows 3)

T = TypeVar("T")
log = logging.getLogger(__name__)


async def send_reply(
    interaction: discord.Interaction[Any], reply: Reply, *, view: discord.ui.View | None = None
) -> None:
    """Answer with `reply`: directly, or by editing the deferred placeholder."""
    embeds = [discord.Embed.from_dict(embed.to_dict()) for embed in reply.embeds]
    attached = reply.attachment
    file = (
        discord.File(io.BytesIO(attached.text.encode("utf-8")), filename=attached.filename)
        if attached
        else None
    )
    if interaction.response.is_done():
        await interaction.edit_original_response(
            content=reply.content,
            embeds=embeds,
            attachments=[file] if file else MISSING,
            view=view if view is not None else MISSING,
            allowed_mentions=NO_PINGS,
        )
        return
    await interaction.response.send_message(
        content=reply.content,
        embeds=embeds,
        file=file if file else MISSING,
        view=view if view is not None else MISSING,
        ephemeral=reply.ephemeral,
        allowed_mentions=NO_PINGS,
    )


@dataclass(slots=True)
class Sent:
    """An ephemeral message sent by `send_ephemeral`: the interaction's own response (`followup` None) or a
    follow-up; `error` is Discord's refusal when nothing was sent."""

    interaction: discord.Interaction[Any]
    followup: discord.WebhookMessage | None = None
    error: discord.HTTPException | None = None

    async def edit(self, content: str) -> bool:
        """Replace the message's text and remove its components; False when Discord refused (the
        interaction's token expired, the message was dismissed, ...). Never raises."""
        if self.error is not None:
            return False
        try:
            if self.followup is not None:
                await self.followup.edit(content=content, view=None, allowed_mentions=NO_PINGS)
            else:
                await self.interaction.edit_original_response(
                    content=content, view=None, allowed_mentions=NO_PINGS
                )
        except discord.HTTPException as exc:
            log.debug("could not edit an ephemeral message (HTTP %s)", exc.status)
            return False
        return True


async def send_ephemeral(
    interaction: discord.Interaction[Any], text: str, *, view: discord.ui.View | None = None
) -> Sent:
    """Send `text` (and `view`) only to the user who asked, whatever state the interaction is in; never raises.

    A public "thinking…" placeholder (the interaction was deferred for a network lookup) is removed first.
    """
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=NO_PINGS, view=view if view is not None else MISSING
            )
            return Sent(interaction)
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        message = await interaction.followup.send(
            text,
            ephemeral=True,
            allowed_mentions=NO_PINGS,
            wait=True,
            view=view if view is not None else MISSING,
        )
        return Sent(interaction, followup=message)
    except discord.HTTPException as exc:
        return Sent(interaction, error=exc)


def received_at(interaction: discord.Interaction[Any]) -> float:
    """When the bot started handling the interaction (`time.perf_counter()`); noted on first use."""
    started = interaction.extras.get(RECEIVED)
    if not isinstance(started, float):
        started = interaction.extras[RECEIVED] = time.perf_counter()
    return started


async def defer_if_slow(
    interaction: discord.Interaction[Any], work: Awaitable[T], *, after: float = DEFER_AFTER
) -> T:
    """The result of `work`, deferring the interaction ("thinking…", public) only when `work` is still running
    `after` seconds after the interaction arrived (Discord wants a first answer within 3 s). Already answered
    or deferred: just waits. Errors of `work` propagate; if this is cancelled, `work` is cancelled too."""
    task = asyncio.ensure_future(work)
    try:
        if not interaction.response.is_done():
            grace = max(0.0, after - (time.perf_counter() - received_at(interaction)))
            done, _pending = await asyncio.wait({task}, timeout=grace)
            if not done:
                await interaction.response.defer(thinking=True)
        return await task
    finally:
        if not task.done():
            task.cancel()
