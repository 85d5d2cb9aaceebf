"""What every text reader shares: one card line and the section headers around it. Pure. A leading number
no deck could hold (1000 or more) is part of the name (`1996 World Champion`); ` // ` starts a comment only
when it can't start a split card's next face (`slash_comment`). Every pattern reads player text in linear
time (docs/robustness.md): runs of spaces are one space before any pattern sees them, no two quantifiers of a
pattern can take the same characters, and the short end-anchored suffix patterns search the line's last
`_SUFFIX_WINDOW` characters only."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from bot.deck.entries import MAX_COUNT, MAX_NAME_LENGTH, DeckEntry, LineIssue, Section

SECTION_WORDS: dict[str, Section] = {
    **dict.fromkeys(("commander", "commanders", "command zone"), Section.COMMANDER),
    **dict.fromkeys(("deck", "main", "maindeck", "main deck", "mainboard"), Section.MAIN),
    **dict.fromkeys(("sideboard", "side board", "side"), Section.SIDEBOARD),
    **dict.fromkeys(("maybeboard", "maybe board", "maybe", "considering"), Section.MAYBEBOARD),
    **dict.fromkeys(("companion", "companions"), Section.COMPANION),
    **dict.fromkeys(("tokens", "attractions", "stickers"), Section.TOKENS),
    "about": Section.ABOUT,
}
# Words of `Commander: Name`-style prefixes that put one line in a section.
INLINE_SECTION_WORDS: dict[str, Section] = {
    **dict.fromkeys(("commander", "commanders", "command zone", "partner", "background"), Section.COMMANDER),
    **dict.fromkeys(("maybeboard", "maybe", "considering"), Section.MAYBEBOARD),
    **dict.fromkeys(("companion", "companions"), Section.COMPANION),
    "sideboard": Section.SIDEBOARD,
}
# Type group headers (Moxfield/TappedOut/Archidekt copies): skipped, section unchanged.
_TYPES = ("creature", "land", "instant", "artifact", "enchantment", "planeswalker", "battle")
GROUP_WORDS = {
    *(word + plural for word in (*_TYPES, "other", "nonland") for plural in ("", "s")),
    *("sorcery", "sorceries", "spells", "ramp", "removal", "card draw", "draw", "mana rocks"),
    *("tribal", "kindred", "legendary"),
}
HEADER_WORDS = {*SECTION_WORDS, *GROUP_WORDS}

# Each `\s*` follows something that is no space, so only one way to match a line exists: linear.
_HEADER_RE = re.compile(
    r"(?://|#)*+\s*+(?P<word>[A-Za-z]++(?: ++[A-Za-z]++)*+)\s*+(?:\(\s*+[0-9]++\s*+\)\s*+)?+(?::\s*+)?+"
    r"(?:[0-9]++\s*+)?+"
)
_COUNT_RE = re.compile(r"(?P<count>[0-9]++)(?P<x> ?[xX\u00d7])? (?P<rest>\S.*)")
_TRAILING_COUNT_RE = re.compile(r"(?P<rest>.*\S)(?: [xX\u00d7]| ?: ?)(?P<count>[0-9]++)")
_COUNT_ONLY_RE = re.compile(r"[0-9]++ ?[xX\u00d7]?")
SB_RE = re.compile(r"^SB:\s*", re.IGNORECASE)
# The suffix patterns (searched in the last `_SUFFIX_WINDOW` characters; a match starts at its mark).
_STAR_MARK_RE = re.compile(r"\*(?P<mark>[A-Za-z][A-Za-z\- ]{0,15})\*$")
_TAG_RE = re.compile(r"\^[^^]{0,60}\^$|\s#!?[^\s#]{1,60}$")  # `^tag^`, `#tag`: organisation, not the card
# A set code has a letter and one case (`(C21)`, `(c21)`), so `Hazmat Suit (Used)` and `Bio (1999)` keep theirs.
SET_CODE = r"(?=[A-Za-z0-9]*[A-Za-z])(?:[A-Z0-9]{2,6}|[a-z0-9]{2,6})"
COLLECTOR = r"[A-Za-z0-9★†\-]{1,10}"  # a collector number: `263`, `217p`, `C21-263`, `1★`
_SET_PAREN_RE = re.compile(r"\((?P<set>" + SET_CODE + r")\)(?:\s(?P<num>" + COLLECTOR + r"))?$")
_BRACKET_RE = re.compile(r"\[(?P<inner>[^\[\]]{1,60})\]$")
_SUFFIX_WINDOW = 80  # longer than any suffix pattern's match
MAX_FACES = 5  # `Who // What // When // Where // Why`: a line's first ` //`s that may separate faces
_SET_NUMBER = r"(?P<set>[A-Za-z0-9]{2,6})(?::(?P<num>" + COLLECTOR + r"))?"  # `C21`, `C21:263`
_SET_BRACKET_RE = re.compile("^" + _SET_NUMBER + "$")
_LEADING_SET_RE = re.compile(r"^\[" + _SET_NUMBER + r"\]\s+")  # XMage
_SPLIT_RE = re.compile(r" ?/{1,2} ?")  # in a name whose spaces are single
_HASH_COMMENT_RE = re.compile(r"\s#(?:\s|$)")  # ` # note`; Moxfield tags (`#Ramp`) have no space after `#`
_SLASH_SEPARATOR_RE = re.compile(r"\s//")  # ` //`: a split-card separator or the start of a comment
_INLINE_SECTION_RE = re.compile(r"(?P<word>[A-Za-z][A-Za-z ]{1,20}?) ?: ?(?P<rest>\S.*)")
QUOTES = str.maketrans("\u2019\u2018\u02bc\u201c\u201d\u2013\u2014\u00a0", "'''\"\"-- ")
_FOIL_MARKS = {"f", "foil", "e", "etched", "f-etch", "a", "s"}
# Lower-case words inside card names (`Fires of Undeath`, `Chicken à la King`); any other lower-case word is
# prose, so ` // Burn and finishers` is a comment. tests/deck/test_deck_parser.py checks every face name.
_NAME_WORD_RE = re.compile(
    r"a|an|and|as|at|but|by|for|from|in|into|of|on|or|the|this|to|upon|with|à|de|del|la|le|van"
    r"|[a-z]{1,3}-[A-Z].*"  # `Augur il-Vec`, `Lancers en-Kor`
)


def one_spaced(text: str) -> str:
    """The text with each run of white space one space, and none at either end: what the patterns read."""
    return " ".join(text.split())


def read_count(digits: str) -> int:
    """The value of a count's ASCII digits; MAX_COUNT + 1 for any larger one (never a 4,300-digit `int`)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(MAX_COUNT)) else MAX_COUNT + 1


