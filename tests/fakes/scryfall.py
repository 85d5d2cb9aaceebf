"""A fake Scryfall API: a real aiohttp server on 127.0.0.1 serving Scryfall-shaped answers.

    async with FakeScryfall(cards) as fake:        # or FakeScryfall.with_shared_data()
        settings = load_settings(scryfall_api_base=fake.base_url, ...)
        ...
        assert fake.count("/cards/named") == 1

Endpoints: /cards/named?exact=|fuzzy=, /cards/autocomplete?q=, /cards/search?q= (name words plus
`is:commander`), POST /cards/collection, /cards/{id}, /bulk-data and the bulk file it points to
(/bulk/oracle-cards.json and .json.gz). Errors are Scryfall error objects.

Fault knobs: `fail_next(status, times, retry_after=None)`, `delay` (seconds before answering),
`malformed_json` (answer 200 with broken JSON), `mode = "down"` (every request answers 500), `down_paths`
(these paths answer 500), `stalled` (these paths never answer until the fake closes).
Every request is recorded in `requests` (method, path, query, json body, event-loop time, headers).
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import functools
import gzip
import itertools
import json
import operator
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape

from aiohttp import web
from rapidfuzz import fuzz, process

from bot.cards.names import normalize
from bot.cards.rows import can_be_commander, name_keys
from bot.present.mana_art import SYMBOLS
from tests.fakes.server import serve
from tests.shared_data import commander_flags, kept, with_game_changer


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    time: float
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class _Fault:
    status: int
    times: int
    retry_after: float | str | None


def _error(status: int, code: str, details: str, **extra: Any) -> web.Response:
    body = {"object": "error", "code": code, "status": status, "details": details, **extra}
    return web.json_response(body, status=status)


def _order(card: dict[str, Any]) -> tuple[bool, str]:
    """Which card a shared name key points at: real cards before tokens, then by name."""
    return card.get("layout") == "token", card["name"]


@dataclass(frozen=True)
class _CardIndex:
    """The fake's lookups over a card list: by id, by every name key (the first card in `_order` wins),
    the full-name keys in order (for word search and fuzzy matching), and which cards can be commanders
    (`commanders`: worked out on the first `is:commander` search, two seconds over the shared cards).

    Indexing the 24,249 shared cards takes about half a second, so their index is built once per process
    (per pytest-xdist worker) and a card list that starts with the shared card objects extends it instead.
    An index is never changed in place, and the shared card objects are read-only for every test."""

    by_id: dict[str, dict[str, Any]]
    by_key: dict[str, dict[str, Any]]
    full: list[tuple[str, dict[str, Any]]]
    keys: list[str]
    base: _CardIndex | None = None  # the index this one extends, and the cards it adds to it
    added: Sequence[dict[str, Any]] = ()

    @functools.cached_property
    def commanders(self) -> frozenset[int]:
        """The ids (`id()`) of the cards that can be commanders."""
        if (
            self.base is None and self.added is _shared_cards()
        ):  # the shared index: its flags, worked out once
            return frozenset(id(c) for c, lead in zip(self.added, commander_flags(), strict=True) if lead)
        held = self.base.commanders if self.base is not None else frozenset()
        return held | {id(c) for c in self.added if can_be_commander(c)}

    @classmethod
    def of(cls, cards: Sequence[dict[str, Any]]) -> _CardIndex:
        if held := _shared_prefix(cards):
            return shared_index().extended(cards[held:])
        return _EMPTY.extended(cards)

    @functools.cached_property
    def _text(self) -> tuple[str, list[int]]:
        """The full-name keys joined by newlines (which no key holds), and where each starts in that text."""
        return "\n".join(self.keys), list(itertools.accumulate((len(k) + 1 for k in self.keys), initial=0))

    def containing(self, part: str) -> list[int]:
        """The positions in `keys` (ascending) of the keys that contain `part`."""
        return _holding(*self._text, part)

    def starting(self, prefix: str) -> range:
        """The positions in `keys` (sorted) of the keys that start with `prefix`."""
        low = high = bisect.bisect_left(self.keys, prefix)
        while high < len(self.keys) and self.keys[high].startswith(prefix):
            high += 1
        return range(low, high)

    def extended(self, cards: Sequence[dict[str, Any]]) -> _CardIndex:
        """A new index over this one's cards followed by `cards` (this one is left as it was)."""
        if not cards:
            return self
        by_id = self.by_id | {c["id"]: c for c in cards}
        by_key = dict(self.by_key)
        full = list(self.full)
        for card in sorted(cards, key=_order):
            for key, kind in name_keys(card):
                held = by_key.get(key)
                if held is None or _order(card) < _order(held):
                    by_key[key] = card
                if kind == 0:
                    full.append((key, card))
        full.sort(key=lambda kc: (kc[0], *_order(kc[1])))
        return _CardIndex(by_id, by_key, full, [k for k, _c in full], self, tuple(cards))


