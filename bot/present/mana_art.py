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
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

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


def pip(symbol: str) -> Pip:
    """Parse a symbol (Scryfall spelling, braces optional) into how it is drawn.

    Understands colors, C, any whole number, X/Y/Z, S, P, every `A/B` hybrid of two colors (either
    order), `N/A` generic hybrid, `C/A`, `A/P`, `A/B/P`, `HA` half mana, ½, ∞, T, Q, E and
    CHAOS. Raises ValueError for anything else.
    """
    sym = normalize(symbol)
    parts = sym.split("/")
    if len(parts) == 1:
        if sym == "T":
            return Pip((GENERIC,), (Glyph("tap", box=0.66),))
        if sym == "Q":
            return Pip((DARK,), (Glyph("untap", box=0.66, ink=LIGHT_INK),), rim=LIGHT_RIM)
        if sym == "E":
            return Pip((DARK,), (Glyph("energy", box=0.66, ink=LIGHT_INK),), rim=LIGHT_RIM)
        if sym == "CHAOS":
            return Pip((GENERIC,), (Glyph("chaos", box=0.68),))
        if sym == "½":
            return Pip((GENERIC,), (Glyph("half", box=0.66),))
        if sym == "∞":
            return Pip((GENERIC,), (Glyph("infinity", box=0.70),))
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


# --- glyph shapes ----------------------------------------------------------------------------------


class _Pen:
    """Draws on a square grayscale mask in glyph units: x and y from -1 to 1, y pointing down.

    `ink` (255) adds to the glyph, `cut` (0) removes from it.
    """

    ink = 255
    cut = 0

    def __init__(self, mask: Image.Image) -> None:
        self.mask = mask
        self.draw = ImageDraw.Draw(mask)
        self.half = mask.width / 2

    def p(self, x: float, y: float) -> tuple[float, float]:
        """Glyph units to mask pixels."""
        return (self.half * (1 + x), self.half * (1 + y))

    def w(self, width: float) -> int:
        """A width in glyph units (2 = the whole box) to pixels."""
        return max(1, round(self.half * width))

    def poly(self, points: Sequence[tuple[float, float]], fill: int = 255) -> None:
        """Fill a polygon."""
        self.draw.polygon([self.p(x, y) for x, y in points], fill=fill)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: int = 255) -> None:
        """Fill an ellipse."""
        x0, y0 = self.p(cx - rx, cy - ry)
        x1, y1 = self.p(cx + rx, cy + ry)
        self.draw.ellipse((x0, y0, x1, y1), fill=fill)

    def ring(self, cx: float, cy: float, rx: float, ry: float, width: float, fill: int = 255) -> None:
        """An ellipse outline `width` thick, drawn inside the ellipse's outline."""
        self.ellipse(cx, cy, rx, ry, fill)
        self.ellipse(cx, cy, rx - width, ry - width, 255 - fill)

    def line(self, points: Sequence[tuple[float, float]], width: float, fill: int = 255) -> None:
        """A polyline with round ends and joints."""
        pts = [self.p(x, y) for x, y in points]
        self.draw.line(pts, fill=fill, width=self.w(width), joint="curve")
        radius = self.w(width) / 2
        for x, y in (pts[0], pts[-1]):
            self.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)

    def rect(self, x0: float, y0: float, x1: float, y1: float, radius: float = 0.0, fill: int = 255) -> None:
        """Fill a rectangle, with rounded corners when radius > 0."""
        a, b = self.p(x0, y0)
        c, d = self.p(x1, y1)
        self.draw.rounded_rectangle((a, b, c, d), radius=self.w(radius) if radius else 0, fill=fill)


def _arc_points(cx: float, cy: float, r: float, start: float, end: float, steps: int = 48) -> list[tuple[float, float]]:
    """Points along a circular arc; angles in degrees, 0 = right, 90 = down (screen coordinates)."""
    return [
        (cx + r * math.cos(math.radians(start + (end - start) * i / steps)),
         cy + r * math.sin(math.radians(start + (end - start) * i / steps)))
        for i in range(steps + 1)
    ]


