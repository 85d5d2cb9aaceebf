"""Deck check against the card service: read the list, resolve every name in one batch, run the checks.
Names are read exactly (`names_card`): a close name the service found is only suggested, never used; a
commander option may name its card in part (`names_in_part`: `Kumano`), never with a slip (`Kumamo`).
`ScryfallUnavailable` propagates only when nothing at all could be looked up. Reading and checking, the CPU
work on what a player sent, run off the event loop with a deadline (`off_loop`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol, TypeVar

from bot.cards.model import AmbiguousCard, Batch, CardNotFound, Resolved, ScryfallUnavailable
from bot.cards.names import names_card, names_in_part, normalize
from bot.combos.model import ComboFindings
from bot.deck.check import MAX_SUGGESTIONS, DeckInput, card_key, check_deck, color_letter
from bot.deck.entries import DeckFormat, DeckInputError, InputIssue, ParsedDeck, Section
from bot.deck.errors import CommanderNotFound, DeckCheckCode, DeckCheckError, NoCommander
from bot.deck.house import HouseRules
from bot.deck.parser import parse
from bot.deck.report import NOT_IN_LOCAL_DATA, DeckReport, Reading, Unchecked, UncheckedCommander
from bot.identity import check_pairing

MAX_OPTION = 200
MAX_ALTERNATIVE_LOOKUPS = 25  # `A // B` lines whose `A` is looked up when `A // B` is not a card
# Seconds reading (or checking) one list may take: the slowest list the readers take, the longest 64 KB line
# pasted on one line, reads in a fifth of it on a quiet machine; past it the player is told before the reply
# would have to be deferred (`bot.app.replies.DEFER_AFTER`).
WORK_DEADLINE = 1.0

T = TypeVar("T")


async def off_loop(work: Callable[[], T], deadline: float = WORK_DEADLINE) -> T:
    """`work()` in a thread, so the loop serves everyone meanwhile (linear patterns: no call holds the GIL
    long); DeckInputError(TOO_SLOW) past `deadline` s. The thread ends on its own (linear work, ≤ 64 KB)."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(work), deadline)
    except TimeoutError:
        raise DeckInputError(InputIssue.TOO_SLOW, limit=deadline) from None


class CardSource(Protocol):
    """What the deck check needs from `bot.cards.service.CardService`."""

    async def resolve_commander(self, name: str) -> Resolved: ...

    async def resolve_many(self, names: list[str]) -> Batch: ...

    async def autocomplete(self, prefix: str, *, commanders_only: bool = False) -> list[str]: ...

    @property
    def has_local_data(self) -> bool: ...


class ComboSource(Protocol):
    """What the deck check needs from `bot.combos.store.ComboStore`."""

    async def find(self, names: Iterable[str], commanders: Iterable[str] = ()) -> ComboFindings: ...


@dataclass(slots=True)
class _Lookup:
    """Every name of the list, settled: exactly found, no card, or not checked."""

    found: dict[str, Resolved] = field(default_factory=dict)
    missing: dict[str, list[str]] = field(default_factory=dict)
    unavailable: dict[str, Unchecked] = field(default_factory=dict)
    offline: str | None = None  # a reason Scryfall could not be asked, when it could not

    def add(self, batch: Batch) -> None:
        for typed, res in batch.found.items():
            if names_card(typed, res.card) or res.printed == typed:  # or printed so in another language
                self.found[typed] = res
            elif res.source == "api":  # Scryfall has no card of that name: it answered a close one
                self.missing[typed] = [res.name]
            else:  # the local data lacks the name (and may be older than the card)
                self.unavailable[typed] = Unchecked(NOT_IN_LOCAL_DATA, (res.name,))
        for typed, close in batch.missing.items():
            self.missing[typed] = close or batch.suggestions.get(typed, [])
        for typed, reason in batch.unavailable.items():
            self.unavailable[typed] = Unchecked(reason, tuple(batch.suggestions.get(typed, ())))
            self.offline = self.offline or reason


