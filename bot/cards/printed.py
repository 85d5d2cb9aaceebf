"""Card names as printed in other languages: a compact, read-only index from printed name to English name.
Keys (`printed_key`) fold NFKC forms, case, spaces, punctuation and control characters, `=`, and inline
readings in parentheses (furigana). Accents fold on Latin letters only: players type them loosely, while
in other scripts the marks tell letters apart (Japanese `カ`/`ガ`), except the diaeresis of Russian yo.
Latin look-alikes inside a Cyrillic name are read as Cyrillic."""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from typing import Any

from bot.cards.names import LATIN_LETTERS
from bot.settings import CARD_LANGUAGES

# Scryfall's language codes for printed names (Scryfall's `lang`); the order numbers them in the index.
LANGUAGES = (*CARD_LANGUAGES, "en", "he", "la", "grc", "ar", "sa", "ph")
_LANG_NUMBER = {code: i for i, code in enumerate(LANGUAGES)}
KEY_VERSION = 1  # raise it when `printed_key` changes: stored keys of an older version are made again
_SCAN_LIMIT = 2000  # entries `complete` reads at most for one prefix when it sorts by language

_READING = re.compile(r"\([^()]*(?:\)|$)")  # an inline reading `(...)`, or one cut off at the end
# Latin letters that look like Cyrillic ones (after casefold), read as Cyrillic inside Cyrillic names.
_CYRILLIC_LOOKALIKES = str.maketrans("aceopxyk", "\u0430\u0441\u0435\u043e\u0440\u0445\u0443\u043a")
_DROP_CATEGORIES = frozenset(
    {"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cn", "Sm"}
)


class _Kept(dict[int, int | None]):
    """`str.translate`'s table for keys: a code point maps to itself, or to None (dropped) when its category is
    one of `_DROP_CATEGORIES`; each one of the Basic Multilingual Plane (every printed name's) is kept once met,
    so that typed text of any plane never grows the table past 65,536 entries."""

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.category(chr(code)) in _DROP_CATEGORIES else code
        if code < 0x10000:
            self[code] = kept
        return kept


_KEPT = _Kept()


_DISCORD_LOCALES = {"es-ES": "es", "es-419": "es", "pt-BR": "pt", "zh-CN": "zhs", "zh-TW": "zht"}


def scryfall_language(locale: str | None) -> str | None:
    """The Scryfall code of a Discord locale or a catalog's (`pt-BR`, `pt_BR` -> pt; `zh-TW` -> zht); None when
    Magic is not printed in it (English included)."""
    if not locale:
        return None
    locale = locale.replace("_", "-")
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
    """The key of a printed name (module docstring); `accents` keeps Latin accents (`Relámpago`)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if not folded.isascii() and not accents:
        folded = _strip_latin_accents(folded.translate(LATIN_LETTERS))
    unread = _READING.sub("", folded)
    key = unread.translate(_KEPT)
    if not key.isascii() and any("\u0400" <= ch <= "\u04ff" for ch in key):
        key = key.translate(_CYRILLIC_LOOKALIKES)
    return key or "".join(folded.split())  # a name made only of punctuation keeps it


def printing_names(obj: dict[str, Any]) -> list[str]:
    """A printing's distinct printed names: its own, each face's, else the faces' joined by ` // `."""
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
    """The printed-name index of (key by this `KEY_VERSION` of `printed_key`, language, printed name, English
    name, printings) rows; of a card's names with one key in a language, the first row given is shown.
    Printings rank autocomplete."""

    __slots__ = ("_keys", "_langs", "_names", "_printed", "_weights")

    def __init__(self, rows: Iterable[tuple[str, str, str, str, int]]) -> None:
        interned: dict[str, str] = {}
        entries: list[list[Any]] = []  # [key, language number, printed name, English name, printings]
        where: dict[tuple[str, int, str], int] = {}
        for key, lang, printed, name, prints in rows:
            if (number := _LANG_NUMBER.get(lang)) is None or not key or not name:
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
        return frozenset(LANGUAGES[n] for n in set(self._langs))

    def lookup(self, text: str, prefer_langs: Sequence[str] = ()) -> list[str]:
        """The English names (alphabetical) of the cards printed as `text`; accents typed choose among names
        that differ by them. Those printed so in `prefer_langs` come first, and one such card is the only
        answer (fr `Augure` is Omen). Two or more names are an ambiguity to offer, never to pick from."""
        if not (key := printed_key(text)):
            return []
        found: Sequence[int] = range(bisect_left(self._keys, key), bisect_right(self._keys, key))
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
        key = printed_key(text)
        wanted = {_LANG_NUMBER[c] for c in langs if c in _LANG_NUMBER}
        if not key or not wanted:
            return []
        found = range(bisect_left(self._keys, key), bisect_right(self._keys, key))
        return sorted({self._names[i] for i in found if self._langs[i] in wanted})

    def complete(
        self, prefix: str, limit: int = 25, prefer_langs: Sequence[str] = ()
    ) -> list[tuple[str, str]]:
        """Up to `limit` (printed name, English name) pairs whose key starts with `prefix`'s, one per (key,
        card): `prefer_langs` first, then the exact name, the most printed, key order (from the first
        `_SCAN_LIMIT` names)."""
        if not (key := printed_key(prefix)) or limit <= 0:
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
