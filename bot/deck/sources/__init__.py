"""Deck links: read a public deck of Archidekt, Moxfield, TappedOut, MTGGoldfish, Deckstats, Scryfall, Aetherhub,
TCGplayer or an EDHREC average deck (`links`: which deck a URL names; `result` and `pages`: each site's answer
read; `fetch`: the polite client `DeckSites`)."""

from bot.deck.sources.fetch import DeckSites as DeckSites
from bot.deck.sources.links import DeckLink as DeckLink
from bot.deck.sources.links import DeckSourceError as DeckSourceError
from bot.deck.sources.links import DeckSourceErrorCode as DeckSourceErrorCode
from bot.deck.sources.links import Site as Site
from bot.deck.sources.links import parse_deck_url as parse_deck_url
from bot.deck.sources.result import FetchedDeck as FetchedDeck
