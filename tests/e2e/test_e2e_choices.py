"""Ambiguity as a choice, end to end: a card option that names several cards (or no card, but close names)
is answered with an ephemeral select menu of the candidates; picking one (a component interaction on the
fake Discord) finishes the original command with the picked card. Also: card options that take pasted
decklist lines, and the partner option's autocomplete.

The real bot runs against the fake Discord and the fake Scryfall, with the shared data set imported (so
ambiguity is decided locally, as in production); one test swaps in a card service without local data.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.app.bot import IdentityBot
from bot.cards.model import AmbiguousCard
from bot.cards.service import CardService
from bot.compose import open_cards
from bot.identity import check_fit, check_pairing, commander_eligibility
from tests.fakes.budget import FastForwardBudget
from tests.fakes.discord import FakeDiscord, Reply, UserCannotDoThat
from tests.fakes.fixtures import fake_settings
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, running
from tests.shared_data import card, cards_by_name

pytestmark = pytest.mark.asyncio(loop_scope="module")

# Short names that match several cards; the tests use the first one the local data finds ambiguous, so they
# test the menu, not which words happen to be ambiguous under the current ranking.
CARD_WORDS = ("elves", "jace", "ajani", "chandra", "zur", "gisa", "lord", "niv", "tazri", "kumano")
COMMANDER_WORDS = ("tazri", "niv", "ajani", "gisa", "zur", "lord", "the")


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


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory, card_cache_copy):
    tmp = tmp_path_factory.mktemp("choices")
    cache = tmp / "cards.sqlite3"
    card_cache_copy(cache)
    async with (
        FakeScryfall.with_shared_data() as scryfall,
        FakeDiscord() as discord,
        contextlib.AsyncExitStack() as stack,
    ):
        runtime = await stack.enter_async_context(running(bot_settings(discord, scryfall, cache), discord))
        yield World(discord, scryfall, runtime.bot, tmp, stack)


@pytest_asyncio.fixture(loop_scope="module")
async def w(world):
    world.scryfall.requests.clear()
    yield world
    assert world.discord.violations == []


async def ambiguous(cards: CardService, words: tuple[str, ...], *, commander: bool = False) -> AmbiguousCard:
    """The error of the first word the local data finds ambiguous."""
    for word in words:
        try:
            await cards.peek(word, commander=commander)
        except AmbiguousCard as exc:
            return exc
    raise AssertionError(f"none of {words} is ambiguous in the local data")


def menu(reply: Reply) -> tuple[str, list[str]]:
    """The custom id of the reply's one select menu and its option labels, in order."""
    [custom_id] = reply.custom_ids
    assert reply.component(custom_id)["type"] == 3  # a string select
    return custom_id, [o["label"] for o in reply.select_options(custom_id)]


async def pick(w: World, reply: Reply, name: str) -> Reply:
    custom_id, labels = menu(reply)
    value = reply.select_options(custom_id)[labels.index(name)]["value"]
    return await w.discord.select(reply, custom_id, [value], timeout=30)


def prompt_now(w: World, reply: Reply) -> dict[str, Any]:
    """What the ephemeral prompt shows now."""
    assert reply.message_id is not None
    return w.discord.messages[reply.message_id].data


async def test_ambiguous_card_offers_a_menu_and_the_pick_finishes_the_command(w):
    error = await ambiguous(w.bot.cards, CARD_WORDS)
    reply = await w.discord.invoke("identity", {"card": error.query})
    assert reply.ephemeral and not reply.deferred  # decided from local data: no "thinking…" first
    assert "matches several cards" in reply.content and "menu below" in reply.content
    _custom_id, labels = menu(reply)
    assert labels == error.candidates[:25]  # the candidates, best first
    chosen = labels[1]
    result = await pick(w, reply, chosen)
    assert not result.ephemeral  # the answer is public, as /identity's answers are
    assert result.embeds[0]["title"] == chosen
    assert result.user_id == reply.user_id
    after = prompt_now(w, reply)
    assert not after.get("components")  # the menu is gone
    assert "Picked" in after["content"] and chosen in after["content"]
    assert w.scryfall.requests == []  # everything came from the local data


async def test_a_misspelled_name_offers_the_close_names(w):
    reply = await w.discord.invoke("identity", {"card": "Fires Undeath Plover"}, timeout=30)
    assert reply.ephemeral
    _custom_id, labels = menu(reply)
    assert "Fires of Undeath" in labels
    result = await pick(w, reply, "Fires of Undeath")
    assert result.embeds[0]["title"] == "Fires of Undeath"
    assert "{B}{R}" in result.text()


async def test_the_pick_keeps_the_other_options(w):
    error = await ambiguous(w.bot.cards, COMMANDER_WORDS, commander=True)
    reply = await w.discord.invoke("fits", {"card": "Dismember", "commander": error.query})
    assert reply.ephemeral and "(for `commander`)" in reply.content
    _custom_id, labels = menu(reply)
    leader = labels[-1]
    result = await pick(w, reply, leader)
    fits = check_fit(card("Dismember"), [card(leader)]).fits  # the same card, judged against the pick
    assert result.embeds[0]["title"] == ("✅ Dismember fits" if fits else "❌ Dismember does not fit")
    assert leader in result.text()


