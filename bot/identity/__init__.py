"""The identity engine: colors (CR 202.2, 204, 604.3) and Commander color identity (CR 903.4) of a
Scryfall card object, with evidence for every color; fit checks (903.5c); commander eligibility and
pairing (903.3, 702.124). Pure: no I/O, no network, no database, no discord.

It returns facts only: symbol kinds, where a symbol sits (`TextPlace`), face roles (`FaceRole`), the symbols
reminder text holds (ignored, CR 903.4c), note and verdict codes (`Note`, `VerdictCode`). Every word the
bot says about them is the presentation layer's (`bot.present`).

Entry points (each documented where it is defined): `analyze(card) -> Analysis` (`.colors`, `.identity`:
WUBRG strings, "" = colorless; `.reasons`), `with_chosen_color`, `check_fit(card, commanders, chosen=None)
-> FitResult`, `commander_eligibility(card)` and `check_pairing(a, b)` (-> `Verdict`),
`is_commander_candidate`, `is_banned`, and the storable partner-ability summary `pairing_traits(card) ->
PairingTraits` (`.encode()` / `PairingTraits.decode(s)`) with `can_pair(a, b)` (CR 702.124).
"""

from bot.identity.commander import check_pairing, commander_eligibility, is_banned, is_commander_candidate
from bot.identity.engine import analyze, with_chosen_color
from bot.identity.fit import check_fit
from bot.identity.model import (
    WUBRG,
    Analysis,
    Aspect,
    CdaKind,
    ColorChoice,
    DeckBlocker,
    FaceAnalysis,
    FaceRole,
    FitResult,
    FitVerdict,
    IdentityError,
    NonDeckKind,
    Note,
    PairingKind,
    PairingTrait,
    PairingTraits,
    Reason,
    ReasonKind,
    TextPlace,
    Verdict,
    VerdictCode,
    wubrg,
)
from bot.identity.pairing import can_pair, pairing_traits
from bot.identity.symbols import Symbol, SymbolKind

__all__ = [
    "WUBRG",
    "Analysis",
    "Aspect",
    "CdaKind",
    "ColorChoice",
    "DeckBlocker",
    "FaceAnalysis",
    "FaceRole",
    "FitResult",
    "FitVerdict",
    "IdentityError",
    "NonDeckKind",
    "Note",
    "PairingKind",
    "PairingTrait",
    "PairingTraits",
    "Reason",
    "ReasonKind",
    "Symbol",
    "SymbolKind",
    "TextPlace",
    "Verdict",
    "VerdictCode",
    "analyze",
    "can_pair",
    "check_fit",
    "check_pairing",
    "commander_eligibility",
    "is_banned",
    "is_commander_candidate",
    "pairing_traits",
    "with_chosen_color",
    "wubrg",
]
