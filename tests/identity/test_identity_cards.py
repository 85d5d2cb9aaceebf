"""Engine rules for 2022-2026 cards, on the real card objects of `tests/data/cards/`:

- commander eligibility (CR 903.3 as amended with Edge of Eternities: legendary Vehicles and Spacecraft with
  a power/toughness box) and `is_commander_candidate`;
- partner abilities (CR 702.124): `pairing_traits`, `PairingTraits.encode/decode`, `can_pair`, and
  `check_pairing` agreeing with `can_pair` over real commanders;
- adventurer and omen cards (CR 715.4, 720), "doesn't affect its color identity" (CR 101.1);
- objects that are not deck cards (`Analysis.not_deck_card`), emblems and "Card" inserts with no identity;
- chosen colors (CR 903.4b) and the fit verdicts of `check_fit`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from bot.identity import (
    ColorChoice,
    IdentityError,
    NonDeckKind,
    PairingKind,
    PairingTrait,
    PairingTraits,
    Verdict,
    VerdictCode,
    analyze,
    can_pair,
    check_fit,
    check_pairing,
    commander_eligibility,
    is_commander_candidate,
    pairing_traits,
)
from bot.identity.commander import has_power_toughness_box
from bot.identity.engine import with_chosen_color
from bot.identity.model import Aspect, DeckBlocker, FitVerdict, ReasonKind
from bot.present.words import verdict_sentence
from tests.shared_data import all_analyses, all_cards, without_answers
from tests.shared_data import card as shared_card

CARDS_DIR = Path(__file__).parents[1] / "data" / "cards"


def said(verdict: Verdict) -> str:
    """What the bot says of a verdict (the engine gives codes and data; the presentation words them)."""
    return verdict_sentence(verdict)


@lru_cache(maxsize=1)
def _recent() -> tuple[dict[str, Any], ...]:
    out: list[dict[str, Any]] = []
    for path in sorted(CARDS_DIR.glob("*.json")):
        out.extend(json.loads(path.read_text(encoding="utf-8")))
    return tuple(out)


def recent_cards() -> tuple[dict[str, Any], ...]:
    """Every card object of tests/data/cards/ (deep copies, so tests may change them)."""
    return tuple(json.loads(json.dumps(c)) for c in _recent())


def R(name: str) -> dict[str, Any]:
    """A card object of tests/data/cards/ with Scryfall's colors/color_identity answers removed."""
    for c in _recent():
        if c["name"] == name:
            return without_answers(c)
    raise KeyError(name)


def S(name: str) -> dict[str, Any]:
    """A card of the shared data set with Scryfall's answers removed."""
    return without_answers(shared_card(name))


def test_card_files_are_well_formed():
    names = [c["name"] for c in _recent()]
    assert len(names) == len(set(names)) >= 50
    recent = [c for c in _recent() if c.get("released_at", "") >= "2022"]
    assert len(recent) >= 40
    for c in _recent():
        assert c["object"] == "card" and c["layout"] and c["type_line"]
        assert "commander" in c["legalities"]


# --- CR 903.3: who can be a commander ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("Inspirit, Flagship Vessel", "legendary Spacecraft with a power/toughness box"),
        ("Hearthhull, the Worldseed", "legendary Spacecraft with a power/toughness box"),
        ("Esika's Chariot", "legendary Vehicle"),
        ("Shorikai, Genesis Engine", "text says it can be your commander"),
        ("Commodore Guff", "text says it can be your commander"),
        ("Amy Pond", "legendary creature"),
        ("Faceless One", "legendary creature"),
    ],
)
def test_recent_commanders_are_eligible(name, phrase):
    verdict = commander_eligibility(R(name))
    assert verdict.ok and phrase in said(verdict), said(verdict)
    assert is_commander_candidate(R(name))


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("The Eternity Elevator", "without a power/toughness box"),
        ("Uthros Research Craft", "not a legendary creature"),
        ("Folk Hero", "Background"),
        ("Brisela, Voice of Nightmares", "meld result"),
        ("Koth, Fire of Resistance Emblem", "emblem"),
        ("The Monarch", "checklist, substitute or helper card"),
    ],
)
def test_not_commanders(name, phrase):
    verdict = commander_eligibility(R(name))
    assert not verdict.ok and phrase in said(verdict), said(verdict)


