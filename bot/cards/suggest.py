"""Autocomplete for every card option, never waiting for Scryfall's pace (its sources: docs/card-data.md)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cachetools import TTLCache

from bot.cards.choose import commander_query
from bot.cards.model import MAX_CHOICES, AmbiguousCard, BadCardName, CardNotFound, ScryfallUnavailable
from bot.cards.names import MAX_INPUT_CHARS, choice_name, clean_input, normalize, rank_candidates
from bot.cards.rows import pairing_code, popularity
from bot.cards.scryfall import ScryfallError, ScryfallNotFound
from bot.identity import PairingTraits, can_pair

if TYPE_CHECKING:  # pragma: no cover
    from bot.cards.lookup import CardLookups

AUTOCOMPLETE_BUDGET = 1.5  # seconds for Scryfall to help; Discord drops an autocomplete answer after 3 s
AUTOCOMPLETE_TTL = 300.0  # how long Scryfall's autocomplete answers are reused (no local data)
REMEMBERED = 2048  # Scryfall answers kept


class Autocomplete:
    def __init__(self, lookups: CardLookups, *, clock: Callable[[], float] = time.time) -> None:
        self.lookups = lookups
        self._cache: TTLCache[tuple[str, str], Any] = TTLCache(REMEMBERED, AUTOCOMPLETE_TTL, timer=clock)

    def clear(self) -> None:
        self._cache.clear()

    async def complete(
        self, prefix: str, *, commanders_only: bool = False, partner_of: str | None = None
    ) -> list[str]:
        """Up to 25 names (100 characters each) for a partial name, best first, within
        `AUTOCOMPLETE_BUDGET`. `partner_of`: the commander already chosen, as typed; then only cards that
        pair with it (CR 702.124), with nothing typed the most played. Without local data: Scryfall's
        search (`is:commander`) for commander options, its autocomplete for the others."""
        text = clean_input(prefix if isinstance(prefix, str) else "")[:MAX_INPUT_CHARS]
        leader = await self._known_commander(partner_of) if partner_of else None
        pairing = pairing_code(leader) if leader is not None else None
        if not text and pairing is None:
            return []
        commanders = commanders_only or partner_of is not None
        if self.lookups.has_local_data:  # one more name when the commander itself may be among them
            names = self.lookups.index.complete(
                text, limit=MAX_CHOICES + (leader is not None), commanders_only=commanders, partner_of=pairing
            )
        else:
            remote = self._remote_commanders(text, pairing) if commanders else self._remote_complete(text)
            try:
                async with asyncio.timeout(AUTOCOMPLETE_BUDGET):
                    names = await remote
            except (TimeoutError, ScryfallUnavailable, ScryfallError):
                names = []
        if leader is not None:  # no deck has two copies of its commander
            names = [n for n in names if n != leader["name"]]
        return [choice_name(name) for name in names[:MAX_CHOICES]]

    async def _known_commander(self, name: str) -> dict[str, Any] | None:
        try:
            found = await self.lookups.peek(name, commander=True)
        except (BadCardName, CardNotFound, AmbiguousCard):
            return None
        return found.card if found is not None else None

    async def _remote_complete(self, text: str) -> list[str]:
        key = ("names", normalize(text))
        if len(key[1]) < 2:
            return []
        if (names := self._cache.get(key)) is None:
            if not self.lookups.client.can_go_now("/cards/autocomplete"):
                return []  # never wait for Scryfall's pace: the next keystroke asks again
            names = self._cache[key] = await self.lookups.client.autocomplete(text)
        return list(names)

    async def _remote_commanders(self, text: str, pairing: str | None) -> list[str]:
        """Commanders named like `text` from Scryfall's search, best first; a complete first page also answers
        every longer query that starts with it, so typing on costs no more requests."""
        key = normalize(text)
        if len(key) < 2:
            return []
        found: list[tuple[str, str, int | None]] | None = None
        for size in range(len(key), 1, -1):
            page = self._cache.get(("commanders", key[:size]))
            if page is not None and (size == len(key) or page[1]):
                found = [hit for hit in page[0] if all(word in normalize(hit[0]) for word in key.split())]
                break
        if found is None:
            if not self.lookups.client.can_go_now("/cards/search"):
                return []
            try:
                result = await self.lookups.client.search(commander_query(text), order="edhrec")
                found = [(c["name"], pairing_code(c), popularity(c)) for c in result.cards]
                complete = result.complete
            except ScryfallNotFound:
                found, complete = [], True
            self._cache[("commanders", key)] = (found, complete)
        if pairing is not None:
            mine = PairingTraits.decode(pairing)
            found = [hit for hit in found if can_pair(mine, PairingTraits.decode(hit[1]))]
        return rank_candidates(text, [hit[0] for hit in found], {hit[0]: hit[2] for hit in found}.get)
