"""The engine's data types: results, verdicts and the partner summary. Pure data, importing only `symbols`;
other layers and outside checks rely on these attribute names."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import quote, unquote

from bot.identity.symbols import WUBRG as WUBRG
from bot.identity.symbols import Symbol, SymbolKind
from bot.identity.symbols import wubrg as wubrg

COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}  # CR 105.1


class IdentityError(ValueError):
    """Raised by the engine for input that is not a card object at all (e.g. not a dict)."""


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
    """Why an object is not a card you put in a deck."""

    TOKEN = "token"  # made by effects (CR 111)
    EMBLEM = "emblem"  # CR 114
    MELD_RESULT = "meld result"  # the back halves of two meld cards (CR 712)
    VANGUARD = "vanguard"  # CR 902
    PLANE = "plane"  # planes and phenomena (CR 901)
    SCHEME = "scheme"  # CR 904
    ART_CARD = "art card"
    FRONT_CARD = "front card"  # Jumpstart
    CHECKLIST = "checklist or substitute card"  # type line just "Card" (substitutes: CR 713)
    DUNGEON = "dungeon"  # starts outside the game (CR 309)


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


class TextPlace(StrEnum):
    """Where in a rules-text line a mana symbol sits."""

    ACTIVATED_COST = "activated ability cost"  # before the colon of an activated ability (CR 602.1)
    KEYWORD_COST = "keyword cost"  # "Flashback {5}{B}", "Suspend 4—{1}{R}": `Reason.keyword` names it
    MANA_ABILITY = "mana ability"  # the mana an activated mana ability adds (CR 605)
    MANA_ADDED = "mana added"  # "add {G}" outside an activated ability (triggered, static)
    COST_ASKED = "cost asked"  # "unless its controller pays {3}{U}"
    COST_CHANGE = "cost change"  # "costs {U} less to cast"
    GRANTED_COST = "granted ability cost"  # the cost of an ability the card grants ("have \"{2}{G}: ...\"")
    GRANTED_MANA_ABILITY = "granted mana ability"  # "have \"{T}: Add {B}.\""
    GRANTED_ABILITY = "granted ability"  # elsewhere in a quoted ability the card grants
    TEXT = "rules text"  # anywhere else in the rules text


class CdaKind(StrEnum):
    """A color-setting characteristic-defining ability (CR 604.3, 702.114a)."""

    ALL_COLORS = "all colors"  # "<this> is all colors."
    COLORLESS = "colorless"  # "<this> is colorless."
    DEVOID = "devoid"  # Devoid (CR 702.114a)


class FaceRole(StrEnum):
    """What a face or part is to its card: which parts give the card its colors."""

    ONLY = "only"  # a one-part card
    FRONT = "front"  # front face of a two-sided card: the card's colors are its (CR 712.8a)
    BACK = "back"  # back face: counts for color identity only (CR 903.4d)
    HALF = "half"  # half of a split card or a flip card's part: colors count (CR 709.4, 710)
    MAIN = "main"  # main part of an adventurer, omen or preparation card (CR 715.4, 720, 722.4)
    ALTERNATIVE = "alternative"  # its Adventure/Omen part: counts for color identity only (CR 903.4e)


class Note(StrEnum):
    """Facts about a whole card that explanations need."""

    TOKEN_COLORS_UNRECORDED = "token colors unrecorded"  # a token/emblem whose data records no colors
    CHOOSES_COLOR = "chooses a color"  # CR 903.4b: its owner chooses a color before the game
    COLOR_NOT_IDENTITY = "color not identity"  # Devoid / "is colorless" change color only (CR 604.3)
    CDA_KEEPS_IDENTITY = "cda keeps identity"  # "This ability doesn't affect its color identity" (CR 101.1)


@dataclass(frozen=True, slots=True)
class Reason:
    """One piece of evidence: `color` (of `aspect`) is on this card because of `kind` on `face`."""

    color: str  # "" when `removes`
    aspect: Aspect
    kind: ReasonKind
    face: str  # the face/part it sits on (the card name for one-part cards)
    symbol: str | None = None  # the mana symbol as printed, e.g. "{B/P}"
    text: str | None = None  # its line (mana cost, rules text without reminder text, type line, the CDA)
    removes: bool = False  # a CDA that takes colors away (Devoid, "is colorless")
    symbol_kind: SymbolKind | None = None
    place: TextPlace | None = None  # where in a rules-text line the symbol sits
    keyword: str | None = None  # "Flashback", for KEYWORD_COST
    land: str | None = None  # "Forest", for BASIC_LAND_TYPE
    cda: CdaKind | None = None


@dataclass(frozen=True, slots=True)
class FaceAnalysis:
    """One face or part: its own colors and identity, its printed mana cost and type line, its role."""

    name: str
    colors: str
    identity: str
    mana_cost: str = ""
    type_line: str = ""
    role: FaceRole = FaceRole.ONLY


@dataclass(frozen=True, slots=True)
class Analysis:
    """What `analyze(card)` returns; `colors` and `identity` are WUBRG strings ("" = colorless)."""

    name: str
    colors: str
    identity: str
    reasons: tuple[Reason, ...] = ()
    faces: tuple[FaceAnalysis, ...] = ()
    chooses_color: bool = False  # CR 903.4b: owner chooses a color before the game
    notes: tuple[Note, ...] = ()
    not_deck_card: NonDeckKind | None = None  # set for tokens, emblems, meld results, planes, ...
    reminder_symbols: tuple[Symbol, ...] = ()  # colored symbols only in reminder text: ignored (CR 903.4c)
    color_words: str = ""  # colors its rules text names in words (never part of identity, CR 903.4)

    @property
    def deck_card(self) -> bool:
        return self.not_deck_card is None

    def reasons_for(self, color: str, aspect: Aspect | str = Aspect.IDENTITY) -> tuple[Reason, ...]:
        return tuple(r for r in self.reasons if r.color == color and r.aspect == aspect)

    @property
    def color_reasons(self) -> tuple[Reason, ...]:
        return tuple(r for r in self.reasons if r.aspect is Aspect.COLOR)

    @property
    def identity_reasons(self) -> tuple[Reason, ...]:
        return tuple(r for r in self.reasons if r.aspect is Aspect.IDENTITY)


class PairingKind(StrEnum):
    """One partner ability (CR 702.124a) or the card type it looks for; values are `encode()`'s codes."""

    PARTNER = "P"  # CR 702.124h
    PARTNER_TEXT = "V"  # CR 702.124i, with the variant text
    PARTNER_WITH = "W"  # CR 702.124j, with the partner's name
    CHOOSE_BACKGROUND = "C"  # CR 702.124k
    BACKGROUND = "B"  # a legendary Background enchantment card (what Choose a Background looks for)
    DOCTORS_COMPANION = "D"  # CR 702.124m
    TIME_LORD_DOCTOR = "T"  # a legendary Time Lord Doctor creature card with no other creature types


