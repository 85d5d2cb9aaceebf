"""/deckcheck end to end: the real bot (in-process, normal `start()`) against the fake Discord (REST +
gateway) and the fake Scryfall. Each test gets a fresh, empty card cache so the fake Scryfall's request
log shows what a cold deck costs."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
import pytest_asyncio

from bot.app.bot import IdentityBot
from bot.cards.service import CardService
from bot.compose import open_cards
from bot.present.deck_report import FILE_NAME
from bot.settings import Settings
from tests.fakes.budget import FastForwardBudget
from tests.fakes.discord import FakeDiscord
from tests.fakes.fixtures import fake_settings
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import running_bot
from tests.shared_data import all_cards

pytestmark = pytest.mark.asyncio(loop_scope="module")

DECKS = Path(__file__).parents[1] / "data" / "decks"
KUMANO_DECK = (DECKS / "kumano-moxfield.txt").read_text(encoding="utf-8")
SHOCK = "1 Shock (M20) 8\n"
KUMANO = "Kumano, Master Yamabushi"  # as autocomplete fills it in: found in the list, no lookup


class World:
    def __init__(
        self,
        discord: FakeDiscord,
        scryfall: FakeScryfall,
        bot: IdentityBot,
        tmp: Path,
        stack: contextlib.AsyncExitStack,
    ) -> None:
        self.discord = discord
        self.scryfall = scryfall
        self.bot = bot
        self.tmp = tmp
        self.stack = stack
        self._n = 0

    async def use_cards(self, settings: Settings) -> CardService:
        """Give the bot a card service built by the composition root for `settings`."""
        cards = open_cards(settings, metrics=self.bot.metrics, budget=FastForwardBudget())
        self.bot.cards = await self.stack.enter_async_context(cards)
        return self.bot.cards

    async def fresh_cards(self) -> None:
        """Give the bot a new card service with an empty cache; clear the request log."""
        self._n += 1
        await self.use_cards(fake_settings(self.scryfall, self.tmp / f"c{self._n}"))
        self.scryfall.requests.clear()

    def paths(self) -> list[str]:
        return [r.path for r in self.scryfall.requests]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("deck-e2e")
    async with FakeScryfall(all_cards()) as scryfall, FakeDiscord() as discord:
        settings = fake_settings(
            scryfall,
            tmp,
            discord_token=discord.token,
            discord_api_base=discord.api_base,
            sync_commands=True,
            user_rate="off",
        )  # one user, many commands
        async with contextlib.AsyncExitStack() as stack:
            bot = await stack.enter_async_context(running_bot(settings, discord))
            yield World(discord, scryfall, bot, tmp, stack)


@pytest_asyncio.fixture(loop_scope="module")
async def w(world):
    await world.fresh_cards()
    yield world
    assert world.discord.violations == []


async def deckcheck(w: World, deck: str | None = None, *, paste: str | None = None, **options):
    opts = dict(options)
    if deck is not None:
        opts["decklist"] = w.discord.attachment("deck.txt", deck.encode("utf-8"))
    if paste is not None:
        opts["list"] = paste
    return await w.discord.invoke("deckcheck", opts, timeout=30)


def files(w: World, reply) -> dict[str, bytes]:
    """The files the reply carries: with a deferred reply they come with the edit, otherwise with the
    interaction's callback."""
    if reply.data.get("_file_data"):
        return reply.data["_file_data"]
    callbacks = w.discord.interactions[reply.interaction_id].callbacks
    return (callbacks[0].get("_file_data") if callbacks else None) or {}


async def test_command_is_registered_with_its_options(w):
    sync = w.discord.command_syncs[-1]
    command = sync.command("deckcheck")
    options = {o["name"]: o for o in command["options"]}
    assert list(options) == ["commander", "partner", "decklist", "list", "url", "color"]
    assert not any(o.get("required") for o in options.values())  # the list may name its commander
    assert options["commander"]["autocomplete"] is True and options["partner"]["autocomplete"] is True
    assert options["decklist"]["type"] == 11
    assert options["list"]["type"] == 3 and options["list"]["max_length"] == 6000
    assert options["url"]["type"] == 3
    assert [c["value"] for c in options["color"]["choices"]] == list("WUBRG")


