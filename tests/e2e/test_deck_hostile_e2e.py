"""Issue 25 end to end: pasted lists built to make a reader backtrack (`a`, 4,000 spaces, `!`) are answered
like any list while /identity commands arrive beside them, and they slow neither. The real bot (in-process)
against the fake Discord and Scryfall; every comparison is against the same burst with a plain list, in the
same run (medians), so a busy machine can't fail it."""

from __future__ import annotations

import statistics

import pytest

from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import CARD_NAMES, BurstResult, bot_settings, burst, running_bot, user
from tests.shared_data import card

pytestmark = pytest.mark.slow

KUMANO = "Kumano, Master Yamabushi"
SPACES = " " * 4000
HOSTILE = [  # each one slow shape of issue 25, at the size of a Discord option (6,000 characters at most)
    "a" + SPACES + "!",  # the header pattern: the fourth power of the spaces
    "1 Sol Ring" + SPACES + "x\n1 Lightning Bolt",  # the suffix patterns searched from every space
    "1 Sol Ring" + SPACES + "; 1 Lightning Bolt",  # the one-line splitter's `\s*[;|]\s*`
]
PLAIN = [text.replace(SPACES, " ") for text in HOSTILE]  # the same lists, one space each
IDENTITY_PER_DECK = 8  # /identity commands dispatched beside each deck check


def _calls(decks: list[str], first_user: int) -> list[tuple[str, dict[str, str], dict[str, object]]]:
    calls: list[tuple[str, dict[str, str], dict[str, object]]] = []
    for i, deck in enumerate(decks):
        calls.append(("deckcheck", {"commander": KUMANO, "list": deck}, user(first_user + i)))
        for k in range(IDENTITY_PER_DECK):
            name = CARD_NAMES[(i + k) % len(CARD_NAMES)]
            calls.append(("identity", {"card": name}, user(first_user + 100 + i * IDENTITY_PER_DECK + k)))
    return calls


def _median(result: BurstResult, command: str) -> float:
    return statistics.median(
        reply.latency
        for payload, reply in zip(result.payloads, result.replies, strict=True)
        if payload["data"]["name"] == command
    )


async def test_hostile_pastes_are_answered_and_slow_nothing(imported_cache):
    names = {*CARD_NAMES, KUMANO, "Sol Ring", "Lightning Bolt"}
    async with FakeScryfall([card(n) for n in sorted(names)]) as scryfall, FakeDiscord() as fake:
        settings = bot_settings(fake, scryfall, imported_cache, user_rate="off", bulk_refresh_hours=24)
        async with running_bot(settings, fake):
            await burst(fake, _calls(PLAIN, 0), timeout=120)  # warm: caches, compiled patterns
            plain, hostile = [], []
            for round_ in range(2):  # alternating, so that a change in the machine's load hits both
                plain.append(await burst(fake, _calls(PLAIN * 2, 1000 + round_ * 500), timeout=120))
                hostile.append(await burst(fake, _calls(HOSTILE * 2, 2000 + round_ * 500), timeout=120))

    for result in hostile:
        for payload, reply in zip(result.payloads, result.replies, strict=True):
            if payload["data"]["name"] == "identity":
                assert reply.embeds and not reply.ephemeral, reply.content
            else:  # read like any list: a report (the name `a !` is no card), not an error
                assert reply.embeds and not reply.ephemeral, reply.content
                assert "Deck check" in reply.embeds[0]["title"]
    assert fake.violations == []
    for command in ("deckcheck", "identity"):
        slowest_plain = max(_median(r, command) for r in plain)
        fastest_hostile = min(_median(r, command) for r in hostile)
        print(
            f"\n{command}: median {fastest_hostile * 1000:.1f} ms hostile, {slowest_plain * 1000:.1f} ms plain"
        )
        assert fastest_hostile < 3 * slowest_plain + 0.05, command
