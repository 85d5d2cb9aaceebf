"""Card options: `CardOption` validates and autocompletes what was typed (a decklist line too: `1 Sol Ring
(C21) 263 *F*`); `resolve_options` finds the cards, deferring only for Scryfall."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from discord import app_commands
from discord.app_commands import Choice

from bot.app.context import Interaction, app_of, record, record_found
from bot.cards.foreign import use_player_langs
from bot.cards.model import MAX_CHOICES, AmbiguousCard, BadCardName, CardLookupError, CardNotFound, Resolved
from bot.cards.names import MAX_INPUT_CHARS, choice_name
from bot.cards.printed import scryfall_language
from bot.cards.service import CardService
from bot.deck.parser import card_query_text
from bot.identity.model import WUBRG
from bot.ops.metrics import Outcome
from bot.present import render

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CardQuery:
    """A validated card option: its name (None when it is the command's only card option), text, commander?"""

    option: str | None
    text: str
    commander: bool = False


def read_names_in_players_language(interaction: Interaction) -> None:
    """Lookups that name no language (a deck check's) read the player's Discord locale first, in this task."""
    lang = scryfall_language(interaction.locale.value)  # None for English and locales Magic isn't in
    use_player_langs((lang,) if lang else ())


def option_for(options: Mapping[str, object], label: str | None, query: str) -> str | None:
    """The card option an error is about: labelled `label`; else the one reading `query`, or the only one."""
    cards = {name: q for name, q in options.items() if isinstance(q, CardQuery)}
    if label is not None:
        return next((name for name, q in cards.items() if q.option == label), None)
    matching = [name for name, q in cards.items() if " ".join(q.text.split()) == " ".join(query.split())]
    if len(matching) == 1:
        return matching[0]
    return next(iter(cards)) if not matching and len(cards) == 1 else None


class CardOption(app_commands.Transformer):
    """Validation (errors carry `label`) and autocomplete of one card option."""

    def __init__(self, label: str | None = None, *, commander: bool = False) -> None:
        self.label, self.commander = label, commander

    async def transform(self, interaction: Interaction, value: str, /) -> CardQuery:
        try:
            query, _key = CardService.check_name(card_query_text(value))
        except BadCardName as exc:
            raise _labelled(exc, self.label) from None
        return CardQuery(self.label, query, self.commander)

    def _paired_with(self, interaction: Interaction) -> str | None:
        """The commander typed in the option this one pairs with, read as a card name; None when empty."""
        typed = interaction.namespace.commander if self.label == "partner" else None  # None when not typed
        if not isinstance(typed, str) or len(typed) > MAX_INPUT_CHARS:
            return None
        return card_query_text(typed).strip() or None

    async def autocomplete(self, interaction: Interaction, value: str, /) -> list[Choice[str]]:  # type: ignore[override]
        """Recent names, printed names in the player's language, then the service's matches; never raises."""
        bot, only = app_of(interaction), self.commander
        if len(value) > MAX_INPUT_CHARS:
            return []
        text = card_query_text(value)
        partner_of = self._paired_with(interaction)
        if not text.strip() and partner_of is None:
            return []
        names: list[str] = []
        if partner_of is None:
            names += bot.recent.matching(interaction, text, commanders_only=only)
            read_names_in_players_language(interaction)

        async def printed() -> list[tuple[str, str]]:  # (label, English name): names printed in a language
            if partner_of is not None:
                return []
            return await bot.cards.printed_choices(text, commanders_only=only)

        async def english() -> list[str]:
            try:
                return await bot.cards.autocomplete(text, commanders_only=only, partner_of=partner_of)
            except Exception as exc:  # a failing lookup must not break typing
                record(interaction, Outcome.ERROR)
                log.warning("autocomplete failed: %s", type(exc).__name__)
                return []

        found, matches = await asyncio.gather(printed(), english())  # Scryfall's turns overlap
        names += matches
        labels: dict[str, str] = {}  # value -> its first label
        for label, name in found + [(choice_name(n), n) for n in names]:
            if label:
                labels.setdefault(choice_name(name), label)
        return [Choice(name=label, value=name) for name, label in labels.items()][:MAX_CHOICES]


async def resolve_options(interaction: Interaction, queries: Sequence[CardQuery]) -> list[Resolved]:
    """The cards the options name, deferring first when Scryfall is asked; raises the first lookup error."""
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
        return hit or await (cards.resolve_commander if q.commander else cards.resolve)(q.text)

    results = await asyncio.gather(*map(one, queries, known), return_exceptions=True)
    for q, r in zip(queries, results, strict=True):
        if isinstance(r, BaseException):
            raise _labelled(r, q.option) if isinstance(r, CardLookupError) else r
    found = [r for r in results if isinstance(r, Resolved)]
    record_found(interaction, found, card=found[0].name)
    return found


def _labelled(error: CardLookupError, option: str | None) -> CardLookupError:
    """The error naming the option it came from (lookup errors about a name, not outages)."""
    if isinstance(error, CardNotFound | AmbiguousCard | BadCardName):
        return dataclasses.replace(error, option=option)
    return error


#: The commander options of /fits and /deckcheck.
Commander = app_commands.Transform[CardQuery, CardOption("commander", commander=True)]
Partner = app_commands.Transform[CardQuery, CardOption("partner", commander=True)]

#: The five colors as a command option's choices (the color a CR 903.4b commander chose before the game).
COLOR_CHOICES = [Choice(name=render.color_name(c).capitalize(), value=c) for c in WUBRG]
