"""XMage `.dck` files (`NAME:`, `N [SET:NUM] Name`, `SB: ...`, `LAYOUT ...`). Pure. In a Commander deck the
sideboard is the command zone: it holds the commanders."""

from __future__ import annotations

import re

from bot.deck.entries import ParsedDeck, commanders_from_sideboard
from bot.deck.formats.text import read_lines

_CARD_RE = re.compile(r"^\s*(?:SB:\s*)?[0-9]+\s+\[[A-Za-z0-9]{2,6}:[A-Za-z0-9★†\-]*\]\s+\S")
_META_RE = re.compile(r"^\s*(?:(?P<key>NAME|AUTHOR):|LAYOUT\s)(?P<value>.*)$")


def detect(lines: list[str]) -> bool:
    return any(_CARD_RE.match(line) or _META_RE.match(line) for line in lines)


def read(lines: list[str], deck: ParsedDeck) -> None:
    cards: list[tuple[int, str]] = []
    for number, raw in enumerate(lines, start=1):
        if (meta := _META_RE.match(raw)) is None:
            cards.append((number, raw))
        elif meta.group("key") == "NAME" and meta.group("value").strip():
            deck.deck_name = meta.group("value").strip()
    read_lines(cards, deck)
    commanders_from_sideboard(deck)