_SHARED_AT_LEAST = 1000  # a smaller list is not the shared data set, and indexes in milliseconds anyway
_EMPTY = _CardIndex({}, {}, [], [])


def _shared_prefix(cards: Sequence[dict[str, Any]]) -> int:
    """How many of `cards` lead with the shared data set's own card objects (all of them, or none)."""
    shared = _shared_cards() if len(cards) >= _SHARED_AT_LEAST else ()
    return len(shared) if shared and all(map(operator.is_, shared, cards[: len(shared)])) else 0


def _shared_cards() -> tuple[dict[str, Any], ...]:
    """The shared data set (loaded once per process), or () where it is absent."""
    from tests.shared_data import all_cards

    try:
        return all_cards()
    except FileNotFoundError:
        return ()


@kept
def shared_index() -> _CardIndex:
    """The index of the shared data set (built once per process)."""
    return _EMPTY.extended(_shared_cards())


def _bulk_file_of(cards: Sequence[dict[str, Any]], gz: bool) -> bytes:
    """The oracle_cards file of `cards`: a JSON array, gzipped if `gz`."""
    raw = json.dumps(list(cards)).encode()
    return gzip.compress(raw, compresslevel=1) if gz else raw


@lru_cache(maxsize=2)
def _shared_bulk_file(gz: bool) -> bytes:
    """The shared data set's oracle_cards file (made once per process: every fake serving it serves these)."""
    return _bulk_file_of(_shared_cards(), gz)


