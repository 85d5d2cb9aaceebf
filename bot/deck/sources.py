"""Deck links: read a public Archidekt or Moxfield deck and turn it into a `ParsedDeck`.

- `parse_deck_url(text)` recognises a deck URL of a known site and returns a `DeckLink` (site, deck id,
  canonical URL); anything that is not a URL of a known site is None; a URL of a known site without a deck
  id raises `DeckLinkError`. The user's URL is never fetched: the client builds the API URL itself from the
  configured API base and the deck id, so no other host can be reached through it.
- `DeckSites(session, ...)` fetches decks through one aiohttp session, politely:
  - `User-Agent: IdentityBot/<version> (+<contact URL>)` and `Accept: application/json` on every request;
  - per site, at most one request every `min_interval` seconds (1 s: neither site publishes a limit, so
    this stays conservative); a request that would have to wait more than `max_wait` seconds for its turn
    fails at once with `DeckSiteBusy(retry_after=...)` instead of queueing;
  - an HTTP 429 locks that site for max(Retry-After, `lockout_seconds`); meanwhile fetches of that site fail
    at once with `DeckSiteRateLimited(retry_after=...)` and send nothing;
  - one total deadline (`timeout`, 8 s) covers waiting for the turn, connecting and reading;
  - the body is read in chunks and abandoned (connection closed) as soon as it passes `max_bytes` (2 MB);
    a Content-Length above the cap is refused before reading anything;
  - redirects are not followed (an answer that redirects is reported, never chased to another host);
  - decks are cached for `cache_ttl` seconds (5 minutes) in a bounded LRU (`cache_size` decks); concurrent
    fetches of one deck share one request; errors are never cached.
- Every failure is a `DeckSourceError` subclass carrying a machine-readable `code`, the `site`, the
  `retry_after` hint when there is one and a `data` mapping; the presentation layer words them.

How the site answers become a `ParsedDeck` (entries keep `line` = position in the deck, 1-based: commanders
first, then companions, main deck, sideboard, maybeboard and tokens, alphabetical within each):

- Archidekt (`GET {ARCHIDEKT_API_BASE}/decks/<id>/`): `cards[]` with `quantity`, `categories` (names) and
  `card.oracleCard.name`; the deck's `categories[]` say which categories are `includedInDeck`. A card in the
  "Commander" category is a commander; a card flagged `companion` (or in "Companion") is the companion; a card
  whose first (primary) category is "Sideboard" is sideboard, "Maybeboard"/"Considering" maybeboard, and any
  other primary category that is not included in the deck counts as maybeboard too. A deck answered with
  `private: true` is treated as private.
- Moxfield (`GET {MOXFIELD_API_BASE}/v3/decks/all/<publicId>`): `boards.{commanders, companions, mainboard,
  sideboard, maybeboard, ...}.cards.<id>.{quantity, card.name}`; the older v2 shape (the same boards as
  top-level maps keyed by card name) is read too. `visibility: "private"` is private, `"deleted"` not found;
  `"unlisted"` decks are readable by link, as on the site.

Entries the parser cannot read (no name, bad quantity) become `ParseProblem`s with their position; the
deck is refused as "not a deck" only when its overall shape is wrong or no entry at all could be read.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import math
import re
import time
import unicodedata
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar
from urllib.parse import urlsplit

import aiohttp

from bot import BOT_NAME, __version__
from bot.cards.scryfall import SingleFlight, retry_after_seconds
from bot.deck.parser import MAX_COUNT, MAX_NAME_LENGTH, DeckEntry, ParsedDeck, ParseProblem, Section

log = logging.getLogger(__name__)


DEFAULT_TIMEOUT = 8.0
DEFAULT_MAX_BYTES = 2 * 1024 * 1024
DEFAULT_MAX_ENTRIES = 1000  # distinct card entries in one deck answer, all boards together
DEFAULT_MIN_INTERVAL = 1.0  # seconds between two requests to one site
DEFAULT_MAX_WAIT = 3.0  # longest wait for a turn before answering "busy"
DEFAULT_LOCKOUT = 30.0  # pause after a 429 without (or with a shorter) Retry-After
DEFAULT_CACHE_TTL = 300.0
DEFAULT_CACHE_SIZE = 256
ERROR_BODY_LIMIT = 64 * 1024  # bytes read from a non-200 answer (enough to tell JSON from an HTML page)

_CHUNK = 64 * 1024


class Site(StrEnum):
    """A deck-building site the bot can read decks from."""

    ARCHIDEKT = "archidekt"
    MOXFIELD = "moxfield"

    @property
    def label(self) -> str:
        """The site's name as it writes it."""
        return _LABELS[self]


