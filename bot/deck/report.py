"""The deck check's answer as data (`DeckReport`, `Problem`); `bot.present.deck_report` words it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from bot.cards.opinion import Disagreement
from bot.deck.brackets import BracketFacts
from bot.deck.entries import Section
from bot.identity.model import Analysis, NonDeckKind, Reason, Verdict


class ProblemKind(StrEnum):  # in display order
    UNREADABLE = "unreadable"
    UNKNOWN = "unknown"
    UNCHECKED = "unchecked"
    COMMANDER = "commander"
    COMPANION = "companion"
    COLOR = "color"
    SINGLETON = "singleton"
    SIZE = "size"
    BANNED = "banned"
    NOT_A_CARD = "not_a_card"
    HOUSE_BANNED = "house_banned"  # banned by the server's house rules (`bot.deck.house`)
    HOUSE_BRACKET = "house_bracket"  # Game Changers, cards or combos the server's bracket does not allow


# `Problem.why` of a name the local data lacks while Scryfall could not confirm it: not checked, not "no card".
NOT_IN_LOCAL_DATA = "not_in_local_data"


class CommanderIssue(StrEnum):
    INELIGIBLE = "ineligible"  # `verdict`: the card can't be a commander (CR 903.3)
    CANT_PAIR = "can't pair"  # `verdict`: the two can't lead a deck together (CR 702.124)
    NAMED_TWICE = "named twice"  # the same card given as both commanders
    LIST_NAMES_OTHER = "list names another"  # the list marks `card` as a commander; `others` were checked


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the deck: `card` (as typed for unknown names; "A + B" for a pair), its `lines`.
    COLOR, COMPANION: `outside` colors and their `evidence`; UNKNOWN, UNCHECKED: `suggestions`; COMMANDER:
    `issue` with `verdict` or `others`; SINGLETON, SIZE: `count` against `limit`; HOUSE_BRACKET over the
    server's `bracket`: the Game Changers (`others`, `count`) against its `limit`, or a card or combo (`card`)
    meeting a guideline (`why`: the `Guideline`, or "combo") whose floor is `limit`."""

    kind: ProblemKind
    card: str | None = None
    lines: tuple[int, ...] = ()
    outside: str = ""
    evidence: tuple[tuple[str, tuple[Reason, ...]], ...] = ()
    suggestions: tuple[str, ...] = ()
    issue: CommanderIssue | None = None
    verdict: Verdict | None = None
    count: int = 0
    limit: int | None = None
    not_deck_card: NonDeckKind | None = None
    text: str = ""
    why: str = ""
    others: tuple[str, ...] = ()
    commander: bool = False
    companion: bool = False
    bracket: int | None = None  # HOUSE_BRACKET: the server's bracket
    analysis: Analysis | None = field(default=None, compare=False, repr=False)

    def evidence_for(self, color: str) -> tuple[Reason, ...]:
        return dict(self.evidence).get(color, ())


@dataclass(frozen=True, slots=True)
class Reading:
    """A line whose text after the last `//` was taken for a comment (`Sol Ring // ramp` is no card)."""

    line: int
    typed: str
    read_as: str


@dataclass(frozen=True, slots=True)
class UncheckedCommander:
    """A commander that could not be looked up; `listed`: the list holds it (it counts toward the size)."""

    name: str
    listed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class Unchecked:
    """A name that could not be checked: `reason` (the lookup's, or `NOT_IN_LOCAL_DATA`) and close names."""

    reason: str
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HouseApplied:
    """The house rules a deck check applied (`bot.deck.house`): how many cards the server bans, its bracket."""

    bans: int
    bracket: int | None


@dataclass(slots=True)
class DeckReport:
    """The deck check's answer. `card_count` counts the commanders, `unverified` of them are no card or not
    checked; `excluded`: section -> cards not in the deck; `warnings`: text the caller worded; `open_choices`:
    commanders that choose a color (CR 903.4b) with none given; `bracket`: what sets the deck's bracket
    (commanders included); `disputed`: cards whose identity Scryfall lists otherwise."""

    commanders: tuple[str, ...]
    deck_identity: str
    card_count: int
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    excluded: dict[Section, int] = field(default_factory=dict)
    companions: tuple[str, ...] = ()
    unverified: int = 0
    deck_name: str | None = None
    identity_checked: bool = True
    chosen: dict[str, str] = field(default_factory=dict)
    unchecked_commanders: tuple[UncheckedCommander, ...] = ()
    open_choices: tuple[str, ...] = ()
    from_list: tuple[str, ...] = ()
    second_from_list: bool = False
    readings: list[Reading] = field(default_factory=list)
    pasted_lines: int | None = None
    unjudged: list[str] = field(default_factory=list)
    house: HouseApplied | None = None  # the server's house rules this check applied
    bracket: BracketFacts = field(default_factory=BracketFacts)
    disputed: tuple[Disagreement, ...] = ()

    @property
    def game_changers(self) -> tuple[str, ...]:
        return self.bracket.game_changers

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def unsure(self) -> bool:
        """A card's identity is disputed and every finding is about identity: the verdict may turn on it."""
        identity_kinds = (ProblemKind.COLOR, ProblemKind.COMPANION)
        return bool(self.disputed) and all(p.kind in identity_kinds for p in self.findings)

    @property
    def complete(self) -> bool:
        """Every name could be looked up."""
        return not any(p.kind is ProblemKind.UNCHECKED for p in self.problems)

    @property
    def findings(self) -> list[Problem]:
        """Problems found (not the names that could not be checked)."""
        return [p for p in self.problems if p.kind is not ProblemKind.UNCHECKED]

    def counts(self) -> dict[ProblemKind, int]:
        """Problems per kind, in display order, only kinds that occur."""
        found = Counter(p.kind for p in self.problems)
        return {kind: found[kind] for kind in ProblemKind if found[kind]}

    def of_kind(self, kind: ProblemKind) -> list[Problem]:
        return [p for p in self.problems if p.kind is kind]