class FakeScryfall:
    """Serve `cards` (Scryfall card objects) the way api.scryfall.com would."""

    PAGE_SIZE = 175

    def __init__(self, cards: Iterable[dict[str, Any]] = (), *, host: str = "127.0.0.1") -> None:
        cards = list(cards)
        held = _shared_prefix(cards)  # the shared cards carry the field already
        self.cards: list[dict[str, Any]] = cards[:held] + [with_game_changer(c) for c in cards[held:]]
        self.host = host
        self.requests: list[RecordedRequest] = []
        self.delay: float = 0.0
        self.malformed_json: bool = False
        self.mode: str = "ok"  # "ok" or "down"
        self.down_paths: set[str] = set()
        self.stalled: set[str] = set()
        self.bulk_updated_at = "2026-11-20T09:00:00.000+00:00"
        self._faults: list[_Fault] = []
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self._bulk_cache: dict[bool, bytes] = {}
        self._build_index()

    @classmethod
    def with_shared_data(cls) -> FakeScryfall:
        """A fake serving all 24,249 cards of the shared data set."""
        from tests.shared_data import all_cards

        return cls(all_cards())

    # -- data --------------------------------------------------------------------------------------

    def _build_index(self) -> None:
        index = _CardIndex.of(self.cards)
        self.by_id = index.by_id
        self.by_key = index.by_key
        self._full = index.full
        self._keys = index.keys
        self._index = index

    def add_cards(self, cards: Iterable[dict[str, Any]]) -> None:
        self.cards.extend(with_game_changer(c) for c in cards)
        self._bulk_cache.clear()
        self._build_index()

    def _unique_names(self, pairs: Iterable[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
        seen: set[str] = set()
        out = []
        for _key, card in pairs:
            if card["name"] not in seen:
                seen.add(card["name"])
                out.append(card)
        return out

    def _containing(self, words: list[str], *, commanders: bool = False) -> list[dict[str, Any]]:
        held = self._index.commanders if commanders else frozenset()
        near = self._index.containing(max(words, key=len)) if words else range(len(self._full))
        return self._unique_names(
            (key, card)
            for key, card in map(self._full.__getitem__, near)
            if all(w in key for w in words) and (not commanders or id(card) in held)
        )

    # -- control -----------------------------------------------------------------------------------

    def fail_next(self, status: int, times: int = 1, retry_after: float | str | None = None) -> None:
        """The next `times` requests answer `status` (with a Retry-After header when given)."""
        self._faults.append(_Fault(status, times, retry_after))

    def count(self, path: str | None = None, *, prefix: bool = False) -> int:
        """Requests recorded, all or for one path (or every path starting with `path` if prefix)."""
        if path is None:
            return len(self.requests)
        return sum(1 for r in self.requests if (r.path.startswith(path) if prefix else r.path == path))

    def times(self, *paths: str) -> list[float]:
        return sorted(r.time for r in self.requests if r.path in paths)

    def reset(self) -> None:
        self.requests.clear()
        self._faults.clear()
        self.delay = 0.0
        self.malformed_json = False
        self.mode = "ok"
        self.down_paths.clear()
        self.stalled.clear()

    # -- lifecycle ---------------------------------------------------------------------------------

    async def start(self) -> str:
        self._closing = asyncio.Event()
        app = web.Application(middlewares=[self._middleware])
        app.router.add_get("/cards/named", self._named)
        app.router.add_get("/cards/autocomplete", self._autocomplete)
        app.router.add_get("/cards/search", self._search)
        app.router.add_post("/cards/collection", self._collection)
        app.router.add_get("/cards/random", self._random)
        app.router.add_get("/cards/{id}", self._card)
        app.router.add_get("/bulk-data", self._bulk_data)
        app.router.add_get("/bulk/oracle-cards.json", self._bulk_file)
        app.router.add_get("/bulk/oracle-cards.json.gz", self._bulk_file)
        self._add_printed_routes(app)
        self._add_symbology_routes(app)
        self._runner, self.base_url = await serve(app, self.host)
        # A decklist's misses are searched as printed names (`lang:any`): the search must answer in time.
        await self.prepare_printed()
        return self.base_url

    async def close(self) -> None:
        if self._runner is not None:
            self._closing.set()
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeScryfall:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- plumbing ----------------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        body = None
        if request.can_read_body:
            try:
                body = await request.json()
            except ValueError:
                body = None
        self.requests.append(
            RecordedRequest(
                request.method,
                request.path,
                dict(request.query),
                body,
                asyncio.get_running_loop().time(),
                dict(request.headers),
            )
        )
        if request.path in self.stalled:
            await self._closing.wait()
        if self.delay:
            with contextlib.suppress(TimeoutError):  # a slow answer, cut short when the fake shuts down
                await asyncio.wait_for(self._closing.wait(), self.delay)
        if self._faults:
            fault = self._faults[0]
            fault.times -= 1
            if fault.times <= 0:
                self._faults.pop(0)
            headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
            code = "too_many_requests" if fault.status == 429 else "server_error"
            resp = _error(fault.status, code, f"fake fault {fault.status}")
            resp.headers.update(headers)
            return resp
        if self.mode == "down" or request.path in self.down_paths:
            return _error(500, "server_error", "fake Scryfall is down")
        if self.malformed_json:
            return web.Response(
                status=200, body=b'{"object": "card", "name": "Broken', content_type="application/json"
            )
        return await handler(request)

    # -- endpoints ---------------------------------------------------------------------------------

    async def _named(self, request: web.Request) -> web.Response:
        exact, fuzzy = request.query.get("exact"), request.query.get("fuzzy")
        if exact is not None:
            card = self.by_key.get(normalize(exact))
            if card is None:
                return _error(404, "not_found", f"No cards found matching “{exact}”")
            return web.json_response(card)
        if fuzzy is None:
            return _error(400, "bad_request", "exact or fuzzy is required")
        return self._fuzzy(fuzzy)

    def _fuzzy(self, text: str) -> web.Response:
        key = normalize(text)
        card = self.by_key.get(key)
        if card is not None:
            return web.json_response(card)
        words = key.split()
        matches = self._containing(words) if words else []
        if len(matches) == 1:
            return web.json_response(matches[0])
        if len(matches) > 1:
            return _error(
                404,
                "ambiguous",
                f"Too many cards match ambiguous name “{text}”. Add more words to refine your search.",
            )
        best = process.extractOne(key, self._keys, scorer=fuzz.ratio, score_cutoff=80)
        if best is not None:
            return web.json_response(self._full[best[2]][1])
        return _error(404, "not_found", f"No cards found matching “{text}”")

    async def _autocomplete(self, request: web.Request) -> web.Response:
        key = normalize(request.query.get("q", ""))
        names: list[str] = []
        if len(key) >= 2:
            index = self._index
            starts = [c["name"] for c in self._unique_names(map(self._full.__getitem__, index.starting(key)))]
            inner = (self._full[i] for i in index.containing(key) if not self._keys[i].startswith(key))
            inner = [c["name"] for c in self._unique_names(inner)]
            names = (starts + inner)[:20]
        return web.json_response({"object": "catalog", "total_values": len(names), "data": names})

    async def _search(self, request: web.Request) -> web.Response:
        if _PRINTED_TERM.search(request.query.get("q", "")):
            await self.prepare_printed()  # built once, off the loop the bot under test shares
            return await asyncio.to_thread(
                self._search_printed, request
            )  # a scan of every printing: off it too
        terms = request.query.get("q", "").split()
        commanders = False
        words: list[str] = []
        for term in terms:
            if term.lower() == "is:commander":
                commanders = True
            elif ":" in term:
                return _error(400, "bad_request", f"unsupported search term {term!r} in the fake")
            else:
                words.extend(normalize(term.strip('"')).split())
        matches = self._containing(words, commanders=commanders)
        order = request.query.get("order", "name")
        if order == "edhrec":  # Scryfall: by EDHREC rank, the most played first; unranked cards last
            matches.sort(key=lambda c: (c.get("edhrec_rank") is None, c.get("edhrec_rank") or 0, c["name"]))
        elif order != "name":
            return _error(400, "bad_request", f"unsupported order {order!r} in the fake")
        if not matches:
            return _error(404, "not_found", "Your query didn’t match any cards. Adjust your search terms.")
        page = max(1, int(request.query.get("page", "1") or 1))
        chunk = matches[(page - 1) * self.PAGE_SIZE : page * self.PAGE_SIZE]
        has_more = page * self.PAGE_SIZE < len(matches)
        body: dict[str, Any] = {
            "object": "list",
            "total_cards": len(matches),
            "has_more": has_more,
            "data": chunk,
        }
        if has_more:
            body["next_page"] = f"{self.base_url}/cards/search?q={request.query.get('q', '')}&page={page + 1}"
        return web.json_response(body)

    async def _collection(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "bad_request", "body is not JSON")
        identifiers = body.get("identifiers") if isinstance(body, dict) else None
        if not isinstance(identifiers, list):
            return _error(400, "bad_request", "identifiers is required")
        if len(identifiers) > 75:
            return _error(422, "validation_error", "Too many identifiers; at most 75 per request.")
        data, not_found = [], []
        for ident in identifiers:
            card = None
            if isinstance(ident, dict) and "id" in ident:
                card = self.by_id.get(str(ident["id"]))
            elif isinstance(ident, dict) and "name" in ident:
                card = self.by_key.get(normalize(str(ident["name"])))
            if card is None:
                not_found.append(ident)
            else:
                data.append(card)
        return web.json_response({"object": "list", "not_found": not_found, "data": data})

    async def _random(self, request: web.Request) -> web.Response:
        if not self.cards:
            return _error(404, "not_found", "no cards")
        return web.json_response(self.cards[len(self.requests) % len(self.cards)])

    async def _card(self, request: web.Request) -> web.Response:
        card = self.by_id.get(request.match_info["id"])
        if card is None:
            return _error(
                404, "not_found", "No card found with the given ID or set code and collector number."
            )
        return web.json_response(card)

    async def _bulk_data(self, request: web.Request) -> web.Response:
        if self._all_cards_on:  # its size is listed: built off the loop (seconds, once per process)
            await asyncio.to_thread(self._all_cards_bytes)
        entry = {
            "object": "bulk_data",
            "id": "27bf3214-1271-490b-bdfe-c0be6c23d02e",
            "type": "oracle_cards",
            "updated_at": self.bulk_updated_at,
            "name": "Oracle Cards",
            "description": "A JSON file containing one Scryfall card object for each Oracle ID.",
            "size": len(self._bulk_bytes(False)),
            "download_uri": f"{self.base_url}/bulk/oracle-cards.json.gz",
            "content_type": "application/json",
            "content_encoding": "gzip",
        }
        return web.json_response(
            {"object": "list", "has_more": False, "data": [entry, *self._printed_bulk_entries()]}
        )

    def serve_bulk(self, raw: bytes, gz: bytes | None = None) -> None:
        """Serve this oracle_cards file (JSON bytes, and its gzip) instead of one made from `cards`."""
        self._bulk_cache = {False: raw, True: gz if gz is not None else gzip.compress(raw, compresslevel=1)}

    def _bulk_bytes(self, gz: bool) -> bytes:
        if gz not in self._bulk_cache:
            shared = _shared_cards() if len(self.cards) >= _SHARED_AT_LEAST else ()
            if (
                shared
                and len(self.cards) == len(shared)
                and all(a is b for a, b in zip(shared, self.cards, strict=True))
            ):
                self._bulk_cache[gz] = _shared_bulk_file(gz)
            else:
                self._bulk_cache[gz] = _bulk_file_of(self.cards, gz)
        return self._bulk_cache[gz]

    async def _bulk_file(self, request: web.Request) -> web.Response:
        gz = request.path.endswith(".gz")
        return web.Response(
            body=self._bulk_bytes(gz), content_type="application/gzip" if gz else "application/json"
        )

    # -- printed names in other languages (issue 20): all_cards and `lang:` searches ------------------
    # Data from tests/fakes/allcards.py (the shared data set's foreign names), built on first use.
    # `serve_all_cards()` lists Scryfall's all_cards file in /bulk-data (off by default: building it
    # takes seconds); `lang:xx` searches (`lang:any`, `unique:prints|cards`, name words or a quoted
    # phrase) match printed and English names of the printings in that language, as Scryfall does.

    _all_cards_gz: bytes | None = None
    _all_cards_on: bool = False

    async def prepare_printed(self) -> None:
        """Build the `lang:` search index now (seconds, once per process, off the loop), so that a test's
        first search answers within the client's timeout."""
        await asyncio.to_thread(printed_index)

    def serve_all_cards(self, gz: bytes | None = None) -> None:
        """List an all_cards bulk file in /bulk-data: `gz` (a gzipped JSON array), else the shared data's."""
        self._all_cards_on = True
        self._all_cards_gz = gz

    def _all_cards_bytes(self) -> bytes:
        if self._all_cards_gz is None:
            from tests.fakes.allcards import all_cards_gz

            self._all_cards_gz = all_cards_gz()
        return self._all_cards_gz

    def _add_printed_routes(self, app: web.Application) -> None:
        app.router.add_get("/bulk/all-cards.json.gz", self._all_cards_file)

    def _printed_bulk_entries(self) -> list[dict[str, Any]]:
        if not self._all_cards_on:
            return []
        return [
            {
                "object": "bulk_data",
                "id": "922288cb-4bef-45e1-bb30-0c2bd3d3534f",
                "type": "all_cards",
                "updated_at": self.bulk_updated_at,
                "name": "All Cards",
                "description": "A JSON file containing every card object on Scryfall in every language.",
                "size": len(self._all_cards_bytes()),
                "download_uri": f"{self.base_url}/bulk/all-cards.json.gz",
                "content_type": "application/json",
                "content_encoding": "gzip",
            }
        ]

    async def _all_cards_file(self, request: web.Request) -> web.Response:
        if not self._all_cards_on:
            return _error(404, "not_found", "No such bulk file.")
        return web.Response(
            body=await asyncio.to_thread(self._all_cards_bytes), content_type="application/gzip"
        )

    def _search_printed(self, request: web.Request) -> web.Response:
        lang, prints, words = "", False, []
        for token in _TOKEN.findall(request.query.get("q", "")):
            word = token.lower()
            if word.startswith("lang:"):
                lang = word[5:]
            elif word in ("unique:prints", "unique:cards"):
                prints = word == "unique:prints"
            elif ":" in token and not token.startswith('"'):
                return _error(400, "bad_request", f"unsupported search term {token!r} in the fake")
            else:
                words.append(_loose(token.strip('"')))
        if lang != "any" and lang not in _PRINTED_LANGS:
            return _error(400, "bad_request", f"Unknown language “{lang}”.")
        matches, seen = [], set()
        for obj in _printed_matching(lang, words):
            if prints or obj["oracle_id"] not in seen:
                seen.add(obj["oracle_id"])
                matches.append(obj)
        if not matches:
            return _error(404, "not_found", "Your query didn’t match any cards. Adjust your search terms.")
        matches.sort(key=lambda o: o["name"])
        chunk = [self._as_printed_card(o) for o in matches[: self.PAGE_SIZE]]
        return web.json_response(
            {
                "object": "list",
                "total_cards": len(matches),
                "has_more": len(matches) > self.PAGE_SIZE,
                "data": chunk,
            }
        )

    def _as_printed_card(self, printing: dict[str, Any]) -> dict[str, Any]:
        """The full card object of a foreign printing: the English card with the printing's fields."""
        card = dict(self.by_key.get(normalize(printing["name"])) or {})
        card.update({k: v for k, v in printing.items() if k != "card_faces"})
        if printing.get("card_faces") and card.get("card_faces"):
            card["card_faces"] = [
                dict(face, printed_name=p.get("printed_name"))
                for face, p in zip(card["card_faces"], printing["card_faces"], strict=False)
            ]
        return card

    # -- card symbols (GET /symbology and the SVG each entry points to) -----------------------------
    # Every symbol of `mana_art.SYMBOLS`, in Scryfall's card-symbol shape, each with a small SVG (a
    # colored circle with the symbol's text) served by the fake at `svg_uri`. `symbology_lacks` leaves
    # symbols out of the list; `symbology_status` makes /symbology answer that error instead.

    symbology_lacks: frozenset[str] = frozenset()
    symbology_status: int = 200

    def _add_symbology_routes(self, app: web.Application) -> None:
        app.router.add_get("/symbology", self._symbology)
        app.router.add_get("/card-symbols/{file}", self._symbol_svg)

    async def _symbology(self, request: web.Request) -> web.Response:
        if self.symbology_status != 200:
            return _error(self.symbology_status, "server_error", "fake /symbology fault")
        data = [
            _card_symbol(s, f"{self.base_url}/card-symbols/{_svg_file(s)}")
            for s in SYMBOLS
            if s not in self.symbology_lacks
        ]
        return web.json_response({"object": "list", "has_more": False, "data": data})

    async def _symbol_svg(self, request: web.Request) -> web.Response:
        symbol = {_svg_file(s): s for s in SYMBOLS}.get(request.match_info["file"])
        if symbol is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=symbol_svg(symbol), content_type="image/svg+xml")


_SYMBOL_FILL = {"W": "#f8f6d8", "U": "#c1d7e9", "B": "#bab1ab", "R": "#e49977", "G": "#a3c095"}


def _svg_file(symbol: str) -> str:
    """The SVG's file name, as Scryfall names them (`{W/U}` -> `WU.svg`)."""
    return {"½": "HALF", "∞": "INFINITY"}.get(symbol, symbol.replace("/", "")) + ".svg"


def symbol_svg(symbol: str) -> bytes:
    """A small valid SVG for a symbol: a circle in its first color (grey when none) with the symbol's text."""
    fill = next((_SYMBOL_FILL[c] for c in symbol if c in _SYMBOL_FILL), "#cac5c0")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="48" '
        f'fill="{fill}"/><text x="50" y="62" font-size="32" text-anchor="middle">{escape(symbol)}</text>'
        f"</svg>"
    ).encode()


