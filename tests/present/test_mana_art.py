"""The project's drawn mana symbols: valid PNG emojis with the right colors in the right places."""

from __future__ import annotations

import functools
import io
import math
import re
from collections.abc import Callable, Iterable

import pytest
from PIL import Image

from bot.present import mana_art, render
from bot.present.mana_art import COLORS, DARK, GENERIC, SYMBOLS, draw, emoji_name, symbol_of

SIZE = 128
DISCORD_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
SYMBOL_IN_TEXT = re.compile(r"\{([^{}]{1,12})\}")


def _pixels(image: Image.Image) -> list[tuple[int, ...]]:
    """Every pixel of an RGBA image, row by row."""
    raw = image.convert("RGBA").tobytes()
    return [tuple(raw[i : i + 4]) for i in range(0, len(raw), 4)]


def _px(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int, int]:
    """One RGBA pixel."""
    pixel = image.convert("RGBA").getpixel(xy)
    assert isinstance(pixel, tuple)
    r, g, b, a = pixel
    return (r, g, b, a)


def _open(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.fixture(scope="module")
def png() -> Callable[[str], bytes]:
    """`png(symbol)`: `draw(symbol)` at the emoji size, each symbol drawn once per module (drawing is
    deterministic: test_draw_is_deterministic_and_scales calls `draw` itself)."""
    return functools.cache(draw)


@pytest.fixture(scope="module")
def image(png: Callable[[str], bytes]) -> Callable[[str], Image.Image]:
    """`image(symbol)`: the decoded `png(symbol)`, once per module (tests only read it)."""
    return functools.cache(lambda symbol: _open(png(symbol)))


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 8) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b[:3], strict=True))


def _ring(image: Image.Image, angles: Iterable[float], radius: float) -> list[tuple[int, int, int, int]]:
    """Pixels on a circle of `radius` (fraction of half the size) at `angles` (degrees, 0 = right, 90 = down)."""
    c = image.width / 2
    r = radius * c
    return [
        _px(image, (int(c + r * math.cos(math.radians(a))), int(c + r * math.sin(math.radians(a)))))
        for a in angles
    ]


def _share_of(pixels: list[tuple[int, int, int, int]], color: tuple[int, int, int]) -> float:
    return sum(1 for p in pixels if p[3] == 255 and _close(p, color)) / len(pixels)


def _fill_of(part: str) -> tuple[int, int, int]:
    """The expected background of one part of a symbol: its color, or grey for anything not a color."""
    return COLORS.get(part, GENERIC)


