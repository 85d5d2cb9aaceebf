"""`check_decklist` with the real card service against the fake Scryfall: how `A // B` lines that may end in a
comment are settled, `Commander:` lines, a Choose-a-Background pair resolved through the service, commanders
taken from the list, names Scryfall could not answer, chosen colors, one-line pastes."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.cards.budget import DEFAULT_RATES, Budget
from bot.cards.bulk import import_file
from bot.cards.model import ScryfallUnavailable
from bot.cards.service import CardService
from bot.compose import open_cards
from bot.deck.entries import DeckInputError
from bot.deck.errors import CommanderNotFound, NoCommander
from bot.deck.report import ProblemKind
from bot.deck.runner import check_decklist
from bot.present import deck_errors
from bot.present.deck_report import notes_text, text_report, warnings_text
from tests.deck.test_deck_check import PIPER
from tests.fakes.fixtures import fake_settings
from tests.fakes.scryfall import FakeScryfall
from tests.shared_data import all_cards, card

DATA = Path(__file__).parents[1] / "data"
KUMANO_DECK = (DATA / "decks" / "kumano-moxfield.txt").read_text(encoding="utf-8")
SOL_RING = "1 Sol Ring (C19) 214\n"
KUMANO = "Kumano, Master Yamabushi"
BACKGROUNDS = json.loads((DATA / "backgrounds.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def scryfall():
    async with FakeScryfall(list(all_cards()) + BACKGROUNDS + [PIPER]) as fake:
        yield fake


#: Scryfall's published request rates, a thousand times over: these tests check what the deck check asks for,
#: not its pacing (tests/cards checks the budget keeps Scryfall's spacing), so no test waits for a slot.
UNPACED = {group: rate * 1000 for group, rate in DEFAULT_RATES.items()}


def paced_cards(scryfall: FakeScryfall, tmp_path: Path, **settings: Any) -> Any:
    """`open_cards` for these tests, on a request budget that never makes a lookup wait for its turn."""
    return open_cards(fake_settings(scryfall, tmp_path, **settings), budget=Budget(rates=UNPACED))


@pytest_asyncio.fixture(loop_scope="module")
async def service(scryfall, tmp_path):
    scryfall.reset()
    async with paced_cards(scryfall, tmp_path) as cards:
        scryfall.requests.clear()
        yield cards
    scryfall.reset()


def paths(scryfall: FakeScryfall) -> list[str]:
    return [r.path for r in scryfall.requests]


async def test_capitalised_comment_after_double_slash_falls_back_to_the_left_part(service, scryfall):
    assert SOL_RING in KUMANO_DECK
    report, resolved = await check_decklist(
        service, KUMANO_DECK.replace(SOL_RING, "1 Sol Ring // Staple\n"), "Kumano"
    )
    assert report.legal, text_report(report)
    assert "Sol Ring" in [r.name for r in resolved]
    line = KUMANO_DECK.split("\n").index(SOL_RING.strip()) + 1
    assert notes_text(report) == [
        f"line {line}: 'Sol Ring // Staple' was read as Sol Ring; the text after the last "
        "\u201c//\u201d was taken for a comment"
    ]
    # the split reading was tried first (collection miss, one fuzzy retry), then "Sol Ring" in one batch
    assert paths(scryfall).count("/cards/collection") == 3
    assert paths(scryfall).count("/cards/named") == 1


async def test_lower_case_comment_costs_nothing_extra(service, scryfall):
    report, _ = await check_decklist(
        service, KUMANO_DECK.replace(SOL_RING, "1 Sol Ring // ramp, turn one\n"), KUMANO
    )
    assert report.legal and notes_text(report) == [], text_report(report)
    assert paths(scryfall) == ["/cards/collection", "/cards/collection"]


@pytest.mark.parametrize(
    "line", ["1 Fire // Ice", "1 Fire // Ice (UMA) 225", "Fire // Ice // counter or ping"]
)
async def test_split_cards_stay_split_cards(service, scryfall, line):
    report, resolved = await check_decklist(
        service, f"1 Kumano, Master Yamabushi\n{line}\n1 Sol Ring\n", KUMANO
    )
    assert [r.name for r in resolved] == [KUMANO, "Fire // Ice", "Sol Ring"]
    assert [p.card for p in report.of_kind(ProblemKind.COLOR)] == ["Fire // Ice"]  # blue half, mono-red deck
    assert notes_text(report) == []
    assert paths(scryfall) == ["/cards/collection"]  # the list, in one request: no second reading tried


async def test_split_name_that_is_not_a_card_and_has_no_card_on_the_left_stays_unknown(service, scryfall):
    report, _ = await check_decklist(service, "1 Qwxzzy // Frobnicator\n1 Sol Ring\n", "Kumano")
    assert [p.card for p in report.of_kind(ProblemKind.UNKNOWN)] == ["Qwxzzy // Frobnicator"]


async def test_commander_line_and_background_pair_through_the_service(service, scryfall):
    deck = (
        "Commander: Wilson, Refined Grizzly\nCommander: Raised by Giants\n1 Llanowar Elves\n"
        "1 Cultivate // ramp\n1 Sol Ring # staple\n95 Forest\n"
    )
    report, _ = await check_decklist(service, deck, "wilson, refined grizzly", "Raised by Giants")
    assert report.problems == [], text_report(report)
    assert report.commanders == ("Wilson, Refined Grizzly", "Raised by Giants")
    assert report.card_count == 100 and report.deck_identity == "G"
    # the two commanders were found in the list: no lookup beyond the list's one collection request
    assert paths(scryfall) == ["/cards/collection"]


async def test_commander_line_naming_someone_else_is_reported(service, scryfall):
    report, _ = await check_decklist(service, "Commander: Krark, the Thumbless\n1 Sol Ring\n", "Kumano")
    problems = report.of_kind(ProblemKind.COMMANDER)
    assert [(p.card, p.lines) for p in problems] == [("Krark, the Thumbless", (1,))]


# -- commanders taken from the list -------------------------------------------------------------------------------

TAPPEDOUT = (DATA / "decks" / "partners-tappedout.txt").read_text(encoding="utf-8")
ARCHIDEKT = (DATA / "decks" / "archidekt-partners.txt").read_text(encoding="utf-8")
THRASIOS, TYMNA = "Thrasios, Triton Hero", "Tymna the Weaver"


def kinds(report) -> dict[str, int]:
    return {k.value: n for k, n in report.counts().items()}


async def test_commander_from_a_commander_section(service, scryfall):
    report, _ = await check_decklist(service, KUMANO_DECK)
    assert report.legal, text_report(report)
    assert report.commanders == ("Kumano, Master Yamabushi",) and report.card_count == 100
    assert notes_text(report) == ["Commander taken from the list: Kumano, Master Yamabushi"]
    assert "Commander taken from the list: Kumano, Master Yamabushi" in text_report(report)
    assert paths(scryfall) == ["/cards/collection", "/cards/collection"]  # the list only: no commander lookup


@pytest.mark.parametrize("deck", [TAPPEDOUT, ARCHIDEKT], ids=["cmdr-markers", "archidekt-category"])
async def test_two_commanders_marked_in_the_list(service, scryfall, deck):
    report, _ = await check_decklist(service, deck)
    assert report.commanders == (THRASIOS, TYMNA) and report.deck_identity == "WUBG"
    assert notes_text(report) == [f"Commanders taken from the list: {THRASIOS} and {TYMNA}"]
    assert not report.of_kind(ProblemKind.COMMANDER)
    assert [p.card for p in report.of_kind(ProblemKind.COLOR)] == ["Fire // Ice"]  # only the red card


async def test_one_option_and_the_partner_from_the_list(service, scryfall):
    """The partner was not typed: the list's second commander joins (no 50 off-color cards)."""
    report, _ = await check_decklist(service, TAPPEDOUT, "Thrasios")
    assert report.commanders == (THRASIOS, TYMNA)
    assert notes_text(report) == [f"Second commander taken from the list: {TYMNA}"]
    assert [p.card for p in report.of_kind(ProblemKind.COLOR)] == ["Fire // Ice"]
    assert report.card_count == 21  # both listed commanders counted once