def _card_symbol(symbol: str, svg_uri: str) -> dict[str, Any]:
    """A card-symbol object in Scryfall's shape."""
    colors = [c for c in symbol.replace("H", "") if c in "WUBRG"] if symbol != "CHAOS" else []
    mana = symbol not in ("T", "Q", "E", "CHAOS")
    return {
        "object": "card_symbol",
        "symbol": "{" + symbol + "}",
        "svg_uri": svg_uri,
        "loose_variant": None,
        "english": f"the symbol {symbol}",
        "transposable": False,
        "represents_mana": mana,
        "appears_in_mana_costs": mana,
        "mana_value": 1.0 if mana else None,
        "hybrid": "/" in symbol,
        "phyrexian": "P" in symbol.split("/"),
        "funny": symbol in ("½", "∞", "CHAOS"),
        "colors": colors,
        "gatherer_alternates": None,
    }


_PRINTED_TERM = re.compile(r"(?:^|\s)lang:", re.IGNORECASE)
_TOKEN = re.compile(r'"[^"]*"|\S+')
_PRINTED_LANGS = frozenset({"en", "de", "es", "fr", "it", "ja", "ko", "pt", "ru", "zhs", "zht"})


class _Marks(dict[int, int | None]):
    """A `str.translate` table that drops the combining marks (each code point looked up once)."""

    def __missing__(self, point: int) -> int | None:
        self[point] = None if unicodedata.combining(chr(point)) else point
        return self[point]


