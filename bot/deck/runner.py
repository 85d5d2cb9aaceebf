"""Deck check against the card service: parse, resolve every name in one batch, run the checks.

Scryfall cost of a cold 100-card deck: the deck's names go to `CardService.resolve_many`, which asks
`/cards/collection` in batches of 75 (so at most 2 requests), plus fuzzy retries only for names the
collection did not find. The commander option is matched against the cards of the list first (so
`commander:Kumano` with Kumano, Master Yamabushi in the list costs nothing); only a commander that is not
in the list costs a `resolve_commander` lookup. A line like `1 Sol Ring // Staple`, where `// Staple` may be
a comment or a split card's second face, is read as the split name first; only when that is not a card is
the left part looked up (one more `resolve_many` for all such lines) and used when it names a card exactly.

Which commanders (`check_decklist`):
- both options given: those two; commanders the list marks besides them are reported as naming someone else;
- one option: it, plus the one other commander the list marks (a Commander section, `Commander: X`,
  `*CMDR*`, Archidekt `[Commander]`) when the two can lead a deck together; an option naming a card the list
  also marks counts once;
- no option: the one or two commanders the list marks. None anywhere, or more than two: `DeckInputError`.
The report says which commander came from the list (`DeckReport.from_list`).

Scryfall unreachable: names that could not be looked up are reported once each as "couldn't check" and
everything else is still checked. A commander option that can't be looked up: "did you mean" names from the
local card data when it has close names (`CommanderNotFound`), else the report goes on without the color
identity check. Only when nothing at all could be looked up does `ScryfallUnavailable` propagate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.cards.model import AmbiguousCard, Batch, CardNotFound, Resolved, ScryfallUnavailable
from bot.cards.names import normalize
from bot.deck.check import DeckReport, Reading, UncheckedCommander, card_key, check_deck, color_letter
from bot.deck.parser import DeckEntry, DeckInputError, ParsedDeck, parse
from bot.identity import analyze, check_pairing, commander_eligibility
from bot.identity.model import IdentityError

MAX_OPTION = 200
MAX_ALTERNATIVE_LOOKUPS = 25  # `A // B` lines whose `A` is looked up when `A // B` is not a card
MAX_SUGGESTIONS = 5
MARKS = "a Commander section, a `Commander: Name` line or `*CMDR*`"


class CardSource(Protocol):
    """What the deck check needs from `bot.cards.service.CardService`."""

    async def resolve(self, name: str) -> Resolved: ...

    async def resolve_commander(self, name: str) -> Resolved: ...

    async def resolve_many(self, names: list[str]) -> Batch: ...

    async def autocomplete(self, prefix: str, *, commanders_only: bool = False) -> list[str]: ...

    @property
    def has_local_data(self) -> bool: ...


class NoCommander(DeckInputError):
    """Neither the options nor the list name a commander. `hint` says how to name one (`--commander` on the
    command line, `commander:` in Discord)."""

    def __init__(self, hint: str = "give the commander") -> None:
        super().__init__(f"no commander named: {hint}, or mark it in the list ({MARKS})")


class CommanderNotFound(DeckInputError):
    """The commander (or partner) option names no card; `suggestions` holds close names."""

    def __init__(self, option: str, query: str, suggestions: Sequence[str] = (), ambiguous: bool = False) -> None:
        self.option = option
        self.query = query
        self.suggestions = list(suggestions)
        self.ambiguous = ambiguous
        what = "matches several cards" if ambiguous else "is not a card I know"
        hint = f"; did you mean {', '.join(self.suggestions[:5])}?" if self.suggestions else ""
        super().__init__(f"{option} {query!r} {what}{hint}")


def _front(name: str) -> str:
    return name.split(" // ")[0]


def _name_match(option: str, name: str) -> int:
    """How the commander option names a card name: 2 exactly (or its front face), 1 by the part before the
    comma or " the " (`Kumano` -> `Kumano, Master Yamabushi`), 0 not at all."""
    key = normalize(option)
    if not key:
        return 0
    if normalize(name) == key or normalize(_front(name)) == key:
        return 2
    short = name.split(",")[0] if "," in name else name.split(" the ")[0]
    return 1 if normalize(short) == key else 0


def _match_in_list(option: str, cards: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The card of the list the commander option means: exact name, front face, or `Name,` prefix."""
    exact = [c for c in cards if _name_match(option, str(c.get("name") or "")) == 2]
    prefix = [c for c in cards if _name_match(option, str(c.get("name") or "")) == 1]
    for group in (exact, prefix):
        eligible = [c for c in group if commander_eligibility(dict(c)).ok]
        if len(eligible) == 1:
            return eligible[0]
        if len(group) == 1:
            return group[0]
    return None


