"""Deck sites that answer with pages or exports, not a JSON API: TappedOut (deck page, its CSV or the deck
widget), MTGGoldfish (the deck table of its page or `/deck/component`), Deckstats (the deck data its page
embeds, old `init_deck_data(...)` or the newer Inertia JSON), Scryfall (`export/csv` or `export/text`) and the
Aetherhub deck page (only for its deck id). Every reader is linear in its input: `tags` walks the markup with
`str.find` and patterns without nested repetition; JSON and CSV come from the standard library.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Mapping
from html import unescape
from typing import Any

from bot.deck.entries import Section
from bot.deck.sources.links import DeckLink, DeckSourceError, DeckSourceErrorCode, Site
from bot.deck.sources.result import (
    Ask,
    EntryProblem,
    FetchedDeck,
    RawEntry,
    build,
    check_size,
    not_a_deck,
    obj,
    tidy_name,
)

_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]{0,30})")
_TAG_END_RE = re.compile(
    r"""(?>[^>=]|=\s*+"[^"]*"|=\s*+'[^']*'|=)*+>"""
)  # quotes open a value only after `=`
_ATTR_RE = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
_RAW_END = {name: re.compile(rf"</{name}", re.IGNORECASE) for name in ("script", "style", "textarea")}
_JS_ESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)
_COUNT_RE = re.compile(r"^\s*([0-9]{1,6})\s*x?\s*$", re.IGNORECASE)
_HEADING_RE = re.compile(r"\s*\([0-9]*\)\s*$")

Tag = tuple[str, dict[str, str], str]


def tags(html: str) -> Iterator[Tag]:
    """(tag, attributes, the text up to the next tag) for each tag of `html`; an end tag is `/name`. A tag
    left open ends the walk; script, style and textarea contents are their text."""
    at = 0
    while (found := _TAG_RE.search(html, at)) is not None:
        if (end := _TAG_END_RE.match(html, found.end())) is None:
            return
        name, at = found.group(2).lower(), end.end()
        attrs = {}
        if not found.group(1):
            attrs = {
                m.group(1).lower(): unescape(m.group(2) or m.group(3) or m.group(4) or "")
                for m in _ATTR_RE.finditer(html, found.end(), at - 1)
            }
        raw = None if found.group(1) else _RAW_END.get(name)
        if raw is not None:
            stop = raw.search(html, at)
            text_end = stop.start() if stop else len(html)
            text = html[at:text_end]
        else:
            text_end = html.find("<", at)
            text_end = len(html) if text_end < 0 else text_end
            text = unescape(html[at:text_end])
        yield ("/" if found.group(1) else "") + name, attrs, text
        at = text_end


def _classes(attrs: Mapping[str, str]) -> set[str]:
    return set(attrs.get("class", "").split())


def _heading(text: str) -> str:
    return _HEADING_RE.sub("", " ".join(text.split())).casefold()


def _section(heading: str) -> Section:
    """A site's board or category heading as a section (`Commanders (2)`, `Companion`, `Sideboard`...)."""
    if heading.startswith("commander"):
        return Section.COMMANDER
    if heading.startswith("companion"):
        return Section.COMPANION
    if heading.startswith(("sideboard", "side")):
        return Section.SIDEBOARD
    if heading.startswith(("maybe", "acquire", "considering")):
        return Section.MAYBEBOARD
    return Section.MAIN


def _count(text: str) -> Any:
    found = _COUNT_RE.match(text)
    return int(found.group(1)) if found else text.strip()


def _decoded(body: bytes) -> str:
    return body.decode("utf-8-sig", errors="replace")


def _raise_if_cap(site: Site, raws: list[RawEntry], max_entries: int) -> list[RawEntry]:
    check_size(site, len(raws), max_entries)
    return raws


# -- CSV exports (TappedOut, Scryfall) -------------------------------------------------------------------


def _table(text: str) -> tuple[dict[str, int], list[list[str]]] | None:
    """The columns (lower-cased header name -> index) and rows of a CSV export, or None without a header."""
    rows = csv.reader(text.splitlines())
    header = next(rows, None)
    columns = {name.strip().casefold(): i for i, name in enumerate(header or ())}
    if not ({"name", "qty"} <= columns.keys() or {"name", "count"} <= columns.keys()):
        return None
    return columns, list(rows)


def _cell(row: list[str], columns: Mapping[str, int], *names: str) -> str:
    index = next((columns[n] for n in names if n in columns), None)
    return row[index].strip() if index is not None and index < len(row) else ""