_LABELS = {Site.ARCHIDEKT: "Archidekt", Site.MOXFIELD: "Moxfield"}
_HOSTS = {
    "archidekt.com": Site.ARCHIDEKT,
    "www.archidekt.com": Site.ARCHIDEKT,
    "moxfield.com": Site.MOXFIELD,
    "www.moxfield.com": Site.MOXFIELD,
}
_ARCHIDEKT_ID_RE = re.compile(r"^[0-9]{1,12}$")
# Moxfield public ids are 22 URL-safe base64 characters; allow some slack, but not `personal`/`public`
# (the "my decks" and "browse" pages also live under /decks/).
_MOXFIELD_ID_RE = re.compile(r"^[A-Za-z0-9_-]{10,40}$")
_MAX_URL_LENGTH = 2048


# -- errors -------------------------------------------------------------------------------------------


class DeckSourceErrorCode(StrEnum):
    """What went wrong, for the presentation layer to word."""

    MALFORMED_URL = "malformed_url"  # a known site's URL without a deck id
    PRIVATE = "private"  # the deck exists but is not public
    NOT_FOUND = "not_found"  # no such deck (or one the site hides completely)
    NOT_A_DECK = "not_a_deck"  # the site answered, but not with a deck (bad JSON, unexpected shape)
    TOO_LARGE = "too_large"  # the answer passed the byte or entry cap
    UNAVAILABLE = "unavailable"  # timeout, unreachable, 5xx, refused (403 page), redirect
    RATE_LIMITED = "rate_limited"  # the site answered 429 (or did recently)
    BUSY = "busy"  # the bot's own per-site limit: too many deck links at once


class DeckSourceError(Exception):
    """Base of every deck-link failure. `code`, `site`, `retry_after` (seconds, or None) and `data`
    (details for wording and logs: `reason`, `status`, `limit`, ...) carry everything; `str()` is a short
    developer-facing summary for logs, not a sentence for users."""

    code: ClassVar[DeckSourceErrorCode]

    def __init__(self, site: Site | None, *, url: str | None = None, retry_after: float | None = None,
                 **data: Any) -> None:
        self.site = site
        self.url = url
        self.retry_after = retry_after
        self.data: dict[str, Any] = data
        details = ", ".join(f"{k}={v!r}" for k, v in data.items())
        where = site.label if site else "deck link"
        super().__init__(f"{where}: {self.code.value}" + (f" ({details})" if details else "")
                         + (f", retry in {retry_after:.1f} s" if retry_after is not None else ""))

    @property
    def retry_after_seconds(self) -> int | None:
        """`retry_after` rounded up to whole seconds (at least 1), for "try again in N s"."""
        if self.retry_after is None:
            return None
        return max(1, math.ceil(self.retry_after))


class DeckLinkError(DeckSourceError):
    """A URL of a known site that names no deck. data: reason="no_deck_id", host, path."""

    code = DeckSourceErrorCode.MALFORMED_URL


class DeckPrivate(DeckSourceError):
    """The deck is private. data: status (HTTP status, 200 when the body said so)."""

    code = DeckSourceErrorCode.PRIVATE


class DeckNotFound(DeckSourceError):
    """No such deck. data: status. Sites may answer 404 for private decks too."""

    code = DeckSourceErrorCode.NOT_FOUND


class DeckNotADeck(DeckSourceError):
    """The answer is not a deck. data: reason ("malformed_json", "shape", "no_entries", "mismatched_id"),
    detail."""

    code = DeckSourceErrorCode.NOT_A_DECK


