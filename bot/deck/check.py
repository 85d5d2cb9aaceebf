"""Deck checks. Pure: given a parsed list and the resolved card objects, say what is wrong.

Checks, each naming the offending cards and their line numbers:

- unreadable lines (from the parser);
- unknown card names, with "did you mean" suggestions;
- commander eligibility, partner pairing, and a Commander section that names someone else;
- color identity (CR 903.4, 903.5c): every card's identity inside the commanders' combined identity, with the
  engine's evidence per outside color; lands with basic land types get identity from them (903.5d);
- singleton (903.5b): one copy of each card, except basic lands and cards whose text says a deck can have
  any number (or up to N) of them;
- deck size (903.5a): exactly 100 cards counting the commanders;
- banned in Commander (Scryfall's `legalities.commander == "banned"`; other values are not trusted, see the
  data set's README);
- objects that are not deck cards at all (tokens, emblems, meld results, planes, ...: the engine's
  `Analysis.not_deck_card`);
- names that could not be looked up (Scryfall unreachable): listed once each as "couldn't check"; everything
  else is still checked. When a commander could not be looked up, color identity, eligibility and pairing
  are not checked and a warning says so.

Chosen colors (CR 903.4b): a commander such as The Prismatic Piper has its owner choose a color before the
game; `chosen` gives that color per commander, and it counts in the deck's color identity, as the engine's
`check_fit(..., chosen=...)` counts it. Commanders that choose a color with none given are listed in
`open_choices`.

Everything is data: a `Problem` says what is wrong with which card and why (codes, names, counts, the
engine's verdicts and evidence); the words are the presentation layer's (`bot.present.deck_report`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.deck.parser import DeckEntry, DeckInputError, ParsedDeck
from bot.identity import analyze, check_pairing, commander_eligibility, is_banned
from bot.identity.model import COLOR_WORDS, Analysis, IdentityError, NonDeckKind, Reason, Verdict, wubrg

DECK_SIZE = 100

_ANY_NUMBER_RE = re.compile(r"deck can have any number of cards named", re.IGNORECASE)
_UP_TO_RE = re.compile(r"deck can have up to (\w+) cards named", re.IGNORECASE)
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "twenty": 20,
}


class ProblemKind(StrEnum):
    UNREADABLE = "unreadable"
    UNKNOWN = "unknown"
    UNCHECKED = "unchecked"
    COMMANDER = "commander"
    COLOR = "color"
    SINGLETON = "singleton"
    SIZE = "size"
    BANNED = "banned"
    NOT_A_CARD = "not_a_card"

    @property
    def title(self) -> str:  # type: ignore[override]  # the kind's heading, not str.title()
        return _TITLES[self]

    def label(self, n: int) -> str:
        """'1 off-color card', '3 off-color cards'."""
        singular, plural = _LABELS[self]
        return f"{n} {singular if n == 1 else plural}"


_TITLES = {
    ProblemKind.UNREADABLE: "Unreadable lines",
    ProblemKind.UNKNOWN: "Unknown cards",
    ProblemKind.UNCHECKED: "Couldn't check (Scryfall unreachable)",
    ProblemKind.COMMANDER: "Commander",
    ProblemKind.COLOR: "Outside the color identity",
    ProblemKind.SINGLETON: "More than one copy",
    ProblemKind.SIZE: "Deck size",
    ProblemKind.BANNED: "Banned in Commander",
    ProblemKind.NOT_A_CARD: "Not deck cards",
}
_LABELS = {
    ProblemKind.UNREADABLE: ("unreadable line", "unreadable lines"),
    ProblemKind.UNKNOWN: ("unknown card", "unknown cards"),
    ProblemKind.UNCHECKED: ("card not checked", "cards not checked"),
    ProblemKind.COMMANDER: ("commander problem", "commander problems"),
    ProblemKind.COLOR: ("off-color card", "off-color cards"),
    ProblemKind.SINGLETON: ("duplicate", "duplicates"),
    ProblemKind.SIZE: ("deck size problem", "deck size problems"),
    ProblemKind.BANNED: ("banned card", "banned cards"),
    ProblemKind.NOT_A_CARD: ("non-deck card", "non-deck cards"),
}
KIND_ORDER = tuple(ProblemKind)


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
    - COLOR: `outside` (the colors outside the deck's identity, WUBRG order), `evidence` (the engine's reasons
      for each of them) and `analysis` (the card's, for its faces).
    - UNKNOWN: `suggestions` (close card names, best first).
    - UNREADABLE: `text` (the line as written) and `why` (the parser's reason).
    - UNCHECKED: `why` (why it could not be looked up); `commander` when it is a commander option.
    - COMMANDER: `issue`, with `verdict` (the engine's, INELIGIBLE / CANT_PAIR) or `others` (LIST_NAMES_OTHER).
    - SINGLETON: `count` copies, `limit` allowed. SIZE: `count` cards, `limit` = 100, `others` the commanders.
    - NOT_A_CARD: `not_deck_card` (what it is).
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
    analysis: Analysis | None = field(default=None, compare=False, repr=False)

    def evidence_for(self, color: str) -> tuple[Reason, ...]:
        return dict(self.evidence).get(color, ())


@dataclass(frozen=True, slots=True)
class Reading:
    """A decklist line read as a card other than the name typed: a typo (`Sol Rnig` -> Sol Ring) or, with
    `comment`, a line whose text after the last `//` was taken for a comment (`Sol Ring // ramp`)."""

    line: int
    typed: str
    read_as: str
    comment: bool = False


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
class DeckCard:
    """One distinct card of the deck with every line it appears on."""

    name: str
    card: dict[str, Any]
    count: int
    lines: tuple[int, ...]
    typed: tuple[str, ...]


@dataclass(slots=True)
class DeckReport:
    """The deck check's answer, as data (the presentation layer words it).

    - `warnings`: text already worded by the caller (e.g. the stale-data note); everything else is data.
    - `unchecked_commanders`: commanders that could not be looked up (then `identity_checked` is False).
    - `open_choices`: commanders that choose a color before the game (CR 903.4b) with no color given.
    - `chosen`: commander name -> the color chosen for it (CR 903.4b).
    - `from_list`: commanders taken from the list itself; `second_from_list`: only the second one was.
    - `readings`: lines read as another name than typed; `pasted_lines`: the list came on one line and was
      read as this many lines; `unjudged`: cards whose color identity could not be worked out.
    """

    commanders: tuple[str, ...]
    deck_identity: str
    card_count: int
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    cards: list[DeckCard] = field(default_factory=list)
    excluded: int = 0  # cards in sideboard / maybeboard sections (not checked)
    deck_name: str | None = None
    identity_checked: bool = True  # False when a commander could not be looked up
    chosen: dict[str, str] = field(default_factory=dict)  # commander name -> chosen color (CR 903.4b)
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
        out: dict[ProblemKind, int] = {}
        for kind in KIND_ORDER:
            n = sum(1 for p in self.problems if p.kind is kind)
            if n:
                out[kind] = n
        return out

    def of_kind(self, kind: ProblemKind) -> list[Problem]:
        return [p for p in self.problems if p.kind is kind]


def card_key(card: Mapping[str, Any]) -> str:
    """Identity of a card across printings: oracle id, else the name."""
    return str(card.get("oracle_id") or card.get("name") or id(card))


def _all_texts(card: Mapping[str, Any]) -> list[str]:
    texts = [str(card.get("oracle_text") or "")]
    texts.extend(str(face.get("oracle_text") or "") for face in card.get("card_faces") or ())
    return texts


def is_basic_land(card: Mapping[str, Any]) -> bool:
    """Basic supertype on the (front) type line: the five basics, Wastes, snow-covered basics."""
    type_line = str(card.get("type_line") or "").split("//")[0]
    return "Basic" in type_line.split("—")[0].split()


def copy_limit(card: Mapping[str, Any]) -> int | None:
    """How many copies a Commander deck may hold: None = any number, else the limit (1 for most cards)."""
    if is_basic_land(card):
        return None
    for text in _all_texts(card):
        if _ANY_NUMBER_RE.search(text):
            return None
        m = _UP_TO_RE.search(text)
        if m:
            word = m.group(1).lower()
            if word.isdigit():
                return int(word)
            if word in _NUMBER_WORDS:
                return _NUMBER_WORDS[word]
    return 1


def color_letter(text: str) -> str:
    """The WUBRG letter of a color given as a letter or a word (`r`, `Red`, `{U}`); DeckInputError otherwise."""
    value = str(text).strip().strip("{}").strip().lower()
    if len(value) == 1 and value.upper() in "WUBRG":
        return value.upper()
    if value in COLOR_WORDS:
        return COLOR_WORDS[value]
    raise DeckInputError(f"{str(text)[:40]!r} is not a color; use W, U, B, R, G or white, blue, black, red, green")


def _lines(entries: Sequence[DeckEntry]) -> tuple[int, ...]:
    return tuple(e.line for e in entries)


def _chosen_for(leaders: Sequence[Analysis], chosen: Sequence[str | None]) -> list[str | None]:
    """Per commander, the color chosen for it, kept only for commanders that choose one (CR 903.4b)."""
    out: list[str | None] = []
    for index, leader in enumerate(leaders):
        color = chosen[index] if index < len(chosen) else None
        out.append(color if color and leader.chooses_color else None)
    return out


def check_deck(
    parsed: ParsedDeck,
    commanders: Sequence[Mapping[str, Any]],
    resolved: Mapping[str, Mapping[str, Any]],
    unknown: Mapping[str, Sequence[str]] | None = None,
    *,
    unavailable: Mapping[str, str] | None = None,
    unchecked_commanders: Sequence[UncheckedCommander] = (),
    chosen: Sequence[str | None] = (),
    warnings: Sequence[str] = (),
    readings: Sequence[Reading] = (),
    from_list: Sequence[str] = (),
    second_from_list: bool = False,
    pasted_lines: int | None = None,
) -> DeckReport:
    """Run every check.

    - `commanders`: the card objects of the commander (and partner) the deck is checked against.
    - `resolved`: deck entry name (as parsed) -> card object, for every name that was found.
    - `unknown`: deck entry name -> suggestions, for names that were not found.
    - `unavailable`: deck entry name -> reason, for names that could not be looked up (Scryfall unreachable);
      each becomes one "couldn't check" problem. A deck entry in none of the three mappings is reported as
      unknown with no suggestions.
    - `unchecked_commanders`: commanders that could not be looked up; with any of them, color identity,
      eligibility and pairing are not checked.
    - `chosen`: per commander (same order as `commanders`), the color its owner chose before the game
      (CR 903.4b: a WUBRG letter) or None; it counts in the deck's color identity.
    - `warnings`: already worded warnings to pass on; `readings`, `from_list`, `second_from_list`,
      `pasted_lines`: how the list was read (see `DeckReport`).
    """
    unknown = unknown or {}
    unavailable = unavailable or {}
    commander_cards = [dict(c) for c in commanders]
    commander_names = tuple(str(c.get("name", "?")) for c in commander_cards) \
        + tuple(u.name for u in unchecked_commanders)
    commander_keys = {card_key(c): c for c in commander_cards}
    identity_checked = not unchecked_commanders
    problems: list[Problem] = []

    # Unreadable lines
    for pp in parsed.problems:
        problems.append(Problem(ProblemKind.UNREADABLE, card=pp.text, lines=(pp.line,), text=pp.text, why=pp.reason))

    # Commanders: eligibility (one commander) or pairing (two: check_pairing judges both cards' eligibility
    # itself, and accepts a Background alongside a "Choose a Background" creature, CR 702.124k), banned.
    # With a commander that could not be looked up, neither can be judged.
    if identity_checked and len(commander_cards) == 1:
        verdict = commander_eligibility(commander_cards[0])
        if not verdict.ok:
            problems.append(Problem(ProblemKind.COMMANDER, card=commander_names[0], issue=CommanderIssue.INELIGIBLE,
                                    verdict=verdict))
    elif identity_checked and len(commander_cards) == 2:
        a, b = commander_cards
        if card_key(a) == card_key(b):
            problems.append(Problem(ProblemKind.COMMANDER, card=str(a.get("name")), issue=CommanderIssue.NAMED_TWICE))
            verdict = commander_eligibility(a)
            if not verdict.ok:
                problems.append(Problem(ProblemKind.COMMANDER, card=str(a.get("name")),
                                        issue=CommanderIssue.INELIGIBLE, verdict=verdict))
        else:
            pairing = check_pairing(a, b)
            if not pairing.ok:
                problems.append(Problem(ProblemKind.COMMANDER, card=f"{a.get('name')} + {b.get('name')}",
                                        issue=CommanderIssue.CANT_PAIR, verdict=pairing))
    for card in commander_keys.values():
        if is_banned(card):
            problems.append(Problem(ProblemKind.BANNED, card=str(card.get("name")), commander=True))

    # Group deck entries by card
    groups: dict[str, list[DeckEntry]] = {}
    group_card: dict[str, Mapping[str, Any]] = {}
    unknown_groups: dict[str, list[DeckEntry]] = {}
    unchecked_groups: dict[str, list[DeckEntry]] = {}
    for entry in parsed.deck_entries:
        entry_card = resolved.get(entry.name)
        if entry_card is None:
            target = unchecked_groups if entry.name in unavailable else unknown_groups
            target.setdefault(entry.name, []).append(entry)
            continue
        key = card_key(entry_card)
        groups.setdefault(key, []).append(entry)
        group_card.setdefault(key, entry_card)

    for typed, entries in unknown_groups.items():
        suggestions = tuple(s for s in unknown.get(typed, ()) if s)[:5]
        problems.append(Problem(ProblemKind.UNKNOWN, card=typed, lines=_lines(entries), suggestions=suggestions))

    # Names that could not be looked up: each once, with every line it is on
    for typed, entries in unchecked_groups.items():
        problems.append(Problem(ProblemKind.UNCHECKED, card=typed, lines=_lines(entries), why=unavailable[typed]))
    for missing_leader in unchecked_commanders:
        if not missing_leader.listed:
            problems.append(Problem(ProblemKind.UNCHECKED, card=missing_leader.name, why=missing_leader.reason,
                                    commander=True))

    # Commander section naming someone else
    for key, entries in groups.items():
        marked = [e for e in entries if e.commander_marker]
        if marked and key not in commander_keys:
            problems.append(Problem(ProblemKind.COMMANDER, card=str(group_card[key].get("name")),
                                    lines=_lines(marked), issue=CommanderIssue.LIST_NAMES_OTHER,
                                    others=commander_names))

    # The commanders' analyses, computed once, and the deck's color identity: the union of their identities
    # and the colors chosen for them (CR 903.4b, 903.5c). Eligibility and pairing were checked above, so each
    # card needs only its identity colors outside the deck's, with the engine's evidence for them (what
    # `check_fit` gives as `outside` and `evidence`).
    leaders: list[Analysis] = []
    leader_chosen: list[str | None] = []
    unjudged: list[str] = []
    for index, card in enumerate(commander_cards):
        try:
            leaders.append(analyze(card))
            leader_chosen.append(chosen[index] if index < len(chosen) else None)
        except IdentityError:
            unjudged.append(str(card.get("name")))
    picks = _chosen_for(leaders, leader_chosen)
    chosen_by_name = {leader.name: color for leader, color in zip(leaders, picks, strict=True) if color}
    open_choices = tuple(leader.name for leader, color in zip(leaders, picks, strict=True)
                         if leader.chooses_color and not color)
    deck_identity = wubrg("".join(a.identity for a in leaders) + "".join(c for c in picks if c))
    check_colors = bool(leaders) and identity_checked

    # Per-card checks
    cards: list[DeckCard] = []
    for key, entries in groups.items():
        deck_card = group_card[key]
        name = str(deck_card.get("name", entries[0].name))
        count = sum(e.count for e in entries)
        lines = _lines(entries)
        cards.append(DeckCard(name, dict(deck_card), count, lines, tuple(dict.fromkeys(e.name for e in entries))))
        limit = copy_limit(deck_card)
        if limit is not None and count > limit:
            problems.append(Problem(ProblemKind.SINGLETON, card=name, lines=lines, count=count, limit=limit))
        if key in commander_keys:
            continue  # commanders are checked above
        if is_banned(deck_card):
            problems.append(Problem(ProblemKind.BANNED, card=name, lines=lines))
        try:
            analysis = analyze(dict(deck_card))
        except IdentityError:
            unjudged.append(name)
            continue
        if not analysis.deck_card:
            problems.append(Problem(ProblemKind.NOT_A_CARD, card=name, lines=lines,
                                    not_deck_card=analysis.not_deck_card))
            continue
        if not check_colors:
            continue
        outside = "".join(c for c in analysis.identity if c not in deck_identity)
        if outside:
            evidence = tuple((color, analysis.reasons_for(color)) for color in outside)
            problems.append(Problem(ProblemKind.COLOR, card=name, lines=lines, outside=outside,
                                    evidence=evidence, analysis=analysis))

    # Deck size: every card line counts (unknown and unchecked names too), plus commanders not listed.
    listed = sum(e.count for e in parsed.deck_entries)
    missing_commanders = sum(1 for key in commander_keys if key not in groups) \
        + sum(1 for u in unchecked_commanders if not u.listed)
    total = listed + missing_commanders
    if total != DECK_SIZE:
        problems.append(Problem(ProblemKind.SIZE, count=total, limit=DECK_SIZE, others=commander_names))

    order = {kind: i for i, kind in enumerate(KIND_ORDER)}
    problems.sort(key=lambda p: (order[p.kind], p.lines[:1] or (0,)))
    return DeckReport(
        commanders=commander_names,
        deck_identity=deck_identity,
        card_count=total,
        problems=problems,
        warnings=list(dict.fromkeys(warnings)),
        cards=cards,
        excluded=sum(e.count for e in parsed.excluded_entries),
        deck_name=parsed.deck_name,
        identity_checked=identity_checked,
        chosen=chosen_by_name,
        unchecked_commanders=tuple(unchecked_commanders),
        open_choices=open_choices,
        from_list=tuple(from_list),
        second_from_list=second_from_list,
        readings=list(readings),
        pasted_lines=pasted_lines,
        unjudged=list(dict.fromkeys(unjudged)),
    )
