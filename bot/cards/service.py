"""CardService: the card lookups the bot uses, in one object the composition root builds.

- `resolve`, `resolve_commander`, `peek`: one typed name, partial names and typos allowed
  (`bot.cards.lookup`);
- `resolve_many`: a decklist's names, read exactly, never replaced by a look-alike (`bot.cards.exact`);
- `autocomplete`: names for a partial name, answered at once (`bot.cards.suggest`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.cards.cache import CardCache
from bot.cards.exact import ExactReader
from bot.cards.lookup import CardLookups
from bot.cards.model import Batch
from bot.cards.scryfall import ScryfallClient
from bot.cards.suggest import Autocomplete
from bot.ops.metrics import BotMetrics


class CardService(CardLookups):
    """Card lookups for the bot, on a cache and a Scryfall client the composition root built."""

    def __init__(self, cache: CardCache, client: ScryfallClient, *, metrics: BotMetrics,
                 cache_ttl: float = 86_400, negative_ttl: float = 600,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(cache, client, metrics=metrics, cache_ttl=cache_ttl, negative_ttl=negative_ttl,
                         clock=clock)
        self._autocomplete = Autocomplete(self, clock=clock)

    async def load_index(self) -> None:
        await super().load_index()
        self._autocomplete.clear()

    async def resolve_many(self, names: list[str]) -> Batch:
        """Resolve a decklist: every typed name ends up found (that exact card), missing (Scryfall says no
        card has that name; with suggestions) or unavailable (Scryfall could not be asked and the local data
        lacks it); see `Batch` and `bot.cards.exact`. Never raises for Scryfall trouble."""
        return await ExactReader(self).read(names)

    async def autocomplete(self, prefix: str, *, commanders_only: bool = False,
                           partner_of: str | None = None) -> list[str]:
        """Up to 25 names for a partial name, best first (see `Autocomplete.complete`)."""
        return await self._autocomplete.complete(prefix, commanders_only=commanders_only, partner_of=partner_of)
