"""Fit checks (CR 903.5c), commander eligibility (903.3) and commander pairing (702.124)."""

from __future__ import annotations

import pytest

from bot.identity import (
    IdentityError,
    NonDeckKind,
    PairingKind,
    VerdictCode,
    analyze,
    check_fit,
    check_pairing,
    commander_eligibility,
)
from bot.identity.model import FitVerdict, ReasonKind, TextPlace
from tests.shared_data import card, without_answers


def C(name: str) -> dict:
    return without_answers(card(name))


def make(name, type_line, text="", cost="", layout="normal", **extra) -> dict:
    """A small realistic Scryfall-shaped card, for cards newer than the shared data set."""
    return {
        "object": "card",
        "name": name,
        "layout": layout,
        "mana_cost": cost,
        "type_line": type_line,
        "oracle_text": text,
        "legalities": {"commander": "legal"},
        **extra,
    }


RAISED_BY_GIANTS = make(
    "Raised by Giants",
    "Legendary Enchantment \u2014 Background",
    "Commander creatures you own have base power and toughness 10/10 and are Giants in addition to their other types.",
    "{5}{G}",
)
WILSON = make(
    "Wilson, Refined Grizzly",
    "Legendary Creature \u2014 Bear Warrior",
    "Choose a Background (You can have a Background as a second commander.)\nReach, trample, ward {2}",
    "{1}{G}",
)
TENTH_DOCTOR = make(
    "The Tenth Doctor",
    "Legendary Creature \u2014 Time Lord Doctor",
    "Allons-y! \u2014 Whenever The Tenth Doctor attacks, exile cards from the top of your library until you exile a "
    "card with mana value 4 or greater. You may cast that card without paying its mana cost.",
    "{2}{R}{G}{W}",
)
ROSE_TYLER = make(
    "Rose Tyler",
    "Legendary Creature \u2014 Human",
    "Doctor\u2019s companion (You can have two commanders if the other is the Doctor.)",
    "{1}{W}",
)
ELEVEN = make(
    "Eleven, the Mage",
    "Legendary Creature \u2014 Human Wizard",
    "Friends forever (You can have two commanders if both have friends forever.)",
    "{2}{U}{R}",
)
MIKE = make(
    "Mike, the Dungeon Master",
    "Legendary Creature \u2014 Human Wizard",
    "Friends forever (You can have two commanders if both have friends forever.)",
    "{W}",
)
SURVIVOR_A = make(
    "Test Survivor Alpha",
    "Legendary Creature \u2014 Human Survivor",
    "Partner\u2014Survivors (You can have two commanders if both have this ability.)",
    "{1}{B}",
)
SURVIVOR_B = make(
    "Test Survivor Beta",
    "Legendary Creature \u2014 Human Survivor",
    "Partner\u2014Survivors (You can have two commanders if both have this ability.)",
    "{1}{G}",
)
FATHER = make(
    "Test Father",
    "Legendary Creature \u2014 God",
    "Partner\u2014Father & son (You can have two commanders if both have this ability.)",
    "{3}{R}",
)


# --- commander eligibility -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "ok", "code"),
    [
        ("Kumano, Master Yamabushi", True, VerdictCode.LEGENDARY_CREATURE),
        ("Rowan Kenrith", True, VerdictCode.SAYS_IT_CAN),
        ("Grist, the Hunger Tide", True, VerdictCode.CREATURE_OFF_BATTLEFIELD),
        ("Sol Ring", False, VerdictCode.NEITHER),
        ("Blaring Captain", False, VerdictCode.CREATURE_NOT_LEGENDARY),
        ("Griselbrand", True, VerdictCode.LEGENDARY_CREATURE),
        ("Valki, God of Lies // Tibalt, Cosmic Impostor", True, VerdictCode.LEGENDARY_CREATURE),
    ],
)
def test_commander_eligibility_real_cards(name, ok, code):
    verdict = commander_eligibility(C(name))
    assert (verdict.ok, verdict.code, verdict.card) == (ok, code, name)
    assert verdict.banned is (name == "Griselbrand")  # eligible though banned: a fact of its own


