"""`DeckSites`: reads public Archidekt and Moxfield decks through one aiohttp session, politely: per site one
request every `min_interval` s (neither site publishes a limit), a 429 locks the site for a while, redirects
are never followed, decks are cached `cache_ttl` s (errors never), concurrent fetches share one request."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import aiohttp
from aiolimiter import AsyncLimiter
from cachetools import TTLCache

from bot import BOT_NAME, __version__
from bot.cards.flight import SingleFlight
from bot.cards.scryfall import retry_after_seconds
from bot.deck.sources.links import API_PATHS, DeckLink, DeckSourceError, Site
from bot.deck.sources.links import DeckSourceErrorCode as Code
from bot.deck.sources.result import DEFAULT_MAX_ENTRIES, READERS, FetchedDeck, not_a_deck

log = logging.getLogger(__name__)

ERROR_BODY_LIMIT = 64 * 1024  # bytes read from a non-200 answer (enough to tell JSON from an HTML page)


class DeckSites:
    """One per process (limits, lockouts and `cache` live in it); the session is the caller's. Moxfield grants
    API access per User-Agent: `moxfield_user_agent` is sent to Moxfield only."""

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
        self._flight = SingleFlight()

    def api_url(self, link: DeckLink) -> str:
        """The API address of a link: the configured base, never the user's URL."""
        return self.bases[link.site] + API_PATHS[link.site].format(link.deck_id)

    async def fetch(self, link: DeckLink) -> FetchedDeck:
        """The deck behind `link` (cached, shared with concurrent calls); raises a `DeckSourceError`."""
        key = (link.site, link.deck_id)
        fetched = self.cache.get(key) or await self._flight.run(key, lambda: self._fetch_and_store(link))
        deck = replace(fetched.deck, entries=list(fetched.deck.entries), problems=list(fetched.deck.problems))
        return replace(fetched, deck=deck)  # the caller's own lists: the cached deck stays untouched

    async def aclose(self) -> None:
        """Cancel fetches still in flight (the session is the caller's to close)."""
        await self._flight.aclose()

    async def _turn(self, site: Site) -> None:
        """Wait for the site's next request slot: RATE_LIMITED while it is locked, BUSY past `max_wait`."""
        if (left := self._locked_until[site] - self.clock()) > 0:
            raise DeckSourceError(Code.RATE_LIMITED, site, retry_after=left)
        if (limiter := self._limiters.get(site)) is None:
            return
        try:
            async with asyncio.timeout(min(self.max_wait, self.timeout)):
                await limiter.acquire()
        except TimeoutError:
            raise DeckSourceError(Code.BUSY, site, retry_after=self.min_interval) from None

    async def _fetch_and_store(self, link: DeckLink) -> FetchedDeck:
        try:
            async with asyncio.timeout(self.timeout):
                await self._turn(link.site)
                fetched = await self._get(link)
        except TimeoutError:
            raise _error(Code.UNAVAILABLE, link, reason="timeout", seconds=self.timeout) from None
        if self._caching:
            self.cache[(link.site, link.deck_id)] = fetched
        return fetched

    async def _get(self, link: DeckLink) -> FetchedDeck:
        headers = {"User-Agent": self.user_agents[link.site], "Accept": "application/json"}
        try:
            async with self._session.get(self.api_url(link), headers=headers, allow_redirects=False) as resp:
                limit = self.max_bytes if resp.status == 200 else ERROR_BODY_LIMIT
                body, size = b"", resp.content_length or 0
                if resp.status != 200 or size <= limit:  # a declared size above the cap: refused unread
                    try:
                        body = await resp.content.readexactly(limit + 1)
                    except asyncio.IncompleteReadError as end:  # the body ended first: all of it
                        body = end.partial
                    size = len(body)
                if size > limit:
                    resp.close()  # drop the connection instead of draining the rest
        except TimeoutError:
            raise  # aiohttp's timeouts are ClientErrors too: `_fetch_and_store` reports every one as a timeout
        except aiohttp.ClientError as exc:
            raise _error(Code.UNAVAILABLE, link, reason="unreachable", error=type(exc).__name__) from None
        if resp.status != 200:
            raise self._failure(link, resp, body)
        if size > limit:
            raise _error(Code.TOO_LARGE, link, limit=limit, unit="bytes", size=size)
        try:
            payload = json.loads(body.decode("utf-8-sig"))
        except ValueError:
            content_type = resp.headers.get("Content-Type") or "no content type"
            raise not_a_deck(link.site, "malformed_json", content_type) from None
        try:
            return READERS[link.site](payload, link.deck_id, max_entries=self.max_entries)
        except DeckSourceError as exc:
            exc.url = link.url
            raise

    def _failure(self, link: DeckLink, resp: aiohttp.ClientResponse, body: bytes) -> DeckSourceError:
        """The error for a non-200 answer (a 429 also locks the site)."""
        site, status = link.site, resp.status
        if status == 429:
            wait = max(retry_after_seconds(resp.headers.get("Retry-After")), self.lockout_seconds)
            self._locked_until[site] = max(self._locked_until[site], self.clock() + wait)
            log.warning("%s answered 429; pausing deck links to it for %.0f s", site.label, wait)
            return _error(Code.RATE_LIMITED, link, retry_after=wait, status=status)
        if status in (401, 403) and _is_json(resp.headers.get("Content-Type", ""), body):
            return _error(Code.PRIVATE, link, status=status)
        if status in (400, 404, 410):
            return _error(Code.NOT_FOUND, link, status=status)
        if status in (401, 403):  # an HTML (bot-protection) page: the site refused the bot, not the deck
            return _error(Code.UNAVAILABLE, link, reason="refused", status=status)
        if 300 <= status < 400:
            location = resp.headers.get("Location", "")[:200]
            return _error(Code.UNAVAILABLE, link, reason="redirect", status=status, location=location)
        reason = "server_error" if status >= 500 else "http_status"
        return _error(Code.UNAVAILABLE, link, reason=reason, status=status)


def _error(code: Code, link: DeckLink, **data: Any) -> DeckSourceError:
    return DeckSourceError(code, link.site, url=link.url, **data)


def _is_json(content_type: str, body: bytes) -> bool:
    """An error answer that is a JSON document: the site's API speaking, not a proxy's HTML page."""
    try:
        json.loads(body.decode("utf-8-sig"))
    except ValueError:
        return False
    return "json" in content_type.lower()
