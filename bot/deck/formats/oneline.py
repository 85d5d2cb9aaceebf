"""One-line pastes: a decklist whose newlines became spaces, cut where each entry starts so it reads like a
line of a multi-line list. Limits: a plain list needs counts or `;` between names, and a comment's own
numbers (`// top 10`) start new entries. Linear in the line's length: the tokens are found in one pass, and
each rule looks at a token and its neighbours, or (`note_follows`) at the tokens up to the next `//`."""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum, auto

from bot.deck.formats import lines

# Section words that end some card's name (`Siege-Gang Commander`, `Raptor Companion`, `Side to Side`): after
# a name they belong to it unless a colon or a `(N)` count marks a header. tests/deck checks this set against
# every card name of the shared data set.
NAME_ENDING_SECTION_WORDS = frozenset({"commander", "companion", "companions", "side", "stickers"})

_HEADS = "|".join(w.replace(" ", r"\s+") for w in sorted(lines.HEADER_WORDS, key=len)[::-1])
# A header: its words, then a `(N)` count or a colon (`Lands (30)`, `SIDEBOARD:`)
_HEADER = rf"(?P<words>{_HEADS})(?P<counted>\s*+\(\s*+[0-9]++\s*+\))?(?P<colon>\s*+:)?"
_HEADER_RE = re.compile(_HEADER, re.IGNORECASE)
_TOKEN_RE = re.compile(
    rf"(?i:(?<!\S){_HEADER}(?!\S))|\[[^\[\]]{{0,60}}\]|\^[^\^]{{0,60}}\^|\*[A-Za-z][A-Za-z\- ]{{0,15}}\*"
    r"|\([^()]{0,60}\)|\S+(?:\s+:(?!\S))?"  # (C21), (Big Furry Monster); a word (`Commander :` is one)
)
_KIND_RE = re.compile(  # what a token is; anything else is a "word"
    rf"(?P<count>[0-9]{{1,3}}[xX\u00d7]?)|(?P<set>\({lines.SET_CODE}\))"
    rf"|(?P<bset>\[(?=[^\]]*[A-Za-z])[A-Za-z0-9]{{2,6}}(?::{lines.COLLECTOR})?\])|(?P<note>//.*|(?://|#)+)"
    r"|(?P<mark>\*.+\*|\[(?:.*\])?|\^.*\^|#.*)|(?P<sb>(?i:SB:))|(?P<paren>\(.*)|(?P<colon>:)"
)
_NAMES = ("word", "count", "bset")  # kinds a card name can begin with (`1 [C21] Sol Ring`)
_ENDS = ("set", "bset", "mark")  # kinds that finish an entry: (C21), [C21], *F*, [Ramp], ^Have^, #tag
_NUM_RE = re.compile(r"(?=.*[0-9★†])" + lines.COLLECTOR)  # a collector number: 263, 217p, C21-263
_X = ("x", "X", "\u00d7")


class _Phase(Enum):
    START = auto()  # a new entry begins with the next token
    COUNT = auto()  # after `1` / `1x`: the name comes next
    PREFIX = auto()  # after `SB:` / `Partner:`: a count or a name comes next
    NAME = auto()
    DONE = auto()  # after a set code, marker, tag or trailing count: the entry is finished
    NOTE = auto()  # a `//` or `#` comment, or Arena's `About` metadata