async def test_legal_deck_cold_costs_two_requests(w):
    reply = await deckcheck(w, KUMANO_DECK, commander=KUMANO)
    assert not reply.ephemeral
    embed = reply.embeds[0]
    assert embed["title"] == "Deck check: Kumano, Master Yamabushi"
    assert embed["description"].startswith("✅ **Legal.** 100 cards")
    assert w.paths() == ["/cards/collection", "/cards/collection"]
    assert files(w, reply) == {}
    assert reply.allowed_mentions == {"parse": []} or reply.allowed_mentions.get("parse") == []
    # warm: the same deck again makes no Scryfall request at all
    w.scryfall.requests.clear()
    again = await deckcheck(w, KUMANO_DECK, commander="Kumano, Master Yamabushi")
    assert again.embeds[0]["description"] == embed["description"]
    assert w.paths() == []


async def test_off_color_card(w):
    reply = await deckcheck(w, KUMANO_DECK.replace(SHOCK, "1 Dismember\n"), commander=KUMANO)
    embed = reply.embeds[0]
    assert embed["description"] == "❌ **1 problem**: 1 off-color card."
    field = next(f for f in embed["fields"] if f["name"].startswith("Outside the color identity"))
    assert (
        "Dismember" in field["value"]
        and ": black \u00b7 {B/P} \u2014 mana cost: {1}**{B/P}{B/P}**" in field["value"]
    )
    assert field["value"].count("line ") == 1
    assert w.paths() == ["/cards/collection", "/cards/collection"]


async def test_duplicate_in_a_one_line_paste(w):
    lines = [
        ln
        for ln in KUMANO_DECK.replace(SHOCK, "1 Sol Ring\n").splitlines()
        if ln and not ln.startswith("//") and ln not in ("Commander", "Deck")
    ]
    deck_part = lines[: lines.index("Sideboard")]
    paste = " ".join(deck_part)  # Discord text options are one line
    assert "\n" not in paste and len(paste) < 6000
    reply = await deckcheck(w, paste=paste, commander=KUMANO)
    embed = reply.embeds[0]
    assert embed["description"] == "❌ **1 problem**: 1 duplicate."
    assert any("Sol Ring: 2 copies" in f["value"] for f in embed["fields"])
    assert w.paths() == ["/cards/collection", "/cards/collection"]


async def test_unknown_name_without_suggestion(w):
    await w.scryfall.prepare_printed()
    w.scryfall.requests.clear()
    reply = await deckcheck(w, KUMANO_DECK.replace(SHOCK, "1 Qwxzzy Frobnicator\n"), commander=KUMANO)
    embed = reply.embeds[0]
    assert embed["description"] == "❌ **1 problem**: 1 unknown card."
    field = next(f for f in embed["fields"] if f["name"].startswith("Unknown"))
    assert "'Qwxzzy Frobnicator'" in field["value"] and "did you mean" not in field["value"]
    paths = w.paths()
    assert paths.count("/cards/collection") == 2
    assert paths.count("/cards/named") == 1  # one fuzzy retry, only for the name the collection missed
    assert (
        paths.count("/cards/search") == 1
    )  # and one `lang:` search: is it a name printed in another language?
    assert set(paths) <= {"/cards/collection", "/cards/named", "/cards/autocomplete", "/cards/search"}


async def test_unknown_name_with_suggestion(w, card_cache_copy):
    """A typo too far off for Scryfall's fuzzy match: the reply names the card the user meant. As in
    production, the bot has the bulk data, whose name index supplies the suggestions."""
    path = card_cache_copy(w.tmp / "local" / "cards.sqlite3")
    await w.use_cards(fake_settings(w.scryfall, w.tmp, cache_path=path))
    await w.scryfall.prepare_printed()
    w.scryfall.requests.clear()
    assert "\n1 Pyroclasm\n" in KUMANO_DECK
    reply = await deckcheck(w, KUMANO_DECK.replace("\n1 Pyroclasm\n", "\n1 Pyrocalms\n"), commander="Kumano")
    embed = reply.embeds[0]
    assert embed["description"] == "❌ **1 problem**: 1 unknown card."
    field = next(f for f in embed["fields"] if f["name"].startswith("Unknown"))
    assert "'Pyrocalms'" in field["value"]
    assert "did you mean Pyroclasm" in field["value"]
    # everything else came from the local data: one collection request, one `lang:` search (is it a name
    # printed in another language?) and one fuzzy retry for the typo
    assert w.paths() == ["/cards/collection", "/cards/search", "/cards/named"]


