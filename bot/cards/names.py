"""Card-name normalisation and the in-memory local name index, ranked by what players play.

`normalize()` folds case, accents, punctuation and the `//` of split cards, so `Fire // Ice`,
`fire ice` and `Fire/Ice` share one key. `NameIndex` answers autocomplete and local resolution from
the names in the card cache (mostly the Scryfall bulk data) without touching the network.

Ranking
-------
Each name a query reaches gets a cost; lists are sorted by cost, lowest first. The cost has two parts
measured in the same unit, decades of popularity:

    cost = match cost + log10(popularity rank)

The popularity rank is Scryfall's `edhrec_rank` (1 = the card most played in Commander). Rank 1 adds 0,
rank 100 adds 2 and rank 10,000 adds 4. An unranked card counts as rank 50,000, which adds 4.7.

The match cost depends on how the name matches:

    exact name .......................................... -10 (always first)
    whole words ("bolt" in Bolt Bend, Lightning Bolt) ... 2
      ... plus a plural or possessive s ................. 2.75 ("fire" in Fires of Yavimaya,
                                                                "kumano" in Kumano's Pupils)
    prefix (the last typed word starts a longer word) ... 3.5
    typo-tolerant prefix ................................ 10 (3+ letters, first letter right, one letter
                                                                missing, extra, wrong, or two swapped)
    inside a word (3+ letters) .......................... 12
    fuzzy similarity of the whole name .................. 16 + half a point per missing point of
                                                                similarity (last resort)

A match that starts at a later word of the name ("bolt" in Lightning Bolt) adds 0.5. A card needs about
three times the popularity to pass a start-of-name match of the same kind.

Why these numbers:
- Within one kind of match, the more played card comes first. Lightning Bolt (rank 185) comes before
  the unranked Bolt Bend.
- A whole-word match and a prefix are 1.5 decades apart: a card played about 30 times more passes an
  obscure whole-word match. Rhystic Study (rank 37, a prefix of "rhys") comes before Rhys the Redeemed
  (rank 2,282); Solemn Simulacrum (rank 34) before the unranked Sol Talisman; Hydroid Krasis before the
  unranked Krasis Incubation. A match as popular within that factor keeps its better kind (Lightning
  Bolt, rank 185, before Boltwing Marauder, rank 50, for "bolt").
- Typo, inside-a-word and fuzzy matches sit more than the whole popularity range (4.7 decades) below
  word-start matches. So they never pass a name with a word that starts with what was typed: `atr`
  gives Atraxa, Praetors' Voice, not the far more played Arcane Signet ("ar" plus a slip).
- Players type from the start of a word. So a slip there (`ati` for Atraxa) ranks before letters that
  merely sit inside another word ("ati" in Innovation). Those two kinds are again 2 decades apart.
- When costs are equal (mostly between unranked cards), the shorter completion of the typed word comes
  first (`Fire ...` before `Fires ...`). Then real cards come before tokens and Alchemy copies, then
  shorter names.

Resolution (`NameIndex.match`) uses the same order. The exact name wins. If a single name matches, it
wins. If several match, the first one wins only when it is a whole-word match at least ten times more
popular than every other whole-word (or plural) match: `bolt` resolves to Lightning Bolt, but `path`
stays ambiguous between Path of Ancestry and Path to Exile. With no correct match, a typo resolves only
when exactly one name fits it (`dismembr`). A fuzzy match resolves only with a score of 88 or more and a
lead of 3 points.

Building
--------
`NameIndex` is built in a worker thread while the event loop keeps running. Python threads share the
GIL, so the build never makes one long C call. Sorting is done in chunks of 2,048 items, which are then
merged in Python. When the input is already sorted by key, the name list skips its merge. No single step
holds the GIL for more than a millisecond or two. The build keeps parallel lists of strings and ints,
not tuples, so it gives the garbage collector little to trace.
"""

from __future__ import annotations

import bisect
import heapq
import math
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rapidfuzz import fuzz, process

from bot.identity import IdentityError, PairingTraits, can_pair

MAX_INPUT_CHARS = 200
MAX_CHOICE_CHARS = 100