async def _local_suggestions(cards: CardSource, query: str) -> list[str]:
    """Close commander names from the local card data only (never the network); [] without local data.

    The local autocomplete for what was typed; when it knows nothing, for ever shorter beginnings of it (down
    to 4 characters or half the text), so `Kumanno` still suggests the commanders starting with `Kumann`/`Kuman`.
    """
    if not getattr(cards, "has_local_data", False):
        return []
    text = " ".join(query.split())
    shortest = max(4, len(text) // 2)
    for end in range(len(text), shortest - 1, -1):
        try:
            names = await cards.autocomplete(text[:end], commanders_only=True)
        except Exception:  # suggestions are a courtesy; the caller reports the lookup failure itself
            return []
        if names:
            return list(dict.fromkeys(names))[:MAX_SUGGESTIONS]
    return []


async def _resolve_commander(cards: CardSource, option: str, query: str,
                             in_list: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], Resolved | None]:
    """The card a commander option names: a card of the list, else a `resolve_commander` lookup.

    Raises CommanderNotFound (unknown or ambiguous; also when Scryfall is unreachable and the local card data
    has close names) or ScryfallUnavailable."""
    found = _match_in_list(query, in_list)
    if found is not None:
        return dict(found), None
    try:
        resolved = await cards.resolve_commander(query)
    except CardNotFound as exc:
        raise CommanderNotFound(option, query, exc.suggestions) from exc
    except AmbiguousCard as exc:
        raise CommanderNotFound(option, query, exc.candidates, ambiguous=True) from exc
    except ScryfallUnavailable:
        suggestions = await _local_suggestions(cards, query)
        if suggestions:
            raise CommanderNotFound(option, query, suggestions) from None
        raise
    return dict(resolved.card), resolved


def _same_card_name(typed: str, card_name: str) -> bool:
    """The typed name is the card's full name or its front face's name (not a fuzzy reading)."""
    key = normalize(typed)
    return key in (normalize(card_name), normalize(_front(card_name)))


async def _settle_alternatives(cards: CardSource, parsed: ParsedDeck, found: dict[str, Resolved],
                               missing: dict[str, list[str]],
                               unavailable: dict[str, str]) -> tuple[ParsedDeck, list[Reading]]:
    """Choose between `A // B` and `A` for lines where ` // B` may be a comment (`1 Sol Ring // Ramp`).

    The split reading wins when it names a card exactly (`Fire // Ice`). Otherwise `A` is looked up (one
    `resolve_many` for all such lines) and wins when it names a card exactly; then the entry is renamed
    and a `Reading` says what was read. Otherwise the split reading stays (a fuzzy match or an unknown name).
    Updates `found`, `missing` and `unavailable` in place; returns the deck (renamed entries) and the readings.
    """
    doubtful: dict[str, str] = {}
    for entry in parsed.deck_entries:
        if entry.alternative is None or entry.name in doubtful:
            continue
        hit = found.get(entry.name)
        if hit is not None and _same_card_name(entry.name, hit.name):
            continue
        doubtful[entry.name] = entry.alternative
        if len(doubtful) >= MAX_ALTERNATIVE_LOOKUPS:
            break
    if not doubtful:
        return parsed, []
    alternatives = list(dict.fromkeys(doubtful.values()))
    alt_found = (await cards.resolve_many(alternatives)).found  # unavailable ones keep the split reading
    chosen = {typed: alt for typed, alt in doubtful.items()
              if alt in alt_found and _same_card_name(alt, alt_found[alt].name)}
    if not chosen:
        return parsed, []
    readings: list[Reading] = []
    entries: list[DeckEntry] = []
    for entry in parsed.entries:
        alt = chosen.get(entry.name)
        if alt is None:
            entries.append(entry)
            continue
        readings.append(Reading(entry.line, entry.name, alt_found[alt].name, comment=True))
        entries.append(dataclasses.replace(entry, name=alt, alternative=None))
    for typed, alt in chosen.items():
        found.pop(typed, None)
        found[alt] = alt_found[alt]
        missing.pop(typed, None)
        unavailable.pop(typed, None)
    renamed = dataclasses.replace(parsed, entries=entries, problems=list(parsed.problems))
    return renamed, readings


