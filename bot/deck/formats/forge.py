"""Forge `.dck` files, pure: `[metadata]` `Key=value` lines, then `[Commander]`, `[Main]`, ... sections of
`N Name|SET|art` card lines (a `+` after the name marks a foil)."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.deck.entries import DeckEntry, LineIssue, ParsedDeck, Section
from bot.deck.formats.lines import read_entry

_SECTIONS: dict[str, Section | None] = {
    **dict.fromkeys(("metadata", "general")),
    "commander": Section.COMMANDER,
    "main": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    **dict.fromkeys(
        ("avatar", "planes", "schemes", "conspiracy", "dungeon", "attractions", "contraptions"),
        Section.TOKENS,
    ),
}
_SECTION_RE = re.compile(r"^\s*\[(?P<name>[A-Za-z]+)\]\s*$")
_PASTED_SECTION_RE = re.compile(r"(\[(?:" + "|".join(_SECTIONS) + r")\])", re.IGNORECASE)
# Where a line began in a pasted section: before a `Key=` in metadata, before a card's count elsewhere. Each
# run of spaces is tried once, from its start (`(?<!\s)`): linear.
_CUTS = (re.compile(r"(?<!\s)\s+(?=[0-9]{1,3}\s)"), re.compile(r"(?<!\s)\s+(?=(?:Deck |Custom )?[A-Z]\w*=)"))


def _header(line: str) -> str | None:
    """The Forge section a line opens, lower case; None when it opens none."""
    m = _SECTION_RE.match(line)
    return m.group("name").lower() if m and m.group("name").lower() in _SECTIONS else None


def detect(lines: list[str]) -> bool:
    return any(_header(line) for line in lines)


def unfold(line: str) -> list[str]:
    """A Forge file pasted on one line (it starts with a section), cut back into its lines; else []."""
    parts = [part.strip() for part in _PASTED_SECTION_RE.split(line.strip())]
    out: list[str] = []
    for i, part in enumerate(parts[1:]):
        if i % 2 == 0:
            out.append(part)
            metadata = _SECTIONS[part[1:-1].lower()] is None
        elif part:
            out += _CUTS[metadata].split(part)
    return out if len(parts) > 1 and not parts[0] else []


def _card(text: str, section: Section) -> DeckEntry | LineIssue:
    name_part, _, rest = text.partition("|")
    foil = name_part.rstrip().endswith("+")
    card = read_entry(name_part.rstrip().removesuffix("+"), section)
    if isinstance(card, LineIssue):
        return card
    set_code = rest.split("|", 1)[0].strip().lower()
    return replace(card, set_code=set_code or card.set_code, foil=card.foil or foil)


def read(lines: list[str], deck: ParsedDeck) -> None:
    section: Section | None = None  # metadata until the first card section
    for number, raw in enumerate(lines, start=1):
        if not (text := raw.strip()) or text.startswith(("#", "//")):
            continue
        if name := _header(text):
            section = _SECTIONS[name]
            continue
        key, sep, value = text.partition("=")
        if section is None and sep:  # metadata: Name=, Comment=, Deck Type=, Tags=, ...
            if key.strip().lower() == "name" and value.strip():
                deck.deck_name = value.strip()
            continue
        deck.add(number, raw, _card(text, section or Section.MAIN))  # a card before any section: the deck's
