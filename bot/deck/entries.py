"""What a decklist reader produces: entries in sections, unreadable lines as codes, the limits. Pure data."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

MAX_LINES = 300  # non-blank lines, entries or cards: a Commander list with sideboard and maybeboard fits
MAX_BYTES = 64 * 1024
MAX_NAME_LENGTH = 200
MAX_COUNT = 999


class Section(StrEnum):
    COMMANDER = "commander"
    MAIN = "main"
    SIDEBOARD = "sideboard"
    MAYBEBOARD = "maybeboard"
    COMPANION = "companion"
    TOKENS = "tokens"
    ABOUT = "about"


class LineIssue(StrEnum):
    """Why a line (or a card element or row of a deck file) can't be read; `bot.present.deck_lines` words it."""

    NO_NAME = "no_name"
    COUNT_ONLY = "count_only"  # `3`, `4x`
    ZERO_COUNT = "zero_count"
    COUNT_TOO_HIGH = "count_too_high"  # more than MAX_COUNT
    BAD_COUNT = "bad_count"  # a file's count field that is not a whole number
    NAME_TOO_LONG = "name_too_long"  # more than MAX_NAME_LENGTH characters
    CONTROL_CHARACTERS = "control_characters"
    HALF_SPLIT_NAME = "half_split_name"  # `Fire //`


class DeckFormat(StrEnum):
    TEXT = "text"  # one card per line: plain, Arena, Moxfield, Archidekt, TappedOut, MTGO .txt
    ONE_LINE = "one_line"  # a text list whose newlines became spaces
    FORGE = "forge"  # Forge .dck
    XMAGE = "xmage"  # XMage .dck
    COCKATRICE = "cockatrice"  # Cockatrice .cod (XML)
    MTGO_DEK = "mtgo_dek"  # MTGO .dek (XML)
    CSV = "csv"  # a table with a header row: Moxfield, Archidekt, ManaBox, Deckbox


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One card line of a decklist (`line` 1-based; 0 for a card read on its own)."""

    name: str
    count: int = 1
    line: int = 0
    section: Section = Section.MAIN
    set_code: str | None = None
    collector_number: str | None = None
    foil: bool = False
    commander_marker: bool = False  # *CMDR*, Archidekt [Commander], a Commander section or the file's mark
    # For `A // B` where `// B` may be a comment: the name without it (`A`); None when the line is clear.
    alternative: str | None = None

    @property
    def in_deck(self) -> bool:
        return self.section in (Section.COMMANDER, Section.MAIN)


@dataclass(frozen=True, slots=True)
class ParseProblem:
    """A line that can't be read: its number, its text and a `LineIssue` code as `reason` (words: present)."""

    line: int
    text: str
    reason: str


@dataclass(slots=True)
class ParsedDeck:
    entries: list[DeckEntry] = field(default_factory=list)  # every card line, any section
    problems: list[ParseProblem] = field(default_factory=list)
    deck_name: str | None = None
    lines_read: int = 0  # for a one-line paste: its entries, which `line` numbers count
    format: DeckFormat | None = None  # how the text was read; None for decks built elsewhere (deck links)

    @property
    def deck_entries(self) -> list[DeckEntry]:
        return [e for e in self.entries if e.in_deck]

    @property
    def commander_entries(self) -> list[DeckEntry]:
        return [e for e in self.entries if e.in_deck and e.commander_marker]

    @property
    def excluded_entries(self) -> list[DeckEntry]:
        return [e for e in self.entries if not e.in_deck]

    @property
    def card_count(self) -> int:
        return sum(e.count for e in self.deck_entries)

    def names(self) -> list[str]:
        """Distinct card names in the deck, in order of first appearance."""
        return list(dict.fromkeys(e.name for e in self.deck_entries))

    def add(self, line: int, raw: str, card: DeckEntry | LineIssue) -> None:
        """Record the card read on `line`, or its problem."""
        if isinstance(card, LineIssue):
            self.problems.append(ParseProblem(line, raw.strip(), card))
        else:
            self.entries.append(replace(card, line=line))


class InputIssue(StrEnum):
    """Why an input is not a decklist the check can read; `bot.present.deck_errors` words it."""

    TOO_BIG = "too_big"  # data: limit, size (bytes; size None when only "longer than" is known)
    NOT_TEXT = "not_text"  # binary, or no text encoding reads it
    TOO_LONG = "too_long"  # data: count, unit (a `ListUnit`), limit
    NO_CARDS = "no_cards"
    DOCTYPE = "doctype"  # an XML deck file that declares a document type
    NOT_XML = "not_xml"  # data: detail (the XML parser's own words)
    UNREADABLE_FILE = "unreadable_file"  # data: path, reason (the operating system's words)
    TOO_SLOW = "too_slow"  # reading or checking passed its deadline. data: limit (seconds)


class ListUnit(StrEnum):
    """What a too-long list counts (`InputIssue.TOO_LONG`)."""

    LINES = "lines"  # non-blank lines
    ENTRIES = "entries"  # entries of a list pasted on one line
    CARD_ENTRIES = "card_entries"  # card elements of an XML deck file


class DeckInputError(ValueError):
    """The input is not a decklist we can check: `code` (an `InputIssue` or a `DeckCheckCode`) and `data`."""

    def __init__(self, code: StrEnum, **data: Any) -> None:
        self.code = code
        self.data: dict[str, Any] = data
        super().__init__(f"{code.value} {data}" if data else code.value)


def check_length(count: int, unit: ListUnit) -> None:
    if count > MAX_LINES:
        raise DeckInputError(InputIssue.TOO_LONG, count=count, unit=unit, limit=MAX_LINES)


def commanders_from_sideboard(deck: ParsedDeck) -> None:
    """XMage, MTGO and Cockatrice keep the commanders in the sideboard (CR 903.6): one or two sideboard cards
    that make an unmarked deck exactly 100 (CR 903.5a) are its commanders."""
    side_cards = sum(e.count for e in deck.entries if e.section is Section.SIDEBOARD)
    if deck.commander_entries or not 1 <= side_cards <= 2 or deck.card_count + side_cards != 100:
        return
    deck.entries = [
        replace(e, section=Section.COMMANDER, commander_marker=True) if e.section is Section.SIDEBOARD else e
        for e in deck.entries
    ]
