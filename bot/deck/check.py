"""Deck checks. Pure: given a parsed list and the resolved card objects, say what is wrong.

Checks, each naming the offending cards and their line numbers:

- unreadable lines (from the parser);
- names that are no card, with close names as suggestions (never read as one of them: the runner gives
  `resolved` only for names that name their card exactly);
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
- names that could not be looked up (Scryfall unreachable, or not in the local data while it was): listed
  once each as "couldn't check", with close names; everything else is still checked. No finding (identity,
  copies, ban) is made from such a name; the deck size counts its line and says how many were not checked.
  When a commander could not be looked up, color identity, eligibility and pairing are not checked;
- the companion (CR 702.139a): outside the 100, inside the commanders' color identity (CR 903.4), not banned.

Sections that are not the deck (sideboard, maybeboard, tokens, ...) are not checked; `DeckReport.excluded`
counts their cards per section.

Chosen colors (CR 903.4b): a commander such as The Prismatic Piper has its owner choose a color before the
game; `chosen` gives that color per commander, and it counts in the deck's color identity, as the engine's
`check_fit(..., chosen=...)` counts it. Commanders that choose a color with none given are listed in
`open_choices`.

Everything is data: a `Problem` says what is wrong with which card and why (codes, names, counts, the
engine's verdicts and evidence); the words are the presentation layer's (`bot.present.deck_report`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.deck.entries import DeckEntry, ParsedDeck, Section
from bot.deck.errors import DeckCheckCode, DeckCheckError
from bot.deck.report import (
    KIND_ORDER,
    CommanderIssue,
    DeckReport,
    Problem,
    ProblemKind,
    Reading,
    Unchecked,
    UncheckedCommander,
)
from bot.identity import analyze, check_pairing, commander_eligibility, is_banned
from bot.identity.model import COLOR_WORDS, Analysis, IdentityError, wubrg

DECK_SIZE = 100
MAX_SUGGESTIONS = 5

_ANY_NUMBER_RE = re.compile(r"deck can have any number of cards named", re.IGNORECASE)
_UP_TO_RE = re.compile(r"deck can have up to (\w+) cards named", re.IGNORECASE)
_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "twenty": 20,
}


@dataclass(frozen=True, slots=True)
class DeckInput:
    """What the runner resolved for one check.

    - `commanders`: the card objects of the commander (and partner) the deck is checked against.
    - `resolved`: name as written -> card object, only for names that name that card exactly.
    - `unknown`: name as written -> close names, for names no card has.
    - `unavailable`: name as written -> `Unchecked`, for names that could not be checked. A name of the list
      in none of the three is unknown, with no suggestions.
    - `unchecked_commanders`: commanders that could not be looked up; with any of them, color identity,
      eligibility and pairing are not checked.
    - `chosen`: per commander (same order as `commanders`), the color its owner chose before the game
      (CR 903.4b: a WUBRG letter) or None; it counts in the deck's color identity.
    - `warnings`, `readings`, `from_list`, `second_from_list`, `pasted_lines`: passed on (see `DeckReport`).
    """

    parsed: ParsedDeck
    commanders: Sequence[Mapping[str, Any]] = ()
    resolved: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    unknown: Mapping[str, Sequence[str]] = field(default_factory=dict)
    unavailable: Mapping[str, Unchecked] = field(default_factory=dict)
    unchecked_commanders: Sequence[UncheckedCommander] = ()
    chosen: Sequence[str | None] = ()
    warnings: Sequence[str] = ()
    readings: Sequence[Reading] = ()
    from_list: Sequence[str] = ()
    second_from_list: bool = False
    pasted_lines: int | None = None


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
    """The WUBRG letter of a color given as a letter or a word (`r`, `Red`, `{U}`); DeckCheckError otherwise."""
    value = str(text).strip().strip("{}").strip().lower()
    if len(value) == 1 and value.upper() in "WUBRG":
        return value.upper()
    if value in COLOR_WORDS:
        return COLOR_WORDS[value]
    raise DeckCheckError(DeckCheckCode.NOT_A_COLOR, text=str(text)[:40])


def _lines(entries: Sequence[DeckEntry]) -> tuple[int, ...]:
    return tuple(e.line for e in entries)


@dataclass(slots=True)
class _Leaders:
    """The commanders as the checks need them: cards, names, analyses and the deck's color identity."""

    cards: list[dict[str, Any]]
    names: tuple[str, ...]
    keys: set[str]
    identity: str = ""
    judged: bool = False  # the deck's identity is known (every commander looked up and analysed)
    chosen: dict[str, str] = field(default_factory=dict)
    open_choices: tuple[str, ...] = ()
    unjudged: list[str] = field(default_factory=list)