class DeckTooLarge(DeckSourceError):
    """The answer passed a cap. data: limit, unit ("bytes" or "entries"), size (bytes read so far when the
    cap was passed, the declared Content-Length, or the entry count)."""

    code = DeckSourceErrorCode.TOO_LARGE


class DeckSiteUnavailable(DeckSourceError):
    """The site could not be read. data: reason ("timeout", "unreachable", "server_error", "refused",
    "redirect", "http_status"), status, seconds (for a timeout), error (exception type name)."""

    code = DeckSourceErrorCode.UNAVAILABLE


class DeckSiteRateLimited(DeckSourceError):
    """The site answered 429 (now or within the lockout); `retry_after` says when to try again."""

    code = DeckSourceErrorCode.RATE_LIMITED


class DeckSiteBusy(DeckSourceError):
    """The bot's own per-site limit is full (many deck links at once); `retry_after` says when to retry."""

    code = DeckSourceErrorCode.BUSY


# -- links --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckLink:
    """A recognised deck URL: the site, its deck id and the deck's canonical web address."""

    site: Site
    deck_id: str

    @property
    def url(self) -> str:
        """The canonical web address of the deck (what the reply links to)."""
        if self.site is Site.ARCHIDEKT:
            return f"https://archidekt.com/decks/{self.deck_id}"
        return f"https://www.moxfield.com/decks/{self.deck_id}"


def parse_deck_url(text: str) -> DeckLink | None:
    """Recognise an Archidekt or Moxfield deck URL.

    Accepted: `https://archidekt.com/decks/<id>[/<slug>]` (also `www.`, `http:`, no scheme, `/api/decks/<id>/`)
    and `https://moxfield.com/decks/<publicId>[/...]` (also `www.`), with any query or fragment, optionally
    wrapped in `<...>` (Discord's no-embed form). Returns None for anything else (other hosts, plain text);
    raises `DeckLinkError` for an Archidekt or Moxfield URL that has no deck id.
    """
    value = text.strip()
    if value.startswith("<") and value.endswith(">"):
        value = value[1:-1].strip()
    if not value or len(value) > _MAX_URL_LENGTH or any(ch.isspace() for ch in value):
        return None
    if "://" not in value:
        if not re.match(r"^(?:www\.)?(?:archidekt|moxfield)\.com(?:[/?#]|$)", value, re.IGNORECASE):
            return None
        value = "https://" + value
    try:
        parts = urlsplit(value)
        host = (parts.hostname or "").lower().rstrip(".")
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https"):
        return None
    site = _HOSTS.get(host)
    if site is None:
        return None
    segments = [s for s in parts.path.split("/") if s]
    if site is Site.ARCHIDEKT:
        if segments[:1] == ["api"]:
            segments = segments[1:]
        if len(segments) >= 2 and segments[0] == "decks" and _ARCHIDEKT_ID_RE.match(segments[1]):
            return DeckLink(site, str(int(segments[1])))
    elif len(segments) >= 2 and segments[0] == "decks" and _MOXFIELD_ID_RE.match(segments[1]):
        return DeckLink(site, segments[1])
    raise DeckLinkError(site, url=value, reason="no_deck_id", host=host, path=parts.path or "/")


# -- results ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FetchedDeck:
    """A deck read from a site. `deck` holds every entry (any section) with `deck_name` set; `format` is
    the site's format name ("commander", ...) or None; `from_cache` is True when no request was made.
    `name`, `commanders` and `url` are read off `deck` and the link."""

    deck: ParsedDeck
    site: Site
    deck_id: str
    format: str | None = None
    from_cache: bool = False

    @property
    def name(self) -> str | None:
        """The deck's name on the site (`deck.deck_name`)."""
        return self.deck.deck_name

    @property
    def commanders(self) -> tuple[str, ...]:
        """The names the site marks as commanders, each once (the `commander_marker` entries of `deck`)."""
        return tuple(dict.fromkeys(e.name for e in self.deck.entries if e.section is Section.COMMANDER))

    @property
    def url(self) -> str:
        """The canonical web address of the deck (`DeckLink.url`)."""
        return DeckLink(self.site, self.deck_id).url