def normalize_name(name: str) -> str:
    """Tidy a typed card name: curly quotes, repeated spaces, split names as `A // B`."""
    name = " ".join(unicodedata.normalize("NFC", name).translate(QUOTES).split())
    return " // ".join(p for p in _SPLIT_RE.split(name) if p) if "/" in name else name


def header(text: str) -> tuple[str, Section | None] | None:
    """('section', Section) for a section header, ('group', None) for a type group header, else None."""
    m = _HEADER_RE.fullmatch(one_spaced(text))
    word = " ".join(m.group("word").lower().split()) if m else ""
    if word in SECTION_WORDS:
        return ("section", SECTION_WORDS[word])
    # A bare "Other" or "Land" could be a card name only with a count in front; headers have none.
    return ("group", None) if word in GROUP_WORDS else None


def _star_mark(m: re.Match[str], info: dict[str, Any]) -> None:
    if (mark := m.group("mark").strip().lower()) in ("cmdr", "commander"):
        info["commander_marker"] = True
    elif mark in _FOIL_MARKS or mark.startswith("f"):
        info["foil"] = True


def _bracket(m: re.Match[str], info: dict[str, Any]) -> None:
    """`[C21]`, `[C21:263]` is a set code (once); anything else is an Archidekt category list."""
    inner = m.group("inner").strip()
    set_match = _SET_BRACKET_RE.match(inner)
    if set_match and (inner.isupper() or any(ch.isdigit() for ch in inner)) and "set_code" not in info:
        _set_code(set_match, info)
        return
    if "commander" in (categories := {c.strip() for c in re.split(r"[,{}]", inner.lower())}):
        info["commander_marker"] = True
    if categories & {"nodeck", "maybeboard", "sideboard"}:
        info["excluded"] = True


