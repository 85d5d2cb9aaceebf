"""`DeckSites`: reads public decks of every site through one aiohttp session, politely (docs/deck-files.md);
a site's `ASKS` go in turn while one finds no deck, and a reader may ask next."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import urljoin, urlsplit

import aiohttp
from aiolimiter import AsyncLimiter
from cachetools import TTLCache

from bot import BOT_NAME, __version__
from bot.cards.flight import SingleFlight
from bot.cards.scryfall import retry_after_seconds
from bot.deck.sources import pages, result
from bot.deck.sources.links import DeckLink, DeckSourceError, Site
from bot.deck.sources.links import DeckSourceErrorCode as Code
from bot.deck.sources.result import DEFAULT_MAX_ENTRIES, Ask, FetchedDeck, not_a_deck

log = logging.getLogger(__name__)

ERROR_BODY_LIMIT = 64 * 1024  # bytes read from a non-200 answer (enough to tell JSON from an HTML page)
_BOT_WALL = (b"cloudflare", b"challenge-platform", b"just a moment", b"captcha", b"access denied")
Reader = Callable[[str, DeckLink, int], FetchedDeck | Ask]


def _json(read: Callable[..., FetchedDeck]) -> Reader:
    return lambda text, link, limit: read(json.loads(text), link.deck_id, max_entries=limit)


# Per site: what to ask, in turn (paths after the site's base), and the reader of its answers.
# fmt: off
ASKS: dict[Site, Callable[[str], tuple[Ask, ...]]] = {
    Site.ARCHIDEKT: lambda i: (Ask(f"/decks/{i}/"),),
    Site.MOXFIELD: lambda i: (Ask(f"/v3/decks/all/{i}"),),
    Site.TAPPEDOUT: lambda i: (Ask(f"/mtg-decks/{i}/", accept="text/html"), Ask(f"/api/deck/widget/?deck={i}&cols=1", method="POST")),
    Site.MTGGOLDFISH: lambda i: (Ask(f"/deck/component?id={i}", accept="text/javascript"), Ask(f"/deck/{i}", accept="text/html")),
    Site.DECKSTATS: lambda i: (Ask(f"/decks/{i}", accept="text/html"),),
    Site.SCRYFALL: lambda i: (Ask(f"/decks/{i.rsplit('/')[-1]}/export/csv", accept="text/csv"), Ask(f"/decks/{i.rsplit('/')[-1]}/export/text", accept="text/plain")),
    Site.AETHERHUB: lambda i: (pages.aetherhub_json(i.rsplit('/')[-1]),) if i.rsplit('/')[-1].isdigit() else (Ask(f"/Deck/{i}", accept="text/html"),),
    Site.TCGPLAYER: lambda i: (Ask(f"/deck/magic/{i.rsplit('/')[-1]}/?subDecks=true&cards=true"),),
    Site.EDHREC: lambda i: (Ask(f"/pages/average-decks/{i}.json"),),
}
READERS: dict[Site, Reader] = {
    Site.ARCHIDEKT: _json(result.read_archidekt), Site.MOXFIELD: _json(result.read_moxfield),
    Site.TAPPEDOUT: pages.read_tappedout, Site.MTGGOLDFISH: pages.read_mtggoldfish, Site.DECKSTATS: pages.read_deckstats,
    Site.SCRYFALL: pages.read_scryfall,
    Site.AETHERHUB: lambda t, k, n: (_json(result.read_aetherhub) if t.lstrip()[:1] == "{" else pages.read_aetherhub_page)(t, k, n),
    Site.TCGPLAYER: _json(result.read_tcgplayer), Site.EDHREC: _json(result.read_edhrec),
}
# fmt: on


def read_answer(link: DeckLink, text: str, limit: int) -> FetchedDeck | Ask:
    """The deck (or the next ask) in a site's answer; NOT_A_DECK for JSON that is not JSON."""
    try:
        return READERS[link.site](text, link, limit)
    except (ValueError, RecursionError):
        raise not_a_deck(link.site, "malformed_json", "not JSON") from None


MAX_ASKS = 3  # requests for one deck link at most (a fallback, a reader's next ask, a redirect)