@dataclass(frozen=True, slots=True)
class _Raw:
    """One entry as read from a site, before numbering."""

    section: Section
    name: str | None
    count: Any
    set_code: str | None = None
    collector_number: str | None = None
    foil: bool = False
    problem: str | None = None  # why the entry cannot be read (set when name/count are unusable)
    label: str | None = None  # what to call the entry in a problem when it has no usable name


_SECTION_ORDER = {Section.COMMANDER: 0, Section.COMPANION: 1, Section.MAIN: 2, Section.SIDEBOARD: 3,
                  Section.MAYBEBOARD: 4, Section.TOKENS: 5, Section.ABOUT: 6}

# Archidekt deckFormat numbers (as the site's own API client libraries list them).
_ARCHIDEKT_FORMATS = {
    1: "standard", 2: "modern", 3: "commander", 4: "legacy", 5: "vintage", 6: "pauper", 7: "custom",
    8: "frontier", 9: "futurestandard", 10: "penny", 11: "1v1commander", 12: "duelcommander", 13: "brawl",
}

# Moxfield boards -> sections. signatureSpells (Oathbreaker) are part of the deck.
_MOXFIELD_BOARDS: dict[str, Section] = {
    "commanders": Section.COMMANDER,
    "companions": Section.COMPANION,
    "mainboard": Section.MAIN,
    "signatureSpells": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "tokens": Section.TOKENS,
    "attractions": Section.TOKENS,
    "stickers": Section.TOKENS,
    "contraptions": Section.TOKENS,
    "planes": Section.TOKENS,
    "schemes": Section.TOKENS,
}


def _tidy_name(value: Any) -> str | None:
    """A card name as the site wrote it, whitespace-normalised; None when it is not a usable name."""
    if not isinstance(value, str):
        return None
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name or len(name) > MAX_NAME_LENGTH:
        return None
    return name


def _face_name(card: Mapping[str, Any], faces_key: str) -> str | None:
    """`A // B` from a card's faces, for answers that give faces but no top-level name."""
    faces = card.get(faces_key)
    if not isinstance(faces, list):
        return None
    names = [_tidy_name(f.get("name")) for f in faces if isinstance(f, Mapping)]
    if not names or any(n is None for n in names):
        return None
    return _tidy_name(" // ".join(n for n in names if n))


def _obj(value: Any) -> Mapping[str, Any]:
    """`value` when it is a JSON object, else an empty one (missing or wrongly typed fields read as absent)."""
    return value if isinstance(value, Mapping) else {}


def _text(value: Any, limit: int = 40) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()[:limit]
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _build(site: Site, deck_id: str, name: Any, fmt: str | None, raws: list[_Raw]) -> FetchedDeck:
    """Number the entries (commanders first, alphabetical within a section) and build the result."""
    ordered = sorted(raws, key=lambda r: (_SECTION_ORDER.get(r.section, 9), (r.name or "").casefold()))
    entries: list[DeckEntry] = []
    problems: list[ParseProblem] = []
    for position, raw in enumerate(ordered, start=1):
        count = raw.count
        problem = raw.problem
        if problem is None and (isinstance(count, bool) or not isinstance(count, int)):
            problem = "quantity is not a whole number"
        elif problem is None and not 1 <= count <= MAX_COUNT:
            problem = f"quantity {count} is outside 1-{MAX_COUNT}"
        if problem is not None or raw.name is None:
            problems.append(ParseProblem(position, raw.name or raw.label or f"{raw.section.value} entry",
                                         problem or "the entry has no card name"))
            continue
        entries.append(DeckEntry(name=raw.name, count=count, line=position, section=raw.section,
                                 set_code=raw.set_code, collector_number=raw.collector_number, foil=raw.foil,
                                 commander_marker=raw.section is Section.COMMANDER))
    if raws and not entries:
        raise DeckNotADeck(site, reason="no_entries", detail=f"none of {len(raws)} entries could be read")
    deck_name = _tidy_name(name)
    parsed = ParsedDeck(entries=entries, problems=problems, deck_name=deck_name, lines_read=len(ordered))
    return FetchedDeck(deck=parsed, site=site, deck_id=deck_id, format=fmt)


