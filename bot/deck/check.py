"""Deck checks, pure: given a parsed list and the resolved cards, say what is wrong, as data. Names that could
not be looked up are "couldn't check": no finding is made from them. Colors chosen for a commander (CR 903.4b)
count in the deck's identity; sections that are not the deck are only counted."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.cards.model import MAX_SUGGESTIONS
from bot.cards.opinion import Disagreement, differs
from bot.combos.model import ComboFindings
from bot.deck.brackets import BracketFacts, Same, analysis_of, bracket_facts
from bot.deck.entries import DeckEntry, ParsedDeck, Section
from bot.deck.errors import DeckCheckCode, DeckCheckError
from bot.deck.house import HouseRules, house_problems
from bot.deck.report import (
    CommanderIssue,
    DeckReport,
    HouseApplied,
    Problem,
    ProblemKind,
    Unchecked,
    UncheckedCommander,
)
from bot.identity import analyze, check_pairing, commander_eligibility, is_banned
from bot.identity.model import COLOR_WORDS, Analysis, IdentityError, wubrg

DECK_SIZE = 100

_ANY_NUMBER_RE = re.compile(r"deck can have any number of cards named", re.IGNORECASE)
_UP_TO_RE = re.compile(r"deck can have up to (\w+) cards named", re.IGNORECASE)
# `up to seven` (Seven Dwarves)
_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@dataclass(frozen=True, slots=True)
class DeckInput:
    """What the runner resolved, by name as written: `resolved` exactly, `unknown` (-> close names) or
    `unavailable`; `chosen`: the choosers' colors in order (CR 903.4b); `combos`: None when not looked up."""

    parsed: ParsedDeck
    commanders: Sequence[Mapping[str, Any]] = ()
    resolved: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    unknown: Mapping[str, Sequence[str]] = field(default_factory=dict)
    unavailable: Mapping[str, Unchecked] = field(default_factory=dict)
    unchecked_commanders: Sequence[UncheckedCommander] = ()
    chosen: Sequence[str | None] = ()
    house: HouseRules | None = None
    combos: ComboFindings | None = None


def card_key(card: Mapping[str, Any]) -> str:
    """Identity of a card across printings: oracle id, else the name."""
    return str(card.get("oracle_id") or card.get("name") or id(card))


def copy_limit(card: Mapping[str, Any]) -> int | None:
    """How many copies a Commander deck may hold (CR 903.5b); None: any number (basic lands, or the text says)."""
    if "Basic" in str(card.get("type_line") or "").split("//")[0].split("—")[0].split():
        return None
    for face in (card, *(card.get("card_faces") or ())):
        text = str(face.get("oracle_text") or "")
        if _ANY_NUMBER_RE.search(text):
            return None
        if m := _UP_TO_RE.search(text):
            word = m.group(1).lower()
            if word.isdigit() or word in _NUMBER_WORDS:
                return int(word) if word.isdigit() else _NUMBER_WORDS.index(word) + 1
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
    cards: list[dict[str, Any]]
    names: tuple[str, ...]
    keys: set[str]
    identity: str = ""
    judged: bool = False  # the deck's identity is known (every commander looked up and analysed)
    chosen: dict[str, str] = field(default_factory=dict)
    open_choices: tuple[str, ...] = ()
    unjudged: list[str] = field(default_factory=list)
    disputed: dict[str, Disagreement] = field(default_factory=dict)

    def compare(self, card: Mapping[str, Any], analysis: Analysis) -> None:
        """Keep `card` when Scryfall lists another identity than the one read from its cost and text."""
        if (doubt := differs(card, analysis)) is not None:
            self.disputed.setdefault(doubt.name, doubt)


def _leaders(inp: DeckInput) -> _Leaders:
    """The deck's color identity: the commanders' and the colors chosen for them (CR 903.4b, 903.5c). Raises
    `DeckCheckError` for more colors than choosers when every commander was looked up."""
    cards = [dict(c) for c in inp.commanders]
    names = tuple(str(c.get("name", "?")) for c in cards) + tuple(u.name for u in inp.unchecked_commanders)
    out = _Leaders(cards, names, {card_key(c) for c in cards})
    picks: list[tuple[Analysis, str | None]] = []
    colors = list(inp.chosen)
    for card in cards:
        try:
            leader = analyze(card)
        except IdentityError:
            out.unjudged.append(str(card.get("name")))
            continue
        out.compare(card, leader)
        picks.append((leader, colors.pop(0) if colors and leader.chooses_color else None))
    if colors and not inp.unchecked_commanders:  # more colors than commanders that choose one
        if not (choosers := sum(leader.chooses_color for leader, _color in picks)):
            raise DeckCheckError(DeckCheckCode.NO_CHOOSER)
        raise DeckCheckError(DeckCheckCode.TOO_MANY_COLORS, given=len(inp.chosen), choosers=choosers)
    out.chosen = {leader.name: color for leader, color in picks if color}
    out.open_choices = tuple(leader.name for leader, color in picks if leader.chooses_color and not color)
    out.identity = wubrg("".join(a.identity + (color or "") for a, color in picks))
    out.judged = bool(picks) and not inp.unchecked_commanders
    return out


