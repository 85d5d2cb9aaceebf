"""A deck's combos (`ComboStore.find`) and Spellbook's judgement of them (`classify`), on real card names of
the shared data set in variants of the export's real shape (tests/fakes/spellbook.py)."""

from __future__ import annotations

import asyncio
import gzip
import time

import pytest

from bot.cards.cache import CardCache
from bot.combos.load import import_variants
from bot.combos.model import BracketTag, FeatureStatus, Zone, classify
from bot.combos.store import ComboStore
from tests.fakes.spellbook import export, generated, template, use, variant
from tests.shared_data import all_cards

ORACLE, CONSULTATION = "Thassa's Oracle", "Demonic Consultation"
DELVER = "Delver of Secrets // Insectile Aberration"
VARIANTS = [
    variant([use(ORACLE, "H"), use(CONSULTATION, "H")], ["Win the game"], mana="{U}{U}{B}", mana_value=3),
    variant(
        [ORACLE, CONSULTATION], ["Win the game"], requires=[template("A creature token")], variant_id="t-1"
    ),
    variant(["Kiki-Jiki, Mirror Breaker", "Zealous Conscripts"], ["Infinite ETB"], mana="{R}", mana_value=1),
    variant([DELVER, "Sol Ring"], [("Infinite mana", "C")], mana_value=0, popularity=5),
    variant(
        ["Isochron Scepter", "Dramatic Reversal"], [("Infinite untaps", "H")], mana_value=2, popularity=9
    ),
]


@pytest.fixture
async def store(tmp_path):
    path = tmp_path / "cache.sqlite3"
    source = tmp_path / "variants.json.gz"
    source.write_bytes(gzip.compress(export(VARIANTS)))
    async with await CardCache.open(path) as cache:
        await asyncio.to_thread(import_variants, source, path, least=1)
        yield ComboStore(cache)


async def test_thassas_oracle_and_demonic_consultation_are_a_two_card_win_at_3_mana(store):
    deck = [CONSULTATION, "Sol Ring", "Island", "Swamp", "Counterspell"]
    found = await store.find(deck, [ORACLE])  # the commander counts as in the deck
    assert found.checked and found.imported_at is not None
    combo = next(c for c in found.combos if c.id != "t-1")
    assert [p.name for p in combo.uses] == [ORACLE, CONSULTATION] and not combo.requires
    assert combo.mana_value_needed == 3 and combo.bracket_tag is BracketTag.RUTHLESS
    assert combo.produces[0].name == "Win the game" and combo.produces[0].status is FeatureStatus.STANDALONE
    assert combo.url == f"https://commanderspellbook.com/combo/{combo.id}/"
    judged = classify(combo, commanders=[])
    assert judged.definitely_two_card and judged.relevant and judged.speed == 4 and judged.early


async def test_without_demonic_consultation_no_combo_is_found(store):
    found = await store.find([ORACLE, "Sol Ring", "Island", "Kiki-Jiki, Mirror Breaker"])
    assert found.checked and found.combos == ()


async def test_a_combo_that_also_needs_a_template_is_not_two_card(store):
    found = await store.find([ORACLE, CONSULTATION])
    by_id = {c.id: c for c in found.combos}
    assert set(by_id) >= {"t-1"} and len(by_id) == 2  # templates are not checked against the deck
    judged = classify(by_id["t-1"], commanders=[])
    assert not judged.definitely_two_card and not judged.arguably_two_card  # three pieces counted


async def test_double_faced_cards_match_by_their_full_name_only(store):
    found = await store.find([DELVER, "Sol Ring"])
    assert [c.uses[0].name for c in found.combos] == [DELVER]
    assert (await store.find(["Delver of Secrets", "Sol Ring"])).combos == ()  # the front face alone: no
    assert (await store.find(["delver of secrets // insectile aberration", "SOL RING"])).combos  # folded case


async def test_most_popular_first(store):
    found = await store.find([c["name"] for c in all_cards()])
    populars = [c.popularity for c in found.combos]
    assert len(found.combos) == len(VARIANTS) and populars == sorted(populars, reverse=True)


async def test_no_combo_data_is_told_apart_from_no_combos(tmp_path):
    async with await CardCache.open(tmp_path / "empty.sqlite3") as cache:
        found = await ComboStore(cache).find([ORACLE, CONSULTATION])
    assert not found.checked and found.combos == ()
    async with await CardCache.open(":memory:") as cache:
        assert not (await ComboStore(cache).find([ORACLE])).checked


def _combo(cards, features=("Win the game",), **options):
    from bot.combos.model import COMBO

    return COMBO.validate_python(variant(cards, list(features), **options))


def test_classification_follows_spellbooks_estimate_bracket():
    # the deck's commander is not counted, nor a card starting in the library
    three = _combo([use("Kiki-Jiki, Mirror Breaker", "C"), "Zealous Conscripts", ORACLE])
    assert classify(three, ["Kiki-Jiki, Mirror Breaker"]).definitely_two_card
    assert not classify(three, []).definitely_two_card and not classify(three, []).arguably_two_card
    assert classify(_combo(["Zealous Conscripts", CONSULTATION, use(ORACLE, "L")]), []).definitely_two_card
    # notable prerequisites are a doubt: arguably two cards, not definitely
    doubted = _combo([ORACLE, CONSULTATION], notable="An opponent has no cards in hand.")
    judged = classify(doubted, [])
    assert judged.arguably_two_card and not judged.definitely_two_card
    # a result that is only contextual: borderline relevant; only a helper: neither, and a doubt
    assert classify(_combo([ORACLE, CONSULTATION], [("Infinite mana", "C")]), []).borderline_relevant
    helper = classify(_combo([ORACLE, CONSULTATION], [("Infinite untaps", "H")]), [])
    assert not helper.relevant and not helper.borderline_relevant and not helper.definitely_two_card
    # a template that must be the commander is a doubt
    led = _combo(
        [ORACLE, CONSULTATION], requires=[template("A legendary creature", "C", must_be_commander=True)]
    )
    assert not classify(led, []).definitely_two_card and classify(led, []).arguably_two_card
    # speed from the mana value needed
    speeds = [
        classify(_combo([ORACLE, CONSULTATION], mana_value=v), []).speed for v in (0, 4, 5, 6, 8, 9, None)
    ]
    assert speeds == [5, 4, 3, 3, 2, 1, None]


def test_codes_and_brackets():
    assert [t.bracket for t in BracketTag] == [4, 3, 3, 2, 2, 1, None]
    assert BracketTag("S") is BracketTag.SPICY and Zone("L") is Zone.LIBRARY
    odd = _combo([use(ORACLE, "HQ")], bracket_tag="Z")  # codes Spellbook may add later: read as unknown
    assert odd.bracket_tag is None and odd.uses[0].zone_locations == (Zone.HAND,)


async def test_a_100_card_deck_is_checked_fast(tmp_path):
    """Warm p99 of find() for 100-card decks over 3,000 combos (bench/combos.py measures 100,000)."""
    names = [c["name"] for c in all_cards()]
    path, source = tmp_path / "cache.sqlite3", tmp_path / "v.json"
    source.write_bytes(export(generated(3000, names[:300] * 20 + names)))
    async with await CardCache.open(path) as cache:
        await asyncio.to_thread(import_variants, source, path, least=1)
        store = ComboStore(cache)
        times = []
        for start in range(0, 3000, 100):
            began = time.perf_counter()
            assert (await store.find(names[start : start + 99], names[start + 99 : start + 100])).checked
            times.append(time.perf_counter() - began)
    assert sorted(times)[int(len(times) * 0.99) - 1] < 0.05
