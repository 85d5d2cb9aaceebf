"""`analyze`: colors (CR 202.2, 204, 604.3) and color identity (CR 903.4) with evidence.

Covers every worked example of DOMAIN.md, the cards named in the issue's acceptance list, each rule
(reminder text 903.4c, back faces 903.4d, basic land types 903.5d, CDAs 604.3, 903.4b color choice), and
property tests that `analyze` never raises on card-shaped dicts.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.identity import IdentityError, analyze
from bot.identity.model import Aspect, CdaKind, FaceRole, Note, ReasonKind, TextPlace
from bot.identity.symbols import SymbolKind
from tests.shared_data import all_cards, card, without_answers


def A(name: str):
    """Analysis of a real card from the shared data set, with Scryfall's answers removed."""
    return analyze(without_answers(card(name)))


def kinds(analysis, color, aspect=Aspect.IDENTITY) -> set[ReasonKind]:
    return {r.kind for r in analysis.reasons_for(color, aspect)}


# --- DOMAIN.md worked examples -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "colors", "identity"),
    [
        ("Fires of Undeath", "R", "BR"),
        ("Kumano, Master Yamabushi", "R", "R"),
        ("Dismember", "B", "B"),
        ("Kitchen Finks", "WG", "WG"),
        ("General Tazri", "W", "WUBRG"),
        ("Bosh, Iron Golem", "", "R"),
        ("Civilized Scholar // Homicidal Brute", "U", "UR"),
        ("Mad Ratter", "R", "R"),
    ],
)
def test_domain_worked_examples(name, colors, identity):
    a = A(name)
    assert (a.colors, a.identity) == (colors, identity)


def test_fires_of_undeath_black_comes_from_flashback_cost():
    a = A("Fires of Undeath")
    (black,) = a.reasons_for("B")
    assert black.kind is ReasonKind.RULES_TEXT and black.symbol == "{B}"
    assert black.text.startswith("Flashback {5}{B}")
    assert (black.place, black.keyword) == (TextPlace.KEYWORD_COST, "Flashback")
    assert black.text == "Flashback {5}{B}"  # the line without its reminder text (CR 903.4c)
    assert a.reasons_for("B", Aspect.COLOR) == ()
    assert kinds(a, "R", Aspect.COLOR) == {ReasonKind.MANA_COST}


def test_dismember_phyrexian_mana_is_black():
    a = A("Dismember")
    reasons = a.reasons_for("B", Aspect.COLOR)
    assert [(r.symbol, r.symbol_kind, r.text) for r in reasons] == [
        ("{B/P}", SymbolKind.PHYREXIAN, "{1}{B/P}{B/P}")
    ]


def test_kitchen_finks_hybrid_counts_as_both():
    a = A("Kitchen Finks")
    for color in "WG":
        (r,) = a.reasons_for(color, Aspect.COLOR)
        assert r.symbol == "{G/W}" and r.symbol_kind is SymbolKind.HYBRID


def test_general_tazri_activation_cost_gives_all_five():
    a = A("General Tazri")
    for color in "UBRG":
        assert {r.place for r in a.reasons_for(color)} == {TextPlace.ACTIVATED_COST}
        assert all(r.text.startswith("{W}{U}{B}{R}{G}:") for r in a.reasons_for(color))


def test_bosh_activated_ability():
    a = A("Bosh, Iron Golem")
    (r,) = a.reasons_for("R")
    assert r.kind is ReasonKind.RULES_TEXT and r.place is TextPlace.ACTIVATED_COST


def test_mad_ratter_color_words_do_not_count():
    a = A("Mad Ratter")
    assert a.identity == "R"
    assert all(r.color == "R" for r in a.reasons)
    assert a.color_words == "B"  # "black Rat creature tokens": a fact for the explanation, not identity


def test_color_words_leave_out_the_card_s_own_name():
    c = {
        "name": "Black Lotus",
        "layout": "normal",
        "mana_cost": "{0}",
        "type_line": "Artifact",
        "oracle_text": "{T}, Sacrifice Black Lotus: Add three mana of any one color.",
    }
    assert analyze(c).color_words == ""
    knight = {
        "name": "Test Knight",
        "mana_cost": "{W}{W}",
        "type_line": "Creature \u2014 Knight",
        "oracle_text": "Protection from black and from nonred creatures (reminder: green)",
    }
    assert analyze(knight).color_words == "BR"  # reminder text is not read for words either


# --- acceptance list ------------------------------------------------------------------------------


