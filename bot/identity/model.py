"""Result types of the identity engine. Pure data; no I/O.

Other parts of the bot (embeds, deck check) and outside checks rely on these attribute names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

WUBRG = "WUBRG"
COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def wubrg(colors: object) -> str:
    """Canonical WUBRG-ordered string for any iterable of color letters (unknown letters dropped)."""
    found = set(colors)  # type: ignore[arg-type]
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
class FitResult:
    """Whether a card fits a deck led by one or two commanders (CR 903.5c)."""

    fits: bool
    card: Analysis
    commanders: tuple[Analysis, ...]
    deck_identity: str
    outside: str  # identity colors of the card not in deck_identity, WUBRG order
    evidence: dict[str, tuple[Reason, ...]]  # outside color -> the card's identity reasons for it
    warnings: tuple[str, ...] = ()


class IdentityError(ValueError):
    """Raised by the engine for input that is not a card object at all (e.g. not a dict)."""