_SCRYFALL_SECTIONS = {
    "commanders": Section.COMMANDER,
    "commander": Section.COMMANDER,
    "outside": Section.COMPANION,  # "Outside the Game": a Commander deck's companion
    "outside the game": Section.COMPANION,
    "sideboard": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "maybe": Section.MAYBEBOARD,
    **dict.fromkeys(("", "nonlands", "lands", "mainboard", "main", "deck"), Section.MAIN),
}


def _csv_entries(site: Site, columns: Mapping[str, int], rows: list[list[str]]) -> list[RawEntry]:
    raws = []
    for row in rows:
        if not any(cell.strip() for cell in row):
            continue
        name = tidy_name(_cell(row, columns, "name"))
        count = _count(_cell(row, columns, "qty", "count"))
        if site is Site.SCRYFALL:
            board = _cell(row, columns, "section").casefold()
            section = _SCRYFALL_SECTIONS.get(board)
        else:  # TappedOut: Board main/side/maybe/acquire; a Commander (later also Companion) column of True
            board = _cell(row, columns, "board").casefold()
            section = _section(board) if board in ("main", "side", "maybe", "acquire") else None
            if _cell(row, columns, "commander").casefold() == "true":
                section = Section.COMMANDER
            elif _cell(row, columns, "companion").casefold() == "true":
                section = Section.COMPANION
        if section is None:
            raws.append(
                RawEntry(Section.TOKENS, None, None, problem=EntryProblem.UNKNOWN_BOARD, label=name or board)
            )
        else:
            raws.append(RawEntry(section, name, count))
    return raws


# -- TappedOut ------------------------------------------------------------------------------------------


def read_tappedout(body: bytes, link: DeckLink, *, max_entries: int, note: str | None = None) -> FetchedDeck:
    """The deck page (2019-2025 markup), the deck widget's JSON (2026) or the `?fmt=csv` export."""
    text = _decoded(body)
    if text.lstrip().startswith("{"):
        return _tappedout_widget(text, link, max_entries)
    if "<" not in text[:2048] and (table := _table(text)) is not None:
        raws = _csv_entries(Site.TAPPEDOUT, *table)
        return build(Site.TAPPEDOUT, link.deck_id, None, _raise_if_cap(Site.TAPPEDOUT, raws, max_entries))
    return _tappedout_page(text, link, max_entries)


def _tappedout_widget(text: str, link: DeckLink, max_entries: int) -> FetchedDeck:
    try:
        payload = obj(json.loads(text))
    except (ValueError, RecursionError):
        raise not_a_deck(Site.TAPPEDOUT, "malformed_json", "widget") from None
    if not isinstance(payload.get("board"), str):
        raise not_a_deck(Site.TAPPEDOUT, "shape", "no board")
    raws: list[RawEntry] = []
    section, count = Section.MAIN, None
    for tag, attrs, after in tags(payload["board"]):
        if tag == "h3":
            section = _section(_heading(after))
        elif tag == "li" and "tappedout-member" in _classes(attrs):
            count = _count(after)
        elif tag == "a" and count is not None:
            raws.append(RawEntry(section, tidy_name(after), count, label=after.strip()[:100]))
            count = None
    raws = _raise_if_cap(Site.TAPPEDOUT, raws, max_entries)
    return build(Site.TAPPEDOUT, link.deck_id, payload.get("title"), raws)


def _tappedout_page(text: str, link: DeckLink, max_entries: int) -> FetchedDeck:
    """Cards are `a.qty.board` (data-board, data-qty, data-name); the commanders and the companion are the
    cards under the `Commander(s)` and `Companion` headings."""
    boards: list[tuple[str, Any, str]] = []
    marked: dict[str, Section] = {}
    heading, name, owner = "", None, None
    for tag, attrs, after in tags(text):
        classes = _classes(attrs)
        if tag in ("h3", "h4"):
            heading = _heading(after)
        elif tag == "meta" and attrs.get("property") == "og:title":
            name = attrs.get("content", "").removeprefix("MTG Deck: ")
        elif tag == "a" and {"qty", "board"} <= classes and "data-name" in attrs:
            boards.append(
                (attrs.get("data-board", ""), _count(attrs.get("data-qty", "")), attrs["data-name"])
            )
        elif tag == "a" and "card-hover" in classes and (section := _section(heading)) in _COMMAND_ZONE:
            marked.setdefault(attrs.get("data-name", ""), section)
        elif tag == "a" and owner is None and attrs.get("href", "").startswith("/users/"):
            owner = tidy_name(after)
    if not boards and not marked:
        raise not_a_deck(Site.TAPPEDOUT, "shape", "no deck board in the page")
    raws = []
    for board, count, card in boards:
        section = marked.pop(card, _section(board if board in ("side", "maybe", "acquire") else ""))
        raws.append(RawEntry(section, tidy_name(card), count))
    raws += [RawEntry(section, tidy_name(card), 1) for card, section in marked.items() if card]
    raws = _raise_if_cap(Site.TAPPEDOUT, raws, max_entries)
    return build(Site.TAPPEDOUT, link.deck_id, name, raws, owner=owner)


