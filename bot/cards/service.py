"""CardService: everything between "a user typed a card name" and "here is the Scryfall card object".

Lookup order for `resolve(name)`:
1. the cache by normalised name (full names and face names; bulk cards never expire, API cards
   live `CACHE_TTL` seconds),
2. a cached answer to the same fuzzy query, then the negative cache (`NEGATIVE_TTL`),
3. with complete local bulk data: the local index (prefix / word-prefix, then fuzzy typos),
4. Scryfall's fuzzy /cards/named. When Scryfall fails and an expired entry exists it is served with
   `source="stale"`.
Concurrent lookups of one key share one execution (single-flight). Nothing from an error response is
ever written to the cache.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import aiohttp

from bot.cards.bulk import ImportResult, sync_from_scryfall
from bot.cards.cache import CardCache, CardRow
from bot.cards.model import AmbiguousCard, Batch, CardNotFound, Resolved, ScryfallUnavailable
from bot.cards.names import (
    MAX_INPUT_CHARS,
    NameIndex,
    choice_name,
    clean_input,
    normalize,
    rank_candidates,
)
from bot.cards.scryfall import (
    LOCKOUT_SECONDS,
    MAX_COLLECTION,
    ScryfallAmbiguous,
    ScryfallBadRequest,
    ScryfallClient,
    ScryfallError,
    ScryfallNotFound,
    SingleFlight,
)
from bot.settings import Settings

log = logging.getLogger(__name__)

T = TypeVar("T")

AUTOCOMPLETE_BUDGET = 1.8  # seconds; Discord needs an answer within 3 s, we promise 2 s
AUTOCOMPLETE_TTL = 300.0
MAX_CANDIDATES = 10
MAX_SUGGESTIONS = 5
_SEARCH_OPERATORS = {"or", "and", "not"}


class CardService:
    """Card lookups for the bot. Build with `await CardService.create(settings)`; `await close()` at the end."""

    def __init__(self, settings: Settings, cache: CardCache, client: ScryfallClient, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.cache = cache
        self.client = client
        self._clock = clock
        self._index = NameIndex()
        self._index_complete = False
        self._bulk_updated_at: float | None = None
        self._bulk_imported_at: float | None = None
        self._flight = SingleFlight()
        self._sync_task: asyncio.Task[None] | None = None
        self._sync_lock = asyncio.Lock()
        self._ac_cache: dict[tuple[str, bool], tuple[float, list[str]]] = {}
        self._closed = False
        self.stats: Counter[str] = Counter()

    @classmethod
    async def create(cls, settings: Settings, *, session: aiohttp.ClientSession | None = None,
                     clock: Callable[[], float] = time.time,
                     monotonic: Callable[[], float] = time.monotonic,
                     lockout_seconds: float = LOCKOUT_SECONDS,
                     client: ScryfallClient | None = None) -> CardService:
        """Open the cache at `settings.cache_path` (creating directories) and make the Scryfall client.

        `clock` (wall seconds, for TTLs), `monotonic` and `lockout_seconds` (429 pause) are for tests.
        """
        cache = await CardCache.open(settings.cache_path, clock=clock)
        if client is None:
            client = ScryfallClient(settings.scryfall_api_base, session=session, rate=settings.scryfall_rate,
                                    timeout=settings.scryfall_timeout, lockout_seconds=lockout_seconds,
                                    clock=monotonic)
        service = cls(settings, cache, client, clock=clock)
        await service.reload_index()
        return service

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self.stop_background_sync()
        self._flight.cancel_all()
        await self.client.close()
        await self.cache.close()

    # -- bookkeeping -------------------------------------------------------------------------------

    async def reload_index(self) -> None:
        """Rebuild the in-memory name index and bulk-data dates from the cache."""
        try:
            entries = await self.cache.name_entries()
            complete = await self.cache.get_meta("bulk_complete")
            updated = await self.cache.get_meta("bulk_updated_at")
            imported = await self.cache.get_meta("bulk_imported_at")
            partial = await self.cache.get_meta("bulk_partial")
        except sqlite3.Error as exc:
            log.error("card cache unreadable while loading the name index: %s", exc)
            return
        bulk_entries = entries if (complete or partial) else []
        self._index = await asyncio.to_thread(NameIndex, bulk_entries) if len(bulk_entries) > 2000 \
            else NameIndex(bulk_entries)
        self._index_complete = bool(complete) and len(self._index) > 0
        self._bulk_updated_at = float(updated) if updated else (float(partial) if partial else None)
        self._bulk_imported_at = float(imported) if imported else None
        self._ac_cache.clear()

    def data_age_days(self) -> float | None:
        """Age in days of the local bulk data (None when there is none)."""
        if self._bulk_updated_at is None:
            return None
        return max(0.0, (self._clock() - self._bulk_updated_at) / 86_400)

    @property
    def has_local_data(self) -> bool:
        return len(self._index) > 0

    def requests_by_status(self) -> dict[str, int]:
        """Scryfall requests so far by HTTP status ("200", "404", "429", ...) or "timeout",
        "connection_error", "malformed"."""
        return {str(k): int(v) for k, v in self.client.stats["requests"].items()}

    def metrics(self) -> dict[str, float]:
        """Flat numeric counters for the metrics endpoint (every value a number).

        hits, misses, cache/local/api/stale answers, negative_hits, not_found, ambiguous, unavailable,
        cards (names in the local index), data_age_days (-1 without bulk data), scryfall_retries,
        scryfall_rate_limited, shared_lookups and `requests_<status>` per Scryfall status.
        """
        out: dict[str, float] = {key: 0 for key in (
            "hits", "misses", "cache", "local", "api", "stale", "negative_hits", "not_found", "ambiguous",
            "unavailable")}
        out.update(self.stats)
        out["cards"] = len(self._index)
        age = self.data_age_days()
        out["data_age_days"] = -1.0 if age is None else round(age, 3)
        out["scryfall_retries"] = self.client.stats["retries"]
        out["scryfall_rate_limited"] = self.client.stats["rate_limited"]
        out["shared_lookups"] = self._flight.shared + self.client.shared_requests
        for status, count in self.requests_by_status().items():
            out[f"requests_{status}"] = count
        return out

    async def _db(self, awaitable: Awaitable[T], default: T) -> T:
        """Run a cache operation; a broken cache degrades to a miss instead of failing the lookup."""
        try:
            return await awaitable
        except sqlite3.Error as exc:
            self.stats["cache_errors"] += 1
            log.error("card cache error (treated as a miss): %s", exc)
            return default

    def _validate(self, name: Any) -> tuple[str, str]:
        """(cleaned input, normalised key); CardNotFound for empty or over-long input, no request sent."""
        if not isinstance(name, str):
            raise CardNotFound(str(name))
        if len(name) > MAX_INPUT_CHARS * 4:
            raise CardNotFound(name[:MAX_INPUT_CHARS])
        q = clean_input(name)
        if not q or len(q) > MAX_INPUT_CHARS:
            raise CardNotFound(q[:MAX_INPUT_CHARS])
        n = normalize(q)
        if not n:
            raise CardNotFound(q)
        return q, n

    def _resolved(self, row: CardRow, *, query_time: float | None = None) -> Resolved | None:
        """Resolved for a cached row, or None when it is an expired API entry."""
        if row.source == "bulk":
            self.stats["hits"] += 1
            self.stats["local"] += 1
            return Resolved(self.cache.parse(row), "local", self.data_age_days())
        fetched = min(row.fetched_at, query_time) if query_time is not None else row.fetched_at
        if self._clock() - fetched < self.settings.cache_ttl:
            self.stats["hits"] += 1
            self.stats["cache"] += 1
            return Resolved(self.cache.parse(row), "cache")
        return None

    def _stale(self, row: CardRow) -> Resolved:
        self.stats["stale"] += 1
        log.warning("Scryfall unavailable; serving the expired cache entry for %r", row.name)
        return Resolved(self.cache.parse(row), "stale")

    async def _store(self, cards: list[dict[str, Any]], query: tuple[str, str] | None = None,
                     card_id: str | None = None) -> None:
        await self._db(self.cache.put_cards(cards, source="api"), 0)
        if query and card_id:
            await self._db(self.cache.put_query(query[0], query[1], card_id), None)

    async def _cached(self, n: str, kind: str, *, commanders: bool = False
                      ) -> tuple[Resolved | None, CardRow | None]:
        """Answer from the cache alone: exact name, then a remembered query. Also returns a stale row."""
        stale: CardRow | None = None
        rows = await self._db(self.cache.lookup_name(n), [])
        if rows:
            row = rows[0]
            if commanders:
                row = next((r for r in rows if r.commander and r.kind == rows[0].kind), rows[0])
            found = self._resolved(row)
            if found:
                return found, None
            stale = row
        mapped = await self._db(self.cache.get_query(kind, n), None)
        if mapped:
            row = await self._db(self.cache.get_card(mapped[0]), None)
            if row:
                found = self._resolved(row, query_time=mapped[1])
                if found:
                    return found, None
                stale = stale or row
        return None, stale

    async def _local_card(self, name: str) -> CardRow | None:
        entry = self._index.entries.get(name)
        if entry is None:
            return None
        return await self._db(self.cache.get_card(entry.card_id), None)

    async def _remote_names(self, q: str) -> list[str]:
        """Scryfall's autocomplete for `q`, or [] when that fails (only used for suggestions)."""
        try:
            return await self.client.autocomplete(q)
        except (ScryfallUnavailable, ScryfallError):
            return []

    # -- resolve -----------------------------------------------------------------------------------

    async def resolve(self, name: str) -> Resolved:
        """The card the user meant. Raises CardNotFound, AmbiguousCard or ScryfallUnavailable."""
        return await self._lookup("resolve", name, self._resolve)

    async def _resolve(self, q: str, n: str) -> Resolved:
        found, stale = await self._cached(n, "fuzzy")
        if found:
            return found
        suggestions = await self._db(self.cache.get_negative("fuzzy", n), None)
        if suggestions is not None:
            self.stats["negative_hits"] += 1
            raise CardNotFound(q, suggestions[:MAX_SUGGESTIONS])
        local_suggestions: list[str] = []
        if self._index_complete:
            found, row, local_suggestions = await self._resolve_locally(q, n, commanders_only=False)
            if found:
                return found
            stale = stale or row
        return await self._resolve_remote(q, n, stale, local_suggestions)

    async def _resolve_locally(self, q: str, n: str, *,
                               commanders_only: bool) -> tuple[Resolved | None, CardRow | None, list[str]]:
        """Partial names and typos through the local name index: (fresh answer, the matched row even when
        expired, suggestions). Raises AmbiguousCard when several names match equally."""
        match = self._index.match(n, commanders_only=commanders_only)
        if match.kind == "ambiguous":
            self.stats["ambiguous"] += 1
            raise AmbiguousCard(q, match.names[:MAX_CANDIDATES])
        if match.kind == "unique":
            row = await self._local_card(match.names[0])
            if row:
                return self._resolved(row), row, match.suggestions
        return None, None, match.suggestions

    async def _resolve_remote(self, q: str, n: str, stale: CardRow | None, local_suggestions: list[str]) -> Resolved:
        self.stats["misses"] += 1
        try:
            if stale is not None:
                try:
                    card = await self.client.card(stale.id)
                except ScryfallNotFound:
                    card = await self.client.named_fuzzy(q)
            else:
                card = await self.client.named_fuzzy(q)
        except ScryfallNotFound:
            suggestions = local_suggestions or rank_candidates(q, await self._remote_names(q))
            await self._db(self.cache.put_negative("fuzzy", n, self.settings.negative_ttl,
                                                   suggestions[:MAX_SUGGESTIONS]), None)
            self.stats["not_found"] += 1
            raise CardNotFound(q, suggestions[:MAX_SUGGESTIONS]) from None
        except ScryfallAmbiguous:
            self.stats["ambiguous"] += 1
            candidates = self._index.candidates(n) if self.has_local_data else []
            if not candidates:
                candidates = await self._remote_names(q)
            raise AmbiguousCard(q, rank_candidates(q, candidates)[:MAX_CANDIDATES]) from None
        except ScryfallBadRequest:
            self.stats["not_found"] += 1
            raise CardNotFound(q, local_suggestions[:MAX_SUGGESTIONS]) from None
        except ScryfallUnavailable:
            if stale is not None:
                return self._stale(stale)
            self.stats["unavailable"] += 1
            raise
        await self._store([card], ("fuzzy", n), card["id"])
        self.stats["api"] += 1
        return Resolved(card, "api")

    # -- resolve_commander -------------------------------------------------------------------------

    async def resolve_commander(self, name: str) -> Resolved:
        """Like resolve(), but prefers cards that can be commanders (`Kumano` -> Kumano, Master Yamabushi)."""
        return await self._lookup("commander", name, self._resolve_commander)

    async def _lookup(self, kind: str, name: str,
                      find: Callable[[str, str], Awaitable[Resolved]]) -> Resolved:
        """Validate `name`, then run `find(query, key)` once for all concurrent callers (single-flight).

        Errors name each caller's own query, not the one that happened to start the shared lookup.
        """
        q, n = self._validate(name)
        try:
            return await self._flight.run((kind, n), lambda: find(q, n))
        except CardNotFound as exc:
            raise CardNotFound(q, exc.suggestions) from None
        except AmbiguousCard as exc:
            raise AmbiguousCard(q, exc.candidates) from None

    async def _resolve_commander(self, q: str, n: str) -> Resolved:
        found, stale = await self._cached(n, "commander", commanders=True)
        if found:
            return found
        if self._index_complete:
            found, _row, _suggestions = await self._resolve_locally(q, n, commanders_only=True)
            return found or await self._resolve(q, n)
        if await self._db(self.cache.get_negative("commander", n), None) is not None:
            return await self._resolve(q, n)
        self.stats["misses"] += 1
        try:
            payload = await self.client.search(self._commander_query(q))
        except (ScryfallNotFound, ScryfallBadRequest):
            await self._db(self.cache.put_negative("commander", n, self.settings.negative_ttl), None)
            return await self._resolve(q, n)
        except ScryfallUnavailable:
            if stale is not None:
                return self._stale(stale)
            self.stats["unavailable"] += 1
            raise
        cards = payload["data"]
        if not cards:
            return await self._resolve(q, n)
        await self._store(cards)
        chosen = self._pick(q, n, cards)
        if chosen is None:
            self.stats["ambiguous"] += 1
            raise AmbiguousCard(q, rank_candidates(q, [c["name"] for c in cards])[:MAX_CANDIDATES])
        await self._db(self.cache.put_query("commander", n, chosen["id"]), None)
        self.stats["api"] += 1
        return Resolved(chosen, "api")

    @staticmethod
    def _commander_query(q: str) -> str:
        words = [w.strip("-'") for w in re.sub(r"[^\w'\- ]+", " ", q).split()]
        words = [f'"{w}"' if w.lower() in _SEARCH_OPERATORS else w for w in words if w]
        return " ".join(words + ["is:commander"])

    @staticmethod
    def _pick(q: str, n: str, cards: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The one card a search result means, or None when several fit equally."""
        if len(cards) == 1:
            return cards[0]
        from bot.cards.cache import name_keys

        exact = [c for c in cards if any(key == n for key, _kind in name_keys(c))]
        if exact:
            return exact[0]
        ranked = rank_candidates(q, [c["name"] for c in cards])
        by_name = {c["name"]: c for c in cards}
        first = normalize(ranked[0])
        if first.startswith(n + " "):
            rivals = [r for r in ranked[1:] if normalize(r).startswith(n + " ")]
            if not rivals:
                return by_name[ranked[0]]
        return None

    # -- resolve_many ------------------------------------------------------------------------------

    async def resolve_many(self, names: list[str]) -> Batch:
        """Resolve a decklist: every typed name ends up found, missing (with "did you mean" names) or
        unavailable (Scryfall could not be asked); see `Batch`. Never raises for Scryfall trouble.

        Names not answerable locally go to /cards/collection in batches of 75; only the names the
        collection did not find get a fuzzy retry each. The misses keep the suggestions (or, for an
        ambiguous name, the candidates) that lookup produced, so no second request is needed for them.
        """
        result = Batch()
        found = result.found
        not_found = result.missing
        wanted: dict[str, list[str]] = {}
        query_of: dict[str, str] = {}
        for name in names:
            try:
                q, n = self._validate(name)
            except CardNotFound:
                not_found.setdefault(name, [])
                continue
            if name not in wanted.setdefault(n, []):
                wanted[n].append(name)
            query_of.setdefault(n, q)

        def assign(n: str, resolved: Resolved) -> None:
            for original in wanted[n]:
                found[original] = resolved

        remote: list[str] = []
        stale: dict[str, CardRow] = {}
        for n in wanted:
            local = await self._peek_key(n)
            if local:
                assign(n, local)
                continue
            suggestions = await self._db(self.cache.get_negative("fuzzy", n), None)
            if suggestions is not None:
                self.stats["negative_hits"] += 1
                not_found.update((original, suggestions[:MAX_SUGGESTIONS]) for original in wanted[n])
                continue
            _none, stale_row = await self._cached(n, "fuzzy")
            if stale_row is not None:
                stale[n] = stale_row
            remote.append(n)

        retry: list[str] = []
        for start in range(0, len(remote), MAX_COLLECTION):
            chunk = remote[start:start + MAX_COLLECTION]
            self.stats["misses"] += len(chunk)
            try:
                cards, _missing = await self.client.collection([{"name": query_of[n]} for n in chunk])
            except ScryfallUnavailable as exc:
                for n in chunk:
                    if n in stale:
                        assign(n, self._stale(stale[n]))
                    else:
                        self.stats["unavailable"] += 1
                        result.unavailable.update((original, exc.reason) for original in wanted[n])
                continue
            except ScryfallError:
                retry.extend(chunk)
                continue
            await self._store(cards)
            from bot.cards.cache import name_keys

            by_key: dict[str, dict[str, Any]] = {}
            for card in cards:
                for key, _kind in name_keys(card):
                    by_key.setdefault(key, card)
            for n in chunk:
                card = by_key.get(n)
                if card is None:
                    retry.append(n)
                else:
                    self.stats["api"] += 1
                    assign(n, Resolved(card, "api"))

        for n in retry:
            try:
                assign(n, await self.resolve(query_of[n]))
            except CardNotFound as exc:
                not_found.update((original, exc.suggestions[:MAX_SUGGESTIONS]) for original in wanted[n])
            except AmbiguousCard as exc:
                not_found.update((original, exc.candidates[:MAX_SUGGESTIONS]) for original in wanted[n])
            except ScryfallUnavailable as exc:
                result.unavailable.update((original, exc.reason) for original in wanted[n])
        return result

    # -- peek --------------------------------------------------------------------------------------

    async def peek(self, name: str) -> Resolved | None:
        """The card if the cache or local data can answer right now; never touches the network."""
        try:
            _q, n = self._validate(name)
        except CardNotFound:
            return None
        return await self._peek_key(n)

    async def _peek_key(self, n: str) -> Resolved | None:
        found, _stale = await self._cached(n, "fuzzy")
        if found:
            return found
        if self._index_complete:
            match = self._index.match(n)
            if match.kind == "unique":
                row = await self._local_card(match.names[0])
                if row:
                    return self._resolved(row)
        return None

    # -- autocomplete ------------------------------------------------------------------------------

    async def autocomplete(self, prefix: str, *, commanders_only: bool = False) -> list[str]:
        """Up to 25 names (each at most 100 characters) for a partial name; always answers within 2 s."""
        text = clean_input(prefix if isinstance(prefix, str) else "")[:MAX_INPUT_CHARS]
        if not text:
            return []
        try:
            async with asyncio.timeout(AUTOCOMPLETE_BUDGET):
                names = await self._autocomplete(text, commanders_only)
        except TimeoutError:
            self.stats["autocomplete_timeouts"] += 1
            names = self._index.complete(text, commanders_only=commanders_only) if self.has_local_data else []
        except (ScryfallUnavailable, ScryfallError):
            names = []
        return [choice_name(name) for name in names[:25]]

    async def _autocomplete(self, text: str, commanders_only: bool) -> list[str]:
        if self.has_local_data:
            return self._index.complete(text, limit=25, commanders_only=commanders_only)
        key = (normalize(text), commanders_only)
        if len(key[0]) < 2:
            return []
        cached = self._ac_cache.get(key)
        now = self._clock()
        if cached and cached[0] > now:
            return cached[1]
        names = await self.client.autocomplete(text)
        if commanders_only:
            names = await self._drop_known_non_commanders(names)
        if len(self._ac_cache) > 2048:
            self._ac_cache.clear()
        self._ac_cache[key] = (now + AUTOCOMPLETE_TTL, names)
        return names

    async def _drop_known_non_commanders(self, names: list[str]) -> list[str]:
        """Scryfall's autocomplete can't filter to commanders; drop the names the cache knows can't lead
        (cards it has never seen stay, since they may be commanders)."""
        kept: list[str] = []
        for name in names:
            rows = await self._db(self.cache.lookup_name(normalize(name)), [])
            if not rows or any(row.commander for row in rows):
                kept.append(name)
        return kept

    # -- bulk data ---------------------------------------------------------------------------------

    async def sync_now(self) -> ImportResult:
        """Download oracle_cards through /bulk-data and import it (the background task calls this)."""
        if self.cache.in_memory:
            raise ScryfallUnavailable("the card cache is in memory; bulk data cannot be imported")
        async with self._sync_lock:
            result = await sync_from_scryfall(self.client, Path(self.cache.path))
            await self.reload_index()
            log.info("bulk data: imported %d cards in %.1f s", result.cards, result.seconds)
            return result

    async def start_background_sync(self) -> None:
        """Keep local bulk data fresh: now if missing or old, then every BULK_REFRESH_HOURS (0 = off)."""
        if self.settings.bulk_refresh_hours <= 0 or self.cache.in_memory:
            return
        if self._sync_task is None or self._sync_task.done():
            self._sync_task = asyncio.create_task(self._sync_loop(), name="bulk-sync")

    async def stop_background_sync(self) -> None:
        task, self._sync_task = self._sync_task, None
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

    async def _sync_loop(self) -> None:
        period = self.settings.bulk_refresh_hours * 3600
        while True:
            last = self._bulk_imported_at if self._index_complete else None
            wait = 0.0 if last is None else max(0.0, last + period - self._clock())
            if wait:
                await asyncio.sleep(wait)
            try:
                await self.sync_now()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                retry = min(period, 3600.0)
                log.warning("bulk data refresh failed (%s); next try in %.0f s", exc, retry)
                await asyncio.sleep(retry)