def _check_option(option: str, value: str | None) -> str | None:
    if value is None:
        return None
    value = " ".join(value.split())
    if not value:
        return None
    if len(value) > MAX_OPTION:
        raise DeckInputError(f"the {option} name is {len(value):,} characters long; card names are at most "
                             f"{MAX_OPTION}")
    return value


@dataclasses.dataclass(slots=True)
class _Commanders:
    cards: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    resolved: list[Resolved] = dataclasses.field(default_factory=list)
    unchecked: list[UncheckedCommander] = dataclasses.field(default_factory=list)
    from_list: list[str] = dataclasses.field(default_factory=list)  # commanders the list named
    second_from_list: bool = False  # only the second commander came from the list


def _marked(parsed: ParsedDeck, found: Mapping[str, Resolved]) -> list[tuple[str, dict[str, Any] | None]]:
    """The commanders the list marks: (name as written, card or None when not found), one per card."""
    out: list[tuple[str, dict[str, Any] | None]] = []
    seen: set[str] = set()
    for entry in parsed.commander_entries:
        hit = found.get(entry.name)
        key = card_key(hit.card) if hit is not None else f"typed:{normalize(entry.name)}"
        if key not in seen:
            seen.add(key)
            out.append((entry.name, dict(hit.card) if hit is not None else None))
    return out


