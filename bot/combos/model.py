"""Commander Spellbook's combos as facts (no words), in Spellbook's own codes (`ZoneLocation`, `Feature.Status`,
`Variant.BracketTag` of SpaceCowMedia/commander-spellbook-backend), read from a variant of its export by
`COMBO` (pydantic), and `classify`: a combo of a deck judged as Spellbook's `estimate_bracket` judges it
(docs/brackets.md, "Two-card combos (Commander Spellbook)")."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from pydantic import AliasChoices, AliasPath, BeforeValidator, ConfigDict, Field, TypeAdapter
from pydantic import dataclasses as exported
from pydantic.alias_generators import to_camel

from bot.cards.names import normalize

# Fields read by name or by the export's camelCase name; texts cut, codes this bot does not know dropped.
EXPORT = ConfigDict(alias_generator=to_camel, validate_by_name=True, validate_by_alias=True)
Text = Annotated[str, BeforeValidator(lambda text: text[:2000] if isinstance(text, str) else text)]
Count = Annotated[int, Field(ge=0, lt=1 << 53, strict=True)]


class Zone(StrEnum):
    """Where a card starts."""

    HAND, BATTLEFIELD, COMMAND_ZONE, EXILE, GRAVEYARD, LIBRARY = "H", "B", "C", "E", "G", "L"


class FeatureStatus(StrEnum):
    """A result's kind; STANDALONE: a result on its own (a win, infinite damage, a lock)."""

    HIDDEN_UTILITY, PUBLIC_UTILITY, HELPER, CONTEXTUAL, STANDALONE = "HU", "PU", "H", "C", "S"


class BracketTag(StrEnum):
    """Spellbook's tag of a combo; `bracket`: the bracket Spellbook maps it to (None: BANNED in Commander)."""

    RUTHLESS, SPICY, POWERFUL, ODDBALL, CORE, EXHIBITION, BANNED = "R", "S", "P", "O", "C", "E", "B"

    @property
    def bracket(self) -> int | None:
        return {"R": 4, "S": 3, "P": 3, "O": 2, "C": 2, "E": 1}.get(self.value)


def _known(codes: type[StrEnum]) -> Any:
    known = frozenset(codes)
    return BeforeValidator(
        lambda v: [c for c in v if c in known] if isinstance(v, list) else v if v in known else None
    )


def _nested(name: str, *paths: str) -> Any:
    return AliasChoices(name, *(AliasPath(path, name) for path in paths))


@exported.dataclass(frozen=True, slots=True, config=EXPORT)
class Piece:
    """A card a combo uses, or a template it requires (any card that fits its description)."""

    name: Text = Field(min_length=1, validation_alias=_nested("name", "card", "template"))
    zone_locations: Annotated[tuple[Zone, ...], _known(Zone)] = ()  # where it may start
    must_be_commander: bool = False
    quantity: Count = 1


@exported.dataclass(frozen=True, slots=True, config=EXPORT)
class Feature:
    name: Text = Field(validation_alias=_nested("name", "feature"))
    status: Annotated[FeatureStatus | None, _known(FeatureStatus)] = Field(
        None, validation_alias=_nested("status", "feature")
    )


@exported.dataclass(frozen=True, slots=True, config=EXPORT)
class Combo:
    """One Commander Spellbook variant, the fields the bot keeps."""

    id: str = Field(min_length=1, max_length=128)
    uses: tuple[Piece, ...] = Field(min_length=1)
    requires: tuple[Piece, ...] = ()  # templates
    produces: tuple[Feature, ...] = ()
    mana_value_needed: Count | None = None  # None: not given (Spellbook's "example" variants)
    notable_prerequisites: Text = ""
    identity: Text = ""  # WUBRG letters, "C" colorless
    bracket_tag: Annotated[BracketTag | None, _known(BracketTag)] = None
    popularity: Count | None = None  # EDHREC decks holding it

    @property
    def url(self) -> str:
        return f"https://commanderspellbook.com/combo/{self.id}/"


COMBO = TypeAdapter(Combo)  # validate_python(an exported variant), dump_json / validate_json: the stored form


@dataclass(frozen=True, slots=True)
class ComboFindings:
    """A deck's combos, most popular first; `checked` False: no combo data (never imported, or every download
    failed), so combos were not checked."""

    checked: bool
    combos: tuple[Combo, ...] = ()
    imported_at: float | None = None  # of the combo data (epoch seconds)


@dataclass(frozen=True, slots=True)
class ComboClass:
    """A combo in a deck as `estimate_bracket` sees it."""

    relevant: bool  # it produces a standalone result
    borderline_relevant: bool  # ... or a contextual one
    definitely_two_card: bool  # pieces counted plus doubts <= 2
    arguably_two_card: bool  # pieces counted <= 2, and with doubts <= 3
    speed: int | None  # 5 (mana value needed 0), 4 (<= 4), 3 (<= 6), 2 (<= 8), 1; None: not given

    @property
    def early(self) -> bool:
        """Fast by Spellbook's ladder: speed 4 or 5, a mana value needed of 4 or less."""
        return self.speed is not None and self.speed >= 4


def classify(combo: Combo, commanders: Collection[str]) -> ComboClass:
    """`combo` in a deck led by `commanders` (names): a piece starting in the library, or a commander of the
    deck, is not counted; a template that must be a commander or starts in the command zone is a doubt, as
    are notable prerequisites and a combo with no standalone or contextual result. The export lacks
    `is_mana_needed_an_accurate_minimum`: taken as true, its default."""
    statuses = {feature.status for feature in combo.produces}
    relevant = FeatureStatus.STANDALONE in statuses
    borderline = relevant or FeatureStatus.CONTEXTUAL in statuses
    leaders = {normalize(name) for name in commanders}
    sure, doubts = 0, int(bool(combo.notable_prerequisites)) + int(not borderline)
    for pieces, templates in ((combo.uses, False), (combo.requires, True)):
        for piece in pieces:
            if Zone.LIBRARY in piece.zone_locations or (not templates and normalize(piece.name) in leaders):
                continue
            if templates and (Zone.COMMAND_ZONE in piece.zone_locations or piece.must_be_commander):
                doubts += piece.quantity
            else:
                sure += piece.quantity
    mana = combo.mana_value_needed
    speed = (
        None if mana is None else next((s for top, s in ((0, 5), (4, 4), (6, 3), (8, 2)) if mana <= top), 1)
    )
    return ComboClass(relevant, borderline, sure + doubts <= 2, sure <= 2 and sure + doubts <= 3, speed)
