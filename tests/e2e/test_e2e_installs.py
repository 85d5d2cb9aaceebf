"""Where players are: the commands installed to a user account work in the DM with the bot, group DMs, DMs
between users and servers the bot is not in, besides the usual server install; the synced command payloads
declare both installation kinds and every context. An application without user install declares only the
server install (and its sync is still accepted). `/house` (a server's house rules) is the exception: the
server install, in servers only.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio

from bot.app.bot import IdentityBot
from bot.cards.model import AmbiguousCard
from tests.fakes.discord import GUILD_INSTALL, USER_INSTALL, FakeDiscord, UserCannotDoThat
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, running

pytestmark = pytest.mark.asyncio(loop_scope="module")

DECKS = Path(__file__).parents[1] / "data" / "decks"
PLACES = ("guild", "bot_dm", "group_dm", "private_dm", "user_guild")


class World:
    def __init__(self, discord: FakeDiscord, scryfall: FakeScryfall, bot: IdentityBot, cache: Path) -> None:
        self.discord = discord
        self.scryfall = scryfall
        self.bot = bot
        self.cache = cache


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory, card_cache_copy):
    tmp: Path = tmp_path_factory.mktemp("installs")
    cache = tmp / "cards.sqlite3"
    card_cache_copy(cache)
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeDiscord() as discord,
        running(bot_settings(discord, scryfall, cache), discord) as runtime,
    ):
        yield World(discord, scryfall, runtime.bot, cache)


@pytest_asyncio.fixture(loop_scope="module")
async def w(world):
    yield world
    assert world.discord.violations == []


async def test_every_command_is_declared_for_both_installs_and_every_context(w):
    [sync] = w.discord.command_syncs
    assert sync.scope == "global"
    kinds = {(c["name"], c["type"]) for c in sync.commands}
    assert {
        ("identity", 1),
        ("fits", 1),
        ("deckcheck", 1),
        ("help", 1),
        ("Check this decklist", 3),
        ("Explain card names", 3),
    } <= kinds
    for command in sync.commands:
        if command["name"] == "house":  # a server's own rules: the server install, in servers only
            assert (command["integration_types"], command["contexts"]) == ([GUILD_INSTALL], [0])
            continue
        assert sorted(command["integration_types"]) == [GUILD_INSTALL, USER_INSTALL], command["name"]
        assert sorted(command["contexts"]) == [0, 1, 2], command["name"]


@pytest.mark.parametrize("where", PLACES)
async def test_identity_answers_the_same_everywhere(w, where):
    reply = await w.discord.invoke("identity", {"card": "Fires of Undeath"}, where=where)
    assert not reply.ephemeral and not reply.deferred
    assert reply.embeds[0]["title"] == "Fires of Undeath"
    assert "{B}{R}" in reply.text()


async def test_user_installed_command_in_the_dm_with_the_bot(w):
    payload = w.discord.interaction_payload(
        "fits", {"card": "Dismember", "commander": "Kumano"}, where="bot_dm"
    )
    assert payload["authorizing_integration_owners"].get(str(USER_INSTALL)) == payload["user"]["id"]
    assert "guild_id" not in payload and "member" not in payload
    await w.discord.send_interaction(payload)
    reply = await w.discord.wait_for_reply(payload["id"])
    assert reply.embeds[0]["title"] == "❌ Dismember does not fit"
    # a deck file in a group DM: the report comes back the same way
    deck = (DECKS / "kumano-moxfield.txt").read_bytes()
    checked = await w.discord.invoke(
        "deckcheck", {"decklist": w.discord.attachment("deck.txt", deck)}, where="group_dm", timeout=30
    )
    assert checked.embeds[0]["title"] == "Deck check: Kumano, Master Yamabushi"


async def test_errors_and_menus_in_a_dm(w):
    reply = await w.discord.invoke("identity", {"card": "x" * 300}, where="private_dm")
    assert reply.ephemeral and "300 characters" in reply.content
    for word in ("elves", "jace", "ajani", "chandra", "zur", "gisa"):
        try:
            await w.bot.cards.peek(word)
        except AmbiguousCard:
            break
    asked = await w.discord.invoke("identity", {"card": word}, where="bot_dm")
    [custom_id] = asked.custom_ids
    result = await w.discord.select(asked, custom_id, ["0"])
    assert result.embeds and not result.ephemeral


async def test_message_commands_in_a_group_dm(w):
    message = w.discord.message("is [[Dismember]] any good in [[Kumano, Master Yamabushi]]?")
    reply = await w.discord.invoke_message_command("Explain card names", message, where="group_dm")
    assert "Dismember" in reply.content and "Kumano" in reply.content


async def test_an_application_without_user_install(tmp_path):
    """User install off in the Developer Portal: the bot declares the server install only, and Discord
    (the fake) accepts the sync; the commands are not offered in DMs between users."""
    async with FakeScryfall([]) as scryfall, FakeDiscord(installation_types=[GUILD_INSTALL]) as discord:
        settings = bot_settings(discord, scryfall, tmp_path / "cards.sqlite3")
        async with running(settings, discord):
            [sync] = discord.command_syncs
            assert all(c["integration_types"] == [GUILD_INSTALL] for c in sync.commands)
            reply = await discord.invoke("help")
            assert reply.embeds
            with pytest.raises(UserCannotDoThat):
                discord.interaction_payload("help", where="private_dm")
        assert discord.violations == []
