"""Rules-text helpers: reminder text (CR 903.4c), where a mana symbol sits in a line (`TextPlace`), and the
colors a line names in words, which never count toward color identity (CR 903.4)."""

from __future__ import annotations

import re
from collections import Counter

from bot.identity.model import COLOR_WORDS, TextPlace
from bot.identity.symbols import SYMBOL_RE as _SYMBOL_RE

# with the space before it unless a word follows: "Cycling {W} (…)." is "Cycling {W}."
_INNERMOST_PARENS = re.compile(r"(?<!\s)\s*\([^()]*\)(?!\w)|\([^()]*\)")


def strip_reminder(line: str) -> str:
    """`line` without parenthesised text (CR 903.4c), nested included; an unclosed "(" takes the rest."""
    while "(" in line:
        line, removed = _INNERMOST_PARENS.subn("", line)
        if not removed:
            return line[: line.index("(")].rstrip()
    return line


def shown_line(bare: str) -> str:
    """A line as evidence quotes it: `bare` with runs of spaces and spaces at either end collapsed."""
    return bare if "  " not in bare and bare[:1] != " " and bare[-1:] != " " else " ".join(bare.split())


# "Flashback {B}", "Escape—{R}{R}, Exile ...", "Level up {1}{W}", with a number "Suspend X—{X}{B}{B}{B}"
_KEYWORD_COST_RE = re.compile(r"^([A-Z][A-Za-z' ]{1,30}?)(?: (?:\d+|X))?(?: ?\u2014 ?| )(?=\{)")
_ADD_RE = re.compile(r"\badd\b[^.:]*$", re.IGNORECASE)
_PAY_RE = re.compile(r"\bpays?\b[^.:]*$", re.IGNORECASE)
_COST_CHANGE_RE = re.compile(r"\bcosts?\b[^.:]*$", re.IGNORECASE)
# words that make "<words> {cost}" not a keyword ("Spells you cast cost {1} less")
_NOT_KEYWORD_RE = re.compile(
    r"(?:^|(?<= ))(?:add|pays?|as|when|whenever|at|if|you|each|spend|for|costs?|spells?|this|that|and|or|the|an?"
    r"|may|it)(?= |$)",
    re.IGNORECASE,
)


def symbol_context(line: str, start: int) -> tuple[TextPlace, str | None]:
    """Where the symbol at `line[start]` sits: (place, the keyword as printed for KEYWORD_COST)."""
    before = line[:start]
    if before.count("\u201c") > before.count("\u201d") or before.count('"') % 2 == 1:  # inside a quote
        inner_before = before[max(before.rfind("\u201c"), before.rfind('"')) + 1 :]
        ends = (line.find('"', start), line.find("\u201d", start))
        close = min((i for i in ends if i != -1), default=len(line))
        if ":" not in inner_before and ":" in line[start:close]:
            return TextPlace.GRANTED_COST, None
        if _ADD_RE.search(inner_before):
            return TextPlace.GRANTED_MANA_ABILITY, None
        return TextPlace.GRANTED_ABILITY, None
    colon = _first_colon_outside_quotes(line)
    if (m := _KEYWORD_COST_RE.match(line)) and m.end() <= start and ":" not in before:
        keyword = m.group(1).strip()
        if not _NOT_KEYWORD_RE.search(keyword):
            if colon != -1 and "\u2014" in line[: m.end()]:
                # an ability word: "Channel \u2014 {X}{G}{G}, Discard ...: ..."
                return TextPlace.ACTIVATED_COST, None
            return TextPlace.KEYWORD_COST, keyword.split(" with ")[0]
    if colon != -1 and start < colon:
        return TextPlace.ACTIVATED_COST, None
    if _ADD_RE.search(before):
        return (TextPlace.MANA_ABILITY if colon != -1 else TextPlace.MANA_ADDED), None
    if _PAY_RE.search(before):
        return TextPlace.COST_ASKED, None
    if _COST_CHANGE_RE.search(before):
        return TextPlace.COST_CHANGE, None
    return TextPlace.TEXT, None


def reminder_symbols(line: str, bare: str) -> list[str]:
    """The `{...}` symbols of `line` that `bare` (the line without reminder text) lost, in order."""
    kept = Counter(_SYMBOL_RE.findall(bare))
    out: list[str] = []
    for raw in _SYMBOL_RE.findall(line):
        if kept[raw]:
            kept[raw] -= 1
        else:
            out.append(raw)
    return out


def _first_colon_outside_quotes(line: str) -> int:
    if ":" not in line:
        return -1
    quoted = False
    for i, ch in enumerate(line):
        if ch in '\u201c\u201d"':
            quoted = ch == "\u201c" or (ch == '"' and not quoted)
        elif ch == ":" and not quoted:
            return i
    return -1


def _words_in(low: str) -> set[str]:
    """Colors named as whole words (or after "non"/"non-")."""
    found: set[str] = set()
    for word, letter in COLOR_WORDS.items():
        at = low.find(word)
        while at != -1:
            end = at + len(word)
            before, after = low[at - 1 : at], low[end : end + 1]  # "" at either end of the text
            if not after.isalpha() and (
                not before.isalpha() or low.endswith("non", 0, at) or low.endswith("non-", 0, at)
            ):
                found.add(letter)
                break
            at = low.find(word, end)
    return found


def named_colors(line: str, names: tuple[str, ...] = ()) -> set[str]:
    """Color letters of the color words in `line`, ignoring words inside the card's own `names`."""
    low = line.lower()
    if (found := _words_in(low)) and any(name and name.lower() in low for name in names):
        for name in filter(None, names):
            low = low.replace(name.lower(), " ")
        found = _words_in(low)
    return found
