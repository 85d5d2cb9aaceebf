"""Decklist parser: the formats people paste or export. Pure; no I/O.

Understood, line by line:

- `1 Sol Ring`, `1x Sol Ring`, `1 x Sol Ring`, `Sol Ring` (count 1), `SB: 1 Sol Ring` (MTGO sideboard);
- set and collector number: `1 Sol Ring (C21) 263`, `1 Sol Ring [C21]`, `1 [C21] Sol Ring`,
  `1 Sol Ring (C21) 263 *F*` (Moxfield foil/etched markers), `*CMDR*` (TappedOut commander marker),
  Moxfield `#tags` and Archidekt `[Category]` / `^tag^` suffixes (`[Commander{top}]` marks the commander,
  `{noDeck}` keeps a card out of the deck);
- section headers (Arena / Moxfield / MTGO): `Commander`, `Deck`, `Mainboard`, `Sideboard`, `Maybeboard`,
  `Considering`, `Companion`, `Tokens`, `About`, with optional `//` or `#` in front, a `(N)` count and a
  trailing `:`; type group headers such as `Creatures (30)` or `Lands` are recognised and skipped;
- `//` and `#` comment lines, blank lines, Windows line endings, a byte-order mark;
- comments at the end of a card line: ` # note` always; ` // note` when the right part can't be the second
  face of a split card (it starts with a lower-case letter after a capitalised name, holds a lower-case word
  card names never use, such as `Ramp and rocks`, is a section or type word such as `Ramp`, starts with
  punctuation, or the left part already ends in a set code, marker or tag). When the right part could be either
  (`1 Sol Ring // Staple`), the entry keeps the split reading and records the left part in `alternative`; the
  runner uses it only when the split name is not a card (see `runner.check_decklist`);
- `Commander: Name` (also `Commanders:`, `Partner:`, `Background:`, `Companion:`, `Sideboard:`, ...) puts one
  card in that section without changing the section of the lines after it;
- split names written `Fire/Ice`, `Fire / Ice` or `Fire // Ice` (all become `Fire // Ice`);
- a count that no deck could hold (1000 or more) is part of the name: `1996 World Champion`.

One-line pastes (Discord text options and some chat clients turn newlines into spaces): when the whole input
is a single non-blank line, `parse` first cuts it into entries (`split_entries`) and then reads each entry
exactly like a line of a multi-line list. An entry starts at a count followed by a name (`1 Sol Ring`,
`1x Sol Ring`), at `SB:`, at `;` or `|`, at a section or type header, at `Commander: Name`, at a `//` or `#`
comment that follows a finished entry, and at a name that follows a finished entry (one that ended in a set
code, collector number, `*F*`/`*CMDR*` marker, `[category]`, `^tag^` or `#tag`). A number right after a
`(SET)` code is its collector number when the paste's other set codes carry collector numbers (Moxfield,
Arena and Archidekt exports always do). A bare section word right after a card name without a set code is a
header only when no card name ends with that word (`Deck`, `Sideboard`, `Maybeboard` are headers; in
`1 Siege-Gang Commander 1 Sol Ring` "Commander" belongs to the name); with a colon, a `(N)` count or written
as a comment (`Commander:`, `Lands (30)`, `// Removal`: no card face is named like a header) it always is. In one-line input, `Word: <count> ...` is a section header (as
the line `SIDEBOARD:` is in a multi-line list). Entries are numbered in the order pasted, and those numbers
are the `line` numbers (`ParsedDeck.one_line` says so). Limits: a one-line plain list needs counts or `;`
separators between the names, and a comment's own numbers (`// top 10`) start new entries.

`parse_card_line(text)` reads one card line (a card option such as `Sol Ring (C21) 263`, `1x Sol Ring *F*`
or `Commander: Kumano`) with the same code as `parse`.

Sideboard, maybeboard, companion and token sections are read but are not part of the deck. Every line the
parser cannot read becomes a `ParseProblem` with its line number; nothing is dropped silently.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum

MAX_LINES = 300  # non-blank lines; a Commander list with sideboard and maybeboard fits comfortably
MAX_BYTES = 64 * 1024
MAX_NAME_LENGTH = 200
MAX_COUNT = 999


class Section(StrEnum):
    COMMANDER = "commander"
    MAIN = "main"
    SIDEBOARD = "sideboard"
    MAYBEBOARD = "maybeboard"
    COMPANION = "companion"
    TOKENS = "tokens"
    ABOUT = "about"

    @property
    def in_deck(self) -> bool:
        return self in (Section.COMMANDER, Section.MAIN)


_SECTION_WORDS: dict[str, Section] = {
    "commander": Section.COMMANDER,
    "commanders": Section.COMMANDER,
    "command zone": Section.COMMANDER,
    "deck": Section.MAIN,
    "main": Section.MAIN,
    "maindeck": Section.MAIN,
    "main deck": Section.MAIN,
    "mainboard": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "side board": Section.SIDEBOARD,
    "side": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "maybe board": Section.MAYBEBOARD,
    "maybe": Section.MAYBEBOARD,
    "considering": Section.MAYBEBOARD,
    "companion": Section.COMPANION,
    "companions": Section.COMPANION,
    "tokens": Section.TOKENS,
    "attractions": Section.TOKENS,
    "stickers": Section.TOKENS,
    "about": Section.ABOUT,
}

# Type group headers (Moxfield/TappedOut/Archidekt copies): skipped, section unchanged.
_GROUP_WORDS = {
    "creature", "creatures", "land", "lands", "instant", "instants", "sorcery", "sorceries",
    "artifact", "artifacts", "enchantment", "enchantments", "planeswalker", "planeswalkers",
    "battle", "battles", "other", "others", "spells", "nonland", "nonlands", "ramp", "removal",
    "card draw", "draw", "tribal", "kindred", "legendary", "mana rocks",
}

_HEADER_RE = re.compile(
    r"^(?:(?://|#)+\s*)?(?P<word>[A-Za-z][A-Za-z ]*?)\s*(?:\(\s*\d+\s*\))?\s*:?\s*(?:\d+\s*)?$"
)
_COUNT_RE = re.compile(r"^(?P<count>\d+)(?P<x>\s*[xX×])?\s+(?P<rest>\S.*)$")
_TRAILING_COUNT_RE = re.compile(r"^(?P<rest>.*\S)\s+[xX×](?P<count>\d+)$")
_SB_RE = re.compile(r"^SB:\s*", re.IGNORECASE)
_STAR_MARK_RE = re.compile(r"\s*\*(?P<mark>[A-Za-z][A-Za-z\- ]{0,15})\*\s*$")
_HASHTAG_RE = re.compile(r"\s+#!?[^\s#]+\s*$")
_CARET_TAG_RE = re.compile(r"\s*\^[^^]*\^\s*$")
# A set code has a letter and one case (`(C21)`, `(c21)`), so `Hazmat Suit (Used)` and `Bio (1999)` keep theirs.
_SET_CODE = r"(?=[A-Za-z0-9]*[A-Za-z])(?:[A-Z0-9]{2,6}|[a-z0-9]{2,6})"
_SET_PAREN_RE = re.compile(r"\s*\((?P<set>" + _SET_CODE + r")\)(?:\s+(?P<num>[A-Za-z0-9★†\-]{1,10}))?\s*$")
_BRACKET_RE = re.compile(r"\s*\[(?P<inner>[^\[\]]{1,60})\]\s*$")
_SET_BRACKET_RE = re.compile(r"^(?P<set>[A-Za-z0-9]{2,6})(?::(?P<num>[A-Za-z0-9★†\-]{1,10}))?$")
_LEADING_SET_RE = re.compile(r"^\[(?P<set>[A-Za-z0-9]{2,6})\]\s+")
_SPLIT_RE = re.compile(r"\s*/{1,2}\s*")
_HASH_COMMENT_RE = re.compile(r"\s#(?:\s|$)")  # ` # note`; Moxfield tags (`#Ramp`) have no space after `#`
_SLASH_SEPARATOR_RE = re.compile(r"\s//")  # ` //`: a split-card separator or the start of a comment
_INLINE_SECTION_RE = re.compile(r"^(?P<word>[A-Za-z][A-Za-z ]{1,20}?)\s*:\s*(?P<rest>\S.*)$")
_INLINE_SECTION_WORDS: dict[str, Section] = {
    "commander": Section.COMMANDER, "commanders": Section.COMMANDER, "command zone": Section.COMMANDER,
    "partner": Section.COMMANDER, "background": Section.COMMANDER,
    "sideboard": Section.SIDEBOARD, "maybeboard": Section.MAYBEBOARD, "maybe": Section.MAYBEBOARD,
    "considering": Section.MAYBEBOARD, "companion": Section.COMPANION, "companions": Section.COMPANION,
}
_SPACES_RE = re.compile(r"\s+")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"',
                          "\u2013": "-", "\u2014": "-", "\u00a0": " "})

_COMMANDER_MARKS = {"cmdr", "commander"}
_FOIL_MARKS = {"f", "foil", "e", "etched", "f-etch", "a", "s"}


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One card line of a decklist."""

    name: str
    count: int
    line: int  # 1-based line number in the input
    section: Section = Section.MAIN
    set_code: str | None = None
    collector_number: str | None = None
    foil: bool = False
    commander_marker: bool = False  # *CMDR*, Archidekt [Commander], or the Commander section
    # For `A // B` where `// B` may be a comment: the name without it (`A`); None when the line is clear.
    alternative: str | None = None

    @property
    def in_deck(self) -> bool:
        return self.section.in_deck