def _leader_problems(leaders: _Leaders, identity_checked: bool) -> list[Problem]:
    """Eligibility of one commander (CR 903.3) or pairing of two (CR 702.124k), and bans."""
    cards = leaders.cards
    names = [str(c.get("name")) for c in cards]
    problems: list[Problem] = []
    if identity_checked and len(cards) == 2 and card_key(cards[0]) != card_key(cards[1]):
        if not (pairing := check_pairing(cards[0], cards[1])).ok:
            issue = CommanderIssue.CANT_PAIR
            problems.append(Problem(ProblemKind.COMMANDER, " + ".join(names), issue=issue, verdict=pairing))
    elif identity_checked and cards:
        if len(cards) == 2:
            problems.append(Problem(ProblemKind.COMMANDER, names[0], issue=CommanderIssue.NAMED_TWICE))
        if not (verdict := commander_eligibility(cards[0])).ok:
            issue = CommanderIssue.INELIGIBLE
            problems.append(Problem(ProblemKind.COMMANDER, names[0], issue=issue, verdict=verdict))
    banned = [str(c.get("name")) for c in {card_key(c): c for c in cards}.values() if is_banned(c)]
    return problems + [Problem(ProblemKind.BANNED, name, commander=True) for name in banned]


@dataclass(slots=True)
class _Groups:
    cards: dict[str, list[DeckEntry]] = field(default_factory=dict)
    card_of: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    unknown: dict[str, list[DeckEntry]] = field(default_factory=dict)
    unchecked: dict[str, list[DeckEntry]] = field(default_factory=dict)


def _group(entries: Sequence[DeckEntry], inp: DeckInput) -> _Groups:
    out = _Groups()
    for entry in entries:
        if (card := inp.resolved.get(entry.name)) is None:
            target = out.unchecked if entry.name in inp.unavailable else out.unknown
            target.setdefault(entry.name, []).append(entry)
        else:
            out.cards.setdefault(card_key(card), []).append(entry)
            out.card_of.setdefault(card_key(card), card)
    return out


def _name_problems(groups: _Groups, inp: DeckInput) -> list[Problem]:
    """Names that are no card and names that could not be checked, each once with all its lines."""
    problems: list[Problem] = []
    for typed, entries in groups.unknown.items():
        close = tuple(s for s in inp.unknown.get(typed, ()) if s)[:MAX_SUGGESTIONS]
        problems.append(Problem(ProblemKind.UNKNOWN, typed, _lines(entries), suggestions=close))
    for typed, entries in groups.unchecked.items():
        why, close = inp.unavailable[typed].reason, inp.unavailable[typed].suggestions[:MAX_SUGGESTIONS]
        problems.append(Problem(ProblemKind.UNCHECKED, typed, _lines(entries), why=why, suggestions=close))
    return problems


def _identity_problems(
    kind: ProblemKind, card: Mapping[str, Any], name: str, lines: tuple[int, ...], leaders: _Leaders
) -> tuple[Analysis | None, list[Problem]]:
    """The card's analysis and, when its identity leaves the deck's (CR 903.4, 903.5c), a `kind` problem."""
    try:
        analysis = analysis_of(Same(card))
    except IdentityError:
        leaders.unjudged.append(name)
        return None, []
    leaders.compare(card, analysis)
    outside = "".join(c for c in analysis.identity if c not in leaders.identity)
    if not (leaders.judged and outside) or (kind is ProblemKind.COLOR and not analysis.deck_card):
        return analysis, []
    evidence = tuple((c, analysis.reasons_for(c)) for c in outside)
    return analysis, [Problem(kind, name, lines, outside=outside, evidence=evidence, analysis=analysis)]


def _card_problems(
    card: Mapping[str, Any], entries: list[DeckEntry], leaders: _Leaders, is_leader: bool
) -> list[Problem]:
    """One card: copies (CR 903.5b), ban, deck card at all, color identity (not for a commander)."""
    name, lines = str(card.get("name", entries[0].name)), _lines(entries)
    count = sum(e.count for e in entries)
    problems: list[Problem] = []
    if (limit := copy_limit(card)) is not None and count > limit:
        problems.append(Problem(ProblemKind.SINGLETON, name, lines, count=count, limit=limit))
    if is_leader:
        return problems
    if is_banned(card):
        problems.append(Problem(ProblemKind.BANNED, name, lines))
    analysis, colors = _identity_problems(ProblemKind.COLOR, card, name, lines, leaders)
    if analysis is not None and not analysis.deck_card:
        problems.append(Problem(ProblemKind.NOT_A_CARD, name, lines, not_deck_card=analysis.not_deck_card))
    return problems + colors


