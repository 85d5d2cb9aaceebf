"""The identity engine: colors (CR 202.2, 204, 604.3) and Commander color identity (CR 903.4) of a
Scryfall card object, with evidence for every color; fit checks (903.5c); commander eligibility and
pairing (903.3, 702.124). Pure: no I/O, no network, no database, no discord.

Public API:
- `analyze(card) -> Analysis`: `.colors`, `.identity` (WUBRG strings, "" = colorless), `.reasons`.
- `check_fit(card, commanders) -> FitResult`: fits / outside colors / evidence / warnings.
- `commander_eligibility(card) -> Verdict`, `check_pairing(a, b) -> Verdict`,
  `is_commander_candidate(card)` (eligible alone, or a Background).
- `parse_symbols(text) -> tuple[Symbol, ...]`: the mana-symbol parser.
- `describe(reason)`, `explain_fit(fit)`, `identity_phrase(colors)`: sentences for embeds.
"""

from bot.identity.commander import check_pairing, commander_eligibility, is_commander_candidate
from bot.identity.describe import color_name, describe, explain_fit, identity_phrase
from bot.identity.engine import analyze
from bot.identity.fit import check_fit
from bot.identity.model import (
    COLOR_NAMES,
    WUBRG,
    Analysis,
    Aspect,
    FaceAnalysis,
    FitResult,
    IdentityError,
    Reason,
    ReasonKind,
    Verdict,
    wubrg,
)
from bot.identity.symbols import Symbol, SymbolKind, parse_symbols

__all__ = [
    "COLOR_NAMES",
    "WUBRG",
    "Analysis",
    "Aspect",
    "FaceAnalysis",
    "FitResult",
    "IdentityError",
    "Reason",
    "ReasonKind",
    "Symbol",
    "SymbolKind",
    "Verdict",
    "analyze",
    "check_fit",
    "check_pairing",
    "color_name",
    "commander_eligibility",
    "describe",
    "explain_fit",
    "identity_phrase",
    "is_commander_candidate",
    "parse_symbols",
    "wubrg",
]
