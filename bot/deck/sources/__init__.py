"""Deck links: read a public Archidekt or Moxfield deck and turn it into a `ParsedDeck`.

- `links`: which site and deck a URL names (`parse_deck_url`), and `DeckSourceError` with its codes;
- `archidekt`, `moxfield`: each site's answer read into a `FetchedDeck` (`result`);
- `fetch`: `DeckSites`, the polite HTTP client (rate, lockout, caps, cache, shared fetches).
"""

from bot.deck.sources.fetch import DeckSites
from bot.deck.sources.links import DeckLink, DeckSourceError, DeckSourceErrorCode, Site, parse_deck_url
from bot.deck.sources.result import FetchedDeck

__all__ = [
    "DeckLink",
    "DeckSites",
    "DeckSourceError",
    "DeckSourceErrorCode",
    "FetchedDeck",
    "Site",
    "parse_deck_url",
]
