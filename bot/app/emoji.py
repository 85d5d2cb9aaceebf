"""Mana symbols as the application's own emojis (Discord's application emojis), made on start.

`ensure_mana_emojis(client)` makes sure the application has one emoji per symbol of
`bot.present.mana_art.SYMBOLS`, drawn by the project (`mana_art.draw`, run off the event loop), and returns
the {symbol: `<:name:id>`} map the presentation layer takes:

- the art's version is remembered in a marker emoji, `mana_art_v<ART_VERSION>`, beside the symbols. When the
  marker names another version (the drawings changed), the mana emojis are deleted and drawn again: first the
  symbols, then the old marker, then the new marker is uploaded, then the symbols, so a start interrupted at
  any point leaves a state the next start completes;
- only missing symbols are uploaded (a restart with a complete set makes one request);
- when Discord refuses (no permission, the application's emoji limit, an outage) the first refusal ends the
  uploads with one log line; the symbols that exist are used and the others stay text (`{B}`).

Emojis whose names do not start with `mana_` are never touched.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Sequence
from typing import Protocol

import discord

from bot.present import mana_art

log = logging.getLogger(__name__)

MARKER_PREFIX = f"{mana_art.EMOJI_PREFIX}art_v"


def marker_name(version: str = mana_art.ART_VERSION) -> str:
    """The marker emoji's name for an art version (characters Discord refuses become `_`)."""
    return (MARKER_PREFIX + re.sub(r"[^A-Za-z0-9_]", "_", version))[:32]


class EmojiClient(Protocol):
    """What this needs of a discord.py client (`discord.Client` has it)."""

    async def fetch_application_emojis(self) -> list[discord.Emoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> discord.Emoji: ...


def _draw_all(symbols: Sequence[str], draw: Callable[[str], bytes]) -> dict[str, bytes]:
    return {symbol: draw(symbol) for symbol in symbols}


async def ensure_mana_emojis(client: EmojiClient, *, draw: Callable[[str], bytes] = mana_art.draw,
                             symbols: Sequence[str] = mana_art.SYMBOLS,
                             version: str = mana_art.ART_VERSION) -> dict[str, str]:
    """Make sure the application has the mana emojis of this art `version`; returns {symbol: emoji markup}
    for every symbol that has one (possibly none). Never raises for Discord's refusals."""
    try:
        existing = await client.fetch_application_emojis()
    except discord.HTTPException as exc:
        log.warning("cannot list the application's emojis (HTTP %s): mana symbols stay text", exc.status)
        return {}
    ours = {e.name: e for e in existing if e.name.startswith(mana_art.EMOJI_PREFIX)}
    marker = marker_name(version)
    try:
        if marker not in ours:
            await _replace_old_art(ours, marker)
            image = await asyncio.to_thread(draw, "C")
            ours[marker] = await client.create_application_emoji(name=marker, image=image)
        wanted = {mana_art.emoji_name(s): s for s in symbols}
        missing = [s for name, s in wanted.items() if name not in ours]
        if missing:
            images = await asyncio.to_thread(_draw_all, missing, draw)
            for symbol in missing:
                name = mana_art.emoji_name(symbol)
                ours[name] = await client.create_application_emoji(name=name, image=images[symbol])
            log.info("uploaded %d mana emojis (art version %s)", len(missing), version)
    except discord.HTTPException as exc:
        log.warning("Discord refused a mana emoji change (HTTP %s, code %s): %s; symbols without an emoji "
                    "stay text", exc.status, exc.code, str(exc.text)[:200])
    return mana_art.emoji_map({name: e.id for name, e in ours.items()})


async def _replace_old_art(ours: dict[str, discord.Emoji], marker: str) -> None:
    """Delete the mana emojis of another art version: the symbols first, then the old markers (so a delete
    cut short is retried on the next start). Updates `ours`."""
    symbols = [e for name, e in ours.items() if mana_art.symbol_of(name) is not None]
    markers = [e for name, e in ours.items() if name.startswith(MARKER_PREFIX) and name != marker]
    if not symbols and not markers:
        return
    log.info("mana emoji art changed (%s -> %s): replacing %d emojis",
             ", ".join(m.name for m in markers) or "no version", marker, len(symbols))
    for emoji in symbols + markers:
        await emoji.delete()
        del ours[emoji.name]
