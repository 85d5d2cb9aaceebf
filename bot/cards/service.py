"""CardService: the card lookups the bot uses (`bot.cards.lookup`), a decklist's exact reading
(`bot.cards.exact`), autocomplete (`bot.cards.suggest`) and printed-name choices (`bot.cards.foreign`).
The player's languages come from `bot.cards.foreign.use_player_langs`."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any

from bot.cards.allcards import card_oracle_id
from bot.cards.exact import ExactReader
from bot.cards.foreign import player_langs
from bot.cards.lookup import CardLookups
from bot.cards.model import MAX_CHOICES, Batch, ScryfallUnavailable
from bot.cards.names import normalize
from bot.cards.quotes import PrintedText
from bot.cards.scryfall import ScryfallError
from bot.cards.suggest import AUTOCOMPLETE_BUDGET, Autocomplete


class CardService(CardLookups):
    """Card lookups for the bot, on a cache and a Scryfall client the composition root built."""

    @cached_property
    def _autocomplete(self) -> Autocomplete:
        return Autocomplete(self, clock=self._clock)

    async def load_index(self) -> None:
        await super().load_index()
        self._autocomplete.clear()

    async def resolve_many(self, names: list[str]) -> Batch:
        """A decklist's names read exactly (`Batch`); never raises for Scryfall trouble."""
        return await ExactReader(self, player_langs()).read(names)

    async def autocomplete(
        self, prefix: str, *, commanders_only: bool = False, partner_of: str | None = None
    ) -> list[str]:
        return await self._autocomplete.complete(
            prefix, commanders_only=commanders_only, partner_of=partner_of
        )

    async def printed_texts(self, cards: Iterable[Mapping[str, Any]]) -> dict[str, PrintedText]:
        """{card name: its rules text as printed in the player's language} for those of `cards` the local data
        holds (`CARD_LANGUAGES`, imported from `all_cards`); {} for a player whose language is not loaded."""
        langs = player_langs()
        if not langs or langs[0] not in self.foreign.languages:
            return {}
        by_id = {oracle: card for card in cards if (oracle := card_oracle_id(card)) is not None}
        stored = await self.cache.printed_texts(langs[0], by_id)
        texts = {oracle: PrintedText.of(by_id[oracle], langs[0], faces) for oracle, faces in stored.items()}
        return {str(by_id[oracle].get("name")): text for oracle, text in texts.items() if text is not None}

    async def printed_choices(self, prefix: str, *, commanders_only: bool = False) -> list[tuple[str, str]]:
        """(label `Foudre — Lightning Bolt`, English name) for printed names starting with `prefix`: the local
        index's (`ForeignNames.choices`), else, when no English name matches it, Scryfall's search as far as
        it can answer at once (`ForeignNames.searched_choices`, within `AUTOCOMPLETE_BUDGET`); never raises.
        `commanders_only` keeps the local index's commanders."""
        limit = MAX_CHOICES * 2 if commanders_only else MAX_CHOICES
        langs = player_langs()
        ask = self.foreign.can_search() or (self.foreign.index is not None and not langs and prefix.isascii())
        english = True  # whether `prefix` reads as (the start of) an English name, only where that decides
        if ask and self.has_local_data:  # the local index matches it without a typo
            english = bool(self.index.candidates(normalize(prefix), limit=1))
        elif ask:  # no local data: ASCII typed by a player whose language is English
            english = not langs and normalize(prefix).isascii()
        found = self.foreign.choices(prefix, langs, limit, english=english)
        if not found and not english and self.foreign.can_search():
            try:
                async with asyncio.timeout(AUTOCOMPLETE_BUDGET):
                    found = await self.foreign.searched_choices(prefix, langs, limit)
            except (TimeoutError, ScryfallUnavailable, ScryfallError):
                found = []
        if commanders_only and self.has_local_data:
            entries = self.index.entries
            found = [(label, name) for label, name in found if name in entries and entries[name].commander]
        return found[:MAX_CHOICES]
