"""Result types of the identity engine. Pure data; no I/O.

Other parts of the bot (embeds, deck check) and outside checks rely on these attribute names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

WUBRG = "WUBRG"
COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def wubrg(colors: object) -> str:
    """Canonical WUBRG-ordered string for any iterable of color letters (unknown letters dropped)."""
    found = set(colors) if isinstance(colors, Iterable) else set()
    return "".join(c for c in WUBRG if c in found)


class ReasonKind(StrEnum):
    """Which part of the card a color comes from."""

    MANA_COST = "mana cost"  # CR 202.2 / 903.4
    RULES_TEXT = "rules text"  # CR 903.4 (mana symbols in rules text, reminder text excluded: 903.4c)
    COLOR_INDICATOR = "color indicator"  # CR 204
    CDA = "characteristic-defining ability"  # CR 604.3 ("is all colors", "is colorless", Devoid)
    BASIC_LAND_TYPE = "basic land type"  # CR 903.5d / 305.6
    CHOSEN_COLOR = "chosen color"  # CR 903.4b (commander chooses a color before the game)
    TOKEN_COLOR = "token color"  # tokens/emblems: color comes from the effect that makes them


class Aspect(StrEnum):
    COLOR = "color"
    IDENTITY = "identity"


class NonDeckKind(StrEnum):
    """Why an object is not a card you put in a deck (a fact the presentation layer words).

    Tokens and emblems are made by effects (CR 111, 114); a meld result is the back halves of two meld
    cards (CR 712, meld), never a card of its own; vanguards (CR 902), planes and phenomena (CR 901) and schemes
    (CR 904) belong to their own variants; art cards, Jumpstart front cards and cards whose type line is just
    "Card" (checklists, substitute cards for double-faced cards (CR 713), helper cards such as The Monarch)
    are inserts, not game cards; a dungeon (CR 309) starts outside the game.
    """

    TOKEN = "token"
    EMBLEM = "emblem"
    MELD_RESULT = "meld result"
    VANGUARD = "vanguard"
    PLANE = "plane"
    SCHEME = "scheme"
    ART_CARD = "art card"
    FRONT_CARD = "front card"
    CHECKLIST = "checklist or substitute card"
    DUNGEON = "dungeon"


class FitVerdict(StrEnum):
    """The outcome of `check_fit` as a fact (CR 903.5c, 903.4b, 903.3, 702.124)."""

    FITS = "fits"
    DOES_NOT_FIT = "does not fit"
    FITS_IF_CHOSEN = "fits if chosen"  # a commander that chooses a color before the game could make it fit
    DECK_CANT_EXIST = "deck can't exist"  # see `FitResult.blockers`


class DeckBlocker(StrEnum):
    """Why no legal deck holds this card under these commanders (`FitVerdict.DECK_CANT_EXIST`)."""

    COMMANDER_INELIGIBLE = "commander can't be a commander"  # CR 903.3
    PAIR_INVALID = "commanders can't be paired"  # CR 702.124
    COMMANDER_BANNED = "commander banned"  # Scryfall legalities.commander == "banned"
    CARD_BANNED = "card banned"
    NOT_A_DECK_CARD = "card is not a deck card"  # see NonDeckKind


@dataclass(frozen=True, slots=True)
class Reason:
    """One piece of evidence: `color` is on this card because of `symbol` in `kind` of `face`.

    - `aspect`: whether this explains the card's color or its color identity.
    - `face`: name of the face/part the evidence sits on (the card name for one-part cards).
    - `symbol`: the mana symbol as printed, e.g. "{B/P}"; None for indicators, CDAs, land types.
    - `text`: the line it sits in (a rules-text line, the mana cost, the type line, the CDA sentence).
    - `detail`: a short human phrase, e.g. "flashback cost", "activated ability", "Forest".
    - `removes`: True for a CDA that takes colors away (Devoid, "is colorless"); then `color` is "".
    """

    color: str
    aspect: Aspect
    kind: ReasonKind
    face: str
    symbol: str | None = None
    text: str | None = None
    detail: str | None = None
    removes: bool = False


@dataclass(frozen=True, slots=True)
class FaceAnalysis:
    name: str
    colors: str
    identity: str
    mana_cost: str = ""


@dataclass(frozen=True, slots=True)
class Analysis:
    """What `bot.identity.analyze(card)` returns.

    `colors` and `identity` are WUBRG-ordered strings ("" = colorless).
    """

    name: str
    colors: str
    identity: str
    reasons: tuple[Reason, ...] = ()
    faces: tuple[FaceAnalysis, ...] = ()
    chooses_color: bool = False  # CR 903.4b: owner chooses a color before the game
    notes: tuple[str, ...] = field(default=())
    not_deck_card: NonDeckKind | None = None  # set for tokens, emblems, meld results, planes, ...

    @property
    def deck_card(self) -> bool:
        """Whether this object is a card you can put in a deck (False for tokens, meld results, ...)."""
        return self.not_deck_card is None

    def reasons_for(self, color: str, aspect: Aspect | str = Aspect.IDENTITY) -> tuple[Reason, ...]:
        aspect = Aspect(aspect)
        return tuple(r for r in self.reasons if r.color == color and r.aspect is aspect)

    @property
    def color_reasons(self) -> tuple[Reason, ...]:
        return tuple(r for r in self.reasons if r.aspect is Aspect.COLOR)

    @property
    def identity_reasons(self) -> tuple[Reason, ...]:
        return tuple(r for r in self.reasons if r.aspect is Aspect.IDENTITY)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A yes/no answer with a reason sentence (commander eligibility, partner pairing)."""

    ok: bool
    reason: str


@dataclass(frozen=True, slots=True)
class ColorChoice:
    """Commander number `index` (0 or 1, named `commander`) choosing `color` before the game (CR 903.4b)."""

    commander: str
    index: int
    color: str


@dataclass(frozen=True, slots=True)
class FitResult:
    """Whether a card fits a deck led by one or two commanders (CR 903.5c).

    - `fits`, `outside`, `deck_identity`: judged with the colors already chosen (`chosen`) counted.
    - `verdict`: FITS, DOES_NOT_FIT, FITS_IF_CHOSEN (then `choice_options` lists every way the open color
      choices make it fit: each option is one `ColorChoice` per commander that must choose), or
      DECK_CANT_EXIST (then `blockers` says why, strongest first).
    - `chosen`: one entry per commander, the color letter it chose or None.
    """

    fits: bool
    card: Analysis
    commanders: tuple[Analysis, ...]
    deck_identity: str
    outside: str  # identity colors of the card not in deck_identity, WUBRG order
    evidence: dict[str, tuple[Reason, ...]]  # outside color -> the card's identity reasons for it
    warnings: tuple[str, ...] = ()
    verdict: FitVerdict = FitVerdict.FITS
    blockers: tuple[DeckBlocker, ...] = ()
    choice_options: tuple[tuple[ColorChoice, ...], ...] = ()
    chosen: tuple[str | None, ...] = ()


class IdentityError(ValueError):
    """Raised by the engine for input that is not a card object at all (e.g. not a dict)."""
