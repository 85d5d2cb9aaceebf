"""The local name index: autocomplete and local resolution of partial names and typos, without the network
(ranking and resolution rules: `bot.cards.names`)."""

from __future__ import annotations

import operator
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache, cachedmethod
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
from bot.cards.search import Hit, IndexEntry, Lists
from bot.identity import IdentityError, PairingTraits, can_pair

_UNRANKED_COST = popularity_cost(None)


@dataclass(frozen=True, slots=True)
class LocalMatch:
    """A local resolution: `kind` "unique", "ambiguous" or "none"; for "none", `close` says the suggestions
    are near misses (a typo, or a fuzzy score of `CLOSE_SCORE`+): most likely a misspelling of one."""

    kind: str
    names: list[str]
    suggestions: list[str]
    close: bool = False


def _spread(hits: list[Hit], limit: int) -> list[int]:
    """Entry ids of `hits`, best first, one completed word taking at most half the list before the rest
    (`fire` in 75 names still shows `Fires of ...`, `Fireball`)."""
    cap = (limit + 1) // 2
    per_group: Counter[str] = Counter()
    first: list[int] = []
    held: list[int] = []
    for _cost, _completion, i, group, _match in hits:
        per_group[group] += 1
        (held if group and per_group[group] > cap else first).append(i)
    return (first + held)[:limit]


CLOSE_SCORE = 80.0  # a fuzzy score this high makes a suggestion a near miss (LocalMatch.close)


def _traits(pairing: str) -> PairingTraits:
    try:
        return PairingTraits.decode(pairing)
    except IdentityError:
        return PairingTraits()


class NameIndex:
    """All card names known locally, for autocomplete and for resolving partial names and typos."""

    def __init__(self, entries: Iterable[IndexEntry] = ()) -> None:
        best: dict[str, IndexEntry] = {}
        for entry in entries:
            if (old := best.get(entry.name)) is None or entry.rank < old.rank:
                best[entry.name] = entry
        self.entries = best
        values = list(best.values())
        self._all = Lists(values)
        self._commanders = Lists([e for e in values if e.commander])
        # Commanders a partner option may offer, decoded once; lists are made per chosen commander.
        self._pairable = [(e, _traits(e.pairing)) for e in values if e.commander and e.pairing]
        self._partner_lists: LRUCache[Any, Lists] = LRUCache(64)  # one per chosen commander's pairing summary
        # The index never changes, so matches are remembered (`peek` and `resolve` ask for the same key).
        # Not `lru_cache`: its reference cycle would leave the old index to one long GC pause.
        self._matches: LRUCache[tuple[str, bool], LocalMatch] = LRUCache(4096)

    def __len__(self) -> int:
        return len(self.entries)

    def popularity(self, name: str) -> int | None:
        return entry.popularity if (entry := self.entries.get(name)) else None

    def _lists(self, commanders_only: bool) -> Lists:
        return self._commanders if commanders_only else self._all

    @cachedmethod(operator.attrgetter("_partner_lists"))
    def partners(self, pairing: str) -> Lists:
        """The commanders that can be a second commander beside one whose pairing summary is `pairing`
        (`PairingTraits.encode()`): those sharing a partner ability with it (CR 702.124)."""
        mine = _traits(pairing)
        return Lists([e for e, theirs in self._pairable if can_pair(mine, theirs)])

    def complete(
        self, text: str, *, limit: int = 25, commanders_only: bool = False, partner_of: str | None = None
    ) -> list[str]:
        """Up to `limit` names for what was typed so far, best first, every tier taking part (`_spread`).
        `partner_of` (a pairing summary) keeps the commanders that pair with it; then nothing typed lists
        the most played of them."""
        q = normalize(text)
        if limit <= 0:
            return []
        lists = self.partners(partner_of) if partner_of is not None else self._lists(commanders_only)
        if not q:
            return lists.names[:limit] if partner_of is not None else []
        hits = lists.search(q, limit, typos=True, infix=True, fuzzy=True)
        return [lists.names[i] for i in _spread(hits, limit)]

    def candidates(self, q: str, *, commanders_only: bool = False, limit: int = 50) -> list[str]:
        """Names that `q` correctly matches (no typo or fuzzy guesses), best first."""
        lists = self._lists(commanders_only)
        hits = lists.search(q, limit, typos=False, infix=True, fuzzy=False)
        return [lists.names[h[2]] for h in hits[:limit]]

    def rank_candidates(self, query: str, names: Iterable[str]) -> list[str]:
        return rank_candidates(query, names, self.popularity)

    @cachedmethod(operator.attrgetter("_matches"))
    def match(self, q: str, *, commanders_only: bool = False) -> LocalMatch:
        """Resolve `q` locally by the rules in `bot.cards.names`: one name, several best first, or none."""
        lists = self._lists(commanders_only)
        if hits := lists.search(q, 50, typos=False, infix=True, fuzzy=False):
            names = [lists.names[h[2]] for h in hits]
            exact = [h for h in hits if h[4] == EXACT]
            if len(exact) == 1 or len(hits) == 1 or (not exact and self._clear_winner(lists, hits)):
                return LocalMatch("unique", names[:1], [])
            return LocalMatch("ambiguous", names, [])
        typo = lists.search(q, 5, typos=True, infix=False, fuzzy=False)
        typo_names = [lists.names[h[2]] for h in typo]
        if len(typo) == 1:
            return LocalMatch("unique", typo_names, typo_names)
        sorted_q = " ".join(sorted(q.split()))  # token_sort_ratio, with each key's words sorted once
        found = process.extract(sorted_q, lists.sorted_words, scorer=fuzz.ratio, limit=5, score_cutoff=60.0)
        scored = [(lists.names[i], float(score)) for _key, score, i in found]
        suggestions = list(dict.fromkeys(typo_names + [name for name, _s in scored]))[:5]
        if scored and scored[0][1] >= 88.0 and (len(scored) == 1 or scored[1][1] <= scored[0][1] - 3.0):
            return LocalMatch("unique", [scored[0][0]], suggestions)
        close = bool(typo_names) or bool(scored and scored[0][1] >= CLOSE_SCORE)
        return LocalMatch("none", [], suggestions, close)

    @staticmethod
    def _clear_winner(lists: Lists, hits: list[Hit]) -> bool:
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
    """The name index from the cache's name rows, on a worker thread; meanwhile a shorter GIL switch
    interval (5 ms by default) lets the event loop take the GIL back sooner."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, INDEX_SWITCH_INTERVAL))
    try:
        return NameIndex(IndexEntry(r[1], r[0], r[2], bool(r[3]), r[4], r[5], r[6]) for r in rows)
    finally:
        sys.setswitchinterval(before)
