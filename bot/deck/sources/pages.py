"""Deck sites answering with pages or exports (TappedOut, MTGGoldfish, Deckstats, Scryfall, the Aetherhub page),
each shape they had over the years. Linear in the input: `tags` walks markup with patterns that never
backtrack; JSON and CSV: the standard library."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Mapping
from html import unescape
from typing import Any

from bot.deck.entries import Section
from bot.deck.sources.links import DeckLink, Site
from bot.deck.sources.result import Ask, FetchedDeck, RawEntry, build, not_a_deck, obj, section_of, tidy_name

_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]{0,30})")
_TAG_END_RE = re.compile(r"""(?>[^>=]|=\s*+"[^"]*"|=\s*+'[^']*'|=)*+>""")  # a quote opens a value after `=`
_ATTR_RE = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
_JS_ESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)
_COUNT_RE = re.compile(r"^\s*([0-9]{1,6})\s*x?\s*$", re.IGNORECASE)
_LINE_RE = re.compile(r"^([0-9]{1,6})x?\s+(\S.*)$")
_LEADERS = (Section.COMMANDER, Section.COMPANION)  # TappedOut's headings above the commanders' cards


def tags(html: str) -> Iterator[tuple[str, dict[str, str], str]]:
    """(tag or `/tag`, attributes, its text up to the next tag) for each tag; one never closed ends the walk."""
    at = 0
    while (found := _TAG_RE.search(html, at)) is not None and (end := _TAG_END_RE.match(html, found.end())):
        attrs = {} if found.group(1) else {
            m.group(1).lower(): unescape(m.group(2) or m.group(3) or m.group(4) or "")
            for m in _ATTR_RE.finditer(html, found.end(), end.end() - 1)
        }  # fmt: skip
        at = html.find("<", end.end()) % (len(html) + 1)
        yield found.group(1) + found.group(2).lower(), attrs, unescape(html[end.end() : at])


def _classes(attrs: Mapping[str, str]) -> set[str]:
    return set(attrs.get("class", "").split())


def _count(text: str) -> Any:
    return int(found.group(1)) if (found := _COUNT_RE.match(text)) else text.strip()


def _csv(text: str) -> list[RawEntry] | None:
    """A CSV export's entries (TappedOut: `Board`, `Commander` since ~2021; Scryfall: `section`), or None."""
    rows = csv.reader(text.splitlines())
    columns = {name.strip().casefold(): i for i, name in enumerate(next(rows, []))}
    if "name" not in columns or not {"qty", "count"} & columns.keys():
        return None

    def cell(row: list[str], *names: str) -> str:
        index = next((columns[n] for n in names if n in columns), len(row))
        return row[index].strip() if index < len(row) else ""

    raws = []
    for row in (row for row in rows if any(c.strip() for c in row)):
        section = section_of(cell(row, "section", "board"))
        if cell(row, "commander").casefold() == "true":
            section = Section.COMMANDER
        name = cell(row, "name")
        raws.append(RawEntry(section, tidy_name(name), _count(cell(row, "qty", "count")), label=name[:100]))
    return raws


def read_tappedout(text: str, link: DeckLink, limit: int) -> FetchedDeck:
    """The deck widget's JSON (2026), the `?fmt=csv` export or the deck page (2019-2025 markup)."""
    if text.lstrip().startswith("{"):
        return _tappedout_widget(text, link, limit)
    if "<" not in text[:2048] and (raws := _csv(text)) is not None:
        return build(Site.TAPPEDOUT, link.deck_id, None, raws, limit=limit)
    boards: list[tuple[str, Any, str]] = []  # page: cards are `a.qty.board`; commanders, companion: headings
    marked: dict[str, Section] = {}
    heading, name, owner = Section.MAIN, None, None
    for tag, attrs, after in tags(text):
        if tag in ("h3", "h4"):
            heading = section_of(after)
        elif tag == "meta" and attrs.get("property") == "og:title":
            name = attrs.get("content", "").removeprefix("MTG Deck: ")
        elif tag == "a" and {"qty", "board"} <= _classes(attrs) and "data-name" in attrs:
            count = _count(attrs.get("data-qty", ""))
            boards.append((attrs.get("data-board", ""), count, attrs["data-name"]))
        elif tag == "a" and "card-hover" in _classes(attrs) and heading in _LEADERS:
            marked.setdefault(attrs.get("data-name", ""), heading)
        elif tag == "a" and owner is None and attrs.get("href", "").startswith("/users/"):
            owner = after
    raws = [RawEntry(marked.pop(card, section_of(board)), tidy_name(card), n) for board, n, card in boards]
    raws += [RawEntry(section, tidy_name(card), 1) for card, section in marked.items() if card]
    return build(Site.TAPPEDOUT, link.deck_id, name, raws, owner, limit)


def _tappedout_widget(text: str, link: DeckLink, limit: int) -> FetchedDeck:
    payload = obj(json.loads(text))
    raws, section, count = [], Section.MAIN, None
    for tag, attrs, after in tags(str(payload.get("board") or "")):
        if tag == "h3":
            section = section_of(after)
        elif tag == "li" and "tappedout-member" in _classes(attrs):
            count = _count(after)
        elif tag == "a" and count is not None:
            raws.append(RawEntry(section, tidy_name(after), count, label=after.strip()[:100]))
            count = None
    return build(Site.TAPPEDOUT, link.deck_id, payload.get("title"), raws, limit=limit)


