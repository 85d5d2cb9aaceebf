"""Name normalisation, the ranking of the local name index and its resolution rules.

Most tests use the whole shared data set (24,249 cards, 4,315 with an EDHREC rank); the rule tests build
small indexes whose popularity is chosen so that only the rule under test can produce the order.
"""

from __future__ import annotations

import gc
import random
import weakref

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cards.index import NameIndex
from bot.cards.names import (
    match_cost,
    normalize,
    rank_candidates,
    typo_prefix,
    word_match,
)
from bot.cards.rows import card_rank, popularity
from bot.cards.search import IndexEntry, _gentle_sorted
from tests.shared_data import all_cards, commander_flags


def _entries() -> list[IndexEntry]:
    return [
        IndexEntry(c["name"], normalize(c["name"]), c["id"], lead, card_rank(c), popularity(c))
        for c, lead in zip(all_cards(), commander_flags(), strict=True)
    ]


@pytest.fixture(scope="module")
def index() -> NameIndex:
    return NameIndex(_entries())


def small(*cards: tuple[str, int | None] | tuple[str, int | None, bool]) -> NameIndex:
    """An index of (name, EDHREC rank or None[, commander]) rows."""
    return NameIndex(
        IndexEntry(c[0], normalize(c[0]), str(i), bool(c[2]) if len(c) > 2 else False, 0, c[1])
        for i, c in enumerate(cards)
    )


# ----------------------------------------------------------------------------------------- normalisation
@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Fire // Ice", "fire ice"),
        ("fire/ice", "fire ice"),
        ("Æther Vial", "aether vial"),
        ("Kumano's Pupils", "kumanos pupils"),
        ("  Sol   Ring ", "sol ring"),
    ],
)
def test_normalize_folds_case_accents_punctuation(text, key):
    assert normalize(text) == key


def test_word_match_kinds():
    assert (
        word_match("bolt", "bolt")[0]
        < word_match("bolt", "bolt bend")[0]
        < word_match("bolt", "lightning bolt")[0]
        < word_match("bolt", "bolts of fury")[0]
        < word_match("bolt", "boltwing marauder")[0]
        < word_match("bolt", "ball of boltwings")[0]
    )
    assert word_match("fire", "fires of yavimaya")[1:] == (1, "fires")
    assert word_match("bolt", "thunderbolt") is None
    assert word_match("command t", "command tower")[1:] == (4, "command tower")


@pytest.mark.parametrize(
    ("q", "word", "slip"),
    [
        ("atrxa", "atraxa", True),  # missing letter
        ("attraxa", "atraxa", True),  # extra letter
        ("atrexa", "atraxa", True),  # wrong letter
        ("atarxa", "atraxa", True),  # swapped letters
        ("ati", "atraxa", True),  # wrong last letter
        ("atraxa", "atraxa praetors voice", False),  # exact prefix: not a typo
        ("btraxa", "atraxa", False),  # the first letter must be right
        ("at", "atraxa", False),  # too short for typo tolerance
        ("atrexx", "atraxa", False),  # two slips
    ],
)
def test_typo_prefix(q, word, slip):
    assert typo_prefix(q, word) is slip


# ------------------------------------------------------------------------------ ranking on the real data
@pytest.mark.parametrize(
    ("typed", "meant", "top", "commanders"),
    [
        ("bolt", "Lightning Bolt", 1, False),
        ("sol", "Sol Ring", 1, False),
        ("swords", "Swords to Plowshares", 1, False),
        ("counter", "Counterspell", 1, False),
        ("cultiv", "Cultivate", 1, False),
        ("command t", "Command Tower", 1, False),
        ("path", "Path to Exile", 2, False),  # Path of Ancestry (rank 14) is played as much (19)
        ("rhystic", "Rhystic Study", 1, False),
        ("arcane", "Arcane Signet", 1, False),
        ("llanowar", "Llanowar Elves", 2, False),  # after the exact name: the vanguard card "Llanowar"
        ("exploration", "Exploration", 1, False),
        ("cyclonic", "Cyclonic Rift", 1, False),
        ("smothering", "Smothering Tithe", 2, False),  # unranked in the data, like its only rival
        ("demonic", "Demonic Tutor", 5, False),  # unranked in the data (no precon has it): tie-breaks only
        ("fell", "Fellwar Stone", 1, False),  # before the whole word of Fell Shepherd (rank 20,958)
        ("rhys", "Rhystic Study", 1, False),  # before Rhys the Redeemed (2,282) and Rhys the Exiled (6,264)
        ("count", "Counterspell", 1, False),  # before Body Count (5,530)
        ("terra", "Terramorphic Expanse", 1, False),  # before Terra Ravager (22,004)
        ("swift", "Swiftfoot Boots", 1, False),  # before Murderous Rider // Swift End (1,263)
        ("craterhoof", "Craterhoof Behemoth", 1, False),
        ("atr", "Atraxa, Praetors' Voice", 1, False),
        ("kras", "Hydroid Krasis", 1, False),  # a later word, but the only played Krasis
        ("lightnig bolt", "Lightning Bolt", 1, False),  # a typo
        ("ati", "Atraxa, Praetors' Voice", 3, True),
        ("atra", "Atraxa, Praetors' Voice", 1, True),
        ("kumano", "Kumano, Master Yamabushi", 1, True),
        ("tymna", "Tymna the Weaver", 1, True),
        ("yamab", "Kumano, Master Yamabushi", 1, True),
    ],
)
def test_the_card_players_mean_comes_first(index, typed, meant, top, commanders):
    names = index.complete(typed, commanders_only=commanders)
    assert meant in names[:top], names[:5]


