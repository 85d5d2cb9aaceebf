"""Line-per-card text lists: plain, Arena, Moxfield, Archidekt, TappedOut and MTGO `.txt` exports. Pure.
MTGO's `.txt` has no section marks: main deck, one blank line, sideboard (which, in a Commander deck, holds
the commanders)."""

from __future__ import annotations

from dataclasses import replace

from bot.deck.entries import DeckEntry, ParsedDeck, Section, commanders_from_sideboard
from bot.deck.formats.lines import QUOTES, SB_RE, header, read_entry

MIN_MAIN = 40  # the smallest constructed main deck
MAX_SIDEBOARD = 15  # the largest constructed sideboard


def read_lines(records: list[tuple[int, str]], deck: ParsedDeck) -> bool:
    """Read numbered lines into `deck`. True when a line set a section or marked a commander."""
    marked, section = False, Section.MAIN
    for number, raw in records:
        text = raw.translate(QUOTES).strip()
        head = header(text) if text else None
        if head is not None:
            if head[1] is not None:
                section, marked = head[1], True
        elif not text or text.startswith(("//", "#")):
            continue  # blank or a comment line
        elif section is Section.ABOUT:  # deck metadata, not cards
            key, _, value = text.partition(" ")
            if key.lower() == "name" and value.strip():
                deck.deck_name = value.strip()
        else:
            card = read_entry(text, section)
            deck.add(number, raw, card)
            marked |= isinstance(card, DeckEntry) and (card.section is not section or card.commander_marker)
    return marked


def read_text(lines: list[str], deck: ParsedDeck) -> None:
    """A whole multi-line list (`lines` numbered from 1)."""
    if not read_lines(list(enumerate(lines, start=1)), deck):
        _mtgo_sideboard(lines, deck)
    elif any(SB_RE.match(lines[e.line - 1].lstrip()) for e in deck.entries if e.section is Section.SIDEBOARD):
        commanders_from_sideboard(deck)  # MTGO/XMage `SB:` lines: the sideboard is the command zone


def _mtgo_sideboard(lines: list[str], deck: ParsedDeck) -> None:
    """MTGO `.txt`: main deck, blank line(s), sideboard: the only gap between card lines splits the two."""
    numbers = [e.line for e in deck.entries] + [p.line for p in deck.problems]
    if not deck.entries:
        return
    gaps = [n for n in range(min(numbers), max(numbers)) if not lines[n - 1].strip() and lines[n].strip()]
    if len(gaps) != 1:
        return
    gap = gaps[0]
    main = sum(e.count for e in deck.entries if e.line <= gap)
    side = sum(e.count for e in deck.entries if e.line > gap)
    if main >= MIN_MAIN and 1 <= side <= MAX_SIDEBOARD:
        deck.entries = [replace(e, section=Section.SIDEBOARD) if e.line > gap else e for e in deck.entries]
        commanders_from_sideboard(deck)