def _set_code(m: re.Match[str], info: dict[str, Any]) -> None:
    info["set_code"] = m.group("set").lower()
    if m.group("num"):
        info["collector_number"] = m.group("num")


_SUFFIXES = (
    (_STAR_MARK_RE, _star_mark),
    (_TAG_RE, lambda m, info: None),
    (_BRACKET_RE, _bracket),
    (_SET_PAREN_RE, _set_code),
)


def strip_suffixes(rest: str) -> tuple[str, dict[str, Any]]:
    """Peel set codes, numbers, marks and tags off a card line: (rest, `DeckEntry` fields and `excluded`)."""
    info: dict[str, Any] = {}
    rest = rest.strip()
    end, peeled = len(rest), True
    while peeled and end:
        peeled = False
        for pattern, take in _SUFFIXES:
            m = pattern.search(rest, max(0, end - _SUFFIX_WINDOW), end)
            if m and (m.start() > 0 or pattern is not _SET_PAREN_RE):
                take(m, info)
                end, peeled = m.start(), True
                while end and rest[end - 1].isspace():
                    end -= 1
                break
    return rest[:end], info


def prose_word(text: str) -> bool:
    """A lower-case word no card name uses (`finishers`, `rocks`): the text is a note, not a card name."""
    words = (w.strip(",.;:!?\"'()") for w in text.split())
    return any(w[:1].isalpha() and w[:1].islower() and not _NAME_WORD_RE.fullmatch(w) for w in words)


def looks_like_note(name: str, text: str) -> bool:
    """Text after ` // ` that can't start a split card's next face: punctuation first, or after a capitalised
    name a lower-case word or one no card name uses (card names capitalise every word but `of`, `the`, ...)."""
    capitalised = next((ch for ch in name if ch.isalpha()), "").isupper()
    first = text[0]
    return not (first.isalnum() or first in "\"'") or (capitalised and (first.islower() or prose_word(text)))


def slash_comment(rest: str) -> tuple[str, str | None]:
    """Cut a trailing ` // comment` off a card line; (rest, alternative). Each ` //`, left to right, starts a
    comment when what follows `looks_like_note`, is a section or type word (`// Ramp`), or the left part already
    ends in a set code, marker or tag; else it separates faces, and the left part is the alternative."""
    alternative: str | None = None
    for _, m in zip(range(MAX_FACES), _SLASH_SEPARATOR_RE.finditer(rest), strict=False):
        left = rest[: m.start()].strip()
        right = rest[m.end() :].lstrip("/").strip()
        if not left or not right:
            continue  # `// Ice` or `Fire //`: half a split name, reported as such
        face = strip_suffixes(right)[0].lower()
        if looks_like_note(left, right) or strip_suffixes(left)[0] != left or face in HEADER_WORDS:
            return left, alternative
        alternative = left
    return rest, alternative


def _split_count(text: str) -> tuple[int, str] | LineIssue:
    """The count (before or after the name; 1 when none) and the rest of a card line."""
    m = _COUNT_RE.fullmatch(text)
    count = read_count(m.group("count")) if m else 0
    if m and m.group("x") and m.group("rest").startswith(("(", "[", "*")):
        return count, f"{m.group('x').strip()} {m.group('rest')}"  # `1 X (UST) 1`: the card X
    if m and (m.group("x") or count <= MAX_COUNT):
        return count, m.group("rest").strip()
    if m:
        return 1, text  # no deck holds 1000 copies: the number starts the name (`1996 World Champion`)
    if _COUNT_ONLY_RE.fullmatch(text):
        return LineIssue.COUNT_ONLY
    first = text.partition(" ")[0].rstrip("xX\u00d7")
    if first and not first.isascii() and all(ch.isnumeric() for ch in first):
        return LineIssue.BAD_COUNT  # digits no count is written in: `² Sol Ring`, `①x Sol Ring`
    m = _TRAILING_COUNT_RE.fullmatch(text)
    return (read_count(m.group("count")), m.group("rest")) if m else (1, text)