_SPECIAL = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ð": "d", "þ": "th", "ł": "l", "ı": "i"})
_APOSTROPHES = re.compile(r"['\u2019\u2018`\u02bc]")
_NON_WORD = re.compile(r"[^0-9a-z]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
_SPACES = re.compile(r"\s+")

# ---------------------------------------------------------------------------------------------- costs
UNRANKED = 50_000  # popularity rank assumed for cards EDHREC does not rank
EXACT = -10.0
WHOLE = 2.0
PLURAL = WHOLE + 0.75
PREFIX = 3.5
TYPO = 10.0
INFIX = 12.0
FUZZY = 16.0
LATER = 0.5  # added when the match starts at a later word of the name
FUZZY_POINT = 0.5  # cost of one point of fuzzy similarity below 100
FAR_MORE_POPULAR = 1.0  # decades: a whole-word match this much more popular than its rivals resolves alone
MATCH_CACHE = 4096  # resolutions each index remembers
MIN_TYPO_CHARS = 3  # typo tolerance and infix matching start at this many typed characters

_TOP = "\U0010ffff"  # sorts after every character a key can hold
_CHUNK = 2048  # items sorted per C call while building
_SCAN = 64  # a range this small is checked name by name rather than split by bisection


def clean_input(text: str) -> str:
    """User input with control/invisible characters removed and whitespace collapsed ("" if nothing left)."""
    return _SPACES.sub(" ", _CONTROL.sub("", text)).strip()


def normalize(text: str) -> str:
    """The lookup key of a card name: lower case, no accents, no punctuation, `//` and `/` folded.

    Apostrophes vanish (`Kumano's` -> `kumanos`); other punctuation becomes a space. A name made only
    of punctuation (the Un-card `_____`) keeps its case-folded text so it still has a key.
    """
    folded = text.casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFKD", folded.translate(_SPECIAL))
        folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    key = _NON_WORD.sub(" ", _APOSTROPHES.sub("", folded)).strip()
    if key:
        return key
    return _SPACES.sub(" ", folded).strip()


def completion_rank(key: str, q: str) -> int:
    """How many characters the word being typed still needs: 0 when `q` already ends a word of `key`.

    `q` is taken as a prefix of `key`. Among equally popular names, the shortest completions of the
    typed word come first, so `fire` offers `Fire ...` before `Fires ...`, `Fireball` or `Firemane Angel`.
    """
    end = key.find(" ", len(q))
    return (len(key) if end == -1 else end) - len(q)


def choice_name(name: str) -> str:
    """A name shortened to Discord's 100-character limit for choices (a prefix, so it still resolves)."""
    return name if len(name) <= MAX_CHOICE_CHARS else name[:MAX_CHOICE_CHARS].rstrip()


def popularity_cost(popularity: int | None) -> float:
    """The popularity part of a cost: log10 of the EDHREC rank (0 for rank 1), 4.7 when unranked."""
    if popularity is None or popularity < 1:
        return math.log10(UNRANKED)
    return math.log10(min(popularity, UNRANKED))


_UNRANKED_COST = popularity_cost(None)


def word_match(q: str, key: str) -> tuple[float, int, str] | None:
    """How `key` matches `q` at the start of one of its words: (match cost, completion, completed text).

    The match cost is EXACT, WHOLE, PLURAL or PREFIX, plus LATER when the match starts at a later word.
    The best occurrence counts. `completion` is how many letters the typed word still needs. The
    completed text runs from the match to the end of the word the typing stops in, so `fire` gives
    "fire" for Fire Diamond and "fires" for Fires of Yavimaya. Returns None when no word of `key`
    starts with `q`.
    """
    n = len(q)
    if not n:
        return None
    if key == q:
        return EXACT, 0, key
    best: tuple[float, int, str] | None = None
    at = key.find(q)
    while at != -1:
        if at == 0 or key[at - 1] == " ":
            end = at + n
            stop = key.find(" ", end)
            if stop == -1:
                stop = len(key)
            if stop == end:
                cost = WHOLE
            elif stop == end + 1 and key[end] == "s":
                cost = PLURAL
            else:
                cost = PREFIX
            if at:
                cost += LATER
            found = (cost, stop - end, key[at:stop])
            if best is None or found[:2] < best[:2]:
                best = found
        at = key.find(q, at + 1)
    return best


def typo_prefix(q: str, word: str) -> bool:
    """Whether `word` starts with `q` typed with one slip: a letter missing, extra, wrong or two swapped.

    The first letter must be right, and `q` must have at least MIN_TYPO_CHARS characters. An exact prefix is
    not a typo.
    """
    n = len(q)
    if n < MIN_TYPO_CHARS or not word or word[0] != q[0]:
        return False
    i = 1
    limit = min(n, len(word))
    while i < limit and word[i] == q[i]:
        i += 1
    if i == n:
        return False  # an exact prefix
    rest = q[i + 1:]
    if word.startswith(rest, i):  # q[i] is missing from the name
        return True
    if i < len(word):
        if word.startswith(rest, i + 1) or word.startswith(q[i:], i + 1):  # wrong letter / extra letter
            return True
        if i + 1 < n and word[i:i + 2] == q[i + 1] + q[i] and word.startswith(q[i + 2:], i + 2):
            return True  # two letters swapped
    return False


def match_cost(q: str, key: str) -> tuple[float, int]:
    """The match part of the cost of name key `key` for the normalised query `q`, and its completion.

    This is the one definition of the tiers. `NameIndex` finds the same tiers through its sorted lists,
    and `rank_candidates` computes them here for names it is given.
    """
    found = word_match(q, key)
    if found is not None:
        return found[0], found[1]
    if len(q) >= MIN_TYPO_CHARS:
        if typo_prefix(q, key):
            return TYPO, 0
        at = key.find(" ")
        while at != -1:
            if typo_prefix(q, key[at + 1:]):
                return TYPO + LATER, 0
            at = key.find(" ", at + 1)
        if q in key:
            return INFIX, 0
    return FUZZY + (100.0 - fuzz.QRatio(q, key)) * FUZZY_POINT, 0


_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")


class Lru(Generic[_K, _V]):
    """A small least-recently-used map: `get` and `put` make a key the newest; past `size` keys the oldest
    goes. (Values are never None: `get` answers None for a missing key.)"""

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[_K, _V] = OrderedDict()

    def get(self, key: _K) -> _V | None:
        value = self.data.get(key)
        if value is not None:
            self.data.move_to_end(key)
        return value

    def put(self, key: _K, value: _V) -> None:
        self.data[key] = value
        self.data.move_to_end(key)
        if len(self.data) > self.size:
            self.data.popitem(last=False)

    def clear(self) -> None:
        self.data.clear()


def _itself(item: Any) -> Any:
    return item


def _gentle_sorted(items: list[_T], key: Callable[[_T], Any] = _itself) -> list[_T]:
    """`sorted(items, key=key)` that never holds the GIL for long: chunks sorted apart, then merged in Python.

    Input that arrives sorted (for example names read `ORDER BY norm`) costs only the chunk sorts.
    """
    if len(items) <= _CHUNK:
        return sorted(items, key=key)
    runs = [sorted(items[i:i + _CHUNK], key=key) for i in range(0, len(items), _CHUNK)]
    if all(key(runs[j][-1]) <= key(runs[j + 1][0]) for j in range(len(runs) - 1)):
        return [item for run in runs for item in run]
    return list(heapq.merge(*runs, key=key))


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One card name in the index: its display name, key, card id and whether it can be a commander."""

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
_Hit = tuple[float, int, int, str, float]


class _Lists:
    """Search structures over one set of entries (all cards, or only commanders).

    Entry ids are positions in popularity order (`_static_order`), so "the best k of a range" is
    "the k smallest ids in it".
    - `keys[id]`, `names[id]`, `costs[id]`: key, display name and popularity cost of each entry;
    - `start_keys`/`start_ids`: every key sorted, for matches at the start of a name;
    - `later_keys`/`later_ids`: the key from each later word on ("bolt" of "lightning bolt"), sorted;
    - `blob`: all keys in id order between newlines, scanned for matches inside words, best first;
    - `by_letter`: keys and ids by first letter, for the fuzzy last resort.
    """

    __slots__ = ("names", "keys", "costs", "start_keys", "start_ids", "later_keys", "later_ids",
                 "blob", "line_starts", "by_letter")

    def __init__(self, entries: list[IndexEntry]) -> None:
        # Positions and parallel lists rather than tuples: the build keeps few objects for the garbage
        # collector to trace, and a collection of its own making is what would stall other threads.
        by_popularity = _gentle_sorted(list(range(len(entries))), key=lambda p: _static_order(entries[p]))
        id_of = [0] * len(entries)
        for i, p in enumerate(by_popularity):
            id_of[p] = i
        ordered = [entries[p] for p in by_popularity]
        self.names = [e.name for e in ordered]
        self.keys = [e.norm for e in ordered]
        self.costs = [popularity_cost(e.popularity) for e in ordered]
        input_keys = [e.norm for e in entries]
        by_key = _gentle_sorted(list(range(len(entries))), key=input_keys.__getitem__)  # quick when pre-sorted
        self.start_keys = [input_keys[p] for p in by_key]
        self.start_ids = [id_of[p] for p in by_key]
        suffixes: list[str] = []
        owners: list[int] = []
        for i, k in enumerate(self.keys):
            at = k.find(" ")
            while at != -1:
                suffixes.append(k[at + 1:])
                owners.append(i)
                at = k.find(" ", at + 1)
        by_suffix = _gentle_sorted(list(range(len(suffixes))), key=suffixes.__getitem__)
        self.later_keys = [suffixes[j] for j in by_suffix]
        self.later_ids = [owners[j] for j in by_suffix]
        self.blob = "\n" + "\n".join(self.keys) + "\n"
        self.line_starts: list[int] = []
        pos = 1
        for k in self.keys:
            self.line_starts.append(pos)
            pos += len(k) + 1
        self.by_letter: dict[str, tuple[list[str], list[int]]] = {}
        for i, k in enumerate(self.keys):
            bucket = self.by_letter.setdefault(k[:1], ([], []))
            bucket[0].append(k)
            bucket[1].append(i)

    def __len__(self) -> int:
        return len(self.keys)

    # -- ranges of the sorted lists ---------------------------------------------------------------

    @staticmethod
    def _span(keys: list[str], prefix: str, lo: int = 0, hi: int | None = None) -> tuple[int, int]:
        """The range of `keys` (sorted) that start with `prefix`."""
        hi = len(keys) if hi is None else hi
        start = bisect.bisect_left(keys, prefix, lo, hi)
        return start, bisect.bisect_left(keys, prefix + _TOP, start, hi)

    @staticmethod
    def _best(ids: list[int], lo: int, hi: int, k: int) -> list[int]:
        """The `k` best (smallest) entry ids in `ids[lo:hi]`."""
        if hi - lo <= k:
            return ids[lo:hi]
        return heapq.nsmallest(k, ids[lo:hi])

    def _word_ids(self, keys: list[str], ids: list[int], q: str, k: int) -> set[int]:
        """Ids that may be among the `k` best word matches of `q` in one sorted list.

        Each kind of match is a contiguous range: exact keys, then `q` + space (whole word), then `q` + "s"
        (+ space), all inside the range of `q` as a prefix. The best `k` of each range are enough.
        """
        lo, hi = self._span(keys, q)
        if lo == hi:
            return set()
        found = set(self._best(ids, lo, hi, k))
        exact_hi = bisect.bisect_right(keys, q, lo, hi)
        found.update(ids[lo:exact_hi])
        whole_hi = bisect.bisect_left(keys, q + "!", exact_hi, hi)  # " " sorts before "!" and every letter
        found.update(self._best(ids, exact_hi, whole_hi, k))
        plural_lo = bisect.bisect_left(keys, q + "s", whole_hi, hi)
        plural_hi = bisect.bisect_left(keys, q + "s!", plural_lo, hi)
        found.update(self._best(ids, plural_lo, plural_hi, k))
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
        """The `k` best ids whose entry in `keys` starts with `q` typed with one slip (see `typo_prefix`).

        The slip is looked for at each position i of `q`. The word agrees with q[:i], then q[i] is missing,
        wrong, preceded by an extra letter, or swapped with q[i+1]. Each case is one prefix range. Once few
        words start with q[:i], they are simply checked one by one, which also covers every later position.
        When no word starts with q[:i], slips further on cannot match.
        """
        n = len(q)
        spans: list[tuple[int, int]] = []
        found: list[int] = []
        for i in range(1, n):
            head = q[:i]
            lo, hi = self._span(keys, head)
            if hi - lo <= _SCAN:
                found.extend(ids[j] for j in range(lo, hi) if typo_prefix(q, keys[j]))
                break
            spans.append(self._span(keys, head + q[i + 1:], lo, hi))
            if i + 1 < n:
                spans.append(self._span(keys, head + q[i + 1] + q[i] + q[i + 2:], lo, hi))
            for c in self._children(keys, i, lo, hi):
                if c != q[i]:
                    spans.append(self._span(keys, head + c + q[i + 1:], lo, hi))
                spans.append(self._span(keys, head + c + q[i:], lo, hi))
        found.extend(i for lo, hi in spans if lo < hi for i in self._best(ids, lo, hi, k))
        return heapq.nsmallest(k, set(found))

    # -- the search -------------------------------------------------------------------------------

    def search(self, q: str, limit: int, *, typos: bool, infix: bool, fuzzy: bool) -> list[_Hit]:
        """The best hits for normalised `q`, sorted by (cost, completion, id); at least the best `limit`."""
        pool: dict[int, _Hit] = {}
        k = limit * 2 + 10

        def offer(i: int, match: float, completion: int, group: str) -> None:
            hit = (match + self.costs[i], completion, i, group, match)
            old = pool.get(i)
            if old is None or hit < old:
                pool[i] = hit

        def kth_cost() -> float:
            if len(pool) < limit:
                return math.inf
            return heapq.nsmallest(limit, (h[0] for h in pool.values()))[-1]

        for i in (self._word_ids(self.start_keys, self.start_ids, q, k)
                  | self._word_ids(self.later_keys, self.later_ids, q, k)):
            found = word_match(q, self.keys[i])
            if found is not None:
                offer(i, *found)
        if typos and len(q) >= MIN_TYPO_CHARS and kth_cost() > TYPO:
            for keys, ids, extra in ((self.start_keys, self.start_ids, 0.0),
                                     (self.later_keys, self.later_ids, LATER)):
                for i in self._typo_ids(keys, ids, q, k):
                    found = word_match(q, self.keys[i])
                    offer(i, *(found or (TYPO + extra, 0, "")))
        if infix and len(q) >= MIN_TYPO_CHARS:
            self._infix(q, k, kth_cost(), offer)
        if fuzzy and len(pool) < limit and len(q) >= MIN_TYPO_CHARS:
            keys, ids = self.by_letter.get(q[0], ([], []))
            for _key, score, pos in process.extract(q, keys, scorer=fuzz.QRatio, limit=limit,
                                                     score_cutoff=60.0):
                offer(ids[pos], FUZZY + (100.0 - score) * FUZZY_POINT, 0, "")
        return sorted(pool.values())

    def _infix(self, q: str, k: int, bound: float, offer: Callable[[int, float, int, str], None]) -> None:
        """Offer up to `k` names with `q` inside a word, most played first, while they can still rank.

        `str.find` walks the blob; after many occurrences at word starts (which are not infix matches),
        a regular expression that skips them takes over.
        """
        blob = self.blob
        pos = 0
        found = 0
        skipped = 0
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
            word = word_match(q, self.keys[i])
            offer(i, *(word or (INFIX, 0, "")))
            found += 1
            pos = self.line_starts[i + 1] if i + 1 < len(self.line_starts) else len(blob)


@dataclass(frozen=True, slots=True)
class LocalMatch:
    """Result of a local resolution: `kind` is "unique", "ambiguous" or "none". For "none", `close` says
    the suggestions are near misses (a typo away, or a fuzzy score of `CLOSE_SCORE`+), so the name was most
    likely one of them misspelled rather than a card the index lacks."""

    kind: str
    names: list[str]
    suggestions: list[str]
    close: bool = False


def _spread(hits: list[_Hit], limit: int) -> list[int]:
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
        self._all = _Lists(values)
        self._commanders = _Lists([e for e in values if e.commander])
        # Commanders with a partner ability (or that a "Choose a Background"/"Doctor's companion" card looks
        # for), decoded once; the partner option's lists are made from them per chosen commander.
        self._pairable = [(e, _traits(e.pairing)) for e in values if e.commander and e.pairing]
        self._partner_lists: dict[str, _Lists] = {}
        # The index never changes once built (a reload builds a new one), so matches can be remembered:
        # `peek` and `resolve` ask for the same key, and fuzzy matching costs milliseconds. An `Lru` of its
        # own, not `lru_cache` on a bound method: that would be a reference cycle, leaving the whole old index
        # to a garbage collection that frees it in one long pause on whichever thread runs it.
        self._matches: Lru[tuple[str, bool], LocalMatch] = Lru(MATCH_CACHE)

    def __len__(self) -> int:
        return len(self.entries)

    def is_commander(self, name: str) -> bool:
        entry = self.entries.get(name)
        return bool(entry and entry.commander)

    def popularity(self, name: str) -> int | None:
        """The EDHREC rank of a card name in the index (None when unranked or unknown)."""
        entry = self.entries.get(name)
        return entry.popularity if entry else None

    def _lists(self, commanders_only: bool) -> _Lists:
        return self._commanders if commanders_only else self._all

    def partners(self, pairing: str) -> _Lists:
        """The commanders that can be a second commander beside one whose pairing summary is `pairing`
        (`PairingTraits.encode()`): those sharing a partner ability with it (CR 702.124)."""
        lists = self._partner_lists.get(pairing)
        if lists is None:
            mine = _traits(pairing)
            lists = _Lists([e for e, theirs in self._pairable if can_pair(mine, theirs)])
            if len(self._partner_lists) >= PARTNER_LISTS:
                self._partner_lists.clear()
            self._partner_lists[pairing] = lists
        return lists

    def complete(self, text: str, *, limit: int = 25, commanders_only: bool = False,
                 partner_of: str | None = None) -> list[str]:
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

    def fuzzy(self, q: str, *, limit: int = 5, commanders_only: bool = False,
              cutoff: float = 60.0) -> list[tuple[str, float]]:
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
            self._matches.put(key, found)
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
    def _clear_winner(lists: _Lists, hits: list[_Hit]) -> bool:
        """Whether the first hit is a whole-word match far more popular than every other whole-word match."""
        first = hits[0][2]
        if lists.costs[first] >= _UNRANKED_COST or hits[0][4] > WHOLE + LATER:
            return False
        return all(lists.costs[i] - lists.costs[first] >= FAR_MORE_POPULAR
                   for _cost, _completion, i, _group, match in hits[1:] if match <= PLURAL + LATER)


def rank_candidates(query: str, names: Iterable[str],
                    popularity: Callable[[str], int | None] | Mapping[str, int | None] | None = None
                    ) -> list[str]:
    """Order candidate names for a "did you mean" or "matches several cards" reply, best first.

    Same costs as `NameIndex` (`match_cost` + `popularity_cost`). `popularity` gives a name's EDHREC rank
    (pass `NameIndex.popularity`); without it every name counts as unranked and only the tiers order them.
    """
    q = normalize(query)

    def pop(name: str) -> int | None:
        if popularity is None:
            return None
        if isinstance(popularity, Mapping):
            return popularity.get(name)
        return popularity(name)

    def key(name: str) -> tuple[float, int, int, str]:
        cost, completion = match_cost(q, normalize(name))
        return cost + popularity_cost(pop(name)), completion, len(name), name

    return sorted(dict.fromkeys(names), key=key)
