"""Card names printed in other languages through the card service (issue 20), with the printed names
imported (the local index) and without them (Scryfall's `lang:` search, one request a name, cached).

One fake Scryfall for the module (its log and faults cleared for each test), and two card services for the
module, opened when a test first asks for one (opening one takes about a second): one with every printed name
imported for the tests of the index (in that mode a printed name is read from the index, never from what an
earlier test left in the cache), one without them for the tests of the search, whose clock moves past every
answer's time to live before each test: a test finds nothing remembered, as with a new service."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import pytest_asyncio

from bot.cards.budget import Budget
from bot.cards.foreign import use_player_langs
from bot.cards.model import AmbiguousCard, CardNotFound, ScryfallUnavailable
from bot.cards.service import CardService
from tests.fakes.allcards import foreign_printings
from tests.fakes.budget import FastForwardBudget
from tests.fakes.fixtures import FakeClock, card_services
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import copy_database

pytestmark = pytest.mark.asyncio(loop_scope="module")
pytest_plugins = ("tests.fakes.printed_cache",)

GERMAN_DECK = [
    "Blitzschlag",
    "Sonnenring",
    "Gegenzauber",
    "Schwarzer Ritus",
    "Llanowarelfen",
    "Zorn Gottes",
    "Befehlsturm",
    "Sonnenuntergang",
]
ENGLISH_DECK = [
    "Lightning Bolt",
    "Sol Ring",
    "Counterspell",
    "Dark Ritual",
    "Llanowar Elves",
    "Wrath of God",
    "Command Tower",
    "Dusk // Dawn",
]


def searches(fake) -> int:
    return fake.count("/cards/search")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def module_scryfall() -> AsyncIterator[FakeScryfall]:
    async with FakeScryfall.with_shared_data() as fake:
        yield fake


@pytest_asyncio.fixture(loop_scope="module")
async def fake_scryfall(module_scryfall: FakeScryfall) -> AsyncIterator[FakeScryfall]:
    """The module's fake Scryfall, its request log and faults cleared before and after each test."""
    module_scryfall.reset()
    yield module_scryfall
    module_scryfall.reset()


@pytest_asyncio.fixture(loop_scope="module")
async def make_card_service(fake_scryfall, tmp_path) -> AsyncIterator[Callable[..., Awaitable[CardService]]]:
    """tests/fakes/fixtures.py's factory, on this module's event loop."""
    async with card_services(fake_scryfall, tmp_path) as make:
        yield make


@pytest_asyncio.fixture(loop_scope="module")
async def card_service(make_card_service) -> CardService:
    return await make_card_service()


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def index_cards(
    module_scryfall, printed_cache_template, tmp_path_factory
) -> AsyncIterator[Callable[[], Awaitable[CardService]]]:
    """`await index_cards()`: the card service with every printed name imported (`CARD_LANGUAGES=all`), one
    for the module, opened when a test first asks for it."""
    folder = tmp_path_factory.mktemp("index")
    opened: list[CardService] = []
    async with card_services(module_scryfall, folder) as make:

        async def index() -> CardService:
            if not opened:
                path = copy_database(printed_cache_template, folder / "cards.sqlite3")
                opened.append(await make(clock=FakeClock(), cache_path=path, card_languages="all"))
            return opened[0]

        yield index


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def search_cards(
    module_scryfall, printed_cache_template, tmp_path_factory
) -> AsyncIterator[Callable[[], Awaitable[CardService]]]:
    """`await search_cards()`: the module's card service without the printed names (`language_data`'s
    "search": the same cache, `CARD_LANGUAGES` off), opened when a test first asks for it. Each call moves
    its clocks two days on, past every time to live (answers a day, "none" ten minutes, autocomplete five)
    and every turn of Scryfall's pace: what an earlier test had searched is asked again, at once, as a new
    service would."""
    folder = tmp_path_factory.mktemp("search")
    clock, budget = FakeClock(), FastForwardBudget()
    opened: list[CardService] = []
    async with card_services(module_scryfall, folder) as make:

        async def search() -> CardService:
            if not opened:
                path = copy_database(printed_cache_template, folder / "cards.sqlite3")
                opened.append(await make(clock=clock, budget=budget, cache_path=path, card_languages=""))
            clock.advance(2 * 86_400)
            budget.clock.skip(2 * 86_400)
            return opened[0]

        yield search


@pytest.fixture(params=["index", "search"])
def mode(request: pytest.FixtureRequest) -> str:
    """`language_data`'s two modes, for the tests on the module's services."""
    return str(request.param)


@pytest_asyncio.fixture(loop_scope="module")
async def foreign_cards(mode, index_cards, search_cards) -> tuple[str, CardService]:
    """Each test twice: the module's service with the index, or the module's one without it."""
    return mode, await (index_cards() if mode == "index" else search_cards())