def test_syndic_of_tithes_extort_reminder_is_ignored():
    c = card("Syndic of Tithes")
    assert "{W/B}" in c["oracle_text"]  # only inside extort's reminder text
    a = analyze(without_answers(c))
    assert (a.colors, a.identity) == ("W", "W")


def test_trinisphere_reminder_has_no_identity():
    a = A("Trinisphere")
    assert (a.colors, a.identity, a.reasons) == ("", "", ())


def test_civilized_scholar_back_face_indicator():
    a = A("Civilized Scholar // Homicidal Brute")
    (red,) = a.reasons_for("R")
    assert red.kind is ReasonKind.COLOR_INDICATOR and red.face == "Homicidal Brute"
    assert a.reasons_for("R", Aspect.COLOR) == ()  # the card's colors are its front face's
    assert [(f.name, f.colors) for f in a.faces] == [("Civilized Scholar", "U"), ("Homicidal Brute", "R")]
    assert [f.role for f in a.faces] == [FaceRole.FRONT, FaceRole.BACK]


def test_fire_ice_split_card_is_both_halves():
    a = A("Fire // Ice")
    assert (a.colors, a.identity) == ("UR", "UR")
    assert {r.face for r in a.reasons_for("R")} == {"Fire"}
    assert {r.face for r in a.reasons_for("U")} == {"Ice"}


def test_fire_ice_from_top_level_split_cost_only():
    c = {
        "name": "Fire // Ice",
        "layout": "split",
        "mana_cost": "{1}{R} // {1}{U}",
        "type_line": "Instant // Instant",
    }
    a = analyze(c)
    assert (a.colors, a.identity) == ("UR", "UR")


def test_bonecrusher_giant_adventure():
    a = A("Bonecrusher Giant // Stomp")
    assert (a.colors, a.identity) == ("R", "R")
    assert {r.face for r in a.reasons_for("R")} == {"Bonecrusher Giant", "Stomp"}


def test_brazen_borrower_adventure_parts_both_count():
    a = A("Brazen Borrower // Petty Theft")
    assert (a.colors, a.identity) == ("U", "U")


def test_transguild_courier_is_all_colors():
    a = A("Transguild Courier")
    assert (a.colors, a.identity) == ("WUBRG", "WUBRG")
    for color in "WUBRG":
        assert kinds(a, color, Aspect.COLOR) == {ReasonKind.CDA}


def test_ghostfire_colorless_but_red_identity():
    a = A("Ghostfire")
    assert (a.colors, a.identity) == ("", "R")
    (removal,) = [r for r in a.reasons if r.removes]
    assert removal.aspect is Aspect.COLOR and removal.text == "Ghostfire is colorless."
    assert kinds(a, "R") == {ReasonKind.MANA_COST}


def test_devoid_changes_color_not_identity():
    a = A("Eldrazi Displacer")
    assert a.colors == "" and a.identity == "W"
    assert [r.cda for r in a.reasons if r.removes] == [CdaKind.DEVOID]
    assert Note.COLOR_NOT_IDENTITY in a.notes


def test_dryad_arbor_indicator_and_forest():
    a = A("Dryad Arbor")
    assert (a.colors, a.identity) == ("G", "G")
    assert kinds(a, "G") == {ReasonKind.COLOR_INDICATOR, ReasonKind.BASIC_LAND_TYPE}


def test_tropical_island_basic_land_types():
    a = A("Tropical Island")
    assert (a.colors, a.identity) == ("", "UG")
    assert [r.land for r in a.identity_reasons] == ["Forest", "Island"]
    assert all(r.kind is ReasonKind.BASIC_LAND_TYPE for r in a.identity_reasons)


@pytest.mark.parametrize(
    ("name", "identity"),
    [
        ("Forest", "G"),
        ("Plains", "W"),
        ("Island", "U"),
        ("Swamp", "B"),
        ("Mountain", "R"),
        ("Snow-Covered Forest", "G"),
        ("Savannah", "WG"),
        ("Murmuring Bosk", "WBG"),
        ("Wastes", ""),
    ],
)
def test_basic_land_types(name, identity):
    a = A(name)
    assert (a.colors, a.identity) == ("", identity)


def test_wastes_and_sol_ring_are_colorless():
    for name in ("Wastes", "Sol Ring"):
        a = A(name)
        assert (a.colors, a.identity, a.reasons) == ("", "", ())


def test_phyrexian_hybrid_real_card():
    a = A("Tamiyo, Compleated Sage")
    assert (a.colors, a.identity) == ("UG", "UG")
    assert any(r.symbol == "{G/U/P}" and r.symbol_kind is SymbolKind.PHYREXIAN_HYBRID for r in a.reasons)


