"""The identity engine: colors (CR 202.2, 204, 604.3) and Commander color identity (CR 903.4) of a
Scryfall card object, with evidence for every color; fit checks (903.5c); commander eligibility and
pairing (903.3, 702.124). Pure: no I/O, no network, no database, no discord.

Public API:
- `analyze(card) -> Analysis`: `.colors`, `.identity` (WUBRG strings, "" = colorless), `.reasons`,
  `.deck_card` / `.not_deck_card` (a `NonDeckKind` for tokens, emblems, meld results, planes, ...).
- `with_chosen_color(analysis, color) -> Analysis`: a commander's analysis with its 903.4b color chosen.
- `check_fit(card, commanders, chosen=None) -> FitResult`: fits / outside colors / evidence / warnings, and the
  facts `verdict` (`FitVerdict`), `blockers` (`DeckBlocker`), `choice_options` (`ColorChoice`), `chosen`.
- `commander_eligibility(card) -> Verdict`, `check_pairing(a, b) -> Verdict`,
  `is_commander_candidate(card)` (eligible alone, or a Background).
- `pairing_traits(card) -> PairingTraits` (frozen; `.encode()` / `PairingTraits.decode(s)`),
  `can_pair(a, b) -> bool`: the storable partner-ability summary (CR 702.124).
- `parse_symbols(text) -> tuple[Symbol, ...]`: the mana-symbol parser.
- `describe(reason)`, `explain_fit(fit)`, `identity_phrase(colors)`: sentences for embeds.
"""

from bot.identity.commander import check_pairing, commander_eligibility, is_commander_candidate
from bot.identity.describe import color_name, describe, explain_fit, identity_phrase
from bot.identity.engine import analyze, with_chosen_color
from bot.identity.fit import check_fit
from bot.identity.model import (
    COLOR_NAMES,
    WUBRG,
    Analysis,
    Aspect,
    ColorChoice,
    DeckBlocker,
    FaceAnalysis,
    FitResult,
    FitVerdict,
    IdentityError,
    NonDeckKind,
    Reason,
    ReasonKind,
    Verdict,
    wubrg,
)
from bot.identity.pairing import PairingKind, PairingTrait, PairingTraits, can_pair, pairing_traits
from bot.identity.symbols import Symbol, SymbolKind, parse_symbols

__all__ = [
    "COLOR_NAMES",
    "WUBRG",
    "Analysis",
    "Aspect",
    "ColorChoice",
    "DeckBlocker",
    "FaceAnalysis",
    "FitResult",
    "FitVerdict",
    "IdentityError",
    "NonDeckKind",
    "PairingKind",
    "PairingTrait",
    "PairingTraits",
    "Reason",
    "ReasonKind",
    "Symbol",
    "SymbolKind",
    "Verdict",
    "analyze",
    "can_pair",
    "check_fit",
    "check_pairing",
    "color_name",
    "commander_eligibility",
    "describe",
    "explain_fit",
    "identity_phrase",
    "is_commander_candidate",
    "pairing_traits",
    "parse_symbols",
    "with_chosen_color",
    "wubrg",
]
