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
- objects that are not deck cards at all (tokens, emblems, planes, schemes, vanguards);
- names that could not be looked up (Scryfall unreachable): listed once each as "couldn't check"; everything
  else is still checked. When a commander could not be looked up, color identity, eligibility and pairing
  are not checked and a warning says so.

Chosen colors (CR 903.4b): a commander such as The Prismatic Piper has its owner choose a color before the
game; `chosen` gives that color per commander, and it joins the deck's color identity.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.deck.parser import DeckEntry, DeckInputError, ParsedDeck
from bot.identity import analyze, check_fit, check_pairing, commander_eligibility
from bot.identity.model import Analysis, IdentityError, Reason, wubrg

DECK_SIZE = 100
NOT_DECK_CARD_LAYOUTS = {
    "token": "a token",
    "double_faced_token": "a token",
    "emblem": "an emblem",
    "planar": "a plane or phenomenon",
    "scheme": "a scheme",
    "vanguard": "a vanguard",
    "art_series": "an art card",
}

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


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the deck.

    - `card`: the card's full name (or the name as typed, for unknown names and unreadable lines).
    - `lines`: line numbers in the decklist (empty for deck-wide problems and commanders given as options).
    - `outside`, `evidence`: for color problems, the colors outside the deck's identity (WUBRG order) and
      the engine's reasons for each of them.
    - `suggestions`: for unknown names, close card names, best first.
    """

    kind: ProblemKind
    message: str
    card: str | None = None
    lines: tuple[int, ...] = ()
    outside: str = ""
    evidence: tuple[tuple[str, tuple[Reason, ...]], ...] = ()
    suggestions: tuple[str, ...] = ()

    def evidence_for(self, color: str) -> tuple[Reason, ...]:
        return dict(self.evidence).get(color, ())


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
    commanders: tuple[str, ...]
    deck_identity: str
    card_count: int
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cards: list[DeckCard] = field(default_factory=list)
    excluded: int = 0  # cards in sideboard / maybeboard sections (not checked)
    deck_name: str | None = None
    identity_checked: bool = True  # False when a commander could not be looked up
    chosen: dict[str, str] = field(default_factory=dict)  # commander name -> chosen color (CR 903.4b)

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


def is_banned(card: Mapping[str, Any]) -> bool:
    return (card.get("legalities") or {}).get("commander") == "banned"


_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def color_letter(text: str) -> str:
    """The WUBRG letter of a color given as a letter or a word (`r`, `Red`, `{U}`); DeckInputError otherwise."""
    value = str(text).strip().strip("{}").strip().lower()
    if len(value) == 1 and value.upper() in "WUBRG":
        return value.upper()
    if value in _COLOR_WORDS:
        return _COLOR_WORDS[value]
    raise DeckInputError(f"{str(text)[:40]!r} is not a color; use W, U, B, R, G or white, blue, black, red, green")


def _lines(entries: Sequence[DeckEntry]) -> tuple[int, ...]:
    return tuple(e.line for e in entries)


def _line_ref(lines: Sequence[int]) -> str:
    if not lines:
        return ""
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(str(n) for n in lines)


def _color_names(colors: str) -> str:
    from bot.identity.model import COLOR_NAMES

    names = [COLOR_NAMES[c] for c in colors if c in COLOR_NAMES]
    if not names:
        return "colorless"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _fit(card: Mapping[str, Any], leaders: Sequence[Analysis], chosen: str) -> tuple[str, dict[str, Any],
                                                                                      tuple[str, ...]]:
    """(outside colors, evidence, warnings) of one card against the commanders, with the chosen colors
    (CR 903.4b) counted in the deck's identity.

    The engine's `check_fit` does not take chosen colors yet (`chosen=` is being added there); until then
    they are taken off the outside colors here.
    """
    fit = check_fit(dict(card), list(leaders))
    outside = "".join(c for c in fit.outside if c not in chosen)
    return outside, {c: fit.evidence.get(c, ()) for c in outside}, tuple(fit.warnings)


def _chosen_for(leaders: Sequence[Analysis], chosen: Sequence[str | None]) -> dict[str, str]:
    """Commander name -> chosen color, for the commanders that choose one and were given one."""
    out: dict[str, str] = {}
    for leader, color in zip(leaders, chosen, strict=False):
        if color and leader.chooses_color:
            out[leader.name] = color
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
    notes: Sequence[str] = (),
    warnings: Sequence[str] = (),
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
    """
    unknown = unknown or {}
    unavailable = unavailable or {}
    commander_cards = [dict(c) for c in commanders]
    commander_names = tuple(str(c.get("name", "?")) for c in commander_cards) \
        + tuple(u.name for u in unchecked_commanders)
    commander_keys = {card_key(c): c for c in commander_cards}
    identity_checked = not unchecked_commanders
    problems: list[Problem] = []
    report_warnings: list[str] = list(dict.fromkeys(warnings))

    # Unreadable lines
    for pp in parsed.problems:
        shown = pp.text if len(pp.text) <= 80 else pp.text[:79] + "…"
        problems.append(Problem(ProblemKind.UNREADABLE, f"line {pp.line}: {shown!r}: {pp.reason}", card=pp.text,
                                lines=(pp.line,)))

    # Commanders: eligibility (one commander) or pairing (two: check_pairing judges both cards' eligibility
    # itself, and accepts a Background alongside a "Choose a Background" creature, CR 702.124k), banned.
    # With a commander that could not be looked up, neither can be judged.
    if identity_checked and len(commander_cards) == 1:
        verdict = commander_eligibility(commander_cards[0])
        if not verdict.ok:
            problems.append(Problem(ProblemKind.COMMANDER, verdict.reason, card=commander_names[0]))
    elif identity_checked and len(commander_cards) == 2:
        a, b = commander_cards
        if card_key(a) == card_key(b):
            problems.append(Problem(ProblemKind.COMMANDER,
                                    f"{a.get('name')} is named twice; a deck has one copy of each commander",
                                    card=str(a.get("name"))))
            verdict = commander_eligibility(a)
            if not verdict.ok:
                problems.append(Problem(ProblemKind.COMMANDER, verdict.reason, card=str(a.get("name"))))
        else:
            pairing = check_pairing(a, b)
            if not pairing.ok:
                problems.append(Problem(ProblemKind.COMMANDER, pairing.reason,
                                        card=f"{a.get('name')} + {b.get('name')}"))
    for card in commander_keys.values():
        if is_banned(card):
            problems.append(Problem(ProblemKind.BANNED, f"{card.get('name')} is banned in Commander",
                                    card=str(card.get("name"))))

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
        hint = f" (did you mean {', '.join(suggestions)}?)" if suggestions else ""
        problems.append(Problem(ProblemKind.UNKNOWN, f"{_line_ref(_lines(entries))}: no card named "
                                f"{typed!r}{hint}", card=typed, lines=_lines(entries), suggestions=suggestions))

    # Names that could not be looked up: each once, with every line it is on
    for typed, entries in unchecked_groups.items():
        problems.append(Problem(ProblemKind.UNCHECKED, f"{typed} ({_line_ref(_lines(entries))}): couldn't look it "
                                f"up ({unavailable[typed]})", card=typed, lines=_lines(entries)))
    for missing_leader in unchecked_commanders:
        if not missing_leader.listed:
            problems.append(Problem(ProblemKind.UNCHECKED, f"{missing_leader.name} (commander): couldn't look it up "
                                    f"({missing_leader.reason})", card=missing_leader.name))
    if unchecked_commanders:
        names = " and ".join(u.name for u in unchecked_commanders)
        report_warnings.append(f"Color identity, commander eligibility and pairing were not checked: {names} "
                               f"could not be looked up (Scryfall unreachable).")

    # Commander section naming someone else
    for key, entries in groups.items():
        marked = [e for e in entries if e.commander_marker]
        if marked and key not in commander_keys:
            problems.append(Problem(
                ProblemKind.COMMANDER,
                f"{_line_ref(_lines(marked))}: the list names {group_card[key].get('name')} as a commander, "
                f"but the deck is being checked against {' and '.join(commander_names)}",
                card=str(group_card[key].get("name")), lines=_lines(marked)))

    # The commanders' analyses, computed once (check_fit takes them as they are; eligibility and pairing
    # were checked above, so only the engine's other warnings, e.g. 903.4b, come back from it).
    leaders: list[Analysis] = []
    leader_chosen: list[str | None] = []
    for index, card in enumerate(commander_cards):
        try:
            leaders.append(analyze(card))
            leader_chosen.append(chosen[index] if index < len(chosen) else None)
        except IdentityError as exc:
            report_warnings.append(f"{card.get('name')}: could not work out its color identity ({exc})")
    chosen_by_name = _chosen_for(leaders, leader_chosen)
    chosen_colors = wubrg("".join(chosen_by_name.values()))
    report_notes = list(notes)
    report_notes.extend(f"{leader}: chosen color {_color_names(color)} (CR 903.4b); it counts in the deck's color "
                        f"identity" for leader, color in chosen_by_name.items())
    deck_identity = wubrg("".join(a.identity for a in leaders) + chosen_colors)
    check_colors = bool(leaders) and identity_checked

    # Per-card checks
    cards: list[DeckCard] = []
    fit_warnings: list[str] = []
    for key, entries in groups.items():
        deck_card = group_card[key]
        name = str(deck_card.get("name", entries[0].name))
        count = sum(e.count for e in entries)
        lines = _lines(entries)
        cards.append(DeckCard(name, dict(deck_card), count, lines, tuple(dict.fromkeys(e.name for e in entries))))
        limit = copy_limit(deck_card)
        if limit is not None and count > limit:
            allowed = "one copy" if limit == 1 else f"up to {limit} copies"
            problems.append(Problem(ProblemKind.SINGLETON,
                                    f"{name}: {count} copies ({_line_ref(lines)}); a deck may hold {allowed}",
                                    card=name, lines=lines))
        if key in commander_keys:
            continue  # commanders are checked above
        if is_banned(deck_card):
            problems.append(Problem(ProblemKind.BANNED, f"{name} is banned in Commander ({_line_ref(lines)})",
                                    card=name, lines=lines))
        layout = str(deck_card.get("layout") or "")
        if layout in NOT_DECK_CARD_LAYOUTS:
            problems.append(Problem(ProblemKind.NOT_A_CARD,
                                    f"{name} is {NOT_DECK_CARD_LAYOUTS[layout]}, not a card a deck can hold "
                                    f"({_line_ref(lines)})", card=name, lines=lines))
            continue
        if not check_colors:
            continue
        try:
            outside, evidence_by_color, card_warnings = _fit(deck_card, leaders, chosen_colors)
        except IdentityError as exc:
            report_warnings.append(f"{name}: could not work out its color identity ({exc})")
            continue
        fit_warnings.extend(card_warnings)
        if outside:
            evidence = tuple((color, tuple(evidence_by_color.get(color, ()))) for color in outside)
            problems.append(Problem(
                ProblemKind.COLOR,
                f"{name} ({_line_ref(lines)}) is {_color_names(outside)}, outside the deck's identity",
                card=name, lines=lines, outside=wubrg(outside), evidence=evidence))

    if leaders and not fit_warnings:
        fit_warnings.extend(check_fit(leaders[0], leaders).warnings)  # 903.4b even with no card to check
    # a chosen color answers the engine's "choose a color (CR 903.4b) ... isn't counted here" warning
    fit_warnings = [w for w in fit_warnings
                    if not any(w.startswith(f"{leader} ") and "903.4b" in w for leader in chosen_by_name)]
    report_warnings.extend(w for w in dict.fromkeys(fit_warnings) if w not in report_warnings)

    # Deck size: every card line counts (unknown and unchecked names too), plus commanders not listed.
    listed = sum(e.count for e in parsed.deck_entries)
    missing_commanders = sum(1 for key in commander_keys if key not in groups) \
        + sum(1 for u in unchecked_commanders if not u.listed)
    total = listed + missing_commanders
    if total != DECK_SIZE:
        diff = total - DECK_SIZE
        how = f"{diff} too many" if diff > 0 else f"{-diff} short"
        problems.append(Problem(ProblemKind.SIZE,
                                f"{total} cards counting the commander{'s' if len(commander_names) > 1 else ''}; "
                                f"a Commander deck has exactly {DECK_SIZE} ({how})"))

    order = {kind: i for i, kind in enumerate(KIND_ORDER)}
    problems.sort(key=lambda p: (order[p.kind], p.lines[:1] or (0,)))
    return DeckReport(
        commanders=commander_names,
        deck_identity=deck_identity,
        card_count=total,
        problems=problems,
        warnings=report_warnings,
        notes=report_notes,
        cards=cards,
        excluded=sum(e.count for e in parsed.excluded_entries),
        deck_name=parsed.deck_name,
        identity_checked=identity_checked,
        chosen=chosen_by_name,
    )
