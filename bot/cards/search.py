"""Search structures of the local name index: sorted keys for word starts, a blob for letters inside words,
per-letter keys for fuzzy matching; entries ordered by popularity (costs: `bot.cards.names`). Built in a
worker thread while the event loop runs, so no step may hold the GIL long: sorts go in chunks merged in
Python, and parallel lists of strings and ints leave the GC little to trace."""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from rapidfuzz import fuzz, process

from bot.cards.names import (
    FUZZY,
    FUZZY_POINT,
    INFIX,
    LATER,
    MIN_TYPO_CHARS,
    TYPO,
    popularity_cost,
    typo_prefix,
    word_match,
)

_TOP = "\U0010ffff"  # sorts after every character a key can hold
_CHUNK = 2048  # items sorted per C call while building
_SCAN = 64  # a range this small is checked name by name rather than split by bisection

_T = TypeVar("_T")


def _gentle_sorted(items: list[_T], key: Callable[[_T], Any]) -> list[_T]:
    """`sorted(items, key=key)` in chunks merged in Python (sorted input costs only the chunk sorts)."""
    if len(items) <= _CHUNK:
        return sorted(items, key=key)
    runs = [sorted(items[i : i + _CHUNK], key=key) for i in range(0, len(items), _CHUNK)]
    if all(key(runs[j][-1]) <= key(runs[j + 1][0]) for j in range(len(runs) - 1)):
        return [item for run in runs for item in run]
    return list(heapq.merge(*runs, key=key))


@dataclass(frozen=True, slots=True)
class IndexEntry:
    name: str
    norm: str
    card_id: str
    commander: bool
    rank: int
    popularity: int | None = None  # Scryfall's edhrec_rank: 1 = most played in Commander; None = unranked
    pairing: str = ""  # the engine's pairing summary (PairingTraits.encode()), "" for no partner ability


def _static_order(entry: IndexEntry) -> tuple[float, int, int, str]:
    """Order of entries before any query: most played first, then real cards, then shorter names."""
    return popularity_cost(entry.popularity), entry.rank, len(entry.name), entry.name


# (cost, completion, entry id, group, match cost): `group` is the completed text of a word match ("" for
# other kinds of match); the match cost is the cost without popularity.
Hit = tuple[float, int, int, str, float]