async def _settle_alternatives(
    cards: CardSource, parsed: ParsedDeck, lookup: _Lookup
) -> tuple[ParsedDeck, list[Reading]]:
    """`1 Sol Ring // Ramp`: when `A // B` names no card but `A` names one exactly, read the line as `A`."""
    alts: dict[str, str] = {}
    for e in parsed.entries:
        if e.alternative and e.name not in lookup.found and len(alts) < MAX_ALTERNATIVE_LOOKUPS:
            alts.setdefault(e.name, e.alternative)
    if not alts:
        return parsed, []
    found = (await cards.resolve_many(list(dict.fromkeys(alts.values())))).found
    chosen = {typed: alt for typed, alt in alts.items() if alt in found and names_card(alt, found[alt].card)}
    readings = [
        Reading(e.line, e.name, found[chosen[e.name]].name) for e in parsed.entries if e.name in chosen
    ]
    for typed, alt in chosen.items():
        lookup.missing.pop(typed, None)
        lookup.unavailable.pop(typed, None)
        lookup.found[alt] = found[alt]
    entries = [
        replace(e, name=chosen[e.name], alternative=None) if e.name in chosen else e for e in parsed.entries
    ]
    return replace(parsed, entries=entries, problems=list(parsed.problems)), readings


def _check_option(label: str, value: str | None) -> str | None:
    value = " ".join(value.split()) if value else None
    if value and len(value) > MAX_OPTION:
        raise DeckCheckError(DeckCheckCode.OPTION_TOO_LONG, option=label, length=len(value), limit=MAX_OPTION)
    return value or None


@dataclass(slots=True)
class _Commanders:
    cards: list[dict[str, Any]] = field(default_factory=list)
    resolved: list[Resolved] = field(default_factory=list)
    unchecked: list[UncheckedCommander] = field(default_factory=list)
    from_list: list[str] = field(default_factory=list)  # commanders the list named
    second_from_list: bool = False  # only the second commander came from the list