def _leaders(inp: DeckInput) -> _Leaders:
    """The commanders' analyses and the deck's color identity: the union of their identities and the colors
    chosen for them (CR 903.4b, 903.5c)."""
    cards = [dict(c) for c in inp.commanders]
    names = tuple(str(c.get("name", "?")) for c in cards) + tuple(u.name for u in inp.unchecked_commanders)
    out = _Leaders(cards, names, {card_key(c) for c in cards})
    picks: list[tuple[Analysis, str | None]] = []
    for index, card in enumerate(cards):
        try:
            leader = analyze(card)
        except IdentityError:
            out.unjudged.append(str(card.get("name")))
            continue
        color = inp.chosen[index] if index < len(inp.chosen) else None
        picks.append((leader, color if color and leader.chooses_color else None))
    out.chosen = {leader.name: color for leader, color in picks if color}
    out.open_choices = tuple(leader.name for leader, color in picks if leader.chooses_color and not color)
    out.identity = wubrg("".join(a.identity + (color or "") for a, color in picks))
    out.judged = bool(picks) and not inp.unchecked_commanders
    return out


def _unreadable(parsed: ParsedDeck) -> list[Problem]:
    return [
        Problem(ProblemKind.UNREADABLE, card=pp.text, lines=(pp.line,), text=pp.text, why=pp.reason)
        for pp in parsed.problems
    ]


def _leader_problems(leaders: _Leaders, identity_checked: bool) -> list[Problem]:
    """Eligibility (one commander, CR 903.3) or pairing (two: `check_pairing` judges both cards' eligibility
    itself, and accepts a Background alongside a "Choose a Background" creature, CR 702.124k), and bans.
    With a commander that could not be looked up, neither can be judged."""
    cards = leaders.cards
    problems: list[Problem] = []
    if identity_checked and len(cards) == 2 and card_key(cards[0]) != card_key(cards[1]):
        pairing = check_pairing(cards[0], cards[1])
        if not pairing.ok:
            problems.append(
                Problem(
                    ProblemKind.COMMANDER,
                    card=f"{cards[0].get('name')} + {cards[1].get('name')}",
                    issue=CommanderIssue.CANT_PAIR,
                    verdict=pairing,
                )
            )
    elif identity_checked and cards:
        if len(cards) == 2:
            problems.append(
                Problem(
                    ProblemKind.COMMANDER, card=str(cards[0].get("name")), issue=CommanderIssue.NAMED_TWICE
                )
            )
        verdict = commander_eligibility(cards[0])
        if not verdict.ok:
            problems.append(
                Problem(
                    ProblemKind.COMMANDER,
                    card=str(cards[0].get("name")),
                    issue=CommanderIssue.INELIGIBLE,
                    verdict=verdict,
                )
            )
    unique = {card_key(c): c for c in cards}.values()
    problems.extend(
        Problem(ProblemKind.BANNED, card=str(c.get("name")), commander=True) for c in unique if is_banned(c)
    )
    return problems


@dataclass(slots=True)
class _Groups:
    """Entries grouped: by card (names that name a card exactly), and by name for the rest."""

    cards: dict[str, list[DeckEntry]] = field(default_factory=dict)
    card_of: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    unknown: dict[str, list[DeckEntry]] = field(default_factory=dict)
    unchecked: dict[str, list[DeckEntry]] = field(default_factory=dict)


def _group(entries: Sequence[DeckEntry], inp: DeckInput) -> _Groups:
    out = _Groups()
    for entry in entries:
        card = inp.resolved.get(entry.name)
        if card is None:
            target = out.unchecked if entry.name in inp.unavailable else out.unknown
            target.setdefault(entry.name, []).append(entry)
            continue
        key = card_key(card)
        out.cards.setdefault(key, []).append(entry)
        out.card_of.setdefault(key, card)
    return out


def _name_problems(groups: _Groups, inp: DeckInput) -> list[Problem]:
    """Names that are no card (with close names) and names that could not be checked, each once with every
    line it is on; nothing else is said about them."""
    problems = [
        Problem(
            ProblemKind.UNKNOWN,
            card=typed,
            lines=_lines(entries),
            suggestions=tuple(s for s in inp.unknown.get(typed, ()) if s)[:MAX_SUGGESTIONS],
        )
        for typed, entries in groups.unknown.items()
    ]
    for typed, entries in groups.unchecked.items():
        why = inp.unavailable[typed]
        problems.append(
            Problem(
                ProblemKind.UNCHECKED,
                card=typed,
                lines=_lines(entries),
                why=why.reason,
                suggestions=why.suggestions[:MAX_SUGGESTIONS],
            )
        )
    return problems


def _outside(analysis: Analysis, leaders: _Leaders) -> str:
    return "".join(c for c in analysis.identity if c not in leaders.identity)


def _card_problems(
    card: Mapping[str, Any], entries: list[DeckEntry], leaders: _Leaders, is_leader: bool
) -> list[Problem]:
    """One card of the deck: copies (CR 903.5b), ban, deck card at all, color identity (CR 903.4, 903.5c;
    lands with basic land types, 903.5d, are the engine's). Commanders are judged by `_leader_problems`."""
    name, lines = str(card.get("name", entries[0].name)), _lines(entries)
    count = sum(e.count for e in entries)
    problems: list[Problem] = []
    limit = copy_limit(card)
    if limit is not None and count > limit:
        problems.append(Problem(ProblemKind.SINGLETON, card=name, lines=lines, count=count, limit=limit))
    if is_leader:
        return problems
    if is_banned(card):
        problems.append(Problem(ProblemKind.BANNED, card=name, lines=lines))
    try:
        analysis = analyze(dict(card))
    except IdentityError:
        leaders.unjudged.append(name)
        return problems
    if not analysis.deck_card:
        problems.append(
            Problem(ProblemKind.NOT_A_CARD, card=name, lines=lines, not_deck_card=analysis.not_deck_card)
        )
    elif leaders.judged and (outside := _outside(analysis, leaders)):
        problems.append(
            Problem(
                ProblemKind.COLOR,
                card=name,
                lines=lines,
                outside=outside,
                evidence=tuple((c, analysis.reasons_for(c)) for c in outside),
                analysis=analysis,
            )
        )
    return problems


