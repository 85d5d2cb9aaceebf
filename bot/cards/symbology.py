"""Scryfall's official card symbols (GET /symbology) and their SVG images, through the project's client.
Symbols are spelled as Scryfall spells them, without braces (`W`, `2/W`, `G/U/P`, `½`)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.cards.scryfall import ScryfallClient


async def symbol_svgs(client: ScryfallClient, wanted: Iterable[str]) -> dict[str, bytes]:
    """{symbol: SVG bytes} for each symbol of `wanted` Scryfall lists with an image, one download at a
    time; ScryfallUnavailable (or a ScryfallError) when the list or an image can't be had."""
    uris: dict[str, str] = {}
    for obj in await client.symbology():
        symbol, uri = obj.get("symbol"), obj.get("svg_uri")
        if isinstance(symbol, str) and isinstance(uri, str):
            uris[symbol.strip().removeprefix("{").removesuffix("}")] = uri
    return {symbol: await client.file(uris[symbol]) for symbol in dict.fromkeys(wanted) if symbol in uris}
