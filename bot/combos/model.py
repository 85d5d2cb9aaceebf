"""Commander Spellbook's combos as facts (no words) in its own codes (SpaceCowMedia/commander-spellbook-backend's
models), read from its export by `COMBO`, and `classify`: a combo of a deck judged as Spellbook's
`estimate_bracket` judges it (docs/brackets.md, "Two-card combos (Commander Spellbook)")."""

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
SPEEDS = ((0, 5), (4, 4), (6, 3), (8, 2))  # (mana value needed at most, speed); more: 1


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
    def known(code: Any) -> bool:
        return isinstance(code, str) and code in frozenset(codes)

    return BeforeValidator(
        lambda v: [c for c in v if known(c)] if isinstance(v, list) else v if known(v) else None
    )


@exported.dataclass(frozen=True, slots=True, config=EXPORT)
class Piece:
    """A card a combo uses, or a template it requires (any card that fits its description)."""

    name: Text = Field(
        min_length=1,
        validation_alias=AliasChoices("name", AliasPath("card", "name"), AliasPath("template", "name")),
    )
    zone_locations: Annotated[tuple[Zone, ...], _known(Zone)] = ()  # where it may start
    must_be_commander: bool = False
    quantity: Count = 1


@exported.dataclass(frozen=True, slots=True, config=EXPORT)
class Feature:
    name: Text = Field(validation_alias=AliasChoices("name", AliasPath("feature", "name")))
    status: Annotated[FeatureStatus | None, _known(FeatureStatus)] = Field(
        None, validation_alias=AliasChoices("status", AliasPath("feature", "status"))
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


COMBO = TypeAdapter(Combo)  # validate_python(a variant of the export); dump_json, validate_json: as stored


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
    def early(self) -> bool:  # fast on Spellbook's ladder: a mana value needed of 4 or less
        return self.speed is not None and self.speed >= 4


def classify(combo: Combo, commanders: Collection[str]) -> ComboClass:
    """`combo` in a deck led by `commanders` (names): pieces starting in the library and the commanders are not
    counted; a template that must be a commander or starts in the command zone is a doubt, as are notable
    prerequisites and no standalone or contextual result. `is_mana_needed_an_accurate_minimum`: true."""
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
    speed = None if mana is None else next((s for top, s in SPEEDS if mana <= top), 1)
    return ComboClass(relevant, borderline, sure + doubts <= 2, sure <= 2 and sure + doubts <= 3, speed)