@dataclass(frozen=True, slots=True)
class CardLine:
    """One card line as written: what `parse_card_line` returns and what `parse` builds entries from.

    - `section`: the section a `Commander:` / `Sideboard:` / `SB:` prefix puts this one line in (None: none).
    - `excluded`: an Archidekt `{noDeck}` / `[Maybeboard]` / `[Sideboard]` category keeps it out of the deck.
    - `alternative`: for `A // B` where `// B` may be a comment, the name without it (see `DeckEntry`).
    """

    name: str
    count: int = 1
    set_code: str | None = None
    collector_number: str | None = None
    foil: bool = False
    commander_marker: bool = False
    section: Section | None = None
    excluded: bool = False
    alternative: str | None = None


@dataclass(frozen=True, slots=True)
class ParseProblem:
    line: int
    text: str
    reason: str


@dataclass(slots=True)
class ParsedDeck:
    entries: list[DeckEntry] = field(default_factory=list)  # every card line, any section
    problems: list[ParseProblem] = field(default_factory=list)
    deck_name: str | None = None
    lines_read: int = 0
    # The input was one line holding several entries; `line` numbers count the entries in the order pasted.
    one_line: bool = False

    @property
    def deck_entries(self) -> list[DeckEntry]:
        """Entries that are part of the deck (Commander and main sections)."""
        return [e for e in self.entries if e.in_deck]

    @property
    def commander_entries(self) -> list[DeckEntry]:
        return [e for e in self.entries if e.in_deck and e.commander_marker]

    @property
    def excluded_entries(self) -> list[DeckEntry]:
        return [e for e in self.entries if not e.in_deck]

    @property
    def card_count(self) -> int:
        return sum(e.count for e in self.deck_entries)

    def names(self) -> list[str]:
        """Distinct card names in the deck, in order of first appearance."""
        return list(dict.fromkeys(e.name for e in self.deck_entries))


