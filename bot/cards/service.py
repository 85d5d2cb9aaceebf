"""CardService: the card lookups the bot uses, in one object the composition root builds.

- `resolve`, `resolve_commander`, `peek`: one typed name, partial names and typos allowed
  (`bot.cards.lookup`);
- `resolve_many`: a decklist's names, read exactly, never replaced by a look-alike (`bot.cards.exact`);
- `autocomplete`: names for a partial name, answered at once (`bot.cards.suggest`); `printed_choices`:
  names printed in other languages for it (`bot.cards.foreign`).

Names printed in other languages resolve everywhere (`ForeignNames`): the callers pass the player's
languages (Scryfall codes, `bot.cards.printed.scryfall_language` of the Discord locale) as `langs`, or
set them for the whole interaction (`bot.cards.foreign.use_player_langs`) where another layer calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from bot.cards.exact import ExactReader
from bot.cards.foreign import langs_or_players
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

    async def resolve_many(self, names: list[str], *, langs: Sequence[str] = ()) -> Batch:
        """Resolve a decklist: every typed name ends up found (that exact card, by its English or printed
        name), missing (no card has that name, or a printed name several cards share; with suggestions) or
        unavailable (Scryfall could not be asked and the local data lacks it); see `Batch` and
        `bot.cards.exact`. Never raises for Scryfall trouble."""
        return await ExactReader(self, langs_or_players(langs)).read(names)

    async def autocomplete(
        self, prefix: str, *, commanders_only: bool = False, partner_of: str | None = None
    ) -> list[str]:
        """Up to 25 names for a partial name, best first (see `Autocomplete.complete`)."""
        return await self._autocomplete.complete(
            prefix, commanders_only=commanders_only, partner_of=partner_of
        )

    def printed_choices(
        self,
        prefix: str,
        langs: Sequence[str] = (),
        *,
        commanders_only: bool = False,
        limit: int = MAX_CHOICES,
    ) -> list[tuple[str, str]]:
        """(choice label `Foudre — Lightning Bolt`, English name) for names printed in other languages that
        start with `prefix`, the player's languages `langs` first; only from the local index, and only when
        `langs` is set or the prefix is not ASCII. `commanders_only` keeps the cards the local English index
        knows as commanders."""
        found = self.foreign.choices(prefix, langs, limit * 2 if commanders_only else limit)
        if commanders_only and self.has_local_data:
            found = [
                (label, name)
                for label, name in found
                if (entry := self.index.entries.get(name)) is not None and entry.commander
            ]
        return found[:limit]
