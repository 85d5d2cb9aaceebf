"""Printed names without the all_cards data: Scryfall's search, politely and cached.

`lang:fr unique:prints "name"` finds every French printing whose printed name holds the phrase; only those
whose printed name (or a face's) has the text's exact key count, since the phrase also matches longer names.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cachetools import TTLCache

from bot.cards.printed import printed_key, printing_names
from bot.cards.scryfall import ScryfallBadRequest, ScryfallClient, ScryfallNotFound
from bot.settings import CARD_LANGUAGES


def printed_query(text: str, lang: str | None) -> str:
    """The Scryfall query for printings named `text` in `lang` (None: any language)."""
    code = lang if lang in CARD_LANGUAGES else "any"
    phrase = " ".join(text.replace('"', " ").split())
    return f'lang:{code} unique:prints "{phrase}"'


async def search_printed(client: ScryfallClient, text: str, lang: str | None) -> list[str]:
    """The English names (alphabetical) of the cards printed as `text` in `lang` (None: any); Scryfall's
    errors but "nothing matched" and "bad query" propagate (nothing is cached then)."""
    key = printed_key(text)
    if not key:
        return []
    try:
        page = await client.search(printed_query(text, lang))
    except (ScryfallNotFound, ScryfallBadRequest):
        return []
    names = {
        card["name"]
        for card in page.cards
        if isinstance(card.get("name"), str) and any(printed_key(p) == key for p in printing_names(card))
    }
    return sorted(names)


class PrintedSearch:
    """`search_printed` cached by (language, key): names for `ttl` seconds, "none" for `negative_ttl`."""

    def __init__(
        self,
        client: ScryfallClient,
        *,
        ttl: float = 86_400,
        negative_ttl: float = 600,
        maxsize: int = 4096,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self._found: TTLCache[tuple[str | None, str], tuple[str, ...]] = TTLCache(maxsize, ttl, timer=timer)
        self._none: TTLCache[tuple[str | None, str], bool] = TTLCache(maxsize, negative_ttl, timer=timer)

    async def names(self, text: str, lang: str | None = None) -> list[str]:
        cache_key = (lang if lang in CARD_LANGUAGES else None, printed_key(text))
        if cache_key in self._found:
            return list(self._found[cache_key])
        if cache_key in self._none:
            return []
        names = await search_printed(self.client, text, lang)
        if names:
            self._found[cache_key] = tuple(names)
        else:
            self._none[cache_key] = True
        return names
