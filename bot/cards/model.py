"""Types shared by the Scryfall client, the cache, the card service and the cogs."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from bot.cards.names import choice_name, names_card

if TYPE_CHECKING:
    from bot.cards.cache import CardRow

Source = Literal["cache", "local", "api", "stale"]

MAX_SUGGESTIONS = 5  # "did you mean" names a not-found answer carries
MAX_COLLECTION = 75  # identifiers one Scryfall /cards/collection request takes
MAX_CHOICES = 25  # names one autocomplete answer offers (Discord shows at most 25)
STALE_DAYS = 3.0  # local bulk data older than this is called out in replies, and says no "no such card"


@dataclass(frozen=True, slots=True)
class Resolved:
    """A card the service found: the Scryfall card object; its source ("cache"/"local": no network, "api",
    "stale": Scryfall failed and an expired entry was served); the local data's age when it answered; the
    printed name it was found by, as typed (`Foudre`; None for its English name)."""

    card: dict[str, Any]
    source: Source
    data_age_days: float | None = None
    printed: str | None = None

    @property
    def stale(self) -> bool:
        return self.source == "stale"

    @property
    def name(self) -> str:
        return str(self.card.get("name", ""))

    def typed(self, query: str) -> str | None:
        """What was typed when it is not the card's own name, for replies to show beside the card used: a
        name printed in another language, part of the name, a slip. None when `query` names the card (folded,
        a face's or flavor name, or an autocomplete choice cut to Discord's 100 characters)."""
        if self.printed:
            return self.printed
        text = " ".join(query.split())
        return None if names_card(text, self.card) or text == choice_name(self.name) else text


@dataclass(slots=True)
class Batch:
    """What `CardService.resolve_many` made of typed names, each in one of: `found` (the card whose full or
    face name it is, never a look-alike); `missing` (Scryfall says no card has that name, now or within
    NEGATIVE_TTL; close names); `unavailable` (why it could not be looked up while local data lacks it).
    `suggestions`: the closest names of every name not found, best first, never used in its place."""

    found: dict[str, Resolved] = field(default_factory=dict)
    missing: dict[str, list[str]] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)
    suggestions: dict[str, list[str]] = field(default_factory=dict)


class CardLookupError(Exception):
    """Base class of every error the card service raises to its callers."""


@dataclass
class BadCardName(CardLookupError):
    """Input that can't be a card name ("empty", or "too_long" at `length`); nothing is looked up."""

    query: str
    problem: Literal["empty", "too_long"]
    length: int = 0
    option: str | None = None  # the command option it was typed in, when there were several

    def __str__(self) -> str:
        return f"not a card name ({self.problem})"


@dataclass
class CardNotFound(CardLookupError):
    """No card matches `query`; `suggestions` holds up to a few close names, best first."""

    query: str
    suggestions: list[str] = field(default_factory=list)
    option: str | None = None

    def __str__(self) -> str:
        return f"no card named {self.query!r}"


@dataclass
class AmbiguousCard(CardLookupError):
    """`query` matches several cards; `candidates` holds names, best first."""

    query: str
    candidates: list[str] = field(default_factory=list)
    option: str | None = None

    def __str__(self) -> str:
        return f"{self.query!r} matches several cards"


@dataclass
class ScryfallUnavailable(CardLookupError):
    """Scryfall could not answer (timeout, 5xx, connection refused, rate-limited, bad JSON)."""

    reason: str
    retry_after: float | None = None

    def __str__(self) -> str:
        return f"Scryfall unavailable: {self.reason}"


class ScryfallBusy(ScryfallUnavailable):
    """This lookup would wait past its deadline for a request turn; `retry_after`: when one is free."""


class Mode(StrEnum):
    """What a lookup is for; the value is the key under which answers are remembered in the cache."""

    CARD = "fuzzy"
    COMMANDER = "commander"


@dataclass(slots=True)
class Miss:
    """What the local steps learnt about a name they could not answer."""

    stale: CardRow | None = None
    suggestions: list[str] = field(default_factory=list)
    printed: str | None = None  # the English name of the one card the text names in another language
