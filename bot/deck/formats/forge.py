"""Forge `.dck` files. Pure.

Forge writes an INI-like file: a `[metadata]` section of `Key=value` lines (`Name=` is the deck's name; older
files use `[general]`), then one section per part of the deck, `[Commander]`, `[Main]`, `[Sideboard]` and the
non-deck ones (`[Avatar]`, `[Planes]`, `[Schemes]`, `[Conspiracy]`, `[Dungeon]`, `[Attractions]`,
`[Contraptions]`). A card line is `N Name|SET|art` (set code and art index optional, more `|` fields possible);
a `+` after the name marks a foil. Section names are matched without case.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.deck.entries import CardLine, LineIssue, ParsedDeck, Section
from bot.deck.formats.lines import read_entry

_SECTIONS: dict[str, Section | None] = {
    "metadata": None,
    "general": None,
    "commander": Section.COMMANDER,
    "main": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "avatar": Section.TOKENS,
    "planes": Section.TOKENS,
    "schemes": Section.TOKENS,
    "conspiracy": Section.TOKENS,
    "dungeon": Section.TOKENS,
    "attractions": Section.TOKENS,
    "contraptions": Section.TOKENS,
}
_SECTION_RE = re.compile(r"^\s*\[(?P<name>[A-Za-z]+)\]\s*$")


def _section(line: str) -> tuple[bool, Section | None]:
    """(is a Forge section header, its section: None for metadata)."""
    m = _SECTION_RE.match(line)
    if m is None or m.group("name").lower() not in _SECTIONS:
        return False, None
    return True, _SECTIONS[m.group("name").lower()]


def detect(lines: list[str]) -> bool:
    return any(_section(line)[0] for line in lines)


def _card(text: str) -> CardLine | LineIssue:
    name_part, _, rest = text.partition("|")
    foil = name_part.rstrip().endswith("+")
    card = read_entry(name_part.rstrip().removesuffix("+"))
    if isinstance(card, LineIssue):
        return card
    set_code = rest.split("|", 1)[0].strip()
    return replace(card, set_code=set_code.lower() or card.set_code, foil=card.foil or foil)


def read(lines: list[str], deck: ParsedDeck) -> None:
    section: Section | None = None  # metadata until the first card section
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith(("#", "//")):
            continue
        is_header, new_section = _section(text)
        if is_header:
            section = new_section
            continue
        key, sep, value = text.partition("=")
        if section is None and sep:  # metadata: Name=, Comment=, Deck Type=, Tags=, ...
            if key.strip().lower() == "name" and value.strip():
                deck.deck_name = value.strip()
            continue
        deck.add(number, raw, _card(text), section or Section.MAIN)  # a card before any section: the deck's
