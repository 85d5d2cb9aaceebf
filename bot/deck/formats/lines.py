"""What every text reader shares: one card line and the section headers around it. Pure.

A card line: a count before the name (`1 Sol Ring`, `1x Sol Ring`, `1 x Sol Ring`; none means 1) or after it
(`Sol Ring x2`, `Island: 9`); a set code and collector number (`(C21) 263`, `[C21]`, XMage's `[C21:263]` before
the name); Moxfield `*F*`/`*E*`, TappedOut `*CMDR*`, Moxfield `#tags`, Archidekt `[Category]` and `^tag^`
suffixes (`[Commander{top}]` marks the commander, `{noDeck}` keeps the card out of the deck); a prefix that puts
the one line in a section (`SB:`, `Commander:`, `Partner:`, `Companion:`, ...); a comment after ` # ` or after
` // ` when the rest can't be a split card's next face (`slash_comment`). Split names written `Fire/Ice`,
`Fire / Ice` or `Fire // Ice` all become `Fire // Ice`; a leading number no deck could hold (1000 or more)
is part of the name (`1996 World Champion`). Headers: Arena/Moxfield/MTGO section words, with `//` or `#` in
front, a `(N)` count or a `:`, and type groups such as `Creatures (30)` (skipped).
"""

from __future__ import annotations

import re
import unicodedata

from bot.deck.entries import MAX_COUNT, MAX_NAME_LENGTH, CardLine, LineIssue, Section

SECTION_WORDS: dict[str, Section] = {
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
GROUP_WORDS = {
    "creature",
    "creatures",
    "land",
    "lands",
    "instant",
    "instants",
    "sorcery",
    "sorceries",
    "artifact",
    "artifacts",
    "enchantment",
    "enchantments",
    "planeswalker",
    "planeswalkers",
    "battle",
    "battles",
    "other",
    "others",
    "spells",
    "nonland",
    "nonlands",
    "ramp",
    "removal",
    "card draw",
    "draw",
    "tribal",
    "kindred",
    "legendary",
    "mana rocks",
}

_HEADER_RE = re.compile(
    r"^(?:(?://|#)+\s*)?(?P<word>[A-Za-z][A-Za-z ]*?)\s*(?:\(\s*\d+\s*\))?\s*:?\s*(?:\d+\s*)?$"
)
_COUNT_RE = re.compile(r"^(?P<count>\d+)(?P<x>\s*[xX\u00d7])?\s+(?P<rest>\S.*)$")
_TRAILING_COUNT_RE = re.compile(
    r"^(?P<rest>.*\S)(?:\s+[xX\u00d7]|\s*:\s*)(?P<count>\d+)$"
)  # `Sol Ring x2`, `Island: 9`
_SB_RE = re.compile(r"^SB:\s*", re.IGNORECASE)
_STAR_MARK_RE = re.compile(r"\s*\*(?P<mark>[A-Za-z][A-Za-z\- ]{0,15})\*\s*$")
_HASHTAG_RE = re.compile(r"\s+#!?[^\s#]+\s*$")
_CARET_TAG_RE = re.compile(r"\s*\^[^^]*\^\s*$")
# A set code has a letter and one case (`(C21)`, `(c21)`), so `Hazmat Suit (Used)` and `Bio (1999)` keep theirs.
SET_CODE = r"(?=[A-Za-z0-9]*[A-Za-z])(?:[A-Z0-9]{2,6}|[a-z0-9]{2,6})"
COLLECTOR = r"[A-Za-z0-9★†\-]{1,10}"  # a collector number: `263`, `217p`, `C21-263`, `1★`
_SET_PAREN_RE = re.compile(r"\s*\((?P<set>" + SET_CODE + r")\)(?:\s+(?P<num>" + COLLECTOR + r"))?\s*$")
_BRACKET_RE = re.compile(r"\s*\[(?P<inner>[^\[\]]{1,60})\]\s*$")
_SET_NUMBER = r"(?P<set>[A-Za-z0-9]{2,6})(?::(?P<num>" + COLLECTOR + r"))?"  # `C21`, `C21:263`
_SET_BRACKET_RE = re.compile("^" + _SET_NUMBER + "$")
_LEADING_SET_RE = re.compile(r"^\[" + _SET_NUMBER + r"\]\s+")  # XMage
_SPLIT_RE = re.compile(r"\s*/{1,2}\s*")
_HASH_COMMENT_RE = re.compile(r"\s#(?:\s|$)")  # ` # note`; Moxfield tags (`#Ramp`) have no space after `#`
_SLASH_SEPARATOR_RE = re.compile(r"\s//")  # ` //`: a split-card separator or the start of a comment
_INLINE_SECTION_RE = re.compile(r"^(?P<word>[A-Za-z][A-Za-z ]{1,20}?)\s*:\s*(?P<rest>\S.*)$")
INLINE_SECTION_WORDS: dict[str, Section] = {
    "commander": Section.COMMANDER,
    "commanders": Section.COMMANDER,
    "command zone": Section.COMMANDER,
    "partner": Section.COMMANDER,
    "background": Section.COMMANDER,
    "sideboard": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "maybe": Section.MAYBEBOARD,
    "considering": Section.MAYBEBOARD,
    "companion": Section.COMPANION,
    "companions": Section.COMPANION,
}
_SPACES_RE = re.compile(r"\s+")
QUOTES = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "\u02bc": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u00a0": " ",
    }
)

