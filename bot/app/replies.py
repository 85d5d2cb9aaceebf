"""Sending a `present.message.Reply` whatever state the interaction is in, never pinging; `defer_if_slow`
defers only work still running after the budget, so an error never flashes a public "thinking…"."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord
from discord.utils import MISSING

from bot.app.context import RECEIVED, Interaction, app_of
from bot.present.message import Reply

DEFER_AFTER = 1.5  # seconds after an interaction arrived before slow work defers (Discord allows 3)

T = TypeVar("T")
log = logging.getLogger(__name__)
#: Edits a sent message (`content=` and `view=` keywords).
Edit = Callable[..., Awaitable[object]]


async def send_reply(interaction: Interaction, reply: Reply) -> None:
    """Answer with `reply`: directly, or by editing the deferred placeholder."""
    embeds = [discord.Embed.from_dict(embed.to_dict()) for embed in reply.embeds]
    attached = reply.attachment
    file = discord.File(io.BytesIO(attached.text.encode()), filename=attached.filename) if attached else None
    if interaction.response.is_done():
        await interaction.edit_original_response(
            content=reply.content, embeds=embeds, attachments=[file] if file else MISSING
        )
    else:
        await interaction.response.send_message(
            content=reply.content, embeds=embeds, file=file or MISSING, ephemeral=reply.ephemeral
        )


async def send_ephemeral(
    interaction: Interaction, text: str, view: discord.ui.View | None = None, *, quiet: bool = False
) -> Edit | None:
    """`text` (and `view`) to the asker only, any public "thinking…" removed; its edit, or None if refused."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True, view=view or MISSING)
            return interaction.edit_original_response
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        return (await interaction.followup.send(text, ephemeral=True, wait=True, view=view or MISSING)).edit
    except discord.HTTPException as exc:
        app_of(interaction).metrics.observe_reply_error(exc.status)
        log.log(logging.DEBUG if quiet else logging.WARNING, "could not send error reply: %s", str(exc)[:300])
        return None


def received_at(interaction: Interaction) -> float:
    """When the bot started handling the interaction (`time.perf_counter()`); noted on first use."""
    return interaction.extras.setdefault(RECEIVED, time.perf_counter())


async def defer_if_slow(interaction: Interaction, work: Awaitable[T]) -> T:
    """The result of `work`, deferring ("thinking…", public) only when it is still running `DEFER_AFTER`
    seconds after the interaction arrived. Errors of `work` propagate; cancelling this cancels `work`."""
    task = asyncio.ensure_future(work)
    try:
        if not interaction.response.is_done():
            grace = max(0.0, DEFER_AFTER - (time.perf_counter() - received_at(interaction)))
            done, _pending = await asyncio.wait({task}, timeout=grace)
            if not done:
                await interaction.response.defer(thinking=True)
        return await task
    finally:
        task.cancel()