_MARKS = _Marks()


def _loose(text: str) -> str:
    """Scryfall's loose name match, roughly: case, width and accents ignored."""
    if text.isascii():
        return text.casefold()  # no accents, no wide forms
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return unicodedata.normalize("NFC", decomposed.translate(_MARKS))


@kept
def printed_index() -> tuple[tuple[dict[str, Any], str], ...]:
    """Every foreign printing with the loose forms of its English, printed and face names (one per line: a
    phrase matches inside one name, never across two)."""
    from tests.fakes.allcards import foreign_printings

    out = []
    for obj in foreign_printings():
        names = [obj["name"], obj.get("printed_name") or ""]
        names += [n for f in obj.get("card_faces") or () for n in (f.get("name"), f.get("printed_name")) if n]
        out.append((obj, "\n".join(_loose(n) for n in names if n)))
    return tuple(out)


@functools.lru_cache(maxsize=len(_PRINTED_LANGS) + 1)
def _printed_text(lang: str) -> tuple[str, list[int], list[tuple[dict[str, Any], str]]]:
    """The printings in `lang` ("any": all) in `printed_index` order, and their names as one text (each
    printing's names from its offset in the list on, then a NUL) to find a word in all of them at once."""
    entries = [(obj, names) for obj, names in printed_index() if lang in ("any", obj["lang"])]
    starts = list(itertools.accumulate((len(names) + 1 for _obj, names in entries), initial=0))
    return "\0".join(names for _obj, names in entries), starts, entries


def _printed_matching(lang: str, words: list[str]) -> list[dict[str, Any]]:
    """The printings in `lang` ("any": all) whose loose names hold every word, in `printed_index` order."""
    text, starts, entries = _printed_text(lang)
    word = max(words, key=len, default="")
    if not word:
        return [obj for obj, names in entries if all(w in names for w in words)]
    # the longest word inside one printing's names (not across two), then the other words there too
    return [entries[i][0] for i in _holding(text, starts, word) if all(w in entries[i][1] for w in words)]


def _holding(text: str, starts: list[int], part: str) -> list[int]:
    """The entries (ascending) of `text` that hold `part`: entry i is `text[starts[i]:starts[i + 1] - 1]`,
    entries end with one separator `part` never holds. One scan of the text in C, not a test of each entry."""
    found, at = [], text.find(part) if part else -1
    while at >= 0:
        found.append(i := bisect.bisect_right(starts, at) - 1)
        at = text.find(part, starts[i + 1])
    return found