def test_spacecraft_box_read_from_fields_or_from_the_printed_station_rules():
    inspirit = R("Inspirit, Flagship Vessel")
    assert has_power_toughness_box(inspirit)
    # Without Scryfall's power/toughness fields, the Station reminder ("It's an artifact creature at 8+.")
    # still says the card has a box; The Eternity Elevator's reminder doesn't.
    del inspirit["power"], inspirit["toughness"]
    assert has_power_toughness_box(inspirit) and commander_eligibility(inspirit).ok
    elevator = R("The Eternity Elevator")
    assert not has_power_toughness_box(elevator)
    elevator["power"], elevator["toughness"] = "5", "5"
    assert commander_eligibility(elevator).ok
    # a non-legendary Vehicle or Spacecraft is never a commander, box or not
    craft = R("Uthros Research Craft")
    assert not commander_eligibility(craft).ok and not is_commander_candidate(craft)


def test_commander_candidates_follow_eligibility_and_backgrounds():
    for c in _recent():
        card = without_answers(c)
        eligible = commander_eligibility(card).ok
        background = PairingTrait(PairingKind.BACKGROUND) in pairing_traits(card).traits
        assert is_commander_candidate(card) == (eligible or (background and analyze(card).deck_card)), c[
            "name"
        ]
    assert is_commander_candidate(R("Folk Hero")) and not commander_eligibility(R("Folk Hero")).ok
    assert not is_commander_candidate(R("Brisela, Voice of Nightmares"))


# --- CR 702.124: partner abilities ----------------------------------------------------------------------


def _kinds(traits: PairingTraits) -> set[PairingKind]:
    return {t.kind for t in traits.traits}


def test_pairing_traits_read_every_partner_ability():
    amy = pairing_traits(R("Amy Pond"))
    assert amy.traits == {
        PairingTrait(PairingKind.PARTNER_WITH, "Rory Williams"),
        PairingTrait(PairingKind.DOCTORS_COMPANION),
    }
    assert amy.names == {"Amy Pond"}
    assert pairing_traits(R("The Tenth Doctor")).traits == {PairingTrait(PairingKind.TIME_LORD_DOCTOR)}
    assert pairing_traits(R("Kratos, Stoic Father")).traits == {
        PairingTrait(PairingKind.PARTNER_TEXT, "Father & son")
    }
    assert pairing_traits(R("Leonardo, the Balance")).traits == {
        PairingTrait(PairingKind.PARTNER_TEXT, "Character select")
    }
    assert _kinds(pairing_traits(R("Faceless One"))) == {
        PairingKind.CHOOSE_BACKGROUND,
        PairingKind.BACKGROUND,
    }
    assert _kinds(pairing_traits(R("The Prismatic Piper"))) == {PairingKind.PARTNER}
    assert _kinds(pairing_traits(R("Folk Hero"))) == {PairingKind.BACKGROUND}
    assert not pairing_traits(R("Kilo, Apogee Mind"))
    assert pairing_traits(R("Kilo, Apogee Mind")).encode() == ""


def test_old_friends_forever_text_is_partner_friends_forever():
    old = {
        "name": "Old",
        "type_line": "Legendary Creature \u2014 Human",
        "oracle_text": "Friends forever (You can have two commanders if both have friends forever.)",
    }
    new = {
        "name": "New",
        "type_line": "Legendary Creature \u2014 Human",
        "oracle_text": "Partner\u2014Friends forever (You can have two commanders if both have this ability.)",
    }
    assert pairing_traits(old) == pairing_traits(new)
    assert can_pair(pairing_traits(old), pairing_traits(new))


def test_time_lord_doctor_needs_no_other_creature_types():
    doctor = R("The Tenth Doctor")
    doctor["type_line"] = "Legendary Creature \u2014 Time Lord Doctor Human"
    assert PairingKind.TIME_LORD_DOCTOR not in _kinds(pairing_traits(doctor))
    assert not check_pairing(R("Rose Tyler"), doctor).ok


@pytest.mark.parametrize(
    ("a", "b", "phrase"),
    [
        ("Amy Pond", "Rory Williams", "each have \u201cPartner with\u201d naming the other"),
        (
            "Amy Pond",
            "The Tenth Doctor",
            "Doctor\u2019s companion and The Tenth Doctor is a Time Lord Doctor",
        ),
        ("The Fourth Doctor", "Clara Oswald", "Clara Oswald has Doctor\u2019s companion"),
        ("Kratos, Stoic Father", "Atreus, Impulsive Son", "both have Partner\u2014Father & son"),
        ("Durnan of the Yawning Portal", "Folk Hero", "Folk Hero is a Background"),
        ("Haunted One", "Burakos, Party Leader", "Haunted One is a Background"),
        ("Faceless One", "Folk Hero", "Faceless One has \u201cChoose a Background\u201d"),
        ("Durnan of the Yawning Portal", "Faceless One", "Faceless One is a Background"),
    ],
)
def test_recent_valid_pairs(a, b, phrase):
    verdict = check_pairing(R(a), R(b))
    assert verdict.ok and phrase in said(verdict), said(verdict)
    assert can_pair(pairing_traits(R(a)), pairing_traits(R(b)))
    assert can_pair(pairing_traits(R(b)), pairing_traits(R(a)))


