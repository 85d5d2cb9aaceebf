"""Reading and checking a list run off the event loop with a deadline (`bot.deck.runner.off_loop`): the loop
keeps serving while a worker reads, and work past the deadline is a `DeckInputError` the player is told about.
No wall-clock budget: the loop's progress is counted in turns, the deadline's work waits on an event."""

from __future__ import annotations

import asyncio
import threading
import time
from functools import partial

import pytest

from bot.deck.entries import DeckInputError, InputIssue
from bot.deck.parser import parse
from bot.deck.runner import WORK_DEADLINE, off_loop
from bot.present import deck_errors, i18n

HOSTILE = "a" + " " * 4000 + "!"  # issue 25: once hours of backtracking on the event loop


async def test_a_hostile_line_is_read_off_the_loop_as_a_card_line():
    deck = await off_loop(partial(parse, HOSTILE))
    assert [(e.name, e.count) for e in deck.entries] == [("a !", 1)]


def _cpu_work(seconds: float) -> int:
    """Pure-Python work (it holds the GIL between bytecodes) for `seconds` of this thread's CPU time."""
    started, reads = time.thread_time(), 0
    while time.thread_time() - started < seconds:
        parse("1 Sol Ring (C21) 263 *F*\n" * 50)
        reads += 1
    return reads


async def test_the_loop_keeps_serving_while_a_worker_reads():
    """While a worker thread spends 0.3 s of CPU reading lists, the event loop keeps taking turns: the thread
    hands the GIL back every switch interval (5 ms), so the loop gets dozens of turns, on any machine."""
    turns = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal turns
        while not done.is_set():
            turns += 1
            await asyncio.sleep(0)

    tick = asyncio.create_task(ticker())
    reads = await off_loop(partial(_cpu_work, 0.3), deadline=600)
    done.set()
    await tick
    assert reads > 0 and turns >= 10, (reads, turns)


async def test_work_past_the_deadline_is_refused_as_too_slow():
    release = threading.Event()
    try:
        with pytest.raises(DeckInputError) as caught:
            await off_loop(partial(release.wait, 600), deadline=0.01)
    finally:
        release.set()  # the worker ends; nothing waited for it
    assert caught.value.code is InputIssue.TOO_SLOW and caught.value.data == {"limit": 0.01}


@pytest.mark.parametrize("locale", ["en-US", "de", "ja"])
def test_too_slow_is_told_in_the_players_language(locale):
    with i18n.using(locale):
        text = deck_errors.deck_input_text(DeckInputError(InputIssue.TOO_SLOW, limit=WORK_DEADLINE))
    assert "1" in text and "too_slow" not in text
    english = locale == "en-US"
    assert ("took too long to read" in text) is english, text