def test_phyrexian_hybrid_and_half_mana_synthetic():
    c = {
        "name": "Test Compleated",
        "layout": "normal",
        "mana_cost": "{1}{W/B/P}",
        "type_line": "Creature \u2014 Phyrexian",
        "oracle_text": "Sacrifice a creature: Add {HR}.",
    }
    a = analyze(c)
    assert (a.colors, a.identity) == ("WB", "WBR")
    (half,) = a.reasons_for("R")
    assert half.symbol == "{HR}" and half.kind is ReasonKind.RULES_TEXT


def test_half_mana_real_cards():
    assert (A("Little Girl").colors, A("Little Girl").identity) == ("W", "W")
    a = A("Mons's Goblin Waiters")
    assert a.identity == "R" and {r.symbol for r in a.identity_reasons} == {"{R}", "{HR}"}


# --- other rules and layouts --------------------------------------------------------------------


def test_flip_card_both_parts():
    a = A("Akki Lavarunner // Tok-Tok, Volcano Born")
    assert (a.colors, a.identity) == ("R", "R")
    assert len(a.faces) == 2


def test_modal_dfc_both_faces_count_for_identity_front_for_colors():
    a = A("Valki, God of Lies // Tibalt, Cosmic Impostor")
    assert (a.colors, a.identity) == ("B", "BR")
    assert {r.face for r in a.reasons_for("R")} == {"Tibalt, Cosmic Impostor"}


def test_transform_back_face_text_symbols():
    a = A("Delver of Secrets // Insectile Aberration")
    assert (a.colors, a.identity) == ("U", "U")


def test_mana_in_quoted_ability_counts_and_reminder_inside_quotes_does_not():
    c = {
        "name": "Test Grove",
        "layout": "normal",
        "mana_cost": "{2}",
        "type_line": "Artifact",
        "oracle_text": 'Lands you control have "{T}: Add {G}. (This is a mana ability ({W}).)"\n'
        "Kicker {U} (You may pay an additional {B} as you cast this spell.)",
    }
    a = analyze(c)
    assert a.identity == "UG"
    (green,) = a.reasons_for("G")
    assert green.place is TextPlace.GRANTED_MANA_ABILITY
    (blue,) = a.reasons_for("U")
    assert (blue.place, blue.keyword) == (TextPlace.KEYWORD_COST, "Kicker")
    assert blue.text == "Kicker {U}"
    assert [s.raw for s in a.reminder_symbols] == ["{W}", "{B}"]  # ignored (CR 903.4c)


def test_unclosed_reminder_parenthesis_hides_rest_of_line_only():
    c = {
        "name": "T",
        "oracle_text": "Flying (this is {W} reminder\n{R}: T gets +1/+0.",
        "type_line": "Creature",
    }
    assert analyze(c).identity == "R"


def test_chooses_color_flagged():
    c = {
        "name": "The Prismatic Piper",
        "layout": "normal",
        "mana_cost": "{5}",
        "type_line": "Legendary Creature \u2014 Shapeshifter",
        "oracle_text": "Partner\nIf The Prismatic Piper is your commander, choose a color before the game "
        "begins. The Prismatic Piper is the chosen color.\nYou may play The Prismatic Piper from your hand.",
    }
    a = analyze(c)
    assert a.chooses_color and (a.colors, a.identity) == ("", "")
    assert Note.CHOOSES_COLOR in a.notes
    assert not A("Sol Ring").chooses_color


def test_tokens_take_colors_from_the_creating_effect():
    token = {
        "name": "Angel",
        "layout": "token",
        "type_line": "Token Creature \u2014 Angel",
        "oracle_text": "Flying",
        "mana_cost": "",
        "colors": ["W"],
    }
    a = analyze(token)
    assert (a.colors, a.identity) == ("W", "W")
    assert kinds(a, "W", Aspect.COLOR) == {ReasonKind.TOKEN_COLOR}
    bare = analyze({k: v for k, v in token.items() if k != "colors"})
    assert (bare.colors, bare.identity) == ("", "")
    assert bare.notes == (Note.TOKEN_COLORS_UNRECORDED,)
    colorless = analyze({**token, "colors": []})  # recorded as colorless: no "none recorded" note
    assert (colorless.colors, colorless.notes) == ("", ())