@pytest.mark.parametrize(
    ("a", "b", "phrase"),
    [
        ("Amy Pond", "Sarah Jane Smith", "can\u2019t be commanders together"),
        ("Rory Williams", "The Tenth Doctor", "only be paired with Amy Pond"),
        ("Kratos, Stoic Father", "Leonardo, the Balance", "Partner\u2014Father & son"),
        ("Leonardo, the Balance", "The Prismatic Piper", "Partner\u2014Character select"),
        ("Folk Hero", "Haunted One", "is a Background"),
        ("Clara Oswald", "Rose Tyler", "Doctor\u2019s companion"),
        ("Inspirit, Flagship Vessel", "Hearthhull, the Worldseed", "no ability that lets it share"),
    ],
)
def test_recent_invalid_pairs(a, b, phrase):
    verdict = check_pairing(R(a), R(b))
    assert not verdict.ok and phrase in said(verdict), said(verdict)
    assert not can_pair(pairing_traits(R(a)), pairing_traits(R(b)))


def test_partner_and_partner_with_do_not_combine():
    """CR 702.124f: plain Partner (The Prismatic Piper) and Partner with (Rory Williams) never pair."""
    assert not can_pair(pairing_traits(R("The Prismatic Piper")), pairing_traits(R("Rory Williams")))
    assert can_pair(pairing_traits(R("The Prismatic Piper")), pairing_traits(S("Tymna the Weaver")))


def test_reversible_printing_of_one_card_answers_to_its_name():
    """A Secret Lair reversible card is named "X // X" by Scryfall; "Partner with X" still names it."""

    def reversible(name: str) -> dict[str, Any]:
        base = S(name)
        face = {k: base[k] for k in ("name", "mana_cost", "type_line", "oracle_text") if k in base}
        return {
            "object": "card",
            "name": f"{name} // {name}",
            "layout": "reversible_card",
            "legalities": base["legalities"],
            "card_faces": [dict(face), dict(face)],
        }

    zndrsplt, okaun = reversible("Zndrsplt, Eye of Wisdom"), reversible("Okaun, Eye of Chaos")
    assert check_pairing(zndrsplt, okaun).ok
    assert check_pairing(zndrsplt, S("Okaun, Eye of Chaos")).ok
    assert not check_pairing(zndrsplt, S("Zndrsplt, Eye of Wisdom")).ok  # the same card twice
    assert check_pairing(zndrsplt, S("Zndrsplt, Eye of Wisdom")).code is VerdictCode.SAME_CARD


def _all_traits() -> list[PairingTraits]:
    return [pairing_traits(c) for c in (*all_cards(), *_recent())]


def test_traits_encode_decode_round_trip_and_hash():
    seen: set[PairingTraits] = set()
    for traits in _all_traits():
        text = traits.encode()
        assert isinstance(text, str) and (text == "") == (not traits)
        assert PairingTraits.decode(text) == traits
        assert hash(PairingTraits.decode(text)) == hash(traits)
        seen.add(traits)
    assert len(seen) > 20
    amy = pairing_traits(R("Amy Pond"))
    assert amy.encode() == "D;W:Rory Williams;N:Amy Pond"
    odd = PairingTraits(frozenset({PairingTrait(PairingKind.PARTNER_WITH, "A;B:C%D")}), frozenset({"X // Y"}))
    assert PairingTraits.decode(odd.encode()) == odd
    with pytest.raises(AttributeError):
        amy.traits = frozenset()  # type: ignore[misc]


@pytest.mark.parametrize("bad", ["Q", "W", "P:x", "N", ";", "W:"])
def test_decode_rejects_what_encode_never_writes(bad):
    with pytest.raises(IdentityError):
        PairingTraits.decode(bad)


