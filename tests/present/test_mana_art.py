"""The mana emojis' pure parts: which symbols, their Discord emoji names, and SVG -> PNG for the images."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.present import mana_art, render
from bot.present.mana_art import SYMBOLS, emoji_name, png, symbol_of
from tests.fakes.scryfall import symbol_svg

DISCORD_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
SYMBOL_IN_TEXT = re.compile(r"\{([^{}]{1,12})\}")
RED = (200, 30, 30, 255)
NOISE = (
    '<filter id="noise"><feTurbulence baseFrequency="0.9" numOctaves="4"/></filter>'
    '<rect width="100" height="100" filter="url(#noise)"/>'
)


def _svg(width: int, height: int, body: str) -> bytes:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}">{body}</svg>').encode()


def _open(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGBA")


@pytest.mark.parametrize("symbol", ["W", "G/U/P", "½", "∞", "CHAOS", "20"])
def test_an_svg_becomes_a_transparent_png_emoji(symbol: str) -> None:
    data = png(symbol_svg(symbol))
    assert len(data) < mana_art.MAX_EMOJI_BYTES == 256 * 1024
    image = _open(data)
    assert image.size == (mana_art.SIZE, mana_art.SIZE)
    assert image.getpixel((0, 0))[3] == 0  # outside the circle: transparent
    assert image.getpixel((64, 8))[3] == 255  # inside it: opaque


def test_the_picture_is_drawn_where_the_svg_says() -> None:
    image = _open(png(_svg(100, 100, '<rect x="50" width="50" height="100" fill="rgb(200,30,30)"/>'), 64))
    assert image.size == (64, 64)
    assert image.getpixel((48, 32)) == RED
    assert image.getpixel((16, 32))[3] == 0


def test_a_wide_svg_keeps_its_shape() -> None:
    image = _open(png(_svg(200, 100, '<rect width="200" height="100" fill="rgb(200,30,30)"/>')))
    assert image.size == (mana_art.SIZE, mana_art.SIZE // 2)
    assert image.getpixel((5, 5)) == RED


@pytest.mark.parametrize("bad", [b"", b"<html>not an svg</html>", b"\xff\xfe<svg", b"<svg xmlns="])
def test_what_is_not_an_svg_is_refused(bad: bytes) -> None:
    with pytest.raises(ValueError):
        png(bad)


def test_an_image_over_discords_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="over Discord's"):
        png(_svg(100, 100, NOISE), 1024)


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
        "mana_W",
        "mana_WU",
        "mana_2W",
        "mana_CW",
        "mana_WP",
        "mana_WUP",
        "mana_HW",
        "mana_10",
        "mana_half",
        "mana_infinity",
    ]
    assert emoji_name("{w/u}") == "mana_WU"


def test_names_outside_the_set() -> None:
    assert symbol_of("mana_UW") is None
    assert symbol_of("thinking") is None
    assert symbol_of("MANA_W") is None
    assert symbol_of("mana_art_v2") is None  # the version marker is not a symbol
    with pytest.raises(ValueError):
        emoji_name("U/W")
    assert not DISCORD_NAME.fullmatch("a")
    assert not DISCORD_NAME.fullmatch("mana-W")
    assert not DISCORD_NAME.fullmatch("m" * 33)


def test_emoji_map_turns_uploaded_emojis_into_render_markup() -> None:
    uploaded: dict[str, int | str] = {
        "mana_W": 111,
        "mana_WU": "222",
        "mana_2G": 333,
        "party_parrot": 444,
        "mana_UW": 555,
    }
    assert mana_art.emoji_map(uploaded) == {
        "W": "<:mana_W:111>",
        "W/U": "<:mana_WU:222>",
        "2/G": "<:mana_2G:333>",
    }
    assert mana_art.emoji_map({}) == {}


def test_emoji_map_output_is_what_render_uses() -> None:
    number = {s: i for i, s in enumerate(SYMBOLS, start=1)}
    emoji = mana_art.emoji_map({emoji_name(s): i for s, i in number.items()})
    assert len(emoji) == len(SYMBOLS)
    assert render.render_symbols("{2/W}{G/U/P}{T}", emoji) == (
        f"<:mana_2W:{number['2/W']}><:mana_GUP:{number['G/U/P']}><:mana_T:{number['T']}>"
    )
    assert render.pips(
        "RB", emoji
    ) == f"<:mana_B:{number['B']}><:mana_R:{number['R']}> " + render.color_words("RB")


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


def test_mana_art_is_pure() -> None:
    """Importing the module pulls in neither discord.py, aiohttp nor anything of the project but the pure engine."""
    import subprocess
    import sys

    code = (
        "import sys, bot.present.mana_art\n"
        "loaded = sorted(m for m in sys.modules if m == 'discord' or m.startswith(('discord.', 'aiohttp')))\n"
        "ours = sorted(m for m in sys.modules if m.startswith('bot.') and m.split('.')[1] != 'identity'\n"
        "    and m not in ('bot.present', 'bot.present.mana_art'))\n"
        "print(loaded, ours)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[] []"