class Lists:
    """Search structures over one set of entries (all cards, or only commanders). Entry ids are positions in
    popularity order (`_static_order`), so "the best k of a range" is "the k smallest ids in it".
    - `keys[id]`, `names[id]`, `costs[id]`: key, display name and popularity cost of each entry;
    - `start_keys`/`start_ids`: every key sorted, for matches at the start of a name;
    - `later_keys`/`later_ids`: the key from each later word on ("bolt" of "lightning bolt"), sorted;
    - `blob`: all keys in id order between newlines, scanned for matches inside words, best first;
    - `by_letter`: keys and ids by first letter, for the fuzzy last resort;
    - `sorted_words[id]`: the key's words sorted, for matching the words in any order."""

    def __init__(self, entries: list[IndexEntry]) -> None:
        by_popularity = _gentle_sorted(list(range(len(entries))), key=lambda p: _static_order(entries[p]))
        id_of = [0] * len(entries)
        for i, p in enumerate(by_popularity):
            id_of[p] = i
        ordered = [entries[p] for p in by_popularity]
        self.names = [e.name for e in ordered]
        self.keys = [e.norm for e in ordered]
        self.costs = [popularity_cost(e.popularity) for e in ordered]
        input_keys = [e.norm for e in entries]
        # names are read sorted by key, so this sort costs little
        by_key = _gentle_sorted(list(range(len(entries))), key=input_keys.__getitem__)
        self.start_keys = [input_keys[p] for p in by_key]
        self.start_ids = [id_of[p] for p in by_key]
        suffixes: list[str] = []
        owners: list[int] = []
        for i, k in enumerate(self.keys):
            at = k.find(" ")
            while at != -1:
                suffixes.append(k[at + 1 :])
                owners.append(i)
                at = k.find(" ", at + 1)
        by_suffix = _gentle_sorted(list(range(len(suffixes))), key=suffixes.__getitem__)
        self.later_keys = [suffixes[j] for j in by_suffix]
        self.later_ids = [owners[j] for j in by_suffix]
        self.blob = "\n" + "\n".join(self.keys) + "\n"
        self.line_starts = list(itertools.accumulate((len(k) + 1 for k in self.keys), initial=1))[:-1]
        self.by_letter: dict[str, tuple[list[str], list[int]]] = {}
        for i, k in enumerate(self.keys):
            bucket = self.by_letter.setdefault(k[:1], ([], []))
            bucket[0].append(k)
            bucket[1].append(i)
        self.sorted_words = [" ".join(sorted(k.split())) for k in self.keys]

    @staticmethod
    def _span(keys: list[str], prefix: str, lo: int = 0, hi: int | None = None) -> tuple[int, int]:
        hi = len(keys) if hi is None else hi
        start = bisect.bisect_left(keys, prefix, lo, hi)
        return start, bisect.bisect_left(keys, prefix + _TOP, start, hi)

    def _word_ids(self, keys: list[str], ids: list[int], q: str, k: int) -> set[int]:
        """Ids that may be among the `k` best word matches of `q`: each kind (exact, `q` + space, `q` + "s")
        is a contiguous range inside the range of `q` as a prefix, and the best `k` of each are enough."""
        lo, hi = self._span(keys, q)
        found = set(heapq.nsmallest(k, ids[lo:hi]))
        exact_hi = bisect.bisect_right(keys, q, lo, hi)
        found.update(ids[lo:exact_hi])
        whole_hi = bisect.bisect_left(keys, q + "!", exact_hi, hi)  # " " sorts before "!" and every letter
        found.update(heapq.nsmallest(k, ids[exact_hi:whole_hi]))
        plural_lo = bisect.bisect_left(keys, q + "s", whole_hi, hi)
        plural_hi = bisect.bisect_left(keys, q + "s!", plural_lo, hi)
        found.update(heapq.nsmallest(k, ids[plural_lo:plural_hi]))
        return found

    @staticmethod
    def _children(keys: list[str], depth: int, lo: int, hi: int) -> list[str]:
        """The distinct characters at position `depth` of `keys[lo:hi]` (which share a prefix that long)."""
        out: list[str] = []
        i = lo
        while i < hi and len(keys[i]) == depth:
            i += 1
        while i < hi:
            c = keys[i][depth]
            out.append(c)
            i = bisect.bisect_left(keys, keys[i][:depth] + chr(ord(c) + 1), i + 1, hi)
        return out

    def _typo_ids(self, keys: list[str], ids: list[int], q: str, k: int) -> list[int]:
        """The `k` best ids whose key starts with `q` typed with one slip (`typo_prefix`): for each position
        i, q[i] missing, wrong, after an extra letter or swapped is one prefix range; once few keys start
        with q[:i] they are checked one by one."""
        n = len(q)
        spans: list[tuple[int, int]] = []
        found: list[int] = []
        for i in range(1, n):
            head = q[:i]
            lo, hi = self._span(keys, head)
            if hi - lo <= _SCAN:
                found.extend(ids[j] for j in range(lo, hi) if typo_prefix(q, keys[j]))
                break
            spans.append(self._span(keys, head + q[i + 1 :], lo, hi))
            if i + 1 < n:
                spans.append(self._span(keys, head + q[i + 1] + q[i] + q[i + 2 :], lo, hi))
            for c in self._children(keys, i, lo, hi):
                if c != q[i]:
                    spans.append(self._span(keys, head + c + q[i + 1 :], lo, hi))
                spans.append(self._span(keys, head + c + q[i:], lo, hi))
        found.extend(i for lo, hi in spans if lo < hi for i in heapq.nsmallest(k, ids[lo:hi]))
        return heapq.nsmallest(k, set(found))

    def search(self, q: str, limit: int, *, typos: bool, infix: bool, fuzzy: bool) -> list[Hit]:
        """The best hits for normalised `q`, sorted by (cost, completion, id); at least the best `limit`."""
        pool: dict[int, Hit] = {}
        k = limit * 2 + 10

        def offer(i: int, match: float, completion: int, group: str) -> None:
            hit = (match + self.costs[i], completion, i, group, match)
            if (old := pool.get(i)) is None or hit < old:
                pool[i] = hit

        def kth_cost() -> float:
            if len(pool) < limit:
                return math.inf
            return heapq.nsmallest(limit, (h[0] for h in pool.values()))[-1]

        for i in self._word_ids(self.start_keys, self.start_ids, q, k) | self._word_ids(
            self.later_keys, self.later_ids, q, k
        ):
            if (found := word_match(q, self.keys[i])) is not None:
                offer(i, *found)
        if typos and len(q) >= MIN_TYPO_CHARS and kth_cost() > TYPO:
            self._typos(q, k, offer)
        if infix and len(q) >= MIN_TYPO_CHARS:
            self._infix(q, k, kth_cost(), offer)
        if fuzzy and len(pool) < limit and len(q) >= MIN_TYPO_CHARS:
            keys, ids = self.by_letter.get(q[0], ([], []))
            for _key, score, pos in process.extract(
                q, keys, scorer=fuzz.QRatio, limit=limit, score_cutoff=60.0
            ):
                offer(ids[pos], FUZZY + (100.0 - score) * FUZZY_POINT, 0, "")
        return sorted(pool.values())

    def _typos(self, q: str, k: int, offer: Callable[[int, float, int, str], None]) -> None:
        for keys, ids, extra in (
            (self.start_keys, self.start_ids, 0.0),
            (self.later_keys, self.later_ids, LATER),
        ):
            for i in self._typo_ids(keys, ids, q, k):
                offer(i, *(word_match(q, self.keys[i]) or (TYPO + extra, 0, "")))

    def _infix(self, q: str, k: int, bound: float, offer: Callable[[int, float, int, str], None]) -> None:
        """Offer up to `k` names with `q` inside a word, most played first, while they can still rank;
        after many occurrences at word starts, a regular expression that skips them takes over."""
        blob, pos, found, skipped = self.blob, 0, 0, 0
        pattern: re.Pattern[str] | None = None
        while found < k:
            if pattern is None:
                at = blob.find(q, pos)
                if at != -1 and blob[at - 1] in " \n":
                    skipped += 1
                    if skipped > _SCAN:
                        e = re.escape(q)
                        pattern = re.compile(f"{e}(?<=[^ \\n]{e})")  # `q` not at the start of a word
                    pos = at + 1
                    continue
            else:
                m = pattern.search(blob, pos)
                at = -1 if m is None else m.start()
            if at == -1:
                return
            i = bisect.bisect_right(self.line_starts, at) - 1
            if INFIX + self.costs[i] > bound:
                return
            offer(i, *(word_match(q, self.keys[i]) or (INFIX, 0, "")))
            found += 1
            pos = self.line_starts[i + 1] if i + 1 < len(self.line_starts) else len(blob)
