"""Deck check against the card service: read the list, resolve every name in one batch, run the checks.

One path for every way a list arrives (`/deckcheck`, the "Check this decklist" message command and
`python -m bot check-deck`): `read_list(text, filename)` parses it (the file name is the parser's format
hint), `check_decklist` resolves and checks it.

Names are read exactly: a card counts as named only when the name as written is the card's name or one of
its faces' names, with case, accents, punctuation and `//` folded (`bot.cards.names.normalize`). Anything
else the card service answers (a close name it found for a typo or a name newer than the local data) is
never used in its place: the name is reported as no card (Scryfall itself answered) or as not checked (the
answer came from local data), with the close names as suggestions, and no finding is made from it.

Scryfall cost of a cold 100-card deck: the deck's names go to `CardService.resolve_many`, which asks
`/cards/collection` in batches of 75. A line like `1 Sol Ring // Staple`, where `// Staple` may be a
comment or a split card's second face, is read as the split name first; only when that is not a card is
the left part looked up (one more `resolve_many` for all such lines) and used when it names a card exactly.

Which commanders (`check_decklist`):
- both options given: those two; commanders the list marks besides them are reported as naming someone else;
- one option: it, plus the one other commander the list marks when the two can lead a deck together;
- no option: the one or two commanders the list marks. None anywhere: `NoCommander`; more than two:
  `DeckCheckError(TOO_MANY_COMMANDERS)`.
A commander option is matched against the list's cards by exact name, else looked up
(`resolve_commander`); a commander that names no card raises `CommanderNotFound` with close names (with
Scryfall unreachable, close names from the local data; none: the check goes on without color identity).
Only when nothing at all could be looked up does `ScryfallUnavailable` propagate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.cards.model import AmbiguousCard, Batch, CardNotFound, Resolved, ScryfallUnavailable
from bot.cards.names import normalize
from bot.deck.check import MAX_SUGGESTIONS, DeckInput, card_key, check_deck, color_letter
from bot.deck.entries import DeckEntry, DeckFormat, ParsedDeck, Section
from bot.deck.errors import CommanderNotFound, DeckCheckCode, DeckCheckError, NoCommander
from bot.deck.parser import parse
from bot.deck.report import NOT_IN_LOCAL_DATA, DeckReport, Reading, Unchecked, UncheckedCommander
from bot.identity import analyze, check_pairing
from bot.identity.model import IdentityError

MAX_OPTION = 200
MAX_ALTERNATIVE_LOOKUPS = 25  # `A // B` lines whose `A` is looked up when `A // B` is not a card


class CardSource(Protocol):
    """What the deck check needs from `bot.cards.service.CardService`."""

    async def resolve_commander(self, name: str) -> Resolved: ...

    async def resolve_many(self, names: list[str]) -> Batch: ...

    async def autocomplete(self, prefix: str, *, commanders_only: bool = False) -> list[str]: ...

    @property
    def has_local_data(self) -> bool: ...


def read_list(text: str, filename: str | None = None) -> ParsedDeck:
    """Parse a decklist; `filename` (an uploaded or given file's name) is the parser's format hint."""
    return parse(text, filename=filename)


def card_names(card: Mapping[str, Any]) -> set[str]:
    """The folded names a card answers to exactly: its name, its faces' names and the names printed on it in
    place of them (`flavor_name`: Godzilla series, Secret Lair)."""
    parts = [card, *(f for f in card.get("card_faces") or () if isinstance(f, Mapping))]
    return {normalize(str(p[key])) for p in parts for key in ("name", "flavor_name") if p.get(key)}


def names_card(typed: str, card: Mapping[str, Any]) -> bool:
    """Whether `typed` is the card's name or a face's name (folded), not a close reading of it."""
    return normalize(typed) in card_names(card)


@dataclasses.dataclass(slots=True)
class _Lookup:
    """Every name of the list, settled: exactly found, no card, or not checked."""

    found: dict[str, Resolved] = dataclasses.field(default_factory=dict)
    missing: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    unavailable: dict[str, Unchecked] = dataclasses.field(default_factory=dict)
    offline: str | None = None  # a reason Scryfall could not be asked, when it could not

    def add(self, batch: Batch) -> None:
        for typed, res in batch.found.items():
            if (
                names_card(typed, res.card) or res.printed == typed
            ):  # its name, or printed so in another language
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

    def settle(self, typed: str, found: Resolved, alt: str) -> None:
        """`typed` was read as `alt`, a name `found` exactly."""
        self.missing.pop(typed, None)
        self.unavailable.pop(typed, None)
        self.found[alt] = found


async def _settle_alternatives(
    cards: CardSource, parsed: ParsedDeck, lookup: _Lookup
) -> tuple[ParsedDeck, list[Reading]]:
    """Choose between `A // B` and `A` for lines where ` // B` may be a comment (`1 Sol Ring // Ramp`).

    The split reading wins when it names a card exactly (`Fire // Ice`). Otherwise `A` is looked up (one
    `resolve_many` for all such lines) and wins when it names a card exactly; then the entry is renamed and
    a `Reading` says so. Otherwise the split reading stays (unknown or not checked)."""
    alternatives: dict[str, str] = {}
    for entry in parsed.entries:
        if (
            entry.alternative
            and entry.name not in lookup.found
            and len(alternatives) < MAX_ALTERNATIVE_LOOKUPS
        ):
            alternatives.setdefault(entry.name, entry.alternative)
    if not alternatives:
        return parsed, []
    alt_found = (await cards.resolve_many(list(dict.fromkeys(alternatives.values())))).found
    chosen = {
        typed: alt
        for typed, alt in alternatives.items()
        if alt in alt_found and names_card(alt, alt_found[alt].card)
    }
    readings: list[Reading] = []
    entries: list[DeckEntry] = []
    for entry in parsed.entries:
        alt = chosen.get(entry.name)
        if alt is None:
            entries.append(entry)
            continue
        readings.append(Reading(entry.line, entry.name, alt_found[alt].name))
        entries.append(dataclasses.replace(entry, name=alt, alternative=None))
    for typed, alt in chosen.items():
        lookup.settle(typed, alt_found[alt], alt)
    return dataclasses.replace(parsed, entries=entries, problems=list(parsed.problems)), readings


def _check_option(option: str, value: str | None) -> str | None:
    value = " ".join(value.split()) if value else None
    if value and len(value) > MAX_OPTION:
        raise DeckCheckError(
            DeckCheckCode.OPTION_TOO_LONG, option=option, length=len(value), limit=MAX_OPTION
        )
    return value or None


@dataclasses.dataclass(slots=True)
class _Commanders:
    cards: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    resolved: list[Resolved] = dataclasses.field(default_factory=list)
    unchecked: list[UncheckedCommander] = dataclasses.field(default_factory=list)
    from_list: list[str] = dataclasses.field(default_factory=list)  # commanders the list named
    second_from_list: bool = False  # only the second commander came from the list


async def _local_suggestions(cards: CardSource, query: str) -> list[str]:
    """Close commander names from the local card data only (never the network), offered when Scryfall can't
    be asked: the local autocomplete for what was typed, else for ever shorter beginnings of it (down to 4
    characters or half the text), so `Kumanno` still suggests the commanders starting with `Kuman`."""
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
    """The card a commander option names: a card of the list named exactly so, else `resolve_commander`.
    CommanderNotFound for no card (or several); not checked when Scryfall is unreachable."""
    in_list = [r.card for r in lookup.found.values() if names_card(query, r.card)]
    if in_list:
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
    out.cards.append(dict(resolved.card))
    out.resolved.append(resolved)


def _marked(parsed: ParsedDeck, lookup: _Lookup) -> list[tuple[str, dict[str, Any] | None]]:
    """The commanders the list marks: (name as written, card or None when not found), one per card."""
    out: dict[str, tuple[str, dict[str, Any] | None]] = {}
    for entry in parsed.commander_entries:
        hit = lookup.found.get(entry.name)
        key = card_key(hit.card) if hit is not None else f"typed:{normalize(entry.name)}"
        out.setdefault(key, (entry.name, dict(hit.card) if hit is not None else None))
    return list(out.values())


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
    """Decide the commanders from the options and the list (see the module docstring)."""
    out = _Commanders()
    for option, query in options:
        await _resolve_option(cards, option, query, lookup, out)
    marked = _marked(parsed, lookup)
    if len(options) == 2:
        return out
    if options:  # one option: the list's other commander joins it when the two can lead a deck together
        keys = {card_key(c) for c in out.cards} | {f"typed:{normalize(u.name)}" for u in out.unchecked}
        others = [
            (typed, card)
            for typed, card in marked
            if (card_key(card) if card else f"typed:{normalize(typed)}") not in keys
            and (card is not None or typed in lookup.unavailable)
        ]
        if len(others) == 1 and (
            others[0][1] is None or not out.cards or _can_pair(out.cards[0], others[0][1])
        ):
            _add_marked(out, *others[0], lookup)
            out.second_from_list = True
        return out
    if len(marked) > 2:
        raise DeckCheckError(
            DeckCheckCode.TOO_MANY_COMMANDERS, count=len(marked), names=[typed for typed, _card in marked]
        )
    for typed, card in marked:
        _add_marked(out, typed, card, lookup)
    return out


def _can_pair(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return card_key(a) != card_key(b) and check_pairing(dict(a), dict(b)).ok


def _chosen_colors(
    leaders: Sequence[Mapping[str, Any]], colors: Sequence[str], complete: bool
) -> list[str | None]:
    """Assign the chosen colors (one per commander that chooses a color, CR 903.4b, in order) to the
    commanders; DeckCheckError when more colors are given than commanders choose one."""
    choosers: list[int] = []
    for index, card in enumerate(leaders):
        try:
            if analyze(dict(card)).chooses_color:
                choosers.append(index)
        except IdentityError:
            continue
    if complete and len(colors) > len(choosers):
        if not choosers:
            raise DeckCheckError(DeckCheckCode.NO_CHOOSER)
        raise DeckCheckError(DeckCheckCode.TOO_MANY_COLORS, given=len(colors), choosers=len(choosers))
    out: list[str | None] = [None] * len(leaders)
    for index, color in zip(choosers, colors, strict=False):
        out[index] = color
    return out


def _names_to_look_up(parsed: ParsedDeck) -> list[str]:
    """The deck's names and the companions' (the other sections are not checked)."""
    companions = [e.name for e in parsed.excluded_entries if e.section is Section.COMPANION]
    return list(dict.fromkeys(parsed.names() + companions))


async def check_decklist(
    cards: CardSource,
    deck: str | ParsedDeck,
    commander: str | None = None,
    partner: str | None = None,
    *,
    chosen: Sequence[str] = (),
) -> tuple[DeckReport, list[Resolved]]:
    """Parse (when given text: `read_list`), resolve and check a decklist.

    - `commander`, `partner`: options; either may be left out when the list marks its commanders.
    - `chosen`: colors (letters or words) for commanders that choose one before the game (CR 903.4b), one per
      such commander in order; they count in the deck's color identity and the report names them.

    Returns the report and every `Resolved` the service gave (for stale-data notes). Raises `DeckInputError`
    (bad list, too long; `DeckCheckError` and its `NoCommander`, `CommanderNotFound` for the rest);
    `ScryfallUnavailable` only when Scryfall was needed and nothing at all could be looked up.
    """
    options = [
        (label, q)
        for label, value in (("commander", commander), ("partner", partner))
        if (q := _check_option(label, value)) is not None
    ]
    colors = [color_letter(c) for c in chosen]
    parsed = read_list(deck) if isinstance(deck, str) else deck
    if not options and not parsed.commander_entries:
        raise NoCommander()
    lookup = _Lookup()
    readings: list[Reading] = []
    if names := _names_to_look_up(parsed):
        lookup.add(await cards.resolve_many(names))
        parsed, readings = await _settle_alternatives(cards, parsed, lookup)
    leaders = await _commanders(cards, parsed, lookup, options)
    offline = lookup.offline or next((u.reason for u in leaders.unchecked), None)
    if not lookup.found and not leaders.cards and offline:
        raise ScryfallUnavailable(offline)
    one_line = parsed.format is DeckFormat.ONE_LINE and len(parsed.entries) + len(parsed.problems) > 1
    report = check_deck(
        DeckInput(
            parsed,
            leaders.cards,
            {typed: res.card for typed, res in lookup.found.items()},
            lookup.missing,
            lookup.unavailable,
            leaders.unchecked,
            chosen=_chosen_colors(leaders.cards, colors, complete=not leaders.unchecked),
            readings=readings,
            from_list=leaders.from_list,
            second_from_list=leaders.second_from_list,
            pasted_lines=parsed.lines_read if one_line else None,
        )
    )
    return report, list(lookup.found.values()) + leaders.resolved