class DeckInputError(ValueError):
    """The input is not a decklist we can check (empty, too long, not text)."""


def decode(data: bytes) -> str:
    """Decode an uploaded decklist; raise DeckInputError for binary or oversized input."""
    if len(data) > MAX_BYTES:
        raise DeckInputError(f"the decklist is {len(data):,} bytes; the limit is {MAX_BYTES:,}")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a byte-order mark (Windows Notepad)
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DeckInputError("the file is not a text decklist") from exc
    if b"\x00" in data:
        raise DeckInputError("the file is not a text decklist")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise DeckInputError("the file is not a text decklist") from exc


def normalize_name(name: str) -> str:
    """Tidy a typed card name: curly quotes, repeated spaces, split names as `A // B`."""
    name = unicodedata.normalize("NFC", name).translate(_QUOTES)
    name = _SPACES_RE.sub(" ", name).strip()
    if "/" in name:
        parts = [p for p in _SPLIT_RE.split(name) if p]
        name = " // ".join(parts)
    return name


def _header(text: str) -> tuple[str, Section | None] | None:
    """('section', Section) for a section header, ('group', None) for a type group header, else None."""
    m = _HEADER_RE.match(text)
    if not m:
        return None
    word = _SPACES_RE.sub(" ", m.group("word").strip().lower())
    if word in _SECTION_WORDS:
        return ("section", _SECTION_WORDS[word])
    if word in _GROUP_WORDS:
        # A bare "Other" or "Land" could be a card name only with a count in front; headers have none.
        return ("group", None)
    return None


def _strip_suffixes(rest: str) -> tuple[str, dict[str, object]]:
    """Peel set codes, collector numbers, markers and tags off the end of a card line."""
    info: dict[str, object] = {}
    changed = True
    while changed and rest:
        changed = False
        m = _STAR_MARK_RE.search(rest)
        if m:
            mark = m.group("mark").strip().lower()
            if mark in _COMMANDER_MARKS:
                info["commander"] = True
            elif mark in _FOIL_MARKS or mark.startswith("f"):
                info["foil"] = True
            rest = rest[: m.start()]
            changed = True
            continue
        m = _CARET_TAG_RE.search(rest)
        if m:
            rest = rest[: m.start()]
            changed = True
            continue
        m = _HASHTAG_RE.search(rest)
        if m:
            rest = rest[: m.start()]
            changed = True
            continue
        m = _BRACKET_RE.search(rest)
        if m:
            inner = m.group("inner").strip()
            set_match = _SET_BRACKET_RE.match(inner)
            looks_like_set = bool(set_match) and (inner.isupper() or any(ch.isdigit() for ch in inner))
            if set_match and looks_like_set and "set" not in info:
                info["set"] = set_match.group("set").lower()
                if set_match.group("num"):
                    info["num"] = set_match.group("num")
            else:
                low = inner.lower()
                categories = [c.strip() for c in re.split(r"[,{}]", low) if c.strip()]
                if "commander" in categories:
                    info["commander"] = True
                if "nodeck" in categories or "maybeboard" in categories or "sideboard" in categories:
                    info["excluded"] = True
            rest = rest[: m.start()]
            changed = True
            continue
        m = _SET_PAREN_RE.search(rest)
        if m and m.start() > 0:
            info["set"] = m.group("set").lower()
            if m.group("num"):
                info["num"] = m.group("num")
            rest = rest[: m.start()]
            changed = True
    return rest.strip(), info


