"""Card names as printed in other languages: a compact, read-only index from printed name to Oracle name.

`PrintedNames` is built from (language, printed name, English Oracle name) rows — from the `printed_names`
table `bot.cards.allcards` fills, or from any other source — and answers two questions:

- `lookup(text)`: the distinct English names of every card printed under that name. Two or more names are
  an ambiguity for the caller to offer as a choice (de `Zwang` is Duress and Coercion), never a guess; the
  player's languages, when known, narrow it (`prefer_langs`).
- `complete(prefix, limit)`: (printed name, English name) pairs whose key starts with the prefix, for
  autocomplete, the player's languages first.

Keys fold what players do not type the same way (`printed_key`): NFKC (full-width letters, digits and
punctuation become their plain forms, the half-width middle dot becomes `・`), case, every space,
punctuation and control character (`・`, `·`, `-`, `'`, `:`, `//`, Korean and Japanese spaces), `=` (the
full-width U+FF1D in Japanese names), and readings written inline in parentheses (Japanese furigana such
as `肥(ひ)沃(よく)な` in full-width brackets, or one cut off at the end of the name). Accents fold on Latin
letters only (`Díos` = `Dios`, `Cœur` = `Coeur`): players type them loosely and printings disagree on them,
while in other scripts the same marks tell letters apart (Japanese dakuten: `カ` and `ガ`; Cyrillic
short i and i), so those stay — except the diaeresis of Russian yo, which Russian text itself often
leaves out. Latin letters that look like Cyrillic ones inside a Cyrillic name (four Russian names in the
data mix in a Latin c, C, e or O) are read as Cyrillic.

Memory: four parallel arrays sorted by key (keys, language numbers, printed names, interned English
names); lookups are binary searches.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from typing import Any

from bot.settings import CARD_LANGUAGES

# Scryfall's language codes for printed names (Scryfall's `lang`); the order numbers them in the index.
LANGUAGES = (*CARD_LANGUAGES, "en", "he", "la", "grc", "ar", "sa", "ph")
_LANG_NUMBER = {code: i for i, code in enumerate(LANGUAGES)}
KEY_VERSION = 1  # raise it when `printed_key` changes: stored keys of an older version are made again
_SCAN_LIMIT = 2000  # entries `complete` reads at most for one prefix when it sorts by language

_READING = re.compile(r"\([^()]*(?:\)|$)")  # an inline reading `(...)`, or one cut off at the end
_LATIN_LETTERS = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ð": "d", "þ": "th", "ł": "l", "\u0131": "i"})
# Latin letters that look like Cyrillic ones (after casefold), read as Cyrillic inside Cyrillic names.
_CYRILLIC_LOOKALIKES = str.maketrans("aceopxyk", "\u0430\u0441\u0435\u043e\u0440\u0445\u0443\u043a")
_DROP_CATEGORIES = frozenset(
    {"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cn", "Sm"}
)


_DISCORD_LOCALES = {"es-ES": "es", "es-419": "es", "pt-BR": "pt", "zh-CN": "zhs", "zh-TW": "zht"}


def scryfall_language(locale: str | None) -> str | None:
    """The Scryfall language code of a Discord locale (`de` -> de, `pt-BR` -> pt, `zh-TW` -> zht), or None
    when Magic is not printed in it (English included)."""
    if not locale:
        return None
    code = _DISCORD_LOCALES.get(locale, locale.split("-")[0].lower())
    return code if code in CARD_LANGUAGES else None


def _is_latin(ch: str) -> bool:
    return ch.isascii() or "\u00c0" <= ch <= "\u024f" or "\u1e00" <= ch <= "\u1eff"


def _strip_latin_accents(text: str) -> str:
    """Drop combining marks that sit on a Latin letter (and the diaeresis of Cyrillic `ё`)."""
    out: list[str] = []
    base = ""
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            if _is_latin(base) or (base == "\u0435" and ch == "\u0308"):
                continue
        else:
            base = ch
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def printed_key(text: str, *, accents: bool = False) -> str:
    """The lookup key of a printed card name (see the module docstring for what it folds); with
    `accents`, Latin accents are kept (the key that tells `Relámpago` from `Relâmpago`)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if not folded.isascii() and not accents:
        folded = _strip_latin_accents(folded.translate(_LATIN_LETTERS))
    unread = _READING.sub("", folded)
    key = "".join(ch for ch in unread if unicodedata.category(ch) not in _DROP_CATEGORIES)
    if any("\u0400" <= ch <= "\u04ff" for ch in key):
        key = key.translate(_CYRILLIC_LOOKALIKES)
    if key:
        return key
    return "".join(folded.split())  # a name made only of punctuation keeps it


def printing_names(obj: dict[str, Any]) -> list[str]:
    """The distinct printed names on one printing: its `printed_name`, each face's, and (when it has no
    top-level one) the faces' joined with ` // `."""
    names: list[str] = []
    top = obj.get("printed_name")
    if isinstance(top, str) and top.strip():
        names.append(top.strip())
    faces = [f.get("printed_name") for f in obj.get("card_faces") or () if isinstance(f, dict)]
    face_names = [f.strip() for f in faces if isinstance(f, str) and f.strip()]
    if face_names and not names and len(face_names) == len(faces):
        names.append(" // ".join(face_names))
    names.extend(face_names)
    return list(dict.fromkeys(names))


