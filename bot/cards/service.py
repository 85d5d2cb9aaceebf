"""CardService: the card lookups the bot uses (`bot.cards.lookup`), a decklist's exact reading
(`bot.cards.exact`), autocomplete (`bot.cards.suggest`) and printed-name choices (`bot.cards.foreign`).
The player's languages come from `bot.cards.foreign.use_player_langs`."""

from __future__ import annotations

from functools import cached_property

from bot.cards.exact import ExactReader
from bot.cards.foreign import player_langs
from bot.cards.lookup import CardLookups
from bot.cards.model import MAX_CHOICES, Batch
from bot.cards.suggest import Autocomplete


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

    def printed_choices(self, prefix: str, *, commanders_only: bool = False) -> list[tuple[str, str]]:
        """(label `Foudre — Lightning Bolt`, English name) for printed names starting with `prefix`
        (`ForeignNames.choices`); `commanders_only` keeps the local index's commanders."""
        limit = MAX_CHOICES
        found = self.foreign.choices(prefix, player_langs(), limit * 2 if commanders_only else limit)
        if commanders_only and self.has_local_data:
            found = [
                (label, name)
                for label, name in found
                if (entry := self.index.entries.get(name)) is not None and entry.commander
            ]
        return found[:limit]
