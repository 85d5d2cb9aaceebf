"""Deck links: which site and deck a URL names (`parse_deck_url`), and every way reading one can fail.
The user's URL is never fetched: the client builds the API URL from its configured base and the deck id."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit


class Site(StrEnum):
    ARCHIDEKT = "archidekt"
    MOXFIELD = "moxfield"

    @property
    def label(self) -> str:
        return self.value.capitalize()


_HOSTS = {host: site for site in Site for host in (f"{site.value}.com", f"www.{site.value}.com")}
# Per site: the deck page, the API path (after the configured base) and the deck id. Moxfield ids are 22
# URL-safe base64 characters; some slack, but not `personal`/`public` (other pages under /decks/).
PAGES = {Site.ARCHIDEKT: "https://archidekt.com/decks/{}", Site.MOXFIELD: "https://www.moxfield.com/decks/{}"}
API_PATHS = {Site.ARCHIDEKT: "/decks/{}/", Site.MOXFIELD: "/v3/decks/all/{}"}
_ID_RES = {Site.ARCHIDEKT: re.compile(r"^[0-9]{1,12}$"), Site.MOXFIELD: re.compile(r"^[A-Za-z0-9_-]{10,40}$")}
_BARE_HOST_RE = re.compile(r"^(?:www\.)?(?:archidekt|moxfield)\.com(?:[/?#]|$)", re.IGNORECASE)
_MAX_URL_LENGTH = 2048


class DeckSourceErrorCode(StrEnum):
    MALFORMED_URL = "malformed_url"  # a known site's URL without a deck id. data: reason, host, path
    PRIVATE = "private"  # the deck exists but is not public. data: status
    NOT_FOUND = "not_found"  # no such deck (or one the site hides completely). data: status
    NOT_A_DECK = "not_a_deck"  # the answer is not a deck. data: reason (malformed_json, shape, ...), detail
    TOO_LARGE = "too_large"  # the answer passed a cap. data: limit, unit ("bytes"/"entries"), size
    UNAVAILABLE = "unavailable"  # data: reason (timeout, unreachable, server_error, refused, redirect, ...)
    RATE_LIMITED = "rate_limited"  # the site answered 429 (or did recently); `retry_after` says when
    BUSY = "busy"  # the bot's own per-site limit: too many deck links at once; `retry_after` says when


class DeckSourceError(Exception):
    """Every deck-link failure: `code`, `site`, `url`, `retry_after` (seconds, or None) and `data` (details);
    `str()` is a summary for logs."""

    def __init__(
        self,
        code: DeckSourceErrorCode,
        site: Site | None,
        *,
        url: str | None = None,
        retry_after: float | None = None,
        **data: Any,
    ) -> None:
        self.code = code
        self.site = site
        self.url = url
        self.retry_after = retry_after
        self.data: dict[str, Any] = data
        details = ", ".join(f"{k}={v!r}" for k, v in data.items())
        super().__init__(
            f"{site.value if site else 'deck link'}: {code.value}"
            + (f" ({details})" if details else "")
            + (f", retry in {retry_after:.1f} s" if retry_after is not None else "")
        )

    @property
    def retry_after_seconds(self) -> int | None:
        """`retry_after` rounded up to whole seconds (at least 1), for "try again in N s"."""
        return None if self.retry_after is None else max(1, math.ceil(self.retry_after))


@dataclass(frozen=True, slots=True)
class DeckLink:
    """A recognised deck URL: the site and its deck id."""

    site: Site
    deck_id: str

    @property
    def url(self) -> str:
        return PAGES[self.site].format(self.deck_id)


def parse_deck_url(text: str) -> DeckLink | None:
    """An Archidekt (`/decks/<id>`, `/api/decks/<id>/`) or Moxfield (`/decks/<publicId>`) deck URL, with or
    without scheme or `www.`, optionally in Discord's `<...>`; None for anything else; MALFORMED_URL for a URL of
    those sites without a deck id."""
    value = text.strip()
    if value.startswith("<") and value.endswith(">"):
        value = value[1:-1].strip()
    if not value or len(value) > _MAX_URL_LENGTH or any(ch.isspace() for ch in value):
        return None
    if "://" not in value:
        if not _BARE_HOST_RE.match(value):
            return None
        value = "https://" + value
    try:
        parts = urlsplit(value)
        host = (parts.hostname or "").lower().rstrip(".")
    except ValueError:
        return None
    site = _HOSTS.get(host)
    if site is None or parts.scheme.lower() not in ("http", "https"):
        return None
    segments = [s for s in parts.path.split("/") if s]
    if site is Site.ARCHIDEKT and segments[:1] == ["api"]:
        segments = segments[1:]
    if len(segments) >= 2 and segments[0] == "decks" and _ID_RES[site].match(segments[1]):
        return DeckLink(site, str(int(segments[1])) if site is Site.ARCHIDEKT else segments[1])
    code = DeckSourceErrorCode.MALFORMED_URL
    raise DeckSourceError(code, site, url=value, reason="no_deck_id", host=host, path=parts.path or "/")