class DeckSites:
    """One per process (limits, lockouts and `cache` live in it); the session is the caller's; `bases`: the
    other sites' (one without is never asked). Moxfield's API is per User-Agent: `moxfield_user_agent`."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        archidekt_base: str,
        moxfield_base: str,
        contact_url: str,
        moxfield_user_agent: str | None = None,
        bases: Mapping[Site, str] | None = None,
        timeout: float = 8.0,
        max_bytes: int = 4 * 1024 * 1024,
        max_entries: int = DEFAULT_MAX_ENTRIES,
        min_interval: float = 1.0,
        max_wait: float = 3.0,
        lockout_seconds: float = 30.0,
        cache_ttl: float = 300.0,
        cache_size: int = 256,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._session = session
        given = {**(bases or {}), Site.ARCHIDEKT: archidekt_base, Site.MOXFIELD: moxfield_base}
        self.bases = {site: base.rstrip("/") for site, base in given.items()}
        agent = f"{BOT_NAME}/{__version__} (+{contact_url})"
        self.user_agents = {**dict.fromkeys(Site, agent), Site.MOXFIELD: moxfield_user_agent or agent}
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
        if link.site not in self.bases:
            raise _error(Code.UNAVAILABLE, link, reason="not_configured")
        try:
            async with asyncio.timeout(self.timeout):
                fetched = await self._read(link)
        except TimeoutError:
            raise _error(Code.UNAVAILABLE, link, reason="timeout", seconds=self.timeout) from None
        if self._caching:
            self.cache[(link.site, link.deck_id)] = fetched
        return fetched

    async def _read(self, link: DeckLink) -> FetchedDeck:
        """Ask the link's asks in turn (a missing endpoint or another shape: the next), follow a reader's ask."""
        asks = list(ASKS[link.site](link.deck_id))
        for _asked in range(MAX_ASKS):
            ask = asks.pop(0)
            await self._turn(link.site)
            try:
                text = (await self._get(link, ask)).decode("utf-8-sig", errors="replace")
                read = await asyncio.to_thread(read_answer, link, text, self.max_entries)
            except DeckSourceError as exc:
                exc.url = link.url
                if (location := exc.data.pop("follow", None)) is not None:
                    asks.insert(0, replace(ask, path=location))
                elif not asks or exc.code not in (Code.NOT_FOUND, Code.NOT_A_DECK):
                    raise
                continue
            if isinstance(read, FetchedDeck):
                return replace(read, deck=replace(read.deck, deck_name=read.name or ask.note))
            asks.insert(0, read)
        raise not_a_deck(link.site, "too_many_asks", f"{MAX_ASKS} requests")

    async def _get(self, link: DeckLink, ask: Ask) -> bytes:
        headers = {"User-Agent": self.user_agents[link.site], "Accept": ask.accept}
        if "javascript" in ask.accept:  # MTGGoldfish answers its deck component's script to XHR only
            headers["X-Requested-With"] = "XMLHttpRequest"
        url = self.bases[link.site] + ask.path
        try:
            async with self._session.request(ask.method, url, headers=headers, allow_redirects=False) as resp:
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
        if resp.status != 200 or _bot_wall(resp, body[:ERROR_BODY_LIMIT]):
            raise self._failure(link, resp, body[:ERROR_BODY_LIMIT])
        if size > limit:
            raise _error(Code.TOO_LARGE, link, limit=limit, unit="bytes", size=size)
        return body

    def _failure(self, link: DeckLink, resp: aiohttp.ClientResponse, body: bytes) -> DeckSourceError:
        """The error for a non-200 answer (a 429 also locks the site)."""
        site, status = link.site, resp.status
        if status == 429:
            wait = max(retry_after_seconds(resp.headers.get("Retry-After")), self.lockout_seconds)
            self._locked_until[site] = max(self._locked_until[site], self.clock() + wait)
            log.warning("%s answered 429; pausing deck links to it for %.0f s", site.label, wait)
            return _error(Code.RATE_LIMITED, link, retry_after=wait, status=status)
        if _bot_wall(resp, body):  # a challenge or a bot wall: the site refused the bot, not the deck
            return _error(Code.REFUSED, link, status=status)
        if status in (401, 403):  # the API's own word, or a page site's plain 403: no public deck there
            public = not _is_json(resp.headers.get("Content-Type", ""), body) and link.site not in _PAGES
            code = Code.REFUSED if public else Code.NOT_FOUND if link.site is Site.EDHREC else Code.PRIVATE
            return _error(code, link, status=status)
        if status in (400, 404, 410):
            return _error(Code.NOT_FOUND, link, status=status)
        if 300 <= status < 400:  # followed only within the site's base
            location = resp.headers.get("Location", "")[:200]
            target, base = urlsplit(urljoin(str(resp.url), location)), urlsplit(self.bases[link.site])
            same = bool(location) and (target.scheme, target.netloc) == (base.scheme, base.netloc)
            path = target.path.removeprefix(base.path) + "?" * bool(target.query) + target.query
            follow = {"follow": path} if same else {}
            return _error(Code.UNAVAILABLE, link, reason="redirect", status=status, location=location, **follow)  # fmt: skip
        reason = "server_error" if status >= 500 else "http_status"
        return _error(Code.UNAVAILABLE, link, reason=reason, status=status)


def _error(code: Code, link: DeckLink, **data: Any) -> DeckSourceError:
    return DeckSourceError(code, link.site, url=link.url, **data)


_PAGES = {Site.TAPPEDOUT, Site.MTGGOLDFISH, Site.DECKSTATS, Site.AETHERHUB, Site.EDHREC}


def _bot_wall(resp: aiohttp.ClientResponse, body: bytes) -> bool:
    """A Cloudflare challenge (`cf-mitigated`) or another bot-protection page instead of the answer."""
    words = _BOT_WALL if resp.status in (401, 403) else _BOT_WALL[1:4] if resp.status == 503 else ()
    html = "html" in resp.headers.get("Content-Type", "").lower()
    return "cf-mitigated" in resp.headers or (html and any(word in body.lower() for word in words))


def _is_json(content_type: str, body: bytes) -> bool:
    """An error answer that is a JSON document: the site's API speaking, not a proxy's HTML page."""
    try:
        json.loads(body.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return False
    return "json" in content_type.lower()