@pytest.mark.parametrize(
    ("typed", "langs", "name"),
    [
        ("Foudre", ("fr",), "Lightning Bolt"),
        ("Blitzschlag", ("de",), "Lightning Bolt"),
        ("稲妻", ("ja",), "Lightning Bolt"),
        ("稲妻", (), "Lightning Bolt"),
        ("BLITZSCHLAG", ("de",), "Lightning Bolt"),
        ("Sonnenuntergang", ("de",), "Dusk // Dawn"),
        ("Relámpago", ("es",), "Lightning Bolt"),
    ],
)
async def test_a_printed_name_is_the_card(foreign_cards, fake_scryfall, typed, langs, name):
    mode, cards = foreign_cards
    use_player_langs(langs)
    found = await cards.resolve(typed)
    assert found.name == name and found.printed == typed
    if mode == "index":
        assert fake_scryfall.count() == 0
    else:  # one polite search, then the cache
        assert searches(fake_scryfall) == 1
        assert (await cards.resolve(typed)).name == name
        assert searches(fake_scryfall) == 1


async def test_english_names_stay_english(foreign_cards, fake_scryfall):
    _mode, cards = foreign_cards
    use_player_langs(("de",))
    found = await cards.resolve("Lightning Bolt")
    assert found.name == "Lightning Bolt" and found.printed is None
    use_player_langs(())
    assert (await cards.resolve("Contemplation")).name == "Contemplation"  # English client: English first
    assert fake_scryfall.count() == 0


async def test_a_shared_translation_is_a_choice(foreign_cards, fake_scryfall):
    _mode, cards = foreign_cards
    use_player_langs(("de",))
    with pytest.raises(AmbiguousCard) as err:
        await cards.resolve("Zwang")
    assert sorted(err.value.candidates) == ["Coercion", "Duress"] and err.value.query == "Zwang"


async def test_another_cards_english_name_in_the_players_language(
    make_card_service, printed_cache_template, tmp_path
):
    """With the index only: without it an exact English name is never searched (no request per name)."""
    path = copy_database(printed_cache_template, tmp_path / "cards.sqlite3")
    cards = await make_card_service(cache_path=path, card_languages="fr")
    use_player_langs(("fr",))
    with pytest.raises(AmbiguousCard) as err:
        await cards.resolve("Contemplation")
    assert sorted(err.value.candidates) == ["Contemplation", "Ponder"]


async def test_a_german_commander(foreign_cards):
    _mode, cards = foreign_cards
    use_player_langs(("de",))
    found = await cards.resolve_commander("Atraxa, Stimme der Prätoren")
    assert found.name == "Atraxa, Praetors' Voice" and found.printed == "Atraxa, Stimme der Prätoren"
    assert (await cards.resolve_commander("krenko der boss")).name == "Krenko, Mob Boss"


async def test_peek_answers_printed_names_locally_only(foreign_cards, fake_scryfall):
    mode, cards = foreign_cards
    use_player_langs(("fr",))
    peeked = await cards.peek("Foudre")
    assert fake_scryfall.count() == 0
    assert (peeked is not None and peeked.name == "Lightning Bolt") if mode == "index" else peeked is None


async def test_no_such_name_in_any_language(foreign_cards, fake_scryfall):
    mode, cards = foreign_cards
    use_player_langs(("de",))
    with pytest.raises(CardNotFound):
        await cards.resolve("Gibtsnichtkarte")
    assert searches(fake_scryfall) == (0 if mode == "index" else 1)


async def test_a_german_decklist_reads_exactly(foreign_cards, fake_scryfall):
    mode, cards = foreign_cards
    batch = await cards.resolve_many([*GERMAN_DECK, "Zwang", "Blitzschlagg"])
    assert [batch.found[n].name for n in GERMAN_DECK] == ENGLISH_DECK
    assert all(batch.found[n].printed == n for n in GERMAN_DECK)
    assert sorted(batch.suggestions["Zwang"])[:2] == ["Coercion", "Duress"] and "Zwang" in batch.missing
    assert "Blitzschlagg" in batch.missing  # a look-alike is never read as the card
    if mode == "index":
        assert searches(fake_scryfall) == 0
    else:
        assert searches(fake_scryfall) == len(GERMAN_DECK) + 2
        fake_scryfall.reset()
        again = await cards.resolve_many(GERMAN_DECK)
        assert [again.found[n].name for n in GERMAN_DECK] == ENGLISH_DECK
        assert searches(fake_scryfall) == 0  # every answer cached


