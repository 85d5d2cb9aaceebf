"""Mana symbols as Discord application emojis: which symbols, their emoji names, and their PNG images.

Pure: no discord.py and no I/O. The images are Scryfall's official symbol SVGs (`bot.cards.symbology`
downloads them), rendered to PNG by `png` with resvg (`resvg-py`, self-contained: no system libraries or
fonts).

Symbols are written as Scryfall writes them, without braces: `W`, `2/W`, `G/U/P`, `HW`, `10`.
`emoji_name` gives each symbol in `SYMBOLS` a stable Discord emoji name (`mana_WU`, `mana_2W`, ...);
`symbol_of` is its inverse. Bump `ART_VERSION` whenever the images change, so the bot knows to replace
the emojis it uploaded earlier.
"""

from __future__ import annotations

from collections.abc import Mapping

import resvg_py

ART_VERSION = "2"
"""Changes whenever the images change (1: drawn by the project; 2: Scryfall's SVGs); the bot re-uploads
its emojis when it differs."""

EMOJI_PREFIX = "mana_"
"""Every emoji name starts with this, so the bot can tell its mana emojis from any others."""

MAX_EMOJI_BYTES = 256 * 1024
"""Discord's size limit for one emoji image."""

SIZE = 128
"""Side of the emoji images in pixels (Discord shows emojis at most 128 px large)."""

WUBRG = "WUBRG"

_HYBRID_PAIRS = ("W/U", "U/B", "B/R", "R/G", "G/W", "W/B", "U/R", "B/G", "R/W", "G/U")

SYMBOLS: tuple[str, ...] = (
    *WUBRG,
    "C",
    *(str(n) for n in range(21)),
    "X",
    "Y",
    "Z",
    "S",
    *_HYBRID_PAIRS,
    *(f"2/{c}" for c in WUBRG),
    *(f"C/{c}" for c in WUBRG),
    *(f"{c}/P" for c in WUBRG),
    "P",
    *(f"{pair}/P" for pair in _HYBRID_PAIRS),
    *(f"H{c}" for c in WUBRG),
    "½",
    "∞",
    "T",
    "Q",
    "E",
    "CHAOS",
)
"""Every symbol the bot keeps an emoji for, spelled as Scryfall spells it (without braces)."""

_SPECIAL_NAMES = {"½": "half", "∞": "infinity"}


def normalize(symbol: str) -> str:
    """`{w/u}` -> `W/U`: braces and surrounding spaces dropped, letters upper-cased."""
    return symbol.strip().strip("{}").strip().upper()


def _name_for(symbol: str) -> str:
    """The emoji name rule: prefix + the symbol without slashes; ½ and ∞ spelled out."""
    return EMOJI_PREFIX + _SPECIAL_NAMES.get(symbol, symbol.replace("/", ""))


_NAMES: dict[str, str] = {s: _name_for(s) for s in SYMBOLS}
_BY_NAME: dict[str, str] = {name: s for s, name in _NAMES.items()}


def emoji_name(symbol: str) -> str:
    """The Discord emoji name for a symbol of `SYMBOLS` (`W/U` -> `mana_WU`, `½` -> `mana_half`).

    Accepts braces and lower case (`{w/u}`). Raises ValueError for a symbol not in `SYMBOLS`.
    """
    key = normalize(symbol)
    try:
        return _NAMES[key]
    except KeyError:
        raise ValueError(f"no emoji for mana symbol {symbol!r}") from None


def symbol_of(name: str) -> str | None:
    """The symbol an emoji name stands for (`mana_WU` -> `W/U`), or None if it is not one of ours."""
    return _BY_NAME.get(name)


def emoji_map(uploaded: Mapping[str, int | str]) -> dict[str, str]:
    """{symbol: `<:name:id>`} for the application's emojis, given as {emoji name: emoji id}.

    Names that are not mana emojis of ours are skipped. The result is the mapping
    `render.symbol` / `render.pips` take (the same shape as the MANA_EMOJI setting).
    """
    result: dict[str, str] = {}
    for name, emoji_id in uploaded.items():
        symbol = symbol_of(name)
        if symbol is not None:
            result[symbol] = f"<:{name}:{emoji_id}>"
    return result


def png(svg: bytes, size: int = SIZE) -> bytes:
    """An SVG image as PNG bytes fitted into a `size`-pixel square (aspect ratio kept, transparent background).

    Raises ValueError for bytes that are not an SVG resvg can render, or a PNG over `MAX_EMOJI_BYTES`.
    """
    try:
        text = svg.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("the SVG is not UTF-8 text") from None
    image = resvg_py.svg_to_bytes(svg_string=text, width=size, height=size, skip_system_fonts=True)
    if len(image) > MAX_EMOJI_BYTES:
        raise ValueError(f"the rendered image has {len(image)} bytes, over Discord's {MAX_EMOJI_BYTES}")
    return image
