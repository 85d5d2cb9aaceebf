"""Mana symbols as Discord application emojis: which symbols (spelled as Scryfall spells them, without braces:
`W`, `2/W`, `G/U/P`), their emoji names, and their PNG images (Scryfall's SVGs rendered by resvg). Pure."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain

import resvg_py

from bot.identity.model import WUBRG

ART_VERSION = "2"  # bump whenever the images change: the bot then replaces the emojis it uploaded
EMOJI_PREFIX = "mana_"  # tells the bot's mana emojis from any others
MAX_EMOJI_BYTES = 256 * 1024  # Discord's limit for one emoji image
SIZE = 128  # pixels; Discord shows emojis at most 128 px large

_HYBRID_PAIRS = ("W/U", "U/B", "B/R", "R/G", "G/W", "W/B", "U/R", "B/G", "R/W", "G/U")

SYMBOLS: tuple[str, ...] = tuple(
    chain(
        (*WUBRG, "C", *map(str, range(21)), "X", "Y", "Z", "S", *_HYBRID_PAIRS),
        (f"{n}/{c}" for n in "2C" for c in WUBRG),
        (*(f"{c}/P" for c in WUBRG), "P", *(f"{pair}/P" for pair in _HYBRID_PAIRS)),
        (*(f"H{c}" for c in WUBRG), "½", "∞", "T", "Q", "E", "CHAOS"),
    )
)


def normalize(symbol: str) -> str:
    """`{w/u}` -> `W/U`: an emoji map's key for a symbol (braces and spaces dropped, upper case)."""
    return symbol.strip().strip("{}").strip().upper()


# The emoji name rule: prefix + the symbol without slashes; ½ and ∞ spelled out.
_NAMES = {s: EMOJI_PREFIX + {"½": "half", "∞": "infinity"}.get(s, s.replace("/", "")) for s in SYMBOLS}
_BY_NAME = {name: s for s, name in _NAMES.items()}


def emoji_name(symbol: str) -> str:
    """The emoji name for a symbol of `SYMBOLS` (`{w/u}` -> `mana_WU`); ValueError for any other symbol."""
    try:
        return _NAMES[normalize(symbol)]
    except KeyError:
        raise ValueError(f"no emoji for mana symbol {symbol!r}") from None


def symbol_of(name: str) -> str | None:
    """The symbol an emoji name stands for (`mana_WU` -> `W/U`), or None if it is not one of ours."""
    return _BY_NAME.get(name)


def emoji_map(uploaded: Mapping[str, int | str]) -> dict[str, str]:
    """{symbol: `<:name:id>`} for the application's {emoji name: id}, skipping emojis not ours."""
    return {_BY_NAME[name]: f"<:{name}:{i}>" for name, i in uploaded.items() if name in _BY_NAME}


def png(svg: bytes, size: int = SIZE) -> bytes:
    """An SVG as PNG bytes in a `size`-pixel square; ValueError for a bad SVG or a PNG too big for Discord."""
    text = svg.decode("utf-8")  # UnicodeDecodeError is a ValueError
    image = resvg_py.svg_to_bytes(svg_string=text, width=size, height=size, skip_system_fonts=True)
    if len(image) > MAX_EMOJI_BYTES:
        raise ValueError(f"the rendered image has {len(image)} bytes, over Discord's {MAX_EMOJI_BYTES}")
    return image
