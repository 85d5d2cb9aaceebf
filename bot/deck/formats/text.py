"""Line-per-card text lists: plain, Arena, Moxfield, Archidekt, TappedOut and MTGO `.txt` exports. Pure.

Section headers switch the section of the lines after them; `//` and `#` lines are comments; Arena's `About`
section holds `Name <deck name>`. In a list that marks its sideboard with MTGO's `SB:` lines, a Commander
deck's sideboard holds its commanders. MTGO's `.txt` writes the main deck, one blank line, then the sideboard: a list
without headers or section marks laid out that way (a main deck of at least 40 cards, a sideboard of at most
15) reads the second part as the sideboard, and a Commander deck's sideboard holds its commanders
(`entries.commanders_from_sideboard`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.deck.entries import CardLine, ParsedDeck, Section, commanders_from_sideboard
from bot.deck.formats.lines import QUOTES, header, read_entry

_SB_PREFIX = re.compile(r"\s*SB:", re.IGNORECASE)
MIN_MAIN = 40  # the smallest constructed main deck
MAX_SIDEBOARD = 15  # the largest constructed sideboard


def read_lines(records: list[tuple[int, str]], deck: ParsedDeck, section: Section = Section.MAIN) -> bool:
    """Read numbered lines into `deck`, starting in `section`. True when a line set a section (a header, a
    `Commander:`/`SB:` prefix or an Archidekt category) or marked a commander."""
    marked = False
    for number, raw in records:
        text_line = raw.translate(QUOTES).strip()
        head = header(text_line) if text_line else None
        if head is not None:
            kind, new_section = head
            if kind == "section" and new_section is not None:
                section, marked = new_section, True
            continue
        if not text_line or text_line.startswith(("//", "#")):
            continue  # blank or a comment line
        if section is Section.ABOUT:
            key, _, value = text_line.partition(" ")
            if key.lower() == "name" and value.strip():
                deck.deck_name = value.strip()
            continue  # deck metadata, not cards
        card = read_entry(text_line)
        deck.add(number, raw, card, section)
        if isinstance(card, CardLine) and (
            card.section is not None or card.excluded or card.commander_marker
        ):
            marked = True
    return marked


def read_text(lines: list[str], deck: ParsedDeck) -> None:
    """A whole multi-line list (`lines` numbered from 1)."""
    if not read_lines(list(enumerate(lines, start=1)), deck):
        _mtgo_sideboard(lines, deck)
    elif any(_SB_PREFIX.match(lines[e.line - 1]) for e in deck.entries if e.section is Section.SIDEBOARD):
        commanders_from_sideboard(deck)  # MTGO/XMage `SB:` lines: the sideboard is the command zone


def _mtgo_sideboard(lines: list[str], deck: ParsedDeck) -> None:
    """MTGO `.txt`: main deck, blank line(s), sideboard: the only gap between card lines splits the two."""
    if not deck.entries:
        return
    numbers = [e.line for e in deck.entries] + [p.line for p in deck.problems]
    first, last = min(numbers), max(numbers)
    gaps = [n for n in range(first, last) if not lines[n - 1].strip() and lines[n].strip()]
    if len(gaps) != 1:
        return
    split = gaps[0]
    main = sum(e.count for e in deck.entries if e.line <= split)
    side = sum(e.count for e in deck.entries if e.line > split)
    if main < MIN_MAIN or not 1 <= side <= MAX_SIDEBOARD:
        return
    deck.entries = [replace(e, section=Section.SIDEBOARD) if e.line > split else e for e in deck.entries]
    commanders_from_sideboard(deck)