class _Splitter:
    """Cuts the tokens of one pasted line into entries: the entry rules first (`boundary`), then `_RULES`."""

    def __init__(self, tokens: list[str]) -> None:
        self.t, self.n = tokens, len(tokens)
        self.k = [m.lastgroup or "" if (m := _KIND_RE.fullmatch(tok)) else "word" for tok in tokens]
        self.k.append("")  # past the end
        self.starts, self.phase, self.name_at = [0], _Phase.START, 0
        numbered = {self._numbered(i) for i in range(1, self.n) if self.k[i - 1] == "set"}
        self.numbers_follow_sets = True in numbered or False not in numbered  # decides `(SET) 12 Name`

    def _numbered(self, i: int) -> bool | None:
        """Token i, after a `(SET)`, is its collector number (True), is not (False), or can't tell (None)."""
        if _number(self.t[i]):
            return self.k[i + 1] not in ("word", "bset") or None  # `(C21) 263 1 Shock`, not `(C21) 2 Shock`
        return bool(_NUM_RE.fullmatch(self.t[i])) and self.k[i] != "count"

    def count_at(self, i: int) -> bool:
        """Token i is a count before a card name (`1 Sol`, `1x Sol`, `1 x Sol`) or a lone count at the end."""
        return self.k[i] == "count" and (i + 1 == self.n or self.k[i + 1] in _NAMES)

    def entry_at(self, i: int) -> bool:
        return i >= self.n or self.count_at(i) or self.k[i] in ("sb", "note")

    def header(self, i: int) -> tuple[int, bool] | None:
        """(end, is `About`) of a header at token i (`Deck`, `SIDEBOARD:`, `// Lands (30)`) where the entries
        around it allow one: an entry must follow, and right after a name only a colon, a `(N)` count, a
        comment mark or a section word that ends no card name (`1 Siege-Gang Commander`) makes a header."""
        marked = self.k[i] == "note" and self.t[i].strip("/#") == ""
        if i + marked >= self.n or not (m := _HEADER_RE.fullmatch(self.t[i + marked])):
            return None
        end, phrase, name = i + marked + 1, " ".join(m["words"].lower().split()), self.phase is _Phase.NAME
        nested = _HEADER_RE.fullmatch(self.t[end]) if end < self.n else None
        about = phrase == "about" and end < self.n and self.t[end].lower() == "name"
        if not (self.entry_at(end) or (nested and self.entry_at(end + 1)) or about):
            return None
        strong = m["colon"] or m["counted"] or marked  # no card name ends in a colon or `(N)`
        section = phrase in lines.SECTION_WORDS and m["words"][0].isupper()
        ending = name and phrase in NAME_ENDING_SECTION_WORDS  # `1 Siege-Gang Commander`
        if self.phase in (_Phase.START, _Phase.DONE) or (name and strong) or (section and not ending):
            return end, phrase == "about"
        return None

    def note_follows(self, i: int) -> bool:
        """The text after the `//` at token i is a note, not a split card's next face (`looks_like_note`)."""
        j = i + 1
        while j < self.n and not (self.count_at(j) or self.k[j] in ("note", "paren", *_ENDS)):
            j += 1
        text = " ".join([self.t[i][2:], *self.t[i + 1 : j]]).strip()
        name = next((self.t[k] for k in range(self.name_at, i) if any(c.isalpha() for c in self.t[k])), "")
        return bool(text) and lines.looks_like_note(name, text)

    def begin(self, i: int, phase: _Phase) -> int:
        if i < self.n and i != self.starts[-1]:
            self.starts.append(i)
        self.phase = phase
        return i

    def boundary(self, i: int) -> int | None:
        """When token i starts an entry (`SB:`, a header, `Commander: Name`, a count) or ends one (a collector
        number, `Island: 9`): the index of the next token to read."""
        tok, phase, prev = self.t[i], self.phase, self.t[i - 1] if i else ""
        if phase in (_Phase.COUNT, _Phase.PREFIX):
            return None
        if self.k[i] == "sb":
            return self.begin(i, _Phase.PREFIX) + 1
        if phase is _Phase.NAME and prev.startswith("//"):
            return None  # `Fire // Ice`: a face name follows
        if head := self.header(i):
            self.begin(i, _Phase.START)
            return self.begin(head[0], _Phase.NOTE if head[1] else _Phase.START)  # Arena: `About Name X`
        word = " ".join(tok[:-1].lower().split()) if tok[-1] == ":" else ""  # `Commander: Name`
        inline = word in lines.INLINE_SECTION_WORDS and self.k[i + 1] in _NAMES
        if inline and (phase is not _Phase.NOTE or tok[0].isupper()):  # in a comment, only capitalised
            return self.begin(i, _Phase.PREFIX) + 1
        if _number(tok) and (
            (self.collector(i) and (self.numbers_follow_sets or not self.count_at(i)))
            or (phase is _Phase.NAME and prev.endswith(":"))  # `Island: 9`
        ):
            self.phase = _Phase.DONE
            return i + 1
        return self.begin(i, _Phase.COUNT) + 1 if self.count_at(i) else None

    def collector(self, i: int) -> bool:
        """Token i follows a finished entry's `(SET)` and reads as its number (`263`, `217p`, `C21-263`)."""
        return self.phase is _Phase.DONE and self.k[i - 1] == "set" and bool(_NUM_RE.fullmatch(self.t[i]))

    def split(self) -> list[tuple[int, int]]:
        """Token ranges [start, end) of the entries, in order."""
        i = 0
        while i < self.n:
            if (after := self.boundary(i)) is not None:
                i = after
                continue
            _, phase, new = next((r for r in _RULES[self.phase] if r[0](self, i)), (_any, None, False))
            if new:
                self.begin(i, self.phase)
            if phase is _Phase.NAME:
                self.name_at = i  # where the name begins, after a count or `SB:` / `Commander:`
            self.phase = phase or self.phase
            i += 1
        return list(zip(self.starts, [*self.starts[1:], self.n], strict=True))


