"""A polite aiohttp client for the Scryfall API.

- One session, `User-Agent: IdentityBot/<version>` and `Accept: application/json` on every request.
- Scryfall's limits, process-wide (all clients of one base URL in one event loop share them), with
  aiolimiter: 2 requests/s for /cards/search, /cards/named, /cards/random and /cards/collection, 10/s for
  everything else, times `rate` (<= 1) and a small safety margin so network jitter cannot push any
  one-second window over the limit.
- A 429 locks every request out for max(Retry-After, 30 s); while locked, calls fail at once with
  `ScryfallUnavailable(retry_after=...)` instead of waiting past their deadline.
- 5xx, timeouts and connection errors are retried a bounded number of times with jittered backoff; the
  whole call (limiter wait included) is bounded by `timeout` seconds.
- Concurrent identical requests share one HTTP request (single-flight).
- Scryfall error objects become `ScryfallNotFound` / `ScryfallAmbiguous` / `ScryfallBadRequest`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
import weakref
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
from aiolimiter import AsyncLimiter

from bot import BOT_NAME, __version__
from bot.cards.model import ScryfallUnavailable

log = logging.getLogger(__name__)

SLOW_ENDPOINTS = frozenset({"/cards/search", "/cards/named", "/cards/random", "/cards/collection"})
SLOW_RATE = 2.0  # requests per second
FAST_RATE = 10.0
SAFETY = 0.85  # fraction of the published limits actually used (margin for network jitter)
LOCKOUT_SECONDS = 30.0
MAX_COLLECTION = 75
HEADERS = {"User-Agent": f"{BOT_NAME}/{__version__}", "Accept": "application/json"}


class ScryfallError(Exception):
    """A Scryfall error object (`{"object": "error", ...}`)."""

    def __init__(self, status: int, code: str, details: str) -> None:
        super().__init__(f"{status} {code}: {details}")
        self.status = status
        self.code = code
        self.details = details


class ScryfallNotFound(ScryfallError):
    """404 not_found."""


class ScryfallAmbiguous(ScryfallError):
    """404 ambiguous (a fuzzy name matched several cards)."""


class ScryfallBadRequest(ScryfallError):
    """Any other 4xx error object (bad query, too many identifiers, ...)."""


def endpoint_group(path: str) -> str:
    """"slow" for Scryfall's 2/s endpoints, "fast" for the 10/s ones."""
    return "slow" if path.rstrip("/") in SLOW_ENDPOINTS else "fast"