async def test_misspelt_name_is_unknown_with_its_card_as_suggestion(w):
    """A typo is never read as the card it is close to (issue 19): it is unknown, with the card suggested, and
    no finding is made from it."""
    deck = KUMANO_DECK.replace(SHOCK, "1 Shokc\n").replace("1 Sol Ring (C19) 214\n", "1 Sol Rnig\n")
    reply = await deckcheck(w, deck, commander=KUMANO)
    embed = reply.embeds[0]
    assert embed["description"] == "❌ **2 problems**: 2 unknown cards."
    field = next(f for f in embed["fields"] if f["name"].startswith("Unknown"))["value"]
    assert "'Shokc' (did you mean Shock?)" in field and "'Sol Rnig' (did you mean Sol Ring?)" in field
    assert not any(f["name"] == "Read as" for f in embed["fields"])
    assert w.paths().count("/cards/named") == 2


async def test_banned_card(w):
    reply = await deckcheck(w, KUMANO_DECK.replace(SHOCK, "1 Mox Ruby\n"), commander="Kumano")
    embed = reply.embeds[0]
    assert embed["description"] == "❌ **1 problem**: 1 banned card."
    assert any("Mox Ruby is banned in Commander" in f["value"] for f in embed["fields"])


async def test_bad_partner_pair_and_long_report_attached(w):
    reply = await deckcheck(w, KUMANO_DECK, commander="Kumano", partner="Thrasios, Triton Hero")
    embed = reply.embeds[0]
    assert embed["description"].startswith("❌")
    commander_field = next(f for f in embed["fields"] if f["name"].startswith("Commander"))
    assert "Kumano" in commander_field["value"] and "Thrasios" in commander_field["value"]
    assert "101 cards" in reply.text()  # the partner is not in the list: 100 + 1
    # the commander was matched in the list (no request); the partner needed one lookup
    assert w.paths()[:2] == ["/cards/collection", "/cards/collection"]
    assert w.paths().count("/cards/collection") == 2 and len(w.paths()) <= 4


async def test_many_problems_attach_the_full_report(w):
    bad = KUMANO_DECK
    for old, new in [
        (SHOCK, "1 Dismember\n"),
        ("1 Abrade\n", "1 Tropical Island\n"),
        ("1 Hordeling Outburst (A25) 32 *F*\n", "1 Prophet of Kruphix\n"),
        ("23 Mountain", "22 Mountain\n2 Sol Ring"),
        ("1 Thran Dynamo\n", "1 Fires of Undeath\n"),
        ("1 Mind's Eye\n", "1 Smothering Tithe\n"),
        ("1 Gamble (UMA) 135\n", ""),
    ]:
        assert old in bad, old
        bad = bad.replace(old, new)
    reply = await deckcheck(w, bad, commander="Kumano")
    embed = reply.embeds[0]
    assert embed["footer"]["text"].startswith(f"The full report is attached as {FILE_NAME}. · ")
    report = files(w, reply)[FILE_NAME].decode("utf-8")
    assert report.startswith("Deck check for Kumano, Master Yamabushi (red)")
    for name in (
        "Dismember",
        "Tropical Island",
        "Prophet of Kruphix",
        "Fires of Undeath",
        "Smothering Tithe",
    ):
        assert name in report
    assert "(CR 903.5d)" in report and "Sol Ring: 3 copies" in report


async def test_partner_deck_that_fits(w):
    deck = (DECKS / "partners-tappedout.txt").read_text().replace("1x Fire/Ice\n", "")
    deck = deck.replace("4x Island", "84x Island")
    reply = await deckcheck(w, deck, commander="Thrasios", partner="Tymna")
    assert reply.embeds[0]["description"].startswith("✅"), reply.text()
    assert reply.embeds[0]["title"] == "Deck check: Thrasios, Triton Hero + Tymna the Weaver"