def _commanders() -> list[dict[str, Any]]:
    """Real commanders: every eligible card of the shared data set and of tests/data/cards that has a
    pairing trait, plus every 10th other eligible legendary creature."""
    out: list[dict[str, Any]] = []
    others = 0
    for c in (*all_cards(), *_recent()):
        if not commander_eligibility(c).ok:
            continue
        if pairing_traits(c):
            out.append(c)
        else:
            others += 1
            if others % 10 == 0:
                out.append(c)
    return out


@pytest.mark.slow
def test_check_pairing_agrees_with_can_pair_on_real_commanders():
    commanders = _commanders()
    traits = [pairing_traits(c) for c in commanders]
    assert sum(1 for t in traits if t) > 60
    decoded = [PairingTraits.decode(t.encode()) for t in traits]  # each summary through its wire form
    pairs = agree_ok = 0
    for i, j in combinations(range(len(commanders)), 2):
        a, b = commanders[i], commanders[j]
        if a["name"] == b["name"]:
            continue
        verdict = check_pairing(a, b)
        assert verdict.ok == can_pair(traits[i], traits[j]), (a["name"], b["name"], verdict)
        assert verdict.ok == can_pair(decoded[j], traits[i])
        pairs += 1
        agree_ok += verdict.ok
    print(f"\n[pairing] {len(commanders)} commanders, {pairs} pairs, {agree_ok} valid")
    assert pairs > 10_000 and agree_ok > 100


# --- CR 715.4 / 720: adventurer and omen cards; CR 101.1: the card's own text ----------------------------


@pytest.mark.parametrize(
    ("name", "colors", "identity"),
    [
        ("Spellscorn Coven // Take It Back", "B", "UB"),
        ("Hildibrand Manderville // Gentleman's Rise", "W", "WB"),
        ("Whirlwing Stormbrood // Dynamic Soar", "U", "UG"),
    ],
)
def test_adventurer_and_omen_colors_are_the_main_part(name, colors, identity):
    card = R(name)
    a = analyze(card)
    assert (a.colors, a.identity) == (colors, identity)
    spell = card["card_faces"][1]["name"]
    assert not [r for r in a.color_reasons if r.face == spell]
    assert [r for r in a.identity_reasons if r.face == spell and r.kind is ReasonKind.MANA_COST]
    # the rule follows the Adventure/Omen part, whatever layout name a source gives the card
    for layout in ("omen", "prepare", "normal", ""):
        card["layout"] = layout
        assert (analyze(card).colors, analyze(card).identity) == (colors, identity), layout


def test_split_and_room_cards_still_take_every_half():
    assert analyze(S("Fire // Ice")).colors == "UR"
    assert analyze(R("Bottomless Pool // Locker Room")).colors == "U"


def test_fallaji_wayfarer_is_all_colors_but_green_identity():
    a = analyze(R("Fallaji Wayfarer"))
    assert (a.colors, a.identity) == ("WUBRG", "G")
    assert {r.kind for r in a.color_reasons if r.color == "W"} == {ReasonKind.CDA}
    assert [r.kind for r in a.reasons_for("G")] == [ReasonKind.MANA_COST]
    # Transguild Courier's "is all colors" has no such sentence: all five in its identity too
    assert analyze(S("Transguild Courier")).identity == "WUBRG"


def test_doesnt_affect_identity_is_read_in_general():
    courier = S("Transguild Courier")
    courier["oracle_text"] = courier["oracle_text"].replace(
        "Transguild Courier is all colors.",
        "Transguild Courier is all colors. This ability doesn\u2019t affect its color identity.",
    )
    a = analyze(courier)
    assert a.colors == "WUBRG" and a.identity == ""
    # the same ability in current "this <type>" templating
    courier["oracle_text"] = courier["oracle_text"].replace("Transguild Courier is", "This creature is")
    assert analyze(courier).colors == "WUBRG"


# --- objects that are not cards of a deck -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Brisela, Voice of Nightmares", NonDeckKind.MELD_RESULT),
        ("Koth, Fire of Resistance Emblem", NonDeckKind.EMBLEM),
        ("Ob Nixilis of the Black Oath Emblem", NonDeckKind.EMBLEM),
        ("The Monarch", NonDeckKind.CHECKLIST),
    ],
)
def test_non_deck_objects_are_flagged(name, kind):
    a = analyze(R(name))
    assert a.not_deck_card is kind and not a.deck_card


