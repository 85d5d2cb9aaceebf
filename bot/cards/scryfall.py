"""A polite aiohttp client for the Scryfall API (docs/card-data.md); error objects as exceptions."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_random_exponential,
)

from bot import BOT_NAME, __version__
from bot.cards.budget import Budget, BudgetExceeded
from bot.cards.flight import SingleFlight
from bot.cards.model import MAX_COLLECTION, ScryfallBusy, ScryfallUnavailable
from bot.cards.rows import is_card
from bot.ops.metrics import BotMetrics

log = logging.getLogger(__name__)

SLOW_ENDPOINTS = frozenset({"/cards/search", "/cards/named", "/cards/random", "/cards/collection"})
LOCKOUT_SECONDS = 30.0
SLOW_DOWN = "Scryfall asked us to slow down (429)"
HEADERS = {"User-Agent": f"{BOT_NAME}/{__version__}", "Accept": "application/json"}


@dataclass(frozen=True, slots=True)
class SearchPage:
    """The first page of a search; `complete`: it holds every card that matches."""

    cards: list[dict[str, Any]]
    complete: bool


class ScryfallError(Exception):
    """A Scryfall error object (`{"object": "error", ...}`), as "status code: details"."""


class ScryfallNotFound(ScryfallError):
    """404 not_found."""


class ScryfallAmbiguous(ScryfallError):
    """404 ambiguous (a fuzzy name matched several cards)."""


class ScryfallBadRequest(ScryfallError):
    """Any other 4xx error object."""


def endpoint_group(path: str) -> str:
    return "slow" if path.rstrip("/") in SLOW_ENDPOINTS else "fast"


def retry_after_seconds(value: str | None) -> float:
    """Seconds from a Retry-After header (delta-seconds or HTTP date); 0 when absent or unreadable."""
    if not value:
        return 0.0
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return 0.0


class _Retry(Exception):
    """An attempt failed in a way worth another (5xx, timeout, connection error, 429)."""

    def __init__(self, reason: str, *, retry_after: float | None = None, back_off: bool = True) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.back_off = back_off  # False after a 429: the budget's lockout is the pause


async def download_file(
    session: aiohttp.ClientSession,
    uri: str,
    dest: Path,
    check: Callable[[aiohttp.ClientResponse], None],
    progress: Callable[[int, int | None], None] | None = None,
    **options: Any,
) -> int:
    """Stream `uri` to `dest` via a temporary file; bytes written. `check(response)` raises to refuse an
    answer; `options` go to the request (headers, timeout). Scryfall's and Commander Spellbook's bulk files."""
    tmp, written = dest.with_name(dest.name + ".part"), 0
    try:
        async with session.get(uri, **options) as resp:
            check(resp)
            with tmp.open("wb") as fh:
                async for chunk in resp.content.iter_chunked(1 << 16):
                    written += fh.write(chunk)
                    if progress:
                        progress(written, resp.content_length)
        tmp.replace(dest)
    finally:
        tmp.unlink(missing_ok=True)
    return written


class ScryfallClient:
    """Scryfall API client on a session the caller owns; `budget` holds the request limits and the 429
    lockout (`lockout_seconds` at least). Time is the event loop's clock, like the budget's."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        base_url: str = "https://api.scryfall.com",
        *,
        budget: Budget,
        metrics: BotMetrics | None = None,
        timeout: float = 8.0,
        max_retries: int = 2,
        backoff: float = 0.25,
        lockout_seconds: float = LOCKOUT_SECONDS,
    ) -> None:
        self.session = session
        self.base_url = base_url.rstrip("/")
        self.budget = budget
        self.metrics = metrics
        self.timeout = timeout
        self.attempt_timeout = max(timeout / 2, 0.05)
        self.max_retries = max_retries
        self.lockout_seconds = lockout_seconds
        self._backoff = wait_random_exponential(multiplier=backoff, max=backoff * 8)  # full jitter
        self._flight = SingleFlight()

    def _observe(self, status: int | str, path: str) -> None:
        if self.metrics is not None:
            self.metrics.observe_scryfall(status, path)

    def close(self) -> None:
        self._flight.cancel_all()

    def can_go_now(self, path: str) -> bool:
        """Whether a request to `path` would be sent at once (no queue, no lockout)."""
        return self.budget.can_go_now(endpoint_group(path))

    async def _take_slot(self, path: str, deadline: float) -> None:
        try:
            await self.budget.acquire(endpoint_group(path), deadline)
        except BudgetExceeded as exc:
            error = ScryfallUnavailable if exc.locked else ScryfallBusy
            reason = SLOW_DOWN if exc.locked else "too many card lookups are waiting for Scryfall"
            raise error(reason, retry_after=exc.retry_after) from None

    def _lock_out(self, header: str | None) -> float:
        wait = max(retry_after_seconds(header), self.lockout_seconds)
        self.budget.lock_out(wait)
        log.warning("Scryfall answered 429; pausing all requests for %.0f s", wait)
        return wait

    async def _get(self, path: str, params: dict[str, str] | None = None) -> Any:
        key = (path, tuple(sorted((params or {}).items())))
        return await self._flight.run(key, lambda: self._request_bounded("GET", path, params, lambda: None))

    def _wait(self, state: RetryCallState) -> float:
        """Jittered backoff after a 5xx or timeout; none after a 429 (the lockout is the pause)."""
        failed = state.outcome.exception() if state.outcome is not None else None
        return self._backoff(state) if isinstance(failed, _Retry) and failed.back_off else 0.0

    async def _request_bounded(
        self, method: str, path: str, params: dict[str, str] | None, make_body: Callable[[], Any]
    ) -> Any:
        """Up to `max_retries + 1` attempts within `timeout`, each after a budget turn; `make_body` is called
        at the first turn (so a batch takes in everything that arrived meanwhile)."""
        deadline = asyncio.get_running_loop().time() + self.timeout
        body: list[Any] = []
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            retry=retry_if_exception_type(_Retry),
            reraise=True,
            sleep=self.budget.pause,
        )
        try:
            async with asyncio.timeout(self.timeout):
                async for attempt in retrying:
                    with attempt:
                        if attempt.retry_state.attempt_number > 1 and self.metrics is not None:
                            self.metrics.observe_scryfall_retry(path)
                        await self._take_slot(path, deadline)
                        if not body:
                            body.append(make_body())
                        return await self._attempt(method, path, params, body[0])
        except TimeoutError:
            self._observe("timeout", path)
            raise ScryfallUnavailable(f"Scryfall did not answer within {self.timeout:g} s") from None
        except _Retry as exc:
            raise ScryfallUnavailable(exc.reason, retry_after=exc.retry_after) from None
        raise AssertionError("unreachable: tenacity re-raises the last failure")  # pragma: no cover

    async def _attempt(self, method: str, path: str, params: dict[str, str] | None, body: Any) -> Any:
        try:
            async with self.session.request(
                method,
                self.base_url + path,
                params=params,
                json=body,
                headers=HEADERS,
                timeout=aiohttp.ClientTimeout(total=self.attempt_timeout),
            ) as resp:
                status = resp.status
                header_retry = resp.headers.get("Retry-After")
                payload_bytes = await resp.read()
        except (aiohttp.ClientError, TimeoutError) as exc:
            is_timeout = isinstance(exc, TimeoutError)
            self._observe("timeout" if is_timeout else "error", path)
            raise _Retry(
                "timed out" if is_timeout else f"cannot reach Scryfall ({type(exc).__name__})"
            ) from None
        self._observe(status, path)
        if status == 429:
            raise _Retry(SLOW_DOWN, retry_after=self._lock_out(header_retry), back_off=False)
        if status >= 500:
            raise _Retry(f"Scryfall answered HTTP {status}")
        return self._decode(status, payload_bytes)

    def _decode(self, status: int, data: bytes) -> Any:
        try:
            payload = json.loads(data)
        except ValueError:
            self._observe("malformed", "")
            raise ScryfallUnavailable(f"Scryfall sent malformed JSON (HTTP {status})") from None
        if not isinstance(payload, dict):
            raise ScryfallUnavailable(f"Scryfall sent an unexpected {type(payload).__name__} (HTTP {status})")
        if payload.get("object") == "error" or status >= 400:
            code = payload.get("code", "error")
            text = f"{payload.get('status', status)} {code}: {payload.get('details', '')}"
            if code == "ambiguous":
                raise ScryfallAmbiguous(text)
            raise (ScryfallNotFound if code == "not_found" or status == 404 else ScryfallBadRequest)(text)
        return payload

    @staticmethod
    def _card(payload: Any) -> dict[str, Any]:
        if not is_card(payload):
            raise ScryfallUnavailable("Scryfall sent something that is not a card")
        return payload

    @staticmethod
    def _list(payload: Any) -> dict[str, Any]:
        if not (isinstance(payload, dict) and isinstance(payload.get("data"), list)):
            raise ScryfallUnavailable("Scryfall sent something that is not a list")
        return payload

    async def named_fuzzy(self, name: str) -> dict[str, Any]:
        return self._card(await self._get("/cards/named", {"fuzzy": name}))

    async def card(self, card_id: str) -> dict[str, Any]:
        return self._card(await self._get("/cards/" + quote(card_id, safe="")))

    async def autocomplete(self, q: str) -> list[str]:
        payload = self._list(await self._get("/cards/autocomplete", {"q": q}))
        return [x for x in payload["data"] if isinstance(x, str)]

    async def search(self, q: str, *, order: str | None = None) -> SearchPage:
        """The first page of /cards/search (175 cards) in Scryfall's `order` ("edhrec": most played first);
        ScryfallNotFound when nothing matches."""
        params = {"q": q} | ({"order": order} if order else {})
        payload = self._list(await self._get("/cards/search", params))
        cards = [c for c in payload["data"] if isinstance(c, dict) and c.get("object") == "card"]
        return SearchPage(cards, complete=not payload.get("has_more"))

    async def collection(
        self, identifiers: list[dict[str, str]] | Callable[[], list[dict[str, str]]]
    ) -> list[dict[str, Any]]:
        """The cards found for at most 75 identifiers, in any order; `identifiers` may be a function called
        when the request's turn comes (a batch takes in every name that arrived while it waited)."""

        def body() -> dict[str, Any]:
            ids = identifiers() if callable(identifiers) else identifiers
            if len(ids) > MAX_COLLECTION:
                raise ValueError(f"/cards/collection takes at most {MAX_COLLECTION} identifiers")
            return {"identifiers": ids}

        payload = await self._request_bounded("POST", "/cards/collection", None, body)
        return [c for c in self._list(payload)["data"] if is_card(c)]

    async def bulk_entry(self, kind: str = "oracle_cards") -> dict[str, Any]:
        for e in self._list(await self._get("/bulk-data"))["data"]:
            if isinstance(e, dict) and e.get("type") == kind and isinstance(e.get("download_uri"), str):
                return e
        raise ScryfallUnavailable(f"Scryfall lists no {kind} bulk file")

    async def symbology(self) -> list[dict[str, Any]]:
        return [s for s in self._list(await self._get("/symbology"))["data"] if isinstance(s, dict)]

    async def file(self, uri: str, *, max_bytes: int = 1 << 20) -> bytes:
        """A small file Scryfall links to (a symbol's SVG): no budget turn, as its file origins have no rate
        limits. ScryfallUnavailable when it can't be had or is over `max_bytes`."""
        try:
            async with self.session.get(
                uri, headers={**HEADERS, "Accept": "*/*"}, timeout=aiohttp.ClientTimeout(total=self.timeout)
            ) as resp:
                self._observe(resp.status, "/file")
                if resp.status != 200:
                    raise ScryfallUnavailable(f"{uri} answered HTTP {resp.status}")
                data = bytearray()
                async for chunk in resp.content.iter_chunked(1 << 16):
                    data += chunk
                    if len(data) > max_bytes:
                        raise ScryfallUnavailable(f"{uri} is larger than {max_bytes} bytes")
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise ScryfallUnavailable(f"cannot download {uri} ({type(exc).__name__})") from None
        return bytes(data)

    async def download(
        self, uri: str, dest: Path, *, progress: Callable[[int, int | None], None] | None = None
    ) -> int:
        """Stream `uri` to `dest` via a temporary file; bytes written. A transfer fails after 60 s idle."""
        await self._take_slot("/bulk", asyncio.get_running_loop().time() + self.timeout)

        def check(resp: aiohttp.ClientResponse) -> None:
            self._observe(resp.status, "/bulk-data")
            if resp.status == 429:
                wait = self._lock_out(resp.headers.get("Retry-After"))
                raise ScryfallUnavailable(SLOW_DOWN, retry_after=wait)
            if resp.status != 200:
                raise ScryfallUnavailable(f"bulk download answered HTTP {resp.status}")

        headers = {**HEADERS, "Accept": "application/json, application/gzip"}
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=self.timeout, sock_read=60)
        try:
            return await download_file(
                self.session, uri, dest, check, progress, headers=headers, timeout=timeout
            )
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise ScryfallUnavailable(f"bulk download failed ({type(exc).__name__})") from None