_COMMANDER_MARKS = {"cmdr", "commander"}
_FOIL_MARKS = {"f", "foil", "e", "etched", "f-etch", "a", "s"}


def normalize_name(name: str) -> str:
    """Tidy a typed card name: curly quotes, repeated spaces, split names as `A // B`."""
    name = unicodedata.normalize("NFC", name).translate(QUOTES)
    name = _SPACES_RE.sub(" ", name).strip()
    if "/" in name:
        parts = [p for p in _SPLIT_RE.split(name) if p]
        name = " // ".join(parts)
    return name


def header(text: str) -> tuple[str, Section | None] | None:
    """('section', Section) for a section header, ('group', None) for a type group header, else None."""
    m = _HEADER_RE.match(text)
    if not m:
        return None
    word = _section_word(m.group("word"))
    if word in SECTION_WORDS:
        return ("section", SECTION_WORDS[word])
    if word in GROUP_WORDS:
        # A bare "Other" or "Land" could be a card name only with a count in front; headers have none.
        return ("group", None)
    return None


def _star_mark(m: re.Match[str], info: dict[str, object]) -> None:
    mark = m.group("mark").strip().lower()
    if mark in _COMMANDER_MARKS:
        info["commander"] = True
    elif mark in _FOIL_MARKS or mark.startswith("f"):
        info["foil"] = True


def _bracket(m: re.Match[str], info: dict[str, object]) -> None:
    """`[C21]`, `[C21:263]` is a set code (once); anything else is an Archidekt category list."""
    inner = m.group("inner").strip()
    set_match = _SET_BRACKET_RE.match(inner)
    if set_match and (inner.isupper() or any(ch.isdigit() for ch in inner)) and "set" not in info:
        _set_code(set_match, info)
        return
    categories = {c.strip() for c in re.split(r"[,{}]", inner.lower()) if c.strip()}
    if "commander" in categories:
        info["commander"] = True
    if categories & {"nodeck", "maybeboard", "sideboard"}:
        info["excluded"] = True


def _set_code(m: re.Match[str], info: dict[str, object]) -> None:
    info["set"] = m.group("set").lower()
    if m.group("num"):
        info["num"] = m.group("num")


def _ignore(m: re.Match[str], info: dict[str, object]) -> None:
    """`^tag^`, `#tag`: organisation, not part of the card."""


_SUFFIXES = (
    (_STAR_MARK_RE, _star_mark),
    (_CARET_TAG_RE, _ignore),
    (_HASHTAG_RE, _ignore),
    (_BRACKET_RE, _bracket),
    (_SET_PAREN_RE, _set_code),
)


def strip_suffixes(rest: str) -> tuple[str, dict[str, object]]:
    """Peel set codes, collector numbers, markers and tags off the end of a card line."""
    info: dict[str, object] = {}
    peeled = True
    while peeled and rest:
        peeled = False
        for pattern, take in _SUFFIXES:
            m = pattern.search(rest)
            if m and (m.start() > 0 or pattern is not _SET_PAREN_RE):
                take(m, info)
                rest, peeled = rest[: m.start()], True
                break
    return rest.strip(), info


def first_alpha(text: str) -> str:
    return next((ch for ch in text if ch.isalpha()), "")


# Lower-case words that occur inside card names (`Fires of Undeath`, `Azusa, Lost but Seeking`, `Chicken à la
# King`); any other lower-case word marks prose, so ` // Burn and finishers` is a comment, not a split card's
# face. tests/test_deck_parser.py checks every face name of the shared data set against this rule.
NAME_SMALL_WORDS = frozenset(
    {
        "a",
        "an",
        "and",
        "as",
        "at",
        "but",
        "by",
        "for",
        "from",
        "in",
        "into",
        "of",
        "on",
        "or",
        "the",
        "this",
        "to",
        "upon",
        "with",
        "à",
        "de",
        "del",
        "la",
        "le",
        "van",
    }
)
_NAME_PARTICLE_RE = re.compile(r"[a-z]{1,3}-[A-Z]")  # `Augur il-Vec`, `Lancers en-Kor`


def prose_word(text: str) -> bool:
    """A lower-case word no card name uses (`finishers`, `rocks`): the text is a note, not a card name."""
    for word in text.split():
        word = word.strip(",.;:!?\"'()")
        if (
            word[:1].isalpha()
            and word[:1].islower()
            and word not in NAME_SMALL_WORDS
            and not _NAME_PARTICLE_RE.match(word)
        ):
            return True
    return False


