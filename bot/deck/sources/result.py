"""What a deck site's answer becomes: a `FetchedDeck` holding a `ParsedDeck`, built from the entries a
site's reader (`archidekt.py`, `moxfield.py`) found.

Entries keep `line` = position in the deck, 1-based: commanders first, then companions, main deck,
sideboard, maybeboard and tokens, alphabetical within each. Entries that can't be read (no name, bad
quantity) become `ParseProblem`s with their position; a deck none of whose entries could be read is not a
deck.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.deck.entries import MAX_COUNT, MAX_NAME_LENGTH, DeckEntry, ParsedDeck, ParseProblem, Section
from bot.deck.sources.links import DeckLink, DeckSourceError, DeckSourceErrorCode, Site

DEFAULT_MAX_ENTRIES = 1000  # distinct card entries in one deck answer, all boards together

_SECTION_ORDER = {
    Section.COMMANDER: 0,
    Section.COMPANION: 1,
    Section.MAIN: 2,
    Section.SIDEBOARD: 3,
    Section.MAYBEBOARD: 4,
    Section.TOKENS: 5,
    Section.ABOUT: 6,
}


class EntryProblem(StrEnum):
    """Why a site's entry can't be read (`ParseProblem.reason`; worded by `bot.present.deck_report`)."""

    NOT_AN_OBJECT = "site_entry_not_an_object"
    NO_NAME = "site_entry_without_name"
    COUNT_NOT_WHOLE = "site_count_not_whole"
    COUNT_OUT_OF_RANGE = "site_count_out_of_range"  # outside 1..MAX_COUNT
    UNKNOWN_BOARD = "site_board_not_read"  # a board (Moxfield) the bot does not know


@dataclass(frozen=True, slots=True)
class FetchedDeck:
    """A deck read from a site: `deck` holds every entry (any section; the site's commanders marked) with
    `deck_name` set."""

    deck: ParsedDeck
    site: Site
    deck_id: str

    @property
    def name(self) -> str | None:
        """The deck's name on the site (`deck.deck_name`)."""
        return self.deck.deck_name

    @property
    def url(self) -> str:
        """The canonical web address of the deck (`DeckLink.url`)."""
        return DeckLink(self.site, self.deck_id).url


@dataclass(frozen=True, slots=True)
class RawEntry:
    """One entry as read from a site, before numbering (only what the check uses: printings don't matter).
    `problem` says why it can't be read (its name or count is unusable); `label` names it in that problem
    when it has no usable name."""

    section: Section
    name: str | None
    count: Any
    problem: EntryProblem | None = None
    label: str | None = None


def not_a_deck(site: Site, reason: str, detail: str) -> DeckSourceError:
    return DeckSourceError(DeckSourceErrorCode.NOT_A_DECK, site, reason=reason, detail=detail)


def check_size(site: Site, total: int, max_entries: int) -> None:
    if total > max_entries:
        raise DeckSourceError(
            DeckSourceErrorCode.TOO_LARGE, site, limit=max_entries, unit="entries", size=total
        )


def tidy_name(value: Any) -> str | None:
    """A card name as the site wrote it, whitespace-normalised; None when it is not a usable name."""
    if not isinstance(value, str):
        return None
    name = " ".join(unicodedata.normalize("NFC", value).split())
    return name if name and len(name) <= MAX_NAME_LENGTH else None


def face_name(card: Mapping[str, Any], faces_key: str) -> str | None:
    """`A // B` from a card's faces, for answers that give faces but no top-level name."""
    faces = card.get(faces_key)
    if not isinstance(faces, list):
        return None
    names = [tidy_name(f.get("name")) for f in faces if isinstance(f, Mapping)]
    if not names or any(n is None for n in names):
        return None
    return tidy_name(" // ".join(n for n in names if n))


def obj(value: Any) -> Mapping[str, Any]:
    """`value` when it is a JSON object, else an empty one (missing or wrongly typed fields read as absent)."""
    return value if isinstance(value, Mapping) else {}


def _count_problem(count: Any) -> EntryProblem | None:
    if isinstance(count, bool) or not isinstance(count, int):
        return EntryProblem.COUNT_NOT_WHOLE
    return None if 1 <= count <= MAX_COUNT else EntryProblem.COUNT_OUT_OF_RANGE


def build(site: Site, deck_id: str, name: Any, raws: list[RawEntry]) -> FetchedDeck:
    """Number the entries (commanders first, alphabetical within a section) and build the result."""
    ordered = sorted(raws, key=lambda r: (_SECTION_ORDER.get(r.section, 9), (r.name or "").casefold()))
    entries: list[DeckEntry] = []
    problems: list[ParseProblem] = []
    for position, raw in enumerate(ordered, start=1):
        problem = raw.problem or _count_problem(raw.count)
        if problem is not None or raw.name is None:
            problems.append(
                ParseProblem(
                    position,
                    raw.name or raw.label or f"{raw.section.value} entry",
                    problem or EntryProblem.NO_NAME,
                )
            )
            continue
        entries.append(
            DeckEntry(
                name=raw.name,
                count=raw.count,
                line=position,
                section=raw.section,
                commander_marker=raw.section is Section.COMMANDER,
            )
        )
    if raws and not entries:
        raise not_a_deck(site, "no_entries", f"none of {len(raws)} entries could be read")
    parsed = ParsedDeck(
        entries=entries, problems=problems, deck_name=tidy_name(name), lines_read=len(ordered)
    )
    return FetchedDeck(deck=parsed, site=site, deck_id=deck_id)