def _first_alpha(text: str) -> str:
    return next((ch for ch in text if ch.isalpha()), "")


# Lower-case words that occur inside card names (`Fires of Undeath`, `Azusa, Lost but Seeking`, `Chicken à la
# King`); any other lower-case word marks prose, so ` // Burn and finishers` is a comment, not a split card's
# face. tests/test_deck_parser.py checks every face name of the shared data set against this rule.
NAME_SMALL_WORDS = frozenset({
    "a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "of", "on", "or", "the", "this", "to",
    "upon", "with", "à", "de", "del", "la", "le", "van",
})
_NAME_PARTICLE_RE = re.compile(r"[a-z]{1,3}-[A-Z]")  # `Augur il-Vec`, `Lancers en-Kor`


def _prose_word(text: str) -> bool:
    """A lower-case word no card name uses (`finishers`, `rocks`): the text is a note, not a card name."""
    for word in text.split():
        word = word.strip(",.;:!?\"'()")
        if word[:1].isalpha() and word[:1].islower() and word not in NAME_SMALL_WORDS \
                and not _NAME_PARTICLE_RE.match(word):
            return True
    return False


def _slash_comment(rest: str) -> tuple[str, str | None]:
    """Cut a trailing ` // comment` off a card line; (rest, alternative).

    Each ` //` is read left to right. It starts a comment when what follows can't be a split card's next
    face: nothing but punctuation first (`// -- ramp`), a lower-case word after a capitalised name
    (`Sol Ring // ramp`, `Sol Ring // Ramp and rocks`: card names capitalise every word but `of`, `the`, ...),
    a section or type word (`Sol Ring // Ramp`: no card face is named like a header), or the left part already
    ends in a set code, marker or tag (names come first: `Sol Ring (C21) 263 // Staple`). Otherwise it is a split-card separator, and when the line's last such
    separator could also be a comment (`Sol Ring // Ramp`), the left part is returned as the alternative.
    """
    alternative: str | None = None
    for m in _SLASH_SEPARATOR_RE.finditer(rest):
        left = rest[: m.start()].strip()
        right = rest[m.end():].lstrip("/").strip()
        if not left or not right:
            continue  # `// Ice` or `Fire //`: half a split name, reported by _read_card
        first = right[0]
        capitalised = _first_alpha(left).isupper()
        face = _strip_suffixes(right)[0].lower()
        comment = (
            not (first.isalnum() or first in "\"'")
            or (first.isalpha() and first.islower() and capitalised)
            or _strip_suffixes(left)[0] != left
            or (capitalised and _prose_word(right))
            or face in _SECTION_WORDS or face in _GROUP_WORDS  # no card face is named `Ramp` or `Lands`
        )
        if comment:
            return left, alternative
        alternative = left
    return rest, alternative


def _read_card(text: str) -> tuple[int, str, dict[str, object]] | str:
    """(count, name, info) for a card line, or the reason it can't be read."""
    info: dict[str, object] = {}
    hash_comment = _HASH_COMMENT_RE.search(text)
    if hash_comment:
        text = text[: hash_comment.start()].strip()
        if not text:
            return "no card name"
    count = 1
    m = _COUNT_RE.match(text)
    if m and m.group("x") and m.group("rest").startswith(("(", "[", "*")):
        count = int(m.group("count"))  # `1 X (UST) 1`: the card named X, not `1x` with no name
        rest = f"{m.group('x').strip()} {m.group('rest')}"
    elif m and (m.group("x") or int(m.group("count")) <= MAX_COUNT):
        count = int(m.group("count"))
        rest = m.group("rest").strip()
    elif m:
        rest = text  # no deck holds 1000 copies: the number starts the name (`1996 World Champion`)
    elif re.fullmatch(r"\d+\s*[xX×]?", text):
        return "a count with no card name"
    else:
        rest = text
        m2 = _TRAILING_COUNT_RE.match(rest)
        if m2:
            count = int(m2.group("count"))
            rest = m2.group("rest")
    m = _LEADING_SET_RE.match(rest)
    if m:
        info["set"] = m.group("set").lower()
        rest = rest[m.end():]
    rest, alternative = _slash_comment(rest)
    rest, more = _strip_suffixes(rest)
    info.update(more)
    name = normalize_name(rest)
    if alternative is not None:
        alt_name = normalize_name(_strip_suffixes(alternative)[0])
        if alt_name and alt_name != name and any(ch.isalpha() for ch in alt_name):
            info["alternative"] = alt_name
    if not name:
        return "no card name"
    if count < 1:
        return f"a count of {count}"
    if count > MAX_COUNT:
        return f"a count of {count} is more than any deck holds"
    if len(name) > MAX_NAME_LENGTH:
        return f"a card name longer than {MAX_NAME_LENGTH} characters"
    if not any(ch.isalpha() for ch in name) and set(name) != {"_"}:  # the Un-card `_____` has no letter
        return "no card name"
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") for ch in name):
        return "control characters in the card name"
    if name.startswith("//") or name.endswith("//"):
        return "half a split-card name"
    return count, name, info