def test_never_reads_scryfall_answers():
    """Poisoned `colors`/`color_identity` change nothing (tokens excepted)."""

    class Guarded(dict):
        def __getitem__(self, key):
            assert key not in ("colors", "color_identity"), key
            return super().__getitem__(key)

        def get(self, key, default=None):
            assert key not in ("colors", "color_identity"), key
            return super().get(key, default)

    checked = 0
    for c in all_cards()[::7]:
        if c["layout"] in ("token", "double_faced_token", "emblem"):
            continue
        guarded = Guarded(c)
        if "card_faces" in c:
            dict.__setitem__(guarded, "card_faces", [Guarded(f) for f in c["card_faces"]])
        analyze(guarded)
        checked += 1
    assert checked > 3000


def test_reasons_are_facts():
    """Every reason says where it comes from as data: a symbol has its kind, a rules-text symbol its place, a
    land type its land, a CDA its ability; the line it sits in is given without reminder text."""
    for name in (
        "Fires of Undeath",
        "Ghostfire",
        "Tropical Island",
        "Transguild Courier",
        "Dryad Arbor",
        "Syndic of Tithes",
        "General Tazri",
    ):
        a = A(name)
        for r in a.reasons:
            if r.symbol:
                assert r.symbol_kind is not None
            if r.kind is ReasonKind.RULES_TEXT:
                assert r.place is not None and "(" not in (r.text or "")
            if r.kind is ReasonKind.BASIC_LAND_TYPE:
                assert r.land in ("Plains", "Island", "Swamp", "Mountain", "Forest")
            if r.kind is ReasonKind.CDA:
                assert r.cda is not None


def test_non_dict_raises_identity_error():
    for bad in (None, "Sol Ring", 3, ["x"], ("a",)):
        with pytest.raises(IdentityError):
            analyze(bad)  # type: ignore[arg-type]


# --- property tests ------------------------------------------------------------------------------

_odd = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.text(max_size=40),
    st.lists(st.text(max_size=3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
)
_text = st.one_of(st.text(max_size=80), st.text(alphabet='{}/()WUBRGCPHX12 \n"\u2014:.,', max_size=80))
_face = st.dictionaries(
    st.sampled_from(["name", "mana_cost", "type_line", "oracle_text", "color_indicator", "colors"]),
    st.one_of(_text, _odd),
    max_size=6,
)
_card = st.dictionaries(
    st.sampled_from(
        [
            "name",
            "layout",
            "mana_cost",
            "type_line",
            "oracle_text",
            "color_indicator",
            "colors",
            "color_identity",
            "card_faces",
            "legalities",
            "keywords",
        ]
    ),
    st.one_of(
        _text,
        _odd,
        st.lists(st.one_of(_face, _odd), max_size=3),
        st.sampled_from(["split", "transform", "token", "modal_dfc", "flip", "meld", "vanguard"]),
    ),
    max_size=11,
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_card)
@example({"colors": "B", "layout": "token", "type_line": "", "card_faces": [""]})  # token color, odd faces
def test_analyze_never_raises_on_card_shaped_dicts(c):
    a = analyze(c)
    assert set(a.colors) <= set("WUBRG") and set(a.identity) <= set("WUBRG")
    assert a.colors == "".join(x for x in "WUBRG" if x in a.colors)
    explained = {r.color for r in a.reasons if r.aspect is Aspect.IDENTITY}
    assert explained == set(a.identity)
    explained_colors = {r.color for r in a.reasons if r.aspect is Aspect.COLOR and not r.removes}
    assert explained_colors == set(a.colors)
    for r in a.reasons:
        assert r.kind is not ReasonKind.RULES_TEXT or r.place is not None


# --- purity ------------------------------------------------------------------------------------------

FORBIDDEN = ("discord", "aiohttp", "sqlite3", "aiosqlite", "requests", "socket")


def test_identity_package_imports_no_io_modules():
    code = (
        "import sys; import bot.identity; "
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]; "
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, f"bot.identity imported: {proc.stdout} {proc.stderr}"
    for path in (root / "bot" / "identity").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        for mod in FORBIDDEN:
            assert f"import {mod}" not in source and f"from {mod}" not in source, (path.name, mod)


def test_engine_modules_import_no_cycle():
    """No import cycle among the engine's modules, `TYPE_CHECKING` imports included (grimp counts them)."""
    graph = grimp.build_graph("bot", cache_dir=None)
    engine = {m for m in graph.modules if m.startswith("bot.identity.")}
    cycles = [
        (a, b)
        for a in sorted(engine)
        for b in sorted(graph.find_modules_directly_imported_by(a) & engine)
        if graph.find_shortest_chain(importer=b, imported=a)
    ]
    assert not cycles, f"import cycles through these imports: {cycles}"
