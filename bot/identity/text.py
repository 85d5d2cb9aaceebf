"""Rules-text helpers: reminder-text removal (CR 903.4c) and where a symbol sits in a line.

- `strip_reminder(line)`: removes parenthesised reminder text, nested parentheses included and
  whether or not the parentheses sit inside a quoted ability ("has "{T}: Add {G}. (...)""). An
  unclosed "(" removes the rest of the line (reminder text never spans lines).
- `symbol_context(line, start)`: a short phrase saying what part of the ability a symbol at
  position `start` belongs to ("flashback cost", "activated ability cost", "mana ability", ...),
  used for the evidence shown to users.
"""

from __future__ import annotations

import re


def strip_reminder(line: str) -> str:
    """`line` without any parenthesised text (CR 903.4c)."""
    if "(" not in line:
        return line
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(line):
        if ch == "(":
            if depth == 0:
                out.append(line[start:i])
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                start = i + 1
    if depth == 0:
        out.append(line[start:])
    return "".join(out)


# "Flashback {B}", "Kicker {1}{G}", "Escape—{R}{R}, Exile ...", "Level up {1}{W}", "Equip {2}", and keywords
# with a number before the cost: "Suspend 4—{1}{R}", "Suspend X—{X}{B}{B}{B}", "Awaken 3—{5}{W}", "Reinforce 1—{1}{W}"
_KEYWORD_COST_RE = re.compile(r"^([A-Z][A-Za-z' ]{1,30}?)(?: (?:\d+|X))?(?: ?\u2014 ?| )(?=\{)")
_ADD_RE = re.compile(r"\badd\b[^.:]*$", re.IGNORECASE)
_PAY_RE = re.compile(r"\bpays?\b[^.:]*$", re.IGNORECASE)
_COST_CHANGE_RE = re.compile(r"\bcosts?\b[^.:]*$", re.IGNORECASE)
_NOT_KEYWORD_WORDS = frozenset(
    {"add", "pay", "pays", "as", "when", "whenever", "at", "if", "you", "each", "spend", "for", "cost", "costs",
     "spells", "spell", "this", "that", "and", "or", "the", "a", "an", "may", "it"}
)


def symbol_context(line: str, start: int) -> str:
    """What the symbol at `line[start]` is part of, as a short phrase (never empty)."""
    before = line[:start]
    quoted = before.count("\u201c") > before.count("\u201d") or before.count('"') % 2 == 1
    if quoted:
        # inside a quoted ability that the card grants: describe it relative to that ability
        q = max(before.rfind("\u201c"), before.rfind('"'))
        inner_before = before[q + 1 :]
        close = min((i for i in (line.find('"', start), line.find("\u201d", start)) if i != -1), default=len(line))
        inner_after = line[start:close]
        if ":" not in inner_before and ":" in inner_after:
            return "granted ability's cost"
        if _ADD_RE.search(inner_before):
            return "granted mana ability"
        return "granted ability"
    colon = _first_colon_outside_quotes(line)
    m = _KEYWORD_COST_RE.match(line)
    if m and m.end() <= start and ":" not in before:
        keyword = m.group(1).strip()
        words = keyword.lower().split()
        if not _NOT_KEYWORD_WORDS.intersection(words):
            if colon != -1 and "\u2014" in line[: m.end()]:
                return "activated ability cost"  # ability word: "Channel \u2014 {X}{G}{G}, Discard ...: ..."
            keyword = keyword.split(" with ")[0]
            return f"{keyword[0].lower()}{keyword[1:]} cost"
    if colon != -1 and start < colon:
        return "activated ability cost"
    if _ADD_RE.search(before):
        return "mana ability" if colon != -1 else "mana it adds"
    if _PAY_RE.search(before):
        return "cost it asks for"
    if _COST_CHANGE_RE.search(before):
        return "cost change"
    return "rules text"


def _first_colon_outside_quotes(line: str) -> int:
    if ":" not in line:
        return -1
    quoted = False
    for i, ch in enumerate(line):
        if ch in "\u201c\u201d\"":
            quoted = ch == "\u201c" or (ch == '"' and not quoted)
        elif ch == ":" and not quoted:
            return i
    return -1