def test_commander_lists_offer_only_commanders_by_popularity(index):
    names = index.complete("ati", commanders_only=True)
    assert len(names) == 25 and all(index.entries[n].commander for n in names)
    # "ati" inside a word is a correct match, but a weaker guess than a slip at the start of a name
    assert index.candidates("ati", commanders_only=True)[0] == "Padeem, Consul of Innovation"
    ranks = [index.popularity(n) for n in names[:3]]
    assert ranks == sorted(ranks)  # the three start-of-name slips, most played first


def test_fire_keeps_room_for_other_words(index):
    names = index.complete("fire")
    assert len(names) == 25 and len(set(names)) == 25
    assert names[0] == "Fire Diamond"  # the most played card with the whole word
    assert "Fires of Undeath" in names and "Fire // Ice" in names and "Fireball" in names
    groups = [word_match("fire", normalize(n)) for n in names]
    whole = sum(1 for g in groups if g is not None and g[2] == "fire")
    assert whole == 13  # 75 names have the whole word "fire"; they may fill only half the list


def test_equal_popularity_keeps_short_completions_first(index):
    assert index.complete("sol ri")[0] == "Sol Ring"
    # Yavimaya is ranked; the other two are not, so the shorter name comes next
    assert index.complete("Fires of")[:3] == ["Fires of Yavimaya", "Fires of Undeath", "Fires of Invention"]


def test_autocomplete_limits(index):
    assert index.complete("") == []
    assert index.complete("bolt", limit=0) == []
    assert len(index.complete("a")) == 25
    assert len(index.complete("bolt", limit=5)) == 5
    assert all(len(n) <= 100 for n in index.complete("a"))
    assert index.complete("zzqxzzqx") == []


# --------------------------------------------------------------------------------------- ranking rules
def test_exact_name_wins_over_any_popularity():
    idx = small(("Lightning Bolt", 1), ("Bolt", None), ("Bolt Bend", 2))
    assert idx.complete("bolt")[0] == "Bolt"
    assert idx.match("bolt").names == ["Bolt"] and idx.match("bolt").kind == "unique"


def test_popularity_lifts_over_the_next_better_kind_only_when_far_more_played():
    # "Solemn" is a prefix match, "Sol Talisman" a whole-word match (one kind better)
    assert small(("Sol Talisman", None), ("Solemn Simulacrum", 34)).complete("sol")[0] == "Solemn Simulacrum"
    assert small(("Sol Talisman", 3000), ("Solemn Simulacrum", 400)).complete("sol")[0] == "Sol Talisman"
    # 1.5 decades between the kinds: about 32 times more played passes an obscure whole-word match
    assert small(("Rhys the Redeemed", 2282), ("Rhystic Study", 37)).complete("rhys")[0] == "Rhystic Study"
    assert (
        small(("Rhys the Redeemed", 2282), ("Rhystic Study", 100)).complete("rhys")[0] == "Rhys the Redeemed"
    )
    assert small(("Rhys the Redeemed", None), ("Rhystic Study", 1000)).complete("rhys")[0] == "Rhystic Study"


def test_guesses_never_pass_correct_matches():
    idx = small(("Arcane Signet", 1), ("Atrocious Experiment", None), ("Ornate Atrium", None))
    # "ar" + a slip is a typo guess; an unranked name starting with "atr" still comes first
    assert idx.complete("atr") == ["Atrocious Experiment", "Ornate Atrium", "Arcane Signet"]


def test_a_slip_at_a_word_start_beats_letters_inside_a_word():
    idx = small(
        ("Padeem, Consul of Innovation", 100, True),
        ("Atraxa, Praetors' Voice", 1000, True),
        ("Wyleth, Soul of Steel", 1, True),
    )
    assert idx.complete("ati", commanders_only=True) == [
        "Atraxa, Praetors' Voice",
        "Padeem, Consul of Innovation",
    ]


def test_start_of_name_counts_a_little():
    assert small(("Lightning Bolt", 500), ("Bolt Bend", 1000)).complete("bolt")[0] == "Bolt Bend"
    assert small(("Lightning Bolt", 200), ("Bolt Bend", 1000)).complete("bolt")[0] == "Lightning Bolt"


