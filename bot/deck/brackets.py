"""A deck's Commander bracket from its contents, as facts: the lowest bracket (Wizards' Commander Brackets,
updated October 2025) whose rules allow every Game Changer, mass land denial and extra-turn card
(`bot.identity.guideline_findings`) and Commander Spellbook two-card combo (`bot.combos.model.classify`); the
limits are `limits` and the table in docs/brackets.md. Intent (1 or 2, 4 or 5) is left to words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from bot.combos.model import Combo, ComboClass, ComboFindings, classify
from bot.identity import Analysis, Guideline, GuidelineFinding, analyze, guideline_findings

Card = Mapping[str, Any]
BRACKETS = (1, 2, 3, 4, 5)
# The most Game Changers each bracket allows; None: any number.
MAX_GAME_CHANGERS: Mapping[int, int | None] = {1: 0, 2: 0, 3: 3, 4: None, 5: None}
# The lowest bracket whose rules allow a card meeting the guideline.
GUIDELINE_FLOORS: Mapping[Guideline, int] = {Guideline.EXTRA_TURN: 2, Guideline.MASS_LAND_DENIAL: 4}
TWO_CARD_FLOOR, EARLY_TWO_CARD_FLOOR = 3, 4


def is_game_changer(card: Card) -> bool:
    """Whether Scryfall lists the card as a Game Changer (`game_changer: true`)."""
    return card.get("game_changer") is True


def allows(bracket: int, game_changers: int) -> bool:
    """Whether a deck with `game_changers` Game Changers may play in `bracket`."""
    return (limit := MAX_GAME_CHANGERS[bracket]) is None or game_changers <= limit


def bracket_floor(game_changers: int) -> int:
    """The lowest bracket a deck with this many Game Changers may play in (1 when it has none)."""
    return next(bracket for bracket in BRACKETS if allows(bracket, game_changers))


@dataclass(frozen=True, slots=True)
class Flagged:
    """A card meeting a text guideline, with the first line that makes it so."""

    name: str
    finding: GuidelineFinding

    @property
    def floor(self) -> int:
        return GUIDELINE_FLOORS[self.finding.guideline]


class Same:
    """A card keyed by identity for the memos below: `CardCache.parse` serves one read-only object per card."""

    __slots__ = ("card",)

    def __init__(self, card: Card) -> None:
        self.card = card

    def __hash__(self) -> int:
        return id(self.card)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.card is self.card


@lru_cache(maxsize=2048)
def analysis_of(held: Same) -> Analysis:
    """`analyze` of the card, once per card object a deck check sees again (`IdentityError` is not kept)."""
    return analyze(dict(held.card))


def flags(card: Card) -> tuple[Flagged, ...]:
    """The card's guidelines, one finding each (its first line)."""
    return _flags(Same(card))


@lru_cache(maxsize=2048)
def _flags(held: Same) -> tuple[Flagged, ...]:
    first: dict[Guideline, GuidelineFinding] = {}
    for finding in guideline_findings(held.card):
        first.setdefault(finding.guideline, finding)
    return tuple(Flagged(str(held.card.get("name") or "?"), f) for f in first.values())


def limits(bracket: int, card: Card) -> bool:
    """Whether `bracket` limits `card`: a Game Changer where they are counted, or a guideline it doesn't allow."""
    changer = is_game_changer(card) and MAX_GAME_CHANGERS[bracket] is not None
    return changer or any(f.floor > bracket for f in flags(card))


@dataclass(frozen=True, slots=True)
class DeckCombo:
    """A combo the deck holds every card of, as Spellbook's estimate sees it in this deck."""

    combo: Combo
    kind: ComboClass

    @property
    def floor(self) -> int | None:
        """The bracket a two-card combo with a result of its own sets (early: 4, else 3); None for others."""
        if not (self.kind.relevant and self.kind.definitely_two_card):
            return None
        return EARLY_TWO_CARD_FLOOR if self.kind.early else TWO_CARD_FLOOR

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(piece.name for piece in self.combo.uses)


@dataclass(frozen=True, slots=True)
class BracketFacts:
    """What sets a deck's bracket; `combos_checked` False: there was no combo data to check combos with."""

    game_changers: tuple[str, ...] = ()
    flagged: tuple[Flagged, ...] = ()
    combos: tuple[DeckCombo, ...] = ()
    combos_checked: bool = False

    @property
    def floor(self) -> int:
        """The lowest bracket whose rules allow everything in the deck."""
        floors = [c.floor for c in self.combos if c.floor is not None]
        return max([bracket_floor(len(self.game_changers)), *(f.floor for f in self.flagged), *floors])

    def of(self, guideline: Guideline) -> tuple[Flagged, ...]:
        return tuple(f for f in self.flagged if f.finding.guideline is guideline)

    def over(self, bracket: int) -> BracketFacts:
        """Only what `bracket` does not allow (a server's house bracket)."""
        return replace(
            self,
            game_changers=() if allows(bracket, len(self.game_changers)) else self.game_changers,
            flagged=tuple(f for f in self.flagged if f.floor > bracket),
            combos=tuple(c for c in self.combos if (c.floor or 0) > bracket),
        )

    @property
    def empty(self) -> bool:
        return not (self.game_changers or self.flagged or self.combos)


def bracket_facts(
    cards: Iterable[Card], combos: ComboFindings | None, commanders: Sequence[str] = ()
) -> BracketFacts:
    """The facts of a deck's `cards` (each once, commanders included, deck cards only) and its `combos`."""
    cards = list(cards)
    changers = tuple(dict.fromkeys(str(c.get("name")) for c in cards if is_game_changer(c)))
    flagged = tuple(f for card in cards for f in flags(card))
    found = combos.combos if combos is not None else ()
    in_deck = tuple(DeckCombo(combo, classify(combo, commanders)) for combo in found)
    ranked = sorted(in_deck, key=lambda c: -(c.floor or 0))  # stable: most popular first within a floor
    return BracketFacts(changers, flagged, tuple(ranked), combos is not None and combos.checked)