def slash_comment(rest: str) -> tuple[str, str | None]:
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
        right = rest[m.end() :].lstrip("/").strip()
        if not left or not right:
            continue  # `// Ice` or `Fire //`: half a split name, reported by _read_card
        first = right[0]
        capitalised = first_alpha(left).isupper()
        face = strip_suffixes(right)[0].lower()
        comment = (
            not (first.isalnum() or first in "\"'")
            or (first.isalpha() and first.islower() and capitalised)
            or strip_suffixes(left)[0] != left
            or (capitalised and prose_word(right))
            or face in SECTION_WORDS
            or face in GROUP_WORDS  # no card face is named `Ramp` or `Lands`
        )
        if comment:
            return left, alternative
        alternative = left
    return rest, alternative


def _split_count(text: str) -> tuple[int, str] | LineIssue:
    """The count (before or after the name; 1 when none) and the rest of a card line."""
    m = _COUNT_RE.match(text)
    if m and m.group("x") and m.group("rest").startswith(("(", "[", "*")):
        return int(m.group("count")), f"{m.group('x').strip()} {m.group('rest')}"  # `1 X (UST) 1`: the card X
    if m and (m.group("x") or int(m.group("count")) <= MAX_COUNT):
        return int(m.group("count")), m.group("rest").strip()
    if m:
        return 1, text  # no deck holds 1000 copies: the number starts the name (`1996 World Champion`)
    if re.fullmatch(r"\d+\s*[xX\u00d7]?", text):
        return LineIssue.COUNT_ONLY
    m = _TRAILING_COUNT_RE.match(text)
    return (int(m.group("count")), m.group("rest")) if m else (1, text)


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


def _read_card(text: str) -> tuple[int, str, dict[str, object]] | LineIssue:
    """(count, name, info) for a card line, or why it can't be read."""
    hash_comment = _HASH_COMMENT_RE.search(text)
    if hash_comment:
        text = text[: hash_comment.start()].strip()
    counted = _split_count(text) if text else LineIssue.NO_NAME
    if isinstance(counted, LineIssue):
        return counted
    count, rest = counted
    info: dict[str, object] = {}
    m = _LEADING_SET_RE.match(rest)
    if m:
        _set_code(m, info)
        rest = rest[m.end() :]
    rest, alternative = slash_comment(rest)
    rest, more = strip_suffixes(rest)
    info.update(more)
    name = normalize_name(rest)
    if alternative is not None:
        alt_name = normalize_name(strip_suffixes(alternative)[0])
        if alt_name and alt_name != name and any(ch.isalpha() for ch in alt_name):
            info["alternative"] = alt_name
    issue = _name_issue(count, name)
    return issue if issue is not None else (count, name, info)


def _section_word(word: str) -> str:
    return _SPACES_RE.sub(" ", word.strip().lower())


def read_entry(text_line: str) -> CardLine | LineIssue:
    """A card line (quotes already normalised, stripped, not a header or comment): a CardLine or the reason
    it can't be read. `SB: ...` and `Commander: ...` prefixes put the line in their section."""
    section: Section | None = None
    sb = _SB_RE.match(text_line)
    inline = _INLINE_SECTION_RE.match(text_line)
    if sb:
        section = Section.SIDEBOARD
        text_line = text_line[sb.end() :]
    elif inline and _section_word(inline.group("word")) in INLINE_SECTION_WORDS:
        section = INLINE_SECTION_WORDS[_section_word(inline.group("word"))]
        text_line = inline.group("rest")
    result = _read_card(text_line)
    if isinstance(result, LineIssue):
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


def card_from_fields(
    count: str | None,
    name: str,
    *,
    set_code: str | None = None,
    number: str | None = None,
    foil: bool = False,
    section: Section | None = None,
) -> CardLine | LineIssue:
    """A card from a deck file's fields (a CSV row, an XML element): the name as written, tidied."""
    count_text = (count or "1").strip()
    if not count_text.isdigit():
        return LineIssue.BAD_COUNT
    tidy = normalize_name(name)
    issue = _name_issue(int(count_text), tidy)
    if issue is not None:
        return issue
    return CardLine(
        name=tidy,
        count=int(count_text),
        set_code=(set_code or "").strip().lower() or None,
        collector_number=(number or "").strip() or None,
        foil=foil,
        section=section,
        commander_marker=section is Section.COMMANDER,
    )


def parse_card_line(text: str) -> CardLine | None:
    """Read one card as players paste it (`Sol Ring (C21) 263`, `1x Sol Ring *F*`, `1 Sol Ring [C21]`,
    `Commander: Kumano`): name, count, set code, collector number, foil and commander markers.

    The same code reads every line of `parse`. None when the text is not a card line: blank, a section
    header, a comment, or unreadable (a count with no name, control characters, ...).
    """
    if not isinstance(text, str):
        return None
    line = text.lstrip("\ufeff").translate(QUOTES).strip()
    if not line or header(line) is not None or line.startswith(("//", "#")):
        return None
    result = read_entry(line)
    return result if isinstance(result, CardLine) else None
