"""A deck site's JSON answer read into a `FetchedDeck`, one reader per site (pages and exports: `pages`). An
entry's `line` is its position: commanders first, then companions, main deck, sideboard, maybeboard and
tokens, alphabetical within each. Archidekt: a card's "Commander"/companion mark, else its first (primary)
category, decides its section. Moxfield: the v3 `boards.<board>.cards` shape or the older v2 one; boards the
bot does not know are reported."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.deck.entries import MAX_COUNT, MAX_NAME_LENGTH, DeckEntry, ParsedDeck, ParseProblem, Section
from bot.deck.sources.links import DeckLink, DeckSourceError, DeckSourceErrorCode, Site

DEFAULT_MAX_ENTRIES = 1000  # distinct card entries in one deck answer, all boards together
_ORDER = (Section.COMMANDER, Section.COMPANION, Section.MAIN, Section.SIDEBOARD, Section.MAYBEBOARD)


class EntryProblem(StrEnum):
    """Why a site's entry can't be read (`ParseProblem.reason`; worded by `bot.present.deck_report`)."""

    NOT_AN_OBJECT = "site_entry_not_an_object"
    NO_NAME = "site_entry_without_name"
    COUNT_NOT_WHOLE = "site_count_not_whole"
    COUNT_OUT_OF_RANGE = "site_count_out_of_range"  # outside 1..MAX_COUNT
    UNKNOWN_BOARD = "site_board_not_read"  # a board (Moxfield) the bot does not know


@dataclass(frozen=True, slots=True)
class FetchedDeck:
    """A deck read from a site: every entry, any section, the site's commanders marked."""

    deck: ParsedDeck
    site: Site
    deck_id: str
    owner: str | None = None

    @property
    def name(self) -> str | None:
        return self.deck.deck_name

    @property
    def url(self) -> str:
        return DeckLink(self.site, self.deck_id).url


@dataclass(frozen=True, slots=True)
class Ask:
    """One request to a site: a path (and query) after its configured base; `note`: the deck's name, if known."""

    path: str
    method: str = "GET"
    accept: str = "application/json"
    note: str | None = None


@dataclass(frozen=True, slots=True)
class RawEntry:
    """One entry as a site wrote it, before numbering; `label` names an unreadable one without a name."""

    section: Section
    name: str | None
    count: Any
    problem: EntryProblem | None = None
    label: str | None = None


def not_a_deck(site: Site, reason: str, detail: str) -> DeckSourceError:
    return DeckSourceError(DeckSourceErrorCode.NOT_A_DECK, site, reason=reason, detail=detail)


def check_answer(site: Site, deck_id: str, answered_id: Any, visibility: str) -> None:
    """Refuse a private or deleted deck, and an answer about another deck than the one asked for."""
    if visibility in ("private", "deleted"):
        code = DeckSourceErrorCode.PRIVATE if visibility == "private" else DeckSourceErrorCode.NOT_FOUND
        raise DeckSourceError(code, site, status=200)
    if answered_id is not None and str(answered_id) != deck_id:
        raise not_a_deck(site, "mismatched_id", f"asked for {deck_id}, got {answered_id}")


def check_size(site: Site, total: int, limit: int) -> None:
    if total > limit:
        raise DeckSourceError(DeckSourceErrorCode.TOO_LARGE, site, limit=limit, unit="entries", size=total)


def tidy_name(value: Any) -> str | None:
    """A card name as the site wrote it, whitespace-normalised; None when it is not a usable name."""
    if not isinstance(value, str):
        return None
    name = " ".join(unicodedata.normalize("NFC", value).split())
    return name if name and len(name) <= MAX_NAME_LENGTH else None


def face_name(card: Mapping[str, Any], faces_key: str) -> str | None:
    """`A // B` from a card's faces, for answers that give faces but no top-level name."""
    faces = card.get(faces_key)
    faces = faces if isinstance(faces, list) else []
    names = [tidy_name(f.get("name")) for f in faces if isinstance(f, Mapping)]
    return tidy_name(" // ".join(n for n in names if n)) if names and None not in names else None


# A heading's first word -> its section ("outside": Scryfall's "Outside the Game", a Commander deck's companion)
_HEADINGS = {"commander": Section.COMMANDER, "companion": Section.COMPANION, "outside": Section.COMPANION,
             "side": Section.SIDEBOARD, "maybe": Section.MAYBEBOARD, "acquire": Section.MAYBEBOARD,
             "considering": Section.MAYBEBOARD, "token": Section.TOKENS}  # fmt: skip


def section_of(heading: str) -> Section:
    """A site's board, zone or heading (`Commanders (2)`, `side`, `Outside the Game`...) as a section."""
    word = heading.strip().casefold()
    return next((section for prefix, section in _HEADINGS.items() if word.startswith(prefix)), Section.MAIN)