def _teardrop(cx: float, cy: float, width: float, height: float, tilt: float = 0.0, steps: int = 96) -> list[tuple[float, float]]:
    """A drop shape pointing up (or tilted by `tilt` degrees), its round end at the bottom.

    (cx, cy) is the tip; the shape reaches `height` below it and is `width` wide at most.
    """
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 0.5 * width * math.sin(t) * math.sin(t / 2) ** 1.3 / 0.65
        y = height * (1 - math.cos(t)) / 2
        rad = math.radians(tilt)
        points.append((cx + x * math.cos(rad) - y * math.sin(rad), cy + x * math.sin(rad) + y * math.cos(rad)))
    return points


def _sun(pen: _Pen) -> None:
    """White: a disc with eight pointed rays, the upright and level ones longer."""
    pen.ellipse(0, 0, 0.46, 0.46)
    for k in range(8):
        a = math.radians(k * 45 - 90)
        long = 0.99 if k % 2 == 0 else 0.84
        spread = math.radians(21 if k % 2 == 0 else 18)
        base = 0.38
        pen.poly([
            (base * math.cos(a - spread), base * math.sin(a - spread)),
            (long * math.cos(a), long * math.sin(a)),
            (base * math.cos(a + spread), base * math.sin(a + spread)),
        ])


def _drop(pen: _Pen) -> None:
    """Blue: a water drop with a highlight."""
    pen.poly(_teardrop(0, -0.95, 1.28, 1.9))
    pen.line(_arc_points(0.02, 0.28, 0.42, 115, 175, 16), 0.13, fill=pen.cut)


def _skull(pen: _Pen) -> None:
    """Black: a skull with eye holes, a nose and teeth."""
    pen.ellipse(0, -0.2, 0.72, 0.68)
    pen.rect(-0.42, 0.1, 0.42, 0.86, radius=0.14)
    pen.ellipse(-0.3, -0.12, 0.2, 0.22, fill=pen.cut)
    pen.ellipse(0.3, -0.12, 0.2, 0.22, fill=pen.cut)
    pen.poly([(0, 0.14), (-0.1, 0.34), (0.1, 0.34)], fill=pen.cut)
    for x in (-0.14, 0.14):
        pen.rect(x - 0.045, 0.56, x + 0.045, 0.9, fill=pen.cut)


def _flame(pen: _Pen) -> None:
    """Red: a flame of three tongues with a hollow core."""
    pen.poly(_teardrop(0.05, -1.0, 1.25, 1.92, tilt=6))
    pen.poly(_teardrop(-0.6, -0.45, 0.7, 1.3, tilt=-22))
    pen.poly(_teardrop(0.68, -0.25, 0.6, 1.1, tilt=24))
    pen.poly(_teardrop(0.0, -0.08, 0.52, 0.86, tilt=4), fill=pen.cut)


def _tree(pen: _Pen) -> None:
    """Green: a tree, a broad leafy crown on a trunk that flares into roots."""
    for cx, cy, rx, ry in ((0, -0.58, 0.42, 0.36), (-0.5, -0.3, 0.36, 0.32), (0.5, -0.3, 0.36, 0.32),
                           (-0.52, 0.08, 0.34, 0.26), (0.52, 0.08, 0.34, 0.26), (0, -0.1, 0.5, 0.4)):
        pen.ellipse(cx, cy, rx, ry)
    pen.poly([(-0.13, 0.1), (0.13, 0.1), (0.17, 0.72), (-0.17, 0.72)])
    pen.poly([(-0.56, 0.96), (-0.12, 0.62), (0.12, 0.62), (0.56, 0.96)])
    pen.line([(-0.02, 0.3), (-0.3, 0.14)], 0.09, fill=pen.cut)
    pen.line([(0.02, 0.22), (0.3, 0.06)], 0.09, fill=pen.cut)


def _colorless(pen: _Pen) -> None:
    """Colorless {C}: a hollow rounded diamond."""
    outer = [(0, -0.92), (0.78, 0), (0, 0.92), (-0.78, 0)]
    inner = [(0, -0.5), (0.4, 0), (0, 0.5), (-0.4, 0)]
    pen.poly(outer)
    pen.poly(inner, fill=pen.cut)