def read_mtggoldfish(text: str, link: DeckLink, limit: int) -> FetchedDeck:
    """The first deck table (the page's, or the one in `/deck/component`'s script): rows under headings."""
    start = text.find("deck-view-deck-table") % (len(text) + 1)  # none: no rows, no deck
    name = owner = None
    for tag, attrs, after in tags(text[:start]):  # the page's `h1.title`: the name, `span.author`: "by owner"
        if tag == "h1" and "title" in _classes(attrs):
            name = after
        elif tag == "span" and "author" in _classes(attrs) and name is not None:
            owner = after.strip().removeprefix("by ")
    table = text[text.rfind("<", 0, start) :]
    if not text.lstrip().startswith("<"):  # JavaScript: the markup is a string literal with escapes
        table = _JS_ESCAPE_RE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), table)
    raws, section, count, card, cell, header = [], Section.MAIN, None, None, 0, False
    for tag, attrs, after in tags(table[: table.find("</table") % (len(table) + 1)]):
        if tag == "tr":
            header, count, card, cell = "deck-category-header" in _classes(attrs), None, None, 0
            card = attrs.get("data-card-name")
        elif tag == "th" and header:
            section = section_of(after)
        elif tag == "td" and not header:
            cell += 1
            count = _count(after) if cell == 1 else count
        elif tag == "a" and cell == 2 and not header:
            card = card or after
        elif tag == "/tr" and count is not None:
            raws.append(RawEntry(section, tidy_name(card), count, label=(card or "")[:100]))
            count = None
    return build(Site.MTGGOLDFISH, link.deck_id, name, raws, owner, limit)


_DECKSTATS_APP = '<script data-page="app" type="application/json">'


def read_deckstats(text: str, link: DeckLink, limit: int) -> FetchedDeck:
    """The page's app JSON (2026: `props.entries`) or its `init_deck_data({...})` (sections, a sideboard)."""
    if (at := text.find(_DECKSTATS_APP)) >= 0:
        at += len(_DECKSTATS_APP)
        props = obj(obj(json.loads(unescape(text[at : text.find("</script", at)]))).get("props"))
        deck, cards = obj(props.get("deck")), props.get("entries")
        zones = {"main": Section.MAIN, "commander": Section.COMMANDER, "sideboard": Section.SIDEBOARD}
        entries = [(c, zones.get(str(obj(c).get("zone")), Section.MAYBEBOARD)) for c in _list(cards)]
        name, owner = deck.get("name"), deck.get("owner_name")
    elif (at := text.find("init_deck_data(")) >= 0:
        data = obj(json.JSONDecoder().raw_decode(text, at + len("init_deck_data("))[0])
        parts = [(obj(part).get("cards"), Section.MAIN) for part in _list(data.get("sections"))]
        parts += [(data.get("sideboard"), Section.SIDEBOARD), (data.get("maybeboard"), Section.MAYBEBOARD)]
        entries = [(card, section) for cards, section in parts for card in _list(cards)]
        name, owner = data.get("name"), None
    else:
        entries, name, owner = [], None, None
    raws = []
    for card, section in ((obj(c), s) for c, s in entries):
        if card.get("isCommander") is True or card.get("is_commander") is True:
            section = Section.COMMANDER
        elif card.get("isCompanion") or card.get("is_companion") or card.get("comment") == "!Companion":
            section = Section.COMPANION
        raws.append(RawEntry(section, tidy_name(card.get("name")), card.get("amount")))
    return build(Site.DECKSTATS, link.deck_id, name, raws, owner, limit)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def read_scryfall(text: str, link: DeckLink, limit: int) -> FetchedDeck:
    """`export/csv` (a `section` column) or `export/text` (`N Name` under `// Commander`... headings)."""
    if (raws := _csv(text)) is None:
        raws, section = [], Section.MAIN
        for line in filter(None, map(str.strip, text.splitlines())):
            if line.startswith("//"):
                section = section_of(line[2:])
            elif found := _LINE_RE.match(line):
                raws.append(RawEntry(section, tidy_name(found.group(2)), int(found.group(1))))
            else:
                raws.append(RawEntry(section, None, None, label=line[:100]))
    return build(Site.SCRYFALL, link.deck_id, None, raws, link.deck_id.split("/", 1)[0], limit)


def aetherhub_json(deck_id: str, name: str | None = None) -> Ask:
    return Ask(f"/Deck/FetchMtgaDeckJson?deckId={deck_id}&langId=0&simple=false", note=name)


def read_aetherhub_page(text: str, link: DeckLink, limit: int) -> Ask:
    """The deck's JSON next, by the id the page's `data-deckid` gives (the page's title: its name)."""
    name = None
    for tag, attrs, after in tags(text):
        name = after.strip().removeprefix("Commander - ") if tag == "title" else name
        if (deck_id := attrs.get("data-deckid", "")).isdigit():
            return aetherhub_json(deck_id, name)
    raise not_a_deck(Site.AETHERHUB, "shape", "no deck id in the page")
