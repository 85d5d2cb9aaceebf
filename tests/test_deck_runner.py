"""`check_decklist` with the real card service against the fake Scryfall: how `A // B` lines that may end in a
comment are settled, `Commander:` lines, and a Choose-a-Background pair resolved through the service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_asyncio

from bot.cards.service import CardService
from bot.deck.check import ProblemKind
from bot.deck.runner import check_decklist
from bot.present.deck_report import text_report
from tests.fakes.fixtures import fake_settings
from tests.fakes.scryfall import FakeScryfall
from tests.shared_data import all_cards

DATA = Path(__file__).parent / "data"
KUMANO_DECK = (DATA / "decks" / "kumano-moxfield.txt").read_text(encoding="utf-8")
SOL_RING = "1 Sol Ring (C19) 214\n"
BACKGROUNDS = json.loads((DATA / "backgrounds.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def scryfall():
    async with FakeScryfall(list(all_cards()) + BACKGROUNDS) as fake:
        yield fake


@pytest_asyncio.fixture(loop_scope="module")
async def service(scryfall, tmp_path):
    cards = await CardService.create(fake_settings(scryfall, tmp_path))
    scryfall.requests.clear()
    try:
        yield cards
    finally:
        await cards.close()


def paths(scryfall: FakeScryfall) -> list[str]:
    return [r.path for r in scryfall.requests]


async def test_capitalised_comment_after_double_slash_falls_back_to_the_left_part(service, scryfall):
    assert SOL_RING in KUMANO_DECK
    report, _ = await check_decklist(service, KUMANO_DECK.replace(SOL_RING, "1 Sol Ring // Staple\n"), "Kumano")
    assert report.legal, text_report(report)
    assert "Sol Ring" in [c.name for c in report.cards]
    line = KUMANO_DECK.split("\n").index(SOL_RING.strip()) + 1
    assert report.notes == [f"line {line}: 'Sol Ring // Staple' was read as Sol Ring; the text after the last "
                            "\u201c//\u201d was taken for a comment"]
    # the split reading was tried first (collection miss, one fuzzy retry), then "Sol Ring" in one batch
    assert paths(scryfall).count("/cards/collection") == 3
    assert paths(scryfall).count("/cards/named") == 1


async def test_lower_case_comment_costs_nothing_extra(service, scryfall):
    report, _ = await check_decklist(service, KUMANO_DECK.replace(SOL_RING, "1 Sol Ring // ramp, turn one\n"),
                                     "Kumano")
    assert report.legal and report.notes == [], text_report(report)
    assert paths(scryfall) == ["/cards/collection", "/cards/collection"]


@pytest.mark.parametrize("line", ["1 Fire // Ice", "1 Fire // Ice (UMA) 225", "Fire // Ice // counter or ping"])
async def test_split_cards_stay_split_cards(service, scryfall, line):
    report, _ = await check_decklist(service, f"1 Kumano, Master Yamabushi\n{line}\n1 Sol Ring\n", "Kumano")
    assert [c.name for c in report.cards][1:2] == ["Fire // Ice"]
    assert [p.card for p in report.of_kind(ProblemKind.COLOR)] == ["Fire // Ice"]  # blue half, mono-red deck
    assert report.notes == []
    assert paths(scryfall) == ["/cards/collection"]  # the list, in one request: no second reading tried


async def test_split_name_that_is_not_a_card_and_has_no_card_on_the_left_stays_unknown(service, scryfall):
    report, _ = await check_decklist(service, "1 Qwxzzy // Frobnicator\n1 Sol Ring\n", "Kumano")
    assert [p.card for p in report.of_kind(ProblemKind.UNKNOWN)] == ["Qwxzzy // Frobnicator"]


async def test_commander_line_and_background_pair_through_the_service(service, scryfall):
    deck = ("Commander: Wilson, Refined Grizzly\nCommander: Raised by Giants\n1 Llanowar Elves\n"
            "1 Cultivate // ramp\n1 Sol Ring # staple\n95 Forest\n")
    report, _ = await check_decklist(service, deck, "Wilson", "Raised by Giants")
    assert report.problems == [], text_report(report)
    assert report.commanders == ("Wilson, Refined Grizzly", "Raised by Giants")
    assert report.card_count == 100 and report.deck_identity == "G"
    # the two commanders were found in the list: no lookup beyond the list's one collection request
    assert paths(scryfall) == ["/cards/collection"]


async def test_commander_line_naming_someone_else_is_reported(service, scryfall):
    report, _ = await check_decklist(service, "Commander: Krark, the Thumbless\n1 Sol Ring\n", "Kumano")
    problems = report.of_kind(ProblemKind.COMMANDER)
    assert [(p.card, p.lines) for p in problems] == [("Krark, the Thumbless", (1,))]