def test_background_alone_is_not_a_commander_and_says_why():
    verdict = commander_eligibility(RAISED_BY_GIANTS)
    assert not verdict.ok and verdict.code is VerdictCode.BACKGROUND_ALONE


def test_tokens_and_planes_are_not_commanders():
    token = make("Marit Lage", "Token Legendary Creature \u2014 Avatar", "Flying", layout="token")
    verdict = commander_eligibility(token)
    assert not verdict.ok and (verdict.code, verdict.not_deck_card) == (
        VerdictCode.NOT_A_DECK_CARD,
        NonDeckKind.TOKEN,
    )
    plane = make("Bant", "Plane \u2014 Alara", layout="planar")
    assert commander_eligibility(plane).not_deck_card is NonDeckKind.PLANE


def test_eligibility_rejects_non_dicts():
    with pytest.raises(IdentityError):
        commander_eligibility("Kumano")  # type: ignore[arg-type]


# --- pairing ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (C("Tymna the Weaver"), C("Thrasios, Triton Hero")),
        (C("Pir, Imaginative Rascal"), C("Toothy, Imaginary Friend")),
        (C("Rowan Kenrith"), C("Will Kenrith")),
        (ELEVEN, MIKE),
        (SURVIVOR_A, SURVIVOR_B),
        (WILSON, RAISED_BY_GIANTS),
        (RAISED_BY_GIANTS, WILSON),
        (ROSE_TYLER, TENTH_DOCTOR),
        (TENTH_DOCTOR, ROSE_TYLER),
    ],
)
def test_valid_pairs(a, b):
    verdict = check_pairing(a, b)
    assert verdict.ok, verdict
    assert (verdict.code, verdict.card, verdict.other) == (VerdictCode.PAIRED, a["name"], b["name"])
    assert verdict.pairing is not None and len(verdict.traits) == 2


@pytest.mark.parametrize(
    ("a", "b", "code", "about", "decides"),
    [
        (
            C("Tymna the Weaver"),
            C("Kumano, Master Yamabushi"),
            VerdictCode.NO_SHARED_ABILITY,
            "Tymna the Weaver",
            "",
        ),
        (
            C("Pir, Imaginative Rascal"),
            C("Tymna the Weaver"),
            VerdictCode.PARTNER_WITH_OTHER,
            "Pir, Imaginative Rascal",
            "Toothy, Imaginary Friend",
        ),
        (
            C("Tymna the Weaver"),
            C("Toothy, Imaginary Friend"),
            VerdictCode.PARTNER_WITH_OTHER,
            "Toothy, Imaginary Friend",
            "Pir, Imaginative Rascal",
        ),
        (ELEVEN, C("Tymna the Weaver"), VerdictCode.VARIANT_ONLY, ELEVEN["name"], "Friends forever"),
        (SURVIVOR_A, FATHER, VerdictCode.VARIANT_ONLY, SURVIVOR_A["name"], "Survivors"),
        (SURVIVOR_A, C("Tymna the Weaver"), VerdictCode.VARIANT_ONLY, SURVIVOR_A["name"], "Survivors"),
        (
            RAISED_BY_GIANTS,
            C("Kumano, Master Yamabushi"),
            VerdictCode.NO_SHARED_ABILITY,
            "Raised by Giants",
            "",
        ),
        (ROSE_TYLER, C("Kumano, Master Yamabushi"), VerdictCode.NO_SHARED_ABILITY, ROSE_TYLER["name"], ""),
        (
            C("Blaring Captain"),
            C("Blaring Recruiter"),
            VerdictCode.PAIRED_BUT_INELIGIBLE,
            "Blaring Captain",
            "",
        ),
        (C("Tymna the Weaver"), C("Tymna the Weaver"), VerdictCode.SAME_CARD, "Tymna the Weaver", ""),
    ],
)
def test_invalid_pairs_say_why(a, b, code, about, decides):
    verdict = check_pairing(a, b)
    assert not verdict.ok
    assert (verdict.code, verdict.card) == (code, about), verdict
    if decides:
        assert verdict.trait is not None and verdict.trait.text == decides
    if code is VerdictCode.PAIRED_BUT_INELIGIBLE:
        assert verdict.pairing is PairingKind.PARTNER_WITH  # they pair, but neither is legendary
        assert verdict.cause is not None and verdict.cause.code is VerdictCode.CREATURE_NOT_LEGENDARY