def _snow(pen: _Pen) -> None:
    """Snow {S}: a six-armed snowflake."""
    for k in range(6):
        a = math.radians(k * 60 - 90)
        ux, uy = math.cos(a), math.sin(a)
        pen.line([(0, 0), (0.92 * ux, 0.92 * uy)], 0.16)
        for side in (-1, 1):
            b = a + side * math.radians(45)
            bx, by = 0.5 * ux, 0.5 * uy
            pen.line([(bx, by), (bx + 0.3 * math.cos(b), by + 0.3 * math.sin(b))], 0.13)


def _phi(pen: _Pen) -> None:
    """Phyrexian: the phi-like mark, an oval crossed by an upright bar."""
    pen.ring(0, 0.02, 0.64, 0.5, 0.21)
    pen.rect(-0.115, -0.94, 0.115, 0.94, radius=0.07)


def _arrow(pen: _Pen, mirror: bool) -> None:
    """A curved arrow turning clockwise over the top (mirrored: counterclockwise)."""
    sign = -1 if mirror else 1
    arc = _arc_points(0, 0.12, 0.58, 180, 370, 40)
    pts = [(sign * x, y) for x, y in arc]
    pen.line(pts, 0.24)
    end_a = math.radians(370)
    ex, ey = 0.58 * math.cos(end_a), 0.12 + 0.58 * math.sin(end_a)
    head = [(ex - 0.34, ey - 0.02), (ex + 0.34, ey - 0.02), (ex + 0.02, ey + 0.46)]
    pen.poly([(sign * x, y) for x, y in head])


def _tap(pen: _Pen) -> None:
    """Tap {T}: an arrow curving clockwise."""
    _arrow(pen, mirror=False)


def _untap(pen: _Pen) -> None:
    """Untap {Q}: an arrow curving counterclockwise."""
    _arrow(pen, mirror=True)


def _energy(pen: _Pen) -> None:
    """Energy {E}: a lightning bolt."""
    pen.poly([(0.2, -0.95), (-0.52, 0.12), (-0.04, 0.12), (-0.22, 0.95), (0.52, -0.16), (0.04, -0.16), (0.26, -0.95)])


def _chaos(pen: _Pen) -> None:
    """Planar chaos: a swirl of four curved arms around a hub."""
    pen.ellipse(0, 0, 0.26, 0.26)
    for k in range(4):
        pts = [
            (r * math.cos(math.radians(k * 90 + 120 * r)), r * math.sin(math.radians(k * 90 + 120 * r)))
            for r in (0.1 + 0.8 * i / 24 for i in range(25))
        ]
        pen.line(pts, 0.2)


def _infinity(pen: _Pen) -> None:
    """Infinity: two joined loops."""
    pen.ring(-0.42, 0, 0.44, 0.36, 0.15)
    pen.ring(0.42, 0, 0.44, 0.36, 0.15)


def _half(pen: _Pen) -> None:
    """One half: a small 1 over a slash over a small 2."""
    pen.line([(0.62, -0.78), (-0.62, 0.78)], 0.12)
    _paste_text(pen.mask, "1", (-0.42, -0.4), 0.8)
    _paste_text(pen.mask, "2", (0.42, 0.42), 0.8)


_SHAPES: dict[str, Callable[[_Pen], None]] = {
    "sun": _sun,
    "drop": _drop,
    "skull": _skull,
    "flame": _flame,
    "tree": _tree,
    "colorless": _colorless,
    "snow": _snow,
    "phi": _phi,
    "tap": _tap,
    "untap": _untap,
    "energy": _energy,
    "chaos": _chaos,
    "infinity": _infinity,
    "half": _half,
}


