"""End to end, the replies players read: the real bot on the fake Discord and the fake Scryfall, serving the shared
data set plus the cards printed after 2022 of tests/data/cards (Clara Oswald, The Prismatic Piper, ...), imported
into the bot's local card data the way `python -m bot sync-cards --file` does.

Every /fits verdict kind (issue 12): fits, does not fit, fits if you choose a color, and the three kinds of "this
deck can't exist" headline; `color:` making a card fit; replies short, never repeating a line, never pinging.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.app.bot import IdentityBot
from bot.cards.bulk import import_file
from bot.settings import load_settings
from tests.fakes.discord import FakeDiscord, Reply
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import running_bot
from tests.shared_data import all_cards

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

CARDS_DIR = Path(__file__).parents[1] / "data" / "cards"
KUMANO = "Kumano, Master Yamabushi"
CANT_EXIST = "\u26d4 This deck can\u2019t exist: "


def recent_cards() -> list[dict[str, Any]]:
    """The card objects of tests/data/cards, each with an id (a stable synthetic one where none is recorded)."""
    out = []
    for path in sorted(CARDS_DIR.glob("*.json")):
        for card in json.loads(path.read_text(encoding="utf-8")):
            card.setdefault("id", str(uuid.uuid5(uuid.NAMESPACE_URL, f"identitybot-test:{card['name']}")))
            out.append(card)
    return out


@dataclass
class World:
    bot: IdentityBot
    discord: FakeDiscord
    scryfall: FakeScryfall


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory, card_cache_copy):
    extra = recent_cards()
    scryfall = FakeScryfall(list(all_cards()) + extra)
    await scryfall.start()
    fake = FakeDiscord()
    api_base = await fake.start()
    folder = tmp_path_factory.mktemp("present-e2e")
    cache_path = card_cache_copy(folder / "cache.sqlite3")
    extra_file = folder / "recent-cards.json"
    extra_file.write_text(json.dumps(extra), encoding="utf-8")
    now = time.time()
    await asyncio.to_thread(import_file, extra_file, cache_path, updated_at=now)
    settings = load_settings(
        discord_token=fake.token,
        discord_api_base=api_base,
        scryfall_api_base=scryfall.base_url,
        cache_path=cache_path,
        bulk_refresh_hours=24,
        sync_commands=True,
        dev_guild_id=None,
        scryfall_timeout=3.0,
        user_rate="off",
        mana_emoji="",
        mana_emoji_upload=False,  # text symbols, as asserted
    )
    async with running_bot(settings, fake) as bot:
        yield World(bot, fake, scryfall)
    await fake.close()
    await scryfall.close()


@pytest.fixture(autouse=True)
def discord_rules_kept(world):
    yield
    assert world.discord.violations == []
    assert world.discord.unhandled == []


def lines(reply: Reply) -> list[str]:
    out = [reply.content or ""]
    for e in reply.embeds:
        out += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or ():
            out += [f["name"], f["value"]]
        out.append((e.get("footer") or {}).get("text") or "")
    return [line.strip() for text in out for line in text.split("\n") if line.strip()]


def length(reply: Reply) -> int:
    return sum(
        len(e.get("title") or "")
        + len(e.get("description") or "")
        + len((e.get("footer") or {}).get("text") or "")
        + sum(len(f["name"]) + len(f["value"]) for f in e.get("fields") or ())
        for e in reply.embeds
    )


def check_reply(reply: Reply) -> None:
    """What every card reply keeps: no ping, no line said twice, short."""
    mentions = reply.allowed_mentions
    assert mentions is not None and mentions.get("parse") == []
    shown = lines(reply)
    assert len(shown) == len(set(shown)), shown
    assert length(reply) <= 1000, (length(reply), shown)


async def fits(world: World, **options: str) -> Reply:
    reply = await world.discord.invoke("fits", options)
    assert not reply.ephemeral and reply.embeds, reply.content
    check_reply(reply)
    return reply


def title(reply: Reply) -> str:
    return str(reply.embeds[0]["title"])


def description(reply: Reply) -> str:
    return str(reply.embeds[0].get("description") or "")


async def test_fits_takes_chosen_colors_as_choices_of_the_five_colors(world):
    fits_command = world.discord.command_syncs[0].command("fits")
    options = {o["name"]: o for o in fits_command["options"]}
    assert list(options) == ["card", "commander", "partner", "color", "partner_color"]
    for name in ("color", "partner_color"):
        assert not options[name].get("required")
        assert [(c["name"], c["value"]) for c in options[name]["choices"]] == [
            ("White", "W"),
            ("Blue", "U"),
            ("Black", "B"),
            ("Red", "R"),
            ("Green", "G"),
        ]


async def test_fits(world):
    reply = await fits(world, card="Lightning Bolt", commander="Kumano")
    assert title(reply) == "\u2705 Lightning Bolt fits"
    assert description(reply).startswith(  # the commander was typed in part: the reply says so first
        "You typed: Kumano (Kumano, Master Yamabushi)\n"
        "**Lightning Bolt**'s color identity (red) is within the deck\u2019s"
    )


async def test_does_not_fit(world):
    reply = await fits(world, card="Golos, Tireless Pilgrim", commander="Kumano")
    assert title(reply) == "\u274c Golos, Tireless Pilgrim does not fit"
    outside = next(f for f in reply.embeds[0]["fields"] if f["name"].startswith("Outside"))
    assert outside["value"].startswith(
        "{W}{U}{B}{G} \u2014 activated ability: {2}**{W}{U}{B}**{R}**{G}**: Exile"
    )


@pytest.mark.parametrize(
    ("options", "headline"),
    [
        ({"card": "Sol Ring", "commander": "Lightning Bolt"}, "Lightning Bolt can\u2019t be your commander"),
        (
            {"card": "Swords to Plowshares", "commander": KUMANO, "partner": "Tymna the Weaver"},
            "Kumano, Master Yamabushi and Tymna the Weaver can\u2019t be commanders together",
        ),
        ({"card": "Tempest Efreet", "commander": KUMANO}, "Tempest Efreet is banned in Commander"),
    ],
)
async def test_this_deck_cant_exist_with_the_reason_in_the_headline(world, options, headline):
    reply = await fits(world, **options)
    assert title(reply) == CANT_EXIST + headline
    assert "\u2705" not in "\n".join(lines(reply))  # never a ✅ over a deck that can't exist
    assert "As for colors:" in description(reply)  # the identity comparison follows, as information


async def test_fits_if_you_choose_a_color_and_color_makes_it_fit(world):
    reply = await fits(world, card="Lightning Bolt", commander="Clara Oswald")
    assert title(reply) == "\U0001f3a8 Lightning Bolt fits if you choose red for Clara Oswald"
    assert "Say which with `color:`." in description(reply)
    chosen = await fits(world, card="Lightning Bolt", commander="Clara Oswald", color="R")
    assert title(chosen) == "\u2705 Lightning Bolt fits"
    assert "the color chosen for it before the game (CR 903.4b)" in description(chosen)
    other = await fits(world, card="Lightning Bolt", commander="Clara Oswald", color="G")
    assert title(other) == "\u274c Lightning Bolt does not fit"


async def test_a_partner_that_chooses_takes_color_too(world):
    reply = await fits(
        world, card="Lightning Helix", commander="Kraum, Ludevic's Opus", partner="The Prismatic Piper"
    )
    assert title(reply) == "\U0001f3a8 Lightning Helix fits if you choose white for The Prismatic Piper"
    assert "`partner_color:`" in description(reply)
    for option in ("color", "partner_color"):  # only the partner chooses: either option reaches it
        chosen = await fits(
            world,
            card="Lightning Helix",
            commander="Kraum, Ludevic's Opus",
            partner="The Prismatic Piper",
            **{option: "W"},
        )
        assert title(chosen) == "\u2705 Lightning Helix fits"


async def test_a_color_for_a_commander_that_does_not_choose_is_refused(world):
    reply = await world.discord.invoke("fits", {"card": "Lightning Bolt", "commander": KUMANO, "color": "R"})
    assert reply.ephemeral and not reply.embeds
    assert "`color:` is for a commander that chooses a color before the game" in reply.content
    assert "Kumano, Master Yamabushi doesn\u2019t choose one" in reply.content
    reply = await world.discord.invoke(
        "fits", {"card": "Lightning Bolt", "commander": "Clara Oswald", "partner_color": "R"}
    )
    assert reply.ephemeral and "`partner:`" in reply.content


async def test_identity_teaches_what_the_card_exists_to_teach(world):
    reply = await world.discord.invoke("identity", {"card": "Mad Ratter"})
    check_reply(reply)
    assert "The word \u201cblack\u201d in its text doesn\u2019t count" in description(reply)
    token = await world.discord.invoke("identity", {"card": "Goblin"})
    check_reply(token)
    assert "not a card you put in a deck" in description(token) and "Commander deck" not in description(token)
    piper = await world.discord.invoke("identity", {"card": "The Prismatic Piper"})
    check_reply(piper)
    assert "(CR 903.4b)" in description(piper)


@pytest.mark.parametrize(
    "name",
    [
        "Transguild Courier",
        "Golos, Tireless Pilgrim",
        "General Tazri",
        "Jegantha, the Wellspring",
        "Kenrith, the Returned King",
        "Kitchen Finks",
        "Alesha, Who Smiles at Death",
        "Lurrus of the Dream-Den",
        "Esika, God of the Tree // The Prismatic Bridge",
    ],
)
async def test_multicolor_cards_and_their_misfits_read_short(world, name):
    reply = await world.discord.invoke("identity", {"card": name})
    check_reply(reply)
    misfit = await fits(world, card=name, commander=KUMANO)
    assert title(misfit) == f"\u274c {name} does not fit"
