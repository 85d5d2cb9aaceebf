"""Deck checks (pure) and the report/embed builders, on real cards from the shared data set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.deck.check import DeckInput, check_deck, color_letter, copy_limit
from bot.deck.entries import DeckInputError, Section
from bot.deck.parser import parse
from bot.deck.report import CommanderIssue, ProblemKind, Unchecked, UncheckedCommander
from bot.identity.model import NonDeckKind, ReasonKind, VerdictCode
from bot.present import deck_errors
from bot.present.deck_report import (
    needs_attachment,
    notes_text,
    problem_text,
    summary_embed,
    text_report,
    warnings_text,
)
from tests.present import limits
from tests.shared_data import card, cards_by_name

DECKS = Path(__file__).parents[1] / "data" / "decks"
KUMANO = "Kumano, Master Yamabushi"


def kumano_text() -> str:
    return (DECKS / "kumano-moxfield.txt").read_text(encoding="utf-8")


def run(text: str, *commanders: str, unknown: dict | None = None):
    deck = parse(text)
    known = cards_by_name()
    resolved = {n: card(n) for n in deck.names() if n in known}
    return deck, check_deck(DeckInput(deck, [card(c) for c in commanders], resolved, unknown or {}))


def swap(text: str, old: str, new: str) -> str:
    assert f"\n{old}\n" in text, old
    return text.replace(f"\n{old}\n", f"\n{new}\n", 1)


def kinds(report) -> dict:
    return {k.value: n for k, n in report.counts().items()}


def test_legal_100_card_deck():
    _, report = run(kumano_text(), KUMANO)
    assert report.legal, text_report(report)
    assert report.problems == []
    assert report.card_count == 100
    assert report.deck_identity == "R"
    assert report.excluded == {Section.SIDEBOARD: 2, Section.MAYBEBOARD: 3}  # not checked, counted by section
    assert (
        "Cards: 100 counting the commander; 2 in the sideboard, 3 in the maybeboard not counted"
        in text_report(report)
    )
    assert report.commanders == (KUMANO,)
    assert "LEGAL" in text_report(report) and "NOT LEGAL" not in text_report(report)


def test_commander_given_only_as_option_counts_toward_100():
    text = kumano_text().replace("Commander\n1 Kumano, Master Yamabushi (CHK) 179\n", "")
    _, report = run(text, KUMANO)
    assert report.legal and report.card_count == 100


def test_off_color_card_with_engine_evidence():
    text = swap(kumano_text(), "1 Shock (M20) 8", "1 Dismember")
    _, report = run(text, KUMANO)
    assert kinds(report) == {"color": 1}
    problem = report.of_kind(ProblemKind.COLOR)[0]
    assert problem.card == "Dismember" and problem.outside == "B"
    assert problem.lines == (text.split("\n").index("1 Dismember") + 1,)
    symbols = {r.symbol for r in problem.evidence_for("B")}
    assert "{B/P}" in symbols
    report_text = text_report(report)
    assert (
        f"  - Dismember (line {problem.lines[0]}): black\n      {{B/P}} \u2014 mana cost: {{1}}{{B/P}}{{B/P}}\n"
        in report_text
    )


def test_a_card_with_two_outside_colors_is_listed_once_with_both():
    text = swap(kumano_text(), "1 Shock (M20) 8", "1 Prophet of Kruphix")
    text = swap(text, "1x Sword of Fire and Ice", "1 Fires of Undeath")
    _, report = run(text, KUMANO)
    color = {p.card: p.outside for p in report.of_kind(ProblemKind.COLOR)}
    assert color == {"Prophet of Kruphix": "UG", "Fires of Undeath": "B"}
    out = text_report(report)
    assert out.count("Prophet of Kruphix (line") == 1
    prophet = next(p for p in report.of_kind(ProblemKind.COLOR) if p.card == "Prophet of Kruphix")
    assert (
        f"Prophet of Kruphix (line {prophet.lines[0]}): blue and green\n"
        f"      {{G}}{{U}} \u2014 mana cost: {{3}}{{G}}{{U}}\n"
    ) in out
    assert "Outside the color identity (2)" in out
    fires = (
        report.of_kind(ProblemKind.COLOR)[1]
        if report.of_kind(ProblemKind.COLOR)[1].card == "Fires of Undeath"
        else report.of_kind(ProblemKind.COLOR)[0]
    )
    assert any(r.kind is ReasonKind.RULES_TEXT and r.symbol == "{B}" for r in fires.evidence_for("B"))


def test_903_5d_land_with_basic_land_types_is_off_color():
    text = "1 Azusa, Lost but Seeking\n1 Tropical Island\n1 Savannah\n1 Forest\n"
    _, report = run(text, "Azusa, Lost but Seeking")
    color = {p.card: p for p in report.of_kind(ProblemKind.COLOR)}
    assert set(color) == {"Tropical Island", "Savannah"}
    trop = color["Tropical Island"]
    assert trop.outside == "U"
    assert [(r.kind, r.land) for r in trop.evidence_for("U")] == [(ReasonKind.BASIC_LAND_TYPE, "Island")]
    assert "{U} \u2014 basic land type (CR 903.5d): Land \u2014 Forest Island" in text_report(report)


def test_singleton_and_its_exemptions():
    text = (
        "1 Yawgmoth, Thran Physician\n2 Sol Ring\n20 Relentless Rats\n5 Shadowborn Apostle\n3 Swamp\n"
        "2 Snow-Covered Swamp\n2 Wastes\n1 Sol Ring\n"
    )
    _, report = run(text, "Yawgmoth, Thran Physician")
    dupes = report.of_kind(ProblemKind.SINGLETON)
    assert [(p.card, p.lines) for p in dupes] == [("Sol Ring", (2, 8))]
    assert (dupes[0].count, dupes[0].limit) == (3, 1)
    assert problem_text(dupes[0]) == "Sol Ring: 3 copies (lines 2, 8); a deck may hold one copy"


@pytest.mark.parametrize(("n", "ok"), [(7, True), (8, False)])
def test_up_to_n_copies(n, ok):
    _, report = run(f"1 {KUMANO}\n{n} Seven Dwarves\n", KUMANO)
    assert (not report.of_kind(ProblemKind.SINGLETON)) is ok


def test_copy_limits_from_card_text():
    assert copy_limit(card("Relentless Rats")) is None
    assert copy_limit(card("Persistent Petitioners")) is None
    assert copy_limit(card("Dragon's Approach")) is None
    assert copy_limit(card("Seven Dwarves")) == 7
    assert copy_limit(card("Sol Ring")) == 1
    assert copy_limit(card("Once More with Feeling")) == 1
    for basic in ("Forest", "Wastes", "Snow-Covered Island"):
        assert copy_limit(card(basic)) is None
    assert copy_limit(card("Tropical Island")) == 1  # basic land types, but not the Basic supertype


def test_commander_listed_twice_is_a_duplicate():
    text = kumano_text().replace("23 Mountain", "22 Mountain\n1 Kumano, Master Yamabushi")
    _, report = run(text, KUMANO)
    assert kinds(report) == {"singleton": 1}
    assert report.of_kind(ProblemKind.SINGLETON)[0].card == KUMANO


@pytest.mark.parametrize(("mountains", "total", "word"), [(22, 99, "1 short"), (25, 102, "2 too many")])
def test_deck_size(mountains, total, word):
    _, report = run(kumano_text().replace("23 Mountain", f"{mountains} Mountain"), KUMANO)
    assert kinds(report) == {"size": 1}
    assert report.card_count == total
    assert word in problem_text(report.of_kind(ProblemKind.SIZE)[0])


def test_banned_only_when_scryfall_says_banned():
    text = swap(kumano_text(), "1 Shock (M20) 8", "1 Dockside Extortionist")  # 'not_legal' (stale C19 quirk)
    text = swap(text, "1x Sword of Fire and Ice", "1 Castle Embereth")  # 'not_legal' (ELD quirk)
    _, report = run(text, KUMANO)
    assert report.legal, text_report(report)
    _, banned = run("1 Azusa, Lost but Seeking\n1 Primeval Titan\n", "Azusa, Lost but Seeking")
    assert [p.card for p in banned.of_kind(ProblemKind.BANNED)] == ["Primeval Titan"]


def test_banned_commander():
    _, report = run("1 Braids, Cabal Minion\n", "Braids, Cabal Minion")
    assert [p.card for p in report.of_kind(ProblemKind.BANNED)] == ["Braids, Cabal Minion"]


def test_unknown_names_with_suggestions_count_toward_size():
    text = swap(kumano_text(), "1 Shock (M20) 8", "1 Shokc")
    _, report = run(text, KUMANO, unknown={"Shokc": ["Shock", "Shack"]})
    assert kinds(report) == {"unknown": 1}
    problem = report.of_kind(ProblemKind.UNKNOWN)[0]
    assert problem.suggestions == ("Shock", "Shack") and "did you mean Shock, Shack?" in problem_text(problem)
    assert report.card_count == 100


def test_not_a_commander_and_bad_pairs():
    _, report = run("1 Sol Ring\n", "Sol Ring")
    assert [p.kind for p in report.problems if p.kind is ProblemKind.COMMANDER]
    _, bad = run("1 Sol Ring\n", KUMANO, "Thrasios, Triton Hero")
    commander = bad.of_kind(ProblemKind.COMMANDER)
    assert len(commander) == 1 and "Kumano" in commander[0].card
    _, good = run((DECKS / "partners-tappedout.txt").read_text(), "Thrasios, Triton Hero", "Tymna the Weaver")
    assert not good.of_kind(ProblemKind.COMMANDER)
    assert good.deck_identity == "WUBG"
    color = {p.card: p.outside for p in good.of_kind(ProblemKind.COLOR)}
    assert color == {"Fire // Ice": "R"}


def test_commander_section_naming_someone_else():
    _, report = run("Commander\n1 Krark, the Thumbless\nDeck\n1 Sol Ring\n", KUMANO)
    problems = report.of_kind(ProblemKind.COMMANDER)
    assert [p.card for p in problems] == ["Krark, the Thumbless"] and problems[0].lines == (2,)


def test_tokens_are_not_deck_cards_and_unreadable_lines_are_problems():
    _, report = run(f"1 {KUMANO}\n1 Goblin\n0 Shock\n7\n", KUMANO)
    assert [(p.card, p.not_deck_card) for p in report.of_kind(ProblemKind.NOT_A_CARD)] == [
        ("Goblin", NonDeckKind.TOKEN)
    ]
    assert (
        problem_text(report.of_kind(ProblemKind.NOT_A_CARD)[0])
        == "Goblin is a token, not a card a deck can hold (line 2)"
    )
    assert [p.lines for p in report.of_kind(ProblemKind.UNREADABLE)] == [(3,), (4,)]
    assert problem_text(report.of_kind(ProblemKind.UNREADABLE)[0]) == "line 3: '0 Shock': a count of 0"


def test_summary_embed_legal_and_with_problems_stays_within_discord_limits():
    _, legal = run(kumano_text(), KUMANO)
    e = summary_embed(legal)
    assert e.description.startswith("✅") and limits.embed_problems([e]) == []
    assert not needs_attachment(legal)

    # a deck where almost everything is wrong: 76 off-color cards and many duplicates
    known = [
        c
        for c in cards_by_name().values()
        if c.get("layout") == "normal" and set(c.get("color_identity") or ()) == {"U", "B"}
    ][:76]
    lines = [f"1 {KUMANO}"] + [f"2 {c['name']}" for c in known] + ["1 " + "Q" * 190]
    _, bad = run("\n".join(lines), KUMANO)
    e = summary_embed(bad, attached=True)
    assert limits.embed_problems([e]) == []
    assert e.description.startswith("❌")
    assert "off-color" in e.description and "duplicates" in e.description
    assert needs_attachment(bad)
    assert e.footer and "attached" in e.footer
    full = text_report(bad)
    assert all(c["name"] in full for c in known)


def test_embed_escapes_markdown_from_the_list():
    _, report = run(f"1 {KUMANO}\n1 **@everyone** _x_\n", KUMANO, unknown={"**@everyone** _x_": []})
    e = summary_embed(report)
    field = next(f for f in e.fields if f.name.startswith("Unknown"))
    assert "\\*\\*" in field.value and "@everyone" not in field.value.replace("@\u200beveryone", "")


# -- Choose a Background pairs (the data set has no Backgrounds: tests/data/backgrounds.json holds two
#    hand-built Scryfall card objects, Wilson, Refined Grizzly and Raised by Giants) --------------------

WILSON, GIANTS = "Wilson, Refined Grizzly", "Raised by Giants"


def backgrounds() -> dict[str, dict]:
    cards = json.loads((Path(__file__).parents[1] / "data" / "backgrounds.json").read_text(encoding="utf-8"))
    return {c["name"]: c for c in cards}


def run_with_backgrounds(text: str, *commanders: str):
    extra = backgrounds()
    known = {**cards_by_name(), **extra}
    deck = parse(text)
    resolved = {n: known[n] for n in deck.names() if n in known}
    return check_deck(DeckInput(deck, [known[c] for c in commanders], resolved))


WILSON_DECK = (
    f"Commander\n1 {WILSON}\n1 {GIANTS}\nDeck\n1 Llanowar Elves\n1 Cultivate\n1 Sol Ring\n95 Forest\n"
)


@pytest.mark.parametrize("order", [(WILSON, GIANTS), (GIANTS, WILSON)])
def test_choose_a_background_pair_is_legal(order):
    report = run_with_backgrounds(WILSON_DECK, *order)
    assert report.problems == [], text_report(report)
    assert report.legal and report.card_count == 100 and report.deck_identity == "G"
    assert "Background" not in text_report(report).replace(GIANTS, "")


def test_background_pair_still_checks_colors_and_size():
    report = run_with_backgrounds(
        WILSON_DECK.replace("95 Forest", "94 Forest\n1 Lightning Bolt"), WILSON, GIANTS
    )
    assert kinds(report) == {"color": 1}
    assert report.of_kind(ProblemKind.COLOR)[0].card == "Lightning Bolt"
    short = run_with_backgrounds(WILSON_DECK.replace("95 Forest", "94 Forest"), WILSON, GIANTS)
    assert kinds(short) == {"size": 1}


def test_background_with_a_creature_that_cannot_choose_one_is_one_commander_problem():
    text = f"Commander\n1 {KUMANO}\n1 {GIANTS}\nDeck\n98 Mountain\n"
    report = run_with_backgrounds(text, KUMANO, GIANTS)
    problems = report.of_kind(ProblemKind.COMMANDER)
    assert len(problems) == 1, problems
    assert problems[0].card == f"{KUMANO} + {GIANTS}" and problems[0].issue is CommanderIssue.CANT_PAIR
    assert "can\u2019t be commanders together" in problem_text(problems[0])


def test_background_alone_is_not_a_commander():
    report = run_with_backgrounds(f"1 {GIANTS}\n99 Forest\n", GIANTS)
    problems = report.of_kind(ProblemKind.COMMANDER)
    assert len(problems) == 1 and problems[0].verdict is not None
    assert problems[0].verdict.code is VerdictCode.BACKGROUND_ALONE and "is a Background" in problem_text(
        problems[0]
    )


def test_two_commanders_are_judged_by_the_pairing_only():
    # Sol Ring can't be a commander, and Thrasios can't pair with it: one problem, from the pairing check
    _, report = run("1 Sol Ring\n", "Thrasios, Triton Hero", "Sol Ring")
    problems = report.of_kind(ProblemKind.COMMANDER)
    assert len(problems) == 1 and problems[0].card == "Thrasios, Triton Hero + Sol Ring"


# -- names that could not be looked up (Scryfall unreachable) --------------------------------------------------


def run_partly_unavailable(text: str, commanders: list[str], down: set[str], **kwargs):
    """Check with the names in `down` reported by the card service as unavailable."""
    deck = parse(text)
    known = cards_by_name()
    resolved = {n: card(n) for n in deck.names() if n in known and n not in down}
    unavailable = {n: Unchecked("Scryfall answered 500") for n in down}
    return deck, check_deck(
        DeckInput(deck, [card(c) for c in commanders], resolved, unavailable=unavailable, **kwargs)
    )


def test_unavailable_names_are_listed_once_and_everything_else_is_still_checked():
    text = swap(kumano_text(), "1 Shock (M20) 8", "1 Dismember")  # off-color, looked up
    text = swap(text, "1x Sword of Fire and Ice", "1 Sol Ring")  # a duplicate of a looked-up card
    text = swap(text, "1 Inferno Titan (CM2) 24", "1 Guttersnipe")  # a second Guttersnipe line, not looked up
    deck, report = run_partly_unavailable(text, [KUMANO], {"Guttersnipe", "Lightning Greaves"})
    assert kinds(report) == {"unchecked": 2, "color": 1, "singleton": 1}
    unchecked = report.of_kind(ProblemKind.UNCHECKED)
    guttersnipe_lines = tuple(e.line for e in deck.entries if e.name == "Guttersnipe")
    greaves_lines = tuple(e.line for e in deck.entries if e.name == "Lightning Greaves")
    assert [(p.card, p.lines) for p in unchecked] == sorted(
        [("Lightning Greaves", greaves_lines), ("Guttersnipe", guttersnipe_lines)], key=lambda cl: cl[1]
    )
    assert len(guttersnipe_lines) == 2
    assert all("couldn\u2019t look it up (Scryfall didn\u2019t answer)" in problem_text(p) for p in unchecked)
    # an unavailable name is neither unknown nor a duplicate (its copy limit is unknown); it counts in the size
    assert not report.of_kind(ProblemKind.UNKNOWN) and report.card_count == 100
    assert not report.complete and report.findings and not report.legal
    out = text_report(report)
    assert "NOT LEGAL. 2 problems: 1 off-color card, 1 duplicate; 2 cards not checked." in out
    assert "Couldn't check (2)" in out
    assert summary_embed(report).description == (
        "❌ **2 problems**: 1 off-color card, 1 duplicate; 2 cards not checked."
    )
    assert out.count("Guttersnipe") == 1


def test_only_unavailable_names_is_not_fully_checked_rather_than_not_legal():
    _, report = run_partly_unavailable(kumano_text(), [KUMANO], {"Sol Ring"})
    assert kinds(report) == {"unchecked": 1} and report.findings == [] and not report.complete
    out = text_report(report)
    assert "NOT FULLY CHECKED. 1 card could not be checked; nothing else is wrong." in out
    assert "NOT LEGAL" not in out
    e = summary_embed(report)
    assert e.description.startswith("⚠️ **Not fully checked.**") and limits.embed_problems([e]) == []
    assert any(f.name == "Couldn't check (1)" and "Sol Ring" in f.value for f in e.fields)


def test_a_commander_that_could_not_be_looked_up():
    text = swap(kumano_text(), "1 Shock (M20) 8", "1 Dismember")
    text = text.replace("23 Mountain", "24 Mountain")
    deck = parse(text)
    resolved = {n: card(n) for n in deck.names() if n != KUMANO}
    missing = UncheckedCommander(KUMANO, listed=True, reason="Scryfall answered 503")
    report = check_deck(
        DeckInput(
            deck,
            [],
            resolved,
            unavailable={KUMANO: Unchecked("Scryfall answered 503")},
            unchecked_commanders=[missing],
        )
    )
    # no color identity without the commander: Dismember is not judged; the rest still is
    assert kinds(report) == {"unchecked": 1, "size": 1}
    assert not report.identity_checked and report.commanders == (KUMANO,)
    assert report.card_count == 101
    assert any(
        "Color identity, commander eligibility and pairing were not checked" in w and KUMANO in w
        for w in warnings_text(report)
    )
    assert "(color identity not checked)" in text_report(report)
    assert summary_embed(report).fields[0].value == "not checked"
    # a commander given as an option (not in the list) counts toward the deck size and is listed once
    option = UncheckedCommander("Kumano", listed=False, reason="Scryfall answered 503")
    deck = parse(kumano_text().replace("Commander\n1 Kumano, Master Yamabushi (CHK) 179\n", ""))
    report = check_deck(
        DeckInput(deck, [], {n: card(n) for n in deck.names()}, unchecked_commanders=[option])
    )
    assert kinds(report) == {"unchecked": 1} and report.card_count == 100
    assert problem_text(report.of_kind(ProblemKind.UNCHECKED)[0]).startswith(
        "Kumano (commander): couldn\u2019t look it up"
    )


# -- chosen colors (CR 903.4b) ------------------------------------------------------------------------------------

PIPER = {
    "object": "card",
    "id": "a1b2c3d4-0000-4000-8000-000000000903",
    "oracle_id": "a1b2c3d4-0000-4000-8000-00000000903b",
    "name": "The Prismatic Piper",
    "layout": "normal",
    "mana_cost": "{5}",
    "cmc": 5.0,
    "type_line": "Legendary Creature \u2014 Shapeshifter",
    "oracle_text": "Partner (You can have two commanders if both have partner.)\nIf The Prismatic Piper is your "
    "commander, choose a color before the game begins. The Prismatic Piper is the chosen color.",
    "power": "3",
    "toughness": "3",
    "colors": [],
    "color_identity": [],
    "keywords": ["Partner"],
    "legalities": {"commander": "legal"},
}


def test_chosen_color_joins_the_deck_identity():
    text = "1 The Prismatic Piper\n1 Counterspell\n1 Brainstorm\n1 Lightning Bolt\n1 Sol Ring\n95 Island\n"
    deck = parse(text)
    resolved = {n: (PIPER if n == "The Prismatic Piper" else card(n)) for n in deck.names()}
    unchosen = check_deck(DeckInput(deck, [PIPER], resolved))
    assert {p.card for p in unchosen.of_kind(ProblemKind.COLOR)} == {
        "Counterspell",
        "Brainstorm",
        "Lightning Bolt",
        "Island",
    }
    assert unchosen.open_choices == ("The Prismatic Piper",) and unchosen.deck_identity == ""
    (open_choice,) = warnings_text(unchosen)
    assert (
        "903.4b" in open_choice and "choosing blue would bring in 3 of the 4 off-color cards" in open_choice
    )
    blue = check_deck(DeckInput(deck, [PIPER], resolved, chosen=["U"]))
    assert [p.card for p in blue.of_kind(ProblemKind.COLOR)] == ["Lightning Bolt"]
    assert blue.deck_identity == "U" and blue.chosen == {"The Prismatic Piper": "U"}
    assert blue.open_choices == () and warnings_text(blue) == []
    assert (
        "The Prismatic Piper: chosen color blue (CR 903.4b); it counts in the deck\u2019s color identity"
        in notes_text(blue)
    )
    assert "chosen color blue" in text_report(blue)
    # a color given when no commander chooses one is bad input, not silently dropped
    with pytest.raises(DeckInputError) as err:
        check_deck(
            DeckInput(
                parse(f"1 {KUMANO}\n1 Counterspell\n"),
                [card(KUMANO)],
                {KUMANO: card(KUMANO), "Counterspell": card("Counterspell")},
                chosen=["U"],
            )
        )
    assert err.value.code == "no_chooser"


@pytest.mark.parametrize(
    ("text", "letter"), [("u", "U"), ("Blue", "U"), (" RED ", "R"), ("{G}", "G"), ("w", "W"), ("black", "B")]
)
def test_color_letter(text, letter):
    assert color_letter(text) == letter


@pytest.mark.parametrize("text", ["purple", "", "C", "colorless", "WU", "x"])
def test_color_letter_refuses_what_is_not_a_color(text):
    with pytest.raises(DeckInputError) as caught:
        color_letter(text)
    assert "is not a color; use W, U, B, R, G" in deck_errors.deck_input_text(caught.value)