def _can_pair(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return card_key(a) != card_key(b) and check_pairing(dict(a), dict(b)).ok


async def _commanders(cards: CardSource, parsed: ParsedDeck, found: Mapping[str, Resolved],
                      missing: Mapping[str, list[str]], unavailable: Mapping[str, str],
                      options: Sequence[tuple[str, str]]) -> _Commanders:
    """Decide the commanders from the options and the list (see the module docstring)."""
    out = _Commanders()
    in_list = [r.card for r in found.values()]
    for option, query in options:
        try:
            card, resolved = await _resolve_commander(cards, option, query, in_list)
        except ScryfallUnavailable as exc:
            listed = any(_name_match(query, typed) for typed in unavailable)
            out.unchecked.append(UncheckedCommander(query, listed, exc.reason))
            continue
        out.cards.append(card)
        if resolved is not None:
            out.resolved.append(resolved)

    marked = _marked(parsed, found)
    if len(options) == 2:
        return out
    if options:
        # one option: the list's other commander joins it when the two can lead a deck together
        option_keys = {card_key(c) for c in out.cards}
        others = [(typed, card) for typed, card in marked
                  if (card_key(card) not in option_keys if card is not None else typed not in missing)
                  and not any(_name_match(u.name, typed) for u in out.unchecked)]
        if len(others) != 1:
            return out
        typed, other = others[0]
        if other is None:
            out.unchecked.append(UncheckedCommander(typed, True, unavailable[typed]))
        elif not out.cards or _can_pair(out.cards[0], other):
            out.cards.append(other)
        else:
            return out
        out.from_list.append(str(other.get("name")) if other else typed)
        out.second_from_list = True
        return out

    if not marked:
        raise NoCommander()
    if len(marked) > 2:
        shown = ", ".join(typed for typed, _card in marked[:4]) + (", ..." if len(marked) > 4 else "")
        raise DeckInputError(f"the list marks {len(marked)} cards as commanders ({shown}); a deck has one or two: "
                             f"name the commander")
    for typed, listed_card in marked:
        if listed_card is not None:
            out.cards.append(listed_card)
        elif typed in unavailable:
            out.unchecked.append(UncheckedCommander(typed, True, unavailable[typed]))
        else:
            raise CommanderNotFound("the list's commander", typed, missing.get(typed, []))
    out.from_list.extend([str(c.get("name")) for c in out.cards] + [u.name for u in out.unchecked])
    return out


def _chosen_colors(leaders: Sequence[Mapping[str, Any]], colors: Sequence[str],
                   complete: bool) -> list[str | None]:
    """Assign the chosen colors (one per commander that chooses a color, CR 903.4b, in order) to the
    commanders; DeckInputError when more colors are given than commanders choose one."""
    choosers: list[int] = []
    for index, card in enumerate(leaders):
        try:
            if analyze(dict(card)).chooses_color:
                choosers.append(index)
        except IdentityError:
            continue
    if complete and len(colors) > len(choosers):
        if not choosers:
            raise DeckInputError("a chosen color was given, but no commander of this deck chooses a color before "
                                 "the game (CR 903.4b)")
        raise DeckInputError(f"{len(colors)} chosen colors were given, but only {len(choosers)} of the "
                             f"commanders chooses a color (CR 903.4b)")
    out: list[str | None] = [None] * len(leaders)
    for index, color in zip(choosers, colors, strict=False):
        out[index] = color
    return out


async def check_decklist(
    cards: CardSource,
    deck: str | ParsedDeck,
    commander: str | None = None,
    partner: str | None = None,
    *,
    chosen: Sequence[str] = (),
) -> tuple[DeckReport, list[Resolved]]:
    """Parse (when given text), resolve and check a decklist.

    - `commander`, `partner`: options; either may be left out when the list marks its commanders.
    - `chosen`: colors (letters or words) for commanders that choose one before the game (CR 903.4b), one per
      such commander in order; they count in the deck's color identity and the report names them.

    Returns the report and every `Resolved` the service gave (for stale-data notes). Raises `DeckInputError`
    (bad list, too long, no commander, bad color) or `CommanderNotFound` (a subclass); `ScryfallUnavailable`
    only when Scryfall was needed and nothing at all could be looked up.
    """
    commander_q = _check_option("commander", commander)
    partner_q = _check_option("partner", partner)
    colors = [color_letter(c) for c in chosen]
    parsed = parse(deck) if isinstance(deck, str) else deck
    options = [(label, q) for label, q in (("commander", commander_q), ("partner", partner_q)) if q is not None]
    if not options and not parsed.commander_entries:
        raise NoCommander()

    names = parsed.names()
    found: dict[str, Resolved] = {}
    missing: dict[str, list[str]] = {}
    unavailable: dict[str, str] = {}
    alt_readings: list[Reading] = []
    if names:
        batch = await cards.resolve_many(names)
        found, missing, unavailable = dict(batch.found), dict(batch.missing), dict(batch.unavailable)
        parsed, alt_readings = await _settle_alternatives(cards, parsed, found, missing, unavailable)
        names = parsed.names()

    leaders = await _commanders(cards, parsed, found, missing, unavailable, options)
    if not found and not leaders.cards and (unavailable or leaders.unchecked):
        reason = next(iter(unavailable.values()), None) or leaders.unchecked[0].reason
        raise ScryfallUnavailable(reason)
    chosen_per_leader = _chosen_colors(leaders.cards, colors, complete=not leaders.unchecked)

    unknown_names = [n for n in names if n not in found and n not in unavailable]
    for name in missing:
        if name not in unknown_names:
            unknown_names.append(name)

    readings: list[Reading] = list(alt_readings)
    pasted_lines = parsed.lines_read if parsed.one_line and len(parsed.entries) + len(parsed.problems) > 1 else None
    first_line: dict[str, int] = {}
    for entry in parsed.deck_entries:
        first_line.setdefault(entry.name, entry.line)
    for typed, res in found.items():
        if typed in first_line and not _same_card_name(typed, res.name):
            readings.append(Reading(first_line[typed], typed, res.name))

    report = check_deck(
        parsed,
        leaders.cards,
        {typed: res.card for typed, res in found.items()},
        {name: missing.get(name, []) for name in unknown_names},
        unavailable=unavailable,
        unchecked_commanders=leaders.unchecked,
        chosen=chosen_per_leader,
        readings=readings,
        from_list=leaders.from_list,
        second_from_list=leaders.second_from_list,
        pasted_lines=pasted_lines,
    )
    return report, list(found.values()) + leaders.resolved
