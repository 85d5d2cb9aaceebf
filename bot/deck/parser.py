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
  face of a split card (it starts with a lower-case letter after a capitalised name, or with punctuation, or
  the left part already ends in a set code, marker or tag). When the right part could be either
  (`1 Sol Ring // Ramp`), the entry keeps the split reading and records the left part in `alternative`; the
  runner uses it only when the split name is not a card (see `runner.check_decklist`);
- `Commander: Name` (also `Commanders:`, `Partner:`, `Background:`, `Companion:`, `Sideboard:`, ...) puts one
  card in that section without changing the section of the lines after it;
- split names written `Fire/Ice`, `Fire / Ice` or `Fire // Ice` (all become `Fire // Ice`).

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
_COUNT_RE = re.compile(r"^(?P<count>\d+)(?:\s*[xX×])?\s+(?P<rest>\S.*)$")
_TRAILING_COUNT_RE = re.compile(r"^(?P<rest>.*\S)\s+[xX×](?P<count>\d+)$")
_SB_RE = re.compile(r"^SB:\s*", re.IGNORECASE)
_STAR_MARK_RE = re.compile(r"\s*\*(?P<mark>[A-Za-z][A-Za-z\- ]{0,15})\*\s*$")
_HASHTAG_RE = re.compile(r"\s+#!?[^\s#]+\s*$")
_CARET_TAG_RE = re.compile(r"\s*\^[^^]*\^\s*$")
_SET_PAREN_RE = re.compile(r"\s*\((?P<set>[A-Za-z0-9]{2,6})\)(?:\s+(?P<num>[A-Za-z0-9★†\-]{1,10}))?\s*$")
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


def _slash_comment(rest: str) -> tuple[str, str | None]:
    """Cut a trailing ` // comment` off a card line; (rest, alternative).

    Each ` //` is read left to right. It starts a comment when what follows can't be a split card's next
    face: nothing but punctuation first (`// -- ramp`), a lower-case word after a capitalised name
    (`Sol Ring // ramp`), or the left part already ends in a set code, marker or tag (names come first:
    `Sol Ring (C21) 263 // Ramp`). Otherwise it is a split-card separator, and when the line's last such
    separator could also be a comment (`Sol Ring // Ramp`), the left part is returned as the alternative.
    """
    alternative: str | None = None
    for m in _SLASH_SEPARATOR_RE.finditer(rest):
        left = rest[: m.start()].strip()
        right = rest[m.end():].lstrip("/").strip()
        if not left or not right:
            continue  # `// Ice` or `Fire //`: half a split name, reported by _read_card
        first = right[0]
        comment = (
            not (first.isalnum() or first in "\"'")
            or (first.isalpha() and first.islower() and _first_alpha(left).isupper())
            or _strip_suffixes(left)[0] != left
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
    if m:
        count = int(m.group("count"))
        rest = m.group("rest").strip()
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
    if not any(ch.isalpha() for ch in name):
        return "no card name"
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") for ch in name):
        return "control characters in the card name"
    if name.startswith("//") or name.endswith("//"):
        return "half a split-card name"
    return count, name, info


def split_pasted(text: str) -> str:
    """Turn a one-line paste (Discord text options lose newlines) back into one card per line.

    Splits on `;` and `|`, and before every `<count> ` / `<count>x ` that follows a card name (a number
    right after a `(SET)` code is its collector number and stays with its card).
    Multi-line text is returned unchanged.
    """
    if "\n" in text.strip() or "\r" in text.strip():
        return text
    pieces: list[str] = []
    for chunk in re.split(r"\s*[;|]\s*", text):
        # not right after "(SET)": there a number is the collector number, not the next card's count
        parts = re.split(r"(?<!\))\s+(?=\d+\s*[xX×]?\s+\D)", chunk.strip())
        merged: list[str] = []
        for part in parts:
            if merged and re.fullmatch(r"\d+\s*[xX×]?", merged[-1].strip()):
                merged[-1] = f"{merged[-1]} {part}"
            else:
                merged.append(part)
        pieces.extend(p for p in merged if p)
    return "\n".join(pieces)


def parse(text: str, *, max_lines: int = MAX_LINES) -> ParsedDeck:
    """Parse a decklist. Raises DeckInputError when it is too long or holds no card at all."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise DeckInputError(f"the decklist is longer than {MAX_BYTES:,} bytes")
    text = text.lstrip("\ufeff")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    non_blank = sum(1 for raw in lines if raw.strip())
    if non_blank > max_lines:
        raise DeckInputError(
            f"the decklist has {non_blank} non-blank lines; the limit is {max_lines}"
        )
    deck = ParsedDeck(lines_read=len(lines))
    section = Section.MAIN
    for number, raw in enumerate(lines, start=1):
        text_line = raw.translate(_QUOTES).strip()
        if not text_line:
            continue
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
        line_section = section
        sb = _SB_RE.match(text_line)
        inline = _INLINE_SECTION_RE.match(text_line)
        if sb:
            line_section = Section.SIDEBOARD
            text_line = text_line[sb.end():]
        elif inline and _SPACES_RE.sub(" ", inline.group("word").strip().lower()) in _INLINE_SECTION_WORDS:
            # `Commander: Kumano, Master Yamabushi`: this one card is in that section
            line_section = _INLINE_SECTION_WORDS[_SPACES_RE.sub(" ", inline.group("word").strip().lower())]
            text_line = inline.group("rest")
        result = _read_card(text_line)
        if isinstance(result, str):
            deck.problems.append(ParseProblem(number, raw.strip(), result))
            continue
        count, name, info = result
        if info.get("excluded"):
            line_section = Section.MAYBEBOARD
        deck.entries.append(DeckEntry(
            name=name,
            count=count,
            line=number,
            section=line_section,
            set_code=info.get("set"),  # type: ignore[arg-type]
            collector_number=info.get("num"),  # type: ignore[arg-type]
            foil=bool(info.get("foil")),
            commander_marker=bool(info.get("commander")) or line_section is Section.COMMANDER,
            alternative=info.get("alternative"),  # type: ignore[arg-type]
        ))
    if not deck.entries and not deck.problems:
        raise DeckInputError("the decklist holds no cards")
    return deck
