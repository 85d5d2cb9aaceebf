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
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping

from rapidfuzz import fuzz

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
MIN_TYPO_CHARS = 3  # typo tolerance and infix matching start at this many typed characters


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


def choice_name(name: str) -> str:
    """A name shortened to Discord's 100-character limit for choices (a prefix, so it still resolves)."""
    return name if len(name) <= MAX_CHOICE_CHARS else name[:MAX_CHOICE_CHARS].rstrip()


def popularity_cost(popularity: int | None) -> float:
    """The popularity part of a cost: log10 of the EDHREC rank (0 for rank 1), 4.7 when unranked."""
    if popularity is None or popularity < 1:
        return math.log10(UNRANKED)
    return math.log10(min(popularity, UNRANKED))


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
            if typo_prefix(q, key[at + 1 :]):
                return TYPO + LATER, 0
            at = key.find(" ", at + 1)
        if q in key:
            return INFIX, 0
    return FUZZY + (100.0 - fuzz.QRatio(q, key)) * FUZZY_POINT, 0


def rank_candidates(
    query: str,
    names: Iterable[str],
    popularity: Callable[[str], int | None] | Mapping[str, int | None] | None = None,
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