async def _local_suggestions(cards: CardSource, query: str) -> list[str]:
    """Close commander names from the local data, for ever shorter beginnings of the query (`Kumanno`)."""
    if not cards.has_local_data:
        return []
    text = " ".join(query.split())
    for end in range(len(text), max(4, len(text) // 2) - 1, -1):
        try:
            names = await cards.autocomplete(text[:end], commanders_only=True)
        except Exception:  # suggestions are a courtesy; the caller reports the lookup failure itself
            return []
        if names:
            return list(dict.fromkeys(names))[:MAX_SUGGESTIONS]
    return []


async def _resolve_option(
    cards: CardSource, option: str, query: str, lookup: _Lookup, out: _Commanders
) -> None:
    """The card a commander option names: a card of the list named exactly so, else `resolve_commander`."""
    if in_list := [r.card for r in lookup.found.values() if names_card(query, r.card)]:
        out.cards.append(dict(in_list[0]))
        return
    try:
        resolved = await cards.resolve_commander(query)
    except CardNotFound as exc:
        raise CommanderNotFound(option, query, exc.suggestions) from exc
    except AmbiguousCard as exc:
        raise CommanderNotFound(option, query, exc.candidates, ambiguous=True) from exc
    except ScryfallUnavailable as exc:
        if suggestions := await _local_suggestions(cards, query):
            raise CommanderNotFound(option, query, suggestions) from None
        listed = any(normalize(query) == normalize(typed) for typed in lookup.unavailable)
        out.unchecked.append(UncheckedCommander(query, listed, exc.reason))
        return
    if not (names_in_part(query, resolved.card) or names_card(query, resolved.card) or resolved.printed):
        raise CommanderNotFound(option, query, [resolved.name])  # a slip's card is suggested, never used
    out.cards.append(dict(resolved.card))
    out.resolved.append(resolved)


def _key(typed: str, card: Mapping[str, Any] | None) -> str:
    return card_key(card) if card is not None else f"typed:{normalize(typed)}"


def _marked(parsed: ParsedDeck, lookup: _Lookup) -> dict[str, tuple[str, dict[str, Any] | None]]:
    """The commanders the list marks, one per card: key -> (name as written, card or None when not found)."""
    out: dict[str, tuple[str, dict[str, Any] | None]] = {}
    for entry in parsed.commander_entries:
        card = dict(hit.card) if (hit := lookup.found.get(entry.name)) else None
        out.setdefault(_key(entry.name, card), (entry.name, card))
    return out


def _add_marked(out: _Commanders, typed: str, card: dict[str, Any] | None, lookup: _Lookup) -> None:
    if card is not None:
        out.cards.append(card)
    elif typed in lookup.unavailable:
        out.unchecked.append(UncheckedCommander(typed, True, lookup.unavailable[typed].reason))
    else:
        raise CommanderNotFound(None, typed, lookup.missing.get(typed, []))
    out.from_list.append(str(card.get("name")) if card else typed)


async def _commanders(
    cards: CardSource, parsed: ParsedDeck, lookup: _Lookup, options: Sequence[tuple[str, str]]
) -> _Commanders:
    """Both options: those two; one: it and the list's other one if they pair; none: those the list marks."""
    out = _Commanders()
    for option, query in options:
        await _resolve_option(cards, option, query, lookup, out)
    marked = _marked(parsed, lookup)
    if len(options) == 2:
        return out
    if options:  # one option: the list's other commander joins it when the two can lead a deck together
        keys = {card_key(c) for c in out.cards} | {_key(u.name, None) for u in out.unchecked}
        others = [
            (typed, card)
            for key, (typed, card) in marked.items()
            if key not in keys and (card is not None or typed in lookup.unavailable)
        ]
        other = others[0][1] if len(others) == 1 else None
        if len(others) == 1 and (other is None or not out.cards or check_pairing(out.cards[0], other).ok):
            _add_marked(out, *others[0], lookup)
            out.second_from_list = True
        return out
    if len(marked) > 2:
        names = [typed for typed, _card in marked.values()]
        raise DeckCheckError(DeckCheckCode.TOO_MANY_COMMANDERS, count=len(marked), names=names)
    for typed, card in marked.values():
        _add_marked(out, typed, card, lookup)
    return out


async def check_decklist(
    cards: CardSource,
    deck: str | ParsedDeck,
    commander: str | None = None,
    partner: str | None = None,
    *,
    chosen: Sequence[str] = (),
    house: HouseRules | None = None,
    combos: ComboSource | None = None,
) -> tuple[DeckReport, list[Resolved]]:
    """Parse, resolve, check a decklist: the report and every `Resolved` (stale-data notes); `chosen`: the
    choosers' colors (CR 903.4b). Raises DeckInputError or ScryfallUnavailable."""
    options = [
        (label, q)
        for label, value in (("commander", commander), ("partner", partner))
        if (q := _check_option(label, value)) is not None
    ]
    colors = [color_letter(c) for c in chosen]
    parsed = await off_loop(partial(parse, deck)) if isinstance(deck, str) else deck
    if not options and not parsed.commander_entries:
        raise NoCommander()
    lookup = _Lookup()
    readings: list[Reading] = []
    companions = [e.name for e in parsed.excluded_entries if e.section is Section.COMPANION]
    if names := list(dict.fromkeys(parsed.names() + companions)):  # the other sections are not checked
        lookup.add(await cards.resolve_many(names))
        parsed, readings = await _settle_alternatives(cards, parsed, lookup)
    leaders = await _commanders(cards, parsed, lookup, options)
    offline = lookup.offline or next((u.reason for u in leaders.unchecked), None)
    if not lookup.found and not leaders.cards and offline:
        raise ScryfallUnavailable(offline)
    leader_names = [str(c.get("name")) for c in leaders.cards]
    in_deck = [str(r.card.get("name")) for r in lookup.found.values()]
    found_combos = await combos.find(in_deck, leader_names) if combos is not None else None
    one_line = parsed.format is DeckFormat.ONE_LINE and len(parsed.entries) + len(parsed.problems) > 1
    found = {typed: res.card for typed, res in lookup.found.items()}
    unsettled = (lookup.missing, lookup.unavailable, leaders.unchecked)
    inp = DeckInput(parsed, leaders.cards, found, *unsettled, chosen=colors, house=house, combos=found_combos)
    report = await off_loop(partial(check_deck, inp))
    report.readings, report.pasted_lines = readings, parsed.lines_read if one_line else None
    report.from_list, report.second_from_list = tuple(leaders.from_list), leaders.second_from_list
    return report, list(lookup.found.values()) + leaders.resolved