def _companion_problems(
    card: Mapping[str, Any], entries: list[DeckEntry], leaders: _Leaders
) -> list[Problem]:
    """A companion (CR 702.139a) is not one of the 100, but must fit the color identity (CR 903.4)."""
    name, lines = str(card.get("name", entries[0].name)), _lines(entries)
    problems = [Problem(ProblemKind.BANNED, name, lines, companion=True)] if is_banned(card) else []
    return problems + _identity_problems(ProblemKind.COMPANION, card, name, lines, leaders)[1]


def _list_names_other(groups: _Groups, leaders: _Leaders) -> list[Problem]:
    """A card the list marks as a commander that is not one of the commanders checked."""
    problems: list[Problem] = []
    for key, entries in groups.cards.items():
        if (marked := [e for e in entries if e.commander_marker]) and key not in leaders.keys:
            name, lines = str(groups.card_of[key].get("name")), _lines(marked)
            issue = CommanderIssue.LIST_NAMES_OTHER
            problems.append(Problem(ProblemKind.COMMANDER, name, lines, issue=issue, others=leaders.names))
    return problems


def _house_problems(
    rules: HouseRules | None, groups: _Groups, leaders: _Leaders, facts: BracketFacts
) -> tuple[list[Problem], HouseApplied | None]:
    """The server's house rules on every card of the deck, commanders included (not the companion)."""
    if rules is None:
        return [], None
    cards = [(groups.card_of[k], _lines(entries), k in leaders.keys) for k, entries in groups.cards.items()]
    cards += [(c, (), True) for c in leaders.cards if card_key(c) not in groups.cards]
    return house_problems(rules, cards, facts)


def check_deck(inp: DeckInput) -> DeckReport:
    """Run every check. The deck size (CR 903.5a) counts every line, names no card or not checked included."""
    parsed = inp.parsed
    identity_checked = not inp.unchecked_commanders
    leaders = _leaders(inp)
    groups = _group(parsed.deck_entries, inp)
    others = _group([e for e in parsed.excluded_entries if e.section is Section.COMPANION], inp)
    problems = [
        Problem(ProblemKind.UNREADABLE, p.text, (p.line,), text=p.text, why=p.reason) for p in parsed.problems
    ]
    problems += _leader_problems(leaders, identity_checked)
    problems += _name_problems(groups, inp) + _name_problems(others, inp)
    unlisted = [u for u in inp.unchecked_commanders if not u.listed]
    problems += [Problem(ProblemKind.UNCHECKED, u.name, why=u.reason, commander=True) for u in unlisted]
    problems += _list_names_other(groups, leaders)
    for key, entries in groups.cards.items():
        problems += _card_problems(groups.card_of[key], entries, leaders, key in leaders.keys)
    for key, entries in others.cards.items():
        problems += _companion_problems(others.card_of[key], entries, leaders)

    not_cards = {p.card for p in problems if p.kind is ProblemKind.NOT_A_CARD}
    in_deck = {card_key(c): c for c in (*leaders.cards, *groups.card_of.values())}.values()
    deck_cards = [c for c in in_deck if str(c.get("name")) not in not_cards]
    facts = bracket_facts(deck_cards, inp.combos, leaders.names)
    house, applied = _house_problems(inp.house, groups, leaders, facts)
    problems += house
    total = parsed.card_count + sum(key not in groups.cards for key in leaders.keys) + len(unlisted)
    if total != DECK_SIZE:
        problems.append(Problem(ProblemKind.SIZE, count=total, limit=DECK_SIZE, others=leaders.names))
    problems.sort(key=lambda p: (list(ProblemKind).index(p.kind), p.lines[:1] or (0,)))
    excluded = Counter[Section]()
    for entry in parsed.excluded_entries:
        if entry.section is not Section.COMPANION:
            excluded[entry.section] += entry.count
    unverified = [e for entries in (*groups.unknown.values(), *groups.unchecked.values()) for e in entries]
    return DeckReport(
        commanders=leaders.names,
        deck_identity=leaders.identity,
        card_count=total,
        problems=problems,
        excluded=dict(excluded),
        companions=tuple(dict.fromkeys(str(others.card_of[k].get("name")) for k in others.cards))
        + tuple(others.unknown)
        + tuple(others.unchecked),
        unverified=sum(e.count for e in unverified) + len(unlisted),
        deck_name=parsed.deck_name,
        identity_checked=identity_checked,
        chosen=leaders.chosen,
        unchecked_commanders=tuple(inp.unchecked_commanders),
        open_choices=leaders.open_choices,
        unjudged=list(dict.fromkeys(leaders.unjudged)),
        house=applied,
        bracket=facts,
        disputed=tuple(leaders.disputed.values()),
    )
