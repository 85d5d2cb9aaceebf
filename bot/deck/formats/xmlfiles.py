"""XML deck files: Cockatrice `.cod` and MTGO `.dek`. Pure; read with the standard library's expat parser.

- Cockatrice: `<cockatrice_deck>` holds `<deckname>` and `<zone name="main|side|tokens|...">` of
  `<card number="N" name="..." setShortName="..." collectorNumber="..."/>`;
- MTGO: `<Deck>` holds `<Cards Quantity="N" Sideboard="true|false" Name="..."/>`.

Both keep a Commander deck's commanders in the sideboard. A document type declaration (and with it any
entity) is refused: a deck file never needs one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.parsers import expat

from bot.deck.entries import (
    DeckFormat,
    DeckInputError,
    InputIssue,
    ListUnit,
    ParsedDeck,
    Section,
    commanders_from_sideboard,
)
from bot.deck.formats.lines import SECTION_WORDS, card_from_fields

_ROOTS = {"cockatrice_deck": DeckFormat.COCKATRICE, "Deck": DeckFormat.MTGO_DEK}
_CARD_TAGS = {DeckFormat.COCKATRICE: "card", DeckFormat.MTGO_DEK: "Cards"}


@dataclass(slots=True)
class _Element:
    tag: str
    attrs: dict[str, str]
    line: int
    zone: str | None  # the enclosing Cockatrice zone's name
    text: list[str] = field(default_factory=list)


def detect(lines: list[str]) -> DeckFormat | None:
    """Cockatrice or MTGO when the text is XML with that root element."""
    text = "\n".join(lines).lstrip()
    if not text.startswith("<"):
        return None
    for root, kind in _ROOTS.items():
        if f"<{root}" in text:
            return kind
    return None


def _refuse_doctype(*_: object) -> None:
    raise DeckInputError(InputIssue.DOCTYPE)


def _elements(text: str) -> list[_Element]:
    """Every element with its attributes, line and enclosing zone, in document order."""
    parser = expat.ParserCreate()
    out: list[_Element] = []
    open_stack: list[_Element] = []
    zone: list[str | None] = [None]

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "zone":
            zone.append(attrs.get("name"))
        element = _Element(tag, attrs, parser.CurrentLineNumber, zone[-1])
        out.append(element)
        open_stack.append(element)

    def end(tag: str) -> None:
        open_stack.pop()
        if tag == "zone":
            zone.pop()

    def chars(data: str) -> None:
        if open_stack:
            open_stack[-1].text.append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = _refuse_doctype
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise DeckInputError(InputIssue.NOT_XML, detail=expat.errors.messages[exc.code]) from exc
    return out


def _zone_section(name: str | None) -> Section:
    word = (name or "").strip().lower()
    if "command" in word:
        return Section.COMMANDER
    return {"main": Section.MAIN, "side": Section.SIDEBOARD}.get(word) or SECTION_WORDS.get(
        word, Section.TOKENS
    )


def read(lines: list[str], deck: ParsedDeck, max_cards: int) -> None:
    """Read a Cockatrice or MTGO XML deck into `deck` (`deck.format` says which)."""
    kind = deck.format or DeckFormat.COCKATRICE
    elements = _elements("\n".join(lines))
    cards = [e for e in elements if e.tag == _CARD_TAGS[kind]]
    if len(cards) > max_cards:
        raise DeckInputError(
            InputIssue.TOO_LONG, count=len(cards), unit=ListUnit.CARD_ENTRIES, limit=max_cards
        )
    name = next(("".join(e.text).strip() for e in elements if e.tag == "deckname"), "")
    deck.deck_name = name or None
    for e in cards:
        if kind is DeckFormat.COCKATRICE:
            section, count = _zone_section(e.zone), e.attrs.get("number")
            set_code, number = e.attrs.get("setShortName"), e.attrs.get("collectorNumber")
        else:
            sideboard = e.attrs.get("Sideboard", "").strip().lower() == "true"
            section, count = (Section.SIDEBOARD if sideboard else Section.MAIN), e.attrs.get("Quantity")
            set_code = number = None
        raw = lines[e.line - 1] if 0 < e.line <= len(lines) else e.attrs.get("name", "")
        name_attr = e.attrs.get("name" if kind is DeckFormat.COCKATRICE else "Name", "")
        deck.add(e.line, raw, card_from_fields(count, name_attr, section, set_code=set_code, number=number))
    commanders_from_sideboard(deck)
