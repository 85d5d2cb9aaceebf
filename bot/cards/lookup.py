"""CardLookups: the one pipeline from a typed name to a Scryfall card (its steps: docs/architecture.md)."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

from bot.cards.cache import CardCache, CardRow
from bot.cards.choose import commander_query, pick
from bot.cards.flight import CollectionBatcher, SingleFlight
from bot.cards.foreign import ForeignNames, player_langs
from bot.cards.index import NameIndex, build_index
from bot.cards.model import (
    MAX_SUGGESTIONS,
    STALE_DAYS,
    AmbiguousCard,
    BadCardName,
    CardNotFound,
    Miss,
    Mode,
    Resolved,
    ScryfallUnavailable,
)
from bot.cards.names import MAX_INPUT_CHARS, clean_input, normalize
from bot.cards.opinion import META_KEY, SecondOpinion, parse_stored
from bot.cards.scryfall import (
    ScryfallAmbiguous,
    ScryfallBadRequest,
    ScryfallClient,
    ScryfallError,
    ScryfallNotFound,
)
from bot.ops.metrics import BotMetrics

log = logging.getLogger(__name__)

T = TypeVar("T")
D = TypeVar("D")

MAX_CANDIDATES = 10  # names an ambiguity reply offers


class CardLookups:
    def __init__(
        self,
        cache: CardCache,
        client: ScryfallClient,
        *,
        metrics: BotMetrics,
        cache_ttl: float = 86_400,
        negative_ttl: float = 600,
        clock: Callable[[], float] = time.time,
        foreign: ForeignNames | None = None,
    ) -> None:
        self.cache = cache
        self.foreign = foreign or ForeignNames()
        self.client = client
        self.metrics = metrics
        self.cache_ttl = cache_ttl
        self.negative_ttl = negative_ttl
        self._clock = clock
        self.index = NameIndex()
        self.index_complete = False
        self.bulk_updated_at: float | None = None
        self.bulk_imported_at: float | None = None
        self._flight = SingleFlight()
        self._batcher = CollectionBatcher(client.collection)
        self._slow_in_flight = 0
        self.second_opinion = SecondOpinion(metrics)
        metrics.set_card_data(self.data_state)

    def close(self) -> None:
        self._flight.cancel_all()
        self._batcher.cancel()
        self.client.close()

    async def load_index(self) -> None:
        """Rebuild the name index and the bulk-data dates from the cache off the event loop."""
        # Stamps before names: an import committing in between leaves an older stamp, so the watch reloads.
        try:
            meta = await self.cache.get_metas(
                ("bulk_complete", "bulk_updated_at", "bulk_imported_at", "bulk_partial", META_KEY)
            )
            complete, partial = meta.get("bulk_complete"), meta.get("bulk_partial")
            rows = await self.cache.name_rows() if (complete or partial) else []
        except sqlite3.Error as exc:
            log.error("card cache unreadable while loading the name index: %s", exc)
            return
        # The cyclic GC is off from the build to the freeze: the build's many new objects would set off full
        # collections holding the GIL (and the event loop); frozen, the index is never scanned again.
        collecting = gc.isenabled()
        gc.disable()
        try:
            self.index = await asyncio.to_thread(build_index, rows)
            updated, imported = meta.get("bulk_updated_at"), meta.get("bulk_imported_at")
            self.index_complete = bool(complete) and len(self.index) > 0
            self.bulk_updated_at = float(updated) if updated else (float(partial) if partial else None)
            self.bulk_imported_at = float(imported) if imported else None
            gc.freeze()
            if complete:
                self.second_opinion.imported(parse_stored(meta.get(META_KEY)))
        finally:
            if collecting:
                gc.enable()

    def data_age_days(self) -> float | None:
        if self.bulk_updated_at is None:
            return None
        return max(0.0, (self._clock() - self.bulk_updated_at) / 86_400)

    def data_state(self) -> dict[str, float]:
        age = self.data_age_days()
        return {
            "names": float(len(self.index)),
            "complete": float(self.index_complete),
            "age_days": -1.0 if age is None else round(age, 3),
        }

    @property
    def has_local_data(self) -> bool:
        return len(self.index) > 0

    @property
    def data_fresh(self) -> bool:
        """Complete local data at most `STALE_DAYS` old: it knows every card, so may say "no such card"."""
        age = self.data_age_days()
        return self.index_complete and age is not None and age <= STALE_DAYS

    async def db(self, awaitable: Awaitable[T], default: D) -> T | D:
        """A cache operation; a broken cache degrades to a miss instead of failing the lookup."""
        try:
            return await awaitable
        except sqlite3.Error as exc:
            self.metrics.observe_lookup("cache_error")
            log.error("card cache error (treated as a miss): %s", exc)
            return default

    @staticmethod
    def check_name(name: object) -> tuple[str, str]:
        """(cleaned input, normalised key) of a typed name; BadCardName when empty or too long for a card."""
        if not isinstance(name, str):
            raise BadCardName(str(name)[:MAX_INPUT_CHARS], "empty")
        q = clean_input(name[: MAX_INPUT_CHARS * 4])
        if len(name) > MAX_INPUT_CHARS * 4 or len(q) > MAX_INPUT_CHARS:
            raise BadCardName(q[:MAX_INPUT_CHARS], "too_long", len(name))
        if not q or not (n := normalize(q)):
            raise BadCardName(q, "empty")
        return q, n

    def fresh(
        self, row: CardRow, miss: Miss | None = None, *, query_time: float | None = None
    ) -> Resolved | None:
        """The card of `row` unless it expired (then noted as `miss.stale`, the first one kept)."""
        if row.source == "bulk":
            self.metrics.observe_lookup("local")
            return Resolved(self.cache.parse(row), "local", self.data_age_days())
        fetched = min(row.fetched_at, query_time) if query_time is not None else row.fetched_at
        if self._clock() - fetched < self.cache_ttl:
            self.metrics.observe_lookup("cache")
            return Resolved(self.cache.parse(row), "cache")
        if miss is not None:
            miss.stale = miss.stale or row
        return None

    def serve_stale(self, row: CardRow) -> Resolved:
        self.metrics.observe_lookup("stale")
        log.warning("Scryfall unavailable; serving the expired cache entry for %r", row.name)
        return Resolved(self.cache.parse(row), "stale")

    async def store(self, cards: Iterable[dict[str, Any]], key: str | None = None, card_id: str = "") -> None:
        """Keep API cards (identity compared with Scryfall's), and that `key`'s fuzzy match is `card_id`."""
        cards = list(cards)
        self.second_opinion.fetched(cards)
        await self.db(self.cache.put_cards(cards), 0)
        if key:
            await self.db(self.cache.put_query(Mode.CARD.value, key, card_id), None)

    async def forget(self, key: str, suggestions: list[str]) -> None:
        close = suggestions[:MAX_SUGGESTIONS]
        await self.db(self.cache.put_negative(Mode.CARD.value, key, self.negative_ttl, close), None)

    async def local(
        self,
        q: str,
        n: str,
        mode: Mode,
        *,
        rows: list[CardRow] | None = None,
        langs: Sequence[str] = (),
        printed: bool = True,
        exact_only: bool = False,
    ) -> Resolved | Miss:
        """Answer from the cache and local data alone, else return what was learnt. CardNotFound for a
        remembered "no such card" or (`data_fresh`) a misspelling of a known name; AmbiguousCard when local
        names match equally. With `printed`, a printed name comes right after the exact English name (one card
        is `Miss.printed`, several AmbiguousCard); `exact_only` stops after the exact names."""
        miss = Miss()
        if rows is None:
            rows = await self.db(self.cache.lookup_name(n), [])
        english = rows[0].name if rows else None
        if printed and (meant := self._printed(q, self.foreign.local(q, n, langs, english))):
            return meant
        if rows:
            row = rows[0]
            if mode is Mode.COMMANDER:
                row = next((r for r in rows if r.commander and r.kind == rows[0].kind), rows[0])
            if found := self.fresh(row, miss):
                return found
        if exact_only:
            return miss
        if found := await self._remembered(q, n, mode, miss):
            return found
        return await self._from_index(q, n, mode, miss) if self.index_complete else miss

    async def _remembered(self, q: str, n: str, mode: Mode, miss: Miss) -> Resolved | None:
        """A query Scryfall answered before, while fresh; CardNotFound for a remembered "no such card"."""
        mapped = await self.db(self.cache.get_query(mode.value, n), None)
        row = await self.db(self.cache.get_card(mapped[0]), None) if mapped else None
        if mapped and row and (found := self.fresh(row, miss, query_time=mapped[1])):
            return found
        if mode is Mode.CARD:
            remembered = await self.db(self.cache.get_negative(Mode.CARD.value, n), None)
            if remembered is not None:
                self.metrics.observe_lookup("negative")
                raise CardNotFound(q, remembered[:MAX_SUGGESTIONS])
        return None

    async def _from_index(self, q: str, n: str, mode: Mode, miss: Miss) -> Resolved | Miss:
        match = self.index.match(n, commanders_only=mode is Mode.COMMANDER)
        if match.kind == "ambiguous":
            self.metrics.observe_lookup("ambiguous")
            raise AmbiguousCard(q, match.names[:MAX_CANDIDATES])
        if match.kind == "unique":
            entry = self.index.entries.get(match.names[0])
            local_row = await self.db(self.cache.get_card(entry.card_id), None) if entry else None
            if local_row and (found := self.fresh(local_row, miss)):
                return found
        miss.suggestions = match.suggestions
        if mode is Mode.COMMANDER and not miss.stale:
            # not a commander by that name: the card itself (no cached rows for `n`, or one would be stale)
            return await self.local(q, n, Mode.CARD, rows=[], printed=False)
        if match.close and miss.stale is None and self.data_fresh:
            self.metrics.observe_lookup("not_found")
            raise CardNotFound(q, match.suggestions[:MAX_SUGGESTIONS])
        return miss

    def _printed(self, q: str, meant: list[str]) -> Miss | None:
        """One English name is `Miss.printed`, several are AmbiguousCard (offered to pick), none is None."""
        if len(meant) > 1:
            self.metrics.observe_lookup("ambiguous")
            raise AmbiguousCard(q, meant[:MAX_CANDIDATES])
        return Miss(printed=meant[0]) if meant else None

    async def _remote(self, q: str, n: str, mode: Mode, miss: Miss) -> Resolved:
        self.metrics.observe_lookup("miss")
        try:
            return await (self._remote_commander if mode is Mode.COMMANDER else self._remote_card)(q, n, miss)
        except ScryfallUnavailable:
            if miss.stale is not None:
                return self.serve_stale(miss.stale)
            self.metrics.observe_lookup("unavailable")
            raise

    async def slow(self, call: Awaitable[T]) -> T:
        """Run a request on one of Scryfall's 2/s endpoints, counted so later exact names join a batch."""
        self._slow_in_flight += 1
        try:
            return await call
        finally:
            self._slow_in_flight -= 1

    async def _remote_card(self, q: str, n: str, miss: Miss) -> Resolved:
        card: dict[str, Any] | None = None
        if miss.stale is None and (
            self._slow_in_flight or self._batcher.busy or not self.client.can_go_now("/cards/named")
        ):
            card = await self._batcher.find(q, n)  # others are waiting: share their collection request
        try:
            if card is None:
                card = await self.slow(
                    self.client.card(miss.stale.id) if miss.stale is not None else self.client.named_fuzzy(q)
                )
        except ScryfallNotFound:
            if miss.stale is not None:  # the id is gone (a reprint merged?): ask by name
                return await self._remote_card(q, n, Miss(None, miss.suggestions))
            suggestions = miss.suggestions or self.index.rank_candidates(q, await self._remote_names(q))
            await self.forget(n, suggestions)
            self.metrics.observe_lookup("not_found")
            raise CardNotFound(q, suggestions[:MAX_SUGGESTIONS]) from None
        except ScryfallAmbiguous:
            self.metrics.observe_lookup("ambiguous")
            raise AmbiguousCard(q, (await self.candidates(q, n))[:MAX_CANDIDATES]) from None
        except ScryfallBadRequest:
            self.metrics.observe_lookup("not_found")
            raise CardNotFound(q, miss.suggestions[:MAX_SUGGESTIONS]) from None
        await self.store([card], n, card["id"])
        self.metrics.observe_lookup("api")
        return Resolved(card, "api")

    async def _remote_commander(self, q: str, n: str, miss: Miss) -> Resolved:
        remembered = await self.db(self.cache.get_negative(Mode.COMMANDER.value, n), None)
        if miss.stale is None and remembered is None:
            try:
                cards = (await self.slow(self.client.search(commander_query(q), order="edhrec"))).cards
            except (ScryfallNotFound, ScryfallBadRequest):
                await self.db(self.cache.put_negative(Mode.COMMANDER.value, n, self.negative_ttl), None)
            else:
                await self.store(cards)
                chosen, ranked = pick(q, n, cards)
                if chosen is None:
                    self.metrics.observe_lookup("ambiguous")
                    raise AmbiguousCard(q, ranked[:MAX_CANDIDATES])
                await self.db(self.cache.put_query(Mode.COMMANDER.value, n, chosen["id"]), None)
                self.metrics.observe_lookup("api")
                return Resolved(chosen, "api")
        return await self._pipeline(q, n, Mode.CARD, printed=False)

    def _search_first(self, q: str, n: str, langs: Sequence[str]) -> bool:
        """Whether Scryfall's search for printed names comes before partial and typo matches and Scryfall's
        own fuzzy match: complete local data knows every English name, and the text is none (a player whose
        language Magic is printed in, another script, or like no English name at all: Scryfall's fuzzy match
        might guess one). A player whose language is English keeps partial names and typos local."""
        if not self.index_complete:
            return False
        if self.foreign.wants_search(q, langs):
            return True
        if not self.foreign.can_search():
            return False
        match = self.index.match(n)
        return match.kind == "none" and not match.close

    async def _pipeline(
        self, q: str, n: str, mode: Mode, langs: Sequence[str] = (), *, printed: bool = True
    ) -> Resolved:
        """The pipeline for one name. Scryfall's search for printed names in every language comes before
        partial matches when `_search_first`, else before "no such card"; never twice."""
        early = printed and self._search_first(q, n, langs)
        late = printed and not early and self.foreign.can_search()
        unsearched: ScryfallUnavailable | None = None  # the search failed: then never "no such card"
        try:
            found = await self.local(q, n, mode, langs=langs, printed=printed, exact_only=early)
            if early and isinstance(found, Miss) and found.stale is None and found.printed is None:
                try:
                    meant = self._printed(q, await self.foreign.searched(q, n, langs))
                except ScryfallUnavailable as exc:
                    unsearched, meant = exc, None
                found = meant or await self.local(q, n, mode, printed=False)
            if isinstance(found, Miss) and found.printed is None:
                return await self._remote(q, n, mode, found)
        except CardNotFound:
            try:
                meant = self._printed(q, await self.foreign.searched(q, n, langs)) if late else None
            except ScryfallUnavailable as exc:
                unsearched = exc
            if unsearched is not None:
                self.metrics.observe_lookup("unavailable")
                raise unsearched from None
            if meant is None:
                raise
            found = meant
        if isinstance(found, Resolved):
            return found
        assert found.printed is not None  # a name in another language: the English name's own lookup
        english = await self._pipeline(found.printed, normalize(found.printed), mode, printed=False)
        return dataclasses.replace(english, printed=q)

    async def candidates(self, q: str, n: str) -> list[str]:
        """The cards an ambiguous name may mean, best first: the local index's, else Scryfall's autocomplete."""
        return self.index.rank_candidates(q, self.index.candidates(n) or await self._remote_names(q))

    async def _remote_names(self, q: str) -> list[str]:
        try:
            return await self.client.autocomplete(q)
        except (ScryfallUnavailable, ScryfallError):
            return []

    async def close_names(self, q: str, n: str, *, remote: bool = True) -> list[str]:
        """Up to `MAX_SUGGESTIONS` names close to `q`, best first: the local index's partial matches, else its
        typo and fuzzy ones; without local data Scryfall's autocomplete, if `remote` and it can go at once."""
        names: list[str] = []
        if self.has_local_data:
            names = self.index.candidates(n, limit=MAX_SUGGESTIONS) or self.index.match(n).suggestions
        elif remote and self.client.can_go_now("/cards/autocomplete"):
            names = self.index.rank_candidates(q, await self._remote_names(q))
        return names[:MAX_SUGGESTIONS]

    async def resolve(self, name: str, mode: Mode = Mode.CARD) -> Resolved:
        """The card the user meant: its exact English name, a printed name (the player's languages first),
        else a partial name or typo. Raises BadCardName, CardNotFound, AmbiguousCard or ScryfallUnavailable.
        The pipeline runs once for all concurrent callers of a key; errors name each caller's own query."""
        q, n = self.check_name(name)
        langs = player_langs()
        try:
            return await self._flight.run((mode, n, langs), lambda: self._pipeline(q, n, mode, langs))
        except CardNotFound as exc:
            raise CardNotFound(q, exc.suggestions) from None
        except AmbiguousCard as exc:
            raise AmbiguousCard(q, exc.candidates) from None

    async def resolve_commander(self, name: str) -> Resolved:
        """Like resolve(), but prefers cards that can be commanders (`Kumano` -> Kumano, Master Yamabushi)."""
        return await self.resolve(name, Mode.COMMANDER)

    async def peek(self, name: str, *, commander: bool = False) -> Resolved | None:
        """The card if the cache, local data or a remembered search answers now; None: ask Scryfall."""
        q, n = self.check_name(name)
        mode = Mode.COMMANDER if commander else Mode.CARD
        langs = player_langs()
        early = self._search_first(q, n, langs)
        searchable = self.foreign.can_search()
        try:
            found = await self.local(q, n, mode, langs=langs, exact_only=early)
        except CardNotFound:
            if not searchable:
                raise
            found = Miss()  # Scryfall's search for printed names comes before "no such card"
        if isinstance(found, Miss) and found.printed is None and found.stale is None and searchable:
            meant = self.foreign.known(q, n, langs)
            if meant is None or not (meant or early):  # not remembered, or the pipeline goes on to Scryfall
                return None
            found = self._printed(q, meant) or await self.local(q, n, mode, printed=False)
        if isinstance(found, Miss) and found.printed is not None:
            found = await self.local(found.printed, normalize(found.printed), mode, printed=False)
            return dataclasses.replace(found, printed=q) if isinstance(found, Resolved) else None
        return found if isinstance(found, Resolved) else None
