"""Real mana symbols out of the box: on start the bot makes sure its application has one emoji per mana
symbol (Scryfall's official symbol images, rendered to PNG), uploads only the missing ones, replaces them when
the art's version changes, and uses them in replies; MANA_EMOJI still overrides; when Discord refuses the
uploads or Scryfall's symbols cannot be had, the bot still starts and answers with text symbols. Against the
fake Discord's application emojis and the fake Scryfall's /symbology.
"""

from __future__ import annotations

import asyncio
import base64
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.app.bot import IdentityBot
from bot.app.emoji import MARKER
from bot.present import mana_art
from tests.fakes.discord import FakeDiscord, snowflake
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, running
from tests.shared_data import card

pytestmark = pytest.mark.timeout(120)

CARDS = ("Fires of Undeath", "Kitchen Finks", "Sol Ring")
SYMBOL_COUNT = len(mana_art.SYMBOLS)


def started(discord: FakeDiscord, scryfall: FakeScryfall, tmp: Path, **settings: Any) -> Any:
    """The bot's runtime context, with application emojis on (as the composition root will run it)."""
    settings.setdefault("mana_emoji_upload", True)
    return running(bot_settings(discord, scryfall, tmp / "cards.sqlite3", **settings), discord)


async def ready(bot: IdentityBot) -> None:
    await asyncio.wait_for(bot.emoji_ready.wait(), 60)


def names(discord: FakeDiscord) -> set[str]:
    return {e["name"] for e in discord.app_emojis.values()}


def svg_downloads(scryfall: FakeScryfall) -> int:
    return scryfall.count("/card-symbols/", prefix=True)


def own_emoji(discord: FakeDiscord, name: str) -> dict[str, Any]:
    """An emoji the application already has (made in the Developer Portal, or by an earlier art version)."""
    emoji = {
        "id": snowflake(),
        "name": name,
        "roles": [],
        "require_colons": True,
        "managed": False,
        "animated": False,
        "available": True,
    }
    discord.app_emojis[emoji["id"]] = emoji
    discord.emoji_images[emoji["id"]] = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
    )
    return emoji


@pytest.mark.slow
async def test_first_start_uploads_every_symbol_and_uses_them(tmp_path):
    async with FakeScryfall([card(n) for n in CARDS]) as scryfall, FakeDiscord() as discord:
        async with started(discord, scryfall, tmp_path) as runtime:
            bot = runtime.bot
            await ready(bot)
            assert len(discord.emoji_uploads) == SYMBOL_COUNT + 1  # every symbol, and the version marker
            assert scryfall.count("/symbology") == 1 and svg_downloads(scryfall) == SYMBOL_COUNT
            assert names(discord) == {mana_art.emoji_name(s) for s in mana_art.SYMBOLS} | {MARKER}
            assert all(u["format"] == "PNG" for u in discord.emoji_uploads)
            assert set(bot.emoji) == set(mana_art.SYMBOLS)

            reply = await discord.invoke("identity", {"card": "Fires of Undeath"}, timeout=30)
            text = reply.text()
            black = next(e for e in discord.app_emojis.values() if e["name"] == "mana_B")
            assert f"<:mana_B:{black['id']}>" in text and "{B}" not in text
            hybrid = await discord.invoke("identity", {"card": "Kitchen Finks"}, timeout=30)
            assert "<:mana_GW:" in hybrid.text()  # hybrid symbols too
            dm = await discord.invoke("identity", {"card": "Fires of Undeath"}, where="bot_dm")
            assert "<:mana_R:" in dm.text()
            assert discord.emoji_uses and discord.unknown_emojis == []
        uploads = len(discord.emoji_uploads)

        # a restart finds a complete set: nothing is uploaded again, nothing asked of Scryfall
        async with started(discord, scryfall, tmp_path) as runtime:
            await ready(runtime.bot)
            assert len(discord.emoji_uploads) == uploads
            assert scryfall.count("/symbology") == 1 and svg_downloads(scryfall) == SYMBOL_COUNT
            assert set(runtime.bot.emoji) == set(mana_art.SYMBOLS)
        assert discord.violations == []


@pytest.mark.slow
async def test_new_art_replaces_the_old_emojis(tmp_path):
    async with FakeScryfall([card("Sol Ring")]) as scryfall, FakeDiscord() as discord:
        old_marker = own_emoji(discord, "mana_art_v0")
        old_black = own_emoji(discord, "mana_B")
        logo = own_emoji(discord, "bot_logo")  # not a mana emoji: never touched
        async with started(discord, scryfall, tmp_path) as runtime:
            await ready(runtime.bot)
            assert old_marker["id"] not in discord.app_emojis and old_black["id"] not in discord.app_emojis
            assert logo["id"] in discord.app_emojis
            assert names(discord) == {mana_art.emoji_name(s) for s in mana_art.SYMBOLS} | {
                MARKER,
                "bot_logo",
            }
            assert (
                "DELETE",
                f"/applications/{discord.application_id}/emojis/{old_black['id']}",
            ) in discord.requests
            assert runtime.bot.emoji["B"] != f"<:mana_B:{old_black['id']}>"
        assert discord.violations == []