_Test = Callable[[_Splitter, int], object]


def _number(token: str) -> bool:
    """ASCII digits only: `²` and `①` are no number of a list."""
    return token.isascii() and token.isdigit()


def _kind(*kinds: str) -> _Test:
    return lambda s, i: s.k[i] in kinds


def _any(s: _Splitter, i: int) -> bool:
    return True


# What token i does in each phase when it starts no entry: the first rule whose test holds moves to its phase
# (None: stays), and starts a new entry at i when its flag says so.
_RULES: dict[_Phase, tuple[tuple[_Test, _Phase | None, bool], ...]] = {
    _Phase.START: (
        (lambda s, i: s.t[i][0] == "#" or s.k[i] == "note", _Phase.NOTE, False),
        (_any, _Phase.NAME, False),
    ),
    _Phase.PREFIX: ((_kind("count"), _Phase.COUNT, False), (_any, _Phase.NAME, False)),
    _Phase.COUNT: (  # `1 x Sol Ring` keeps counting; in `1 X 1 Sol Ring`, X is the card
        (lambda s, i: s.t[i] in _X and s.k[i + 1] in _NAMES and not s.count_at(i + 1), None, False),
        (_any, _Phase.NAME, False),
    ),
    _Phase.NAME: (
        (lambda s, i: s.t[i][:2] == "//" and s.note_follows(i), _Phase.NOTE, True),  # `1 Shock // burn`
        (lambda s, i: s.t[i][:2] == "//", None, False),  # `Fire // Ice`: see `boundary`
        (_kind("note"), _Phase.NOTE, False),  # `1 Sol Ring # staple`: the rest of this entry is a comment
        (_kind(*_ENDS), _Phase.DONE, False),
    ),
    _Phase.DONE: (
        (_kind("note"), _Phase.NOTE, True),
        (lambda s, i: s.k[i] in _ENDS or s.collector(i), None, False),
        (_any, _Phase.NAME, True),  # a name after a finished entry: a new entry without a count
    ),
    _Phase.NOTE: ((_kind("note"), _Phase.NOTE, True),),
}


def split_entries(line: str) -> list[str]:
    """Cut one pasted line into entries, in order: card lines, headers, comments or Arena `About` metadata."""
    out: list[str] = []
    for chunk in re.split(r"[;|]", line):
        if matches := list(_TOKEN_RE.finditer(chunk)):
            ranges = _Splitter([m.group() for m in matches]).split()
            out.extend(chunk[matches[start].start() : matches[end - 1].end()] for start, end in ranges)
    return out