def _expected_regions(symbol: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(upper-left fill, lower-right fill) read off the symbol's spelling, independently of the drawing code.

    Hybrids put their first part upper-left and the second lower-right; the Phyrexian `P` part and the
    half-mana `H` prefix change the glyph or shape, not the color.
    """
    if symbol in ("Q", "E"):
        return DARK, DARK
    parts = [p for p in symbol.split("/") if p != "P"] or ["P"]
    if len(parts) == 1 and len(parts[0]) == 2 and parts[0][0] == "H" and parts[0][1] in COLORS:
        parts = [parts[0][1]]
    first = _fill_of(parts[0])
    return first, _fill_of(parts[-1])


UPPER_LEFT = [a / 2 for a in range(2 * 150, 2 * 300)]
LOWER_RIGHT = [a / 2 for a in range(2 * 330, 2 * 480)]
LEFT = [a / 2 for a in range(2 * 110, 2 * 250)]


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_every_symbol_draws_a_valid_transparent_png(symbol: str, png: Callable[[str], bytes]) -> None:
    data = png(symbol)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < mana_art.MAX_EMOJI_BYTES == 256 * 1024
    image = _open(data)
    assert image.format == "PNG"
    assert image.mode == "RGBA"
    assert image.size == (SIZE, SIZE)
    for corner in ((0, 0), (SIZE - 1, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1), (4, 4), (SIZE - 5, SIZE - 5)):
        assert _px(image, corner)[3] == 0, f"{symbol}: corner {corner} is not transparent"
    opaque = image.getchannel("A").histogram()[255]
    assert opaque > 0.3 * SIZE * SIZE, f"{symbol}: the pip is missing"


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_pip_colors_sit_where_the_symbol_says(symbol: str, image: Callable[[str], Image.Image]) -> None:
    drawn = image(symbol)
    first, second = _expected_regions(symbol)
    if symbol.startswith("H") and symbol[1:] in COLORS:
        assert _share_of(_ring(drawn, LEFT, 0.83), first) > 0.6, symbol
        right = drawn.crop((int(SIZE * 0.56), 0, SIZE, SIZE)).getchannel("A")
        assert right.getextrema() == (0, 0), f"{symbol}: half mana shows its right half"
        return
    assert _share_of(_ring(drawn, UPPER_LEFT, 0.83), first) > 0.6, f"{symbol}: upper-left is not {first}"
    assert _share_of(_ring(drawn, LOWER_RIGHT, 0.83), second) > 0.6, f"{symbol}: lower-right is not {second}"


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_every_pip_has_a_rim_that_contrasts_with_its_fill(symbol: str, image: Callable[[str], Image.Image]) -> None:
    """A dark rim around light pips (visible on the light theme), a light one around dark pips."""
    drawn = image(symbol)
    angles = [180.0] if symbol.startswith("H") else [0.0, 90.0, 180.0, 270.0]
    fill, _ = _expected_regions(symbol)
    fill_light = sum(fill) / 3
    for pixel in _ring(drawn, angles, 0.93):
        assert pixel[3] == 255
        assert abs(sum(pixel[:3]) / 3 - fill_light) > 90, f"{symbol}: rim {pixel} does not stand out from {fill}"


def _ink_share(image: Image.Image, box: tuple[int, int, int, int], ink: tuple[int, int, int]) -> float:
    region = image.crop(box)
    pixels = _pixels(region)
    return sum(1 for p in pixels if p[3] == 255 and _close(p, ink, 40)) / len(pixels)


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_every_pip_carries_a_glyph(symbol: str, image: Callable[[str], Image.Image]) -> None:
    drawn = image(symbol)
    ink = mana_art.LIGHT_INK if symbol in ("Q", "E") else mana_art.INK
    q = SIZE // 4
    if "/" in symbol and _expected_regions(symbol)[0] != _expected_regions(symbol)[1] and not symbol.endswith("/P"):
        # A hybrid shows one glyph in each half.
        assert _ink_share(drawn, (q // 2, q // 2, 2 * q, 2 * q), ink) > 0.05, f"{symbol}: no glyph upper-left"
        assert _ink_share(drawn, (2 * q, 2 * q, 4 * q - q // 2, 4 * q - q // 2), ink) > 0.05, f"{symbol}: no glyph lower-right"
    else:
        left = q
        right = 3 * q if not symbol.startswith("H") else 2 * q
        assert _ink_share(drawn, (left, q, right, 3 * q), ink) > 0.06, f"{symbol}: no glyph"


@pytest.mark.slow
def test_all_symbols_look_different(png: Callable[[str], bytes]) -> None:
    images = {symbol: png(symbol) for symbol in SYMBOLS}
    assert len(set(images.values())) == len(SYMBOLS)


def _ink_mask(drawn: Image.Image) -> list[bool]:
    return [p[3] == 255 and _close(p, mana_art.INK, 60) for p in _pixels(drawn)]


def test_the_five_color_glyphs_are_different_shapes(image: Callable[[str], Image.Image]) -> None:
    """Sun, drop, skull, flame and tree: not one shape recolored."""
    masks = {c: _ink_mask(image(c)) for c in "WUBRG"}
    for a in "WUBRG":
        for b in "WUBRG":
            if a < b:
                differing = sum(x != y for x, y in zip(masks[a], masks[b], strict=True))
                assert differing > 0.04 * SIZE * SIZE, f"{a} and {b} glyphs are nearly the same shape"


def test_phyrexian_symbols_share_the_phi_mark_and_differ_from_plain_pips(image: Callable[[str], Image.Image]) -> None:
    phi = [_ink_mask(image(s)) for s in ("W/P", "U/P", "B/P", "R/P", "G/P", "P")]
    for mask in phi[1:]:
        differing = sum(x != y for x, y in zip(mask, phi[0], strict=True))
        assert differing < 0.01 * SIZE * SIZE, "the phi mark should be the same on every Phyrexian pip"
    plain = _ink_mask(image("W"))
    assert sum(x != y for x, y in zip(plain, phi[0], strict=True)) > 0.04 * SIZE * SIZE


def test_palette_colors_are_told_apart() -> None:
    fills = [*COLORS.values(), GENERIC, DARK]
    for i, a in enumerate(fills):
        for b in fills[i + 1:]:
            assert math.dist(a, b) > 25, f"{a} and {b} are too alike"


@pytest.mark.parametrize("symbol", ["W", "2/G", "G/U/P", "HR", "10"])
def test_draw_is_deterministic_and_scales(symbol: str) -> None:
    first = draw(symbol)
    for other in SYMBOLS[:10]:
        draw(other, 48)
    assert draw(symbol) == first
    for size in (24, 48, 256):
        image = _open(draw(symbol, size))
        assert image.size == (size, size)
        assert _px(image, (0, 0))[3] == 0
    assert len(draw(symbol, 256)) < mana_art.MAX_EMOJI_BYTES


def test_spellings_are_normalized(png: Callable[[str], bytes]) -> None:
    assert draw("{w/u}") == png("W/U")
    assert draw(" {2/g} ") == png("2/G")
    assert emoji_name("{g/u/p}") == emoji_name("G/U/P") == "mana_GUP"


def test_any_hybrid_order_is_drawn_first_color_upper_left() -> None:
    image = _open(draw("U/W"))  # not a printed order, but drawable
    assert _share_of(_ring(image, UPPER_LEFT, 0.83), COLORS["U"]) > 0.6
    assert _share_of(_ring(image, LOWER_RIGHT, 0.83), COLORS["W"]) > 0.6


@pytest.mark.parametrize("bad", ["", "W/W", "K", "H", "HX", "2/P", "W/U/B", "W/U/Q", "P/W", "C/P", "hello"])
def test_unknown_symbols_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        draw(bad)


def test_too_small_is_refused() -> None:
    with pytest.raises(ValueError):
        draw("W", 4)


def test_emoji_names_are_valid_unique_and_invertible() -> None:
    names = [emoji_name(s) for s in SYMBOLS]
    for name in names:
        assert DISCORD_NAME.fullmatch(name), name
        assert name.startswith(mana_art.EMOJI_PREFIX)
    assert len(set(names)) == len(names)
    assert len({n.lower() for n in names}) == len(names), "names must not differ only by case"
    for symbol, name in zip(SYMBOLS, names, strict=True):
        assert symbol_of(name) == symbol


def test_emoji_names_follow_the_documented_pattern() -> None:
    assert [emoji_name(s) for s in ("W", "W/U", "2/W", "C/W", "W/P", "W/U/P", "HW", "10", "½", "∞")] == [
        "mana_W", "mana_WU", "mana_2W", "mana_CW", "mana_WP", "mana_WUP", "mana_HW", "mana_10",
        "mana_half", "mana_infinity",
    ]


def test_names_outside_the_set() -> None:
    assert symbol_of("mana_UW") is None
    assert symbol_of("thinking") is None
    assert symbol_of("MANA_W") is None
    with pytest.raises(ValueError):
        emoji_name("U/W")
    assert not DISCORD_NAME.fullmatch("a")
    assert not DISCORD_NAME.fullmatch("mana-W")
    assert not DISCORD_NAME.fullmatch("m" * 33)


def test_emoji_map_turns_uploaded_emojis_into_render_markup() -> None:
    uploaded: dict[str, int | str] = {"mana_W": 111, "mana_WU": "222", "mana_2G": 333, "party_parrot": 444, "mana_UW": 555}
    assert mana_art.emoji_map(uploaded) == {"W": "<:mana_W:111>", "W/U": "<:mana_WU:222>", "2/G": "<:mana_2G:333>"}
    assert mana_art.emoji_map({}) == {}


def test_emoji_map_output_is_what_render_uses() -> None:

    emoji = mana_art.emoji_map({emoji_name(s): i for i, s in enumerate(SYMBOLS, start=1)})
    assert len(emoji) == len(SYMBOLS)
    assert render.render_symbols("{2/W}{G/U/P}{T}", emoji) == (
        f"<:mana_2W:{SYMBOLS.index('2/W') + 1}><:mana_GUP:{SYMBOLS.index('G/U/P') + 1}><:mana_T:{SYMBOLS.index('T') + 1}>"
    )
    number = {s: i for i, s in enumerate(SYMBOLS, start=1)}
    assert render.pips("RB", emoji) == f"<:mana_B:{number['B']}><:mana_R:{number['R']}> " + render.color_words("RB")


def test_symbols_are_unique_and_in_scryfall_spelling() -> None:
    assert len(set(SYMBOLS)) == len(SYMBOLS)
    for symbol in SYMBOLS:
        assert symbol == mana_art.normalize(symbol)
        assert "{" not in symbol and symbol.strip() == symbol


def test_every_symbol_on_a_commander_card_has_an_emoji(all_cards) -> None:
    """Each symbol printed in a cost or rules text of a card that Commander knows (legal or banned)."""
    used: set[str] = set()
    for card in all_cards:
        if card.get("legalities", {}).get("commander") == "not_legal":
            continue
        texts = [card.get("mana_cost") or "", card.get("oracle_text") or ""]
        for face in card.get("card_faces") or ():
            texts += [face.get("mana_cost") or "", face.get("oracle_text") or ""]
        for text in texts:
            used.update(SYMBOL_IN_TEXT.findall(text))
    assert len(used) >= 40
    assert used - set(SYMBOLS) == set()


def test_mana_art_is_pure_pillow() -> None:
    """Importing the module pulls in neither discord.py nor anything else of the project."""
    import subprocess
    import sys

    code = (
        "import sys, bot.present.mana_art\n"
        "loaded = sorted(m for m in sys.modules if m == 'discord' or m.startswith(('discord.', 'aiohttp')))\n"
        "ours = sorted(m for m in sys.modules if m.startswith('bot.') and m not in ('bot.present', 'bot.present.mana_art', 'bot.present.mana_glyphs'))\n"
        "print(loaded, ours)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[] []"
