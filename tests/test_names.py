"""Name normalisation and the local autocomplete ranking (bot/names.py) over the shared data set."""

from __future__ import annotations

import pytest

from bot.cards.names import IndexEntry, NameIndex, completion_rank, normalize
from tests.shared_data import all_cards


@pytest.fixture(scope="module")
def index() -> NameIndex:
    return NameIndex(IndexEntry(c["name"], normalize(c["name"]), c["id"], False, 0) for c in all_cards())


@pytest.mark.parametrize(("text", "key"), [
    ("Fire // Ice", "fire ice"), ("fire/ice", "fire ice"), ("Æther Vial", "aether vial"),
    ("Kumano's Pupils", "kumanos pupils"), ("  Sol   Ring ", "sol ring"),
])
def test_normalize_folds_case_accents_punctuation(text, key):
    assert normalize(text) == key


def test_completion_rank_counts_missing_letters_of_the_typed_word():
    assert completion_rank("fire ice", "fire") == 0
    assert completion_rank("fires of undeath", "fire") == 1
    assert completion_rank("fireball", "fire") == 4
    assert completion_rank("fires of undeath", "fires of") == 0


def test_fire_offers_fire_and_fires_cards_before_longer_words(index):
    names = index.complete("fire")
    assert len(names) == 25
    assert "Fires of Undeath" in names and "Fire // Ice" in names
    ranks = [completion_rank(normalize(n), "fire") for n in names]
    assert ranks.index(1) > ranks.index(0)  # Fire ... before Fires ...
    assert sum(r == 0 for r in ranks) == 20  # one word may not fill the whole list


def test_small_result_sets_are_not_reordered_away(index):
    assert index.complete("sol ri")[0] == "Sol Ring"
    assert index.complete("Fires of")[:3] == ["Fires of Invention", "Fires of Undeath", "Fires of Yavimaya"]


def test_autocomplete_limits(index):
    assert index.complete("") == []
    assert len(index.complete("a")) == 25
    assert all(len(n) <= 100 for n in index.complete("a"))