def _name_issue(count: int, name: str) -> LineIssue | None:
    if not name or (not any(ch.isalpha() for ch in name) and set(name) != {"_"}):  # the Un-card `_____`
        return LineIssue.NO_NAME
    if count < 1:
        return LineIssue.ZERO_COUNT
    if count > MAX_COUNT:
        return LineIssue.COUNT_TOO_HIGH
    if len(name) > MAX_NAME_LENGTH:
        return LineIssue.NAME_TOO_LONG
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") for ch in name):
        return LineIssue.CONTROL_CHARACTERS
    if name.startswith("//") or name.endswith("//"):
        return LineIssue.HALF_SPLIT_NAME
    return None


def read_entry(text: str, section: Section = Section.MAIN) -> DeckEntry | LineIssue:
    """A card line (quotes normalised, not a header or comment) read in `section`, or why it can't be read."""
    text = one_spaced(text)
    sb, inline = SB_RE.match(text), _INLINE_SECTION_RE.fullmatch(text)
    prefix: Section | None = None
    if sb:
        prefix, text = Section.SIDEBOARD, text[sb.end() :]
    elif inline and (word := " ".join(inline.group("word").lower().split())) in INLINE_SECTION_WORDS:
        prefix, text = INLINE_SECTION_WORDS[word], inline.group("rest")
    if hash_comment := _HASH_COMMENT_RE.search(text):
        text = text[: hash_comment.start()].strip()
    counted = _split_count(text) if text else LineIssue.NO_NAME
    if isinstance(counted, LineIssue):
        return counted
    count, rest = counted
    info: dict[str, Any] = {}
    if m := _LEADING_SET_RE.match(rest):
        _set_code(m, info)
        rest = rest[m.end() :]
    rest, alternative = slash_comment(rest)
    rest, more = strip_suffixes(rest)
    info.update(more)
    name = normalize_name(rest)
    alt = normalize_name(strip_suffixes(alternative)[0]) if alternative is not None else None
    if issue := _name_issue(count, name):
        return issue
    where = Section.MAYBEBOARD if info.pop("excluded", False) else (prefix or section)
    marked = info.pop("commander_marker", False) or Section.COMMANDER in (prefix, where)
    alt = alt if alt and alt != name and any(ch.isalpha() for ch in alt) else None
    return DeckEntry(name, count, section=where, commander_marker=marked, alternative=alt, **info)


def card_from_fields(
    count: str | None,
    name: str,
    section: Section,
    *,
    set_code: str | None = None,
    number: str | None = None,
    foil: bool = False,
) -> DeckEntry | LineIssue:
    """A card from a deck file's fields (a CSV row, an XML element): the name as written, tidied."""
    count_text = (count or "1").strip()
    if not (count_text.isascii() and count_text.isdigit()):  # not `²`, `①`, `-1`, `1.5`
        return LineIssue.BAD_COUNT
    tidy = normalize_name(name)
    if issue := _name_issue(read_count(count_text), tidy):
        return issue
    return DeckEntry(
        tidy,
        read_count(count_text),
        section=section,
        set_code=(set_code or "").strip().lower() or None,
        collector_number=(number or "").strip() or None,
        foil=foil,
        commander_marker=section is Section.COMMANDER,
    )


def parse_card_line(text: str) -> DeckEntry | None:
    """Read one card as `parse` reads a line (`1x Sol Ring (C21) 263 *F*`); None when it is no card line."""
    line = text.lstrip("\ufeff").translate(QUOTES).strip()
    if not line or header(line) is not None or line.startswith(("//", "#")):
        return None
    result = read_entry(line)
    return result if isinstance(result, DeckEntry) else None