class _Politeness:
    """Limiters and 429 lockout shared by every client of one API base in one event loop."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.limiters = self._make(rate)
        self.locked_until = 0.0

    @staticmethod
    def _make(rate: float) -> dict[str, AsyncLimiter]:
        # max_rate=1 makes a leaky bucket without bursts: consecutive requests are >= one period apart.
        return {
            "slow": AsyncLimiter(1, 1.0 / (SLOW_RATE * rate * SAFETY)),
            "fast": AsyncLimiter(1, 1.0 / (FAST_RATE * rate * SAFETY)),
        }

    def lower_rate(self, rate: float) -> None:
        if rate < self.rate:
            self.rate = rate
            self.limiters = self._make(rate)


_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Politeness]] = weakref.WeakKeyDictionary()


def _politeness(base_url: str, rate: float) -> _Politeness:
    loop = asyncio.get_running_loop()
    per_loop = _SHARED.setdefault(loop, {})
    shared = per_loop.get(base_url)
    if shared is None:
        shared = per_loop[base_url] = _Politeness(rate)
    else:
        shared.lower_rate(rate)
    return shared


class SingleFlight:
    """Concurrent calls with the same key share one execution of the coroutine."""

    def __init__(self) -> None:
        self._tasks: dict[Any, asyncio.Task[Any]] = {}
        self.shared = 0

    async def run(self, key: Any, factory: Callable[[], Awaitable[Any]]) -> Any:
        task = self._tasks.get(key)
        if task is None:
            task = asyncio.ensure_future(factory())
            self._tasks[key] = task
            task.add_done_callback(lambda t, k=key: self._done(k, t))
        else:
            self.shared += 1
        return await asyncio.shield(task)

    def _done(self, key: Any, task: asyncio.Task[Any]) -> None:
        if self._tasks.get(key) is task:
            del self._tasks[key]
        if not task.cancelled():
            task.exception()  # mark as retrieved; every waiter gets it re-raised

    def cancel_all(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()


def _retry_after(value: str | None) -> float:
    if not value:
        return 0.0
    try:
        return max(0.0, float(value))
    except ValueError:
        from email.utils import parsedate_to_datetime

        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return 0.0


class ScryfallClient:
    """Scryfall API client. `clock` (monotonic seconds) and `lockout_seconds` exist for tests."""

    def __init__(
        self,
        base_url: str = "https://api.scryfall.com",
        *,
        session: aiohttp.ClientSession | None = None,
        rate: float = 1.0,
        timeout: float = 8.0,
        attempt_timeout: float | None = None,
        max_retries: int = 2,
        backoff: float = 0.25,
        lockout_seconds: float = LOCKOUT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 0 < rate <= 1:
            raise ValueError("rate scales Scryfall's limits down: 0 < rate <= 1")
        self.base_url = base_url.rstrip("/")
        self.rate = rate
        self.timeout = timeout
        self.attempt_timeout = attempt_timeout or max(timeout / 2, 0.05)
        self.max_retries = max_retries
        self.backoff = backoff
        self.lockout_seconds = lockout_seconds
        self.clock = clock
        self._session = session
        self._owns_session = session is None
        self._flight = SingleFlight()
        self.stats: dict[str, Any] = {"requests": Counter(), "retries": 0, "rate_limited": 0, "blocked": 0}
        # Optional metrics sink (the bot sets its BotMetrics): observe_scryfall(status, endpoint) on every
        # answer, timeout or connection error, observe_scryfall_retry(endpoint) on every retry.
        self.metrics: Any = None

    def _observe(self, status: int | str, path: str, *, retry: bool = False) -> None:
        if self.metrics is None:
            return
        try:
            if retry:
                self.metrics.observe_scryfall_retry(path)
            else:
                self.metrics.observe_scryfall(status, path)
        except Exception:  # metrics must never break a lookup
            log.debug("scryfall metrics hook failed", exc_info=True)

    # -- plumbing --------------------------------------------------------------------------------

    def _get_session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            if not self._owns_session and self._session is not None:
                raise ScryfallUnavailable("HTTP session is closed")
            self._session = aiohttp.ClientSession(headers=HEADERS)
            self._owns_session = True
        return self._session

    async def close(self) -> None:
        self._flight.cancel_all()
        if self._owns_session and self._session is not None and not self._session.closed:
            await self._session.close()

    @property
    def shared_requests(self) -> int:
        return self._flight.shared

    def locked_for(self) -> float:
        """Seconds left in a 429 lockout (0 when not locked)."""
        return max(0.0, _politeness(self.base_url, self.rate).locked_until - self.clock())

    async def _wait_lockout(self, shared: _Politeness, deadline: float) -> None:
        left = shared.locked_until - self.clock()
        if left <= 0:
            return
        loop = asyncio.get_running_loop()
        if left > deadline - loop.time():
            self.stats["blocked"] += 1
            raise ScryfallUnavailable("Scryfall asked us to slow down (429)", retry_after=left)
        await asyncio.sleep(left)

    async def _request(self, method: str, path: str, *, params: dict[str, str] | None = None,
                       body: Any = None) -> Any:
        key = (method, path, tuple(sorted((params or {}).items())), json.dumps(body, sort_keys=True))
        return await self._flight.run(key, lambda: self._request_bounded(method, path, params, body))

    async def _request_bounded(self, method: str, path: str, params: dict[str, str] | None, body: Any) -> Any:
        try:
            async with asyncio.timeout(self.timeout):
                return await self._request_loop(method, path, params, body)
        except TimeoutError:
            self.stats["requests"]["timeout"] += 1
            self._observe("timeout", path)
            raise ScryfallUnavailable(f"Scryfall did not answer within {self.timeout:g} s") from None

    async def _request_loop(self, method: str, path: str, params: dict[str, str] | None, body: Any) -> Any:
        shared = _politeness(self.base_url, self.rate)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        url = self.base_url + path
        reason = "no attempt made"
        retry_after: float | None = None
        for attempt in range(self.max_retries + 1):
            if attempt:
                self.stats["retries"] += 1
                self._observe("", path, retry=True)
            await self._wait_lockout(shared, deadline)
            await shared.limiters[endpoint_group(path)].acquire()
            await self._wait_lockout(shared, deadline)
            try:
                async with self._get_session().request(
                    method, url, params=params, json=body, headers=HEADERS,
                    timeout=aiohttp.ClientTimeout(total=self.attempt_timeout),
                ) as resp:
                    status = resp.status
                    header_retry = resp.headers.get("Retry-After")
                    payload_bytes = await resp.read()
            except (aiohttp.ClientError, TimeoutError) as exc:
                is_timeout = isinstance(exc, TimeoutError)
                self.stats["requests"]["timeout" if is_timeout else "connection_error"] += 1
                self._observe("timeout" if is_timeout else "error", path)
                reason = "timed out" if is_timeout else f"cannot reach Scryfall ({type(exc).__name__})"
                if attempt < self.max_retries:
                    await self._sleep_backoff(attempt)
                continue
            self.stats["requests"][status] += 1
            self._observe(status, path)
            if status == 429:
                wait = max(_retry_after(header_retry), self.lockout_seconds)
                shared.locked_until = max(shared.locked_until, self.clock() + wait)
                self.stats["rate_limited"] += 1
                log.warning("Scryfall answered 429; pausing all requests for %.0f s", wait)
                reason, retry_after = "Scryfall asked us to slow down (429)", wait
                continue
            if status >= 500:
                reason = f"Scryfall answered HTTP {status}"
                if attempt < self.max_retries:
                    await self._sleep_backoff(attempt)
                continue
            return self._decode(status, payload_bytes)
        raise ScryfallUnavailable(reason, retry_after=retry_after)

    async def _sleep_backoff(self, attempt: int) -> None:
        await asyncio.sleep(self.backoff * (2 ** attempt) * random.uniform(0.5, 1.5))

    def _decode(self, status: int, data: bytes) -> Any:
        try:
            payload = json.loads(data)
        except ValueError:
            self.stats["requests"]["malformed"] += 1
            raise ScryfallUnavailable(f"Scryfall sent malformed JSON (HTTP {status})") from None
        if not isinstance(payload, dict):
            raise ScryfallUnavailable(f"Scryfall sent an unexpected {type(payload).__name__} (HTTP {status})")
        if payload.get("object") == "error" or status >= 400:
            code = str(payload.get("code", "error"))
            details = str(payload.get("details", ""))
            err_status = int(payload.get("status", status) or status)
            if code == "ambiguous":
                raise ScryfallAmbiguous(err_status, code, details)
            if code == "not_found" or status == 404:
                raise ScryfallNotFound(err_status, code, details)
            raise ScryfallBadRequest(err_status, code, details)
        return payload

    @staticmethod
    def _card(payload: Any) -> dict[str, Any]:
        if not (isinstance(payload, dict) and payload.get("object") == "card" and isinstance(payload.get("id"), str)
                and isinstance(payload.get("name"), str)):
            raise ScryfallUnavailable("Scryfall sent something that is not a card")
        return payload

    @staticmethod
    def _list(payload: Any) -> dict[str, Any]:
        if not (isinstance(payload, dict) and isinstance(payload.get("data"), list)):
            raise ScryfallUnavailable("Scryfall sent something that is not a list")
        return payload

    # -- endpoints -------------------------------------------------------------------------------

    async def named_exact(self, name: str) -> dict[str, Any]:
        return self._card(await self._request("GET", "/cards/named", params={"exact": name}))

    async def named_fuzzy(self, name: str) -> dict[str, Any]:
        return self._card(await self._request("GET", "/cards/named", params={"fuzzy": name}))

    async def card(self, card_id: str) -> dict[str, Any]:
        return self._card(await self._request("GET", "/cards/" + quote(card_id, safe="")))

    async def autocomplete(self, q: str) -> list[str]:
        payload = await self._request("GET", "/cards/autocomplete", params={"q": q})
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, list):
            raise ScryfallUnavailable("Scryfall sent something that is not a catalog")
        return [str(x) for x in data if isinstance(x, str)]

    async def search(self, q: str, *, page: int = 1, order: str | None = None) -> dict[str, Any]:
        """One page of /cards/search (a list object). Raises ScryfallNotFound when nothing matches."""
        params = {"q": q}
        if page != 1:
            params["page"] = str(page)
        if order:
            params["order"] = order
        payload = self._list(await self._request("GET", "/cards/search", params=params))
        payload["data"] = [c for c in payload["data"] if isinstance(c, dict) and c.get("object") == "card"]
        return payload

    async def collection(self, identifiers: list[dict[str, str]]) -> tuple[list[dict[str, Any]], list[Any]]:
        """POST /cards/collection for at most 75 identifiers: (cards, not_found identifiers)."""
        if not identifiers:
            return [], []
        if len(identifiers) > MAX_COLLECTION:
            raise ValueError(f"/cards/collection takes at most {MAX_COLLECTION} identifiers")
        payload = self._list(await self._request("POST", "/cards/collection", body={"identifiers": identifiers}))
        cards = [c for c in payload["data"] if isinstance(c, dict) and c.get("object") == "card"
                 and isinstance(c.get("id"), str) and isinstance(c.get("name"), str)]
        not_found = payload.get("not_found") or []
        return cards, list(not_found) if isinstance(not_found, list) else []

    async def bulk_data(self) -> list[dict[str, Any]]:
        payload = self._list(await self._request("GET", "/bulk-data"))
        return [b for b in payload["data"] if isinstance(b, dict)]

    async def bulk_entry(self, kind: str = "oracle_cards") -> dict[str, Any]:
        for entry in await self.bulk_data():
            if entry.get("type") == kind and isinstance(entry.get("download_uri"), str):
                return entry
        raise ScryfallUnavailable(f"Scryfall lists no {kind} bulk file")

    async def download(self, uri: str, dest: Path, *,
                       progress: Callable[[int, int | None], None] | None = None) -> int:
        """Stream `uri` to `dest` (via a temporary file). Returns bytes written. No total timeout."""
        shared = _politeness(self.base_url, self.rate)
        loop = asyncio.get_running_loop()
        await self._wait_lockout(shared, loop.time() + self.timeout)
        await shared.limiters["fast"].acquire()
        tmp = dest.with_name(dest.name + ".part")
        written = 0
        try:
            async with self._get_session().get(
                uri, headers={**HEADERS, "Accept": "application/json, application/gzip"},
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=self.timeout, sock_read=60),
            ) as resp:
                self.stats["requests"][resp.status] += 1
                if resp.status == 429:
                    wait = max(_retry_after(resp.headers.get("Retry-After")), self.lockout_seconds)
                    shared.locked_until = max(shared.locked_until, self.clock() + wait)
                    raise ScryfallUnavailable("Scryfall asked us to slow down (429)", retry_after=wait)
                if resp.status != 200:
                    raise ScryfallUnavailable(f"bulk download answered HTTP {resp.status}")
                total = resp.content_length
                with tmp.open("wb") as fh:
                    async for chunk in resp.content.iter_chunked(1 << 16):
                        fh.write(chunk)
                        written += len(chunk)
                        if progress:
                            progress(written, total)
            tmp.replace(dest)
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise ScryfallUnavailable(f"bulk download failed ({type(exc).__name__})") from None
        finally:
            tmp.unlink(missing_ok=True)
        return written
