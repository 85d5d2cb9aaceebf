"""End to end, the player's Discord language (issue 20): the real bot on the fake Discord and the fake Scryfall.
Commands are synced with their localized names and descriptions; interactions sent at once from clients in
German, Japanese, French and English each get their reply in their own language (the locale lives in a
ContextVar set per interaction, and each interaction runs in its own task)."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from bot.app.bot import IdentityBot
from bot.settings import load_settings
from tests.fakes.discord import FakeDiscord, Reply
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import running_bot
from tests.shared_data import cards_by_name

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

CARDS = ("Fires of Undeath", "Kitchen Finks", "Kumano, Master Yamabushi", "Sol Ring")
WORDS = {"de": "Farbidentität", "ja": "固有色", "fr": "identité couleur", "en-US": "color identity"}


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory):
    named = cards_by_name()
    scryfall = FakeScryfall([named[n] for n in CARDS])
    await scryfall.start()
    fake = FakeDiscord()
    api_base = await fake.start()
    settings = load_settings(
        discord_token=fake.token,
        discord_api_base=api_base,
        scryfall_api_base=scryfall.base_url,
        cache_path=tmp_path_factory.mktemp("locale-e2e") / "cache.sqlite3",
        bulk_refresh_hours=0,
        sync_commands=True,
        dev_guild_id=None,
        scryfall_timeout=3.0,
        user_rate="off",
        mana_emoji="",
        mana_emoji_upload=False,
    )
    async with running_bot(settings, fake) as bot:
        yield bot, fake
    await fake.close()
    await scryfall.close()


async def ask(fake: FakeDiscord, locale: str, name: str, options: dict[str, str]) -> Reply:
    return await fake.invoke(name, options, locale=locale)


def text(reply: Reply) -> str:
    return "\n".join([reply.content, *(str(e) for e in reply.embeds)])


async def test_commands_are_synced_with_their_localizations(world: tuple[IdentityBot, FakeDiscord]) -> None:
    _bot, fake = world
    synced = fake.command_syncs[-1]
    identity = synced.command("identity")
    assert identity["name_localizations"]["de"] == "identität"
    assert identity["name_localizations"]["ja"] == "固有色"
    assert identity["description_localizations"]["fr"].startswith("Explique")
    fits = synced.command("fits")
    commander = next(o for o in fits["options"] if o["name"] == "commander")
    assert (
        commander["name_localizations"]["es-419"] == commander["name_localizations"]["es-ES"] == "comandante"
    )
    assert fake.violations == []


async def test_interactions_at_once_each_answer_in_their_own_language(
    world: tuple[IdentityBot, FakeDiscord],
) -> None:
    _bot, fake = world
    asked = [(locale, card) for card in ("Fires of Undeath", "Kitchen Finks") for locale in WORDS]
    replies = await asyncio.gather(*(ask(fake, locale, "identity", {"card": card}) for locale, card in asked))
    for (locale, card), reply in zip(asked, replies, strict=True):
        shown = text(reply)
        assert card in shown and WORDS[locale] in shown, (locale, shown)
        assert [w for other, w in WORDS.items() if other != locale and w in shown] == [], (locale, shown)
    assert fake.violations == []


async def test_errors_answer_in_the_players_language(world: tuple[IdentityBot, FakeDiscord]) -> None:
    _bot, fake = world
    german, english = await asyncio.gather(
        ask(fake, "de", "fits", {"card": "Sol Ring", "commander": "Sol Ring", "color": "R"}),
        ask(fake, "en-US", "identity", {"card": "Nonexistent Cardname Zzz"}),
    )
    assert german.ephemeral and "Kommandeur" in text(german), text(german)
    assert english.ephemeral and "I couldn't find a card named" in english.content, english.content