def read_archidekt(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """Build a `FetchedDeck` from an Archidekt `/api/decks/<id>/` answer (already JSON-decoded).

    Raises DeckPrivate for `private: true`, DeckNotADeck for a wrong shape, DeckTooLarge past `max_entries`.
    """
    site = Site.ARCHIDEKT
    if not isinstance(payload, dict) or not isinstance(payload.get("cards"), list):
        raise DeckNotADeck(site, reason="shape", detail="no cards list")
    if payload.get("private") is True:
        raise DeckPrivate(site, status=200)
    answered_id = payload.get("id")
    if answered_id is not None and str(answered_id) != deck_id:
        raise DeckNotADeck(site, reason="mismatched_id", detail=f"asked for {deck_id}, got {answered_id}")
    cards: list[Any] = payload["cards"]
    if len(cards) > max_entries:
        raise DeckTooLarge(site, limit=max_entries, unit="entries", size=len(cards))
    included: dict[str, bool] = {}
    for category in payload.get("categories") or ():
        if isinstance(category, Mapping) and isinstance(category.get("name"), str):
            included[category["name"].casefold()] = category.get("includedInDeck") is not False
    raws: list[_Raw] = []
    for item in cards:
        if not isinstance(item, Mapping):
            raws.append(_Raw(Section.MAIN, None, None, problem="the entry is not an object"))
            continue
        if item.get("deletedAt"):
            continue  # removed from the deck; kept by the site for its history
        card = _obj(item.get("card"))
        oracle = _obj(card.get("oracleCard"))
        name = _tidy_name(oracle.get("name")) or _face_name(oracle, "faces")
        labels = [c for c in item.get("categories") or () if isinstance(c, str)]
        folded = [c.casefold() for c in labels]
        primary = folded[0] if folded else None
        if "commander" in folded:
            section = Section.COMMANDER
        elif item.get("companion") is True or "companion" in folded:
            section = Section.COMPANION
        elif primary == "sideboard":
            section = Section.SIDEBOARD
        elif primary in ("maybeboard", "considering"):
            section = Section.MAYBEBOARD
        elif primary is not None and included.get(primary) is False:
            section = Section.MAYBEBOARD
        else:
            section = Section.MAIN
        edition = _obj(card.get("edition"))
        modifier = item.get("modifier")
        raws.append(_Raw(section, name, item.get("quantity"),
                         set_code=_text(edition.get("editioncode"), 8),
                         collector_number=_text(card.get("collectorNumber"), 12),
                         foil=isinstance(modifier, str) and modifier.casefold() in ("foil", "etched"),
                         problem=None if name else "the entry has no card name"))
    fmt = payload.get("deckFormat")
    fmt_name = _ARCHIDEKT_FORMATS.get(fmt) if isinstance(fmt, int) and not isinstance(fmt, bool) else None
    return _build(site, deck_id, payload.get("name"), fmt_name, raws)


def read_moxfield(payload: Any, deck_id: str, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> FetchedDeck:
    """Build a `FetchedDeck` from a Moxfield `/v3/decks/all/<publicId>` answer (or the v2 shape).

    Raises DeckPrivate for `visibility: "private"`, DeckNotFound for `"deleted"`, DeckNotADeck for a wrong
    shape, DeckTooLarge past `max_entries`. Boards the bot does not know are reported as problems.
    """
    site = Site.MOXFIELD
    if not isinstance(payload, dict):
        raise DeckNotADeck(site, reason="shape", detail=f"a {type(payload).__name__}, not an object")
    visibility = payload.get("visibility")
    if isinstance(visibility, str) and visibility.casefold() == "private":
        raise DeckPrivate(site, status=200)
    if isinstance(visibility, str) and visibility.casefold() == "deleted":
        raise DeckNotFound(site, status=200)
    answered_id = payload.get("publicId")
    if isinstance(answered_id, str) and answered_id != deck_id:
        raise DeckNotADeck(site, reason="mismatched_id", detail=f"asked for {deck_id}, got {answered_id}")
    boards: dict[str, Any] = {}
    if isinstance(payload.get("boards"), Mapping):  # v3: boards.<board>.cards.<id>
        for key, board in payload["boards"].items():
            if not isinstance(board, Mapping) or not isinstance(board.get("cards", {}), Mapping):
                raise DeckNotADeck(site, reason="shape", detail=f"board {key!r} has no cards map")
            boards[str(key)] = board.get("cards", {})
    else:  # v2: <board> maps at the top level, keyed by card name
        for key in _MOXFIELD_BOARDS:
            if isinstance(payload.get(key), Mapping):
                boards[key] = payload[key]
        if not boards:
            raise DeckNotADeck(site, reason="shape", detail="no boards")
    total = sum(len(cards) for cards in boards.values())
    if total > max_entries:
        raise DeckTooLarge(site, limit=max_entries, unit="entries", size=total)
    raws: list[_Raw] = []
    for key, cards in boards.items():
        section = _MOXFIELD_BOARDS.get(key)
        for map_key, item in cards.items():
            if section is None:
                card_name = _obj(_obj(item).get("card")).get("name")
                raws.append(_Raw(Section.TOKENS, None, None, problem=f"the board {key!r} is not read",
                                 label=_tidy_name(card_name) or _tidy_name(map_key)))
                continue
            if not isinstance(item, Mapping):
                raws.append(_Raw(section, None, None, problem="the entry is not an object"))
                continue
            card = _obj(item.get("card"))
            name = (_tidy_name(card.get("name")) or _face_name(card, "card_faces")
                    or (_tidy_name(map_key) if "boards" not in payload else None))
            finish = item.get("finish")
            foil = item.get("isFoil") is True or (isinstance(finish, str) and finish.casefold() in ("foil", "etched"))
            raws.append(_Raw(section, name, item.get("quantity"), set_code=_text(card.get("set"), 8),
                             collector_number=_text(card.get("cn"), 12), foil=foil,
                             problem=None if name else "the entry has no card name"))
    fmt = payload.get("format")
    return _build(site, deck_id, payload.get("name"), fmt if isinstance(fmt, str) and fmt else None, raws)


# -- client -------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Gate:
    """One site's politeness state (event-loop time)."""

    next_slot: float = 0.0
    locked_until: float = 0.0


@dataclass(slots=True)
class _Answer:
    status: int
    content_type: str
    retry_after: str | None
    location: str | None
    body: bytes


def _copy(fetched: FetchedDeck, *, from_cache: bool) -> FetchedDeck:
    """A copy whose ParsedDeck lists belong to the caller (the cached one stays untouched)."""
    deck = dataclasses.replace(fetched.deck, entries=list(fetched.deck.entries),
                               problems=list(fetched.deck.problems))
    return dataclasses.replace(fetched, deck=deck, from_cache=from_cache)


class DeckSites:
    """Client for Archidekt and Moxfield deck links. Create one per process (the per-site limits, lockouts
    and cache live in the instance); the aiohttp session belongs to the caller and is not closed here.

    `archidekt_base` / `moxfield_base` are the API bases (settings ARCHIDEKT_API_BASE / MOXFIELD_API_BASE,
    where their defaults live);
    `contact_url` goes into the User-Agent; `moxfield_user_agent` replaces the User-Agent for Moxfield only
    (Moxfield grants API access per User-Agent on request). `clock` (seconds) drives the cache lifetime only;
    the rate limits use the event loop's clock.
    """

    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        archidekt_base: str,
        moxfield_base: str,
        contact_url: str,
        moxfield_user_agent: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_entries: int = DEFAULT_MAX_ENTRIES,
        min_interval: float = DEFAULT_MIN_INTERVAL,
        max_wait: float = DEFAULT_MAX_WAIT,
        lockout_seconds: float = DEFAULT_LOCKOUT,
        cache_ttl: float = DEFAULT_CACHE_TTL,
        cache_size: int = DEFAULT_CACHE_SIZE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if timeout <= 0 or max_bytes <= 0 or max_entries <= 0 or min_interval < 0 or max_wait < 0:
            raise ValueError("timeout, max_bytes and max_entries must be positive; intervals not negative")
        self._session = session
        self.bases = {Site.ARCHIDEKT: archidekt_base.rstrip("/"), Site.MOXFIELD: moxfield_base.rstrip("/")}
        self.user_agent = f"{BOT_NAME}/{__version__} (+{contact_url})"
        self.user_agents = {Site.ARCHIDEKT: self.user_agent, Site.MOXFIELD: moxfield_user_agent or self.user_agent}
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.min_interval = min_interval
        self.max_wait = max_wait
        self.lockout_seconds = lockout_seconds
        self.cache_ttl = cache_ttl
        self.cache_size = cache_size
        self.clock = clock
        self._gates = {site: _Gate() for site in Site}
        self._cache: OrderedDict[tuple[Site, str], tuple[float, FetchedDeck]] = OrderedDict()
        self._flight = SingleFlight()  # concurrent fetches of one deck share one request
        # requests[site], cache_hits, shared (joined an in-flight fetch), errors[code]
        self.stats: dict[str, Counter[str]] = {"requests": Counter(), "events": Counter(), "errors": Counter()}

    def api_url(self, link: DeckLink) -> str:
        """The API address a link is read from (built from the configured base, never from the user's URL)."""
        if link.site is Site.ARCHIDEKT:
            return f"{self.bases[Site.ARCHIDEKT]}/decks/{link.deck_id}/"
        return f"{self.bases[Site.MOXFIELD]}/v3/decks/all/{link.deck_id}"

    def locked_for(self, site: Site) -> float:
        """Seconds left in a site's 429 lockout (0 when not locked)."""
        loop = asyncio.get_running_loop()
        return max(0.0, self._gates[site].locked_until - loop.time())

    async def fetch(self, link: DeckLink) -> FetchedDeck:
        """The deck behind `link`, from the cache when fetched less than `cache_ttl` seconds ago.

        Raises a `DeckSourceError` subclass (private, not found, not a deck, too large, unavailable,
        rate-limited, busy). Concurrent calls for one deck share one request.
        """
        key = (link.site, link.deck_id)
        hit = self._cache_get(key)
        if hit is not None:
            self.stats["events"]["cache_hits"] += 1
            return _copy(hit, from_cache=True)
        if self._flight.running(key):
            self.stats["events"]["shared"] += 1
        try:
            fetched: FetchedDeck = await self._flight.run(key, lambda: self._fetch_and_store(link))
        except DeckSourceError as exc:
            self.stats["errors"][exc.code.value] += 1
            raise
        return _copy(fetched, from_cache=False)

    async def aclose(self) -> None:
        """Cancel fetches still in flight (the session is the caller's to close)."""
        await self._flight.aclose()

    def clear_cache(self) -> None:
        """Forget every cached deck."""
        self._cache.clear()

    # -- plumbing ---------------------------------------------------------------------------------

    def _cache_get(self, key: tuple[Site, str]) -> FetchedDeck | None:
        item = self._cache.get(key)
        if item is None:
            return None
        expires, fetched = item
        if self.clock() >= expires:
            del self._cache[key]
            return None
        self._cache.move_to_end(key)
        return fetched

    def _cache_put(self, key: tuple[Site, str], fetched: FetchedDeck) -> None:
        if self.cache_ttl <= 0 or self.cache_size <= 0:
            return
        self._cache[key] = (self.clock() + self.cache_ttl, fetched)
        self._cache.move_to_end(key)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def _reserve(self, site: Site) -> float:
        """Take the site's next request slot; the seconds to wait for it. Fails fast when locked or full."""
        now = asyncio.get_running_loop().time()
        gate = self._gates[site]
        if gate.locked_until > now:
            raise DeckSiteRateLimited(site, retry_after=gate.locked_until - now)
        start = max(now, gate.next_slot)
        wait = start - now
        if wait > min(self.max_wait, self.timeout):
            raise DeckSiteBusy(site, retry_after=wait)
        gate.next_slot = start + self.min_interval
        return wait

    async def _fetch_and_store(self, link: DeckLink) -> FetchedDeck:
        wait = self._reserve(link.site)
        try:
            async with asyncio.timeout(self.timeout):
                if wait > 0:
                    await asyncio.sleep(wait)
                answer = await self._get(link)
        except TimeoutError:
            raise DeckSiteUnavailable(link.site, url=link.url, reason="timeout", seconds=self.timeout) from None
        fetched = self._interpret(link, answer)
        self._cache_put((link.site, link.deck_id), fetched)
        return fetched

    async def _get(self, link: DeckLink) -> _Answer:
        site = link.site
        headers = {"User-Agent": self.user_agents[site], "Accept": "application/json"}
        self.stats["requests"][site.value] += 1
        try:
            async with self._session.get(self.api_url(link), headers=headers, allow_redirects=False) as resp:
                content_type = resp.headers.get("Content-Type", "")
                if resp.status == 200:
                    declared = resp.content_length
                    if declared is not None and declared > self.max_bytes:
                        resp.close()
                        raise DeckTooLarge(site, url=link.url, limit=self.max_bytes, unit="bytes", size=declared)
                    body, size = await self._read(resp, self.max_bytes)
                    if size > self.max_bytes:
                        resp.close()  # drop the connection instead of draining the rest
                        raise DeckTooLarge(site, url=link.url, limit=self.max_bytes, unit="bytes", size=size)
                else:
                    body, size = await self._read(resp, ERROR_BODY_LIMIT)
                    if size > ERROR_BODY_LIMIT:
                        resp.close()
                return _Answer(resp.status, content_type, resp.headers.get("Retry-After"),
                               resp.headers.get("Location"), body)
        except TimeoutError:
            raise  # the caller turns every timeout into DeckSiteUnavailable(reason="timeout")
        except aiohttp.ClientError as exc:
            raise DeckSiteUnavailable(site, url=link.url, reason="unreachable", error=type(exc).__name__) from None

    @staticmethod
    async def _read(resp: aiohttp.ClientResponse, limit: int) -> tuple[bytes, int]:
        """Read the body, stopping as soon as it passes `limit` bytes: (body kept, bytes read). The body is
        complete when bytes read <= limit."""
        chunks: list[bytes] = []
        size = 0
        async for chunk in resp.content.iter_chunked(_CHUNK):
            size += len(chunk)
            if size > limit:
                break
            chunks.append(chunk)
        return b"".join(chunks), size

    def _interpret(self, link: DeckLink, answer: _Answer) -> FetchedDeck:
        site, status = link.site, answer.status
        if status == 200:
            try:
                payload = _json(answer.body)
            except ValueError:
                raise DeckNotADeck(site, url=link.url, reason="malformed_json",
                                   detail=answer.content_type or "no content type") from None
            try:
                if site is Site.ARCHIDEKT:
                    return read_archidekt(payload, link.deck_id, max_entries=self.max_entries)
                return read_moxfield(payload, link.deck_id, max_entries=self.max_entries)
            except DeckSourceError as exc:
                exc.url = link.url
                raise
        if status == 429:
            wait = max(retry_after_seconds(answer.retry_after), self.lockout_seconds)
            gate = self._gates[site]
            gate.locked_until = max(gate.locked_until, asyncio.get_running_loop().time() + wait)
            log.warning("%s answered 429; pausing deck links to it for %.0f s", site.label, wait)
            raise DeckSiteRateLimited(site, url=link.url, retry_after=wait, status=status)
        if status in (401, 403):
            if _is_json(answer):
                raise DeckPrivate(site, url=link.url, status=status)
            # An HTML (bot-protection) page: the site refused the bot, not the deck.
            raise DeckSiteUnavailable(site, url=link.url, reason="refused", status=status)
        if status in (400, 404, 410):
            raise DeckNotFound(site, url=link.url, status=status)
        if 300 <= status < 400:
            raise DeckSiteUnavailable(site, url=link.url, reason="redirect", status=status,
                                      location=(answer.location or "")[:200])
        if status >= 500:
            raise DeckSiteUnavailable(site, url=link.url, reason="server_error", status=status)
        raise DeckSiteUnavailable(site, url=link.url, reason="http_status", status=status)


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