def obj(value: Any) -> Mapping[str, Any]:
    """`value` when it is a JSON object, else an empty one (missing or wrongly typed fields read as absent)."""
    return value if isinstance(value, Mapping) else {}


def build(
    site: Site, deck_id: str, name: Any, raws: list[RawEntry], owner: Any = None, limit: int | None = None
) -> FetchedDeck:
    """Number the entries (commanders first, alphabetical within a section) and build the result."""
    check_size(site, len(raws), DEFAULT_MAX_ENTRIES if limit is None else limit)
    rank = {section: i for i, section in enumerate(_ORDER)}
    deck = ParsedDeck(deck_name=tidy_name(name), lines_read=len(raws))
    ordered = sorted(raws, key=lambda r: (rank.get(r.section, 9), (r.name or "").casefold()))
    for at, raw in enumerate(ordered, start=1):
        problem = raw.problem
        if problem is None and raw.name is None:
            problem = EntryProblem.NO_NAME
        elif problem is None and (isinstance(raw.count, bool) or not isinstance(raw.count, int)):
            problem = EntryProblem.COUNT_NOT_WHOLE
        elif problem is None and not 1 <= raw.count <= MAX_COUNT:
            problem = EntryProblem.COUNT_OUT_OF_RANGE
        if problem is not None or raw.name is None:
            text = raw.name or raw.label or f"{raw.section.value} entry"
            deck.problems.append(ParseProblem(at, text, problem or EntryProblem.NO_NAME))
        else:
            marked = raw.section is Section.COMMANDER
            deck.entries.append(DeckEntry(raw.name, raw.count, at, raw.section, commander_marker=marked))
    if not deck.entries:
        raise not_a_deck(site, "no_entries", f"none of {len(raws)} entries could be read")
    return FetchedDeck(deck, site, deck_id, tidy_name(owner))


def _archidekt_section(item: Mapping[str, Any], included: Mapping[str, bool]) -> Section:
    folded = [c.casefold() for c in item.get("categories") or () if isinstance(c, str)]
    primary = folded[0] if folded else None
    if "commander" in folded:
        return Section.COMMANDER
    if item.get("companion") is True or "companion" in folded:
        return Section.COMPANION
    if primary == "sideboard":
        return Section.SIDEBOARD
    if primary in ("maybeboard", "considering") or (primary is not None and included.get(primary) is False):
        return Section.MAYBEBOARD
    return Section.MAIN


def _archidekt_entry(item: Any, included: Mapping[str, bool]) -> RawEntry | None:
    if not isinstance(item, Mapping):
        return RawEntry(Section.MAIN, None, None, problem=EntryProblem.NOT_AN_OBJECT)
    if item.get("deletedAt"):
        return None  # removed from the deck; kept by the site for its history
    oracle = obj(obj(item.get("card")).get("oracleCard"))
    name = tidy_name(oracle.get("name")) or face_name(oracle, "faces")
    return RawEntry(_archidekt_section(item, included), name, item.get("quantity"))


