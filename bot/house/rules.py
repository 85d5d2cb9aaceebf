"""One server's house rules as data: the cards it bans (each by oracle id, or by name for a card without one)
and the bracket it plays. Matching a card is two set lookups in memory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.cards.names import normalize
from bot.deck.brackets import BRACKETS, limits
from bot.deck.check import card_key

Card = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Ban:
    """A house-banned card: `key` its oracle id (its name when it has none), `name` as it was banned."""

    key: str
    name: str


def ban_of(card: Card) -> Ban:
    """The ban of `card` (by its oracle id, as the deck check tells cards apart)."""
    return Ban(card_key(card), str(card.get("name") or ""))


@dataclass(frozen=True, slots=True)
class Rules:
    """A server's house rules: `bans` sorted by name, `bracket` (1-5) or None."""

    bans: tuple[Ban, ...] = ()
    bracket: int | None = None
    _keys: frozenset[str] = field(init=False, repr=False, compare=False)
    _names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.bracket is not None and self.bracket not in BRACKETS:
            raise ValueError(f"bracket {self.bracket} is not one of {BRACKETS}")
        object.__setattr__(self, "_keys", frozenset(b.key for b in self.bans))
        object.__setattr__(self, "_names", frozenset(normalize(b.name) for b in self.bans))

    @property
    def empty(self) -> bool:
        return not self.bans and self.bracket is None

    @property
    def ban_count(self) -> int:
        return len(self.bans)

    def banned(self, card: Card) -> bool:
        """Whether the rules ban `card`: by its oracle id, or by its name (a printing without an oracle id)."""
        if not self.bans:
            return False
        return card_key(card) in self._keys or normalize(str(card.get("name") or "")) in self._names

    def find(self, card: Card | None, typed: str) -> Ban | None:
        """The ban of `card` (by oracle id or name), else of the name `typed` (a card since renamed)."""
        norms = {normalize(typed)} | ({normalize(str(card.get("name") or ""))} if card is not None else set())
        key = card_key(card) if card is not None else None
        return next((b for b in self.bans if b.key == key or normalize(b.name) in norms), None)

    def at_fit(self, card: Card, commanders: Sequence[Card]) -> FitHere:
        """What the rules say of `card` in a deck led by `commanders` (/fits)."""
        banned = tuple(str(c.get("name")) for c in [card, *commanders] if self.banned(c))
        limited = self.bracket is not None and limits(self.bracket, card)
        return FitHere(banned, self.bracket if limited else None)


@dataclass(frozen=True, slots=True)
class FitHere:
    """The house rules on one /fits: the card and commanders the server bans; its bracket when that bracket
    limits the card (a Game Changer where they are limited, a guideline the bracket doesn't allow)."""

    banned: tuple[str, ...] = ()
    bracket: int | None = None


NO_RULES = Rules()