_COMMAND_ZONE = (Section.COMMANDER, Section.COMPANION)


# -- MTGGoldfish ----------------------------------------------------------------------------------------


def read_mtggoldfish(
    body: bytes, link: DeckLink, *, max_entries: int, note: str | None = None
) -> FetchedDeck:
    """The first deck table (`table.deck-view-deck-table`) of the deck page, or of `/deck/component`'s
    JavaScript, which carries the same markup in a string: rows under `Commander`, `Companion`, `Sideboard`
    headings are those; a row's first cell is its count, its `.card_name` link its name."""
    text = _decoded(body)
    start = text.find("deck-view-deck-table")
    if start < 0:
        raise not_a_deck(Site.MTGGOLDFISH, "shape", "no deck table")
    name, owner = _goldfish_title(text[:start])
    table = text[text.rfind("<", 0, start) :]
    if not text.lstrip().startswith("<"):  # JavaScript: the markup is a string literal with escapes
        table = _JS_ESCAPE_RE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), table)
    table = table[: (table.find("</table") + 1 or len(table) + 1) - 1]
    raws: list[RawEntry] = []
    section, count, card, cell, in_header = Section.MAIN, None, None, 0, False
    for tag, attrs, after in tags(table):
        if tag == "tr":
            in_header, count, card, cell = "deck-category-header" in _classes(attrs), None, None, 0
            card = attrs.get("data-card-name")
        elif tag == "th" and in_header:
            section = _section(_heading(after))
        elif tag == "td" and not in_header:
            cell += 1
            count = _count(after) if cell == 1 else count
        elif tag == "a" and not in_header and cell == 2:
            card = card or after
        elif tag == "/tr" and not in_header and count is not None:
            raws.append(RawEntry(section, tidy_name(card), count, label=(card or "")[:100]))
            count = None
    raws = _raise_if_cap(Site.MTGGOLDFISH, raws, max_entries)
    return build(Site.MTGGOLDFISH, link.deck_id, name, raws, owner=owner)


def _goldfish_title(page: str) -> tuple[str | None, str | None]:
    """The deck's name and owner from the page's `h1.title` (`Name <span class=author>by owner</span>`)."""
    name = owner = None
    for tag, attrs, after in tags(page):
        if tag == "h1" and "title" in _classes(attrs):
            name = after.strip()
        elif tag == "span" and "author" in _classes(attrs) and name is not None:
            owner = after.strip().removeprefix("by ").strip()
            break
    return name, owner


# -- Deckstats ------------------------------------------------------------------------------------------

_DECKSTATS_APP = '<script data-page="app" type="application/json">'
_DECKSTATS_OLD = "init_deck_data("


def read_deckstats(body: bytes, link: DeckLink, *, max_entries: int, note: str | None = None) -> FetchedDeck:
    """The deck data a Deckstats page embeds: `init_deck_data({...})` (sections of cards, `isCommander`,
    `isCompanion`, a `sideboard`) or, since 2026, the app's JSON (`props.entries` with `zone`, `is_commander`,
    `is_companion`, the `!Companion` comment)."""
    text = _decoded(body)
    try:
        if (at := text.find(_DECKSTATS_APP)) >= 0:
            start = at + len(_DECKSTATS_APP)
            props = obj(obj(json.loads(unescape(text[start : text.find("</script", start)]))).get("props"))
            return _deckstats_app(props, link, max_entries)
        if (at := text.find(_DECKSTATS_OLD)) >= 0:
            data, _end = json.JSONDecoder().raw_decode(text, at + len(_DECKSTATS_OLD))
            return _deckstats_old(obj(data), link, max_entries)
    except (ValueError, RecursionError):
        raise not_a_deck(Site.DECKSTATS, "malformed_json", "embedded deck data") from None
    raise not_a_deck(Site.DECKSTATS, "shape", "no deck data in the page")


