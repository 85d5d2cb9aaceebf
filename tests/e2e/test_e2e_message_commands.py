"""The message commands end to end ("Apps" menu of a message): "Check this decklist" (a list in the text, in
an attached file, or behind a deck link; a form asks for the commander when the list names none) and
"Explain card names" (each `[[Card Name]]`). The real bot against the fake Discord, Scryfall and deck sites.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio

from bot.app.bot import IdentityBot
from bot.cards.model import AmbiguousCard
from tests.fakes.decksites import FakeArchidekt, FakeMoxfield, load_sample
from tests.fakes.discord import FakeDiscord, Reply
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, running

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHECK = "Check this decklist"
EXPLAIN = "Explain card names"
DECKS = Path(__file__).parents[1] / "data" / "decks"
KUMANO_DECK = (DECKS / "kumano-moxfield.txt").read_text(encoding="utf-8")
SHORT_LIST = "1 Sol Ring\n1 Lightning Bolt\n1 Abrade\n1 Dismember\n"


class World:
    def __init__(
        self, discord: FakeDiscord, scryfall: FakeScryfall, bot: IdentityBot, moxfield: FakeMoxfield
    ) -> None:
        self.discord = discord
        self.scryfall = scryfall
        self.bot = bot
        self.moxfield = moxfield

    async def use(self, name: str, content: str = "", **message: object) -> Reply:
        msg = self.discord.message(content, **message)  # type: ignore[arg-type]
        return await self.discord.invoke_message_command(name, msg, timeout=30)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory, card_cache_copy):
    tmp: Path = tmp_path_factory.mktemp("message-commands")
    cache = tmp / "cards.sqlite3"
    card_cache_copy(cache)
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeDiscord() as discord,
        FakeArchidekt() as archidekt,
        FakeMoxfield([load_sample("moxfield_commander.json")]) as moxfield,
    ):
        settings = bot_settings(
            discord,
            scryfall,
            cache,
            archidekt_api_base=archidekt.base_url,
            moxfield_api_base=moxfield.base_url,
        )
        async with running(settings, discord) as runtime:
            yield World(discord, scryfall, runtime.bot, moxfield)


@pytest_asyncio.fixture(loop_scope="module")
async def w(world):
    yield world
    assert world.discord.violations == []


async def test_message_commands_are_synced(w):
    sync = w.discord.command_syncs[-1]
    for name in (CHECK, EXPLAIN):
        command = sync.command(name, type=3)
        assert command["type"] == 3 and not command.get("options")


async def test_check_a_list_in_the_message_text(w):
    text = "here's my list:\n```\n" + KUMANO_DECK + "```"
    reply = await w.use(CHECK, text)
    assert not reply.ephemeral
    embed = reply.embeds[0]
    assert embed["title"] == "Deck check: Kumano, Master Yamabushi"
    assert embed["description"].startswith("✅ **Legal.** 100 cards"), reply.text()


async def test_check_an_attached_file(w):
    deck = KUMANO_DECK.replace("1 Abrade\n", "1 Dismember\n")
    msg = w.discord.message("deck attached", attachments=[w.discord.attachment("kumano.txt", deck.encode())])
    reply = await w.discord.invoke_message_command(CHECK, msg, timeout=30)
    embed = reply.embeds[0]
    assert embed["title"] == "Deck check: Kumano, Master Yamabushi"
    assert embed["description"] == "❌ **1 problem**: 1 off-color card."


async def test_check_a_deck_link_in_the_message(w):
    reply = await w.use(CHECK, "thoughts? https://www.moxfield.com/decks/H_9XBcW317Loe7nrOx11r_ thanks!")
    assert reply.embeds[0]["title"] == "Deck check: Niv-Mizzet, Parun"
    assert "on Moxfield" in reply.content


async def test_a_deck_link_on_its_own_line(w):
    reply = await w.use(
        CHECK, "my new build:\nhttps://www.moxfield.com/decks/H_9XBcW317Loe7nrOx11r_\n\nthoughts?"
    )
    assert reply.embeds[0]["title"] == "Deck check: Niv-Mizzet, Parun"
    assert "on Moxfield" in reply.content


async def test_a_list_without_commander_asks_for_it(w):
    reply = await w.use(CHECK, SHORT_LIST)
    assert reply.is_modal
    inputs = {i["custom_id"]: i for i in reply.modal_inputs}
    assert set(inputs) == {"commander", "partner"}
    assert inputs["commander"].get("required", True) and inputs["partner"].get("required") is False
    result = await w.discord.submit_modal(reply, {"commander": "Kumano"})
    assert not result.ephemeral
    embed = result.embeds[0]
    assert embed["title"] == "Deck check: Kumano, Master Yamabushi"
    assert "Dismember" in result.text() and "Lightning Bolt" not in embed["description"]


async def test_the_form_commander_can_be_picked_from_a_menu(w):
    for word in ("tazri", "niv", "ajani", "gisa", "zur", "lord"):
        try:
            await w.bot.cards.peek(word, commander=True)
        except AmbiguousCard:
            break
    else:
        raise AssertionError("no ambiguous commander word in the local data")
    form = await w.use(CHECK, SHORT_LIST)
    asked = await w.discord.submit_modal(form, {"commander": word})
    assert asked.ephemeral and "(for `commander`)" in asked.content
    [custom_id] = asked.custom_ids
    option = asked.select_options(custom_id)[0]
    result = await w.discord.select(asked, custom_id, [option["value"]], timeout=30)
    assert not result.ephemeral
    assert result.embeds[0]["title"] == f"Deck check: {option['label']}"


async def test_a_message_without_a_list(w):
    reply = await w.use(CHECK, "", attachments=[w.discord.attachment("cat.png", b"\x89PNG\r\n", "image/png")])
    assert reply.ephemeral and "I found no decklist in that message" in reply.content
    bad = await w.use(CHECK, "good game everyone, see you next week")
    assert bad.ephemeral and not bad.embeds


async def test_explain_card_names(w):
    text = (
        "Can [[Fires of Undeath]] go in [[Kumano, Master Yamabushi]]? Also [[sol ring]], "
        "[[Qwxzzy Frobnicator]] and [[Fires of Undeath]] again."
    )
    reply = await w.use(EXPLAIN, text)
    assert not reply.ephemeral and not reply.embeds
    lines = reply.content.splitlines()
    assert len(lines) == 4  # one line per name, each name once
    assert lines[0].startswith("**[Fires of Undeath](<https://scryfall.com/")
    assert "{B}{R} black and red" in lines[0] and "(color: red)" in lines[0]
    assert "Kumano, Master Yamabushi" in lines[1] and "{R} red" in lines[1] and "(color" not in lines[1]
    assert "Sol Ring" in lines[2] and "colorless" in lines[2]
    assert lines[3].startswith("[[Qwxzzy Frobnicator]]: no such card")
    assert reply.allowed_mentions is not None and reply.allowed_mentions.get("parse") == []


async def test_explain_shows_what_was_typed_beside_another_cards_name(w):
    reply = await w.use(EXPLAIN, "[[Lightnig Bolt]] and [[sol ring]]")
    first, second = reply.content.splitlines()
    assert first.startswith("**[Lightning Bolt](<https://scryfall.com/") and "** (Lightnig Bolt): " in first
    assert second.startswith("**[Sol Ring](<") and "(sol ring)" not in second


async def test_explain_many_names_stays_short(w):
    names = [
        "Sol Ring",
        "Lightning Bolt",
        "Counterspell",
        "Dismember",
        "Swords to Plowshares",
        "Llanowar Elves",
        "Birds of Paradise",
        "Fire // Ice",
        "Kumano, Master Yamabushi",
        "Fires of Undeath",
        "Cultivate",
        "Command Tower",
    ]
    reply = await w.use(EXPLAIN, " ".join(f"[[{n}]]" for n in names))
    lines = reply.content.splitlines()
    assert len(lines) == 11 and lines[-1].startswith("…and 2 more names")
    assert len(reply.content) <= 2000
    assert not reply.deferred  # all from local data: answered at once


async def test_explain_without_names(w):
    reply = await w.use(EXPLAIN, "Sol Ring is great")
    assert reply.ephemeral and "[[Card Name]]" in reply.content
