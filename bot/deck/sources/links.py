"""Deck links: which site and deck a URL names (`parse_deck_url`), and every way reading one can fail.
The user's URL is never fetched: the client builds the request from its configured base and the deck id."""

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
    TAPPEDOUT = "tappedout"
    MTGGOLDFISH = "mtggoldfish"
    DECKSTATS = "deckstats"
    SCRYFALL = "scryfall"
    AETHERHUB = "aetherhub"
    TCGPLAYER = "tcgplayer"
    EDHREC = "edhrec"

    @property
    def label(self) -> str:
        return _LABELS.get(self, self.value.capitalize())


_LABELS = dict(tappedout="TappedOut", mtggoldfish="MTGGoldfish", tcgplayer="TCGplayer", edhrec="EDHREC")
_ID, _NUM, _SLUG = r"[A-Za-z0-9_-]{1,200}", r"[0-9]{1,12}", r"[A-Za-z0-9_%.-]{0,200}"
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
# Per site: its hosts (`www.` or `m.` in front dropped), its deck page (`{}`: the deck id) and the paths naming
# a deck (the groups that match, joined by "/", are the deck id).
# fmt: off
_TABLE = {
    Site.ARCHIDEKT: ("archidekt.com", "https://archidekt.com/decks/{}", rf"/(?:api/)?decks/0*({_NUM})"),
    Site.MOXFIELD: ("moxfield.com", "https://www.moxfield.com/decks/{}", r"/decks/([A-Za-z0-9_-]{10,40})"),
    Site.TAPPEDOUT: ("tappedout.net", "https://tappedout.net/mtg-decks/{}/", rf"/mtg-decks/(?!search/?$)({_ID})"),
    Site.MTGGOLDFISH: ("mtggoldfish.com", "https://www.mtggoldfish.com/deck/{}", rf"/deck/(?:download/|arena_download/|visual/)?({_NUM})"),
    Site.DECKSTATS: ("deckstats.net", "https://deckstats.net/decks/{}", rf"/decks/(?:({_NUM})/({_NUM}(?:-{_SLUG})?)|({_NUM}-{_SLUG}))"),
    Site.SCRYFALL: ("scryfall.com", "https://scryfall.com/@{}", rf"/@([A-Za-z0-9_.-]{{1,64}}/decks/{_UUID})"),
    Site.AETHERHUB: ("aetherhub.com", "https://aetherhub.com/Deck/{}", rf"/Deck/((?:Public/|MtgoDeck/)?{_ID})"),
    Site.TCGPLAYER: ("tcgplayer.com infinite.tcgplayer.com decks.tcgplayer.com", "https://infinite.tcgplayer.com/magic-the-gathering/deck/{}",
                     rf"/(?:(?:content/)?magic-the-gathering/deck|magic/{_ID}/{_ID})/({_ID})/({_NUM})"),
    Site.EDHREC: ("edhrec.com", "https://edhrec.com/average-decks/{}", r"/average-decks/([a-z0-9-]{1,200}(?:/[a-z0-9-]{1,40})?)"),
}
# fmt: on
PAGES = {site: page for site, (_hosts, page, _path) in _TABLE.items()}
_PATHS = {site: re.compile(f"^{path}(?:/|$)") for site, (_hosts, _page, path) in _TABLE.items()}
_HOSTS = {host: site for site, (hosts, _page, _path) in _TABLE.items() for host in hosts.split()}
_MAX_URL_LENGTH = 2048


class DeckSourceErrorCode(StrEnum):
    MALFORMED_URL = "malformed_url"  # a known site's URL without a deck id. data: reason, host, path
    ARCHETYPE = "archetype"  # an MTGGoldfish archetype page: a summary of many decks, not a deck
    PRIVATE = "private"  # the deck exists but is not public. data: status
    NOT_FOUND = "not_found"  # no such deck (or one the site hides completely). data: status
    NOT_A_DECK = "not_a_deck"  # the answer is not a deck. data: reason (malformed_json, shape, ...), detail
    TOO_LARGE = "too_large"  # the answer passed a cap. data: limit, unit ("bytes"/"entries"), size
    REFUSED = "refused"  # the site's anti-bot protection answered (a challenge or a 403 page). data: status
    UNAVAILABLE = "unavailable"  # data: reason (timeout, unreachable, server_error, redirect, ...)
    RATE_LIMITED = "rate_limited"  # the site answered 429 (or did recently); `retry_after` says when
    BUSY = "busy"  # the bot's own per-site limit: too many deck links at once; `retry_after` says when


class DeckSourceError(Exception):
    """Every deck-link failure: `code`, `site`, `url`, `retry_after` (s or None), `data`; `str()` for logs."""

    def __init__(
        self,
        code: DeckSourceErrorCode,
        site: Site | None,
        *,
        url: str | None = None,
        retry_after: float | None = None,
        **data: Any,
    ) -> None:
        self.code, self.site, self.url, self.retry_after = code, site, url, retry_after
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
    """A recognised deck URL: the site and its deck id (the path parts that name the deck)."""

    site: Site
    deck_id: str

    @property
    def url(self) -> str:
        return PAGES[self.site].format(self.deck_id)


def parse_deck_url(text: str) -> DeckLink | None:
    """The deck a URL of a known site names, with or without scheme or `www.`, with any query or fragment,
    optionally in Discord's `<...>`; None for anything else; MALFORMED_URL for a site's URL naming no deck
    (ARCHETYPE for an MTGGoldfish archetype)."""
    value = text.strip()
    if value.startswith("<") and value.endswith(">"):
        value = value[1:-1].strip()
    if not value or len(value) > _MAX_URL_LENGTH or any(ch.isspace() for ch in value):
        return None
    if "://" not in value:
        value = "https://" + value
    try:
        parts = urlsplit(value)
        host = (parts.hostname or "").lower().rstrip(".")
    except ValueError:
        return None
    site = _HOSTS.get(host) or _HOSTS.get(host.split(".", 1)[1] if host.startswith(("www.", "m.")) else "")
    if site is None or parts.scheme.lower() not in ("http", "https") or "@" in parts.netloc:
        return None
    path = re.sub(r"/{2,}", "/", parts.path)
    if found := _PATHS[site].match(path):
        deck_id = "/".join(part for part in found.groups() if part)
        return DeckLink(site, str(int(deck_id)) if site is Site.ARCHIDEKT else deck_id)
    archetype = site is Site.MTGGOLDFISH and path.startswith("/archetype/")
    code = DeckSourceErrorCode.ARCHETYPE if archetype else DeckSourceErrorCode.MALFORMED_URL
    reason = "archetype" if archetype else "no_deck_id"
    raise DeckSourceError(code, site, url=value, reason=reason, host=host, path=parts.path or "/")
