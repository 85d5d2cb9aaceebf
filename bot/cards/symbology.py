"""Scryfall's official card symbols: `symbol_svgs` reads GET /symbology through the project's Scryfall client
(its limits, its User-Agent) and downloads the SVG image (`svg_uri`) of each symbol asked for.

Symbols are spelled as Scryfall spells them, without braces (`W`, `2/W`, `G/U/P`, `½`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.cards.scryfall import ScryfallClient


async def symbol_svgs(client: ScryfallClient, wanted: Iterable[str]) -> dict[str, bytes]:
    """{symbol: SVG bytes} for each symbol of `wanted` that Scryfall lists with an image; the ones it lacks
    are left out. The SVGs are downloaded one at a time. Raises ScryfallUnavailable (or a ScryfallError)
    when the list or an image cannot be had."""
    uris: dict[str, str] = {}
    for obj in await client.symbology():
        symbol, uri = obj.get("symbol"), obj.get("svg_uri")
        if isinstance(symbol, str) and isinstance(uri, str):
            uris[symbol.strip().removeprefix("{").removesuffix("}")] = uri
    return {symbol: await client.file(uris[symbol]) for symbol in dict.fromkeys(wanted) if symbol in uris}
