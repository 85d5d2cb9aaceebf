"""Decklist reading: which format a text is, then that format's reader. Pure; no I/O.

The format is picked from what the text looks like (pasted text has no file name; a file name's extension is
only a hint), first match wins:

| format | recognised by | reader |
|---|---|---|
| Cockatrice `.cod` | XML whose root is `<cockatrice_deck>` | `formats.xmlfiles` |
| MTGO `.dek` | XML whose root is `<Deck>` | `formats.xmlfiles` |
| Forge `.dck` | a line `[metadata]`, `[Main]`, `[Commander]`, `[Sideboard]` or another Forge section | `formats.forge` |
| XMage `.dck` | a card line `N [SET:NUM] Name`, or a `NAME:` or `LAYOUT` line | `formats.xmage` |
| CSV export | a header row naming a card-name column and a count or set column | `formats.table` |
| one-line paste | a single non-blank line that holds several entries | `formats.oneline` |
| text list | everything else: plain, Arena, Moxfield, Archidekt, TappedOut, MTGO `.txt` | `formats.text` |

Every reader turns each line (row, element) it cannot read into a `ParseProblem` with its line number and a
`LineIssue` code; nothing is dropped silently. Sideboard, maybeboard, companion and token sections are read into
their `Section` but are not part of the deck. The data types live in `bot.deck.entries` and are re-exported here.
"""

from __future__ import annotations

from bot.deck.entries import (
    MAX_BYTES,
    MAX_COUNT,
    MAX_LINES,
    MAX_NAME_LENGTH,
    CardLine,
    DeckEntry,
    DeckFormat,
    DeckInputError,
    InputIssue,
    LineIssue,
    ListUnit,
    ParsedDeck,
    ParseProblem,
    Section,
)
from bot.deck.formats import forge, table, xmage, xmlfiles
from bot.deck.formats.lines import QUOTES, normalize_name, parse_card_line
from bot.deck.formats.oneline import split_entries
from bot.deck.formats.text import read_text

__all__ = [
    "MAX_BYTES",
    "MAX_COUNT",
    "MAX_LINES",
    "MAX_NAME_LENGTH",
    "CardLine",
    "DeckEntry",
    "DeckFormat",
    "DeckInputError",
    "InputIssue",
    "LineIssue",
    "ListUnit",
    "ParseProblem",
    "ParsedDeck",
    "Section",
    "decode",
    "detect",
    "normalize_name",
    "parse",
    "parse_card_line",
]


def decode(data: bytes) -> str:
    """Decode an uploaded decklist; raise DeckInputError for binary or oversized input."""
    if len(data) > MAX_BYTES:
        raise DeckInputError(InputIssue.TOO_BIG, size=len(data), limit=MAX_BYTES)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a byte-order mark (Windows Notepad)
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DeckInputError(InputIssue.NOT_TEXT) from exc
    if b"\x00" in data:
        raise DeckInputError(InputIssue.NOT_TEXT)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise DeckInputError(InputIssue.NOT_TEXT) from exc


def detect(lines: list[str], filename: str | None = None) -> DeckFormat:
    """The format of a multi-line text (see the table above); `filename`'s extension breaks a tie only."""
    xml = xmlfiles.detect(lines)
    if xml is not None:
        return xml
    if forge.detect(lines):
        return DeckFormat.FORGE
    if xmage.detect(lines):
        return DeckFormat.XMAGE
    if table.detect(lines, prefer=bool(filename and filename.lower().endswith(".csv"))):
        return DeckFormat.CSV
    return DeckFormat.TEXT


def _check_length(count: int, unit: ListUnit, max_lines: int) -> None:
    if count > max_lines:
        raise DeckInputError(InputIssue.TOO_LONG, count=count, unit=unit, limit=max_lines)


def parse(text: str, *, max_lines: int = MAX_LINES, filename: str | None = None) -> ParsedDeck:
    """Read a decklist in any format above, multi-line or pasted on one line. Raises DeckInputError when it is
    too long (more than `max_lines` non-blank lines, entries or cards) or holds no card at all."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise DeckInputError(InputIssue.TOO_BIG, size=None, limit=MAX_BYTES)
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    non_blank = [(number, raw) for number, raw in enumerate(lines, start=1) if raw.strip()]
    pieces = split_entries(non_blank[0][1].translate(QUOTES)) if len(non_blank) == 1 else []
    if len(pieces) > 1:
        _check_length(len(pieces), ListUnit.ENTRIES, max_lines)
        deck = ParsedDeck(lines_read=len(pieces), one_line=True, format=DeckFormat.ONE_LINE)
        (xmage.read if xmage.detect(pieces) else read_text)(pieces, deck)
    else:
        kind = detect(lines, filename)
        deck = ParsedDeck(lines_read=len(lines), format=kind)
        if kind in (DeckFormat.COCKATRICE, DeckFormat.MTGO_DEK):
            xmlfiles.read(lines, deck, max_lines)
        else:
            _check_length(len(non_blank), ListUnit.LINES, max_lines)
            reader = {DeckFormat.FORGE: forge.read, DeckFormat.XMAGE: xmage.read, DeckFormat.CSV: table.read}
            reader.get(kind, read_text)(lines, deck)
    if not deck.entries and not deck.problems:
        raise DeckInputError(InputIssue.NO_CARDS)
    return deck