# -- one-line pastes -----------------------------------------------------------------------------------------

# Section words that end some card's name (`Siege-Gang Commander`, `Raptor Companion`, `Sworn Companions`,
# `Side to Side`, `Enhancement Stickers`): after a card name without a set code they belong to the name
# unless a colon or a `(N)` count marks them as a header. tests/test_deck_parser.py checks this set against
# every card name of the shared data set.
NAME_ENDING_SECTION_WORDS = frozenset({"commander", "companion", "companions", "side", "stickers"})

_TOKEN_RE = re.compile(
    r"\[[^\[\]]{0,60}\]"  # [C21], [Commander{top}], [Card Draw]
    r"|\^[^\^]{0,60}\^"  # ^Have,#37d67a^
    r"|\*[A-Za-z][A-Za-z\- ]{0,15}\*"  # *F*, *CMDR*
    r"|\([^()]{0,60}\)"  # (C21), (30), (Big Furry Monster)
    r"|\S+"
)
_COUNT_TOKEN_RE = re.compile(r"\d{1,3}[xX×]?")
_SET_TOKEN_RE = re.compile(r"\(" + _SET_CODE + r"\)")
_SET_BRACKET_TOKEN_RE = re.compile(r"\[(?=[^\]]*[A-Za-z])[A-Za-z0-9]{2,6}(?::[A-Za-z0-9★†\-]{1,10})?\]")
_DIGITS_PAREN_RE = re.compile(r"\(\s*\d+\s*\)")
_COLLECTOR_RE = re.compile(r"(?=.*[0-9★†])[A-Za-z0-9★†\-]{1,10}")
_COMMENT_MARK_RE = re.compile(r"(?://|#)+")
_PASTE_SEPARATOR_RE = re.compile(r"\s*[;|]\s*")


class _Phase(StrEnum):
    START = "start"  # a new entry begins with the next token
    COUNT = "count"  # after `1` / `1x`: the name comes next
    PREFIX = "prefix"  # after `SB:` / `Partner:`: a count or a name comes next
    NAME = "name"  # inside a card name
    SUFFIX = "suffix"  # after a set code, marker, tag or category: the entry is finished
    COMMENT = "comment"  # inside a `//` or `#` comment
    ABOUT = "about"  # inside Arena's `About` metadata (`Name My deck`)


@dataclass(frozen=True, slots=True)
class _HeaderSpan:
    end: int  # index of the first token after the header
    phrase: str  # lower case, e.g. "sideboard", "main deck", "creatures"
    colon: bool
    counted: bool  # a `(N)` count follows the word
    capitalised: bool
    marked: bool  # written as a comment: `// Lands`, `# Sideboard`

    @property
    def is_section(self) -> bool:
        return self.phrase in _SECTION_WORDS


def _is_comment_mark(token: str) -> bool:
    return token.startswith("//") or bool(_COMMENT_MARK_RE.fullmatch(token))


def _is_marker(token: str) -> bool:
    """A token that finishes a card entry: `*F*`, `[...]`, `^...^`, `#tag`."""
    return (token.startswith("*") and token.endswith("*") and len(token) > 2) \
        or (token.startswith("[") and token.endswith("]")) \
        or (token.startswith("^") and token.endswith("^") and len(token) > 1) \
        or (token.startswith("#") and not _COMMENT_MARK_RE.fullmatch(token))


def _starts_name(token: str) -> bool:
    """Can a card name begin with this token? (`[C21]` too: `1 [C21] Sol Ring`)"""
    if _SET_BRACKET_TOKEN_RE.fullmatch(token):
        return True
    if _is_marker(token) or _is_comment_mark(token) or token.startswith("("):
        return False
    return token.upper() != "SB:" and token != ":"


