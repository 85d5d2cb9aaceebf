"""CSV exports with a header row (Moxfield, Deckbox, Archidekt, ManaBox, ...), read with `csv`. Pure. A header
needs a name column and a count, set or number column (with a `.csv` file name, a name column is enough), so
a plain list is never read as a table."""

from __future__ import annotations

import csv
import re

from bot.deck.entries import ParsedDeck, Section
from bot.deck.formats.lines import SECTION_WORDS, card_from_fields

_COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "card name", "card", "cardname", "card_name"),
    "count": ("count", "quantity", "qty", "amount"),
    "set": ("edition", "set code", "set", "edition code", "set_code", "setcode"),
    "number": ("collector number", "card number", "collector_number", "collectornumber", "collector #"),
    "foil": ("foil", "finish", "printing"),
    "section": ("board", "section", "zone", "category", "categories"),
}
_DELIMITERS = (",", ";", "\t")
_FOILS = {"foil", "etched", "true", "yes", "1"}
_EXCLUDED = {"nodeck", "maybeboard", "maybe", "sideboard", "considering", "tokens"}


def _columns(cells: list[str]) -> dict[str, int]:
    """Known column -> its index, from a header row."""
    labels = [cell.strip().strip('"').lower() for cell in cells]
    hits = {key: [i for i, label in enumerate(labels) if label in names] for key, names in _COLUMNS.items()}
    return {key: indexes[0] for key, indexes in hits.items() if indexes}


def _header(lines: list[str]) -> tuple[int, str, dict[str, int]] | None:
    """(header line index, delimiter, columns): the delimiter that finds the most known columns."""
    if not (rows := [i for i, line in enumerate(lines) if line.strip()][:2]):
        return None
    best: tuple[int, str, dict[str, int]] | None = None
    for delimiter in _DELIMITERS:
        cells, *data = csv.reader([lines[i] for i in rows], delimiter=delimiter)
        columns = _columns(cells)
        if all(len(row) == len(cells) for row in data) and (best is None or len(columns) > len(best[2])):
            best = (rows[0], delimiter, columns)
    return best


def detect(lines: list[str], *, prefer: bool = False) -> bool:
    if (found := _header(lines)) is None or "name" not in found[2]:
        return False
    return prefer or bool({"count", "set", "number"} & set(found[2]))


def _section(value: str) -> Section:
    words = {w.strip().lower() for w in re.split(r"[,;{}]", value) if w.strip()}
    if words & {"commander", "commanders"}:
        return Section.COMMANDER
    if excluded := sorted(words & _EXCLUDED):
        return SECTION_WORDS.get(excluded[0], Section.MAYBEBOARD)
    return next((SECTION_WORDS[w] for w in sorted(words) if w in SECTION_WORDS), Section.MAIN)


def read(lines: list[str], deck: ParsedDeck) -> None:
    if (found := _header(lines)) is None:
        return
    start, delimiter, columns = found
    reader = csv.reader(lines[start + 1 :], delimiter=delimiter)
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        cell = dict.fromkeys(_COLUMNS, "") | {key: row[i] for key, i in columns.items() if i < len(row)}
        foil, where = cell["foil"].strip().lower() in _FOILS, _section(cell["section"])
        card = card_from_fields(
            cell["count"], cell["name"], where, set_code=cell["set"], number=cell["number"], foil=foil
        )
        deck.add(start + 1 + reader.line_num, delimiter.join(row), card)
