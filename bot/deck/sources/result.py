"""What a deck site's answer becomes: a `FetchedDeck` holding a `ParsedDeck`, from the entries a site's
reader (`archidekt.py`, `moxfield.py`) found. An entry's `line` is its position in the deck: commanders
first, then companions, main deck, sideboard, maybeboard and tokens, alphabetical within each."""

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
    """A deck read from a site: every entry (any section, the site's commanders marked) and its name."""

    deck: ParsedDeck
    site: Site
    deck_id: str

    @property
    def name(self) -> str | None:
        return self.deck.deck_name

    @property
    def url(self) -> str:
        return DeckLink(self.site, self.deck_id).url


@dataclass(frozen=True, slots=True)
class RawEntry:
    """One entry as a site wrote it, before numbering; `problem` says why it can't be read, `label` names it
    then when it has no usable name."""

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
    names = (
        [tidy_name(f.get("name")) for f in faces if isinstance(f, Mapping)] if isinstance(faces, list) else []
    )
    return tidy_name(" // ".join(n for n in names if n)) if names and None not in names else None


def obj(value: Any) -> Mapping[str, Any]:
    """`value` when it is a JSON object, else an empty one (missing or wrongly typed fields read as absent)."""
    return value if isinstance(value, Mapping) else {}


def build(site: Site, deck_id: str, name: Any, raws: list[RawEntry]) -> FetchedDeck:
    """Number the entries (commanders first, alphabetical within a section) and build the result."""
    rank = {section: i for i, section in enumerate(_ORDER)}
    deck = ParsedDeck(deck_name=tidy_name(name), lines_read=len(raws))
    ordered = sorted(raws, key=lambda r: (rank.get(r.section, 9), (r.name or "").casefold()))
    for position, raw in enumerate(ordered, start=1):
        problem = raw.problem
        if problem is None and raw.name is None:
            problem = EntryProblem.NO_NAME
        elif problem is None and (isinstance(raw.count, bool) or not isinstance(raw.count, int)):
            problem = EntryProblem.COUNT_NOT_WHOLE
        elif problem is None and not 1 <= raw.count <= MAX_COUNT:
            problem = EntryProblem.COUNT_OUT_OF_RANGE
        if problem is not None or raw.name is None:
            text = raw.name or raw.label or f"{raw.section.value} entry"
            deck.problems.append(ParseProblem(position, text, problem or EntryProblem.NO_NAME))
        else:
            marked = raw.section is Section.COMMANDER
            deck.entries.append(
                DeckEntry(raw.name, raw.count, position, raw.section, commander_marker=marked)
            )
    if raws and not deck.entries:
        raise not_a_deck(site, "no_entries", f"none of {len(raws)} entries could be read")
    return FetchedDeck(deck, site, deck_id)