class _Splitter:
    """Cuts the tokens of one pasted line into entries; see the module docstring for the rules."""

    def __init__(self, tokens: list[str]) -> None:
        self.t = tokens
        self.n = len(tokens)
        self.numbers_follow_sets = self._numbers_follow_sets()

    def _numbers_follow_sets(self) -> bool:
        """Do this paste's `(SET)` codes carry collector numbers? Decides `(SET) 12 Name` (12 = number)."""
        with_number = without = 0
        for i, tok in enumerate(self.t[:-1]):
            if not _SET_TOKEN_RE.fullmatch(tok):
                continue
            nxt = self.t[i + 1]
            after = self.t[i + 2] if i + 2 < self.n else None
            if nxt.isdigit():
                if after is None or not _starts_name(after) or _COUNT_TOKEN_RE.fullmatch(after):
                    with_number += 1
            elif _COLLECTOR_RE.fullmatch(nxt) and not _COUNT_TOKEN_RE.fullmatch(nxt):
                with_number += 1
            else:
                without += 1
        return with_number > 0 or without == 0

    def header(self, i: int) -> _HeaderSpan | None:
        """A section or type header starting at token i (`Deck`, `SIDEBOARD:`, `// Lands (30)`, `Main Deck`)."""
        j = i
        marked = bool(_COMMENT_MARK_RE.fullmatch(self.t[j]))
        if marked:
            j += 1
        for width in (2, 1):
            if j + width > self.n:
                continue
            words = self.t[j:j + width]
            if any(not w[:1].isalpha() for w in words) or any(w.endswith(":") for w in words[:-1]):
                continue
            colon = words[-1].endswith(":")
            phrase = " ".join(words).rstrip(":").strip().lower()
            if phrase not in _SECTION_WORDS and phrase not in _GROUP_WORDS:
                continue
            k = j + width
            counted = False
            if not colon and k < self.n and _DIGITS_PAREN_RE.fullmatch(self.t[k]):
                counted, k = True, k + 1
            if not colon and k < self.n and self.t[k] == ":":
                colon, k = True, k + 1
            return _HeaderSpan(k, phrase, colon, counted, words[0][0].isupper(), marked)
        return None

    def _followed_by_entry(self, span: _HeaderSpan) -> bool:
        """What follows a header must start an entry (or be the end): a count, `SB:`, a comment, a header."""
        k = span.end
        if k >= self.n:
            return True
        tok = self.t[k]
        if self.count_starts_entry(k) or tok.upper() == "SB:" or _is_comment_mark(tok):
            return True
        if span.phrase == "about" and tok.lower() == "name":
            return True
        nested = self.header(k)
        return nested is not None and (nested.end >= self.n or self.count_starts_entry(nested.end))

    def header_here(self, i: int, phase: _Phase, after_slash: bool) -> _HeaderSpan | None:
        if phase in (_Phase.COUNT, _Phase.PREFIX) or after_slash:
            return None
        span = self.header(i)
        if span is None or not self._followed_by_entry(span):
            return None
        if phase in (_Phase.START, _Phase.SUFFIX):
            return span
        if phase is _Phase.NAME:
            if span.colon or span.counted or span.marked:
                return span  # no card name ends in a colon or `(N)`; no face is named `Lands` (`A // Lands`)
            if span.is_section and span.capitalised and span.phrase not in NAME_ENDING_SECTION_WORDS:
                return span
            return None
        # inside a comment or About metadata: only capitalised section words
        return span if span.is_section and span.capitalised else None

    def count_starts_entry(self, i: int) -> bool:
        """Token i is a count followed by a card name (`1 Sol`, `1x Sol`, `1 x Sol`, `1 1996 World ...`)."""
        if i >= self.n or not _COUNT_TOKEN_RE.fullmatch(self.t[i]):
            return False
        if i + 1 >= self.n:
            return True  # a lone count at the end: its own (unreadable) entry
        return _starts_name(self.t[i + 1])

    def note_follows(self, start: int, i: int) -> bool:
        """The text after the `//` at token i (up to the next `//`, set code, marker or entry) is a note rather
        than a split card's next face, by the rules of `_slash_comment`; the entry began at token `start`."""
        words = [self.t[i][2:]] if len(self.t[i]) > 2 else []
        j = i + 1
        while j < self.n and not self.count_starts_entry(j) and not _is_comment_mark(self.t[j]) \
                and not _is_marker(self.t[j]) and not self.t[j].startswith("("):
            words.append(self.t[j])
            j += 1
        text = " ".join(words).strip()
        if not text:
            return False
        name = self.t[start:i]
        while name and (_COUNT_TOKEN_RE.fullmatch(name[0]) or name[0] in ("x", "X", "×", ":")
                        or name[0].endswith(":")):
            name = name[1:]  # the count and `SB:` / `Commander:` prefixes are not the name
        capitalised = _first_alpha(" ".join(name)).isupper()
        return not (text[0].isalnum() or text[0] in "\"'") \
            or (capitalised and (text[0].islower() or _prose_word(text)))

    def inline_prefix(self, i: int) -> int | None:
        """`Commander: Name` / `Partner: Name`: the index after the prefix, or None."""
        tok = self.t[i]
        if tok.endswith(":") and tok[:-1].lower() in _INLINE_SECTION_WORDS:
            k = i + 1
        elif tok.lower() in _INLINE_SECTION_WORDS and i + 1 < self.n and self.t[i + 1] == ":":
            k = i + 2
        else:
            return None
        return k if k < self.n and (_starts_name(self.t[k]) or self.count_starts_entry(k)) else None

    def split(self) -> list[tuple[int, int]]:
        """Token ranges [start, end) of the entries, in order."""
        t, n = self.t, self.n
        starts: list[int] = [0]
        phase = _Phase.START
        set_slot = False  # the token right after a `(SET)` code: maybe its collector number
        after_slash = False  # the token right after `//` inside a name: a split card's next face

        def begin(index: int) -> None:
            if index < n and index != starts[-1]:
                starts.append(index)

        i = 0
        while i < n:
            tok = t[i]
            in_set_slot, set_slot = set_slot, False
            slash, after_slash = after_slash, False
            if tok.upper() == "SB:" and phase not in (_Phase.COUNT, _Phase.PREFIX):
                begin(i)
                phase, i = _Phase.PREFIX, i + 1
                continue
            span = self.header_here(i, phase, slash)
            if span is not None:
                begin(i)
                begin(span.end)
                phase = _Phase.ABOUT if span.phrase == "about" else _Phase.START
                if span.phrase == "about" and span.end < n and t[span.end].lower() == "name":
                    i = span.end + 1
                else:
                    i = span.end
                continue
            if phase not in (_Phase.COUNT, _Phase.PREFIX) and not slash \
                    and (phase is not _Phase.COMMENT and phase is not _Phase.ABOUT or tok[:1].isupper()):
                after = self.inline_prefix(i)
                if after is not None:
                    begin(i)
                    phase, i = _Phase.PREFIX, after
                    continue
            if _COUNT_TOKEN_RE.fullmatch(tok) and phase not in (_Phase.COUNT, _Phase.PREFIX) and not slash:
                if in_set_slot and tok.isdigit() and (self.numbers_follow_sets or not self.count_starts_entry(i)):
                    i += 1  # the collector number of the set code before it
                    phase = _Phase.SUFFIX
                    continue
                if self.count_starts_entry(i):
                    begin(i)
                    phase, i = _Phase.COUNT, i + 1
                    continue
            if phase is _Phase.START:
                phase = _Phase.COMMENT if _is_comment_mark(tok) or tok.startswith("#") else _Phase.NAME
            elif phase is _Phase.COUNT:
                if not (tok in ("x", "X", "×") and i + 1 < n and _starts_name(t[i + 1])
                        and not self.count_starts_entry(i + 1)):
                    phase = _Phase.NAME  # `1 x Sol Ring` keeps counting; in `1 X 1 Sol Ring`, X is the card
            elif phase is _Phase.PREFIX:
                phase = _Phase.COUNT if _COUNT_TOKEN_RE.fullmatch(tok) else _Phase.NAME
            elif phase is _Phase.NAME:
                if tok.startswith("//") and self.note_follows(starts[-1], i):
                    begin(i)  # `1 Fiery Confluence // Burn and finishers 1 Comet Storm`
                    phase = _Phase.COMMENT
                elif tok.startswith("//"):
                    after_slash = True  # `Fire // Ice`, or `Sol Ring // Staple`: the entry's reader decides
                elif _COMMENT_MARK_RE.fullmatch(tok):
                    phase = _Phase.COMMENT  # `1 Sol Ring # staple`: the rest of this entry is a comment
                elif _SET_TOKEN_RE.fullmatch(tok):
                    phase, set_slot = _Phase.SUFFIX, True
                elif _is_marker(tok):
                    phase = _Phase.SUFFIX
            elif phase is _Phase.SUFFIX:
                if in_set_slot and _COLLECTOR_RE.fullmatch(tok):
                    pass  # `(PLST) C21-263`, `(PDOM) 217p`
                elif _is_comment_mark(tok):
                    begin(i)
                    phase = _Phase.COMMENT
                elif _SET_TOKEN_RE.fullmatch(tok):
                    set_slot = True
                elif not _is_marker(tok):
                    begin(i)  # a name after a finished entry: a new entry without a count
                    phase = _Phase.NAME
            elif phase in (_Phase.COMMENT, _Phase.ABOUT):
                if _is_comment_mark(tok):
                    begin(i)
                    phase = _Phase.COMMENT
            i += 1
        return [(start, end) for start, end in zip(starts, starts[1:] + [n], strict=True)]