class PrintedNames:
    """The printed-name index: `lookup` and `complete` (see the module docstring).

    `rows` are (language, printed name, English name[, printings]); when one card has several printed names
    with one key in a language (`Лановарские Эльфы`, `Лановарские эльфы`), the first row given is the one
    shown. `from_keyed` takes rows whose keys were stored (made by this `KEY_VERSION` of `printed_key`).
    Printings (default 1) rank autocomplete: the more a name was printed, the better known it is.
    """

    __slots__ = ("_keys", "_langs", "_names", "_printed", "_weights")

    def __init__(self, rows: Iterable[tuple[str, str, str] | tuple[str, str, str, int]]) -> None:
        self._fill(
            (printed_key(row[1]), row[0], row[1], row[2], row[3] if len(row) > 3 else 1) for row in rows
        )

    @classmethod
    def from_keyed(cls, rows: Iterable[tuple[str, str, str, str, int]]) -> PrintedNames:
        """The index of (key, language, printed name, English name, printings) rows (a stored key saves
        the folding)."""
        index = cls(())
        index._fill(rows)
        return index

    def _fill(self, rows: Iterable[tuple[str, str, str, str, int]]) -> None:
        interned: dict[str, str] = {}
        entries: list[list[Any]] = []  # [key, language number, printed name, English name, printings]
        where: dict[tuple[str, int, str], int] = {}
        for key, lang, printed, name, prints in rows:
            number = _LANG_NUMBER.get(lang)
            if number is None or not key or not name:
                continue
            name = interned.setdefault(name, name)
            at = where.setdefault((key, number, name), len(entries))
            if at == len(entries):
                entries.append([key, number, printed, name, 0])
            entries[at][4] += max(1, prints)
        del where
        entries.sort(key=lambda e: (e[0], e[1]))  # stable: the first row given stays first
        self._keys: list[str] = [e[0] for e in entries]
        self._langs = array("B", (e[1] for e in entries))
        self._printed: list[str] = [e[2] for e in entries]
        self._names: list[str] = [e[3] for e in entries]
        self._weights = array("I", (min(e[4], 2**32 - 1) for e in entries))

    def __len__(self) -> int:
        return len(self._keys)

    @property
    def languages(self) -> frozenset[str]:
        """The languages the index holds names in."""
        return frozenset(LANGUAGES[n] for n in set(self._langs))

    def lookup(self, text: str, prefer_langs: Sequence[str] = ()) -> list[str]:
        """The distinct English names of the cards printed as `text` (alphabetical; [] when none).

        When the names differ only by Latin accents, accents typed pick among them (`Relámpago` is es
        Lightning Bolt, `Relâmpago` pt Thunderbolt, `Relampago` both). With `prefer_langs` (the player's
        languages), the cards printed so in those languages come first, and when that is exactly one card
        it is the only answer (fr `Augure` is Omen, though it `Augure` is Wellwisher). Two or more names
        are an ambiguity to offer, never to pick from.
        """
        key = printed_key(text)
        if not key:
            return []
        lo, hi = bisect_left(self._keys, key), bisect_right(self._keys, key)
        found: Sequence[int] = range(lo, hi)
        if len({self._names[i] for i in found}) > 1:  # typed accents choose among names that differ by them
            exact = printed_key(text, accents=True)
            found = [i for i in found if printed_key(self._printed[i], accents=True) == exact] or found
        names = sorted({self._names[i] for i in found})
        if not prefer_langs or len(names) < 2:
            return names
        wanted = {_LANG_NUMBER[c] for c in prefer_langs if c in _LANG_NUMBER}
        preferred = sorted({self._names[i] for i in found if self._langs[i] in wanted})
        if len(preferred) == 1:
            return preferred
        return preferred + [n for n in names if n not in preferred]

    def printed_in(self, text: str, langs: Sequence[str]) -> list[str]:
        """The distinct English names (alphabetical) of the cards printed as `text` in one of `langs`."""
        key = printed_key(text)
        wanted = {_LANG_NUMBER[c] for c in langs if c in _LANG_NUMBER}
        if not key or not wanted:
            return []
        lo, hi = bisect_left(self._keys, key), bisect_right(self._keys, key)
        return sorted({self._names[i] for i in range(lo, hi) if self._langs[i] in wanted})

    def complete(
        self, prefix: str, limit: int = 25, prefer_langs: Sequence[str] = ()
    ) -> list[tuple[str, str]]:
        """Up to `limit` (printed name, English name) pairs whose key starts with `prefix`'s key, one per
        (key, card): those printed in `prefer_langs` first, then the exact name, then the most printed,
        then in key order. A prefix that thousands of names share is answered from the first of them."""
        key = printed_key(prefix)
        if not key or limit <= 0:
            return []
        lo = bisect_left(self._keys, key)
        hi = min(bisect_left(self._keys, key + "\U0010ffff", lo), lo + _SCAN_LIMIT)
        wanted = {_LANG_NUMBER[c] for c in prefer_langs if c in _LANG_NUMBER}
        best: dict[tuple[str, str], tuple[tuple[bool, bool, int, str], str]] = {}
        for i in range(lo, hi):
            rank = (self._langs[i] not in wanted, self._keys[i] != key, -self._weights[i], self._keys[i])
            pair = (self._keys[i], self._names[i])
            if pair not in best or rank < best[pair][0]:
                best[pair] = (rank, self._printed[i])
        ordered = sorted(best.items(), key=lambda item: item[1])
        return [(printed, name) for (_key, name), (_rank, printed) in ordered[:limit]]
