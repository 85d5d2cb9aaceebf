"""Printed names without `CARD_LANGUAGES` (issue 26): a name no English card has is searched once as a printed
name in every language (`lang:any`), whatever the player's language, before "no such card"; before a typo
or a choice of partial English names when complete local data shows it is no single English name. Real HTTP
to the fake Scryfall; the search's TTLs on a fake clock."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cards.budget import Budget
from bot.cards.foreign import ForeignNames, phrase_key, printed_query, use_player_langs
from bot.cards.model import AmbiguousCard, CardNotFound, ScryfallUnavailable
from bot.cards.names import normalize
from tests.fakes.allcards import printed_sample
from tests.fakes.fixtures import FakeClock
from tests.production_world import copy_database

pytest_plugins = ("tests.fakes.printed_cache",)

LANGS = ("de", "fr", "es", "it", "pt", "ja")
FAST = {"slow": 100.0, "fast": 100.0}  # a budget that never makes a test wait for a turn


def searches(fake) -> int:
    return fake.count("/cards/search")


@pytest.fixture
async def english_client(imported_cache, make_card_service, fake_scryfall):
    """A card service on complete local English data, no printed names imported, and a player whose Discord
    is in English."""
    await fake_scryfall.prepare_printed()
    cards = await make_card_service(
        cache_path=imported_cache, clock=FakeClock(), budget=Budget(rates=FAST), backoff=0.0
    )
    use_player_langs(())
    return cards


def sample(cards, per_lang: int = 2, seed: int = 26) -> list[tuple[str, str, str]]:
    """Printed names the service's English index reads as no English name, not even by a typo or as part of
    several (an English client's partial names and typos stay local)."""
    return printed_sample(LANGS, per_lang, seed=seed, english=lambda name: reads_english(cards, name))


def reads_english(cards, name: str) -> bool:
    return cards.index.match(normalize(name)).kind != "none"


async def test_an_english_client_reads_printed_names_in_every_language(english_client, fake_scryfall):
    names = sample(english_client)
    for lang, printed, english in names:
        found = await english_client.resolve(printed)
        assert (found.name, found.printed) == (english, printed), lang
    assert searches(fake_scryfall) == len(names)  # one request a name
    for _lang, printed, english in names:
        assert (await english_client.resolve(printed)).name == english
        peeked = await english_client.peek(printed)  # a remembered search answers without the network
        assert peeked is not None and peeked.name == english
    assert searches(fake_scryfall) == len(names)
    assert all(
        q.query["q"].startswith("lang:any ") for q in fake_scryfall.requests if q.path == "/cards/search"
    )


async def test_an_english_clients_decklist_and_commander(english_client, fake_scryfall):
    names = sample(english_client, seed=7)
    batch = await english_client.resolve_many([printed for _lang, printed, _english in names])
    assert {typed: r.name for typed, r in batch.found.items()} == {p: e for _l, p, e in names}
    assert batch.missing == {} and batch.unavailable == {}
    found = await english_client.resolve_commander("Krenko der Boss")
    assert found.name == "Krenko, Mob Boss"


async def test_english_partial_names_and_typos_stay_local(english_client, fake_scryfall):
    """An English client's typo or partial name is read locally, as before (no request); a player whose
    language Magic is printed in gets the search first: fr `Refus` is a choice of the two cards printed so."""
    typo = await english_client.resolve("Lightnig Bolt")
    assert (typo.name, typo.printed) == ("Lightning Bolt", None)
    assert (await english_client.resolve("Lightning Bol")).name == "Lightning Bolt"
    assert fake_scryfall.count() == 0
    use_player_langs(("fr",))
    with pytest.raises(AmbiguousCard) as err:
        await english_client.resolve("Refus")
    assert sorted(err.value.candidates) == ["Disallow", "Failure // Comply"]
    assert (await english_client.resolve("Vide")).name == "Void"
    assert searches(fake_scryfall) == 2


async def test_a_search_that_failed_says_couldnt_check(english_client, fake_scryfall):
    fake_scryfall.down_paths.add("/cards/search")
    with pytest.raises(ScryfallUnavailable):
        await english_client.resolve("Blitzschlag")
    with pytest.raises(ScryfallUnavailable):
        await english_client.resolve("Gibtsnichtkarte")
    assert await english_client.peek("Blitzschlag") is None  # nothing remembered: never "no such card"
    batch = await english_client.resolve_many(["Blitzschlag", "Sol Ring"])
    assert batch.unavailable.keys() == {"Blitzschlag"} and batch.missing == {}
    assert (await english_client.resolve("Lightnig Bolt")).name == "Lightning Bolt"  # the English typo stands
    fake_scryfall.down_paths.clear()
    assert (await english_client.resolve("Blitzschlag")).name == "Lightning Bolt"


async def test_answers_expire_on_the_clock(imported_cache, make_card_service, fake_scryfall):
    clock = FakeClock()
    cards = await make_card_service(
        cache_path=imported_cache, clock=clock, budget=Budget(rates=FAST), cache_ttl=1000, negative_ttl=100
    )
    await fake_scryfall.prepare_printed()
    use_player_langs(())
    for _ in range(2):
        with pytest.raises(CardNotFound):
            await cards.resolve("Gibtsnichtkarte")
        assert (await cards.resolve("Foudre")).name == "Lightning Bolt"
    assert searches(fake_scryfall) == 2  # each once: "none" and the card are remembered
    clock.advance(101)  # "none" is forgotten, the card is not
    with pytest.raises(CardNotFound):
        await cards.resolve("Gibtsnichtkarte")
    assert (await cards.resolve("Foudre")).name == "Lightning Bolt"
    assert searches(fake_scryfall) == 3
    clock.advance(1000)
    assert (await cards.resolve("Foudre")).name == "Lightning Bolt"
    assert searches(fake_scryfall) == 4


async def test_languages_the_local_index_lacks_are_searched(
    make_card_service, printed_cache_template, tmp_path, fake_scryfall
):
    path = copy_database(printed_cache_template, tmp_path / "cards.sqlite3")
    cards = await make_card_service(cache_path=path, card_languages="de", budget=Budget(rates=FAST))
    await fake_scryfall.prepare_printed()
    for langs in ((), ("de",), ("ja",)):
        use_player_langs(langs)
        assert (await cards.resolve("Blitzschlag")).name == "Lightning Bolt"  # imported
        assert (await cards.resolve("Foudre")).name == "Lightning Bolt"  # not imported: searched
    assert searches(fake_scryfall) == 1
    full = await make_card_service(
        cache_path=copy_database(printed_cache_template, tmp_path / "all.sqlite3"), card_languages="all"
    )
    with pytest.raises(CardNotFound):
        await full.resolve("Gibtsnichtkarte")
    assert searches(fake_scryfall) == 1  # every language imported: the index says "no such card" alone


async def test_autocomplete_asks_only_when_a_request_can_go_at_once(
    imported_cache, make_card_service, fake_scryfall
):
    cards = await make_card_service(cache_path=imported_cache, budget=Budget(rates=FAST))
    await fake_scryfall.prepare_printed()
    use_player_langs(())
    assert await cards.printed_choices("light") == []  # English names start so: no search
    assert searches(fake_scryfall) == 0
    offered = await cards.printed_choices("Blitzsch")
    assert ("Blitzschlag — Lightning Bolt", "Lightning Bolt") in offered
    assert ("Blitzschlag — Lightning Bolt", "Lightning Bolt") in await cards.printed_choices("blitzschla")
    assert await cards.printed_choices("bl") == []  # too short to narrow a search
    assert searches(fake_scryfall) == 1  # a complete answer for a shorter prefix answers longer ones
    slow = await make_card_service(
        cache_path=imported_cache, budget=Budget(rates={"slow": 0.01, "fast": 0.01})
    )
    assert await slow.printed_choices("Foudr") != []  # the first request goes at once
    asked = searches(fake_scryfall)
    assert await slow.printed_choices("Fulmin") == []  # no turn free now: nothing, at once
    assert await slow.printed_choices("Foudre") != []  # what is known still answers
    assert searches(fake_scryfall) == asked


async def test_the_log_names_the_setting_once_per_language(caplog):
    foreign = ForeignNames()
    with caplog.at_level(logging.INFO, logger="bot.cards.foreign"):
        for lang in ("de", "de", None, "fr", "de"):
            foreign.note_player(lang)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and "CARD_LANGUAGES=de" in lines[0] and "CARD_LANGUAGES=de,fr" in lines[1]
    foreign.languages = frozenset({"ja"})
    caplog.clear()
    foreign.note_player("ja")
    assert caplog.records == []


@given(st.text(max_size=400))
def test_the_query_holds_one_quoted_phrase(text):
    query = printed_query(text)
    assert query.startswith('lang:any unique:prints "') and query.endswith('"') and query.count('"') == 2
    assert phrase_key(phrase_key(text)) == phrase_key(text)