# --- fit ---------------------------------------------------------------------------------------------


def test_dismember_does_not_fit_kumano_with_evidence():
    fit = check_fit(C("Dismember"), [C("Kumano, Master Yamabushi")])
    assert not fit.fits and fit.outside == "B" and fit.deck_identity == "R"
    (reason,) = fit.evidence["B"]
    assert reason.symbol == "{B/P}" and reason.kind is ReasonKind.MANA_COST
    assert fit.verdict is FitVerdict.DOES_NOT_FIT
    assert (fit.commander_problems, fit.banned_commanders, fit.blockers) == ((), (), ())


def test_fires_of_undeath_outside_kumano_because_of_flashback():
    fit = check_fit(C("Fires of Undeath"), [C("Kumano, Master Yamabushi")])
    assert fit.outside == "B"
    assert [(r.place, r.keyword) for r in fit.evidence["B"]] == [(TextPlace.KEYWORD_COST, "Flashback")]


def test_colorless_fits_everything_and_analysis_inputs_work():
    kumano = analyze(C("Kumano, Master Yamabushi"))
    for name in ("Sol Ring", "Wastes"):
        fit = check_fit(analyze(C(name)), [kumano])
        assert fit.fits and fit.outside == "" and fit.evidence == {}
        assert fit.verdict is FitVerdict.FITS


def test_two_commanders_union():
    leaders = [C("Tymna the Weaver"), C("Thrasios, Triton Hero")]
    assert check_fit(C("Kitchen Finks"), leaders).fits
    fit = check_fit(C("General Tazri"), leaders)
    assert fit.deck_identity == "WUBG" and fit.outside == "R" and not fit.fits
    assert fit.commander_problems == ()


def test_problems_with_bad_commanders():
    fit = check_fit(C("Sol Ring"), [C("Sol Ring")])
    assert fit.fits and [v.code for v in fit.commander_problems] == [VerdictCode.NEITHER]
    fit = check_fit(C("Sol Ring"), [C("Tymna the Weaver"), C("Kumano, Master Yamabushi")])
    assert [v.code for v in fit.commander_problems] == [VerdictCode.NO_SHARED_ABILITY]
    fit = check_fit(C("Sol Ring"), [RAISED_BY_GIANTS])
    assert [v.code for v in fit.commander_problems] == [VerdictCode.BACKGROUND_ALONE]
    assert check_fit(C("Kitchen Finks"), [WILSON, RAISED_BY_GIANTS]).commander_problems == ()


def test_background_pair_is_judged_by_pairing_only():
    """A Background in a valid Choose-a-Background pair gets no warning (audit defect 1), in either order."""
    for leaders in ([WILSON, RAISED_BY_GIANTS], [RAISED_BY_GIANTS, WILSON]):
        fit = check_fit(C("Llanowar Elves"), leaders)
        assert fit.fits and fit.deck_identity == "G"
        assert fit.commander_problems == () and fit.verdict is FitVerdict.FITS
    fit = check_fit(C("Lightning Bolt"), [WILSON, RAISED_BY_GIANTS])
    assert not fit.fits and fit.outside == "R" and fit.commander_problems == ()
    # the same Background with a commander that can't choose one: exactly one problem (the pairing's)
    fit = check_fit(C("Llanowar Elves"), [RAISED_BY_GIANTS, C("Kumano, Master Yamabushi")])
    (only,) = fit.commander_problems
    assert only.code is VerdictCode.NO_SHARED_ABILITY and fit.verdict is FitVerdict.DECK_CANT_EXIST


