"""Printed names without the all_cards data: ask Scryfall's search, politely and cached.

Scryfall's search matches a name in another language when the query names the language: a name phrase
with `lang:fr` finds the French printings whose printed name holds it (`lang:any` searches every language).
`unique:prints` lists every printing, so a card whose translation changed between printings is found
under each spelling. The answers are then filtered to printings whose printed name (or a face's) has the
same key (`printed_key`) as the text: Scryfall's phrase match also finds longer names that contain it, and
those are not this name. Requests go through `ScryfallClient.search` (its limits, retries, single-flight).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cachetools import TTLCache

from bot.cards.printed import printed_key, printing_names
from bot.cards.scryfall import ScryfallBadRequest, ScryfallClient, ScryfallNotFound
from bot.settings import CARD_LANGUAGES

ANY_LANGUAGE = "any"


def printed_query(text: str, lang: str | None) -> str:
    """The Scryfall query for printings named `text` in `lang` (None: any language)."""
    code = lang if lang in CARD_LANGUAGES else ANY_LANGUAGE
    phrase = " ".join(text.replace('"', " ").split())
    return f'lang:{code} unique:prints "{phrase}"'


async def search_printed(client: ScryfallClient, text: str, lang: str | None) -> list[str]:
    """The distinct English names (alphabetical) of the cards printed as `text` in `lang` (None: any
    language), from Scryfall's search; [] when none. Scryfall's errors other than "nothing matched" and
    "bad query" propagate (ScryfallUnavailable, ScryfallBusy: the caller says so, nothing is cached)."""
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
    """`search_printed` with its answers cached: found names for `ttl` seconds, "none" for `negative_ttl`
    (errors are never cached). Keys are (language, folded text), so `FOUDRE` reuses `Foudre`'s answer."""

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
        """English names of the cards printed as `text` in `lang` (None: any language)."""
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
