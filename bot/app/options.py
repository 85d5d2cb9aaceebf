"""Card options, shared by every command: one transformer validates what was typed and autocompletes it,
and `resolve_options` finds the cards (deferring only when Scryfall must be asked).

    card: app_commands.Transform[CardQuery, CardOption("card")]
    commander: Commander
    partner: Partner

A card option takes what players paste: a decklist line (`1 Sol Ring (C21) 263 *F*`) is read the way the deck
parser reads it (`card_query_text`). The partner option's autocomplete offers only cards that can be paired
with the commander already typed in the same command (`CardOption.partner_of`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.app.context import app_of
from bot.app.observe import record, record_found
from bot.app.recent import scope_of
from bot.cards.foreign import use_player_langs
from bot.cards.model import MAX_CHOICES, AmbiguousCard, BadCardName, CardLookupError, CardNotFound, Resolved
from bot.cards.names import MAX_INPUT_CHARS, choice_name
from bot.cards.printed import scryfall_language
from bot.cards.service import CardService
from bot.deck.parser import parse_card_line
from bot.identity.model import WUBRG
from bot.ops.metrics import Outcome
from bot.present import render

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CardQuery:
    """A validated card option: the option's name for error messages (None when the command has only one
    card option), the text, and whether it names a commander."""

    option: str | None
    text: str
    commander: bool = False


def player_langs(interaction: discord.Interaction[Any]) -> tuple[str, ...]:
    """The languages (Scryfall codes) the player's cards are printed in, by their Discord locale: names in
    it are read first (`de` -> ("de",)); () for English and locales Magic is not printed in."""
    lang = scryfall_language(interaction.locale.value)
    return (lang,) if lang else ()


def read_names_in_players_language(interaction: discord.Interaction[Any]) -> None:
    """Card lookups that name no language (a deck check's names and commanders) read printed names in the
    player's language first, for the rest of this interaction's task."""
    use_player_langs(player_langs(interaction))


def card_query_text(value: str) -> str:
    """The card name in what was typed: a decklist line's count, `(SET) 123`, `[SET]`, `*F*` and `*CMDR*`
    markers and a trailing comment are dropped, as the deck parser drops them; anything the parser does not
    read as a card line is kept as typed."""
    line = parse_card_line(value) if isinstance(value, str) and len(value) <= MAX_INPUT_CHARS * 4 else None
    return line.name if line is not None else value


def card_query(label: str | None, value: str, *, commander: bool = False) -> CardQuery:
    """What was typed (or picked) in the card option `label`, validated; BadCardName names the option."""
    try:
        query, _key = CardService.check_name(card_query_text(value))
    except BadCardName as exc:
        raise _labelled(exc, label) from None
    return CardQuery(label, query, commander)


def option_for(options: Mapping[str, object], label: str | None, query: str) -> str | None:
    """Which of a command's options (name -> value) an error about card option `label` and `query` is about:
    the card option labelled `label`; without a label the one card option whose text is `query`, or the
    command's only card option; None when that is not exactly one option."""
    cards = {name: q for name, q in options.items() if isinstance(q, CardQuery)}
    if label is not None:
        return next((name for name, q in cards.items() if q.option == label), None)
    matching = [name for name, q in cards.items() if " ".join(q.text.split()) == " ".join(query.split())]
    if len(matching) == 1:
        return matching[0]
    return next(iter(cards)) if not matching and len(cards) == 1 else None


class CardOption(app_commands.Transformer):
    """Validation (empty or over-long input never reaches the card service) and autocomplete of one card
    option. Errors carry `label`, so the reply can say which option was wrong.

    `partner_of`: for the option labelled "partner", "commander", the option holding the commander it pairs
    with; its autocomplete then offers only cards that can be paired with that commander."""

    def __init__(self, label: str | None = None, *, commander: bool = False) -> None:
        self.label = label
        self.commander = commander
        self.partner_of = "commander" if label == "partner" else None

    async def transform(self, interaction: discord.Interaction[Any], value: str, /) -> CardQuery:
        return card_query(self.label, value, commander=self.commander)

    def _paired_with(self, interaction: discord.Interaction[Any]) -> str | None:
        """The commander typed in the option this one pairs with, read as a card name; None when empty."""
        if self.partner_of is None:
            return None
        typed = getattr(
            interaction.namespace, self.partner_of
        )  # a Namespace answers None for an option not typed
        if not isinstance(typed, str) or not typed.strip() or len(typed) > MAX_INPUT_CHARS:
            return None
        return card_query_text(typed).strip() or None

    async def autocomplete(  # type: ignore[override]
        self,
        interaction: discord.Interaction[Any],
        value: str,  # type: ignore[override]
        /,
    ) -> list[app_commands.Choice[str]]:
        """Recently looked-up names first, then the card service's matches; never raises. For a partner
        option with its commander typed, only the service's cards that can be paired with it (even before
        anything is typed: the most played of them)."""
        bot = app_of(interaction)
        if len(value) > MAX_INPUT_CHARS:
            return []
        text = card_query_text(value) if value else ""
        partner_of = self._paired_with(interaction)
        if not text.strip() and partner_of is None:
            return []
        names: list[str] = []
        printed: list[tuple[str, str]] = []  # (label, English name): names printed in the player's language
        if partner_of is None:
            names += bot.recent.matching(scope_of(interaction), text, commanders_only=self.commander)
            read_names_in_players_language(interaction)
            printed = bot.cards.printed_choices(text, commanders_only=self.commander)
        try:
            names += await bot.cards.autocomplete(text, commanders_only=self.commander, partner_of=partner_of)
        except Exception as exc:  # a failing lookup must not break typing
            record(interaction, Outcome.ERROR)
            log.warning("autocomplete failed: %s", type(exc).__name__)
        pairs = [(label, choice_name(name)) for label, name in printed] + [
            (choice_name(n), choice_name(n)) for n in names
        ]
        choices: list[app_commands.Choice[str]] = []
        for label, value in dict.fromkeys(pairs):
            if label and value not in {c.value for c in choices}:
                choices.append(app_commands.Choice(name=label, value=value))
            if len(choices) == MAX_CHOICES:
                break
        return choices


async def resolve_options(
    interaction: discord.Interaction[Any], queries: Sequence[CardQuery]
) -> list[Resolved]:
    """The cards the options name. Answers from local data need no deferral; anything that must ask
    Scryfall defers first ("thinking…"). Raises the first lookup error (with its option's name), which
    the tree answers; records the outcome, the first card and whether the cache answered."""
    cards = app_of(interaction).cards
    read_names_in_players_language(interaction)
    known: list[Resolved | None] = []
    for q in queries:
        try:
            known.append(await cards.peek(q.text, commander=q.commander))
        except CardLookupError as exc:
            raise _labelled(exc, q.option) from None
    if any(k is None for k in known):
        await interaction.response.defer(thinking=True)

    async def one(q: CardQuery, hit: Resolved | None) -> Resolved:
        if hit is not None:
            return hit
        if q.commander:
            return await cards.resolve_commander(q.text)
        return await cards.resolve(q.text)

    results = await asyncio.gather(
        *(one(q, k) for q, k in zip(queries, known, strict=True)), return_exceptions=True
    )
    for q, r in zip(queries, results, strict=True):
        if isinstance(r, CardLookupError):
            raise _labelled(r, q.option)
        if isinstance(r, BaseException):
            raise r
    found = [r for r in results if isinstance(r, Resolved)]
    record_found(interaction, found, card=found[0].name)
    return found


def _labelled(error: CardLookupError, option: str | None) -> CardLookupError:
    """The error naming the option it came from (lookup errors about a name; not Scryfall outages)."""
    if isinstance(error, CardNotFound | AmbiguousCard | BadCardName):
        return dataclasses.replace(error, option=option)
    return error


#: The commander options of /fits and /deckcheck; the partner's autocomplete offers only the cards that can be
#: paired with the commander typed (`CardOption.partner_of`).
Commander = app_commands.Transform[CardQuery, CardOption("commander", commander=True)]
Partner = app_commands.Transform[CardQuery, CardOption("partner", commander=True)]

#: The five colors as a command option's choices (the color a CR 903.4b commander chose before the game).
COLOR_CHOICES = [
    app_commands.Choice(name=render.color_name(letter).capitalize(), value=letter) for letter in WUBRG
]