def read_archidekt(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """A `FetchedDeck` from an Archidekt answer (JSON-decoded), or a `DeckSourceError`."""
    if not isinstance(payload, dict) or not isinstance(payload.get("cards"), list):
        raise not_a_deck(Site.ARCHIDEKT, "shape", "no cards list")
    private = "private" if payload.get("private") is True else ""
    check_answer(Site.ARCHIDEKT, deck_id, payload.get("id"), private)
    check_size(Site.ARCHIDEKT, len(payload["cards"]), max_entries)
    included = {
        c["name"].casefold(): c.get("includedInDeck") is not False
        for c in payload.get("categories") or ()
        if isinstance(c, Mapping) and isinstance(c.get("name"), str)
    }
    raws = [raw for item in payload["cards"] if (raw := _archidekt_entry(item, included)) is not None]
    owner = obj(payload.get("owner")).get("username")
    return build(Site.ARCHIDEKT, deck_id, payload.get("name"), raws, owner)


# Moxfield boards -> sections. signatureSpells (Oathbreaker) are part of the deck.
MOXFIELD_BOARDS: dict[str, Section] = {
    "commanders": Section.COMMANDER,
    "companions": Section.COMPANION,
    "mainboard": Section.MAIN,
    "signatureSpells": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    **dict.fromkeys(
        ("tokens", "attractions", "stickers", "contraptions", "planes", "schemes"), Section.TOKENS
    ),
}


def _moxfield_boards(payload: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """board name -> its cards map, from the v3 shape (`boards.<board>.cards`) or the v2 one."""
    if isinstance(payload.get("boards"), Mapping):
        boards: dict[str, Mapping[str, Any]] = {}
        for key, board in payload["boards"].items():
            if not isinstance(board, Mapping) or not isinstance(board.get("cards", {}), Mapping):
                raise not_a_deck(Site.MOXFIELD, "shape", f"board {key!r} has no cards map")
            boards[str(key)] = board.get("cards", {})
        return boards
    boards = {key: payload[key] for key in MOXFIELD_BOARDS if isinstance(payload.get(key), Mapping)}
    if not boards:
        raise not_a_deck(Site.MOXFIELD, "shape", "no boards")
    return boards


def _moxfield_entry(board: str, map_key: Any, item: Any, v3: bool) -> RawEntry:
    if (section := MOXFIELD_BOARDS.get(board)) is None:
        label = tidy_name(obj(obj(item).get("card")).get("name")) or tidy_name(map_key)
        return RawEntry(Section.TOKENS, None, None, problem=EntryProblem.UNKNOWN_BOARD, label=label)
    if not isinstance(item, Mapping):
        return RawEntry(section, None, None, problem=EntryProblem.NOT_AN_OBJECT)
    card = obj(item.get("card"))
    name = tidy_name(card.get("name")) or face_name(card, "card_faces")
    return RawEntry(section, name or (None if v3 else tidy_name(map_key)), item.get("quantity"))


def read_moxfield(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """A `FetchedDeck` from a Moxfield answer (JSON-decoded), or a `DeckSourceError`."""
    if not isinstance(payload, dict):
        raise not_a_deck(Site.MOXFIELD, "shape", f"a {type(payload).__name__}, not an object")
    check_answer(Site.MOXFIELD, deck_id, payload.get("publicId"), str(payload.get("visibility")).casefold())
    boards = _moxfield_boards(payload)
    check_size(Site.MOXFIELD, sum(len(cards) for cards in boards.values()), max_entries)
    v3 = "boards" in payload
    raws = [_moxfield_entry(b, key, item, v3) for b, cards in boards.items() for key, item in cards.items()]
    owner = obj(payload.get("createdByUser")).get("userName")
    return build(Site.MOXFIELD, deck_id, payload.get("name"), raws, owner)


def read_aetherhub(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """`FetchMtgaDeckJson`'s `convertedDeck` rows; a row without a quantity heads the rows below it."""
    rows, raws, section = obj(payload).get("convertedDeck"), [], Section.MAIN
    for row in map(obj, rows if isinstance(rows, list) else ()):
        if row.get("quantity") is None and isinstance(row.get("name"), str):
            section = section_of(row["name"])
        else:
            raws.append(RawEntry(section, tidy_name(row.get("name")), row.get("quantity")))
    return build(Site.AETHERHUB, deck_id, None, raws, limit=max_entries)


def read_tcgplayer(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """infinite-api: `result.deck.subDecks` of `{cardID, quantity}`, `companionID`, `result.cards` by id."""
    result = obj(obj(payload).get("result"))
    deck, cards = obj(result.get("deck")), obj(result.get("cards"))
    if not result and obj(payload).get("errors"):
        raise DeckSourceError(DeckSourceErrorCode.NOT_FOUND, Site.TCGPLAYER, status=200)
    raws = []
    for key, items in obj(deck.get("subDecks")).items():
        for item in map(obj, items if isinstance(items, list) else ()):
            section = Section.COMMANDER if key == "commandzone" else section_of(key)
            if section is Section.SIDEBOARD and item.get("cardID") == deck.get("companionID"):
                section = Section.COMPANION
            name = tidy_name(obj(cards.get(str(item.get("cardID")))).get("name"))
            raws.append(RawEntry(section, name, item.get("quantity"), label=f"card {item.get('cardID')}"))
    return build(Site.TCGPLAYER, deck_id, deck.get("name"), raws, deck.get("playerName"), max_entries)


def read_edhrec(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """An average deck: `deck` lines (`N Name`); its commanders: the page card's `names` (or `name`)."""
    lines = obj(payload).get("deck")
    card = obj(obj(obj(obj(payload).get("container")).get("json_dict")).get("card"))
    names = card.get("names") if isinstance(card.get("names"), list) else [card.get("name")]
    commanders = {n.casefold() for n in map(tidy_name, names or ()) if n}
    raws = []
    for line in map(str, lines if isinstance(lines, list) else ()):
        count, _, name = line.strip().partition(" ")
        tidy = tidy_name(name)
        section = Section.COMMANDER if (tidy or "").casefold() in commanders else Section.MAIN
        raws.append(RawEntry(section, tidy, int(count) if count.isdigit() else count, label=line[:100]))
    return build(Site.EDHREC, deck_id, obj(payload).get("header"), raws, limit=max_entries)
