"""One-line pastes: a whole decklist whose newlines became spaces (Discord text options, some chat clients).

`split_entries` cuts the line into entries that each read like one line of a multi-line list. An entry starts
at a count followed by a name, `SB:`, `;` or `|`, a section or type header, `Commander: Name`, a comment after
a finished entry, or a name after a finished entry (one that ended in a set code, collector number, marker,
`[category]` or tag). A number after a `(SET)` is its collector number when the paste's set codes carry them.
A bare section word right after a name is a header only when no card name ends with it (`1 Siege-Gang
Commander`); with a colon, a `(N)` count or as a comment it always is. Limits: a plain list needs counts or
`;` between names, and a comment's own numbers (`// top 10`) start new entries.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import NamedTuple

from bot.deck.formats.lines import (
    COLLECTOR,
    GROUP_WORDS,
    INLINE_SECTION_WORDS,
    SECTION_WORDS,
    SET_CODE,
    looks_like_note,
)

# Section words that end some card's name (`Siege-Gang Commander`, `Raptor Companion`, `Sworn Companions`,
# `Side to Side`, `Enhancement Stickers`): after a card name without a set code they belong to the name
# unless a colon or a `(N)` count marks them as a header. tests/deck/test_deck_parser.py checks this set against
# every card name of the shared data set.
NAME_ENDING_SECTION_WORDS = frozenset({"commander", "companion", "companions", "side", "stickers"})

_TOKEN_RE = re.compile(
    r"\[[^\[\]]{0,60}\]"  # [C21], [Commander{top}], [Card Draw]
    r"|\^[^\^]{0,60}\^"  # ^Have,#37d67a^
    r"|\*[A-Za-z][A-Za-z\- ]{0,15}\*"  # *F*, *CMDR*
    r"|\([^()]{0,60}\)"  # (C21), (30), (Big Furry Monster)
    r"|\S+"
)
_COUNT_TOKEN_RE = re.compile(r"\d{1,3}[xX\u00d7]?")
_PREFIX_TOKEN_RE = re.compile(r"\d{1,3}[xX\u00d7]?|[xX\u00d7]|.*:")  # a count, `x`, `SB:`, `Commander:`
_SET_TOKEN_RE = re.compile(r"\(" + SET_CODE + r"\)")
_SET_BRACKET_TOKEN_RE = re.compile(r"\[(?=[^\]]*[A-Za-z])[A-Za-z0-9]{2,6}(?::" + COLLECTOR + r")?\]")
_DIGITS_PAREN_RE = re.compile(r"\(\s*\d+\s*\)")
_COLLECTOR_RE = re.compile(r"(?=.*[0-9★†])" + COLLECTOR)
_COMMENT_MARK_RE = re.compile(r"(?://|#)+")
_PASTE_SEPARATOR_RE = re.compile(r"\s*[;|]\s*")
_MARKER_RE = re.compile(
    r"\*.+\*|\[(?:.*\])?|\^.*\^|#(?!(?://|#)*$).*"
)  # finishes an entry: `*F*`, `[..]`, `^..^`, `#tag`


class _Phase(StrEnum):
    START = "start"  # a new entry begins with the next token
    COUNT = "count"  # after `1` / `1x`: the name comes next
    PREFIX = "prefix"  # after `SB:` / `Partner:`: a count or a name comes next
    NAME = "name"  # inside a card name
    SUFFIX = "suffix"  # after a set code, marker, tag or category: the entry is finished
    COMMENT = "comment"  # inside a `//` or `#` comment
    ABOUT = "about"  # inside Arena's `About` metadata (`Name My deck`)


class _HeaderSpan(NamedTuple):
    end: int  # index of the first token after the header
    phrase: str  # lower case, e.g. "sideboard", "main deck", "creatures"
    strong: bool  # a colon, a `(N)` count or written as a comment (`// Lands`): a header wherever it stands
    capitalised: bool


def _is_comment_mark(token: str) -> bool:
    return token.startswith("//") or bool(_COMMENT_MARK_RE.fullmatch(token))


def _starts_name(token: str) -> bool:
    """Can a card name begin with this token? (`[C21]` too: `1 [C21] Sol Ring`)"""
    if _SET_BRACKET_TOKEN_RE.fullmatch(token):
        return True
    if _MARKER_RE.fullmatch(token) or _is_comment_mark(token) or token.startswith("("):
        return False
    return token.upper() != "SB:" and token != ":"


class _Splitter:
    """Cuts the tokens of one pasted line into entries; see the module docstring for the rules."""

    def __init__(self, tokens: list[str]) -> None:
        self.t = tokens
        self.n = len(tokens)
        self.numbers_follow_sets = self._numbers_follow_sets()
        self.starts: list[int] = [0]
        self.phase = _Phase.START
        self.set_slot = False
        self.after_slash = False

    def _numbers_follow_sets(self) -> bool:
        """Do this paste's `(SET)` codes carry collector numbers? Decides `(SET) 12 Name` (12 = number)."""
        with_number = without = 0
        for i, tok in enumerate(self.t[:-1]):
            if not _SET_TOKEN_RE.fullmatch(tok):
                continue
            nxt, after = self.t[i + 1], self.t[i + 2] if i + 2 < self.n else ""
            if nxt.isdigit():
                with_number += not after or not _starts_name(after) or bool(_COUNT_TOKEN_RE.fullmatch(after))
            elif _COLLECTOR_RE.fullmatch(nxt) and not _COUNT_TOKEN_RE.fullmatch(nxt):
                with_number += 1
            else:
                without += 1
        return with_number > 0 or without == 0

    def header(self, i: int) -> _HeaderSpan | None:
        """A section or type header starting at token i (`Deck`, `SIDEBOARD:`, `// Lands (30)`, `Main Deck`)."""
        marked = bool(_COMMENT_MARK_RE.fullmatch(self.t[i]))
        j = i + marked
        for width in (2, 1):
            if j + width > self.n:
                continue
            words = self.t[j : j + width]
            if any(not w[:1].isalpha() for w in words) or any(w.endswith(":") for w in words[:-1]):
                continue
            colon = words[-1].endswith(":")
            phrase = " ".join(words).rstrip(":").strip().lower()
            if phrase not in SECTION_WORDS and phrase not in GROUP_WORDS:
                continue
            k = j + width
            counted = False
            if not colon and k < self.n and _DIGITS_PAREN_RE.fullmatch(self.t[k]):
                counted, k = True, k + 1
            if not colon and k < self.n and self.t[k] == ":":
                colon, k = True, k + 1
            return _HeaderSpan(k, phrase, colon or counted or marked, words[0][0].isupper())
        return None

    def _followed_by_entry(self, span: _HeaderSpan) -> bool:
        """What follows a header must start an entry (or be the end): a count, `SB:`, a comment, a header."""
        tok = self.t[span.end] if span.end < self.n else ""
        if not tok or self.count_starts_entry(span.end) or tok.upper() == "SB:" or _is_comment_mark(tok):
            return True
        if span.phrase == "about" and tok.lower() == "name":
            return True
        nested = self.header(span.end)
        return nested is not None and (nested.end >= self.n or self.count_starts_entry(nested.end))

    def header_here(self, i: int, phase: _Phase, after_slash: bool) -> _HeaderSpan | None:
        if phase in (_Phase.COUNT, _Phase.PREFIX) or after_slash:
            return None
        span = self.header(i)
        if span is None or not self._followed_by_entry(span):
            return None
        if phase in (_Phase.START, _Phase.SUFFIX) or (phase is _Phase.NAME and span.strong):
            return span  # no card name ends in a colon or `(N)`; no face is named `Lands` (`A // Lands`)
        section = span.phrase in SECTION_WORDS and span.capitalised
        if phase is _Phase.NAME:
            return span if section and span.phrase not in NAME_ENDING_SECTION_WORDS else None
        return span if section else None  # inside a comment or About metadata

    def count_starts_entry(self, i: int) -> bool:
        """Token i is a count followed by a card name (`1 Sol`, `1x Sol`, `1 x Sol`, `1 1996 World ...`)."""
        if i >= self.n or not _COUNT_TOKEN_RE.fullmatch(self.t[i]):
            return False
        return i + 1 >= self.n or _starts_name(self.t[i + 1])  # a lone count at the end: its own entry

    def note_follows(self, start: int, i: int) -> bool:
        """The text after the `//` at token i (up to the next `//`, set code, marker or entry) is a note rather
        than a split card's next face (`looks_like_note`); the entry began at token `start`."""
        words = [self.t[i][2:]] if len(self.t[i]) > 2 else []
        j = i + 1
        while (
            j < self.n
            and not self.count_starts_entry(j)
            and not _is_comment_mark(self.t[j])
            and not _MARKER_RE.fullmatch(self.t[j])
            and not self.t[j].startswith("(")
        ):
            words.append(self.t[j])
            j += 1
        if not (text := " ".join(words).strip()):
            return False
        name = self.t[start:i]
        while name and _PREFIX_TOKEN_RE.fullmatch(name[0]):
            name = name[1:]  # the count and `SB:` / `Commander:` prefixes are not the name
        return looks_like_note(" ".join(name), text)

    def inline_prefix(self, i: int) -> int | None:
        """`Commander: Name` / `Partner: Name`: the index after the prefix, or None."""
        tok = self.t[i]
        if tok.endswith(":") and tok[:-1].lower() in INLINE_SECTION_WORDS:
            k = i + 1
        elif tok.lower() in INLINE_SECTION_WORDS and i + 1 < self.n and self.t[i + 1] == ":":
            k = i + 2
        else:
            return None
        return k if k < self.n and (_starts_name(self.t[k]) or self.count_starts_entry(k)) else None

    def begin(self, index: int, phase: _Phase | None = None) -> None:
        """An entry starts at token `index` (and the splitter is in `phase` there)."""
        if index < self.n and index != self.starts[-1]:
            self.starts.append(index)
        self.phase = phase or self.phase

    def boundary(self, i: int, in_set_slot: bool, slash: bool) -> int | None:
        """When token i starts an entry (`SB:`, a header, `Commander:`, a count) or is a collector number: the
        index of the next token to read, with the phase set; else None."""
        tok, phase = self.t[i], self.phase
        counting = phase in (_Phase.COUNT, _Phase.PREFIX)
        if tok.upper() == "SB:" and not counting:
            self.begin(i, _Phase.PREFIX)
            return i + 1
        span = self.header_here(i, phase, slash)
        if span is not None:
            about = span.phrase == "about"
            self.begin(i)
            self.begin(span.end, _Phase.ABOUT if about else _Phase.START)
            name_follows = about and span.end < self.n and self.t[span.end].lower() == "name"
            return span.end + name_follows  # Arena's `About Name My deck`
        prose = phase in (_Phase.COMMENT, _Phase.ABOUT) and not tok[:1].isupper()
        after = None if counting or slash or prose else self.inline_prefix(i)
        if after is not None:
            self.begin(i, _Phase.PREFIX)
            return after
        if counting or slash or not _COUNT_TOKEN_RE.fullmatch(tok):
            return None
        if in_set_slot and tok.isdigit() and (self.numbers_follow_sets or not self.count_starts_entry(i)):
            self.phase = _Phase.SUFFIX  # the collector number of the set code before it
            return i + 1
        if self.count_starts_entry(i):
            self.begin(i, _Phase.COUNT)
            return i + 1
        return None

    def in_count(self, i: int, _: bool) -> None:
        if not (
            self.t[i] in ("x", "X", "\u00d7")
            and i + 1 < self.n
            and _starts_name(self.t[i + 1])
            and not self.count_starts_entry(i + 1)
        ):
            self.phase = _Phase.NAME  # `1 x Sol Ring` keeps counting; in `1 X 1 Sol Ring`, X is the card

    def in_name(self, i: int, _: bool) -> None:
        tok = self.t[i]
        if tok.startswith("//") and self.note_follows(self.starts[-1], i):
            self.begin(i, _Phase.COMMENT)  # `1 Fiery Confluence // Burn and finishers 1 Comet Storm`
        elif tok.startswith("//"):
            self.after_slash = True  # `Fire // Ice`, or `Sol Ring // Staple`: the entry's reader decides
        elif _COMMENT_MARK_RE.fullmatch(tok):
            self.phase = _Phase.COMMENT  # `1 Sol Ring # staple`: the rest of this entry is a comment
        elif _SET_TOKEN_RE.fullmatch(tok):
            self.phase, self.set_slot = _Phase.SUFFIX, True
        elif _MARKER_RE.fullmatch(tok):
            self.phase = _Phase.SUFFIX

    def in_suffix(self, i: int, in_set_slot: bool) -> None:
        tok = self.t[i]
        if in_set_slot and _COLLECTOR_RE.fullmatch(tok):
            return  # `(PLST) C21-263`, `(PDOM) 217p`
        if _SET_TOKEN_RE.fullmatch(tok):
            self.set_slot = True
        elif _is_comment_mark(tok):
            self.begin(i, _Phase.COMMENT)
        elif not _MARKER_RE.fullmatch(tok):
            self.begin(i, _Phase.NAME)  # a name after a finished entry: a new entry without a count

    def in_other(self, i: int, _: bool) -> None:
        tok = self.t[i]
        if self.phase is _Phase.START:
            self.phase = _Phase.COMMENT if _is_comment_mark(tok) or tok.startswith("#") else _Phase.NAME
        elif self.phase is _Phase.PREFIX:
            self.phase = _Phase.COUNT if _COUNT_TOKEN_RE.fullmatch(tok) else _Phase.NAME
        elif _is_comment_mark(tok):  # in a comment or About metadata
            self.begin(i, _Phase.COMMENT)

    def split(self) -> list[tuple[int, int]]:
        """Token ranges [start, end) of the entries, in order."""
        steps = {_Phase.COUNT: self.in_count, _Phase.NAME: self.in_name, _Phase.SUFFIX: self.in_suffix}
        i = 0
        while i < self.n:
            in_set_slot, self.set_slot = self.set_slot, False  # the token after a `(SET)`: its number?
            slash, self.after_slash = self.after_slash, False  # the token after `//` in a name: a next face
            after = self.boundary(i, in_set_slot, slash)
            if after is not None:
                i = after
                continue
            steps.get(self.phase, self.in_other)(i, in_set_slot)
            i += 1
        return list(zip(self.starts, [*self.starts[1:], self.n], strict=True))


def split_entries(line: str) -> list[str]:
    """Cut one pasted line into entries, in order: card lines, headers, comments or Arena `About` metadata."""
    out: list[str] = []
    for chunk in _PASTE_SEPARATOR_RE.split(line.strip()):
        matches = list(_TOKEN_RE.finditer(chunk))
        if not matches:
            continue
        ranges = _Splitter([m.group() for m in matches]).split()
        out.extend(chunk[matches[start].start() : matches[end - 1].end()] for start, end in ranges)
    return out
