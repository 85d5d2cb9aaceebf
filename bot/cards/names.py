"""Card-name normalisation and the in-memory local name index (prefix, word-prefix, fuzzy).

`normalize()` folds case, accents, punctuation and the `//` of split cards, so `Fire // Ice`,
`fire ice` and `Fire/Ice` share one key. `NameIndex` answers autocomplete and local resolution from
the names in the card cache (mostly the Scryfall bulk data) without touching the network.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process

MAX_INPUT_CHARS = 200
MAX_CHOICE_CHARS = 100
# How many prefix matches autocomplete ranks before it keeps the best 25.
_COMPLETION_POOL = 400

_SPECIAL = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ð": "d", "þ": "th", "ł": "l", "ı": "i"})
_APOSTROPHES = re.compile(r"['\u2019\u2018`\u02bc]")
_NON_WORD = re.compile(r"[^0-9a-z]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
_SPACES = re.compile(r"\s+")


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

    Autocomplete shows the shortest completions of the typed word first, so `fire` offers the `Fire ...`
    and `Fires ...` cards before `Fireball` or `Firemane Angel`.
    """
    end = key.find(" ", len(q))
    return (len(key) if end == -1 else end) - len(q)


def _diversify(ranked: list[tuple[int, str, str]], q: str, limit: int) -> list[str]:
    """Names from `(completion_rank, key, name)` triples, best first, with room for other words.

    One completed word (`fire` in `Fire Ambush`, `Fire Ants`, ...) may take at most four fifths of the
    list while other completions (`Fires ...`, `Fireball`) wait, so the user sees where else the word
    can go; leftover room goes back to the best-ranked names.
    """
    cap = limit - max(1, limit // 5)
    per_word: dict[str, int] = {}
    first: list[str] = []
    held: list[str] = []
    for rank, key, name in ranked:
        word = key[: len(q) + rank]
        count = per_word.get(word, 0)
        per_word[word] = count + 1
        (first if count < cap else held).append(name)
    return first + held


def choice_name(name: str) -> str:
    """A name shortened to Discord's 100-character limit for choices (a prefix, so it still resolves)."""
    return name if len(name) <= MAX_CHOICE_CHARS else name[:MAX_CHOICE_CHARS].rstrip()


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One card name in the index: its display name, key, card id and whether it can be a commander."""

    name: str
    norm: str
    card_id: str
    commander: bool
    rank: int
    popularity: int | None = None  # Scryfall's edhrec_rank: 1 = most played in Commander; None = unranked


class _Lists:
    """Sorted keys for prefix search, word-boundary suffixes for word-prefix search, fuzzy choices."""

    __slots__ = ("keys", "key_names", "words", "word_names", "choices", "choice_names")

    def __init__(self, entries: list[IndexEntry]) -> None:
        pairs = sorted((e.norm, e.name) for e in entries)
        self.keys = [p[0] for p in pairs]
        self.key_names = [p[1] for p in pairs]
        suffixes: list[tuple[str, str]] = []
        for e in entries:
            start = e.norm.find(" ")
            while start != -1:
                suffixes.append((e.norm[start + 1:], e.name))
                start = e.norm.find(" ", start + 1)
        suffixes.sort()
        self.words = [s[0] for s in suffixes]
        self.word_names = [s[1] for s in suffixes]
        self.choices = self.keys
        self.choice_names = self.key_names

    @staticmethod
    def _range(keys: list[str], names: list[str], prefix: str, limit: int) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        i = bisect.bisect_left(keys, prefix)
        while i < len(keys) and len(out) < limit and keys[i].startswith(prefix):
            out.append((keys[i], names[i]))
            i += 1
        return out

    def prefix(self, q: str, limit: int) -> list[tuple[str, str]]:
        return self._range(self.keys, self.key_names, q, limit)

    def word_prefix(self, q: str, limit: int) -> list[tuple[str, str]]:
        return self._range(self.words, self.word_names, q, limit)

    def fuzzy(self, q: str, limit: int, cutoff: float, scorer=fuzz.token_sort_ratio) -> list[tuple[str, float]]:
        found = process.extract(q, self.choices, scorer=scorer, limit=limit, score_cutoff=cutoff)
        return [(self.choice_names[i], float(score)) for _key, score, i in found]


@dataclass(frozen=True, slots=True)
class LocalMatch:
    """Result of a local resolution: `kind` is "unique", "ambiguous" or "none"."""

    kind: str
    names: list[str]
    suggestions: list[str]


class NameIndex:
    """All card names known locally, for autocomplete and for resolving partial names and typos."""

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
        # The index never changes once built (a reload builds a new one), so matches can be remembered:
        # `peek` and `resolve` ask for the same key, and fuzzy matching costs milliseconds.
        self.match = lru_cache(maxsize=4096)(self._match)  # type: ignore[method-assign]

    def __len__(self) -> int:
        return len(self.entries)

    def is_commander(self, name: str) -> bool:
        entry = self.entries.get(name)
        return bool(entry and entry.commander)

    def _lists(self, commanders_only: bool) -> _Lists:
        return self._commanders if commanders_only else self._all

    def complete(self, text: str, *, limit: int = 25, commanders_only: bool = False) -> list[str]:
        """Autocomplete: names starting with `text`, then names with a word starting with it, then fuzzy.

        Within each group the shortest completion of the typed word comes first (`completion_rank`).
        """
        q = normalize(text)
        if not q:
            return []
        lists = self._lists(commanders_only)
        out: list[str] = []
        seen: set[str] = set()

        def add(names: Iterable[str]) -> None:
            for name in names:
                if len(out) >= limit:
                    return
                if name not in seen:
                    seen.add(name)
                    out.append(name)

        def ranked(pairs: list[tuple[str, str]]) -> list[str]:
            return _diversify(sorted((completion_rank(k, q), k, name) for k, name in pairs), q, limit)

        add(ranked(lists.prefix(q, _COMPLETION_POOL)))
        if len(out) < limit:
            add(ranked(lists.word_prefix(q, _COMPLETION_POOL)))
        if len(out) < limit and len(q) >= 3:
            add(name for name, _s in lists.fuzzy(q, limit, 60.0, scorer=fuzz.QRatio))
        return out

    def candidates(self, q: str, *, commanders_only: bool = False, limit: int = 50) -> list[str]:
        """Names matching normalised `q` as a prefix or word prefix, best first.

        Order: the name starts with `q` as whole words, then a later word starts with `q`, then the name
        merely starts with `q` (`kumano` -> `Kumano's Pupils`); shorter names first within each group.
        """
        lists = self._lists(commanders_only)
        whole: list[tuple[int, str]] = []
        partial: list[tuple[int, str]] = []
        for key, name in lists.prefix(q, limit):
            rest = key[len(q):]
            (whole if not rest or rest[0] == " " else partial).append((len(key), name))
        inner = [(len(name), name) for key, name in lists.word_prefix(q, limit)
                 if len(key) == len(q) or key[len(q):][:1] in ("", " ")]
        later = [(len(name), name) for key, name in lists.word_prefix(q, limit)]
        out: list[str] = []
        seen: set[str] = set()
        for group in (sorted(whole), sorted(inner), sorted(later), sorted(partial)):
            for _len, name in group:
                if name not in seen:
                    seen.add(name)
                    out.append(name)
        return out

    def fuzzy(self, q: str, *, limit: int = 5, commanders_only: bool = False,
              cutoff: float = 60.0) -> list[tuple[str, float]]:
        return self._lists(commanders_only).fuzzy(q, limit, cutoff)

    def _match(self, q: str, *, commanders_only: bool = False) -> LocalMatch:
        """Resolve normalised `q` locally: one clear name, several candidates, or nothing.

        Exact keys are the cache's job (it knows face names); this handles partial names and typos.
        """
        names = self.candidates(q, commanders_only=commanders_only)
        if len(names) == 1:
            return LocalMatch("unique", names, [])
        if names:
            return LocalMatch("ambiguous", names, [])
        scored = self.fuzzy(q, limit=5, commanders_only=commanders_only)
        suggestions = [name for name, _s in scored]
        if scored and scored[0][1] >= 88.0 and (len(scored) == 1 or scored[1][1] <= scored[0][1] - 3.0):
            return LocalMatch("unique", [scored[0][0]], suggestions)
        return LocalMatch("none", [], suggestions)


def rank_candidates(query: str, names: Iterable[str]) -> list[str]:
    """Order candidate names for a "did you mean" reply: whole-word prefix matches of the query first,
    then names with a later word starting with it, then the rest; shorter names first within a group."""
    q = normalize(query)

    def key(name: str) -> tuple[int, int, str]:
        norm = normalize(name)
        padded = f" {norm} "
        if norm == q or norm.startswith(q + " "):
            group = 0
        elif f" {q} " in padded:
            group = 1
        elif norm.startswith(q) or f" {q}" in padded:
            group = 2
        else:
            group = 3
        return group, len(name), name

    unique = list(dict.fromkeys(names))
    return sorted(unique, key=key)