def _companion_problems(
    card: Mapping[str, Any], entries: list[DeckEntry], leaders: _Leaders
) -> list[Problem]:
    """A companion (CR 702.139a) starts the game outside it, so it is not one of the 100; in Commander it
    must still be inside the commanders' color identity (CR 903.4), and a banned card can't be one."""
    name, lines = str(card.get("name", entries[0].name)), _lines(entries)
    problems = (
        [Problem(ProblemKind.BANNED, card=name, lines=lines, companion=True)] if is_banned(card) else []
    )
    try:
        analysis = analyze(dict(card))
    except IdentityError:
        leaders.unjudged.append(name)
        return problems
    if leaders.judged and (outside := _outside(analysis, leaders)):
        problems.append(
            Problem(
                ProblemKind.COMPANION,
                card=name,
                lines=lines,
                outside=outside,
                evidence=tuple((c, analysis.reasons_for(c)) for c in outside),
                analysis=analysis,
            )
        )
    return problems


def _list_names_other(groups: _Groups, leaders: _Leaders) -> list[Problem]:
    """A card the list marks as a commander that is not one of the commanders checked."""
    problems: list[Problem] = []
    for key, entries in groups.cards.items():
        marked = [e for e in entries if e.commander_marker]
        if marked and key not in leaders.keys:
            problems.append(
                Problem(
                    ProblemKind.COMMANDER,
                    card=str(groups.card_of[key].get("name")),
                    lines=_lines(marked),
                    issue=CommanderIssue.LIST_NAMES_OTHER,
                    others=leaders.names,
                )
            )
    return problems


def check_deck(inp: DeckInput) -> DeckReport:
    """Run every check (see the module docstring). Nothing is said about a name that is no card or could not
    be checked beyond that; the deck size counts every line as written (CR 903.5a) and says how many of
    those cards could not be checked."""
    parsed = inp.parsed
    identity_checked = not inp.unchecked_commanders
    leaders = _leaders(inp)
    groups = _group(parsed.deck_entries, inp)
    companions = [e for e in parsed.excluded_entries if e.section is Section.COMPANION]
    others = _group(companions, inp)
    problems = _unreadable(parsed) + _leader_problems(leaders, identity_checked)
    problems += _name_problems(groups, inp) + _name_problems(others, inp)
    problems += [
        Problem(ProblemKind.UNCHECKED, card=u.name, why=u.reason, commander=True)
        for u in inp.unchecked_commanders
        if not u.listed
    ]
    problems += _list_names_other(groups, leaders)
    for key, entries in groups.cards.items():
        problems += _card_problems(groups.card_of[key], entries, leaders, key in leaders.keys)
    for key, entries in others.cards.items():
        problems += _companion_problems(others.card_of[key], entries, leaders)

    missing = sum(1 for key in leaders.keys if key not in groups.cards) + sum(
        1 for u in inp.unchecked_commanders if not u.listed
    )
    total = parsed.card_count + missing
    if total != DECK_SIZE:
        problems.append(Problem(ProblemKind.SIZE, count=total, limit=DECK_SIZE, others=leaders.names))
    order = {kind: i for i, kind in enumerate(KIND_ORDER)}
    problems.sort(key=lambda p: (order[p.kind], p.lines[:1] or (0,)))
    excluded = Counter[Section]()
    for entry in parsed.excluded_entries:
        if entry.section is not Section.COMPANION:
            excluded[entry.section] += entry.count
    return DeckReport(
        commanders=leaders.names,
        deck_identity=leaders.identity,
        card_count=total,
        problems=problems,
        warnings=list(dict.fromkeys(inp.warnings)),
        excluded=dict(excluded),
        companions=tuple(dict.fromkeys(str(others.card_of[k].get("name")) for k in others.cards))
        + tuple(others.unknown)
        + tuple(others.unchecked),
        unverified=sum(
            e.count for entries in (*groups.unknown.values(), *groups.unchecked.values()) for e in entries
        )
        + sum(1 for u in inp.unchecked_commanders if not u.listed),
        deck_name=parsed.deck_name,
        identity_checked=identity_checked,
        chosen=leaders.chosen,
        unchecked_commanders=tuple(inp.unchecked_commanders),
        open_choices=leaders.open_choices,
        from_list=tuple(inp.from_list),
        second_from_list=inp.second_from_list,
        readings=list(inp.readings),
        pasted_lines=inp.pasted_lines,
        unjudged=list(dict.fromkeys(leaders.unjudged)),
    )
