"""Mana symbols drawn by the project, as PNG images for Discord application emojis.

Pure: Pillow only, no discord.py and no I/O; `draw` returns PNG bytes. Every symbol is a round pip
in its color (hybrids split diagonally, first color upper-left), with a dark rim so it stands out on
Discord's light and dark themes, and a glyph drawn from Pillow primitives (sun, drop, skull, flame,
tree, snowflake, phi, tap arrows, ...) or, for numbers and X/Y/Z, Pillow's built-in scalable font
(`ImageFont.load_default(size=...)`, no system fonts).

Symbols are written as Scryfall writes them, without braces: `W`, `2/W`, `G/U/P`, `HW`, `10`.
`emoji_name` gives each symbol in `SYMBOLS` a stable Discord emoji name (`mana_WU`, `mana_2W`, ...);
`symbol_of` is its inverse. Bump `ART_VERSION` whenever a drawing changes, so the bot knows to
replace the emojis it uploaded earlier.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.present.mana_glyphs import glyph_mask

ART_VERSION = "1"
"""Changes whenever any drawing changes; the bot re-uploads its emojis when it differs."""

EMOJI_PREFIX = "mana_"
"""Every emoji name starts with this, so the bot can tell its mana emojis from any others."""

MAX_EMOJI_BYTES = 256 * 1024
"""Discord's size limit for one emoji image."""

RGB = tuple[int, int, int]

COLORS: dict[str, RGB] = {
    "W": (248, 238, 196),
    "U": (166, 206, 238),
    "B": (184, 172, 168),
    "R": (238, 150, 118),
    "G": (150, 196, 138),
}
"""Pip fill per color letter (light tints in the spirit of the printed pips)."""

GENERIC: RGB = (206, 201, 196)
"""Fill of generic, colorless and other non-colored pips (numbers, X, C, S, P, T, CHAOS, ...)."""

DARK: RGB = (34, 32, 33)
"""Fill of the dark pips: untap {Q} and energy {E}."""

INK: RGB = (20, 18, 18)
"""Glyph color on light pips; also the rim color of light pips."""

LIGHT_INK: RGB = (242, 240, 236)
"""Glyph color on dark pips."""

LIGHT_RIM: RGB = (150, 146, 146)
"""Rim color of dark pips, so they stay visible on Discord's dark theme."""

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

SUPERSAMPLE = 4
"""Drawings are made this many times larger, then scaled down, for smooth edges."""

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


# --- what a symbol looks like -------------------------------------------------------------------


@dataclass(frozen=True)
class Glyph:
    """One glyph on a pip: its kind (a drawn shape or `text:<chars>`), where and how big, in what ink.

    `dx`, `dy` are the offset of the glyph's center from the pip's center and `box` the side of its
    square box, all as fractions of the pip's diameter.
    """

    kind: str
    dx: float = 0.0
    dy: float = 0.0
    box: float = 0.62
    ink: RGB = INK


@dataclass(frozen=True)
class Pip:
    """How one symbol is drawn: one fill, or two split diagonally (first upper-left), its glyphs,
    whether only the left half is shown (half mana), and the rim color."""

    fills: tuple[RGB, ...]
    glyphs: tuple[Glyph, ...]
    half: bool = False
    rim: RGB = INK


_COLOR_GLYPH = {"W": "sun", "U": "drop", "B": "skull", "R": "flame", "G": "tree"}
_SPLIT_BOX = 0.42
_SPLIT_OFFSET = 0.2


def _single(sym: str) -> tuple[RGB, Glyph]:
    """Fill and centered glyph of a one-part symbol (a color, C, a number, X, S, P, ...)."""
    if sym in COLORS:
        return COLORS[sym], Glyph(_COLOR_GLYPH[sym], box=0.68)
    if sym == "C":
        return GENERIC, Glyph("colorless")
    if sym.isdigit():
        return GENERIC, Glyph("text:" + sym, box=0.70)
    if sym in ("X", "Y", "Z"):
        return GENERIC, Glyph("text:" + sym, box=0.70)
    if sym == "S":
        return GENERIC, Glyph("snow", box=0.70)
    if sym == "P":
        return GENERIC, Glyph("phi")
    raise ValueError(f"cannot draw mana symbol {sym!r}")


_OTHER_PIPS: dict[str, Pip] = {
    "T": Pip((GENERIC,), (Glyph("tap", box=0.66),)),
    "Q": Pip((DARK,), (Glyph("untap", box=0.66, ink=LIGHT_INK),), rim=LIGHT_RIM),
    "E": Pip((DARK,), (Glyph("energy", box=0.66, ink=LIGHT_INK),), rim=LIGHT_RIM),
    "CHAOS": Pip((GENERIC,), (Glyph("chaos", box=0.68),)),
    "½": Pip((GENERIC,), (Glyph("half", box=0.66),)),
    "∞": Pip((GENERIC,), (Glyph("infinity", box=0.70),)),
}
"""Symbols that are neither mana of a color nor a number: tap, untap, energy, chaos, half, infinity."""