async def test_refused_uploads_leave_text_symbols(tmp_path):
    async with FakeScryfall([card("Fires of Undeath")]) as scryfall, FakeDiscord() as discord:
        discord.emoji_limit = 0  # Discord refuses every upload (the application's emoji limit)
        async with started(discord, scryfall, tmp_path) as runtime:
            await ready(runtime.bot)
            assert runtime.bot.emoji == {}
            reply = await discord.invoke("identity", {"card": "Fires of Undeath"}, timeout=30)
            assert "{B}{R}" in reply.text()
            posts = [r for r in discord.requests if r[0] == "POST" and r[1].endswith("/emojis")]
            assert len(posts) == 1  # the first refusal ends the uploads
        assert discord.unknown_emojis == []
        # the one refused upload is the only broken rule
        assert len(discord.violations) == 1 and "emojis" in discord.violations[0]


@pytest.mark.slow
async def test_mana_emoji_setting_overrides_symbol_by_symbol(tmp_path):
    async with FakeScryfall([card("Fires of Undeath")]) as scryfall, FakeDiscord() as discord:
        custom = own_emoji(discord, "my_red")
        async with started(discord, scryfall, tmp_path, mana_emoji=f"R=<:my_red:{custom['id']}>") as runtime:
            await ready(runtime.bot)
            reply = await discord.invoke("identity", {"card": "Fires of Undeath"}, timeout=30)
            text = reply.text()
            assert f"<:my_red:{custom['id']}>" in text and "<:mana_R:" not in text
            assert "<:mana_B:" in text
        assert discord.unknown_emojis == [] and discord.violations == []


async def test_without_app_emojis_symbols_are_text_and_nothing_is_uploaded(tmp_path):
    async with FakeScryfall([card("Fires of Undeath")]) as scryfall, FakeDiscord() as discord:
        settings = bot_settings(discord, scryfall, tmp_path / "cards.sqlite3")
        async with running(settings, discord) as runtime:
            assert runtime.bot.emoji_ready.is_set() and runtime.bot.emoji == {}
            reply = await discord.invoke("identity", {"card": "Fires of Undeath"})
            assert "{B}{R}" in reply.text()
        assert discord.emoji_uploads == [] and not any("emojis" in path for _m, path in discord.requests)


async def test_symbols_scryfall_lacks_stay_text_and_are_asked_for_again(tmp_path):
    async with FakeScryfall([card("Fires of Undeath")]) as scryfall, FakeDiscord() as discord:
        scryfall.symbology_lacks = frozenset({"B", "HU"})
        async with started(discord, scryfall, tmp_path) as runtime:
            await ready(runtime.bot)
            assert set(runtime.bot.emoji) == set(mana_art.SYMBOLS) - {"B", "HU"}
            assert svg_downloads(scryfall) == SYMBOL_COUNT - 2
            reply = await discord.invoke("identity", {"card": "Fires of Undeath"}, timeout=30)
            assert "{B}<:mana_R:" in reply.text()
        scryfall.symbology_lacks = frozenset({"HU"})  # Scryfall now has {B}: the next start uploads it alone
        uploads = len(discord.emoji_uploads)
        async with started(discord, scryfall, tmp_path) as runtime:
            await ready(runtime.bot)
            assert set(runtime.bot.emoji) == set(mana_art.SYMBOLS) - {"HU"}
            assert [u["name"] for u in discord.emoji_uploads[uploads:]] == ["mana_B"]
        assert discord.violations == []


async def test_without_scryfall_symbols_the_bot_starts_with_text_and_keeps_old_art(tmp_path, caplog):
    async with FakeScryfall([card("Fires of Undeath")]) as scryfall, FakeDiscord() as discord:
        scryfall.symbology_status = 404
        old_marker = own_emoji(discord, "mana_art_v1")
        old_black = own_emoji(discord, "mana_B")
        with caplog.at_level(logging.WARNING, logger="bot.app.emoji"):
            async with started(discord, scryfall, tmp_path) as runtime:
                await ready(runtime.bot)
                assert runtime.bot.emoji == {"B": f"<:mana_B:{old_black['id']}>"}  # the old art stays in use
                reply = await discord.invoke("identity", {"card": "Fires of Undeath"}, timeout=30)
                assert f"<:mana_B:{old_black['id']}>{{R}}" in reply.text()
        assert [r.getMessage() for r in caplog.records if r.name == "bot.app.emoji"] == [
            "cannot get the mana symbols from Scryfall (404 server_error: fake /symbology fault): symbols without "
            "an emoji stay text"
        ]
        assert old_marker["id"] in discord.app_emojis and discord.emoji_uploads == []
        assert svg_downloads(scryfall) == 0 and discord.violations == []