def split_entries(line: str) -> list[str]:
    """Cut one pasted line (a whole decklist whose newlines became spaces) into entries, in order.

    Each returned string reads like one line of a multi-line list: a card line, a section header, a comment
    or Arena `About` metadata. A line holding one entry comes back as it is.
    """
    out: list[str] = []
    for chunk in _PASTE_SEPARATOR_RE.split(line.strip()):
        matches = list(_TOKEN_RE.finditer(chunk))
        if not matches:
            continue
        ranges = _Splitter([m.group() for m in matches]).split()
        out.extend(chunk[matches[start].start():matches[end - 1].end()] for start, end in ranges)
    return out


def split_pasted(text: str) -> str:
    """Deprecated: `parse` reads one-line pastes itself. One entry per line (`split_entries`) for a one-line
    text; multi-line text is returned unchanged."""
    if len([raw for raw in text.splitlines() if raw.strip()]) != 1:
        return text
    return "\n".join(split_entries(text.strip()))


# -- reading one card line --------------------------------------------------------------------------------------

def _section_word(word: str) -> str:
    return _SPACES_RE.sub(" ", word.strip().lower())


def _read_entry(text_line: str) -> CardLine | str:
    """A card line (quotes already normalised, stripped, not a header or comment): a CardLine or the reason
    it can't be read. `SB: ...` and `Commander: ...` prefixes put the line in their section."""
    section: Section | None = None
    sb = _SB_RE.match(text_line)
    inline = _INLINE_SECTION_RE.match(text_line)
    if sb:
        section = Section.SIDEBOARD
        text_line = text_line[sb.end():]
    elif inline and _section_word(inline.group("word")) in _INLINE_SECTION_WORDS:
        section = _INLINE_SECTION_WORDS[_section_word(inline.group("word"))]
        text_line = inline.group("rest")
    result = _read_card(text_line)
    if isinstance(result, str):
        return result
    count, name, info = result
    return CardLine(
        name=name,
        count=count,
        set_code=info.get("set"),  # type: ignore[arg-type]
        collector_number=info.get("num"),  # type: ignore[arg-type]
        foil=bool(info.get("foil")),
        commander_marker=bool(info.get("commander")) or section is Section.COMMANDER,
        section=section,
        excluded=bool(info.get("excluded")),
        alternative=info.get("alternative"),  # type: ignore[arg-type]
    )