def pip(symbol: str) -> Pip:
    """Parse a symbol (Scryfall spelling, braces optional) into how it is drawn.

    Understands colors, C, any whole number, X/Y/Z, S, P, every `A/B` hybrid of two colors (either
    order), `N/A` generic hybrid, `C/A`, `A/P`, `A/B/P`, `HA` half mana, ½, ∞, T, Q, E and
    CHAOS. Raises ValueError for anything else.
    """
    sym = normalize(symbol)
    parts = sym.split("/")
    if len(parts) == 1:
        if sym in _OTHER_PIPS:
            return _OTHER_PIPS[sym]
        if len(sym) == 2 and sym[0] == "H" and sym[1] in COLORS:
            fill, glyph = _single(sym[1])
            return Pip((fill,), (glyph,), half=True)
        fill, glyph = _single(sym)
        return Pip((fill,), (glyph,))
    if len(parts) == 2 and parts[1] == "P" and parts[0] in COLORS:
        return Pip((COLORS[parts[0]],), (Glyph("phi"),))
    if len(parts) == 2 and parts[1] in COLORS and (parts[0] in COLORS or parts[0] == "C" or parts[0].isdigit()):
        if parts[0] == parts[1]:
            raise ValueError(f"cannot draw mana symbol {symbol!r}")
        first_fill, first_glyph = _single(parts[0])
        second_fill, second_glyph = _single(parts[1])
        return Pip(
            (first_fill, second_fill),
            (
                Glyph(first_glyph.kind, -_SPLIT_OFFSET, -_SPLIT_OFFSET, _SPLIT_BOX),
                Glyph(second_glyph.kind, _SPLIT_OFFSET, _SPLIT_OFFSET, _SPLIT_BOX),
            ),
        )
    if len(parts) == 3 and parts[2] == "P" and parts[0] in COLORS and parts[1] in COLORS and parts[0] != parts[1]:
        return Pip((COLORS[parts[0]], COLORS[parts[1]]), (Glyph("phi", box=0.60),))
    raise ValueError(f"cannot draw mana symbol {symbol!r}")


# --- drawing ---------------------------------------------------------------------------------------


def _circle_mask(side: int, radius: float) -> Image.Image:
    """A mask of a centered disc of `radius` pixels on a `side`-pixel square."""
    mask = Image.new("L", (side, side), 0)
    c = side / 2
    ImageDraw.Draw(mask).ellipse((c - radius, c - radius, c + radius, c + radius), fill=255)
    return mask


def render(symbol: str, size: int = 128) -> Image.Image:
    """The symbol as an RGBA image `size` pixels square, on a transparent background."""
    if size < 8:
        raise ValueError("size must be at least 8 pixels")
    spec = pip(symbol)
    side = size * SUPERSAMPLE
    c = side / 2
    outer = side / 2 - side * 0.01
    rim_width = side * 0.05
    inner = outer - rim_width

    canvas = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    canvas.paste((*spec.rim, 255), (0, 0), _circle_mask(side, outer))

    face = Image.new("RGBA", (side, side), spec.fills[0] + (255,))
    if len(spec.fills) == 2:
        ImageDraw.Draw(face).polygon([(side, 0), (side, side), (0, side)], fill=spec.fills[1] + (255,))
    diameter = 2 * inner
    for glyph in spec.glyphs:
        glyph_side = max(8, round(glyph.box * diameter))
        mask = glyph_mask(glyph.kind, glyph_side)
        x = round(c + glyph.dx * diameter - glyph_side / 2)
        y = round(c + glyph.dy * diameter - glyph_side / 2)
        face.paste((*glyph.ink, 255), (x, y, x + glyph_side, y + glyph_side), mask)
    canvas.paste(face, (0, 0), _circle_mask(side, inner))

    if spec.half:
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((c - rim_width / 2, 0, c + rim_width / 2, side), fill=(*spec.rim, 255))
        draw.rectangle((c + rim_width / 2, 0, side, side), fill=(0, 0, 0, 0))
        canvas.putalpha(Image.composite(canvas.getchannel("A"), Image.new("L", (side, side), 0), _circle_mask(side, outer)))

    small = canvas.convert("RGBa").resize((size, size), Image.Resampling.LANCZOS, reducing_gap=None)
    return small.convert("RGBA")


def draw(symbol: str, size: int = 128) -> bytes:
    """The symbol as PNG bytes: `size` pixels square, transparent background, deterministic.

    Raises ValueError for a symbol `pip` does not understand.
    """
    out = io.BytesIO()
    render(symbol, size).save(out, format="PNG", optimize=True)
    return out.getvalue()
