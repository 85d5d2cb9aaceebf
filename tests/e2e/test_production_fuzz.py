"""Fuzz: 2,000 hypothesis-generated option values (unicode, control characters, very long, markdown,
mentions, real names) through /identity, /fits, /deckcheck and their autocompletes.

No unhandled exception (no "error" outcome, no ERROR log record) and every reply valid for Discord's
limits: the fake Discord checks every callback, edit and follow-up (embed sizes, content length, 25
autocomplete choices of 1-100 characters, allowed_mentions) and records violations.

1,500 values go through the real tree/cog code path in-process (the gateway payload is handed to
discord.py's INTERACTION_CREATE parser directly, replies still go over HTTP to the fake), 500 through the
real gateway websocket. The bot runs on an event loop in a background thread, so hypothesis drives
batches of 100 from an ordinary test (and can shrink a failing batch).

The card data is local (bulk import) and Scryfall has locked us out (429 with an hour's Retry-After), so
a name the local data cannot place fails at once with the "Scryfall isn't answering" text; the
not-found texts that quote the user's input are fuzzed directly in `test_echoed_input_texts_fit`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from contextlib import AsyncExitStack
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards.model import ScryfallUnavailable
from bot.present import errors
from tests.fakes.discord import AUTOCOMPLETE, FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import bot_settings, running_bot, settle, user

BATCH = 100
IN_PROCESS_BATCHES = 15  # 1,500 values
GATEWAY_BATCHES = 5  # 500 values

FRAGMENTS = [
    "**",
    "__",
    "*",
    "_",
    "`",
    "```",
    "~~",
    "||",
    "> ",
    "# ",
    "-# ",
    "[link](https://example.com)",
    "@everyone",
    "@here",
    "<@1100000000000000300>",
    "<@&1100000000000000301>",
    "<#1100000000000000200>",
    "<:w:123>",
    "\u200b",
    "\u202e",
    "\ufeff",
    "\x00",
    "\n",
    "\r\n",
    "\t",
    "\x1b[31m",
    "🔥",
    "Æ",
    "é",
    "𝕏",
    "//",
    "/",
    "{R}",
    "{B/P}",
    "Fire",
    "Ice",
    "Kumano",
    "Sol Ring",
    "Lightning",
    " ",
    "\\",
    '"',
    "'",
    "%s",
    "{0}",
]
REAL = [
    "Fires of Undeath",
    "Lightning Bolt",
    "Dismember",
    "Kumano",
    "Fire // Ice",
    "fire",
    "sol",
    "Atraxa",
    "Esika, God of the Tree",
    "Brisela",
    "Kenrith",
    "a",
    "the",
    "Jace",
    "Sliver",
]

values = st.one_of(
    st.text(max_size=120),  # any code point (control characters included)
    st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=30).map("".join),
    st.sampled_from(REAL),
    st.builds(
        lambda s, n: (s * n)[:6000], st.text(min_size=1, max_size=8), st.integers(20, 1500)
    ),  # very long
    st.text(alphabet=st.characters(categories=["Cc", "Cf", "Zs", "Zl", "Zp", "Mn"]), max_size=40),
)
batches = st.lists(values, min_size=BATCH, max_size=BATCH)


def calls_for(batch: list[str], offset: int) -> list[tuple[int, str, dict[str, Any], str | None]]:
    """(interaction type, command, options, focused option) for each value, cycling through the options."""
    out = []
    for i, raw in enumerate(batch):
        v = raw[:6000]  # Discord's longest string option
        kind = (offset + i) % 9
        if kind == 0:
            out.append((2, "identity", {"card": v}, None))
        elif kind == 1:
            out.append((2, "fits", {"card": v, "commander": "Kumano"}, None))
        elif kind == 2:
            out.append((2, "fits", {"card": "Sol Ring", "commander": v}, None))
        elif kind == 3:
            out.append((2, "fits", {"card": "Lightning Bolt", "commander": "Kumano", "partner": v}, None))
        elif kind == 4:
            out.append((2, "deckcheck", {"commander": v, "list": "1 Sol Ring\n1 Lightning Bolt"}, None))
        elif kind == 5:
            out.append((2, "deckcheck", {"commander": "Kumano", "list": v or "x"}, None))
        elif kind == 6:
            out.append((AUTOCOMPLETE, "identity", {"card": v}, "card"))
        elif kind == 7:
            out.append((AUTOCOMPLETE, "fits", {"card": "Sol Ring", "commander": v}, "commander"))
        else:
            out.append((AUTOCOMPLETE, "deckcheck", {"commander": v}, "commander"))
    return out


class ErrorRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class World:
    """Fakes and bot on their own event loop in a background thread."""

    def __init__(self, tmp_path, card_cache_copy) -> None:
        self.tmp_path = tmp_path
        self.card_cache_copy = card_cache_copy
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="fuzz-bot", daemon=True)
        self.stack = AsyncExitStack()
        self.errors = ErrorRecords()
        self.sent = 0

    def run(self, coro: Any, timeout: float = 120) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def start(self) -> None:
        cache_path = self.card_cache_copy(self.tmp_path / "cache.sqlite3")
        self.scryfall = await self.stack.enter_async_context(FakeScryfall([]))
        self.fake = await self.stack.enter_async_context(FakeDiscord())
        settings = bot_settings(self.fake, self.scryfall, cache_path, bulk_refresh_hours=24)
        self.bot = await self.stack.enter_async_context(running_bot(settings, self.fake))
        self.scryfall.fail_next(429, 1, retry_after=3600)
        with pytest.raises(ScryfallUnavailable):
            await self.bot.cards.client.named_fuzzy("anything")
        assert self.bot.cards.client.budget.locked_for() > 1000

    async def drive(self, batch: list[str], *, gateway: bool) -> None:
        fake = self.fake
        calls = calls_for(batch, self.sent)
        payloads = []
        for i, (itype, name, options, focused) in enumerate(calls):
            payloads.append(
                fake.interaction_payload(
                    name, options, type=itype, focused=focused, user=user((self.sent + i) % 997)
                )
            )
        self.sent += len(calls)
        for p in payloads:
            if gateway:
                await fake.send_interaction(p)
            else:
                fake.register_interaction(p)
                self.bot._connection.parse_interaction_create(json.loads(json.dumps(p)))
        for p in payloads:
            if p["type"] == AUTOCOMPLETE:
                await fake.wait_for_callback(p["id"], timeout=30)
            else:
                await fake.wait_for_reply(p["id"], timeout=30)
        await settle(self.bot)
        for p in payloads:
            record = fake.interactions[p["id"]]
            assert len(record.callbacks) == 1, p["data"]
            assert len(record.edits) + len(record.followups) <= 1, p["data"]
        assert fake.violations == [], fake.violations[:5]
        assert fake.unhandled == []

    def check_no_errors(self) -> None:
        assert not self.errors.records, [r.getMessage() for r in self.errors.records[:5]]
        errors = sum(
            self.bot.metrics.value("identity_bot_commands_total", {"command": c, "outcome": "error"}) or 0
            for c in ("identity", "fits", "deckcheck")
        )
        assert errors == 0
        assert (self.bot.metrics.value("identity_bot_autocomplete_total", {"outcome": "error"}) or 0) == 0


@pytest.fixture(scope="module")
def world(tmp_path_factory, card_cache_copy):
    w = World(tmp_path_factory.mktemp("fuzz"), card_cache_copy)
    logging.getLogger().addHandler(w.errors)
    w.thread.start()
    try:
        w.run(w.start())
        yield w
    finally:
        try:
            w.run(w.stack.aclose(), timeout=60)
        finally:
            logging.getLogger().removeHandler(w.errors)
            w.loop.call_soon_threadsafe(w.loop.stop)
            w.thread.join(10)
            w.loop.close()


FUZZ = settings(
    max_examples=IN_PROCESS_BATCHES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


@pytest.mark.slow
def test_fuzz_in_process_then_through_the_real_gateway(world):
    """2,000 values through the tree in process, then through the real gateway, in one test (the coverage
    check at the end needs both on the same bot, whatever pytest-xdist worker runs it)."""

    @FUZZ
    @given(batches)
    def in_process(batch: list[str]) -> None:
        world.run(world.drive(batch, gateway=False))

    @settings(FUZZ, max_examples=GATEWAY_BATCHES)
    @given(batches)
    def through_gateway(batch: list[str]) -> None:
        world.run(world.drive(batch, gateway=True))

    in_process()
    world.check_no_errors()
    through_gateway()
    world.check_no_errors()
    assert_the_fuzz_really_ran(world)


def assert_the_fuzz_really_ran(world) -> None:
    """Both fuzz runs sent their 2,000 values and reached every kind of reply."""
    fake = world.fake
    assert world.sent >= (IN_PROCESS_BATCHES + GATEWAY_BATCHES) * BATCH
    texts = [r.callbacks[0] for r in fake.interactions.values() if r.callbacks]
    assert sum(1 for c in texts if c.get("type") == 8) >= world.sent * 3 // 10  # autocompletes: 3 of 9 kinds
    m = world.bot.metrics
    outcomes = {
        o: sum(
            m.value("identity_bot_commands_total", {"command": c, "outcome": o}) or 0
            for c in ("identity", "fits", "deckcheck")
        )
        for o in ("ok", "invalid", "ambiguous", "not_found", "scryfall_unavailable")
    }
    assert outcomes["ok"] > 0 and outcomes["invalid"] > 0 and outcomes["scryfall_unavailable"] > 0, outcomes
    assert outcomes["ambiguous"] > 0, outcomes


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    query=values,
    suggestions=st.lists(values, max_size=12),
    label=st.sampled_from([None, "card", "commander"]),
)
def test_echoed_input_texts_fit(query, suggestions, label):
    """The error texts that quote the user's input stay within Discord's limits for any input."""
    fake = FakeDiscord()
    for text in (
        errors.not_found_text(query, suggestions, label),
        errors.ambiguous_text(query, suggestions, label),
        errors.too_long_text(len(query), label),
        errors.empty_text(label),
    ):
        problems = fake._message_problems({"content": text, "allowed_mentions": {"parse": []}})
        assert problems == [], (problems, text[:200])
