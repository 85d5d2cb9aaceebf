"""The Commander Brackets' mass land denial and extra turns read from rules text (`guideline_findings`):
Wizards' examples with the line and the deciding words, what must not count, every face and part of a card,
the reviewed list of what the shared data set flags (tests/data/guidelines_flagged.json), a fuzz run and the
growth of long text (n and 10·n, timed in the same run)."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.identity import Guideline, GuidelineEffect, GuidelineFinding, IdentityError, guideline_findings
from tests.deck.test_reader_growth import MAX_RATIO, cpu_time
from tests.shared_data import all_cards, card

FLAGGED = Path(__file__).parents[1] / "data" / "guidelines_flagged.json"
MLD, TURN = Guideline.MASS_LAND_DENIAL, Guideline.EXTRA_TURN
REMOVES, TAPPED, MANA = (
    GuidelineEffect.REMOVES_LANDS,
    GuidelineEffect.KEEPS_LANDS_TAPPED,
    GuidelineEffect.CHANGES_LAND_MANA,
)


def decided(f: GuidelineFinding) -> str:
    return f.text[f.span[0] : f.span[1]]


def found(name: str) -> list[tuple[Guideline, GuidelineEffect, str, str]]:
    """(guideline, effect, face, deciding words) of each finding on the named card of the shared data."""
    return [(f.guideline, f.effect, f.face, decided(f)) for f in guideline_findings(card(name))]


@pytest.mark.parametrize(
    ("name", "effect", "line", "words"),
    [
        ("Armageddon", REMOVES, "Destroy all lands.", "Destroy all lands"),
        ("Ruination", REMOVES, "Destroy all nonbasic lands.", "Destroy all nonbasic lands"),
        ("Sunder", REMOVES, "Return all lands to their owners' hands.", "Return all lands"),
        (
            "Winter Orb",
            TAPPED,
            "As long as Winter Orb is untapped, players can't untap more than one land during their untap steps.",
            "players can't untap more than one land",
        ),
        ("Blood Moon", MANA, "Nonbasic lands are Mountains.", "Nonbasic lands are Mountains"),
    ],
)
def test_wizards_examples_are_mass_land_denial_with_their_line_and_words(name, effect, line, words):
    (f,) = guideline_findings(card(name))
    assert (f.guideline, f.effect, f.face, f.text, decided(f)) == (MLD, effect, name, line, words)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ravages of War", [(MLD, REMOVES, "Ravages of War", "Destroy all lands")]),
        ("Jokulhaups", [(MLD, REMOVES, "Jokulhaups", "Destroy all artifacts, creatures, and lands")]),
        ("Catastrophe", [(MLD, REMOVES, "Catastrophe", "Destroy all lands")]),  # one of two modes
        ("Wildfire", [(MLD, REMOVES, "Wildfire", "sacrifices four lands")]),
        ("Epicenter", [(MLD, REMOVES, "Epicenter", "sacrifices all lands")]),  # the threshold line only
        (
            "Decree of Annihilation",  # the spell and its cycling trigger
            [
                (MLD, REMOVES, "Decree of Annihilation", "Exile all artifacts, creatures, and lands"),
                (MLD, REMOVES, "Decree of Annihilation", "destroy all lands"),
            ],
        ),
        ("Boil", [(MLD, REMOVES, "Boil", "Destroy all Islands")]),
        ("Acid Rain", [(MLD, REMOVES, "Acid Rain", "Destroy all Forests")]),
        ("Choke", [(MLD, TAPPED, "Choke", "Islands don't untap during their controllers' untap steps")]),
        ("Stasis", [(MLD, TAPPED, "Stasis", "Players skip their untap steps")]),
        ("Static Orb", [(MLD, TAPPED, "Static Orb", "players can't untap more than two permanents")]),
        (
            "Rising Waters",
            [(MLD, TAPPED, "Rising Waters", "Lands don't untap during their controllers' untap steps")],
        ),
        (
            "Contamination",
            [(MLD, MANA, "Contamination", "tapped for mana, it produces {B} instead of any other")],
        ),
        ("Magus of the Moon", [(MLD, MANA, "Magus of the Moon", "Nonbasic lands are Mountains")]),
        ("Time Warp", [(TURN, GuidelineEffect.GIVES_EXTRA_TURN, "Time Warp", "takes an extra turn")]),
        ("Time Walk", [(TURN, GuidelineEffect.GIVES_EXTRA_TURN, "Time Walk", "Take an extra turn")]),
        ("Ral Zarek", [(TURN, GuidelineEffect.GIVES_EXTRA_TURN, "Ral Zarek", "Take an extra turn")]),  # −7
        (
            "Magosi, the Waterveil",
            [(TURN, GuidelineEffect.GIVES_EXTRA_TURN, "Magosi, the Waterveil", "Take an extra turn")],
        ),
        ("Time Stretch", [(TURN, GuidelineEffect.GIVES_EXTRA_TURN, "Time Stretch", "takes two extra turns")]),
        # the line that stops extra turns is no finding; the one that gives one is
        ("Ugin's Nexus", [(TURN, GuidelineEffect.GIVES_EXTRA_TURN, "Ugin's Nexus", "take an extra turn")]),
        ("Boom // Bust", [(MLD, REMOVES, "Bust", "Destroy all lands")]),  # a split card's second half
    ],
)
def test_cards_of_the_data_set(name, expected):
    assert found(name) == expected


@pytest.mark.parametrize(
    "name",
    [
        "Stone Rain",  # one land
        "Reduce // Rubble",  # up to three target lands, for one untap step
        "Volcanic Eruption",  # X target Mountains: targets, not all
        "Ember Swallower",  # each player sacrifices three lands: fewer than four
        "Pox",  # a third of the lands
        "Tremble",  # one land each
        "Return of the Nightstalkers",  # destroys only your own Swamps
        "Celestial Dawn",  # only your lands are Plains
        "Urborg, Tomb of Yawgmoth",  # a land type in addition: the mana it made stays
        "Stormtide Leviathan",
        "From the Ashes",  # each destroyed land is replaced by a basic
        "Wave of Vitriol",
        "Cataclysmic Gearhulk",  # nonland permanents
        "Cyclone Summoner",  # all permanents except ... lands
        "Reclamation",  # a land for each attacker, only if its controller wants to attack
        "Llanowar Druid",  # untaps Forests
        "Mana Vapors",  # one untap step of one player
        "Exhaustion",
        "Damping Sphere",  # only lands that make two or more mana
        "Pale Moon",  # until end of turn
        "Tangle Wire",  # its player picks an artifact, creature or land
        "Worms of the Earth",  # stops land drops: not in Wizards' definition
        "Stranglehold",  # stops extra turns
        "Chronatog",  # skip your next turn
        "Lotus Cobra",  # landfall
        "Cloudcrest Lake",  # a land that only taps itself
    ],
)
def test_not_flagged(name):
    assert guideline_findings(card(name)) == ()


def _card(layout: str, faces: list[tuple[str, str]]) -> dict:
    """A card object of `layout` whose faces have these (name, rules text)."""
    parts = [{"object": "card_face", "name": n, "type_line": "Sorcery", "oracle_text": t} for n, t in faces]
    return {"name": " // ".join(n for n, _ in faces), "layout": layout, "card_faces": parts}


@pytest.mark.parametrize(
    ("layout", "face"),
    [("modal_dfc", 1), ("transform", 1), ("adventure", 1), ("split", 1), ("flip", 1), ("split", 0)],
)
def test_every_face_is_read(layout, face):
    texts = ["Draw a card.", "Draw a card."]
    texts[face] = card("Time Warp")["oracle_text"]
    names = ["Front Part", "Second Part"]
    (f,) = guideline_findings(_card(layout, list(zip(names, texts, strict=True))))
    assert (f.guideline, f.face, decided(f)) == (TURN, names[face], "takes an extra turn")


def test_reminder_text_is_not_read_and_the_line_is_quoted_without_it():
    c = {
        "name": "X",
        "oracle_text": "Awaken 2 (Destroy all lands.) \nTake an extra turn after this one (a reminder).",
    }
    (f,) = guideline_findings(c)
    assert f.text == "Take an extra turn after this one." and f.guideline is TURN  # no space left before "."


@pytest.mark.parametrize(
    "text",
    [
        "Players can't take extra turns.",
        "If a player would begin an extra turn, that player skips that turn instead.",
        "Destroy all lands you control.",
        "Sacrifice all lands you control.",
        "Landfall \u2014 Whenever a land enters the battlefield under your control, you gain 2 life.",
        "Destroy target land.",
        "Destroy two target lands.",
        "{T}: Add {G}. This land doesn't untap during your next untap step.",
        "Lands you control don't untap during your next untap step.",
        "Until end of turn, if you tap a land you control for mana, it produces {U} instead of any other type.",
    ],
)
def test_text_that_is_no_finding(text):
    assert guideline_findings({"name": "X", "oracle_text": text}) == ()


def test_a_mapping_is_read_and_anything_else_is_an_identity_error():
    assert guideline_findings(MappingProxyType(card("Armageddon")))[0].guideline is MLD
    with pytest.raises(IdentityError):
        guideline_findings(["Destroy all lands."])  # type: ignore[arg-type]


@pytest.mark.slow
def test_the_data_set_flags_the_reviewed_list():
    """Changes to the rules change this list on purpose: review tests/data/guidelines_flagged.json."""
    reviewed = json.loads(FLAGGED.read_text(encoding="utf-8"))
    flagged: dict[str, set[str]] = {g.value: set() for g in Guideline}
    for c in all_cards():
        for f in guideline_findings(c):
            flagged[f.guideline.value].add(c["name"])
            assert f.text and decided(f).strip() == decided(f) and f.span[0] < f.span[1]
    assert {g: sorted(names) for g, names in flagged.items()} == reviewed


_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=120)
_WORDY = st.lists(
    st.sampled_from(
        ["destroy", "all", "lands", "Islands", "return", "hands", "sacrifices", "four", "the rest", "chooses",
         "take", "an", "extra turn", "can't", "untap", "steps", "tapped for mana", "produces", "instead of any other",
         "until end of turn", "unless", "except", "you control", ".", ",", "(", ")", "\n", " ", "\u2019", "{B}"]
    ),
    max_size=40,
).map(" ".join)  # fmt: skip
_FACE = st.fixed_dictionaries({"name": _TEXT, "oracle_text": st.one_of(_TEXT, _WORDY)})


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.fixed_dictionaries(
        {"name": _TEXT, "oracle_text": st.one_of(_TEXT, _WORDY, st.integers(), st.none())},
        optional={
            "layout": st.sampled_from(["split", "modal_dfc", "adventure"]),
            "card_faces": st.lists(_FACE),
        },
    )
)
def test_any_text_gives_findings_that_point_into_their_line(c):
    for f in guideline_findings(c):
        start, end = f.span
        assert 0 <= start < end <= len(f.text) and "\n" not in f.text


# adversarial lines: many near-matches that a rule must reject, none with a period to end a sentence
SHAPES = {
    "spaces": lambda n: "Destroy" + " " * n + "all lands",
    "unless, then removal": lambda n: "unless " + "destroy all lands " * (n // 18),
    "return without a hand": lambda n: "return all lands " * (n // 17),
    "a long list before lands": lambda n: "destroy all " + "creatures, " * (n // 11) + "lands",
    "chooses without the rest": lambda n: "each player chooses a land " * (n // 27),
    "beginnings without sacrifice": lambda n: "at the beginning of each upkeep, " * (n // 33),
    "mana changes until end of turn": lambda n: (
        "until end of turn, a land tapped for mana produces {B} instead of any other type, " * (n // 80)
    ),
    "taps without instead": lambda n: "taps a land for mana " * (n // 21),
    "stopped extra turns": lambda n: "can't take an extra turn " * (n // 25),
    "lands words": lambda n: "lands Islands " * (n // 14),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_reading_grows_linearly(shape):
    def read(text: str) -> object:
        return guideline_findings({"name": "X", "oracle_text": text})

    make, n = SHAPES[shape], 5_000
    cpu_time(read, make(n // 10))
    small, large = cpu_time(read, make(n)), cpu_time(read, make(10 * n))
    assert large / small < MAX_RATIO, f"{shape}: {small:.5f} s at n, {large:.5f} s at 10·n"
