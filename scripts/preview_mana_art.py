"""Render a contact sheet of every mana emoji, to check how the drawings read.

Each cell shows one symbol at 128 px and at 24 px (the size Discord shows inline emojis), on
Discord's light and dark message backgrounds, plus the 24 px image magnified 3x so its pixels can
be judged. Usage: `python scripts/preview_mana_art.py [out.png] [--symbols W,U,2/W]`.
"""

from __future__ import annotations

import argparse
import functools
import io
import sys
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.present.mana_art import SYMBOLS, draw, emoji_name

LIGHT_BG = (255, 255, 255)
DARK_BG = (49, 51, 56)
SMALL = 24
ZOOM = 3
BIG = 128


@functools.cache
def _png(symbol: str) -> bytes:
    """The emoji's PNG at 128 px, drawn once per symbol (each appears four times on the sheet)."""
    return draw(symbol, BIG)


def _open(symbol: str, size: int) -> Image.Image:
    """The emoji as Discord would get it (PNG at 128 px), scaled to `size` like a client does."""
    image = Image.open(io.BytesIO(_png(symbol))).convert("RGBA")
    if size != BIG:
        image = image.resize((size, size), Image.Resampling.LANCZOS)
    return image


def _on(background: tuple[int, int, int], image: Image.Image) -> Image.Image:
    """`image` flattened onto a solid background."""
    base = Image.new("RGBA", image.size, background + (255,))
    base.alpha_composite(image)
    return base


def cell(symbol: str) -> Image.Image:
    """One symbol's cell: big and small on light and dark, the small one magnified, and its name."""
    big = _open(symbol, BIG)
    small = _open(symbol, SMALL)
    zoomed = small.resize((SMALL * ZOOM, SMALL * ZOOM), Image.Resampling.NEAREST)
    pad = 6
    width = 2 * (BIG + pad) + pad
    height = BIG + 2 * pad + SMALL * ZOOM + pad + 16
    out = Image.new("RGBA", (width, height), (225, 225, 225, 255))
    for i, bg in enumerate((LIGHT_BG, DARK_BG)):
        x = pad + i * (BIG + pad)
        out.paste(_on(bg, big), (x, pad))
        strip = Image.new("RGBA", (BIG, SMALL * ZOOM), bg + (255,))
        strip.paste(_on(bg, small), (4, (SMALL * ZOOM - SMALL) // 2))
        strip.paste(_on(bg, zoomed), (BIG - SMALL * ZOOM - 4, 0))
        out.paste(strip, (x, BIG + 2 * pad))
    label = f"{{{symbol}}}  {emoji_name(symbol)}"
    ImageDraw.Draw(out).text((pad, height - 16), label, fill=(0, 0, 0), font=ImageFont.load_default(size=12))
    return out


def inline_row(symbols: Sequence[str], background: tuple[int, int, int]) -> Image.Image:
    """All symbols side by side at 24 px, as they would sit in a line of chat text."""
    per_row = 40
    rows = (len(symbols) + per_row - 1) // per_row
    out = Image.new("RGBA", (per_row * (SMALL + 2) + 8, rows * (SMALL + 6) + 8), background + (255,))
    for i, symbol in enumerate(symbols):
        out.alpha_composite(_open(symbol, SMALL), (4 + (i % per_row) * (SMALL + 2), 4 + (i // per_row) * (SMALL + 6)))
    return out


def sheet(symbols: Sequence[str], columns: int = 6) -> Image.Image:
    """The contact sheet: inline rows on light and dark, then one cell per symbol."""
    cells = [cell(s) for s in symbols]
    cw, ch = cells[0].size
    rows = (len(cells) + columns - 1) // columns
    light, dark = inline_row(symbols, LIGHT_BG), inline_row(symbols, DARK_BG)
    width = max(columns * cw, light.width)
    top = light.height + dark.height
    out = Image.new("RGBA", (width, top + rows * ch), (200, 200, 200, 255))
    out.paste(light, (0, 0))
    out.paste(dark, (0, light.height))
    for i, image in enumerate(cells):
        out.paste(image, ((i % columns) * cw, top + (i // columns) * ch))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Write the contact sheet to the given path (default `mana_art_preview.png`)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", nargs="?", default="mana_art_preview.png", type=Path)
    parser.add_argument("--symbols", default="", help="comma-separated subset, e.g. W,U,2/W")
    parser.add_argument("--columns", type=int, default=6)
    args = parser.parse_args(argv)
    symbols = [s.strip() for s in args.symbols.split(",") if s.strip()] or list(SYMBOLS)
    sheet(symbols, args.columns).convert("RGB").save(args.out)
    print(f"wrote {args.out} ({len(symbols)} symbols)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
