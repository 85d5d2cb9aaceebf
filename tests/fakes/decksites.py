"""Fake Archidekt and Moxfield APIs: real aiohttp servers on 127.0.0.1 answering like the real sites.

    async with FakeArchidekt([load_sample("archidekt_partners.json")]) as archidekt, \\
               FakeMoxfield([load_sample("moxfield_commander.json")]) as moxfield:
        sites = DeckSites(session, archidekt_base=archidekt.base_url, moxfield_base=moxfield.base_url)
        ...
        assert archidekt.count() == 1

Archidekt: `GET /api/decks/<id>/` answers the deck; `/api/decks/<id>` (no slash) redirects to the slash form
(Django's APPEND_SLASH); a missing deck is 404 `{"detail": "Not found."}`; a private one answers
`private_status` (403 by default, `{"detail": "You do not have permission to perform this action."}`).
Moxfield: `GET /v3/decks/all/<publicId>` answers the v3 shape (`boards`), `/v2/decks/all/<publicId>` the v2
shape (boards at the top level, keyed by card name), converted from whichever shape was stored; missing and
private decks answer ASP.NET problem-details JSON (404 / `private_status`, 403 by default).

Both enforce the User-Agent: a request whose User-Agent does not start with `required_agent` gets a 403 HTML
page (what a bot-protection proxy answers). Knobs: `delay` (seconds before answering), `malformed`
("json": broken JSON, "shape": JSON that is not a deck, "html": an HTML page, all with status 200),
`oversize` (stream this many bytes of junk JSON, chunked, no Content-Length; `declare_length=True` sends
the Content-Length header instead of streaming), `fail_next(status, times, retry_after)` (e.g. 429 or 500).
Every request is recorded in `requests` (path, headers, loop time); `aborted` counts streamed answers the
client hung up on before the end, `streamed` the bytes written by the last streamed answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

import pytest
from aiohttp import web

from bot.deck.sources import DeckSourceError, DeckSourceErrorCode
from tests.fakes.server import serve

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "decksites"
DEFAULT_AGENT_PREFIX = "IdentityBot/"

_BLOCK_PAGE = (
    b"<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head>"
    b"<body><h1>Sorry, you have been blocked</h1></body></html>"
)


def load_sample(name: str) -> dict[str, Any]:
    """A sample API answer from tests/data/decksites (a fresh copy each call)."""
    data: dict[str, Any] = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    return data


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    time: float


@dataclass
class _Fault:
    status: int
    times: int
    retry_after: str | None


@dataclass
class _Base:
    """Shared server plumbing for one fake site."""

    decks: dict[str, dict[str, Any]] = field(default_factory=dict)
    private: set[str] = field(default_factory=set)
    required_agent: str = DEFAULT_AGENT_PREFIX
    private_status: int = 403
    delay: float = 0.0
    malformed: str | None = None
    oversize: int | None = None
    declare_length: bool = False
    requests: list[RecordedRequest] = field(default_factory=list)
    received: asyncio.Event = field(default_factory=asyncio.Event)  # set once a request has come in
    aborted: int = 0
    streamed: int = 0
    host: str = "127.0.0.1"
    root_url: str = ""
    _faults: list[_Fault] = field(default_factory=list, init=False)
    _runner: web.AppRunner | None = field(default=None, init=False)
    _closing: asyncio.Event | None = field(default=None, init=False)

    # -- control -----------------------------------------------------------------------------------

    def fail_next(self, status: int, times: int = 1, retry_after: float | str | None = None) -> None:
        """The next `times` deck requests answer `status` (with Retry-After when given)."""
        self._faults.append(_Fault(status, times, None if retry_after is None else str(retry_after)))

    def make_private(self, deck_id: str) -> None:
        """The deck (stored or not) now answers as private."""
        self.private.add(deck_id)

    def count(self, deck_id: str | None = None) -> int:
        """Requests received (for one deck id when given)."""
        if deck_id is None:
            return len(self.requests)
        return sum(1 for r in self.requests if r.path.rstrip("/").split("/")[-1] == deck_id)

    def times(self) -> list[float]:
        return [r.time for r in self.requests]

    # -- server ------------------------------------------------------------------------------------

    def routes(self) -> list[web.RouteDef]:
        raise NotImplementedError

    async def start(self) -> str:
        self._closing = asyncio.Event()
        app = web.Application(middlewares=[self._middleware])
        app.add_routes(self.routes())
        self._runner, self.root_url = await serve(app, self.host)
        return self.root_url

    async def close(self) -> None:
        if self._closing is not None:
            self._closing.set()  # cut slow answers short so shutdown does not wait for them
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        self.requests.append(
            RecordedRequest(request.path, dict(request.headers), asyncio.get_running_loop().time())
        )
        self.received.set()
        agent = request.headers.get("User-Agent", "")
        if not agent.startswith(self.required_agent):
            return web.Response(status=403, body=_BLOCK_PAGE, content_type="text/html")
        if self.delay and self._closing is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), self.delay)
        for fault in self._faults:
            if fault.times > 0:
                fault.times -= 1
                headers = {"Retry-After": fault.retry_after} if fault.retry_after is not None else {}
                return web.json_response(self.error_body(fault.status), status=fault.status, headers=headers)
        if self.malformed == "json":
            return web.Response(
                status=200, body=b'{"id": 1, "name": "Broken', content_type="application/json"
            )
        if self.malformed == "shape":
            return web.json_response({"results": [], "count": 0, "next": None})
        if self.malformed == "html":
            return web.Response(
                status=200, body=b"<html><body>Maintenance</body></html>", content_type="text/html"
            )
        if self.oversize is not None:
            return await self._stream_junk(request, self.oversize)
        response: web.StreamResponse = await handler(request)
        return response

    async def _stream_junk(self, request: web.Request, size: int) -> web.StreamResponse:
        """A JSON-looking body of `size` bytes, streamed in 64 KiB chunks (or with Content-Length)."""
        if self.declare_length:
            body = b'{"cards": [' + b" " * max(0, size - 13) + b"]}"
            return web.Response(status=200, body=body, content_type="application/json")
        response = web.StreamResponse(status=200, headers={"Content-Type": "application/json"})
        response.enable_chunked_encoding()
        await response.prepare(request)
        self.streamed = 0
        chunk = b" " * 65536
        try:
            await response.write(b'{"cards": [')
            while self.streamed < size:
                await response.write(chunk)
                self.streamed += len(chunk)
                await asyncio.sleep(0)  # let the client read (and hang up)
            await response.write(b"]}")
            await response.write_eof()
        except (ConnectionResetError, ConnectionError, asyncio.CancelledError):
            self.aborted += 1
            raise
        return response

    def error_body(self, status: int) -> Any:
        raise NotImplementedError


class FakeArchidekt(_Base):
    """Serve Archidekt deck answers (`/api/decks/<id>/`); `base_url` is the API base (`.../api`)."""

    def __init__(self, decks: Iterable[dict[str, Any]] = (), **options: Any) -> None:
        super().__init__(**options)
        for deck in decks:
            self.add(deck)

    def add(self, deck: dict[str, Any]) -> str:
        """Store an Archidekt deck answer under its `id`; returns the id."""
        deck_id = str(deck["id"])
        self.decks[deck_id] = deck
        return deck_id

    @property
    def base_url(self) -> str:
        return self.root_url + "/api"

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/api/decks/{deck_id}/", self._deck), web.get("/api/decks/{deck_id}", self._no_slash)]

    def error_body(self, status: int) -> Any:
        details = {
            403: "You do not have permission to perform this action.",
            404: "Not found.",
            429: "Request was throttled.",
        }
        return {"detail": details.get(status, "A server error occurred.")}

    async def _no_slash(self, request: web.Request) -> web.Response:
        raise web.HTTPMovedPermanently(location=request.path + "/")

    async def _deck(self, request: web.Request) -> web.Response:
        deck_id = request.match_info["deck_id"]
        if deck_id in self.private:
            return web.json_response(self.error_body(self.private_status), status=self.private_status)
        deck = self.decks.get(deck_id)
        if deck is None:
            return web.json_response(self.error_body(404), status=404)
        return web.json_response(deck)


class FakeMoxfield(_Base):
    """Serve Moxfield deck answers (`/v3/decks/all/<publicId>` and v2); `base_url` is the API base."""

    def __init__(self, decks: Iterable[dict[str, Any]] = (), **options: Any) -> None:
        super().__init__(**options)
        for deck in decks:
            self.add(deck)

    def add(self, deck: dict[str, Any]) -> str:
        """Store a Moxfield deck answer (v3 or v2 shape) under its `publicId`; returns the id."""
        public_id = str(deck["publicId"])
        self.decks[public_id] = deck
        return public_id

    @property
    def base_url(self) -> str:
        return self.root_url

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/v3/decks/all/{public_id}", self._v3),
            web.get("/v2/decks/all/{public_id}", self._v2),
        ]

    def error_body(self, status: int) -> Any:
        titles = {401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 429: "Too Many Requests"}
        return {
            "type": f"https://tools.ietf.org/html/rfc9110#section-15.{5 if status < 500 else 6}",
            "title": titles.get(status, "An error occurred while processing your request."),
            "status": status,
            "traceId": "00-7787ff72b0a2dbfb3e30603065f1aa5a-3e1e2f950bc7e285-00",
        }

    def _lookup(self, public_id: str) -> dict[str, Any] | web.Response:
        if public_id in self.private:
            return web.json_response(self.error_body(self.private_status), status=self.private_status)
        deck = self.decks.get(public_id)
        if deck is None:
            return web.json_response(self.error_body(404), status=404)
        return deck

    async def _v3(self, request: web.Request) -> web.Response:
        found = self._lookup(request.match_info["public_id"])
        if isinstance(found, web.Response):
            return found
        return web.json_response(to_v3(found))

    async def _v2(self, request: web.Request) -> web.Response:
        found = self._lookup(request.match_info["public_id"])
        if isinstance(found, web.Response):
            return found
        return web.json_response(to_v2(found))


_MOXFIELD_BOARDS = (
    "mainboard",
    "sideboard",
    "maybeboard",
    "commanders",
    "companions",
    "signatureSpells",
    "attractions",
    "stickers",
    "contraptions",
    "planes",
    "schemes",
    "tokens",
)


def to_v3(deck: dict[str, Any]) -> dict[str, Any]:
    """A Moxfield deck in the v3 shape (`boards.<board>.{count, cards.<uniqueCardId>}`)."""
    if "boards" in deck:
        return deck
    out = {k: v for k, v in deck.items() if k not in _MOXFIELD_BOARDS and not k.endswith("Count")}
    out["boards"] = {}
    for board in _MOXFIELD_BOARDS:
        cards = deck.get(board) or {}
        out["boards"][board] = {
            "count": sum(e.get("quantity", 0) for e in cards.values()),
            "cards": {e["card"].get("uniqueCardId", name): e for name, e in cards.items()},
        }
    return out


def to_v2(deck: dict[str, Any]) -> dict[str, Any]:
    """A Moxfield deck in the v2 shape (`<board>` maps keyed by card name, `<board>Count`)."""
    if "boards" not in deck:
        return deck
    out = {k: v for k, v in deck.items() if k != "boards"}
    for board, content in deck["boards"].items():
        cards = {e["card"]["name"]: e for e in content.get("cards", {}).values()}
        out[board] = cards
        out[board + "Count"] = content.get("count", 0)
    return out


# -- the other deck sites: recorded answers at the paths the sites serve them -------------------------------

CHALLENGE_PAGE = (
    DATA_DIR / "mtggoldfish_challenge_2026.html"
)  # a real Cloudflare challenge (403, cf-mitigated)
_PRIVATE_PAGE = b"<!DOCTYPE html><html><head><title>Private deck</title></head><body><h1>This deck is private.</h1></body></html>"
_MISSING_PAGE = (
    b"<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>Not found</h1></body></html>"
)
_TYPES = {
    ".html": "text/html",
    ".json": "application/json",
    ".csv": "text/csv",
    ".txt": "text/plain",
    ".js": "text/javascript",
}


class FakeDeckSite(_Base):
    """One deck site (TappedOut, MTGGoldfish, Deckstats, Scryfall, Aetherhub, TCGplayer, EDHREC) answering the
    recorded answers of tests/data/decksites at the requests open-source clients make:

        FakeDeckSite({"GET /mtg-decks/mtg-parser-3-amigos/": "tappedout_page_2025.html"})

    A request is `METHOD path?query`; an unknown one is a 404 page (`json_errors=True`: JSON, as an API answers),
    a deck made private (`make_private(text in the path)`) a 403 page. Knobs besides `_Base`'s: `challenge`
    (every request gets the real Cloudflare challenge, 403 with `cf-mitigated: challenge`) and `redirect(request,
    location)` (a 301)."""

    def __init__(
        self, answers: dict[str, str] | None = None, *, json_errors: bool = False, **options: Any
    ) -> None:
        super().__init__(**options)
        self.answers: dict[str, tuple[bytes, str]] = {}
        self.redirects: dict[str, str] = {}
        self.json_errors, self.challenge = json_errors, False
        for request, sample in (answers or {}).items():
            self.add(request, sample)

    def add(self, request: str, sample: str) -> None:
        """Answer `request` ("GET /path?query") with the sample file `sample` of tests/data/decksites."""
        self.answers[request] = ((DATA_DIR / sample).read_bytes(), _TYPES[Path(sample).suffix])

    def redirect(self, request: str, location: str) -> None:
        self.redirects[request] = location

    @property
    def base_url(self) -> str:
        return self.root_url

    def routes(self) -> list[web.RouteDef]:
        return [web.route("*", "/{tail:.*}", self._answer)]

    def error_body(self, status: int) -> Any:
        return {"status": status, "error": "Too Many Requests" if status == 429 else "Server Error"}

    def _page(self, status: int, page: bytes) -> web.Response:
        if self.json_errors:
            return web.json_response({"errors": [{"status": status}], "result": None}, status=status)
        return web.Response(status=status, body=page, content_type="text/html")

    async def _answer(self, request: web.Request) -> web.Response:
        key = f"{request.method} {request.path_qs}"
        if self.challenge:
            headers = {"cf-mitigated": "challenge"}
            return web.Response(
                status=403, body=CHALLENGE_PAGE.read_bytes(), content_type="text/html", headers=headers
            )
        if any(deck in request.path_qs for deck in self.private):
            return self._page(403, _PRIVATE_PAGE)
        if key in self.redirects:
            raise web.HTTPMovedPermanently(location=self.redirects[key])
        if key not in self.answers:
            return self._page(404, _MISSING_PAGE)
        body, content_type = self.answers[key]
        return web.Response(status=200, body=body, content_type=content_type, charset="utf-8")


@contextlib.contextmanager
def raises(code: DeckSourceErrorCode) -> Iterator[pytest.ExceptionInfo[DeckSourceError]]:
    """`pytest.raises(DeckSourceError)` that also checks the error's code."""
    with pytest.raises(DeckSourceError) as info:
        yield info
    assert info.value.code is code, info.value


class FakeClock:
    """A clock the test moves by hand (`now`)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