def test_each_problem_once():
    """One problem each: an ineligible commander, an invalid pair (not also each card), a banned one."""
    fit = check_fit(C("Counterspell"), [C("Lightning Bolt")])
    assert [(v.code, v.card) for v in fit.commander_problems] == [(VerdictCode.NEITHER, "Lightning Bolt")]
    fit = check_fit(C("Lightning Bolt"), [C("Tymna the Weaver"), C("Kumano, Master Yamabushi")])
    assert len(fit.commander_problems) == 1
    fit = check_fit(C("Lightning Bolt"), [C("Kumano, Master Yamabushi"), C("Lightning Bolt")])
    assert len(fit.commander_problems) == 1


def test_banned_commander_is_warned_about():
    fit = check_fit(C("Dismember"), [C("Griselbrand")])
    assert fit.fits and fit.verdict is FitVerdict.DECK_CANT_EXIST
    assert fit.banned_commanders == ("Griselbrand",) and fit.commander_problems == ()
    legal = C("Griselbrand")
    legal["legalities"] = {"commander": "legal"}
    assert check_fit(C("Dismember"), [legal]).banned_commanders == ()
    # in a pair too (both Partner; one of them marked banned)
    tymna = C("Tymna the Weaver")
    tymna["legalities"] = {"commander": "banned"}
    fit = check_fit(C("Sol Ring"), [tymna, C("Thrasios, Triton Hero")])
    assert fit.banned_commanders == ("Tymna the Weaver",)


def test_chosen_color_commander_warning():
    piper = make(
        "The Prismatic Piper",
        "Legendary Creature \u2014 Shapeshifter",
        "If The Prismatic Piper is your commander, choose a color before the game begins. "
        "The Prismatic Piper is the chosen color.",
        "{5}",
    )
    fit = check_fit(C("Lightning Bolt"), [piper])
    assert not fit.fits and fit.outside == "R"
    assert fit.open_choices == (0,) and fit.verdict is FitVerdict.FITS_IF_CHOSEN
    assert check_fit(C("Lightning Bolt"), [piper], ["R"]).open_choices == ()


@pytest.mark.parametrize("commanders", [[], [1, 2, 3], "Kumano"])
def test_fit_needs_one_or_two_commanders(commanders):
    with pytest.raises(IdentityError):
        check_fit(C("Sol Ring"), commanders)


# --- property tests ----------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402

from tests.identity.test_identity_engine import _card  # noqa: E402


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_card, _card)
def test_fit_eligibility_pairing_never_raise_on_card_shaped_dicts(a, b):
    for verdict in (commander_eligibility(a), check_pairing(a, b)):
        assert isinstance(verdict.ok, bool) and isinstance(verdict.code, VerdictCode)
    fit = check_fit(a, [a, b])
    assert fit.fits == (fit.outside == "")
    assert set(fit.outside) <= set(fit.card.identity)
    assert (fit.verdict is FitVerdict.DECK_CANT_EXIST) == bool(fit.blockers)


def test_commander_candidates_include_backgrounds_and_grist_but_not_plain_cards():
    import json
    from pathlib import Path

    from bot.identity import is_commander_candidate

    backgrounds = {
        c["name"]: c
        for c in json.loads(
            (Path(__file__).parents[1] / "data" / "backgrounds.json").read_text(encoding="utf-8")
        )
    }
    assert is_commander_candidate(backgrounds["Raised by Giants"])  # leads beside Choose a Background
    assert not commander_eligibility(backgrounds["Raised by Giants"]).ok  # but not alone
    assert is_commander_candidate(card("Grist, the Hunger Tide"))  # a creature while not on the battlefield
    assert is_commander_candidate(card("Kumano, Master Yamabushi"))
    assert not is_commander_candidate(card("Kumano's Pupils"))
    assert not is_commander_candidate(card("Sol Ring"))
