"""XML deck files: Cockatrice `.cod` (`<card>`s in `<zone>`s) and MTGO `.dek` (`<Cards Sideboard=...>`), read
with expat. Both keep a Commander deck's commanders in the sideboard. A document type declaration (and with it
any entity) is refused: a deck file never needs one."""

from __future__ import annotations

from xml.parsers import expat

from bot.deck.entries import (
    DeckFormat,
    DeckInputError,
    InputIssue,
    ListUnit,
    ParsedDeck,
    Section,
    check_length,
    commanders_from_sideboard,
)
from bot.deck.formats.lines import SECTION_WORDS, card_from_fields

_ROOTS = {"cockatrice_deck": DeckFormat.COCKATRICE, "Deck": DeckFormat.MTGO_DEK}
_CARD_TAGS = {DeckFormat.COCKATRICE: "card", DeckFormat.MTGO_DEK: "Cards"}


def detect(lines: list[str]) -> DeckFormat | None:
    """Cockatrice or MTGO when the text is XML with that root element."""
    text = "\n".join(lines).lstrip()
    return next((kind for root, kind in _ROOTS.items() if text[:1] == "<" and f"<{root}" in text), None)


def _refuse_doctype(*_: object) -> None:
    raise DeckInputError(InputIssue.DOCTYPE)


def _cards(text: str, card_tag: str) -> tuple[list[tuple[int, str | None, dict[str, str]]], str]:
    """The card elements (line, enclosing Cockatrice zone, attributes) and the first `<deckname>`'s text."""
    parser = expat.ParserCreate()
    cards: list[tuple[int, str | None, dict[str, str]]] = []
    zones: list[str | None] = [None]
    tags: list[str] = []
    names: list[list[str]] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        tags.append(tag)
        zones.append(attrs.get("name") if tag == "zone" else zones[-1])
        if tag == "deckname":
            names.append([])
        if tag == card_tag:
            cards.append((parser.CurrentLineNumber, zones[-1], attrs))

    def end(tag: str) -> None:
        tags.pop()
        zones.pop()

    def chars(data: str) -> None:
        if tags and tags[-1] == "deckname":
            names[-1].append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = _refuse_doctype
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise DeckInputError(InputIssue.NOT_XML, detail=expat.errors.messages[exc.code]) from exc
    return cards, "".join(names[0]).strip() if names else ""


def _section(kind: DeckFormat, zone: str | None, attrs: dict[str, str]) -> Section:
    if kind is DeckFormat.MTGO_DEK:
        return Section.SIDEBOARD if attrs.get("Sideboard", "").strip().lower() == "true" else Section.MAIN
    if "command" in (word := (zone or "").strip().lower()):
        return Section.COMMANDER
    sections = {"main": Section.MAIN, "side": Section.SIDEBOARD}
    return sections.get(word) or SECTION_WORDS.get(word, Section.TOKENS)


def read(lines: list[str], deck: ParsedDeck) -> None:
    """Read a Cockatrice or MTGO XML deck into `deck` (`deck.format` says which)."""
    kind = deck.format or DeckFormat.COCKATRICE
    cards, deck_name = _cards("\n".join(lines), _CARD_TAGS[kind])
    check_length(len(cards), ListUnit.CARD_ENTRIES)
    deck.deck_name = deck_name or None
    cockatrice = kind is DeckFormat.COCKATRICE
    for line, zone, attrs in cards:
        name = attrs.get("name" if cockatrice else "Name", "")
        count, where = attrs.get("number" if cockatrice else "Quantity"), _section(kind, zone, attrs)
        number = attrs.get("collectorNumber")
        card = card_from_fields(count, name, where, set_code=attrs.get("setShortName"), number=number)
        deck.add(line, lines[line - 1] if 0 < line <= len(lines) else name, card)
    commanders_from_sideboard(deck)