# ------------------------------------------------------------------------------------------ resolution
def test_a_far_more_popular_whole_word_match_resolves_alone(index):
    bolt = index.match("bolt")
    assert bolt.kind == "unique" and bolt.names == ["Lightning Bolt"]
    assert index.match("swords").names == ["Swords to Plowshares"]
    path = index.match("path")
    assert path.kind == "ambiguous" and path.names[:2] == ["Path of Ancestry", "Path to Exile"]


def test_clear_winner_rule():
    rivals = small(("Lightning Bolt", 185), ("Demon Bolt", 1000), ("Boltwing Marauder", 50))
    assert rivals.match("bolt").kind == "ambiguous"  # Demon Bolt is within ten times
    assert rivals.match("bolt").names == [
        "Lightning Bolt",
        "Boltwing Marauder",
        "Demon Bolt",
    ]  # 20 times more played
    alone = small(("Lightning Bolt", 185), ("Demon Bolt", 1850), ("Boltwing Marauder", 50))
    assert alone.match("bolt").names == ["Lightning Bolt"]  # the prefix match is no rival
    unranked = small(("Bolt Bend", None), ("Bolt Hound", None))
    assert unranked.match("bolt").kind == "ambiguous"
    prefix_only = small(("Counterspell", 16), ("Counterflux", 3554))
    assert prefix_only.match("counter").kind == "ambiguous"  # only whole words resolve on popularity
    assert prefix_only.match("counter").names == ["Counterspell", "Counterflux"]


def test_typos_resolve_only_when_unmistakable(index):
    assert index.match("dismembr").names == ["Dismember"]
    assert index.match("kumano mastr yamabushi").names == ["Kumano, Master Yamabushi"]
    loose = index.match("bolx")
    assert loose.kind == "none" and "Lightning Bolt" in loose.suggestions[:3]
    assert index.match("zzzz qqqq").kind == "none"


def test_commander_resolution(index):
    assert index.match("kumano", commanders_only=True).names == ["Kumano, Master Yamabushi"]
    assert index.match("kumano").kind == "ambiguous"
    assert index.match("atraxa", commanders_only=True).names == ["Atraxa, Praetors' Voice"]


# ----------------------------------------------------------------------------------- rank_candidates
@pytest.mark.parametrize("typed", ["bolt", "sol", "path", "kumano", "fire", "counter", "arcane"])
def test_rank_candidates_agrees_with_the_index(index, typed):
    names = index.candidates(normalize(typed), limit=15)
    shuffled = random.Random(typed).sample(names, len(names))
    assert index.rank_candidates(typed, shuffled) == names


def test_rank_candidates_without_popularity_orders_by_kind():
    names = ["Akumanoid", "Kumano's Pupils", "Etching of Kumano", "Kumano, Master Yamabushi", "Kumono"]
    assert rank_candidates("kumano", names, {}.get) == [
        "Kumano, Master Yamabushi",
        "Etching of Kumano",
        "Kumano's Pupils",
        "Kumono",
        "Akumanoid",
    ]
    assert rank_candidates("bolt", ["Bolt Bend", "Lightning Bolt"], {"Lightning Bolt": 185}.get) == [
        "Lightning Bolt",
        "Bolt Bend",
    ]
    assert match_cost("kumano", "kumono")[0] < match_cost("kumano", "akumanoid")[0]  # typo, then inside


# ------------------------------------------------------------------------------------------- building
@given(st.lists(st.text(alphabet="abc ", max_size=4), max_size=5000))
def test_gentle_sort_is_a_sort(items):
    assert _gentle_sorted(items, key=str) == sorted(items)


def test_build_order_does_not_matter(index):
    entries = _entries()
    random.Random(7).shuffle(entries)
    shuffled = NameIndex(entries)
    for typed in ("bolt", "a", "fire", "kumano", "ati", "lightnig bolt"):
        assert shuffled.complete(typed) == index.complete(typed)
    assert shuffled.complete("ati", commanders_only=True) == index.complete("ati", commanders_only=True)
    assert len(shuffled) == len(index)


def test_a_dropped_index_is_freed_at_once():
    """No reference cycle: a replaced index is freed when dropped, not in a later garbage-collector pause."""
    idx = small(("Lightning Bolt", 185), ("Bolt Bend", None))
    idx.match("bolt")
    idx.complete("bolt")
    ref = weakref.ref(idx)
    gc.disable()
    try:
        del idx
        assert ref() is None
    finally:
        gc.enable()


def test_match_answers_are_remembered_per_commander_flag():
    idx = small(("Kumano, Master Yamabushi", None, True), ("Kumano's Pupils", None))
    assert idx.match("kumano") is idx.match("kumano")
    assert idx.match("kumano", commanders_only=True).names == ["Kumano, Master Yamabushi"]
    assert idx.match("kumano").kind == "ambiguous"
