"""Deck check against the card service: parse, resolve every name in one batch, run the checks.

Scryfall cost of a cold 100-card deck: the deck's names go to `CardService.resolve_many`, which asks
`/cards/collection` in batches of 75 (so at most 2 requests), plus fuzzy retries only for names the
collection did not find. The commander option is matched against the cards of the list first (so
`commander:Kumano` with Kumano, Master Yamabushi in the list costs nothing); only a commander that is not
in the list costs a `resolve_commander` lookup. A line like `1 Sol Ring // Ramp`, where `// Ramp` may be a
comment or a split card's second face, is read as the split name first; only when that is not a card is the
left part looked up (one more `resolve_many` for all such lines) and used when it names a card exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.cards.model import AmbiguousCard, Batch, CardNotFound, Resolved, ScryfallUnavailable
from bot.cards.names import normalize
from bot.deck.check import DeckReport, check_deck
from bot.deck.parser import DeckEntry, DeckInputError, ParsedDeck, parse
from bot.identity import commander_eligibility

MAX_OPTION = 200
MAX_ALTERNATIVE_LOOKUPS = 25  # `A // B` lines whose `A` is looked up when `A // B` is not a card


class CardSource(Protocol):
    """What the deck check needs from `bot.cards.service.CardService`."""

    async def resolve(self, name: str) -> Resolved: ...

    async def resolve_commander(self, name: str) -> Resolved: ...

    async def resolve_many(self, names: list[str]) -> Batch: ...


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


def _match_in_list(option: str, cards: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The card of the list the commander option means: exact name, front face, or `Name,` prefix."""
    key = normalize(option)
    if not key:
        return None
    exact: list[Mapping[str, Any]] = []
    prefix: list[Mapping[str, Any]] = []
    for card in cards:
        name = str(card.get("name") or "")
        if normalize(name) == key or normalize(_front(name)) == key:
            exact.append(card)
            continue
        # "Kumano" -> "Kumano, Master Yamabushi"; "Atraxa" -> "Atraxa, Praetors' Voice"
        short = name.split(",")[0] if "," in name else name.split(" the ")[0]
        if normalize(short) == key:
            prefix.append(card)
    for group in (exact, prefix):
        eligible = [c for c in group if commander_eligibility(dict(c)).ok]
        if len(eligible) == 1:
            return eligible[0]
        if len(group) == 1:
            return group[0]
    return None


async def _resolve_commander(cards: CardSource, option: str, query: str,
                             in_list: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], Resolved | None]:
    found = _match_in_list(query, in_list)
    if found is not None:
        return dict(found), None
    try:
        resolved = await cards.resolve_commander(query)
    except CardNotFound as exc:
        raise CommanderNotFound(option, query, exc.suggestions) from exc
    except AmbiguousCard as exc:
        raise CommanderNotFound(option, query, exc.candidates, ambiguous=True) from exc
    return dict(resolved.card), resolved


def _same_card_name(typed: str, card_name: str) -> bool:
    """The typed name is the card's full name or its front face's name (not a fuzzy reading)."""
    key = normalize(typed)
    return key in (normalize(card_name), normalize(_front(card_name)))


async def _settle_alternatives(cards: CardSource, parsed: ParsedDeck, found: dict[str, Resolved],
                               missing: dict[str, list[str]]) -> tuple[ParsedDeck, list[str]]:
    """Choose between `A // B` and `A` for lines where ` // B` may be a comment (`1 Sol Ring // Ramp`).

    The split reading wins when it names a card exactly (`Fire // Ice`). Otherwise `A` is looked up (one
    `resolve_many` for all such lines) and wins when it names a card exactly; then the entry is renamed
    and a note says what was read. Otherwise the split reading stays (a fuzzy match or an unknown name).
    Updates `found` and `missing` in place; returns the deck (renamed entries) and the notes.
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
    notes: list[str] = []
    entries: list[DeckEntry] = []
    for entry in parsed.entries:
        alt = chosen.get(entry.name)
        if alt is None:
            entries.append(entry)
            continue
        notes.append(f"line {entry.line}: {entry.name!r} was read as {alt_found[alt].name}; the text after "
                     f"the last \u201c//\u201d was taken for a comment")
        entries.append(dataclasses.replace(entry, name=alt, alternative=None))
    for typed, alt in chosen.items():
        found.pop(typed, None)
        found[alt] = alt_found[alt]
        missing.pop(typed, None)
    renamed = dataclasses.replace(parsed, entries=entries, problems=list(parsed.problems))
    return renamed, notes


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


async def check_decklist(
    cards: CardSource,
    deck: str | ParsedDeck,
    commander: str,
    partner: str | None = None,
) -> tuple[DeckReport, list[Resolved]]:
    """Parse (when given text), resolve and check a decklist.

    Returns the report and every `Resolved` the service gave (for stale-data notes). Raises
    `DeckInputError` (bad list, too long, no commander) or `CommanderNotFound`; Scryfall failures
    (`ScryfallUnavailable`) propagate.
    """
    commander_q = _check_option("commander", commander)
    partner_q = _check_option("partner", partner)
    if commander_q is None:
        raise DeckInputError("please name the deck's commander")
    parsed = parse(deck) if isinstance(deck, str) else deck

    names = parsed.names()
    found: dict[str, Resolved] = {}
    missing: dict[str, list[str]] = {}
    alt_notes: list[str] = []
    if names:
        batch = await cards.resolve_many(names)
        if batch.unavailable:
            reason = next(iter(batch.unavailable.values()))
            raise ScryfallUnavailable(reason)
        found, missing = batch.found, batch.missing
        parsed, alt_notes = await _settle_alternatives(cards, parsed, found, missing)
        names = parsed.names()
    in_list = [r.card for r in found.values()]

    resolved_all: list[Resolved] = list(found.values())
    leaders: list[dict[str, Any]] = []
    for option, query in (("commander", commander_q), ("partner", partner_q)):
        if query is None:
            continue
        card, resolved = await _resolve_commander(cards, option, query, in_list)
        leaders.append(card)
        if resolved is not None:
            resolved_all.append(resolved)

    unknown_names = [n for n in names if n not in found]
    for name in missing:
        if name not in unknown_names:
            unknown_names.append(name)

    notes: list[str] = list(alt_notes)
    first_line = {}
    for entry in parsed.deck_entries:
        first_line.setdefault(entry.name, entry.line)
    for typed, res in found.items():
        if typed in first_line and not _same_card_name(typed, res.name):
            notes.append(f"line {first_line[typed]}: {typed!r} was read as {res.name}")

    report = check_deck(
        parsed,
        leaders,
        {typed: res.card for typed, res in found.items()},
        {name: missing.get(name, []) for name in unknown_names},
        notes=notes,
    )
    return report, resolved_all