async def test_option_naming_a_listed_commander_is_not_counted_twice(service, scryfall):
    both, _ = await check_decklist(service, TAPPEDOUT, TYMNA, THRASIOS)
    assert both.commanders == (TYMNA, THRASIOS) and both.card_count == 21 and notes_text(both) == []
    partner_only, _ = await check_decklist(service, TAPPEDOUT, None, "Tymna")
    assert partner_only.commanders == (TYMNA, THRASIOS) and partner_only.card_count == 21


async def test_options_win_over_the_list(service, scryfall):
    # both options given: the list's marks are reported, not used
    report, _ = await check_decklist(service, TAPPEDOUT, "Kumano", "Krark")
    assert report.commanders == ("Kumano, Master Yamabushi", "Krark, the Thumbless")
    marked = report.of_kind(ProblemKind.COMMANDER)
    assert {p.card for p in marked} >= {THRASIOS, TYMNA}
    # one option and two other marked commanders: the option alone, the marks reported
    report, _ = await check_decklist(service, TAPPEDOUT, "Kumano")
    assert report.commanders == ("Kumano, Master Yamabushi",) and notes_text(report) == []
    assert {p.card for p in report.of_kind(ProblemKind.COMMANDER)} == {THRASIOS, TYMNA}


async def test_no_commander_anywhere_is_bad_input_before_any_lookup(service, scryfall):
    with pytest.raises(NoCommander) as err:
        await check_decklist(service, "1 Sol Ring\n1 Arcane Signet\n")
    assert "no commander named: give it with --commander NAME" in deck_errors.cli_text(err.value)
    assert isinstance(NoCommander(), DeckInputError)
    assert scryfall.requests == []


