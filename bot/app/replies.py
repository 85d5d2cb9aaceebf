"""Sending what the presentation layer wrote: `present.message.Reply` to discord.py, whatever state the
interaction is in (answered directly, or deferred with a "thinking…" placeholder). No message can ping
anyone: `allowed_mentions` is none on every send."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord.utils import MISSING

from bot.present.message import Reply

NO_PINGS = discord.AllowedMentions.none()


def discord_embeds(reply: Reply) -> list[discord.Embed]:
    return [discord.Embed.from_dict(embed.to_dict()) for embed in reply.embeds]


def discord_file(reply: Reply) -> discord.File | None:
    if reply.attachment is None:
        return None
    return discord.File(io.BytesIO(reply.attachment.text.encode("utf-8")), filename=reply.attachment.filename)


async def send_reply(interaction: discord.Interaction[Any], reply: Reply, *,
                     view: discord.ui.View | None = None) -> None:
    """Answer with `reply`: directly, or by editing the deferred placeholder."""
    embeds = discord_embeds(reply)
    file = discord_file(reply)
    if interaction.response.is_done():
        await interaction.edit_original_response(
            content=reply.content, embeds=embeds, attachments=[file] if file else MISSING,
            view=view if view is not None else MISSING, allowed_mentions=NO_PINGS)
        return
    await interaction.response.send_message(
        content=reply.content, embeds=embeds, file=file if file else MISSING, view=view if view is not None else MISSING,
        ephemeral=reply.ephemeral, allowed_mentions=NO_PINGS)


async def send_error(interaction: discord.Interaction[Any], text: str, *,
                     view: discord.ui.View | None = None) -> discord.HTTPException | None:
    """Send `text` only to the user who asked, whatever state the interaction is in; never raises.

    A public "thinking…" placeholder (the interaction was deferred for a network lookup) is removed first.
    Returns the error when Discord refused the reply (the interaction expired, ...), for the caller to count.
    """
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS,
                                                    view=view if view is not None else MISSING)
            return None
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                pass
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS,
                                        view=view if view is not None else MISSING)
    except discord.HTTPException as exc:
        return exc
    return None
