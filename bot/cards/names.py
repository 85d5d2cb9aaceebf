"""Card-name keys (`normalize`) and the ranking of names for a typed query, ranked by what players play:
cost = match cost + log10(popularity rank) (the costs, the reasons and the resolution rules: docs/card-data.md,
"Name matching")."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rapidfuzz import fuzz

MAX_INPUT_CHARS = 200
MAX_CHOICE_CHARS = 100

LATIN_LETTERS = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ð": "d", "þ": "th", "ł": "l", "ı": "i"})
_APOSTROPHES = re.compile(r"['\u2019\u2018`\u02bc]")
_NON_WORD = re.compile(r"[^0-9a-z]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
_SPACES = re.compile(r"\s+")

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
MIN_TYPO_CHARS = 3  # typo tolerance and infix matching start at this many typed characters


def clean_input(text: str) -> str:
    """User input with control/invisible characters removed and whitespace collapsed ("" if nothing left)."""
    return _SPACES.sub(" ", _CONTROL.sub("", text)).strip()


def normalize(text: str) -> str:
    """The key of a card name: case, accents, punctuation, `//` and `/` folded (`Kumano's` -> `kumanos`).
    A name made only of punctuation (the Un-card `_____`) keeps its case-folded text."""
    folded = text.casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFKD", folded).casefold().translate(LATIN_LETTERS)  # 🅪: MC, mc
        folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return _NON_WORD.sub(" ", _APOSTROPHES.sub("", folded)).strip() or _SPACES.sub(" ", folded).strip()


def names_card(typed: str, card: Mapping[str, Any]) -> bool:
    """Whether `typed` is the card's name, a face's, or a `flavor_name` printed in their place, folded."""
    parts = [card, *(f for f in card.get("card_faces") or () if isinstance(f, Mapping))]
    folded = {normalize(str(p[k])) for p in parts for k in ("name", "flavor_name") if p.get(k)}
    return normalize(typed) in folded


def _words_in_order(typed: list[str], words: list[str]) -> bool:
    rest = iter(words)  # each typed word uses up the words up to the first it begins
    return all(any(w.startswith(word) for w in rest) for word in typed)


def names_in_part(typed: str, card: Mapping[str, Any]) -> bool:
    """Whether `typed` names the card, spelled right, in part: each typed word the beginning of a word of its
    name or a face's, in the name's order (`Kumano`, `kumano yamabushi`, `master yama`); never a slip or
    letters inside a word."""
    q = normalize(typed).split()
    parts = [card, *(f for f in card.get("card_faces") or () if isinstance(f, Mapping))]
    return bool(q) and any(
        _words_in_order(q, normalize(str(p["name"])).split()) for p in parts if p.get("name")
    )


def choice_name(name: str) -> str:
    """A name shortened to Discord's 100-character limit for choices (a prefix, so it still resolves)."""
    return name if len(name) <= MAX_CHOICE_CHARS else name[:MAX_CHOICE_CHARS].rstrip()


def popularity_cost(popularity: int | None) -> float:
    return math.log10(UNRANKED if popularity is None or popularity < 1 else min(popularity, UNRANKED))


def word_match(q: str, key: str) -> tuple[float, int, str] | None:
    """The best match of `q` at a word start of `key`: (EXACT/WHOLE/PLURAL/PREFIX [+ LATER], letters the
    typed word still needs, text from the match to the end of that word: `fire` -> "fires" in Fires of
    Yavimaya); None when no word of `key` starts with `q`."""
    if not q:
        return None
    if key == q:
        return EXACT, 0, key
    best: tuple[float, int, str] | None = None
    at = key.find(q)
    while at != -1:
        if at == 0 or key[at - 1] == " ":
            end = at + len(q)
            stop = key.find(" ", end) % (len(key) + 1)  # none: the end of the key
            cost = WHOLE if stop == end else PLURAL if stop == end + 1 and key[end] == "s" else PREFIX
            found = (cost + (LATER if at else 0.0), stop - end, key[at:stop])
            if best is None or found[:2] < best[:2]:
                best = found
        at = key.find(q, at + 1)
    return best


def typo_prefix(q: str, word: str) -> bool:
    """Whether `word` starts with `q` typed with one slip (a letter missing, extra, wrong or two swapped);
    the first letter right, `q` at least MIN_TYPO_CHARS long. An exact prefix is no typo."""
    n = len(q)
    if n < MIN_TYPO_CHARS or not word or word[0] != q[0]:
        return False
    i, limit = 1, min(n, len(word))
    while i < limit and word[i] == q[i]:
        i += 1
    if i == n:
        return False  # an exact prefix
    rest = q[i + 1 :]
    if word.startswith(rest, i):  # q[i] is missing from the name
        return True
    if i < len(word):
        if word.startswith(rest, i + 1) or word.startswith(q[i:], i + 1):  # wrong letter / extra letter
            return True
        if i + 1 < n and word[i : i + 2] == q[i + 1] + q[i] and word.startswith(q[i + 2 :], i + 2):
            return True  # two letters swapped
    return False


def match_cost(q: str, key: str) -> tuple[float, int]:
    """The match cost of name key `key` for query key `q`, and its completion (the one definition of the
    tiers; `NameIndex` finds the same tiers through its sorted lists)."""
    if (found := word_match(q, key)) is not None:
        return found[0], found[1]
    if len(q) >= MIN_TYPO_CHARS:
        if typo_prefix(q, key):
            return TYPO, 0
        at = key.find(" ")
        while at != -1:
            if typo_prefix(q, key[at + 1 :]):
                return TYPO + LATER, 0
            at = key.find(" ", at + 1)
        if q in key:
            return INFIX, 0
    return FUZZY + (100.0 - fuzz.QRatio(q, key)) * FUZZY_POINT, 0


def rank_candidates(query: str, names: Iterable[str], popularity: Callable[[str], int | None]) -> list[str]:
    """Candidate names for a "did you mean" or "matches several cards" reply, best first, by the index's
    costs; `popularity` gives a name's EDHREC rank (None: unranked)."""
    q = normalize(query)

    def key(name: str) -> tuple[float, int, int, str]:
        cost, completion = match_cost(q, normalize(name))
        return cost + popularity_cost(popularity(name)), completion, len(name), name

    return sorted(dict.fromkeys(names), key=key)