def parse_card_line(text: str) -> CardLine | None:
    """Read one card as players paste it (`Sol Ring (C21) 263`, `1x Sol Ring *F*`, `1 Sol Ring [C21]`,
    `Commander: Kumano`): name, count, set code, collector number, foil and commander markers.

    The same code reads every line of `parse`. None when the text is not a card line: blank, a section
    header, a comment, or unreadable (a count with no name, control characters, ...).
    """
    if not isinstance(text, str):
        return None
    line = text.lstrip("\ufeff").translate(_QUOTES).strip()
    if not line or _header(line) is not None or line.startswith(("//", "#")):
        return None
    result = _read_entry(line)
    return result if isinstance(result, CardLine) else None


# -- the whole list --------------------------------------------------------------------------------------------

def parse(text: str, *, max_lines: int = MAX_LINES) -> ParsedDeck:
    """Parse a decklist, multi-line or pasted on one line. Raises DeckInputError when it is too long or holds
    no card at all."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise DeckInputError(f"the decklist is longer than {MAX_BYTES:,} bytes")
    text = text.lstrip("\ufeff")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    records = [(number, raw) for number, raw in enumerate(lines, start=1) if raw.strip()]
    one_line = False
    if len(records) == 1:
        pieces = split_entries(records[0][1].translate(_QUOTES))
        if len(pieces) > 1:
            one_line = True
            records = list(enumerate(pieces, start=1))
    if len(records) > max_lines:
        what = "entries" if one_line else "non-blank lines"
        raise DeckInputError(f"the decklist has {len(records)} {what}; the limit is {max_lines}")
    deck = ParsedDeck(lines_read=len(records) if one_line else len(lines), one_line=one_line)
    section = Section.MAIN
    for number, raw in records:
        text_line = raw.translate(_QUOTES).strip()
        header = _header(text_line)
        if header is not None:
            kind, new_section = header
            if kind == "section" and new_section is not None:
                section = new_section
            continue
        if text_line.startswith(("//", "#")):
            continue  # comment line
        if section is Section.ABOUT:
            key, _, value = text_line.partition(" ")
            if key.lower() == "name" and value.strip():
                deck.deck_name = value.strip()
            continue  # deck metadata, not cards
        card = _read_entry(text_line)
        if isinstance(card, str):
            deck.problems.append(ParseProblem(number, raw.strip(), card))
            continue
        line_section = Section.MAYBEBOARD if card.excluded else (card.section or section)
        deck.entries.append(DeckEntry(
            name=card.name,
            count=card.count,
            line=number,
            section=line_section,
            set_code=card.set_code,
            collector_number=card.collector_number,
            foil=card.foil,
            commander_marker=card.commander_marker or line_section is Section.COMMANDER,
            alternative=card.alternative,
        ))
    if not deck.entries and not deck.problems:
        raise DeckInputError("the decklist holds no cards")
    return deck
