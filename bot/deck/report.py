"""The deck check's answer as data: what is wrong (`Problem`), how the list was read, and the `DeckReport`
that holds them. The words are the presentation layer's (`bot.present.deck_report`); the checks that
make a report are `bot.deck.check`'s.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from bot.deck.entries import Section
from bot.identity.model import Analysis, NonDeckKind, Reason, Verdict


class ProblemKind(StrEnum):
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


KIND_ORDER = tuple(ProblemKind)
#: `Problem.why` of a name the local card data lacks while Scryfall could not confirm it (offline, or the
#: service answered with a card of another name): not checked, rather than "no such card".
NOT_IN_LOCAL_DATA = "not_in_local_data"


class CommanderIssue(StrEnum):
    """What a COMMANDER problem is about."""

    INELIGIBLE = "ineligible"  # `verdict`: the card can't be a commander (CR 903.3)
    CANT_PAIR = "can't pair"  # `verdict`: the two can't lead a deck together (CR 702.124)
    NAMED_TWICE = "named twice"  # the same card given as both commanders
    LIST_NAMES_OTHER = "list names another"  # the list marks `card` as a commander; `others` were checked


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the deck, as data.

    - `card`: the card's full name (or the name as typed, for unknown names and unreadable lines; "A + B" for
      a pair that can't lead a deck together).
    - `lines`: line numbers in the decklist (empty for deck-wide problems and commanders given as options).
    - COLOR, COMPANION: `outside` (the colors outside the deck's identity, WUBRG order), `evidence` (the
      engine's reasons for each of them) and `analysis` (the card's, for its faces).
    - UNKNOWN: `suggestions` (close card names, best first; never used in its place).
    - UNREADABLE: `text` (the line as written) and `why` (the parser's reason).
    - UNCHECKED: `why` (why it could not be looked up, or `NOT_IN_LOCAL_DATA`), `suggestions`; `commander`
      when it is a commander option.
    - COMMANDER: `issue`, with `verdict` (the engine's, INELIGIBLE / CANT_PAIR) or `others` (LIST_NAMES_OTHER).
    - SINGLETON: `count` copies, `limit` allowed. SIZE: `count` cards, `limit` = 100, `others` the commanders.
    - NOT_A_CARD: `not_deck_card` (what it is). BANNED: `commander` / `companion` when it is one.
    """

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
    analysis: Analysis | None = field(default=None, compare=False, repr=False)

    def evidence_for(self, color: str) -> tuple[Reason, ...]:
        return dict(self.evidence).get(color, ())


@dataclass(frozen=True, slots=True)
class Reading:
    """A decklist line whose text after the last `//` was taken for a comment (`Sol Ring // ramp` read as
    Sol Ring, because `Sol Ring // ramp` is no card and `Sol Ring` is one, exactly)."""

    line: int
    typed: str
    read_as: str


@dataclass(frozen=True, slots=True)
class UncheckedCommander:
    """A commander that could not be looked up (Scryfall unreachable).

    - `name`: as typed in the option or the list.
    - `listed`: the list holds it (so it already counts toward the deck size).
    - `reason`: why it could not be looked up.
    """

    name: str
    listed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class Unchecked:
    """A name that could not be checked: `reason` (the lookup's, or `NOT_IN_LOCAL_DATA`) and close names."""

    reason: str
    suggestions: tuple[str, ...] = ()


@dataclass(slots=True)
class DeckReport:
    """The deck check's answer, as data (the presentation layer words it).

    - `card_count`: cards counting the commanders (every deck line, as written); `unverified` of them are
      names that could not be checked or are no card.
    - `excluded`: section -> cards in it that are not the deck (sideboard, maybeboard, tokens, ...).
    - `companions`: the companions (CR 702.139a), outside the 100 and checked against the deck's identity.
    - `warnings`: text already worded by the caller (e.g. the stale-data note); everything else is data.
    - `unchecked_commanders`: commanders that could not be looked up (then `identity_checked` is False).
    - `open_choices`: commanders that choose a color before the game (CR 903.4b) with no color given.
    - `chosen`: commander name -> the color chosen for it (CR 903.4b).
    - `from_list`: commanders taken from the list itself; `second_from_list`: only the second one was.
    - `readings`: lines whose `// text` was read as a comment; `pasted_lines`: the list came on one line and
      was read as this many lines; `unjudged`: cards whose color identity could not be worked out.
    """

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

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def complete(self) -> bool:
        """Every name could be looked up (no "couldn't check" entries)."""
        return not any(p.kind is ProblemKind.UNCHECKED for p in self.problems)

    @property
    def findings(self) -> list[Problem]:
        """Problems actually found (everything except the names that could not be checked)."""
        return [p for p in self.problems if p.kind is not ProblemKind.UNCHECKED]

    def counts(self) -> dict[ProblemKind, int]:
        """Number of problems per kind, in display order, only kinds that occur."""
        found = Counter(p.kind for p in self.problems)
        return {kind: found[kind] for kind in KIND_ORDER if found[kind]}

    def of_kind(self, kind: ProblemKind) -> list[Problem]:
        return [p for p in self.problems if p.kind is kind]
