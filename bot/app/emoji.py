"""Mana symbols as the application's own emojis, made at start from Scryfall's images (missing ones only).
A marker emoji names the art version, swapped in order, so a start cut short is completed by the next."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping

import discord

from bot.cards.model import ScryfallUnavailable
from bot.cards.scryfall import ScryfallClient, ScryfallError
from bot.cards.symbology import symbol_svgs
from bot.present import mana_art

log = logging.getLogger(__name__)

MARKER_PREFIX = f"{mana_art.EMOJI_PREFIX}art_v"
#: The marker emoji's name for this art version (characters Discord refuses become `_`).
MARKER = (MARKER_PREFIX + re.sub(r"[^A-Za-z0-9_]", "_", mana_art.ART_VERSION))[:32]


def _render_all(svgs: Mapping[str, bytes]) -> dict[str, bytes]:
    """{symbol: PNG} for every SVG that renders."""
    images: dict[str, bytes] = {}
    for symbol, svg in svgs.items():
        try:
            images[symbol] = mana_art.png(svg)
        except ValueError as exc:
            log.warning("Scryfall's image of {%s} does not render (%s): it stays text", symbol, exc)
    return images


async def ensure_mana_emojis(client: discord.Client, scryfall: ScryfallClient) -> dict[str, str]:
    """{symbol: emoji markup} for every symbol with an emoji of this art version, made when missing."""
    try:
        existing = await client.fetch_application_emojis()
    except discord.HTTPException as exc:
        log.warning("cannot list the application's emojis (HTTP %s): mana symbols stay text", exc.status)
        return {}
    ours = {e.name: e for e in existing if e.name.startswith(mana_art.EMOJI_PREFIX)}
    missing = [s for s in mana_art.SYMBOLS if MARKER not in ours or mana_art.emoji_name(s) not in ours]
    if not missing:
        return mana_art.emoji_map({name: e.id for name, e in ours.items()})
    try:
        images = await asyncio.to_thread(_render_all, await symbol_svgs(scryfall, missing))
    except (ScryfallUnavailable, ScryfallError) as exc:
        log.warning("cannot get the mana symbols from Scryfall (%s): symbols without an emoji stay text", exc)
        images = {}
    try:
        if images and MARKER not in ours:
            await _replace_old_art(ours)
            marker_image = next(iter(images.values()))  # any of this art version's images
            ours[MARKER] = await client.create_application_emoji(name=MARKER, image=marker_image)
        for symbol, image in images.items():
            name = mana_art.emoji_name(symbol)
            ours[name] = await client.create_application_emoji(name=name, image=image)
        if images:
            log.info("uploaded %d mana emojis (art version %s)", len(images), mana_art.ART_VERSION)
    except discord.HTTPException as exc:
        log.warning("Discord refused a mana emoji change (%s): symbols without one stay text", str(exc)[:300])
    return mana_art.emoji_map({name: e.id for name, e in ours.items()})


async def _replace_old_art(ours: dict[str, discord.Emoji]) -> None:
    """Delete the mana emojis of another art version, symbols first; updates `ours`."""
    symbols = [e for name, e in ours.items() if mana_art.symbol_of(name) is not None]
    markers = [e for name, e in ours.items() if name.startswith(MARKER_PREFIX) and name != MARKER]
    if not symbols and not markers:
        return
    old = ", ".join(m.name for m in markers) or "no version"
    log.info("mana emoji art changed (%s -> %s): replacing %d emojis", old, MARKER, len(symbols))
    for emoji in symbols + markers:
        await emoji.delete()
        del ours[emoji.name]