async def test_more_than_two_marked_commanders_is_bad_input(service, scryfall):
    deck = "Commander\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\n1 Kumano, Master Yamabushi\n"
    with pytest.raises(DeckInputError) as err:
        await check_decklist(service, deck)
    assert "the list marks 3 cards as commanders" in deck_errors.cli_text(err.value)


async def test_listed_commander_that_is_not_a_card(service, scryfall):
    with pytest.raises(CommanderNotFound) as err:
        await check_decklist(service, "Commander: Qwxzzy Frobnicator\n1 Sol Ring\n")
    assert err.value.data["option"] is None and err.value.data["query"] == "Qwxzzy Frobnicator"
    assert "the list's commander 'Qwxzzy Frobnicator' is not a card I know" in deck_errors.cli_text(err.value)


# -- Scryfall unreachable -------------------------------------------------------------------------------------------


async def warm(service, names: list[str]) -> None:
    """Look names up while Scryfall answers, so the cache knows them."""
    batch = await service.resolve_many(names)
    assert set(batch.found) == set(names)


DOWN_TIMEOUT = 0.05  # seconds: SCRYFALL_TIMEOUT once the fake Scryfall answers every request with 500


@asynccontextmanager
async def scryfall_down(scryfall: FakeScryfall, tmp_path: Path) -> AsyncIterator[CardService]:
    """The fake Scryfall goes down; yields a card service on the same cache whose short SCRYFALL_TIMEOUT
    ends each failing lookup (with its retries) at once instead of after the client's real backoff."""
    scryfall.mode = "down"
    async with paced_cards(scryfall, tmp_path, scryfall_timeout=DOWN_TIMEOUT) as cards:
        yield cards


async def test_unreachable_scryfall_reports_every_name_it_could_not_check(service, scryfall, tmp_path):
    deck = (
        "Commander\n1 Kumano, Master Yamabushi\nDeck\n1 Dismember\n2 Sol Ring\n1 Lightning Greaves\n"
        "1 Guttersnipe\n1 Lightning Greaves\n93 Mountain\n"
    )
    await warm(service, ["Kumano, Master Yamabushi", "Dismember", "Sol Ring", "Mountain"])
    async with scryfall_down(scryfall, tmp_path) as down:
        report, _ = await check_decklist(down, deck)
    assert kinds(report) == {"unchecked": 2, "color": 1, "singleton": 1}
    assert [(p.card, p.lines) for p in report.of_kind(ProblemKind.UNCHECKED)] == [
        ("Lightning Greaves", (6, 8)),
        ("Guttersnipe", (7,)),
    ]
    assert report.card_count == 100 and not report.complete and report.findings


async def test_unreachable_scryfall_for_the_listed_commander(service, scryfall, tmp_path):
    await warm(service, ["Dismember", "Sol Ring", "Mountain"])
    async with scryfall_down(scryfall, tmp_path) as down:
        report, _ = await check_decklist(
            down, "Commander\n1 Kumano, Master Yamabushi\nDeck\n1 Dismember\n2 Sol Ring\n96 Mountain\n"
        )
    assert not report.identity_checked and report.commanders == ("Kumano, Master Yamabushi",)
    assert kinds(report) == {"unchecked": 1, "singleton": 1}  # Dismember can't be judged without Kumano
    assert report.card_count == 100
    assert any("were not checked" in w for w in warnings_text(report))


async def test_unreachable_scryfall_for_a_commander_option(service, scryfall, tmp_path):
    await warm(service, ["Sol Ring", "Mountain"])
    async with scryfall_down(scryfall, tmp_path) as down:
        report, _ = await check_decklist(down, "1 Sol Ring\n98 Mountain\n", "Kumano")
    assert [(p.card, p.lines) for p in report.of_kind(ProblemKind.UNCHECKED)] == [("Kumano", ())]
    assert report.card_count == 100 and kinds(report) == {"unchecked": 1}