def _deckstats_card(card: Any, section: Section) -> RawEntry:
    card = obj(card)
    if card.get("isCommander") is True or card.get("is_commander") is True:
        section = Section.COMMANDER
    elif card.get("isCompanion") or card.get("is_companion") or card.get("comment") == "!Companion":
        section = Section.COMPANION
    return RawEntry(section, tidy_name(card.get("name")), card.get("amount"))


def _deckstats_app(props: Mapping[str, Any], link: DeckLink, max_entries: int) -> FetchedDeck:
    deck, entries = obj(props.get("deck")), props.get("entries")
    if not isinstance(entries, list):
        raise not_a_deck(Site.DECKSTATS, "shape", "no entries")
    if deck.get("visibility") == "private":
        raise DeckSourceError(DeckSourceErrorCode.PRIVATE, Site.DECKSTATS, status=200)
    zones = {"main": Section.MAIN, "commander": Section.COMMANDER, "sideboard": Section.SIDEBOARD}
    check_size(Site.DECKSTATS, len(entries), max_entries)
    raws = [_deckstats_card(e, zones.get(str(obj(e).get("zone")), Section.MAYBEBOARD)) for e in entries]
    return build(Site.DECKSTATS, link.deck_id, deck.get("name"), raws, owner=deck.get("owner_name"))


def _deckstats_old(data: Mapping[str, Any], link: DeckLink, max_entries: int) -> FetchedDeck:
    if not isinstance(data.get("sections"), list):
        raise not_a_deck(Site.DECKSTATS, "shape", "no sections")
    raws = [
        _deckstats_card(card, Section.MAIN)
        for part in data["sections"]
        for card in obj(part).get("cards") or ()
    ]
    for key, section in (("sideboard", Section.SIDEBOARD), ("maybeboard", Section.MAYBEBOARD)):
        raws += [_deckstats_card(card, section) for card in data.get(key) or ()]
    check_size(Site.DECKSTATS, len(raws), max_entries)
    return build(Site.DECKSTATS, link.deck_id, data.get("name"), raws)


# -- Scryfall -------------------------------------------------------------------------------------------

_SCRYFALL_LINE_RE = re.compile(r"^([0-9]{1,6})x?\s+(\S.*)$")


def read_scryfall(body: bytes, link: DeckLink, *, max_entries: int, note: str | None = None) -> FetchedDeck:
    """`export/csv` (a `section` column: commanders, nonlands, lands, outside, sideboard, maybeboard) or
    `export/text` (`N Name` lines under `// Commander`, `// Outside the Game`, ... headings)."""
    text = _decoded(body)
    owner = link.deck_id.split("/", 1)[0]
    if (table := _table(text)) is not None:
        raws = _csv_entries(Site.SCRYFALL, *table)
    elif text.lstrip().startswith(("<", "{")):
        raise not_a_deck(Site.SCRYFALL, "shape", "not an export")
    else:
        raws, section = [], Section.MAIN
        for line in text.splitlines():
            if not (line := line.strip()):
                continue
            if line.startswith("//"):
                board = _SCRYFALL_SECTIONS.get(line[2:].strip().casefold())
                section = board if board is not None else Section.TOKENS
            elif section is Section.TOKENS:
                raws.append(
                    RawEntry(section, None, None, problem=EntryProblem.UNKNOWN_BOARD, label=line[:100])
                )
            elif found := _SCRYFALL_LINE_RE.match(line):
                raws.append(RawEntry(section, tidy_name(found.group(2)), int(found.group(1))))
            else:
                raws.append(RawEntry(section, None, None, label=line[:100]))
    return build(
        Site.SCRYFALL, link.deck_id, None, _raise_if_cap(Site.SCRYFALL, raws, max_entries), owner=owner
    )


# -- Aetherhub (the deck page: only its deck id) ---------------------------------------------------------


def aetherhub_json(deck_id: str, name: str | None = None) -> Ask:
    return Ask(f"/Deck/FetchMtgaDeckJson?deckId={deck_id}&langId=0&simple=false", note=name)


def read_aetherhub_page(body: bytes, link: DeckLink, *, max_entries: int, note: str | None = None) -> Ask:
    """The deck id the page's `data-deckid` gives, asked for next (with the page's title as the name)."""
    name = None
    for tag, attrs, after in tags(_decoded(body)):
        if tag == "title":
            name = after.strip().removeprefix("Commander - ").strip()
        if (deck_id := attrs.get("data-deckid", "")).isdigit():
            return aetherhub_json(deck_id, name)
    raise not_a_deck(Site.AETHERHUB, "shape", "no deck id in the page")