def test_shared_data_non_deck_kinds():
    expected_kind = {
        "token": NonDeckKind.TOKEN,
        "double_faced_token": NonDeckKind.TOKEN,
        "emblem": NonDeckKind.EMBLEM,
        "vanguard": NonDeckKind.VANGUARD,
        "planar": NonDeckKind.PLANE,
        "scheme": NonDeckKind.SCHEME,
    }
    counts: dict[NonDeckKind | None, int] = {}
    for c, analysis in zip(all_cards(), all_analyses(), strict=True):
        kind = analysis.not_deck_card
        counts[kind] = counts.get(kind, 0) + 1
        if (c.get("type_line") or "") == "Card":
            assert kind is NonDeckKind.CHECKLIST, c["name"]
        elif c["layout"] in expected_kind:
            assert kind is expected_kind[c["layout"]], c["name"]
        elif c["layout"] == "meld":
            assert (kind is NonDeckKind.MELD_RESULT) == (
                not c.get("mana_cost") and c["type_line"] != "Land"
            ), c["name"]
        else:
            assert kind is None, c["name"]
    assert counts[NonDeckKind.MELD_RESULT] == 3 and counts[None] > 23_000


def test_meld_result_without_all_parts_still_recognized_and_meld_land_is_a_card():
    brisela = R("Brisela, Voice of Nightmares")
    del brisela["all_parts"]
    assert analyze(brisela).not_deck_card is NonDeckKind.MELD_RESULT
    battlements = S("Hanweir Battlements")  # a meld part with no mana cost: a land you do put in a deck
    battlements.pop("all_parts", None)
    assert analyze(battlements).deck_card


def test_emblems_and_inserts_get_no_identity_from_their_text():
    a = analyze(R("Ob Nixilis of the Black Oath Emblem"))
    assert "{1}{B}" in R("Ob Nixilis of the Black Oath Emblem")["oracle_text"]
    assert (a.colors, a.identity, a.reasons) == ("", "", ())
    monarch = R("The Monarch")
    monarch["oracle_text"] += "\n{B}: Draw a card."  # even printed symbols on an insert are no card's text
    assert analyze(monarch).identity == ""


def test_ordinary_cards_are_deck_cards():
    for name in (
        "Inspirit, Flagship Vessel",
        "Spellscorn Coven // Take It Back",
        "Fell the Profane // Fell Mire",
        "Dryad Arbor",
        "Invasion of Zendikar // Awakened Skyclave",
    ):
        assert analyze(R(name)).deck_card, name


# --- CR 903.4b chosen colors and fit verdicts ----------------------------------------------------------


def test_piper_fits_if_chosen_and_fits_once_chosen():
    piper = R("The Prismatic Piper")
    bolt = S("Lightning Bolt")
    fit = check_fit(bolt, [piper])
    assert fit.verdict is FitVerdict.FITS_IF_CHOSEN and not fit.fits and fit.outside == "R"
    assert fit.choice_options == ((ColorChoice("The Prismatic Piper", 0, "R"),),)
    assert fit.open_choices == (0,)

    fit = check_fit(bolt, [piper], chosen=["r"])
    assert fit.verdict is FitVerdict.FITS and fit.fits and fit.deck_identity == "R" and fit.chosen == ("R",)
    assert fit.open_choices == ()
    (chosen,) = fit.commanders[0].reasons_for("R", Aspect.IDENTITY)
    assert chosen.kind is ReasonKind.CHOSEN_COLOR and fit.commanders[0].colors == "R"

    fit = check_fit(bolt, [piper], chosen=["G"])
    assert fit.verdict is FitVerdict.DOES_NOT_FIT and fit.outside == "R" and fit.choice_options == ()
    assert check_fit(S("Kitchen Finks"), [piper]).verdict is FitVerdict.DOES_NOT_FIT  # one choice, two colors


def test_clara_with_a_doctor_chooses_the_missing_color():
    leaders = [R("Clara Oswald"), R("The Tenth Doctor")]
    fit = check_fit(S("Llanowar Elves"), leaders)
    assert fit.verdict is FitVerdict.FITS_IF_CHOSEN and fit.deck_identity == "UR"
    assert fit.choice_options == ((ColorChoice("Clara Oswald", 0, "G"),),)
    assert check_fit(S("Llanowar Elves"), leaders, chosen=["G", None]).verdict is FitVerdict.FITS
    assert check_fit(S("Counterspell"), leaders).verdict is FitVerdict.FITS
    assert check_fit(S("Putrefy"), leaders).verdict is FitVerdict.DOES_NOT_FIT  # black and green: one choice
    with pytest.raises(IdentityError):
        check_fit(S("Llanowar Elves"), leaders, chosen=[None, "G"])  # The Tenth Doctor chooses nothing


