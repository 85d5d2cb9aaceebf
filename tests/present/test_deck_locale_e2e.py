"""/deckcheck end to end in the player's language (issue 20): the real bot on the fake Discord and the fake Scryfall,
a client in each supported locale. The reply with many problems (embed and the attached full report) and every error
reply of the command keep within Discord's limits and leave no English sentence of the templates."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.present.deck_report import FILE_NAME
from bot.present.message import CONTENT_LIMIT
from tests.fakes.discord import FakeDiscord, Reply
from tests.fakes.fixtures import fake_settings
from tests.fakes.scryfall import FakeScryfall
from tests.present import limits
from tests.present.test_deck_locale import english_in_report
from tests.present.test_locale_replies import card_words, english_left
from tests.production_world import running_bot
from tests.shared_data import all_cards, card

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(120)]

LOCALES = ["de", "es-419", "fr", "it", "ja", "pt-BR"]
DECK = (Path(__file__).parents[1] / "data" / "decks" / "kumano-moxfield.txt").read_text(encoding="utf-8")
KUMANO = "Kumano, Master Yamabushi"
SWAPS = [
    ("1 Shock (M20) 8\n", "1 Dismember\n"),
    ("1 Abrade\n", "1 Tropical Island\n"),
    ("1 Hordeling Outburst (A25) 32 *F*\n", "1 Prophet of Kruphix\n"),
    ("23 Mountain", "22 Mountain\n2 Sol Ring"),
    ("1 Thran Dynamo\n", "1 Goblin\n"),
    ("1 Mind's Eye\n", "1 Mox Ruby\n"),
    ("1 Gamble (UMA) 135\n", "0 Gamble\n"),
    ("1 Arcane Signet\n", "1 Fires of Undeath\n"),
    ("1 Thought Vessel\n", "1 Kitchen Finks\n"),
    ("1 Fire Diamond\n", "1 Lightning Helix\n"),
    ("1 Burst Lightning\n", "1 Swords to Plowshares\n"),
    ("1 Pyroclasm\n", "1 Counterspell\n"),
    ("1 Insurrection\n", "1 Golos, Tireless Pilgrim\n"),
]
SHOWN = (
    "Dismember",
    "Tropical Island",
    "Prophet of Kruphix",
    "Sol Ring",
    "Goblin",
    "Mox Ruby",
    KUMANO,
    "Fires of Undeath",
    "Kitchen Finks",
    "Lightning Helix",
    "Swords to Plowshares",
    "Counterspell",
    "Golos, Tireless Pilgrim",
)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def discord(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("deck-locale")
    async with FakeScryfall(all_cards()) as scryfall, FakeDiscord() as fake:
        settings = fake_settings(
            scryfall,
            tmp,
            discord_token=fake.token,
            discord_api_base=fake.api_base,
            sync_commands=True,
            user_rate="off",
        )
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(running_bot(settings, fake))
            yield fake
            assert fake.violations == []


def bad_deck() -> str:
    deck = DECK
    for old, new in SWAPS:
        assert old in deck, old
        deck = deck.replace(old, new)
    return deck


def attached(fake: FakeDiscord, reply: Reply) -> dict[str, bytes]:
    """The files of a reply: with the edit of a deferred reply, or with the interaction's callback."""
    if reply.data.get("_file_data"):
        return dict(reply.data["_file_data"])
    callbacks = fake.interactions[reply.interaction_id].callbacks
    return dict((callbacks[0].get("_file_data") if callbacks else None) or {})


def embed_words(embeds: list[dict[str, Any]], quoted: list[str]) -> str:
    """What the embeds say in their own words: each line up to a card's quoted evidence, cards' words left out."""
    parts: list[str] = []
    for e in embeds:
        parts += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or ""]
        for f in e.get("fields") or []:
            parts += [f["name"], *(line.partition(" \u2014 ")[0] for line in f["value"].split("\n"))]
    text = "\n".join(parts).replace("\\", "").replace("**", "")
    for words in quoted:
        text = text.replace(words, " ")
    return text


@pytest.mark.parametrize("locale", LOCALES)
async def test_deckcheck_with_many_problems_in_every_locale(discord: FakeDiscord, locale: str) -> None:
    deck = discord.attachment("deck.txt", bad_deck().encode("utf-8"))
    reply = await discord.invoke(
        "deckcheck", {"commander": "Kumano", "decklist": deck}, locale=locale, timeout=60
    )
    quoted = card_words(*(card(n) for n in SHOWN))
    assert reply.embeds and not reply.ephemeral
    assert limits.embed_problems(reply.embeds) == []
    assert len(reply.content or "") <= CONTENT_LIMIT
    assert english_left(embed_words(reply.embeds, quoted)) == []
    report = attached(discord, reply)[FILE_NAME].decode("utf-8")
    assert KUMANO in report and "903.5d" in report  # rule numbers stay as they are
    assert english_in_report(report, quoted) == []


async def test_the_same_deck_in_english_is_the_templates(discord: FakeDiscord) -> None:
    """The check can fail: the English reply and report are full of template phrases."""
    deck = discord.attachment("deck.txt", bad_deck().encode("utf-8"))
    reply = await discord.invoke("deckcheck", {"commander": "Kumano", "decklist": deck}, timeout=60)
    quoted = card_words(*(card(n) for n in SHOWN))
    assert english_left(embed_words(reply.embeds, quoted))
    assert english_in_report(attached(discord, reply)[FILE_NAME].decode("utf-8"), quoted)


def error_options(fake: FakeDiscord) -> dict[str, dict[str, Any]]:
    too_long = "\n".join(f"1 Card {i}" for i in range(400))
    return {
        "no commander": {"list": "1 Sol Ring\n1 Lightning Bolt"},
        "list too long": {"commander": "Kumano", "decklist": fake.attachment("deck.txt", too_long.encode())},
        "not a text file": {
            "commander": "Kumano",
            "decklist": fake.attachment("deck.png", b"\x89PNG\x00\x00\x00"),
        },
        "not a deck link": {"commander": "Kumano", "url": "https://example.com/decks/123"},
        "no list": {"commander": "Kumano"},
        "two lists": {"commander": "Kumano", "list": "1 Sol Ring", "url": "https://archidekt.com/decks/1"},
        "commander too long": {"commander": "K" * 300, "list": "1 Sol Ring"},
        "not a commander": {"commander": "Qwxzzy Frobnicator", "list": "1 Sol Ring"},
        "too big a file": {
            "commander": "Kumano",
            "decklist": fake.attachment("deck.txt", b"1 Sol Ring\n" * 7000),
        },
    }


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_deckcheck_error_in_every_locale(discord: FakeDiscord, locale: str) -> None:
    problems: dict[str, str] = {}
    for what, options in error_options(discord).items():
        reply = await discord.invoke("deckcheck", options, locale=locale, timeout=30)
        text = reply.content or ""
        if (
            not reply.ephemeral
            or not 0 < len(text) <= CONTENT_LIMIT
            or english_left(text.replace("Sol Ring", ""))
        ):
            problems[what] = text
    assert problems == {}


async def test_the_errors_in_english_are_the_templates(discord: FakeDiscord) -> None:
    """The check can fail: each English error reply holds a template phrase."""
    replies = {
        what: await discord.invoke("deckcheck", options, timeout=30)
        for what, options in error_options(discord).items()
    }
    assert [what for what, reply in replies.items() if not english_left(reply.content or "")] == []