async def test_each_ambiguous_option_gets_its_own_menu_in_turn(w):
    card_error = await ambiguous(w.bot.cards, CARD_WORDS)
    leader_error = await ambiguous(w.bot.cards, COMMANDER_WORDS, commander=True)
    first = await w.discord.invoke("fits", {"card": card_error.query, "commander": leader_error.query})
    assert "(for `card`)" in first.content
    the_card = menu(first)[1][0]
    second = await pick(w, first, the_card)
    assert second.ephemeral and "(for `commander`)" in second.content  # the re-run asks for the next option
    leader = menu(second)[1][0]
    result = await pick(w, second, leader)
    assert not result.ephemeral
    assert the_card in result.embeds[0]["title"] and leader in result.text()


async def test_errors_of_the_rerun_are_answered_like_any_other(w):
    error = await ambiguous(w.bot.cards, CARD_WORDS)
    reply = await w.discord.invoke("fits", {"card": error.query, "commander": "Zqxwv Nonexistent Commander"})
    result = await pick(w, reply, menu(reply)[1][0])
    assert result.ephemeral and not result.embeds and result.user_id == reply.user_id
    assert (
        "couldn't find a card named \u201cZqxwv Nonexistent Commander\u201d (for `commander`)"
        in result.content
    )


async def test_deckcheck_commander_pick(w):
    error = await ambiguous(w.bot.cards, COMMANDER_WORDS, commander=True)
    deck = "1 Sol Ring\n1 Command Tower\n"
    reply = await w.discord.invoke("deckcheck", {"commander": error.query, "list": deck}, timeout=30)
    assert reply.ephemeral and "(for `commander`)" in reply.content
    leader = menu(reply)[1][0]
    result = await pick(w, reply, leader)
    assert result.embeds[0]["title"] == f"Deck check: {leader}"  # the same list, checked with the pick


async def test_only_the_user_who_asked_sees_and_uses_the_menu(w):
    error = await ambiguous(w.bot.cards, CARD_WORDS)
    reply = await w.discord.invoke("identity", {"card": error.query})
    custom_id, _labels = menu(reply)
    someone = w.discord.user("1100000000000000999", "someone")
    with pytest.raises(UserCannotDoThat):  # Discord shows an ephemeral message to its user only
        await w.discord.select(reply, custom_id, ["0"], user=someone)
    result = await w.discord.select(reply, custom_id, ["0"])
    assert result.embeds
    with pytest.raises(UserCannotDoThat):  # and once picked, the menu is gone
        await w.discord.select(reply, custom_id, ["0"])


async def test_the_menu_expires(w):
    w.bot.pick_timeout = 0.3
    try:
        error = await ambiguous(w.bot.cards, CARD_WORDS)
        reply = await w.discord.invoke("identity", {"card": error.query})
    finally:
        w.bot.pick_timeout = 600.0
    custom_id, _labels = menu(reply)
    async with asyncio.timeout(10):
        while prompt_now(w, reply).get("components"):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    assert "expired" in prompt_now(w, reply)["content"]
    with pytest.raises(UserCannotDoThat):
        await w.discord.select(reply, custom_id, ["0"])


async def test_pasted_decklist_lines_are_card_names(w):
    reply = await w.discord.invoke("identity", {"card": "1 Sol Ring (C21) 263 *F*"})
    assert not reply.ephemeral and not reply.deferred
    assert reply.embeds[0]["title"] == "Sol Ring"
    fits = await w.discord.invoke("fits", {"card": "1x Dismember [MH1]", "commander": "Commander: Kumano"})
    assert fits.embeds[0]["title"] == "❌ Dismember does not fit"


async def test_partner_autocomplete_offers_cards_that_pair_with_the_commander(w):
    tymna = card("Tymna the Weaver")
    for command in ("fits", "deckcheck"):
        choices = await w.discord.autocomplete(
            command, {"commander": "Tymna the Weaver", "partner": "th"}, focused="partner"
        )
        names = [c["name"] for c in choices]
        assert "Thrasios, Triton Hero" in names, names
        by_name = cards_by_name()
        for name in names:  # every offer can lead beside Tymna
            assert check_pairing(tymna, by_name[name]).ok, name
    # without a commander the partner option offers commanders as before
    plain = await w.discord.autocomplete("fits", {"partner": "thras"}, focused="partner")
    assert all(commander_eligibility(cards_by_name()[c["name"]]).ok for c in plain)
    assert "Thrasios, Triton Hero" in [c["name"] for c in plain]


async def test_the_menu_without_local_data(w):
    """First start (no bulk data yet): Scryfall says the name is ambiguous; the menu comes after the
    network lookup (deferred), and the pick resolves through Scryfall."""
    local = w.bot.cards
    w.bot.cards = await w.stack.enter_async_context(
        open_cards(
            fake_settings(w.scryfall, w.tmp / "empty"), metrics=w.bot.metrics, budget=FastForwardBudget()
        )
    )
    try:
        reply = await w.discord.invoke("identity", {"card": "jace"}, timeout=30)
        assert reply.ephemeral and reply.deferred
        assert not w.discord.messages[reply.message_id].deleted
        _custom_id, labels = menu(reply)
        assert labels and all("jace" in name.lower() for name in labels)
        result = await pick(w, reply, labels[0])
        assert not result.ephemeral and result.embeds[0]["title"] == labels[0]
        assert not prompt_now(w, reply).get("components")
        assert any(r.path == "/cards/named" for r in w.scryfall.requests)
    finally:
        w.bot.cards = local