def test_two_choosing_commanders_each_choose():
    leaders = [analyze(R("The Prismatic Piper")), analyze(R("Faceless One"))]
    fit = check_fit(S("Kitchen Finks"), leaders)
    assert fit.verdict is FitVerdict.FITS_IF_CHOSEN and fit.outside == "WG"
    assert set(fit.choice_options) == {
        (ColorChoice("The Prismatic Piper", 0, "W"), ColorChoice("Faceless One", 1, "G")),
        (ColorChoice("The Prismatic Piper", 0, "G"), ColorChoice("Faceless One", 1, "W")),
    }
    one = check_fit(S("Llanowar Elves"), leaders)
    assert len(one.choice_options) == 2 and all(len(option) == 1 for option in one.choice_options)
    fit = check_fit(S("Kitchen Finks"), leaders, chosen=["G", "W"])
    assert fit.verdict is FitVerdict.FITS and fit.deck_identity == "WG"
    half = check_fit(S("Kitchen Finks"), leaders, chosen=["G", None])
    assert half.verdict is FitVerdict.FITS_IF_CHOSEN and half.choice_options == (
        (ColorChoice("Faceless One", 1, "W"),),
    )
    assert check_fit(S("Esper Charm"), leaders).verdict is FitVerdict.DOES_NOT_FIT


@pytest.mark.parametrize("chosen", [["R", "G"], "R", ["X"], [3]])
def test_chosen_must_be_one_color_per_commander(chosen):
    with pytest.raises(IdentityError):
        check_fit(S("Lightning Bolt"), [R("The Prismatic Piper")], chosen=chosen)


def test_with_chosen_color_rejects_non_choosers_and_non_colors():
    with pytest.raises(IdentityError):
        with_chosen_color(analyze(R("Amy Pond")), "G")
    with pytest.raises(IdentityError):
        with_chosen_color(analyze(R("Clara Oswald")), "C")


@pytest.mark.parametrize(
    ("card", "commanders", "blockers"),
    [
        ("Sol Ring", ["The Eternity Elevator"], (DeckBlocker.COMMANDER_INELIGIBLE,)),
        ("Sol Ring", ["Folk Hero", "Haunted One"], (DeckBlocker.PAIR_INVALID,)),
        ("Sol Ring", ["Amy Pond", "Sarah Jane Smith"], (DeckBlocker.PAIR_INVALID,)),
        ("Sol Ring", ["Griselbrand"], (DeckBlocker.COMMANDER_BANNED,)),
        ("Black Lotus", ["Esika's Chariot"], (DeckBlocker.CARD_BANNED,)),
        ("Koth, Fire of Resistance Emblem", ["Inspirit, Flagship Vessel"], (DeckBlocker.NOT_A_DECK_CARD,)),
        (
            "Brisela, Voice of Nightmares",
            ["Folk Hero"],
            (DeckBlocker.COMMANDER_INELIGIBLE, DeckBlocker.NOT_A_DECK_CARD),
        ),
        ("Sol Ring", ["Blaring Captain", "Blaring Recruiter"], (DeckBlocker.COMMANDER_INELIGIBLE,)),
    ],
)
def test_deck_cant_exist(card, commanders, blockers):
    def get(name: str) -> dict[str, Any]:
        try:
            return R(name)
        except KeyError:
            return S(name)

    fit = check_fit(get(card), [get(c) for c in commanders])
    assert fit.verdict is FitVerdict.DECK_CANT_EXIST and fit.blockers == blockers


def test_fitting_verdicts_on_recent_commanders():
    fit = check_fit(R("Fell the Profane // Fell Mire"), [R("Hearthhull, the Worldseed")])
    assert fit.verdict is FitVerdict.FITS and fit.fits and fit.blockers == ()
    fit = check_fit(R("Spellscorn Coven // Take It Back"), [R("Hearthhull, the Worldseed")])
    assert fit.verdict is FitVerdict.DOES_NOT_FIT and fit.outside == "U"
    assert {r.face for r in fit.evidence["U"]} == {"Take It Back"}
    fit = check_fit(R("Fallaji Wayfarer"), [R("Esika's Chariot")])
    assert fit.verdict is FitVerdict.FITS  # all colors, green identity
    assert check_fit(S("Sol Ring"), [R("Amy Pond"), R("The Tenth Doctor")]).verdict is FitVerdict.FITS
