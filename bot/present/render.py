"""Text helpers for embeds: mana pips, color words, highlighting, escaping and safe truncation.

Pure functions, no Discord objects and no network, so they are easy to test.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from bot.identity.model import COLOR_NAMES, WUBRG

ELLIPSIS = "…"
MAX_ECHO = 100  # characters of user input echoed back in a reply

SYMBOL_RE = re.compile(r"\{[^{}]{1,12}\}")

# Embed colors: each mono color its own, gold for multicolor, grey for colorless.
EMBED_COLORS: dict[str, int] = {
    "W": 0xF3E9C6,
    "U": 0x1E88E5,
    "B": 0x3C3245,
    "R": 0xE53935,
    "G": 0x2E7D32,
}
GOLD = 0xD4AF37
GREY = 0x9E9E9E
FITS_COLOR = 0x2ECC71
MISFIT_COLOR = 0xE74C3C


def identity_color(colors: str) -> int:
    """Embed color for a WUBRG string: mono color, gold (two or more), grey (colorless)."""
    present = [c for c in WUBRG if c in colors]
    if not present:
        return GREY
    if len(present) > 1:
        return GOLD
    return EMBED_COLORS[present[0]]


def color_words(colors: str) -> str:
    """'BR' -> 'black and red'; '' -> 'colorless'; 'WUBRG' -> 'white, blue, black, red and green'."""
    names = [COLOR_NAMES[c] for c in WUBRG if c in colors]
    if not names:
        return "colorless"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def color_words_in_order(colors: Iterable[str]) -> str:
    """Like `color_words`, but in the given order: ['G', 'U'] -> 'green and blue' (Forest Island)."""
    names = [COLOR_NAMES[c] for c in dict.fromkeys(colors) if c in COLOR_NAMES]
    if not names:
        return "colorless"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def mono_words(colors: str) -> str:
    """'R' -> 'mono-red'; 'BR' -> 'black-red'; '' -> 'colorless'."""
    names = [COLOR_NAMES[c] for c in WUBRG if c in colors]
    if not names:
        return "colorless"
    if len(names) == 1:
        return "mono-" + names[0]
    if len(names) == 5:
        return "all five colors"
    return "-".join(names)


def symbol(sym: str, emoji: Mapping[str, str] | None = None) -> str:
    """Render one mana symbol: custom emoji when configured for it, else the plain `{X}` text."""
    key = sym.strip("{}").upper()
    if emoji and key in emoji:
        return emoji[key]
    return "{" + key + "}"


def pips(colors: str, emoji: Mapping[str, str] | None = None) -> str:
    """Colors as mana pips followed by words: '{B}{R} black and red'; colorless: plain 'colorless'.

    No pip for colorless: `{C}` is the colorless *mana* symbol, which would suggest the card needs {C}.
    """
    present = [c for c in WUBRG if c in colors]
    if not present:
        return "colorless"
    return "".join(symbol(c, emoji) for c in present) + " " + color_words(colors)


def render_symbols(text: str, emoji: Mapping[str, str] | None = None) -> str:
    """Replace every `{X}` symbol in already-escaped text by its emoji when one is configured."""
    if not emoji:
        return text
    return SYMBOL_RE.sub(lambda m: symbol(m.group(0), emoji) if m.group(0).strip("{}").upper() in emoji
                         else m.group(0), text)


# Discord markdown: emphasis, code, strike, spoiler and escape characters anywhere; quotes, headings,
# list items and masked links at the start of a line. URLs are left alone (escaping them breaks them).
_MARKDOWN_RE = re.compile(
    r"(?P<url>https?://[^\s<]+[^<.,:;\"'\]\s])|(?P<md>[_\\~|*`]|^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-)",
    re.MULTILINE,
)
# @everyone, @here, user (@123...), nickname (@!123...) and role (@&123...) mentions.
_MENTION_RE = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")


def escape(text: str) -> str:
    """Escape markdown and mentions in text that came from outside (card data or user input)."""
    escaped = _MARKDOWN_RE.sub(lambda m: m.group("url") or "\\" + m.group("md"), text)
    return _MENTION_RE.sub("@\u200b\\1", escaped)


def echo(user_text: str, limit: int = MAX_ECHO) -> str:
    """User input made safe to show back: one line, truncated, markdown and mentions escaped."""
    one_line = " ".join(str(user_text).split())
    return escape(truncate(one_line, limit))


def truncate(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` characters, ending with an ellipsis when it was cut."""
    if limit <= 0:
        return ""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    # Never leave a dangling backslash escape or an unbalanced bold marker at the cut.
    cut = cut.rstrip("\\")
    if cut.count("**") % 2:
        cut = cut[: cut.rfind("**")]
    return cut.rstrip() + ELLIPSIS


REMINDER_RE = re.compile(r"\s*\([^()]*\)")


def without_reminder(line: str, keep: str | None = None) -> str:
    """`line` without parenthesised reminder text, unless that would lose `keep` (a symbol)."""
    stripped = REMINDER_RE.sub("", line).strip()
    if not stripped or (keep and keep in line and keep not in stripped):
        return line
    return stripped


def highlight(line: str, sym: str | None, emoji: Mapping[str, str] | None = None) -> str:
    """Escape a rules-text line and make `sym` bold wherever it occurs (adjacent copies bold together)."""
    if not sym or sym not in line:
        return render_symbols(escape(line), emoji)
    shown = symbol(sym, emoji) if emoji and sym.strip("{}").upper() in emoji else sym
    out: list[str] = []
    pos = 0
    for m in re.finditer(f"(?:{re.escape(sym)})+", line):
        out.append(render_symbols(escape(line[pos : m.start()]), emoji))
        out.append("**" + shown * (len(m.group(0)) // len(sym)) + "**")
        pos = m.end()
    out.append(render_symbols(escape(line[pos:]), emoji))
    return "".join(out)


def clip_line(line: str, sym: str | None, width: int = 180) -> str:
    """Shorten a long rules-text line around the first occurrence of `sym` (plain text, unescaped)."""
    if len(line) <= width:
        return line
    at = line.find(sym) if sym else -1
    if at < 0:
        return line[: width - 1].rstrip() + ELLIPSIS
    start = max(0, at - width // 2)
    end = min(len(line), start + width - 2)
    start = max(0, end - (width - 2))
    out = line[start:end]
    if start > 0:
        out = ELLIPSIS + out.lstrip()
    if end < len(line):
        out = out.rstrip() + ELLIPSIS
    return out


def join_limited(lines: Iterable[str], limit: int, *, sep: str = "\n", more: str = "…and {n} more") -> str:
    """Join lines without exceeding `limit`; lines that don't fit are summarised as '…and N more'."""
    items = list(lines)
    out: list[str] = []
    for i, line in enumerate(items):
        everything = sep.join([*out, *items[i:]])
        if len(everything) <= limit:
            return everything
        rest = len(items) - i - 1
        reserve = len(sep) + len(more.format(n=rest)) if rest else 0
        if len(sep.join([*out, line])) + reserve <= limit:
            out.append(line)
            continue
        left = len(items) - i
        if out:
            out.append(more.format(n=left))  # the previous step reserved room for exactly this note
        else:
            note = more.format(n=left - 1) if left > 1 else ""
            room = limit - (len(sep) + len(note) if note else 0)
            out.append(truncate(line, room))
            if note:
                out.append(note)
        break
    result = sep.join(out)
    return result if len(result) <= limit else truncate(result, limit)