async def test_nothing_could_be_looked_up_is_an_error(service, scryfall, tmp_path):
    async with scryfall_down(scryfall, tmp_path) as down:
        with pytest.raises(ScryfallUnavailable):
            await check_decklist(down, KUMANO_DECK)


async def test_mistyped_commander_with_scryfall_down_gets_local_suggestions(scryfall, tmp_path):
    subset = [
        card(n)
        for n in (
            "Kumano, Master Yamabushi",
            "Kumano's Pupils",
            "Krark, the Thumbless",
            "Sol Ring",
            "Mountain",
        )
    ]
    (tmp_path / "cards.json").write_text(json.dumps(subset), encoding="utf-8")
    (tmp_path / "cache").mkdir()
    import_file(tmp_path / "cards.json", tmp_path / "cache" / "cards.sqlite3", updated_at=time.time())
    scryfall.reset()
    try:
        async with scryfall_down(scryfall, tmp_path) as local:
            # part of a name the local data knows, spelled right: that commander, no network needed
            report, _ = await check_decklist(local, "1 Sol Ring\n98 Mountain\n", "Kumano")
            assert report.commanders == ("Kumano, Master Yamabushi",)
            # one slip: refused with the commander it may mean, never checked against a guess
            with pytest.raises(CommanderNotFound) as err:
                await check_decklist(local, "1 Sol Ring\n98 Mountain\n", "Kumanno")
            assert err.value.data["names"] == ["Kumano, Master Yamabushi"]
            with pytest.raises(CommanderNotFound) as err:
                await check_decklist(local, "1 Sol Ring\n98 Mountain\n", "Kumamo Yamabashi")
            assert err.value.data["names"] == ["Kumano, Master Yamabushi"]
            assert err.value.data["option"] == "commander"
            # nothing close in the local data: the report goes on without the color identity check
            report, _ = await check_decklist(local, "1 Sol Ring\n98 Mountain\n", "Zqxwv")
            assert [p.card for p in report.of_kind(ProblemKind.UNCHECKED)] == ["Zqxwv"]
            assert not report.identity_checked
    finally:
        scryfall.reset()


# -- chosen colors (CR 903.4b) ----------------------------------------------------------------------------------------

PIPER_DECK = "Commander\n1 The Prismatic Piper\nDeck\n1 Counterspell\n1 Sol Ring\n97 Wastes\n"


async def test_chosen_color_through_the_runner(service, scryfall):
    report, _ = await check_decklist(service, PIPER_DECK, chosen=["blue"])
    assert report.legal, text_report(report)
    assert report.deck_identity == "U" and report.chosen == {"The Prismatic Piper": "U"}
    assert (
        "The Prismatic Piper: chosen color blue (CR 903.4b); it counts in the deck\u2019s color identity"
        in notes_text(report)
    )
    unchosen, _ = await check_decklist(service, PIPER_DECK)
    assert [p.card for p in unchosen.of_kind(ProblemKind.COLOR)] == ["Counterspell"]


async def test_bad_chosen_colors_are_bad_input(service, scryfall):
    for chosen, deck, words in (
        (["purple"], PIPER_DECK, "not a color"),
        (["U", "R"], PIPER_DECK, "2 chosen colors were given, but only 1"),
        (["U"], KUMANO_DECK, "no commander of this deck chooses a color"),
    ):
        with pytest.raises(DeckInputError) as err:
            await check_decklist(service, deck, chosen=chosen)
        assert words in deck_errors.deck_input_text(err.value)
        if words == "not a color":
            assert scryfall.requests == []  # refused before any lookup


# -- one-line pastes --------------------------------------------------------------------------------------------------


async def test_one_line_paste_gives_the_same_report(service, scryfall):
    text = KUMANO_DECK.replace("1 Shock (M20) 8\n", "1 Dismember\n")
    multi, _ = await check_decklist(service, text)
    single, _ = await check_decklist(service, " ".join(text.split("\n")))
    assert [(p.kind, p.card) for p in single.problems] == [(p.kind, p.card) for p in multi.problems] != []
    assert single.card_count == multi.card_count == 100 and single.commanders == multi.commanders
    pasted = len([x for x in text.split("\n") if x.strip()])
    assert notes_text(single) == [
        *notes_text(multi),
        f"The list was pasted on one line; it was read as {pasted} "
        f"separate lines, numbered in the order pasted",
    ]
