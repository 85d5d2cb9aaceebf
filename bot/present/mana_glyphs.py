"""The glyphs drawn on mana pips (`bot.present.mana_art`): sun, drop, skull, flame, tree, snowflake, phi, tap
arrows, ... from Pillow primitives, and numbers and X/Y/Z in Pillow's built-in scalable font
(`ImageFont.load_default(size=...)`, no system fonts). `glyph_mask(kind, side)` is a grayscale mask of one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

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


def glyph_mask(kind: str, side: int) -> Image.Image:
    """A square grayscale mask (255 = ink) of one glyph, `side` pixels wide."""
    mask = Image.new("L", (side, side), 0)
    if kind.startswith("text:"):
        text = kind[5:]
        _paste_text(mask, text, (0.0, 0.0), 1.6 if len(text) == 1 else 1.46)
    else:
        _SHAPES[kind](_Pen(mask))
    return mask