_CODES = frozenset(PairingKind)  # StrEnum members are equal to their one-letter codes
_WITH_TEXT = frozenset({PairingKind.PARTNER_TEXT, PairingKind.PARTNER_WITH})
_SAFE = " ,'&!-./\u2019"


@dataclass(frozen=True, slots=True, order=True)
class PairingTrait:
    """One partner ability: its kind, and the text of partner—[text] or the name of partner with."""

    kind: PairingKind
    text: str = ""


@dataclass(frozen=True, slots=True)
class PairingTraits:
    """All that decides whom a card pairs with (CR 702.124); `encode()`/`decode()` round-trip (cache)."""

    traits: frozenset[PairingTrait] = frozenset()  # with BACKGROUND, TIME_LORD_DOCTOR: what abilities seek
    names: frozenset[str] = frozenset()  # the names it answers to, kept only when it has "partner with"

    def __bool__(self) -> bool:
        return bool(self.traits)

    def has(self, kind: PairingKind) -> bool:
        return any(t.kind is kind for t in self.traits)

    def texts(self, kind: PairingKind) -> tuple[str, ...]:
        return tuple(sorted(t.text for t in self.traits if t.kind is kind))

    def encode(self) -> str:
        """Sorted traits then names, ";"-separated, texts percent-escaped: "D;W:Rory Williams;N:Amy Pond"."""
        parts = [
            f"{t.kind.value}:{quote(t.text, safe=_SAFE)}" if t.kind in _WITH_TEXT else t.kind.value
            for t in sorted(self.traits)
        ]
        parts.extend(f"N:{quote(n, safe=_SAFE)}" for n in sorted(self.names))
        return ";".join(parts)

    @classmethod
    def decode(cls, text: str) -> PairingTraits:
        """The summary `encode()` wrote. Raises `IdentityError` for text it could not have written."""
        if not isinstance(text, str):
            raise IdentityError(f"pairing traits are stored as text, got {type(text).__name__}")
        if not text:
            return cls()
        traits: set[PairingTrait] = set()
        names: set[str] = set()
        for part in text.split(";"):
            code, sep, value = part.partition(":")
            if code == "N" and sep:
                names.add(unquote(value))
                continue
            if code not in _CODES or (code in _WITH_TEXT) != bool(sep) or (sep and not value):
                raise IdentityError(f"not a pairing trait: {part!r}")
            traits.add(PairingTrait(PairingKind(code), unquote(value)))
        return cls(frozenset(traits), frozenset(names))