async def test_autocomplete_offers_printed_names(foreign_cards, fake_scryfall):
    mode, cards = foreign_cards
    use_player_langs(("de",))
    german = await cards.printed_choices("blitz")
    use_player_langs(())
    japanese = await cards.printed_choices("稲妻")
    if mode == "search":  # "blitz" starts English names: no search; 稲妻 starts none: one search
        assert german == [] and japanese[0] == ("稲妻 — Lightning Bolt", "Lightning Bolt")
        assert fake_scryfall.count() == 1
        return
    assert ("Blitzschlag — Lightning Bolt", "Lightning Bolt") in german
    assert japanese[0] == ("稲妻 — Lightning Bolt", "Lightning Bolt")
    use_player_langs(())
    assert await cards.printed_choices("blitz") == []  # an English client typing an English name's start
    assert ("Blitzschlag — Lightning Bolt", "Lightning Bolt") in await cards.printed_choices("blitzsch")
    use_player_langs(("de",))
    commanders = await cards.printed_choices("atraxa", commanders_only=True)
    assert ("Atraxa, Stimme der Prätoren — Atraxa, Praetors' Voice", "Atraxa, Praetors' Voice") in commanders
    assert all(len(label) <= 100 for label, _name in await cards.printed_choices("a"))
    assert fake_scryfall.count() == 0


async def test_without_any_local_data_the_search_comes_before_no_such_card(card_service, fake_scryfall):
    """No local data at all: English names cost no search (Scryfall's own lookup first); a printed name is
    searched once Scryfall's lookup finds no card, and the card is then that English name's."""
    foreign_printings()  # the fake's `lang:` answers are built once, before the client's timeout runs
    use_player_langs(("fr",))
    assert (await card_service.resolve("Lightning Bolt")).name == "Lightning Bolt"
    assert searches(fake_scryfall) == 0
    use_player_langs(("de",))
    found = await card_service.resolve("Blitzschlag")
    assert (found.name, found.printed) == ("Lightning Bolt", "Blitzschlag")
    assert searches(fake_scryfall) == 1
    assert (await card_service.resolve("Blitzschlag")).name == "Lightning Bolt"
    assert searches(fake_scryfall) == 1  # cached
    use_player_langs(())
    found = await card_service.resolve("Blitzschlag")  # an English client: the same search, cached
    assert (found.name, found.printed) == ("Lightning Bolt", "Blitzschlag")
    assert searches(fake_scryfall) == 1
    with pytest.raises(CardNotFound):
        await card_service.resolve("Gibtsnichtkarte")
    assert searches(fake_scryfall) == 2  # once before "no such card"


async def test_a_remembered_no_such_card_does_not_hide_a_printed_name(language_data, make_card_service):
    """Scryfall's English "no such card" for `Blitzschlag` (remembered for NEGATIVE_TTL) never hides it from
    a decklist, a German client or an English one."""
    _mode, settings = language_data
    cards = await make_card_service(**settings)
    await cards.forget("blitzschlag", [])  # as Scryfall's 404 would have it remembered
    assert (await cards.resolve("Blitzschlag")).name == "Lightning Bolt"
    batch = await cards.resolve_many(["Blitzschlag"])
    assert batch.found["Blitzschlag"].name == "Lightning Bolt"
    use_player_langs(("de",))
    assert (await cards.resolve("Blitzschlag")).name == "Lightning Bolt"


@pytest.mark.parametrize("local_data", [True, False], ids=["bulk", "empty"])
async def test_a_search_that_failed_never_says_no_such_card(
    local_data, imported_cache, make_card_service, fake_scryfall
):
    """Without the printed index a name may be printed: "no such card" waits for Scryfall's search. When that
    search can't be had, the answer is "Scryfall unavailable" (a deck: "could not be checked"), unless the
    English path finds the card."""
    data = {"cache_path": imported_cache} if local_data else {}
    cards = await make_card_service(budget=Budget(rates={"slow": 100, "fast": 100}), backoff=0.0, **data)
    await fake_scryfall.prepare_printed()
    fake_scryfall.down_paths.add("/cards/search")
    use_player_langs(("fr",))
    batch = await cards.resolve_many(["Foudre", "Sol Ring"])
    assert (
        batch.unavailable.keys() == {"Foudre"} and batch.missing == {} and batch.found.keys() == {"Sol Ring"}
    )
    with pytest.raises(ScryfallUnavailable):
        await cards.resolve("Foudre")
    with pytest.raises(ScryfallUnavailable):
        await cards.resolve("Gibtsnichtkarte")
    assert (await cards.resolve("Lightning Bolt")).name == "Lightning Bolt"
    assert (await cards.resolve("Lightning Bol")).name == "Lightning Bolt"  # a partial English name stands
    for _ in range(2):  # Scryfall's English answers (a 404, another card) are remembered, not the search's
        again = await cards.resolve_many(["Foudre", "Lightnig Bolt"])
        assert again.unavailable.keys() == {"Foudre", "Lightnig Bolt"} and again.missing == {}
    fake_scryfall.down_paths.clear()
    assert (await cards.resolve("Foudre")).name == "Lightning Bolt"


async def test_a_search_past_the_timeout_is_unavailable(imported_cache, make_card_service, fake_scryfall):
    cards = await make_card_service(cache_path=imported_cache, scryfall_timeout=1.0)
    fake_scryfall.stalled.add("/cards/search")
    use_player_langs(("fr",))
    with pytest.raises(ScryfallUnavailable):
        await cards.resolve("Foudre")
