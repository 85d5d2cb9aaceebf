"""Mana-symbol parser over Scryfall's symbology (CR 107.4, 202.2) and the color order (CR 105.1).
`classify(raw)` never raises: an unknown symbol gets kind `UNKNOWN` and no color. Colored: `{W}` (107.4a),
hybrid `{W/U}` both (107.4e, 202.2d), `{2/W}` and `{C/W}` white, Phyrexian `{B/P}` and `{G/U/P}` (107.4f),
half `{HW}` (107.4d). No color: `{C}` (107.4c), `{S}` (107.4h), `{X}` (107.3), numbers, `{T}` `{Q}` (107.5,
107.6), `{E}` (107.14), `{P}`, `{CHAOS}`, `{A}`..."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

WUBRG = "WUBRG"  # the five colors in canonical order (CR 105.1)


def wubrg(colors: object) -> str:
    """Canonical WUBRG-ordered string for any iterable of color letters (unknown letters dropped)."""
    found = colors if isinstance(colors, str | set) else set(colors) if isinstance(colors, Iterable) else ()
    return "".join([c for c in WUBRG if c in found])


class SymbolKind(StrEnum):
    COLORED = "colored mana"
    HYBRID = "hybrid mana"
    TWO_HYBRID = "two-generic hybrid mana"
    COLORLESS_HYBRID = "colorless hybrid mana"
    PHYREXIAN = "Phyrexian mana"
    PHYREXIAN_HYBRID = "Phyrexian hybrid mana"
    HALF = "half mana"
    GENERIC = "generic mana"
    VARIABLE = "variable mana"
    COLORLESS = "colorless mana"
    SNOW = "snow mana"
    TAP = "tap symbol"
    UNTAP = "untap symbol"
    ENERGY = "energy symbol"
    CHAOS = "chaos symbol"
    PHYREXIAN_GENERIC = "generic Phyrexian symbol"
    OTHER = "non-mana symbol"
    UNKNOWN = "unknown symbol"


@dataclass(frozen=True, slots=True)
class Symbol:
    """One symbol as printed (`raw`, e.g. "{B/P}"), its kind and its colors (WUBRG string)."""

    raw: str
    kind: SymbolKind
    colors: str = ""


SYMBOL_RE = re.compile(r"\{[^{}\n]{0,20}\}")

_SIMPLE: dict[str, SymbolKind] = {
    "C": SymbolKind.COLORLESS,
    "S": SymbolKind.SNOW,
    **dict.fromkeys("XYZ", SymbolKind.VARIABLE),
    "T": SymbolKind.TAP,
    "Q": SymbolKind.UNTAP,
    "E": SymbolKind.ENERGY,
    **dict.fromkeys("PH", SymbolKind.PHYREXIAN_GENERIC),
    "CHAOS": SymbolKind.CHAOS,
    **dict.fromkeys("½∞", SymbolKind.GENERIC),
    # acorn, ticket (Unfinity), planeswalker, loyalty (Un-cards), D
    **dict.fromkeys(("A", "TK", "PW", "L", "D"), SymbolKind.OTHER),
}
_LETTERS = frozenset(WUBRG)


@lru_cache(maxsize=4096)
def classify(raw: str) -> Symbol:
    """What one symbol such as "{2/W}" is. Never raises: unknown symbols get `SymbolKind.UNKNOWN`."""
    if not (inner := (raw[1:-1] if raw.startswith("{") and raw.endswith("}") else raw).strip().upper()):
        return Symbol(raw, SymbolKind.UNKNOWN)
    if inner in _LETTERS:
        return Symbol(raw, SymbolKind.COLORED, inner)
    if (simple := _SIMPLE.get(inner)) is not None:
        return Symbol(raw, simple)
    if inner.isdigit() or _is_number(inner):
        return Symbol(raw, SymbolKind.GENERIC)
    if inner[0] == "H" and inner[1:] in _LETTERS:
        return Symbol(raw, SymbolKind.HALF, inner[1])
    if "/" in inner:
        parts = [p.strip() for p in inner.split("/")]
        colors = {p for p in parts if p in _LETTERS}
        rest = [p for p in parts if p not in _LETTERS and p != "P"]
        if not colors or any(p != "C" and not _is_number(p) for p in rest):
            return Symbol(raw, SymbolKind.UNKNOWN, wubrg(colors))
        if "P" in parts:
            kind = SymbolKind.PHYREXIAN_HYBRID if len(colors) > 1 or rest else SymbolKind.PHYREXIAN
        elif "C" in rest:
            kind = SymbolKind.COLORLESS_HYBRID
        elif rest:
            kind = SymbolKind.TWO_HYBRID
        elif len(colors) > 1:
            kind = SymbolKind.HYBRID
        else:
            kind = SymbolKind.COLORED
        return Symbol(raw, kind, wubrg(colors))
    return Symbol(raw, SymbolKind.UNKNOWN)


def _is_number(text: str) -> bool:
    return text.replace(".", "", 1).isdecimal()