async def test_choose_a_background_pair_is_legal(w):
    """Wilson, Refined Grizzly + Raised by Giants (hand-built card objects: the data set has no Backgrounds)."""
    backgrounds = json.loads((DECKS.parent / "backgrounds.json").read_text(encoding="utf-8"))
    if not any(c["name"] == "Raised by Giants" for c in w.scryfall.cards):
        w.scryfall.add_cards(backgrounds)
    deck = (
        "Commander: Wilson, Refined Grizzly\nCommander: Raised by Giants\n1 Llanowar Elves // mana\n"
        "1 Cultivate\n1 Sol Ring # ramp\n95 Forest\n"
    )
    reply = await deckcheck(w, deck, commander="Wilson", partner="Raised by Giants")
    embed = reply.embeds[0]
    assert embed["title"] == "Deck check: Wilson, Refined Grizzly + Raised by Giants"
    assert embed["description"].startswith("✅ **Legal.** 100 cards"), reply.text()
    assert "Background" not in reply.text().replace("Raised by Giants", "")
    bad = await deckcheck(
        w,
        deck.replace("Wilson, Refined Grizzly", "Kumano, Master Yamabushi"),
        commander="Kumano",
        partner="Raised by Giants",
    )
    assert bad.embeds[0]["description"] == "❌ **1 problem**: 1 commander problem.", bad.text()
    assert "can\u2019t be commanders together" in bad.text()


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"commander": "Kumano"}, "Please give the decklist"),
        ({"commander": "Kumano", "list": "1 Sol Ring", "deck": "1 Sol Ring\n"}, "one way only"),
        (
            {"commander": "Kumano", "list": "1 Sol Ring", "url": "https://archidekt.com/decks/1"},
            "one way only",
        ),
        ({"url": "https://example.com/decks/123"}, "isn't a deck link"),
        ({"list": "1 Sol Ring\n1 Lightning Bolt"}, "doesn't say who its commander is"),
        ({"commander": "K" * 300, "list": "1 Sol Ring"}, "300 characters"),
    ],
)
async def test_bad_options_get_an_ephemeral_error(w, options, expected):
    options = dict(options)
    deck = options.pop("deck", None)
    reply = await deckcheck(w, deck, **options)
    assert reply.ephemeral and not reply.deferred
    assert expected in reply.content
    assert w.paths() == []


async def test_unreadable_file_and_too_long_list(w):
    reply = await deckcheck(w, "\n".join(f"1 Card {i}" for i in range(400)), commander="Kumano")
    assert reply.ephemeral and "limit is 300" in reply.content
    opts = {"commander": "Kumano", "decklist": w.discord.attachment("deck.png", b"\x89PNG\x00\x00\x00")}
    reply = await w.discord.invoke("deckcheck", opts, timeout=30)
    assert reply.ephemeral and "not a text decklist" in reply.content
    assert w.paths() == []


async def test_oversized_file_is_refused_before_download(w):
    attachment = w.discord.attachment("deck.txt", b"1 Sol Ring\n" * 7000)
    reply = await w.discord.invoke("deckcheck", {"commander": "Kumano", "decklist": attachment}, timeout=30)
    assert reply.ephemeral and not reply.deferred
    assert "64 KB" in reply.content
    key = attachment["url"].split("/files/", 1)[1]
    assert ("GET", "/files/" + key) not in w.discord.requests
    ok = w.discord.attachment("deck.txt", b"1 Kumano, Master Yamabushi\n")
    await w.discord.invoke("deckcheck", {"commander": "Kumano", "decklist": ok}, timeout=30)
    assert ("GET", "/files/" + ok["url"].split("/files/", 1)[1]) in w.discord.requests


async def test_unknown_commander_is_an_ephemeral_did_you_mean(w):
    reply = await deckcheck(w, "1 Sol Ring\n", commander="Zqxwv Nonexistent")
    assert reply.ephemeral
    assert "couldn't find a card named \u201cZqxwv Nonexistent\u201d" in reply.content
    assert "commander" in reply.content
    # a slip in the commander's name: never checked against a guess; "did you mean" and a menu to pick it,
    # and the pick checks the deck
    reply = await deckcheck(w, "1 Sol Ring\n", commander="Kumano Master Yamabushy")
    assert reply.ephemeral and not reply.embeds
    assert "**Kumano, Master Yamabushi**" in reply.content and "commander" in reply.content
    [custom_id] = reply.custom_ids
    labels = [o["label"] for o in reply.select_options(custom_id)]
    assert labels == ["Kumano, Master Yamabushi"]
    picked = await w.discord.select(reply, custom_id, ["0"], timeout=30)
    assert picked.embeds[0]["title"] == "Deck check: Kumano, Master Yamabushi"


async def test_mentions_in_the_list_ping_nobody(w):
    reply = await deckcheck(w, "1 Kumano, Master Yamabushi\n1 @everyone\n1 <@123456>\n", commander="Kumano")
    assert reply.allowed_mentions is not None and reply.allowed_mentions.get("parse") == []
    assert "@everyone" not in reply.text()


async def test_scryfall_down_is_an_ephemeral_retry_hint(w):
    w.scryfall.mode = "down"
    try:
        reply = await deckcheck(w, KUMANO_DECK, commander="Kumano")
    finally:
        w.scryfall.mode = "ok"
    assert reply.ephemeral
    assert "Scryfall" in reply.content and "try again" in reply.content


async def test_commander_autocomplete(w):
    choices = await w.discord.autocomplete("deckcheck", {"commander": "kumano"}, focused="commander")
    assert "Kumano, Master Yamabushi" in [c["name"] for c in choices]
