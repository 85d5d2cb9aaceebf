"""Reading a decklist's names exactly (`CardService.resolve_many`): a name is a card only when its key is
that card's full or face name key; the steps, and who may say "no such card": docs/card-data.md."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.cards.cache import CardRow
from bot.cards.flight import by_name_key
from bot.cards.lookup import CardLookups
from bot.cards.model import (
    MAX_COLLECTION,
    MAX_SUGGESTIONS,
    AmbiguousCard,
    BadCardName,
    Batch,
    Mode,
    Resolved,
    ScryfallUnavailable,
)
from bot.cards.scryfall import ScryfallAmbiguous, ScryfallError, ScryfallNotFound


class ExactReader:
    """One `resolve_many` call: the names typed, grouped by key, and what became of each key."""

    def __init__(self, service: CardLookups, langs: Sequence[str] = ()) -> None:
        self.service = service
        self.langs = tuple(langs)
        self.english: dict[str, str] = {}  # key of a printed name -> the English name it is
        self.searching = service.foreign.can_search()
        self.result = Batch()
        self.wanted: dict[str, list[str]] = {}  # key -> every typed spelling of it
        self.query_of: dict[str, str] = {}
        self.stale: dict[str, CardRow] = {}
        self.unsearched: dict[str, ScryfallUnavailable] = {}  # keys whose printed-name search failed
        self.rows: dict[str, list[CardRow]] = {}  # key -> the cache's rows of it, read in one query

    async def read(self, names: list[str]) -> Batch:
        for name in names:
            try:
                q, n = self.service.check_name(name)
            except BadCardName:
                self.result.missing.setdefault(name, [])
                self.result.suggestions.setdefault(name, [])
                continue
            if name not in self.wanted.setdefault(n, []):
                self.wanted[n].append(name)
            self.query_of.setdefault(n, q)
        self.rows = await self.service.db(self.service.cache.lookup_names(list(self.wanted)), {})
        ask = [n for n in self.wanted if not await self._local(n)]
        for start in range(0, len(ask), MAX_COLLECTION):
            for n in await self._collection(ask[start : start + MAX_COLLECTION]):
                if not (self.searching and n not in self.stale and await self._searched(n)):
                    await self._named(n)
        await self._read_english()
        return self.result

    async def _searched(self, n: str) -> bool:
        """Settle `n` when Scryfall's search finds it a printed name: one card is read as its English name
        (`_read_english`), several are missing with them as suggestions."""
        try:
            meant = await self.service.foreign.searched(self.query_of[n], n, self.langs)
        except ScryfallUnavailable as exc:  # it may be a printed name: never "no such card" then
            self.unsearched[n] = exc
            return False
        if len(meant) > 1:
            self.service.metrics.observe_lookup("ambiguous")
            await self._not_found(n, meant, more=False)
        elif meant:
            self.english[n] = meant[0]
        return bool(meant)

    async def _read_english(self) -> None:
        if not self.english:
            return
        batch = await ExactReader(self.service).read(list(dict.fromkeys(self.english.values())))
        for n, name in self.english.items():
            for typed in self.wanted[n]:
                if name in batch.found:
                    self.result.found[typed] = dataclasses.replace(batch.found[name], printed=typed)
                    continue
                if name in batch.unavailable:
                    self.result.unavailable[typed] = batch.unavailable[name]
                else:
                    self.result.missing[typed] = batch.missing.get(name, [])
                self.result.suggestions[typed] = batch.suggestions.get(name, [])

    def _found(self, n: str, resolved: Resolved) -> None:
        for typed in self.wanted[n]:
            self.result.found[typed] = resolved

    async def _not_found(self, n: str, first: list[str], *, more: bool = True, remote: bool = True) -> None:
        if n in self.unsearched:
            await self._unavailable(n, self.unsearched[n])
            return
        close = await self.service.close_names(self.query_of[n], n, remote=remote) if more else []
        names = list(dict.fromkeys(first + close))
        for typed in self.wanted[n]:
            self.result.missing[typed] = names[:MAX_SUGGESTIONS]
            self.result.suggestions[typed] = names[:MAX_SUGGESTIONS]

    async def _unavailable(self, n: str, exc: ScryfallUnavailable) -> None:
        if (row := self.stale.get(n)) is not None:  # the exact card, only older than CACHE_TTL
            self._found(n, self.service.serve_stale(row))
            return
        self.service.metrics.observe_lookup("unavailable")
        names = await self.service.close_names(self.query_of[n], n, remote=False)
        for typed in self.wanted[n]:
            self.result.unavailable[typed] = exc.reason
            self.result.suggestions[typed] = names[:MAX_SUGGESTIONS]

    async def _local(self, n: str) -> bool:
        """Settle `n` from the cache if it can; False when Scryfall must be asked."""
        service, q = self.service, self.query_of[n]
        rows = self.rows.get(n, [])
        try:  # a cached English name is that card; else the local index's printed names
            found = await service.local(
                q, n, Mode.CARD, rows=rows, langs=self.langs, printed=not rows, exact_only=True
            )
        except AmbiguousCard as exc:
            await self._not_found(n, exc.candidates, more=False)
            return True
        if isinstance(found, Resolved):
            self._found(n, found)
            return True
        if found.printed is not None:
            self.english[n] = found.printed
            return True
        if found.stale is not None:
            self.stale[n] = found.stale
            return False
        close = await service.db(service.cache.get_negative(Mode.CARD.value, n), None)  # a recent 404
        negative = close is not None
        if close is None:
            mapped = await service.db(service.cache.get_query(Mode.CARD.value, n), None)
            other = await service.db(service.cache.get_card(mapped[0]), None) if mapped else None
            if not (mapped and other and service.fresh(other, query_time=mapped[1])):
                return False
            close = [other.name]  # Scryfall named another card
        if self.searching and await self._searched(n):  # no English name: a printed one?
            return True
        service.metrics.observe_lookup("negative" if negative else "not_found")
        await self._not_found(n, close, more=not negative, remote=False)  # a remembered answer asks nobody
        return True

    async def _collection(self, chunk: list[str]) -> list[str]:
        """Ask /cards/collection for `chunk`; the keys it did not settle."""
        service = self.service
        service.metrics.observe_lookup("miss", len(chunk))
        try:
            cards = await service.slow(service.client.collection([{"name": self.query_of[n]} for n in chunk]))
        except ScryfallUnavailable as exc:
            for n in chunk:
                await self._unavailable(n, exc)
            return []
        except ScryfallError:
            return chunk
        await service.store(cards)
        by_key = by_name_key(cards)
        for n in chunk:
            if n in by_key:
                service.metrics.observe_lookup("api")
                self._found(n, Resolved(by_key[n], "api"))
        return [n for n in chunk if n not in by_key]

    async def _named(self, n: str) -> None:
        """Scryfall's fuzzy match for a name the collection lacks, kept only when it is that exact name."""
        service, q = self.service, self.query_of[n]
        try:
            card = await service.slow(service.client.named_fuzzy(q))
        except ScryfallUnavailable as exc:
            await self._unavailable(n, exc)
        except ScryfallNotFound:
            service.metrics.observe_lookup("not_found")
            close = await service.close_names(q, n)
            await service.forget(n, close)
            await self._not_found(n, close, more=False)
        except ScryfallAmbiguous:
            service.metrics.observe_lookup("ambiguous")
            await self._not_found(n, await service.candidates(q, n), more=False)
        except ScryfallError:
            service.metrics.observe_lookup("not_found")
            await self._not_found(n, [])
        else:
            await service.store([card], n, str(card["id"]))
            if n in by_name_key([card]):
                service.metrics.observe_lookup("api")
                self._found(n, Resolved(card, "api"))
            elif n in self.stale:
                self._found(n, service.serve_stale(self.stale[n]))
            else:  # Scryfall names another card: a suggestion, never the answer
                service.metrics.observe_lookup("not_found")
                await self._not_found(n, [str(card["name"])])
