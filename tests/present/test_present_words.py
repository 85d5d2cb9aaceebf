"""The presentation's words for the engine's facts: one way to name colors, one way to turn evidence into a line,
verdict codes into sentences (CR 903.3, 702.124), chosen colors (CR 903.4b)."""

from __future__ import annotations

import pytest

from bot.identity import (
    ColorChoice,
    NonDeckKind,
    PairingKind,
    PairingTrait,
    PairingTraits,
    Verdict,
    VerdictCode,
    analyze,
    check_pairing,
    commander_eligibility,
)
from bot.present import evidence, render, words
from tests.present.test_embeds import card


@pytest.mark.parametrize(
    ("colors", "said"),
    [
        ("", "colorless"),
        ("R", "red"),
        ("RB", "black and red"),
        ("WUB", "white, blue and black"),
        ("GRBUW", "white, blue, black, red and green"),
    ],
)
def test_one_way_to_name_colors(colors, said):
    assert render.color_words(colors) == said
    assert render.pips(colors).endswith(said)


@pytest.mark.parametrize(
    ("name", "said"),
    [
        (
            "Kumano, Master Yamabushi",
            "Kumano, Master Yamabushi is a legendary creature, so it can be your commander.",
        ),
        (
            "Rowan Kenrith",
            "Rowan Kenrith\u2019s text says it can be your commander, so it can be your commander.",
        ),
        (
            "Griselbrand",
            "Griselbrand is a legendary creature, so it can be your commander, though it is banned in "
            "Commander.",
        ),
        (
            "Sol Ring",
            "Sol Ring is not a legendary creature, and no text on it says it can be your commander "
            "(CR 903.3).",
        ),
        (
            "Blaring Captain",
            "Blaring Captain is a creature but not legendary, and no text on it says it can be your "
            "commander (CR 903.3).",
        ),
        (
            "Inspirit, Flagship Vessel",
            "Inspirit, Flagship Vessel is a legendary Spacecraft with a power/toughness "
            "box, so it can be your commander.",
        ),
        (
            "The Eternity Elevator",
            "The Eternity Elevator is a legendary Spacecraft without a power/toughness box, and "
            "only a Spacecraft with one can be your commander (CR 903.3).",
        ),
        ("Goblin", "Goblin is a token, not a card you can put in a deck."),
    ],
)
def test_eligibility_sentences(name, said):
    assert words.verdict_sentence(commander_eligibility(card(name))) == said


@pytest.mark.parametrize(
    ("a", "b", "said"),
    [
        (
            "Tymna the Weaver",
            "Thrasios, Triton Hero",
            "Tymna the Weaver and Thrasios, Triton Hero both have Partner, so they can be commanders together "
            "(CR 702.124).",
        ),
        (
            "Pir, Imaginative Rascal",
            "Tymna the Weaver",
            "Pir, Imaginative Rascal has \u201cPartner with Toothy, Imaginary Friend\u201d, so it can only be paired with "
            "Toothy, Imaginary Friend, not Tymna the Weaver (CR 702.124j).",
        ),
        (
            "Kumano, Master Yamabushi",
            "Tymna the Weaver",
            "Kumano, Master Yamabushi has no ability that lets it share the command zone and Tymna the Weaver has "
            "Partner, so they can\u2019t be commanders together (CR 702.124).",
        ),
        (
            "Tymna the Weaver",
            "Tymna the Weaver",
            "A deck can\u2019t have two copies of Tymna the Weaver as its commanders.",
        ),
        (
            "Blaring Captain",
            "Blaring Recruiter",
            "Blaring Captain and Blaring Recruiter each have \u201cPartner with\u201d naming the other, but Blaring Captain "
            "is a creature but not legendary, and no text on it says it can be your commander (CR 903.3).",
        ),
        (
            "Wilson, Refined Grizzly",
            "Raised by Giants",
            "Wilson, Refined Grizzly has \u201cChoose a Background\u201d and Raised by Giants is a Background, so they can "
            "be commanders together (CR 702.124).",
        ),
        (
            "Amy Pond",
            "Sarah Jane Smith",
            "Amy Pond has Doctor\u2019s companion and \u201cPartner with Rory Williams\u201d, and Sarah Jane Smith has "
            "Doctor\u2019s companion, so they can\u2019t be commanders together (CR 702.124).",
        ),
        (
            "Kratos, Stoic Father",
            "Leonardo, the Balance",
            "Kratos, Stoic Father has Partner\u2014Father & son, which pairs only with another commander that has "
            "Partner\u2014Father & son; Leonardo, the Balance has Partner\u2014Character select (CR 702.124i).",
        ),
    ],
)
def test_pairing_sentences(a, b, said):
    assert words.verdict_sentence(check_pairing(card(a), card(b))) == said


