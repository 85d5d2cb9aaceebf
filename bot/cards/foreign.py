"""Card names typed in another language (`Foudre`, `Blitzschlag`, `稲妻`): which English card they mean.

The card service asks this after the exact English name and before any partial or fuzzy match (a printed
name is an exact name too; `bot.cards.lookup`). The answer comes from the local printed-name index
(`PrintedNames`, loaded from the card cache when `CARD_LANGUAGES` is on) or, without it, from Scryfall's
search (`PrintedSearch`: one polite, cached `lang:` query, asked only for text that is not ASCII or from a
player whose Discord language Magic is printed in). Either way only exact printed-name keys count: never
a guess.

`meaning` rules, for a text typed by a player whose languages (Scryfall codes) are `langs`:
- it names no card in another language: [] (the English path goes on);
- it is also an English card name (exact): [] (English first), unless the player's own language prints it
  as other cards too (fr `Contemplation` is Ponder as well): then all of them, to offer as a choice;
- else the English names of every card printed so (the player's languages narrow them): one is the card,
  two or more an ambiguity (de `Zwang`: Duress and Coercion).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from contextvars import ContextVar
from pathlib import Path

from bot.cards.allcards import load_printed_names
from bot.cards.model import ScryfallUnavailable
from bot.cards.names import normalize
from bot.cards.printed import PrintedNames
from bot.cards.printed_search import PrintedSearch
from bot.cards.scryfall import ScryfallError

_PLAYER_LANGS: ContextVar[tuple[str, ...]] = ContextVar("player_langs", default=())

SEPARATOR = " — "  # between the printed and the English name in an autocomplete choice
MAX_CHOICE_CHARS = 100  # Discord's limit for a choice's name


def use_player_langs(langs: Sequence[str]) -> None:
    """The player's languages (Scryfall codes) for the lookups of the current task (one interaction) that
    name none themselves: a deck check's names and commanders. The app layer sets them from the Discord
    locale; each interaction runs in its own task, so they never leak into another player's lookups."""
    _PLAYER_LANGS.set(tuple(langs))


def langs_or_players(langs: Sequence[str]) -> tuple[str, ...]:
    """`langs` when given, else the current task's player languages (`use_player_langs`)."""
    return tuple(langs) or _PLAYER_LANGS.get()


def meaning(names: Sequence[str], mine: Sequence[str], n: str, english: str | None = None) -> list[str]:
    """The English names a typed text (English key `n`) means by its printed names (module docstring):
    `names` the cards printed so in any language, `mine` those printed so in the player's languages,
    `english` the card whose English name the text is, when known."""
    english = english or next((name for name in names if normalize(name) == n), None)
    if english is not None:
        others = [name for name in mine if name != english]
        return [english, *others] if others else []
    return list(names)


def choice_label(printed: str, english: str) -> str:
    """An autocomplete choice for a printed name: `Foudre — Lightning Bolt` (at most 100 characters; the
    English name alone when they are the same name)."""
    if normalize(printed) == normalize(english):
        return english[:MAX_CHOICE_CHARS]
    room = MAX_CHOICE_CHARS - len(SEPARATOR) - len(english)
    if room < 1:
        return english[:MAX_CHOICE_CHARS]
    shown = printed if len(printed) <= room else printed[: room - 1].rstrip() + "…"
    return f"{shown}{SEPARATOR}{english}"


class ForeignNames:
    """Printed names for the card service: the local index (`index`, None until loaded or when off) and
    the search fallback (`search`, None when Scryfall may not be asked for them)."""

    def __init__(self, search: PrintedSearch | None = None) -> None:
        self.index: PrintedNames | None = None
        self.search = search

    async def load(self, db_path: Path | str, languages: Collection[str]) -> bool:
        """Load the cache's printed names in `languages` off the event loop and swap them in; False when the
        cache holds none (the index in use is kept then)."""
        index = await asyncio.to_thread(load_printed_names, db_path, languages) if languages else None
        if index is not None:
            self.index = index
        return index is not None

    def local(self, text: str, n: str, langs: Sequence[str], english: str | None = None) -> list[str]:
        """`meaning` of `text` from the local index ([] without one)."""
        if self.index is None:
            return []
        mine = self.index.printed_in(text, langs) if langs else []
        return meaning(self.index.lookup(text, langs), mine, n, english)

    def wants_search(self, text: str, langs: Sequence[str]) -> bool:
        """Whether Scryfall's search should be asked about `text` before the English fuzzy match: no local
        index, and text that is not ASCII once Latin accents are folded (`稲妻`, not `Jötun`) or a player whose
        language Magic is printed in."""
        return (
            self.index is None and self.search is not None and (bool(langs) or not normalize(text).isascii())
        )

    async def searched(self, text: str, n: str, langs: Sequence[str]) -> list[str]:
        """`meaning` of `text` from Scryfall's search (in the player's first language, else any); [] when
        there is no search or Scryfall can't answer now (the English path goes on)."""
        if self.search is None:
            return []
        try:
            names = await self.search.names(text, langs[0] if langs else None)
        except (ScryfallUnavailable, ScryfallError):
            return []
        return meaning(names, names if langs else [], n)

    def choices(self, prefix: str, langs: Sequence[str], limit: int) -> list[tuple[str, str]]:
        """(choice label, English name) for printed names starting with `prefix`, from the local index only
        (never waits for Scryfall); offered when the player's language is not English or the prefix is not
        ASCII."""
        if self.index is None or not (langs or not prefix.isascii()):
            return []
        return [
            (choice_label(printed, english), english)
            for printed, english in self.index.complete(prefix, limit, prefer_langs=langs)
        ]
