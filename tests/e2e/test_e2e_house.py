"""House rules per server through the fake Discord: /house is declared for servers only (visible to every
member: no default_member_permissions), changing the rules needs Manage Server (read from the member's
permissions in the payload), `show` lists them, `unban` and `clear` undo them; /fits and deck checks apply
them in their server only; they survive a restart and a card-data refresh."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.fakes.allcards import oracle_cards_of
from tests.fakes.discord import ADMINISTRATOR, GUILD_INSTALL, MANAGE_GUILD, FakeDiscord, UserCannotDoThat
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, running

pytestmark = pytest.mark.asyncio(loop_scope="module")

HOME, OTHER = 1_100_000_000_000_000_100, 1_100_000_000_000_000_500
# On the Commander Format Panel's Game Changers list; Scryfall serves them with `game_changer: true` (the shared
# data set predates the field, so the test's cache gets it as Scryfall serves it).
GAME_CHANGERS = ("Ancient Tomb", "Chrome Mox", "Grim Monolith", "Gamble", "Mox Diamond")
KUMANO = "Kumano, Master Yamabushi"
DECK = "Commander: Kumano, Master Yamabushi\n1 Sol Ring\n1 Lightning Bolt\n" + "".join(
    f"1 {name}\n" for name in GAME_CHANGERS[:4]
)


def mark_game_changers(cache: Path) -> None:
    with closing(sqlite3.connect(cache)) as db, db:
        for name in GAME_CHANGERS:
            db.execute(
                "UPDATE cards SET json = json_set(json, '$.game_changer', json('true')) WHERE name = ?",
                (name,),
            )


def sub(name: str, **options: Any) -> list[dict[str, Any]]:
    """The options of `/house <name>` as Discord sends a subcommand."""
    inner = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]
    return [{"name": name, "type": 1, "options": inner}]


class World:
    def __init__(self, discord: FakeDiscord, scryfall: FakeScryfall, cache: Path) -> None:
        self.discord = discord
        self.scryfall = scryfall
        self.cache = cache
        self.admin = discord.user("1100000000000000301", "admin")
        self.member = discord.user("1100000000000000302", "member")
        for guild in (HOME, OTHER):
            discord.grant(self.admin, MANAGE_GUILD, guild)

    async def house(
        self, name: str, *, user: dict[str, Any] | None = None, guild: int = HOME, **options: Any
    ):
        return await self.discord.invoke(
            "house", sub(name, **options), user=user or self.admin, guild_id=guild, timeout=30
        )


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory, card_cache_copy):
    cache = card_cache_copy(tmp_path_factory.mktemp("house") / "cards.sqlite3")
    mark_game_changers(cache)
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeDiscord(guild_ids=[HOME, OTHER]) as discord,
        running(bot_settings(discord, scryfall, cache), discord),
    ):
        yield World(discord, scryfall, cache)


@pytest_asyncio.fixture(loop_scope="module")
async def w(world):
    yield world
    assert world.discord.violations == []
    for guild in (HOME, OTHER):
        await world.house("clear", guild=guild)


async def test_the_group_is_for_servers_and_visible_to_every_member(w):
    [sync] = w.discord.command_syncs
    house = next(c for c in sync.commands if c["name"] == "house")
    assert house["contexts"] == [0] and house["integration_types"] == [GUILD_INSTALL]
    assert house["default_member_permissions"] is None  # it would hide `show` too
    assert {o["name"] for o in house["options"]} == {"ban", "unban", "bracket", "show", "clear"}
    bracket = next(o for o in house["options"] if o["name"] == "bracket")
    assert bracket["options"][0]["min_value"] == 1 and bracket["options"][0]["max_value"] == 5
    for where in ("bot_dm", "group_dm", "private_dm", "user_guild"):
        with pytest.raises(UserCannotDoThat):
            w.discord.interaction_payload("house", sub("show"), where=where)
    shown = await w.house("show", user=w.member)
    assert shown.ephemeral and "official Commander rules apply" in shown.text()


async def test_members_without_manage_server_are_refused_and_nothing_changes(w):
    for name, options in (("ban", {"card": "Sol Ring"}), ("bracket", {"level": 2}), ("clear", {})):
        reply = await w.house(name, user=w.member, **options)
        assert reply.ephemeral and "Manage Server" in reply.content, reply.content
    assert "official Commander rules apply" in (await w.house("show", user=w.member)).text()
    w.discord.grant(w.member, ADMINISTRATOR)  # an administrator has every permission
    try:
        reply = await w.house("bracket", user=w.member, level=4)
        assert not reply.ephemeral and "bracket 4" in reply.content
    finally:
        w.discord.grant(w.member, 0)


async def test_a_ban_applies_to_fits_and_deck_checks_in_its_server_only(w):
    reply = await w.house("ban", card="sol ring")
    assert not reply.ephemeral and "**Sol Ring** is now banned here" in reply.content
    again = await w.house("ban", card="Sol Ring")
    assert "already banned" in again.content
    shown = await w.house("show", user=w.member)
    assert "Sol Ring" in shown.text() and "1 card banned" in shown.embeds[0]["title"]

    fits = await w.discord.invoke("fits", {"card": "Sol Ring", "commander": KUMANO}, guild_id=HOME)
    assert fits.embeds[0]["title"] == "⛔ Sol Ring is banned here by a house rule"
    assert "official Commander ban list doesn’t" in fits.embeds[0]["description"]
    for elsewhere in ({"guild_id": OTHER}, {"where": "bot_dm"}, {"where": "user_guild"}):
        other = await w.discord.invoke("fits", {"card": "Sol Ring", "commander": KUMANO}, **elsewhere)
        assert other.embeds[0]["title"] == "✅ Sol Ring fits", elsewhere

    checked = await w.discord.invoke("deckcheck", {"list": DECK}, guild_id=HOME, timeout=30)
    fields = {f["name"]: f["value"] for f in checked.embeds[0]["fields"]}
    assert "Sol Ring is banned here by a house rule (line 2)" in fields["Banned here by a house rule (1)"]
    assert fields["House rules applied"] == "This server’s house rules: 1 card banned"
    message = w.discord.message(DECK)
    menu = await w.discord.invoke_message_command("Check this decklist", message, guild_id=HOME)
    assert "Banned here by a house rule (1)" in {f["name"] for f in menu.embeds[0]["fields"]}
    other = await w.discord.invoke("deckcheck", {"list": DECK}, guild_id=OTHER, timeout=30)
    assert not any("house rule" in f["name"].lower() for f in other.embeds[0]["fields"])

    lifted = await w.house("unban", card="Sol Ring")
    assert "no longer banned" in lifted.content
    fits = await w.discord.invoke("fits", {"card": "Sol Ring", "commander": KUMANO}, guild_id=HOME)
    assert fits.embeds[0]["title"] == "✅ Sol Ring fits"
    missing = await w.house("unban", card="Sol Ring")
    assert missing.ephemeral and "isn’t banned here" in missing.content


async def test_a_banned_commander_and_an_officially_banned_card(w):
    await w.house("ban", card=KUMANO)
    fits = await w.discord.invoke("fits", {"card": "Lightning Bolt", "commander": KUMANO}, guild_id=HOME)
    assert fits.embeds[0]["title"].startswith("⛔ This deck can’t be played here: Kumano")
    checked = await w.discord.invoke("deckcheck", {"list": DECK}, guild_id=HOME, timeout=30)
    assert "(a commander)" in checked.text()
    await w.house("ban", card="Balance")  # banned in Commander too: the official verdict leads
    fits = await w.discord.invoke("fits", {"card": "Balance", "commander": "Alesha, Who Smiles at Death"})
    assert fits.embeds[0]["title"].startswith("⛔ This deck can’t exist")
    assert "Balance** is banned here by a house rule" in fits.embeds[0]["description"]


async def test_the_bracket_limits_game_changers(w):
    reply = await w.house("bracket", level=2)
    assert "bracket 2 (no Game Changers)" in reply.content
    checked = await w.discord.invoke("deckcheck", {"list": DECK}, guild_id=HOME, timeout=30)
    fields = {f["name"]: f["value"] for f in checked.embeds[0]["fields"]}
    problem = fields["Over this server’s bracket (1)"]
    assert "4 Game Changers" in problem and "bracket 2 (no Game Changers)" in problem
    assert all(name in problem for name in GAME_CHANGERS[:4])
    fits = await w.discord.invoke("fits", {"card": "Ancient Tomb", "commander": KUMANO}, guild_id=HOME)
    assert fits.embeds[0]["title"] == "✅ Ancient Tomb fits"  # the verdict is the rules'; the bracket warns
    warning = "Ancient Tomb is a Game Changer, and this server plays bracket 2 (no Game Changers)."
    assert warning in fits.text()
    elsewhere = await w.discord.invoke("fits", {"card": "Ancient Tomb", "commander": KUMANO}, guild_id=OTHER)
    assert "this server plays" not in elsewhere.text()
    await w.house("bracket", level=4)
    checked = await w.discord.invoke("deckcheck", {"list": DECK}, guild_id=HOME, timeout=30)
    names = {f["name"] for f in checked.embeds[0]["fields"]}
    assert not any("bracket" in n for n in names) and "House rules applied" in names
    await w.house("bracket", level=3)  # 4 Game Changers: over bracket 3's three
    checked = await w.discord.invoke("deckcheck", {"list": DECK}, guild_id=HOME, timeout=30)
    assert "Over this server’s bracket (1)" in {f["name"] for f in checked.embeds[0]["fields"]}


async def test_clear_says_what_it_removed(w):
    await w.house("ban", card="Sol Ring")
    await w.house("ban", card="Lightning Bolt")
    await w.house("bracket", level=1)
    cleared = await w.house("clear")
    assert not cleared.ephemeral
    assert (
        "Lightning Bolt" in cleared.content
        and "Sol Ring" in cleared.content
        and "bracket (1)" in cleared.content
    )
    assert "official Commander rules apply" in (await w.house("show")).text()
    nothing = await w.house("clear")
    assert nothing.ephemeral and "nothing was removed" in nothing.content


async def test_an_ambiguous_name_offers_a_pick_and_no_guess(w):
    reply = await w.house("ban", card="jace")
    assert reply.ephemeral and reply.custom_ids, reply.content
    assert "official Commander rules apply" in (await w.house("show")).text()  # nothing banned yet
    [menu] = reply.custom_ids
    picked = reply.select_options(menu)[0]
    after = await w.discord.select(reply, menu, [picked["value"]], user=w.admin)
    assert "is now banned here" in after.content
    assert picked["label"] in (await w.house("show")).text()


async def test_a_misspelled_name_is_offered_not_banned(w):
    reply = await w.house("ban", card="Sol Rnig")
    assert reply.ephemeral and "Sol Ring" in reply.content and reply.custom_ids
    assert "official Commander rules apply" in (await w.house("show")).text()
    [menu] = reply.custom_ids
    after = await w.discord.select(reply, menu, ["0"], user=w.admin)
    assert "**Sol Ring** is now banned here" in after.content


async def test_the_card_option_autocompletes(w):
    options = [
        {
            "name": "ban",
            "type": 1,
            "options": [{"name": "card", "type": 3, "value": "sol r", "focused": True}],
        }
    ]
    payload = w.discord.interaction_payload("house", options, type=4, user=w.admin)
    await w.discord.send_interaction(payload)
    reply = await w.discord.wait_for_reply(payload["id"])
    assert "Sol Ring" in [c["value"] for c in reply.choices]


async def test_replies_in_the_players_language(w):
    await w.house("ban", card="Sol Ring")
    refused = await w.discord.invoke("house", sub("bracket", level=2), user=w.member, locale="de")
    assert "**Server verwalten**" in refused.content
    shown = await w.discord.invoke("house", sub("show"), user=w.member, locale="ja")
    assert shown.embeds[0]["title"] == "このサーバーのハウスルール：禁止カード 1 枚"
    fits = await w.discord.invoke("fits", {"card": "Sol Ring", "commander": KUMANO}, locale="fr")
    assert fits.embeds[0]["title"] == "⛔ Sol Ring est bannie ici par une règle maison"
    [sync] = w.discord.command_syncs
    house = next(c for c in sync.commands if c["name"] == "house")
    assert house["name_localizations"]["de"] == "hausregeln"


# Last: it runs a bot of its own, which points discord.py's API base at its own fake Discord.
@pytest.mark.slow
async def test_rules_survive_a_restart_and_a_card_data_refresh(tmp_path, card_cache_copy):
    cache = card_cache_copy(tmp_path / "cards.sqlite3")
    async with FakeScryfall.with_shared_data() as scryfall, FakeDiscord(guild_ids=[HOME, OTHER]) as discord:
        admin = discord.user("1100000000000000301", "admin")
        discord.grant(admin, MANAGE_GUILD, HOME)
        settings = bot_settings(discord, scryfall, cache)
        async with running(settings, discord) as runtime:
            for name, options in (("ban", {"card": "Sol Ring"}), ("bracket", {"level": 2})):
                await discord.invoke("house", sub(name, **options), user=admin, guild_id=HOME, timeout=30)
            # a card-data refresh: Scryfall's bulk file, downloaded and imported in a child process
            scryfall.serve_bulk(
                oracle_cards_of(1500)
            )  # a small one: the refresh, not the data set, is tested
            result = await runtime.refresher.refresh_now()
            assert result.cards > 1000
            fits = await discord.invoke("fits", {"card": "Sol Ring", "commander": KUMANO}, guild_id=HOME)
            assert fits.embeds[0]["title"] == "⛔ Sol Ring is banned here by a house rule"
        async with running(settings, discord):  # a restart on the same data volume
            shown = await discord.invoke("house", sub("show"), guild_id=HOME)
            assert "Sol Ring" in shown.text() and "Bracket 2 (no Game Changers)" in shown.text()
            fits = await discord.invoke("fits", {"card": "Sol Ring", "commander": KUMANO}, guild_id=HOME)
            assert fits.embeds[0]["title"] == "⛔ Sol Ring is banned here by a house rule"
        assert discord.violations == []
