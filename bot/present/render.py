"""Text helpers for replies: mana symbols, color names, highlighting, escaping and safe truncation. An emoji
map's keys are Scryfall symbols without braces ("G/W"); a symbol the map lacks is shown as text, `{G/W}`."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from itertools import groupby

from bot.identity.model import WUBRG
from bot.present.i18n import N_, _
from bot.present.i18n import and_list as and_list
from bot.present.mana_art import normalize as symbol_key

ELLIPSIS = "\u2026"
MAX_ECHO = 100  # characters of user input echoed back in a reply
COLOR_NAMES = {"W": N_("white"), "U": N_("blue"), "B": N_("black"), "R": N_("red"), "G": N_("green")}
SYMBOL_RE = re.compile(r"\{[^{}\n]{1,20}\}")

EMBED_COLORS = {"W": 0xF3E9C6, "U": 0x1E88E5, "B": 0x3C3245, "R": 0xE53935, "G": 0x2E7D32}
GOLD = 0xD4AF37
GREY = 0x9E9E9E
FITS_COLOR = 0x2ECC71
MISFIT_COLOR = 0xE74C3C
CONDITIONAL_COLOR = 0xF1C40F  # fits once a color is chosen
CANT_EXIST_COLOR = 0x8E44AD  # no legal deck: the verdict is about the deck, not the card's colors

Emoji = Mapping[str, str] | None


def identity_color(colors: str) -> int:
    present = [c for c in WUBRG if c in colors]
    return EMBED_COLORS[present[0]] if len(present) == 1 else GOLD if present else GREY


def color_name(letter: str) -> str:
    """'B' -> 'black' in the reply's language."""
    return _(COLOR_NAMES[letter]) if letter in COLOR_NAMES else letter


def color_words(colors: Iterable[str]) -> str:
    """The one way the bot names a set of colors, in WUBRG order: 'BR' -> 'black and red'; '' -> 'colorless'."""
    present = set(colors)
    return and_list(color_name(c) for c in WUBRG if c in present) or _("colorless")


def colon(label: str, text: str) -> str:
    """'label: text' punctuated in the reply's language (fr: a no-break space before the colon)."""
    return _("{line}: {text}").format(line=label, text=text)


def symbol(sym: str, emoji: Emoji = None) -> str:
    key = symbol_key(sym)
    return (emoji or {}).get(key) or "{" + key + "}"


def render_symbols(text: str, emoji: Emoji = None) -> str:
    if not emoji or "{" not in text:
        return text
    return SYMBOL_RE.sub(lambda m: emoji.get(symbol_key(m.group(0))) or m.group(0), text)


def pips(colors: str, emoji: Emoji = None) -> str:
    """'{B}{R} black and red'; plain 'colorless' (no `{C}` pip: that is the colorless *mana* symbol)."""
    shown = "".join(symbol(c, emoji) for c in WUBRG if c in colors)
    return f"{shown} {color_words(colors)}" if shown else _("colorless")


def bold_runs(parts: Iterable[tuple[str, bool]], sep: str = "") -> str:
    """Join (text, bold) parts, each run of bold parts inside one pair of `**`."""
    runs = ((bold, sep.join(text for text, _bold in run)) for bold, run in groupby(parts, key=lambda p: p[1]))
    return sep.join(f"**{text}**" if bold else text for bold, text in runs)


def highlight(line: str, symbols: Collection[str], emoji: Emoji = None) -> str:
    """A rules-text line escaped for Discord, every `{X}` rendered and the runs of `symbols` in bold."""
    parts: list[tuple[str, bool]] = []
    pos = 0
    for m in SYMBOL_RE.finditer(line):
        if m.start() > pos:
            parts.append((render_symbols(escape(line[pos : m.start()]), emoji), False))
        raw, pos = m.group(0), m.end()
        parts.append((symbol(raw, emoji) if raw in symbols or emoji else escape(raw), raw in symbols))
    parts.append((render_symbols(escape(line[pos:]), emoji), False))
    return bold_runs(parts)


# Discord markdown: emphasis, code, strike, spoiler and escape characters anywhere; quotes, headings,
# list items and masked links at the start of a line. URLs are left alone (escaping them breaks them).
_MARKDOWN_RE = re.compile(
    r"(?P<url>https?://[^\s<]+[^<.,:;\"'\]\s])|(?P<md>[_\\~|*`]|^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-)",
    re.MULTILINE,
)
# @everyone, @here, user (@123...), nickname (@!123...) and role (@&123...) mentions.
_MENTION_RE = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")


_ESCAPED_RE = re.compile(r"[_\\~|*`>\[#\-@]")  # a character every pattern above starts or needs


def escape(text: str) -> str:
    """Escape markdown and mentions in text from outside (card data or user input)."""
    if not _ESCAPED_RE.search(text):
        return text  # most card names and lines: nothing to escape, found in one quick scan
    escaped = _MARKDOWN_RE.sub(lambda m: m.group("url") or "\\" + m.group("md"), text)
    return _MENTION_RE.sub("@\u200b\\1", escaped)


def echo(user_text: str, limit: int = MAX_ECHO) -> str:
    """User input made safe to show back: one line, truncated, markdown and mentions escaped."""
    return escape(truncate(" ".join(str(user_text).split()), limit))


def truncate(text: str, limit: int) -> str:
    if limit <= 0:
        return ""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rstrip("\\")  # never a dangling backslash escape or unbalanced bold at the cut
    if cut.count("**") % 2:
        cut = cut[: cut.rfind("**")]
    return cut.rstrip() + ELLIPSIS


def clip_line(line: str, sym: str | None, width: int = 90) -> str:
    """A rules-text line cut to about `width` characters between words, keeping `sym` in view."""
    if len(line) <= width:
        return line
    at = line.find(sym) if sym else -1
    start = 0
    if at > width * 2 // 3:
        start = max(0, min(at - width // 3, len(line) - width + 1))
        space = line.find(" ", start)
        start = space + 1 if 0 <= space < at else start
    end = start + width - 2
    if end < len(line):
        space = line.rfind(" ", start, end)
        end = space if space > start + width // 2 else end
        if (brace := line.rfind("{", start, end)) > line.rfind("}", start, end):
            end = brace  # don't split a symbol
    out = line[start:end].strip()
    if start > 0:
        out = ELLIPSIS + out
    if end < len(line):
        out = out.rstrip(" ,;:") + ELLIPSIS
    return out


def join_limited(lines: Iterable[str], limit: int) -> str:
    """As many lines as fit in `limit`, then '…and N more' (the first line cut when not even it fits)."""
    items, more = list(lines), _("\u2026and {n} more")
    for keep in range(len(items), 0, -1):
        text = "\n".join(items[:keep] + ([more.format(n=len(items) - keep)] if keep < len(items) else []))
        if len(text) <= limit:
            return text
    if not items:
        return ""
    note = "\n" + more.format(n=len(items) - 1) if len(items) > 1 else ""
    return truncate(truncate(items[0], limit - len(note)) + note, limit)
