"""Card names typed in another language (`Foudre`, `Blitzschlag`, `稲妻`): which English card they mean, from
the local printed-name index (`CARD_LANGUAGES`) or else Scryfall's search, never a guess; the rules, with the
names that need them, are in docs/printed-names.md."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable, Collection, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from cachetools import TLRUCache

from bot.cards.allcards import load_printed_names
from bot.cards.flight import SingleFlight
from bot.cards.names import MAX_CHOICE_CHARS, MAX_INPUT_CHARS, MIN_TYPO_CHARS, normalize
from bot.cards.printed import PrintedNames, printed_key, printing_names
from bot.cards.scryfall import ScryfallClient, ScryfallError
from bot.settings import CARD_LANGUAGES

log = logging.getLogger(__name__)

_PLAYER_LANGS: ContextVar[tuple[str, ...]] = ContextVar("player_langs", default=())

SEPARATOR = " — "  # between the printed and the English name in an autocomplete choice
REMEMBERED_NAMES = 100_000  # printed names the search's answers hold at most (about 11 MiB)
MIN_SEARCH_CHARS = MIN_TYPO_CHARS  # letters of a Latin-script prefix before autocomplete asks Scryfall
MAX_LONGER = 32  # cached answers for longer phrases one autocomplete reads at most


def use_player_langs(langs: Sequence[str]) -> None:
    """The player's languages (Scryfall codes) for the card lookups of the current task (each interaction
    runs in its own task, so they never leak)."""
    _PLAYER_LANGS.set(tuple(langs))


def player_langs() -> tuple[str, ...]:
    return _PLAYER_LANGS.get()


def meaning(
    found: PrintedNames, text: str, n: str, langs: Sequence[str], english: str | None = None
) -> list[str]:
    """The English cards a text (English key `n`) means by the printed names `found`: [] for no card printed so,
    or for an English card name too (`english`: the card it names), unless the player's `langs` print it as
    other cards too (fr `Contemplation` is Ponder as well): then all of them; else every card printed so (the
    player's languages narrow them): one is the card, more an ambiguity."""
    names = found.lookup(text, langs)
    english = english or next((name for name in names if normalize(name) == n), None)
    if english is not None:
        others = [name for name in found.printed_in(text, langs) if name != english]
        return [english, *others] if others else []
    return names


def choice_label(printed: str, english: str) -> str:
    """`Foudre — Lightning Bolt`, at most 100 characters; the English name alone when they are the same."""
    room = MAX_CHOICE_CHARS - len(SEPARATOR) - len(english)
    if room < 1 or normalize(printed) == normalize(english):
        return english[:MAX_CHOICE_CHARS]
    shown = printed if len(printed) <= room else printed[: room - 1].rstrip() + "…"
    return f"{shown}{SEPARATOR}{english}"


def printed_query(text: str) -> str:
    """The Scryfall query for the printings named like `text`, in every language (one request whatever the
    player's language: a German player may type a French name)."""
    return 'lang:any unique:prints "{}"'.format(" ".join(text.replace('"', " ").split()))


def phrase_key(text: str) -> str:
    """What one search stands for: the typed phrase, case and spaces folded (Scryfall ignores both)."""
    return " ".join(text.replace('"', " ").casefold().split())


@dataclass(frozen=True, slots=True)
class Printings:
    """One search's answer: the printed names of the printings found (an index like the local one), and
    whether they are all that matched (Scryfall's first page holds 175)."""

    names: PrintedNames
    complete: bool


async def search_printings(client: ScryfallClient, text: str) -> Printings:
    """The printings named like `text` in any language (`printed_query`); ScryfallUnavailable when Scryfall
    can't answer (nothing is cached then)."""
    if not printed_key(text):
        return Printings(PrintedNames(()), True)
    try:
        page = await client.search(printed_query(text))
    except ScryfallError:  # nothing matched, or a query Scryfall can't read
        return Printings(PrintedNames(()), True)
    names = PrintedNames(
        (printed_key(printed), card["lang"], printed, card["name"], 1)
        for card in page.cards
        if isinstance(card.get("name"), str) and isinstance(card.get("lang"), str)
        for printed in printing_names(card)
    )
    return Printings(names, page.complete)


class PrintedSearch:
    """`search_printings` cached by `phrase_key`: answers for `ttl` seconds, "none" for `negative_ttl`, at most
    `REMEMBERED_NAMES` printed names in all (the least recently used go first); one request at a time for a
    phrase (a caller that stops waiting leaves the answer to the cache)."""

    def __init__(
        self,
        client: ScryfallClient,
        *,
        ttl: float = 86_400,
        negative_ttl: float = 600,
        timer: Callable[[], float] = time.monotonic,
        remembered: int = REMEMBERED_NAMES,
    ) -> None:
        self.client = client
        self._known: TLRUCache[str, Printings] = TLRUCache(
            remembered,
            lambda _key, found, now: now + (ttl if len(found.names) else negative_ttl),
            timer=timer,
            getsizeof=lambda found: len(found.names) + 1,
        )
        self._flight = SingleFlight()

    def known(self, text: str) -> Printings | None:
        return self._known.get(phrase_key(text))

    async def printings(self, text: str) -> Printings:
        key = phrase_key(text)
        return self._known.get(key) or await self._flight.run(key, lambda: self._ask(key, text))

    async def _ask(self, key: str, text: str) -> Printings:
        found = await search_printings(self.client, text)
        self._known[key] = found
        return found

    async def starting(self, prefix: str) -> list[PrintedNames]:
        """Printed names that may start like `prefix`, without waiting for Scryfall's pace: a cached answer
        for its phrase, or a complete one for a shorter phrase it starts with; else a search when one can go
        at once and the prefix is long enough to narrow it (`MIN_SEARCH_CHARS`); else the cached answers for
        longer phrases (names looked up before: some of the names, `MAX_LONGER` answers at most)."""
        key = phrase_key(prefix)
        if len(key) > MAX_INPUT_CHARS:  # no card option holds more
            return []
        for size in range(len(key), 0, -1):
            if (found := self._known.get(key[:size])) is not None and (size == len(key) or found.complete):
                return [found.names]
        short = len(printed_key(prefix)) < (MIN_SEARCH_CHARS if key.isascii() else 2)
        if not short and self.client.can_go_now("/cards/search"):
            return [(await self.printings(prefix)).names]
        longer = (found.names for phrase, found in list(self._known.items()) if phrase.startswith(key))
        return list(itertools.islice(longer, MAX_LONGER))


class ForeignNames:
    """The local index (`index`, None until loaded or when off; its `languages`) and the fallback `search`."""

    def __init__(self, search: PrintedSearch | None = None) -> None:
        self.index: PrintedNames | None = None
        self.languages: frozenset[str] = frozenset()  # those the index was loaded for
        self.search = search
        self._noted: set[str] = set()

    async def load(self, db_path: Path | str, languages: Collection[str]) -> bool:
        """Load the cache's printed names off the event loop; False (the index kept) when it holds none."""
        index = await asyncio.to_thread(load_printed_names, db_path, languages) if languages else None
        if index is not None:
            self.index, self.languages = index, frozenset(languages)
        return index is not None

    def note_player(self, lang: str | None) -> None:
        """Log once per language that players in `lang` (a Scryfall code; None: English, or a language Magic
        is not printed in) type names the local index lacks, and the setting that adds them."""
        if lang is None or lang in self.languages or lang in self._noted:
            return
        self._noted.add(lang)
        log.info(
            "players whose Discord is in %(lang)s use the bot; the names printed in %(lang)s are not imported, so"
            " each one is looked up through Scryfall's search (one request a name, cached) and autocomplete"
            " offers them only as Scryfall answers. CARD_LANGUAGES=%(wanted)s imports them (see"
            " docs/printed-names.md for the cost)",
            {"lang": lang, "wanted": ",".join(sorted(self.languages | self._noted))},
        )

    def local(self, text: str, n: str, langs: Sequence[str], english: str | None = None) -> list[str]:
        return [] if self.index is None else meaning(self.index, text, n, langs, english)

    def can_search(self) -> bool:
        """Scryfall's search may be asked: it is there and the local index lacks a language Magic is printed
        in. Then a name no English card has is searched before "no such card", whatever the player's
        language."""
        return self.search is not None and not self.languages >= set(CARD_LANGUAGES)

    def wants_search(self, text: str, langs: Sequence[str]) -> bool:
        """Ask Scryfall's search before partial English names: no local index, and text not ASCII once Latin
        accents fold (`稲妻`, not `Jötun`) or a player whose language Magic is printed in."""
        return (
            self.index is None and self.search is not None and (bool(langs) or not normalize(text).isascii())
        )

    async def searched(self, text: str, n: str, langs: Sequence[str]) -> list[str]:
        """`meaning` from Scryfall's search in every language (the player's languages first);
        ScryfallUnavailable when it can't answer: then nobody may say "no such card" (the text may be a
        printed name)."""
        if self.search is None:
            return []
        return meaning((await self.search.printings(text)).names, text, n, langs)

    def known(self, text: str, n: str, langs: Sequence[str]) -> list[str] | None:
        """`searched` from the search's cache alone; None when Scryfall would be asked."""
        found = self.search.known(text) if self.search is not None else None
        return None if found is None else meaning(found.names, text, n, langs)

    def choices(
        self, prefix: str, langs: Sequence[str], limit: int, *, english: bool = True
    ) -> list[tuple[str, str]]:
        """(label, English name) for printed names starting with `prefix`, from the local index only; when
        the player's language is not English, the prefix is not ASCII, or no English name matches it
        (`english` False)."""
        if self.index is None or not (langs or not prefix.isascii() or not english):
            return []
        return _labelled(self.index, prefix, langs, limit)

    async def searched_choices(self, prefix: str, langs: Sequence[str], limit: int) -> list[tuple[str, str]]:
        """`choices` from Scryfall's search: what it answered before, else a request that can go at once
        (`PrintedSearch.starting`); [] otherwise. Raises what the search raises."""
        labels: dict[str, str] = {}  # English name -> its first label
        for index in await self.search.starting(prefix) if self.search is not None else []:
            for label, english in _labelled(index, prefix, langs, limit):
                labels.setdefault(english, label)
        return [(label, english) for english, label in labels.items()][:limit]


def _labelled(index: PrintedNames, prefix: str, langs: Sequence[str], limit: int) -> list[tuple[str, str]]:
    return [
        (choice_label(printed, english), english)
        for printed, english in index.complete(prefix, limit, prefer_langs=langs)
    ]