@lru_cache(maxsize=8)
def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font at `px` pixels (its scalable version when FreeType is present)."""
    return ImageFont.load_default(size=px)


@lru_cache(maxsize=256)
def _text_ink(text: str) -> Image.Image:
    """`text` in bold built-in type on a tight grayscale mask (255 = ink), about 240 px tall.

    Characters are set one by one with a small gap, so bold digits never run into each other.
    """
    px = 240
    font = _font(px)
    # Without FreeType Pillow falls back to its small bitmap font, which has no stroke; it is
    # scaled up like the outline font, only blockier.
    stroke = round(px * 0.04) if isinstance(font, ImageFont.FreeTypeFont) else 0
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    _, top, _, bottom = probe.textbbox((0, 0), text, font=font, stroke_width=stroke)
    height = math.ceil(bottom - top) + 4
    pieces = []
    for char in text:
        left, _, right, _ = probe.textbbox((0, 0), char, font=font, stroke_width=stroke)
        piece = Image.new("L", (math.ceil(right - left) + 4, height), 0)
        ImageDraw.Draw(piece).text((2 - left, 2 - top), char, fill=255, font=font, stroke_width=stroke, stroke_fill=255)
        box = piece.getbbox()
        if box:
            pieces.append(piece.crop((box[0], 0, box[2], height)))
    gap = round(px * 0.06)
    mask = Image.new("L", (max(1, sum(p.width for p in pieces) + gap * (len(pieces) - 1)), height), 0)
    x = 0
    for piece in pieces:
        mask.paste(piece, (x, 0))
        x += piece.width + gap
    box = mask.getbbox()
    return mask.crop(box) if box else mask


def _paste_text(mask: Image.Image, text: str, center: tuple[float, float], height: float) -> None:
    """Draw `text` into a glyph mask, centered at `center` (glyph units) and `height` units tall.

    Text wider than the box is narrowed (to at most 25 %) and then shrunk, so it stays inside.
    """
    ink = _text_ink(text)
    half = mask.width / 2
    h = height * half
    w = ink.width * h / ink.height
    max_w = 1.88 * half
    if w > max_w:
        squeeze = max(0.75, max_w / w)
        w *= squeeze
        if w > max_w:
            h *= max_w / w
            w = max_w
    size = (max(1, round(w)), max(1, round(h)))
    scaled = ink.resize(size, Image.Resampling.LANCZOS)
    x = round(half * (1 + center[0]) - size[0] / 2)
    y = round(half * (1 + center[1]) - size[1] / 2)
    layer = Image.new("L", mask.size, 0)
    layer.paste(scaled, (x, y))
    mask.paste(255, (0, 0), layer)


def _glyph_mask(kind: str, side: int) -> Image.Image:
    """A square grayscale mask (255 = ink) of one glyph, `side` pixels wide."""
    mask = Image.new("L", (side, side), 0)
    if kind.startswith("text:"):
        text = kind[5:]
        _paste_text(mask, text, (0.0, 0.0), 1.6 if len(text) == 1 else 1.46)
    else:
        _SHAPES[kind](_Pen(mask))
    return mask


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
    canvas.paste(spec.rim + (255,), (0, 0), _circle_mask(side, outer))

    face = Image.new("RGBA", (side, side), spec.fills[0] + (255,))
    if len(spec.fills) == 2:
        ImageDraw.Draw(face).polygon([(side, 0), (side, side), (0, side)], fill=spec.fills[1] + (255,))
    diameter = 2 * inner
    for glyph in spec.glyphs:
        glyph_side = max(8, round(glyph.box * diameter))
        mask = _glyph_mask(glyph.kind, glyph_side)
        x = round(c + glyph.dx * diameter - glyph_side / 2)
        y = round(c + glyph.dy * diameter - glyph_side / 2)
        face.paste(glyph.ink + (255,), (x, y, x + glyph_side, y + glyph_side), mask)
    canvas.paste(face, (0, 0), _circle_mask(side, inner))

    if spec.half:
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((c - rim_width / 2, 0, c + rim_width / 2, side), fill=spec.rim + (255,))
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


_NAME_RE = re.compile(r"^[A-Za-z0-9_]{2,32}$")


def valid_emoji_name(name: str) -> bool:
    """True if Discord accepts `name` as an emoji name (2-32 characters of A-Z a-z 0-9 _)."""
    return bool(_NAME_RE.fullmatch(name))