class VerdictCode(StrEnum):
    """Why a commander verdict (`commander_eligibility`, `check_pairing`) came out as it did."""

    # commander_eligibility (CR 903.3, 903.3a)
    LEGENDARY_CREATURE = "legendary creature"
    SAYS_IT_CAN = "text says it can be your commander"  # CR 903.3a
    CREATURE_OFF_BATTLEFIELD = "legendary creature while not on the battlefield"  # Grist, the Hunger Tide
    LEGENDARY_VEHICLE = "legendary Vehicle"
    LEGENDARY_SPACECRAFT = "legendary Spacecraft with a power/toughness box"
    SPACECRAFT_WITHOUT_BOX = "legendary Spacecraft without a power/toughness box"
    BACKGROUND_ALONE = "Background without a Choose a Background commander"  # CR 702.124k
    LEGENDARY_NOT_CREATURE = "legendary, not a creature"
    CREATURE_NOT_LEGENDARY = "creature, not legendary"
    NEITHER = "neither legendary nor a creature"
    NOT_A_DECK_CARD = "not a deck card"  # `Verdict.not_deck_card` says what it is
    # check_pairing (CR 702.124)
    PAIRED = "paired"  # `pairing` is the partner ability that pairs them
    PAIRED_BUT_INELIGIBLE = "paired, but one can't be a commander"  # `cause`: the failing eligibility verdict
    SAME_CARD = "the same card twice"
    PARTNER_WITH_OTHER = "partner with names another card"  # `card` has only "Partner with <trait.text>"
    PARTNER_WITH_ONE_WAY = "partner with, but not both ways"  # `card` names `other`, not named back
    VARIANT_ONLY = "partner variant without its match"  # `card` has only Partner—<trait.text>
    NO_SHARED_ABILITY = "no shared partner ability"  # `traits` shows what each card has


@dataclass(frozen=True, slots=True)
class Verdict:
    """A yes/no answer with its reason as facts."""

    ok: bool
    code: VerdictCode
    card: str = ""  # the card judged, or for a pair the card the reason is about
    other: str = ""  # the other card of a pair
    banned: bool = False  # banned in Commander (eligibility is about the rules, not the ban list)
    not_deck_card: NonDeckKind | None = None
    pairing: PairingKind | None = None  # the partner ability that pairs them
    variant: str = ""  # the shared Partner—[text] variant
    trait: PairingTrait | None = None  # the one partner ability of `card` that decides a failed pairing
    traits: tuple[PairingTraits, ...] = ()  # the summaries of (`card`, `other`)
    cause: Verdict | None = None  # PAIRED_BUT_INELIGIBLE: the failing eligibility verdict


@dataclass(frozen=True, slots=True)
class ColorChoice:
    """Commander number `index` (0 or 1, named `commander`) choosing `color` before the game (CR 903.4b)."""

    commander: str
    index: int
    color: str


@dataclass(frozen=True, slots=True)
class FitResult:
    """Whether a card fits a deck led by one or two commanders (CR 903.5c), counting colors `chosen`."""

    fits: bool
    card: Analysis
    commanders: tuple[Analysis, ...]
    deck_identity: str
    outside: str  # identity colors of the card not in deck_identity, WUBRG order
    evidence: dict[str, tuple[Reason, ...]]  # outside color -> the card's identity reasons for it
    verdict: FitVerdict = FitVerdict.FITS
    blockers: tuple[DeckBlocker, ...] = ()  # DECK_CANT_EXIST: why, strongest first
    choice_options: tuple[tuple[ColorChoice, ...], ...] = ()  # FITS_IF_CHOSEN: every way open choices fit it
    chosen: tuple[str | None, ...] = ()
    commander_problems: tuple[Verdict, ...] = ()  # failing verdicts about the commanders, each once
    banned_commanders: tuple[str, ...] = ()
    open_choices: tuple[int, ...] = ()  # commanders that choose a color (CR 903.4b) and weren't given one