def test_names_in_sentences_are_formatted_by_the_caller():
    verdict = commander_eligibility(card("Sol Ring"))
    assert words.verdict_sentence(verdict, lambda n: f"**{n}**").startswith("**Sol Ring** is not")


def test_traits_words():
    assert words.traits_words(PairingTraits()) == "has no ability that lets it share the command zone"
    both = PairingTraits(
        frozenset({PairingTrait(PairingKind.CHOOSE_BACKGROUND), PairingTrait(PairingKind.BACKGROUND)})
    )
    assert words.traits_words(both) == "has \u201cChoose a Background\u201d and is a Background"


def test_a_failing_verdict_names_the_card_that_cant_lead():
    pair = check_pairing(card("Blaring Captain"), card("Blaring Recruiter"))
    assert words.ineligible_name(pair) == "Blaring Captain" and words.is_pairing(pair)
    alone = Verdict(False, VerdictCode.NOT_A_DECK_CARD, "Goblin", not_deck_card=NonDeckKind.TOKEN)
    assert words.ineligible_name(alone) == "Goblin" and not words.is_pairing(alone)


def test_choice_words():
    one = [(ColorChoice("Clara Oswald", 0, "R"),)]
    assert words.choice_words(one) == "red for Clara Oswald"
    either = [(ColorChoice("A", 0, "R"),), (ColorChoice("B", 1, "R"),)]
    assert words.choice_words(either) == "red for A or red for B"
    both = [
        (ColorChoice("A", 0, "W"), ColorChoice("B", 1, "R")),
        (ColorChoice("A", 0, "R"), ColorChoice("B", 1, "W")),
    ]
    assert words.choice_words(both) == "white for A and red for B, or red for A and white for B"


def test_evidence_is_grouped_by_source():
    golos = analyze(card("Golos, Tireless Pilgrim"))
    (source,) = evidence.sources(golos.identity_reasons)
    assert source.colors == "WUBRG" and source.symbols == ("{W}", "{U}", "{B}", "{R}", "{G}")
    assert evidence.evidence_line(source, golos).startswith(
        "{W}{U}{B}{R}{G} \u2014 activated ability: {2}**{W}{U}{B}{R}{G}**: Exile the top three cards"
    )
    finks = analyze(card("Kitchen Finks"))
    assert [s.symbols for s in evidence.sources(finks.identity_reasons)] == [
        ("{G/W}",)
    ]  # one source for both colors
    assert (
        evidence.evidence_line(evidence.sources(finks.identity_reasons)[0], finks, markdown=False)
        == "{G/W} \u2014 mana cost: {1}{G/W}{G/W}"
    )


def test_evidence_for_some_colors_only_bolds_their_symbols():
    golos = analyze(card("Golos, Tireless Pilgrim"))
    (source,) = evidence.sources(golos.identity_reasons, "WUBG")
    assert evidence.evidence_line(source, golos).startswith(
        "{W}{U}{B}{G} \u2014 activated ability: {2}**{W}{U}{B}**{R}**{G}**: Exile"
    )


def test_lessons_each_once():
    assert words.lessons(analyze(card("Kitchen Finks"))) == [
        "Hybrid {G/W} counts as both white and green, though either can pay for it."
    ]
    assert words.lessons(analyze(card("Reaper King"))) == [
        "{2/W} counts as white, though {2} can pay for it."
    ]
    assert words.lessons(analyze(card("Sol Ring"))) == []
    assert words.lessons(analyze(card("Trinisphere"))) == [  # the wiki's own example of CR 903.4c
        "The {B} in its reminder text doesn\u2019t count: reminder text is ignored (CR 903.4c)."
    ]
