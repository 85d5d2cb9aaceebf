"""Card names typed in another language (`Foudre`, `Blitzschlag`, `稲妻`): which English card they mean, from
the local printed-name index (with `CARD_LANGUAGES`) or else Scryfall's search (`lang:fr unique:prints
"name"`, of which only printings whose printed name has the text's exact key count). Never a guess.
`meaning`: no card printed so, or an English card name too, is [] (the English path goes on), unless the
player's language prints it as other cards too (fr `Contemplation` is Ponder as well): then all of them;
else every card printed so (the player's languages narrow them): one is the card, more an ambiguity."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Sequence
from contextvars import ContextVar
from pathlib import Path

from cachetools import TLRUCache

from bot.cards.allcards import load_printed_names
from bot.cards.names import MAX_CHOICE_CHARS, normalize
from bot.cards.printed import PrintedNames, printed_key, printing_names
from bot.cards.scryfall import ScryfallClient, ScryfallError
from bot.settings import CARD_LANGUAGES

_PLAYER_LANGS: ContextVar[tuple[str, ...]] = ContextVar("player_langs", default=())

SEPARATOR = " — "  # between the printed and the English name in an autocomplete choice


def use_player_langs(langs: Sequence[str]) -> None:
    """The player's languages (Scryfall codes) for the card lookups of the current task (each interaction
    runs in its own task, so they never leak)."""
    _PLAYER_LANGS.set(tuple(langs))


def player_langs() -> tuple[str, ...]:
    return _PLAYER_LANGS.get()


def meaning(names: Sequence[str], mine: Sequence[str], n: str, english: str | None = None) -> list[str]:
    """What a text (English key `n`) means (module docstring): `names` the cards printed so, `mine` those
    printed so in the player's languages, `english` the card the text is the English name of."""
    english = english or next((name for name in names if normalize(name) == n), None)
    if english is not None:
        others = [name for name in mine if name != english]
        return [english, *others] if others else []
    return list(names)


def choice_label(printed: str, english: str) -> str:
    """`Foudre — Lightning Bolt`, at most 100 characters; the English name alone when they are the same."""
    if normalize(printed) == normalize(english):
        return english[:MAX_CHOICE_CHARS]
    room = MAX_CHOICE_CHARS - len(SEPARATOR) - len(english)
    if room < 1:
        return english[:MAX_CHOICE_CHARS]
    shown = printed if len(printed) <= room else printed[: room - 1].rstrip() + "…"
    return f"{shown}{SEPARATOR}{english}"


def printed_query(text: str, lang: str | None) -> str:
    """The Scryfall query for printings named `text` in `lang` (None: any language)."""
    code = lang if lang in CARD_LANGUAGES else "any"
    phrase = " ".join(text.replace('"', " ").split())
    return f'lang:{code} unique:prints "{phrase}"'


async def search_printed(client: ScryfallClient, text: str, lang: str | None) -> list[str]:
    """The English names (alphabetical) of the cards printed as `text` in `lang` (None: any);
    ScryfallUnavailable when Scryfall can't answer (nothing is cached then)."""
    key = printed_key(text)
    if not key:
        return []
    try:
        page = await client.search(printed_query(text, lang))
    except ScryfallError:  # nothing matched, or a query Scryfall can't read
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
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self._known: TLRUCache[tuple[str | None, str], tuple[str, ...]] = TLRUCache(
            8192, lambda _key, names, now: now + (ttl if names else negative_ttl), timer=timer
        )

    async def names(self, text: str, lang: str | None = None) -> list[str]:
        key = (lang if lang in CARD_LANGUAGES else None, printed_key(text))
        names = self._known.get(key)
        if names is None:
            names = self._known[key] = tuple(await search_printed(self.client, text, lang))
        return list(names)


class ForeignNames:
    """The local index (`index`, None until loaded or when off) and the search fallback (`search`)."""

    def __init__(self, search: PrintedSearch | None = None) -> None:
        self.index: PrintedNames | None = None
        self.languages: frozenset[str] = frozenset()  # those the index was loaded for
        self.search = search

    async def load(self, db_path: Path | str, languages: Collection[str]) -> bool:
        """Load the cache's printed names off the event loop; False (the index kept) when it holds none."""
        index = await asyncio.to_thread(load_printed_names, db_path, languages) if languages else None
        if index is not None:
            self.index, self.languages = index, frozenset(languages)
        return index is not None

    def local(self, text: str, n: str, langs: Sequence[str], english: str | None = None) -> list[str]:
        if self.index is None:
            return []
        mine = self.index.printed_in(text, langs) if langs else []
        return meaning(self.index.lookup(text, langs), mine, n, english)

    def wants_search(self, text: str, langs: Sequence[str]) -> bool:
        """Ask Scryfall's search: no local index, and text not ASCII once Latin accents fold (`稲妻`, not
        `Jötun`) or a player whose language Magic is printed in."""
        return (
            self.index is None and self.search is not None and (bool(langs) or not normalize(text).isascii())
        )

    async def searched(self, text: str, n: str, langs: Sequence[str]) -> list[str]:
        """`meaning` from Scryfall's search (the player's first language, else any); ScryfallUnavailable when
        it can't answer: then nobody may say "no such card" (the text may be a printed name)."""
        if self.search is None:
            return []
        names = await self.search.names(text, langs[0] if langs else None)
        return meaning(names, names if langs else [], n)

    def choices(self, prefix: str, langs: Sequence[str], limit: int) -> list[tuple[str, str]]:
        """(label, English name) for printed names starting with `prefix`, from the local index only; when
        the player's language is not English or the prefix is not ASCII."""
        if self.index is None or not (langs or not prefix.isascii()):
            return []
        return [
            (choice_label(printed, english), english)
            for printed, english in self.index.complete(prefix, limit, prefer_langs=langs)
        ]
