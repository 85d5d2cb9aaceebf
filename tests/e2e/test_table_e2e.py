"""Game Changers and the second opinion on identity end to end (issue 28): the real bot on the fake Discord and
the fake Scryfall, its local data imported the way `sync-cards` does from cards that carry Scryfall's
`game_changer` field, plus the crafted card whose `color_identity` Scryfall lists otherwise than its cost and
text give (tests/data/second_opinion.json)."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from bot.app.bot import IdentityBot
from bot.cards.bulk import import_file
from tests.fakes.discord import FakeDiscord, Reply
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, running_bot
from tests.shared_data import all_cards

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(90)]

DATA = Path(__file__).parents[1] / "data"
DECK = (DATA / "decks" / "kumano-moxfield.txt").read_text(encoding="utf-8")  # two Game Changers in its deck
SCOUT = json.loads((DATA / "second_opinion.json").read_text(encoding="utf-8"))
CHECK, CROSS, WARN = "\u2705", "\u274c", "\u26a0\ufe0f"
NOTE = "brackets 1 and 2, and 4 and 5, differ by intent and by how long games last."


@dataclass
class World:
    bot: IdentityBot
    discord: FakeDiscord
    scryfall: FakeScryfall


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory, card_cache_copy):
    scryfall = FakeScryfall(list(all_cards()) + SCOUT)
    await scryfall.start()
    fake = FakeDiscord()
    await fake.start()
    folder = tmp_path_factory.mktemp("table-e2e")
    cache_path = card_cache_copy(folder / "cache.sqlite3")
    extra = folder / "second-opinion.json"
    extra.write_text(json.dumps(SCOUT), encoding="utf-8")
    await asyncio.to_thread(import_file, extra, cache_path, updated_at=time.time())
    settings = bot_settings(fake, scryfall, cache_path, bulk_refresh_hours=24)
    async with running_bot(settings, fake) as bot:
        yield World(bot, fake, scryfall)
    await fake.close()
    await scryfall.close()


@pytest.fixture(autouse=True)
def discord_rules_kept(world):
    yield
    assert world.discord.violations == []
    assert world.discord.unhandled == []


def text(reply: Reply) -> str:
    out = [reply.content or ""]
    for e in reply.embeds:
        out += [e.get("title") or "", e.get("description") or ""]
        out += [f"{f['name']}\n{f['value']}" for f in e.get("fields") or ()]
    return "\n".join(out)


def field(reply: Reply, prefix: str) -> str:
    return next(f["value"] for f in reply.embeds[0]["fields"] if f["name"].startswith(prefix))


def deck_with(game_changers: int) -> str:
    """The Kumano deck with 0, 2 or 4 Game Changers (Underworld Breach, Ancient Tomb, Chrome Mox, Grim
    Monolith); still 100 cards."""
    text = DECK
    if game_changers == 0:
        text = text.replace("\n1 Underworld Breach\n", "\n1 Mountain\n")
        text = text.replace("\n1 Ancient Tomb (PUMA) 225\n", "\n1 Mountain\n")
    if game_changers == 4:
        text = text.replace(
            "\n23 Mountain (WAR) 262\n", "\n21 Mountain (WAR) 262\n1 Chrome Mox\n1 Grim Monolith\n"
        )
    return text


async def test_identity_says_a_card_is_a_game_changer(world):
    reply = await world.discord.invoke("identity", {"card": "Mana Vault"})
    assert (
        "**Mana Vault** is a Game Changer: decks in brackets 1 and 2 can\u2019t include it; in bracket 3 it "
        "counts toward the limit of 3 Game Changers." in reply.embeds[0]["description"]
    )
    plain = await world.discord.invoke("identity", {"card": "Sol Ring"})
    assert "Game Changer" not in text(plain)


async def test_fits_says_a_card_is_a_game_changer(world):
    reply = await world.discord.invoke("fits", {"card": "Underworld Breach", "commander": "Kumano"})
    assert reply.embeds[0]["title"] == f"{CHECK} Underworld Breach fits"
    assert "**Underworld Breach** is a Game Changer" in reply.embeds[0]["description"]


@pytest.mark.parametrize(
    ("count", "floor"),
    [
        (0, "Bracket 1 or higher (Exhibition)"),
        (2, "2 Game Changers: bracket 3 or higher."),
        (4, "4 Game Changers: bracket 4 or higher."),
    ],
)
async def test_deckcheck_lists_the_game_changers_and_the_bracket_floor(world, count, floor):
    options = {"commander": "Kumano, Master Yamabushi"}
    options["decklist"] = world.discord.attachment("deck.txt", deck_with(count).encode("utf-8"))
    reply = await world.discord.invoke("deckcheck", options, timeout=30)
    assert reply.embeds[0]["description"].startswith(f"{CHECK} **Legal.** 100 cards"), text(reply)
    name, value = next(
        (f["name"], f["value"]) for f in reply.embeds[0]["fields"] if f["name"].startswith("Bracket")
    )
    assert floor in f"{name}\n{value}" and NOTE in reply.embeds[0]["footer"]["text"]
    names = ("Underworld Breach", "Ancient Tomb", "Chrome Mox", "Grim Monolith")
    assert all((n in value) == (i < count) for i, n in enumerate(names))
    assert NOTE not in text(reply)  # said once, in the footer


async def test_check_this_decklist_says_it_too(world):
    msg = world.discord.message(deck_with(4))
    reply = await world.discord.invoke_message_command("Check this decklist", msg, timeout=30)
    assert "4 Game Changers: bracket 4 or higher." in field(reply, "Bracket 4 or higher (Optimized)")


async def test_a_card_scryfall_reads_otherwise_gets_no_plain_verdict(world):
    identity = await world.discord.invoke("identity", {"card": "Wildgraft Scout"})
    assert "Scryfall lists **Wildgraft Scout**\u2019s color identity as red and green" in text(identity)
    assert field(identity, "Color identity (Scryfall)") == "{R}{G} red and green"
    fits = await world.discord.invoke("fits", {"card": "Wildgraft Scout", "commander": "Kumano"})
    shown = text(fits)
    assert CHECK not in shown and CROSS not in shown
    assert fits.embeds[0]["title"] == f"{WARN} Wildgraft Scout: Scryfall lists another color identity"
    assert "By the color identity Scryfall lists, it would not fit." in shown
    deck = DECK.replace("\n1 Underworld Breach\n", "\n1 Wildgraft Scout\n")
    options = {"commander": "Kumano, Master Yamabushi"}
    options["decklist"] = world.discord.attachment("deck.txt", deck.encode("utf-8"))
    check = await world.discord.invoke("deckcheck", options, timeout=30)
    shown = text(check)
    assert CHECK not in shown and CROSS not in shown
    assert check.embeds[0]["description"].startswith(f"{WARN} **Not sure.**")
    assert "Wildgraft Scout: Scryfall lists {R}{G} red and green" in field(check, "Color identity (Scryfall)")


async def test_the_imports_disagreements_are_in_metrics(world):
    metric = "identity_bot_identity_disagreements"
    assert world.bot.metrics.value(metric, {"source": "bulk"}) == 1  # the last import: the crafted card
