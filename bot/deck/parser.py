"""Decklist reading: which format a text is (read from the text itself; a file name only breaks a tie), then
that format's reader (`formats/`). Pure. Every line a reader can't read becomes a `ParseProblem`."""

from __future__ import annotations

import contextlib

from bot.cards.names import MAX_INPUT_CHARS
from bot.deck.entries import MAX_BYTES as MAX_BYTES
from bot.deck.entries import DeckFormat, ListUnit, check_length
from bot.deck.entries import DeckInputError as DeckInputError
from bot.deck.entries import InputIssue as InputIssue
from bot.deck.entries import ParsedDeck as ParsedDeck
from bot.deck.entries import Section as Section
from bot.deck.formats import forge, table, xmage, xmlfiles
from bot.deck.formats.lines import QUOTES
from bot.deck.formats.lines import parse_card_line as parse_card_line
from bot.deck.formats.oneline import split_entries
from bot.deck.formats.text import read_text


def decode(data: bytes) -> str:
    """Decode an uploaded decklist; raise DeckInputError for binary or oversized input."""
    if len(data) > MAX_BYTES:
        raise DeckInputError(InputIssue.TOO_BIG, size=len(data), limit=MAX_BYTES)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a byte-order mark (Windows Notepad)
        encodings: tuple[str, ...] = ("utf-16",)
    else:
        encodings = () if b"\x00" in data else ("utf-8-sig", "cp1252")
    for encoding in encodings:
        with contextlib.suppress(UnicodeDecodeError):
            return data.decode(encoding)
    raise DeckInputError(InputIssue.NOT_TEXT)


def detect(lines: list[str], filename: str | None = None) -> DeckFormat:
    """The format of a multi-line text; `filename`'s extension breaks a tie only."""
    if xml := xmlfiles.detect(lines):
        return xml
    if forge.detect(lines):
        return DeckFormat.FORGE
    if xmage.detect(lines):
        return DeckFormat.XMAGE
    if table.detect(lines, prefer=bool(filename and filename.lower().endswith(".csv"))):
        return DeckFormat.CSV
    return DeckFormat.TEXT


def parse(text: str, *, filename: str | None = None) -> ParsedDeck:
    """Read a decklist in any format, multi-line or pasted on one line; DeckInputError when too big or empty."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise DeckInputError(InputIssue.TOO_BIG, size=None, limit=MAX_BYTES)
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    non_blank = [raw for raw in lines if raw.strip()]
    pasted = non_blank[0] if len(non_blank) == 1 and not xmlfiles.detect(lines) else ""  # XML needs no lines
    pieces = (forge.unfold(pasted) or split_entries(pasted.translate(QUOTES))) if pasted else []
    if len(pieces) > 1:
        check_length(len(pieces), ListUnit.ENTRIES)
        deck = ParsedDeck(lines_read=len(pieces), format=DeckFormat.ONE_LINE)
        read = forge.read if forge.detect(pieces) else xmage.read if xmage.detect(pieces) else read_text
        read(pieces, deck)
    else:
        kind = detect(lines, filename)
        deck = ParsedDeck(lines_read=len(lines), format=kind)
        xml = kind in (DeckFormat.COCKATRICE, DeckFormat.MTGO_DEK)
        if not xml:  # an XML file counts its cards instead
            check_length(len(non_blank), ListUnit.LINES)
        readers = {DeckFormat.FORGE: forge.read, DeckFormat.XMAGE: xmage.read, DeckFormat.CSV: table.read}
        (xmlfiles.read if xml else readers.get(kind, read_text))(lines, deck)
    if not deck.entries and not deck.problems:
        raise DeckInputError(InputIssue.NO_CARDS)
    return deck


def card_query_text(value: str) -> str:
    """The card name in what was typed (a card option, a terminal argument), read as the deck parser reads a
    card line (`1 Sol Ring (C21) 263`); else as typed."""
    line = parse_card_line(value) if len(value) <= MAX_INPUT_CHARS * 4 else None
    return line.name if line is not None else value
