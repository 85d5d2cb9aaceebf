"""`DeckSites`: reads public Archidekt and Moxfield decks through one aiohttp session, politely.

- `User-Agent: IdentityBot/<version> (+<contact URL>)` and `Accept: application/json` on every request;
- per site, at most one request every `min_interval` seconds (1 s: neither site publishes a limit, so this
  stays conservative), through an `aiolimiter.AsyncLimiter`; a request that can't get its turn within
  `max_wait` seconds fails with `BUSY` instead of queueing longer;
- an HTTP 429 locks that site for max(Retry-After, `lockout_seconds`); meanwhile fetches of that site fail
  at once with `RATE_LIMITED` and send nothing;
- one total deadline (`timeout`, 8 s) covers waiting for the turn, connecting and reading;
- the body is read in chunks and abandoned (connection closed) as soon as it passes `max_bytes` (2 MB); a
  Content-Length above the cap is refused before reading anything;
- redirects are not followed (an answer that redirects is reported, never chased to another host);
- decks are kept `cache_ttl` seconds (5 minutes) in a `cachetools.TTLCache` of `cache_size` decks;
  concurrent fetches of one deck share one request; errors are never cached.

Every failure is a `DeckSourceError` with a machine-readable code; the presentation layer words it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiolimiter import AsyncLimiter
from cachetools import TTLCache

from bot import BOT_NAME, __version__
from bot.cards.scryfall import SingleFlight, retry_after_seconds
from bot.deck.sources.archidekt import read_archidekt
from bot.deck.sources.links import DeckLink, DeckSourceError, DeckSourceErrorCode, Site
from bot.deck.sources.moxfield import read_moxfield
from bot.deck.sources.result import DEFAULT_MAX_ENTRIES, FetchedDeck, not_a_deck

log = logging.getLogger(__name__)

ERROR_BODY_LIMIT = 64 * 1024  # bytes read from a non-200 answer (enough to tell JSON from an HTML page)
_READERS = {Site.ARCHIDEKT: read_archidekt, Site.MOXFIELD: read_moxfield}
_UNAVAILABLE = DeckSourceErrorCode.UNAVAILABLE


@dataclass(slots=True)
class _Answer:
    status: int
    content_type: str
    retry_after: str | None
    location: str | None
    body: bytes


def _copy(fetched: FetchedDeck) -> FetchedDeck:
    """A copy whose ParsedDeck lists belong to the caller (the cached one stays untouched)."""
    deck = dataclasses.replace(
        fetched.deck, entries=list(fetched.deck.entries), problems=list(fetched.deck.problems)
    )
    return dataclasses.replace(fetched, deck=deck)


class DeckSites:
    """Client for Archidekt and Moxfield deck links. Create one per process (the per-site limits, lockouts
    and cache live in the instance); the aiohttp session belongs to the caller and is not closed here.

    `archidekt_base` / `moxfield_base` are the API bases (settings ARCHIDEKT_API_BASE / MOXFIELD_API_BASE,
    where their defaults live); `contact_url` goes into the User-Agent; `moxfield_user_agent` replaces the
    User-Agent for Moxfield only (Moxfield grants API access per User-Agent on request). `clock` (seconds)
    drives the cache lifetime and the 429 lockouts; the request spacing uses the event loop's clock.
    `cache` is the deck cache (`cache.clear()` forgets every deck).
    """

    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        archidekt_base: str,
        moxfield_base: str,
        contact_url: str,
        moxfield_user_agent: str | None = None,
        timeout: float = 8.0,
        max_bytes: int = 2 * 1024 * 1024,
        max_entries: int = DEFAULT_MAX_ENTRIES,
        min_interval: float = 1.0,
        max_wait: float = 3.0,
        lockout_seconds: float = 30.0,
        cache_ttl: float = 300.0,
        cache_size: int = 256,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if timeout <= 0 or max_bytes <= 0 or max_entries <= 0 or min_interval < 0 or max_wait < 0:
            raise ValueError("timeout, max_bytes and max_entries must be positive; intervals not negative")
        self._session = session
        self.bases = {Site.ARCHIDEKT: archidekt_base.rstrip("/"), Site.MOXFIELD: moxfield_base.rstrip("/")}
        user_agent = f"{BOT_NAME}/{__version__} (+{contact_url})"
        self.user_agents = {Site.ARCHIDEKT: user_agent, Site.MOXFIELD: moxfield_user_agent or user_agent}
        self.timeout, self.max_bytes, self.max_entries = timeout, max_bytes, max_entries
        self.min_interval, self.max_wait, self.lockout_seconds = min_interval, max_wait, lockout_seconds
        self.clock = clock
        self._limiters = {site: AsyncLimiter(1, min_interval) for site in Site} if min_interval > 0 else {}
        self._locked_until = dict.fromkeys(Site, 0.0)
        self.cache: TTLCache[tuple[Site, str], FetchedDeck] = TTLCache(
            max(cache_size, 1), max(cache_ttl, 0.0), timer=clock
        )
        self._caching = cache_ttl > 0 and cache_size > 0
        self._flight = SingleFlight()  # concurrent fetches of one deck share one request

    def api_url(self, link: DeckLink) -> str:
        """The API address a link is read from (built from the configured base, never from the user's URL)."""
        if link.site is Site.ARCHIDEKT:
            return f"{self.bases[Site.ARCHIDEKT]}/decks/{link.deck_id}/"
        return f"{self.bases[Site.MOXFIELD]}/v3/decks/all/{link.deck_id}"

    async def fetch(self, link: DeckLink) -> FetchedDeck:
        """The deck behind `link`, from the cache when fetched less than `cache_ttl` seconds ago. Raises a
        `DeckSourceError`; concurrent calls for one deck share one request."""
        key = (link.site, link.deck_id)
        fetched: FetchedDeck | None = self.cache.get(key)
        if fetched is None:
            fetched = await self._flight.run(key, lambda: self._fetch_and_store(link))
        return _copy(fetched)

    async def aclose(self) -> None:
        """Cancel fetches still in flight (the session is the caller's to close)."""
        await self._flight.aclose()

    async def _turn(self, site: Site) -> None:
        """Wait for the site's next request slot; fails at once while the site is locked (429), and with BUSY
        when the slot is more than `max_wait` seconds away."""
        if (left := self._locked_until[site] - self.clock()) > 0:
            raise DeckSourceError(DeckSourceErrorCode.RATE_LIMITED, site, retry_after=left)
        limiter = self._limiters.get(site)
        if limiter is None:
            return
        try:
            async with asyncio.timeout(min(self.max_wait, self.timeout)):
                await limiter.acquire()
        except TimeoutError:
            raise DeckSourceError(DeckSourceErrorCode.BUSY, site, retry_after=self.min_interval) from None

    async def _fetch_and_store(self, link: DeckLink) -> FetchedDeck:
        try:
            async with asyncio.timeout(self.timeout):
                await self._turn(link.site)
                answer = await self._get(link)
        except TimeoutError:
            raise DeckSourceError(
                _UNAVAILABLE, link.site, url=link.url, reason="timeout", seconds=self.timeout
            ) from None
        fetched = self._interpret(link, answer)
        if self._caching:
            self.cache[(link.site, link.deck_id)] = fetched
        return fetched

    def _too_large(self, link: DeckLink, size: int) -> DeckSourceError:
        return DeckSourceError(
            DeckSourceErrorCode.TOO_LARGE,
            link.site,
            url=link.url,
            limit=self.max_bytes,
            unit="bytes",
            size=size,
        )

    async def _get(self, link: DeckLink) -> _Answer:
        headers = {"User-Agent": self.user_agents[link.site], "Accept": "application/json"}
        try:
            async with self._session.get(self.api_url(link), headers=headers, allow_redirects=False) as resp:
                limit = self.max_bytes if resp.status == 200 else ERROR_BODY_LIMIT
                declared = resp.content_length
                if resp.status == 200 and declared is not None and declared > limit:
                    resp.close()
                    raise self._too_large(link, declared)
                body, size = await self._read(resp, limit)
                if size > limit:
                    resp.close()  # drop the connection instead of draining the rest
                    if resp.status == 200:
                        raise self._too_large(link, size)
                return _Answer(
                    resp.status,
                    resp.headers.get("Content-Type", ""),
                    resp.headers.get("Retry-After"),
                    resp.headers.get("Location"),
                    body,
                )
        except TimeoutError:
            raise  # aiohttp's timeouts are ClientErrors too: `_fetch_and_store` reports every one as a timeout
        except aiohttp.ClientError as exc:
            raise DeckSourceError(
                _UNAVAILABLE, link.site, url=link.url, reason="unreachable", error=type(exc).__name__
            ) from None

    @staticmethod
    async def _read(resp: aiohttp.ClientResponse, limit: int) -> tuple[bytes, int]:
        """Read the body, stopping as soon as it passes `limit` bytes: (body, bytes read); the body is
        complete when bytes read <= limit."""
        try:
            body = await resp.content.readexactly(limit + 1)
        except asyncio.IncompleteReadError as end:  # the body ended first: all of it
            return end.partial, len(end.partial)
        return body, len(body)

    def _interpret(self, link: DeckLink, answer: _Answer) -> FetchedDeck:
        site, status = link.site, answer.status
        if status == 200:
            try:
                payload = _json(answer.body)
            except ValueError:
                raise not_a_deck(site, "malformed_json", answer.content_type or "no content type") from None
            try:
                return _READERS[site](payload, link.deck_id, max_entries=self.max_entries)
            except DeckSourceError as exc:
                exc.url = link.url
                raise
        raise self._failure(link, answer)

    def _failure(self, link: DeckLink, answer: _Answer) -> DeckSourceError:
        """The error for a non-200 answer (a 429 also locks the site)."""
        site, status, url = link.site, answer.status, link.url
        if status == 429:
            wait = max(retry_after_seconds(answer.retry_after), self.lockout_seconds)
            self._locked_until[site] = max(self._locked_until[site], self.clock() + wait)
            log.warning("%s answered 429; pausing deck links to it for %.0f s", site.label, wait)
            return DeckSourceError(
                DeckSourceErrorCode.RATE_LIMITED, site, url=url, retry_after=wait, status=status
            )
        if status in (401, 403) and _is_json(answer):
            return DeckSourceError(DeckSourceErrorCode.PRIVATE, site, url=url, status=status)
        if status in (400, 404, 410):
            return DeckSourceError(DeckSourceErrorCode.NOT_FOUND, site, url=url, status=status)
        if status in (401, 403):  # an HTML (bot-protection) page: the site refused the bot, not the deck
            return DeckSourceError(_UNAVAILABLE, site, url=url, reason="refused", status=status)
        if 300 <= status < 400:
            return DeckSourceError(
                _UNAVAILABLE,
                site,
                url=url,
                reason="redirect",
                status=status,
                location=(answer.location or "")[:200],
            )
        reason = "server_error" if status >= 500 else "http_status"
        return DeckSourceError(_UNAVAILABLE, site, url=url, reason=reason, status=status)


def _json(body: bytes) -> Any:
    """Decode a JSON body (UTF-8, an optional byte-order mark allowed); ValueError when it is not JSON."""
    return json.loads(body.decode("utf-8-sig"))


def _is_json(answer: _Answer) -> bool:
    """True when an error answer is a JSON document (the site's API speaking, not a proxy's HTML page)."""
    if "json" not in answer.content_type.lower():
        return False
    try:
        _json(answer.body)
    except ValueError:
        return False
    return True
