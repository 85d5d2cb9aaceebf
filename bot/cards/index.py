"""The local name index: autocomplete and local resolution of partial names and typos, from the names in the
card cache (mostly the Scryfall bulk data), without touching the network. Ranking and resolution rules:
`bot.cards.names`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from rapidfuzz import fuzz, process

from bot.cards.names import (
    EXACT,
    FAR_MORE_POPULAR,
    LATER,
    PLURAL,
    WHOLE,
    normalize,
    popularity_cost,
    rank_candidates,
)
from bot.cards.rows import index_entries
from bot.cards.search import Hit, IndexEntry, Lists
from bot.identity import IdentityError, PairingTraits, can_pair

MATCH_CACHE = 4096  # resolutions each index remembers
_UNRANKED_COST = popularity_cost(None)


@dataclass(frozen=True, slots=True)
class LocalMatch:
    """Result of a local resolution: `kind` is "unique", "ambiguous" or "none". For "none", `close` says
    the suggestions are near misses (a typo away, or a fuzzy score of `CLOSE_SCORE`+), so the name was most
    likely one of them misspelled rather than a card the index lacks."""

    kind: str
    names: list[str]
    suggestions: list[str]
    close: bool = False


def _spread(hits: list[Hit], limit: int) -> list[int]:
    """Entry ids of `hits` (best first), letting one completed word take at most half the list at first.

    When a typed word completes to one word in very many names (`fire` in 75 names), the rest of the list
    still shows where else it leads (`Fires of ...`, `Fireball`). Room left over goes back to the held names.
    """
    cap = (limit + 1) // 2
    per_group: dict[str, int] = {}
    first: list[int] = []
    held: list[int] = []
    for _cost, _completion, i, group, _match in hits:
        if group:
            count = per_group.get(group, 0)
            per_group[group] = count + 1
            if count >= cap:
                held.append(i)
                continue
        first.append(i)
    return (first + held)[:limit]


CLOSE_SCORE = 80.0  # a fuzzy score this high makes a suggestion a near miss (LocalMatch.close)
PARTNER_LISTS = 64  # partner-option lists kept (one per chosen commander's pairing summary)


def _traits(pairing: str) -> PairingTraits:
    try:
        return PairingTraits.decode(pairing)
    except IdentityError:
        return PairingTraits()


class NameIndex:
    """All card names known locally, for autocomplete and for resolving partial names and typos.

    Ranking and resolution rules: see the module docstring.
    """

    def __init__(self, entries: Iterable[IndexEntry] = ()) -> None:
        best: dict[str, IndexEntry] = {}
        for entry in entries:
            old = best.get(entry.name)
            if old is None or entry.rank < old.rank:
                best[entry.name] = entry
        self.entries = best
        values = list(best.values())
        self._all = Lists(values)
        self._commanders = Lists([e for e in values if e.commander])
        # Commanders with a partner ability (or that a "Choose a Background"/"Doctor's companion" card looks
        # for), decoded once; the partner option's lists are made from them per chosen commander.
        self._pairable = [(e, _traits(e.pairing)) for e in values if e.commander and e.pairing]
        self._partner_lists: LRUCache[str, Lists] = LRUCache(PARTNER_LISTS)
        # The index never changes once built (a reload builds a new one), so matches can be remembered:
        # `peek` and `resolve` ask for the same key, and fuzzy matching costs milliseconds. A cache of its
        # own, not `lru_cache` on a bound method: that would be a reference cycle, leaving the whole old index
        # to a garbage collection that frees it in one long pause on whichever thread runs it.
        self._matches: LRUCache[tuple[str, bool], LocalMatch] = LRUCache(MATCH_CACHE)

    def __len__(self) -> int:
        return len(self.entries)

    def popularity(self, name: str) -> int | None:
        """The EDHREC rank of a card name in the index (None when unranked or unknown)."""
        entry = self.entries.get(name)
        return entry.popularity if entry else None

    def _lists(self, commanders_only: bool) -> Lists:
        return self._commanders if commanders_only else self._all

    def partners(self, pairing: str) -> Lists:
        """The commanders that can be a second commander beside one whose pairing summary is `pairing`
        (`PairingTraits.encode()`): those sharing a partner ability with it (CR 702.124)."""
        lists = self._partner_lists.get(pairing)
        if lists is None:
            mine = _traits(pairing)
            lists = Lists([e for e, theirs in self._pairable if can_pair(mine, theirs)])
            self._partner_lists[pairing] = lists
        return lists

    def complete(
        self, text: str, *, limit: int = 25, commanders_only: bool = False, partner_of: str | None = None
    ) -> list[str]:
        """Autocomplete: up to `limit` names for what the player has typed so far, best first.

        Every tier of the ranking takes part (exact, whole word, prefix, typo-tolerant prefix, inside a
        word, then fuzzy when little else matched), ordered by cost; one completed word fills at most half
        of the list before other words get a turn (`_spread`). `partner_of` (a commander's pairing summary)
        limits the names to the commanders that can be paired with it; then nothing typed yet lists the
        most played of them.
        """
        q = normalize(text)
        if limit <= 0:
            return []
        lists = self.partners(partner_of) if partner_of is not None else self._lists(commanders_only)
        if not q:
            return lists.names[:limit] if partner_of is not None else []
        hits = lists.search(q, limit, typos=True, infix=True, fuzzy=True)
        return [lists.names[i] for i in _spread(hits, limit)]

    def candidates(self, q: str, *, commanders_only: bool = False, limit: int = 50) -> list[str]:
        """Names that normalised `q` correctly matches, best first, without typo or fuzzy guesses.

        This covers exact names, whole words, plurals, prefixes and matches inside words.
        """
        lists = self._lists(commanders_only)
        hits = lists.search(q, limit, typos=False, infix=True, fuzzy=False)
        return [lists.names[h[2]] for h in hits[:limit]]

    def fuzzy(
        self, q: str, *, limit: int = 5, commanders_only: bool = False, cutoff: float = 60.0
    ) -> list[tuple[str, float]]:
        """Names most similar to normalised `q` as a whole (rapidfuzz token-sort ratio), with their scores."""
        lists = self._lists(commanders_only)
        found = process.extract(q, lists.keys, scorer=fuzz.token_sort_ratio, limit=limit, score_cutoff=cutoff)
        return [(lists.names[i], float(score)) for _key, score, i in found]

    def rank_candidates(self, query: str, names: Iterable[str]) -> list[str]:
        """`rank_candidates` with this index's popularity."""
        return rank_candidates(query, names, self.popularity)

    def match(self, q: str, *, commanders_only: bool = False) -> LocalMatch:
        """Resolve normalised `q` locally (see `_match`), remembering the last `MATCH_CACHE` answers."""
        key = (q, commanders_only)
        found = self._matches.get(key)
        if found is None:
            found = self._match(q, commanders_only=commanders_only)
            self._matches[key] = found
        return found

    def _match(self, q: str, *, commanders_only: bool = False) -> LocalMatch:
        """Resolve normalised `q` locally: one clear name, several candidates best first, or nothing.

        - An exact key wins.
        - Correct matches (whole word, plural, prefix, inside a word): one name wins. Of several, the
          first wins when it is a whole-word match `FAR_MORE_POPULAR` decades more popular than every
          other whole-word or plural match. Otherwise the result is "ambiguous", best first.
        - Otherwise typo-tolerant prefixes, then fuzzy similarity: one typo match wins, or a fuzzy score
          of 88+ that leads the next by 3+. Anything else is "none", with suggestions best first.
        """
        lists = self._lists(commanders_only)
        hits = lists.search(q, 50, typos=False, infix=True, fuzzy=False)
        if hits:
            names = [lists.names[h[2]] for h in hits]
            exact = [h for h in hits if h[4] == EXACT]
            if len(exact) == 1 or len(hits) == 1 or (not exact and self._clear_winner(lists, hits)):
                return LocalMatch("unique", names[:1], [])
            return LocalMatch("ambiguous", names, [])
        typo = lists.search(q, 5, typos=True, infix=False, fuzzy=False)
        typo_names = [lists.names[h[2]] for h in typo]
        if len(typo) == 1:
            return LocalMatch("unique", typo_names, typo_names)
        scored = self.fuzzy(q, limit=5, commanders_only=commanders_only)
        suggestions = list(dict.fromkeys(typo_names + [name for name, _s in scored]))[:5]
        if scored and scored[0][1] >= 88.0 and (len(scored) == 1 or scored[1][1] <= scored[0][1] - 3.0):
            return LocalMatch("unique", [scored[0][0]], suggestions)
        close = bool(typo_names) or bool(scored and scored[0][1] >= CLOSE_SCORE)
        return LocalMatch("none", [], suggestions, close)

    @staticmethod
    def _clear_winner(lists: Lists, hits: list[Hit]) -> bool:
        """Whether the first hit is a whole-word match far more popular than every other whole-word match."""
        first = hits[0][2]
        if lists.costs[first] >= _UNRANKED_COST or hits[0][4] > WHOLE + LATER:
            return False
        return all(
            lists.costs[i] - lists.costs[first] >= FAR_MORE_POPULAR
            for _cost, _completion, i, _group, match in hits[1:]
            if match <= PLURAL + LATER
        )


INDEX_SWITCH_INTERVAL = 0.001  # seconds: how soon the event loop gets the GIL back while an index is built


def build_index(rows: list[tuple[Any, ...]]) -> NameIndex:
    """The name index from the cache's name rows, built on a worker thread. Python hands the GIL between
    threads every "switch interval" (5 ms by default); while the build runs, a shorter one lets the event
    loop thread take it back sooner, so replies wait less (the process-wide setting is restored after)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, INDEX_SWITCH_INTERVAL))
    try:
        return NameIndex(index_entries(rows))
    finally:
        sys.setswitchinterval(before)
