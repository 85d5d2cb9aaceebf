"""Deck checks (pure) and the report/embed builders, on real cards from the shared data set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.deck.check import ProblemKind, check_deck, copy_limit, is_basic_land
from bot.deck.parser import parse
from bot.identity.model import ReasonKind
from bot.present import embeds
from bot.present.deck_report import needs_attachment, summary_embed, text_report
from tests.shared_data import card, cards_by_name

DECKS = Path(__file__).parent / "data" / "decks"
KUMANO = "Kumano, Master Yamabushi"


def kumano_text() -> str:
    return (DECKS / "kumano-moxfield.txt").read_text(encoding="utf-8")


def run(text: str, *commanders: str, unknown: dict | None = None):
    deck = parse(text)
    known = cards_by_name()
    resolved = {n: card(n) for n in deck.names() if n in known}
    return deck, check_deck(deck, [card(c) for c in commanders], resolved, unknown or {})


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
    assert report.excluded == 5  # sideboard and maybeboard are not checked
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
    assert "Black (1):" in report_text and "Dismember" in report_text and "{B/P}" in report_text


def test_two_color_misfit_is_listed_under_each_color():
    text = swap(kumano_text(), "1 Shock (M20) 8", "1 Prophet of Kruphix")
    text = swap(text, "1x Sword of Fire and Ice", "1 Fires of Undeath")
    _, report = run(text, KUMANO)
    color = {p.card: p.outside for p in report.of_kind(ProblemKind.COLOR)}
    assert color == {"Prophet of Kruphix": "UG", "Fires of Undeath": "B"}
    out = text_report(report)
    blue, black, green = out.index("  Blue ("), out.index("  Black ("), out.index("  Green (")
    assert blue < black < green
    assert out.count("Prophet of Kruphix (line") == 2
    fires = report.of_kind(ProblemKind.COLOR)[1] if report.of_kind(ProblemKind.COLOR)[1].card == "Fires of Undeath" \
        else report.of_kind(ProblemKind.COLOR)[0]
    assert any(r.kind is ReasonKind.RULES_TEXT and r.symbol == "{B}" for r in fires.evidence_for("B"))


def test_903_5d_land_with_basic_land_types_is_off_color():
    text = "1 Azusa, Lost but Seeking\n1 Tropical Island\n1 Savannah\n1 Forest\n"
    _, report = run(text, "Azusa, Lost but Seeking")
    color = {p.card: p for p in report.of_kind(ProblemKind.COLOR)}
    assert set(color) == {"Tropical Island", "Savannah"}
    trop = color["Tropical Island"]
    assert trop.outside == "U"
    assert [(r.kind, r.detail) for r in trop.evidence_for("U")][0][0] is ReasonKind.BASIC_LAND_TYPE
    assert "Island" in (trop.evidence_for("U")[0].detail or "")
    assert "903.5d" in text_report(report)


def test_singleton_and_its_exemptions():
    text = ("1 Yawgmoth, Thran Physician\n2 Sol Ring\n20 Relentless Rats\n5 Shadowborn Apostle\n3 Swamp\n"
            "2 Snow-Covered Swamp\n2 Wastes\n1 Sol Ring\n")
    _, report = run(text, "Yawgmoth, Thran Physician")
    dupes = report.of_kind(ProblemKind.SINGLETON)
    assert [(p.card, p.lines) for p in dupes] == [("Sol Ring", (2, 8))]
    assert "3 copies" in dupes[0].message


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
        assert is_basic_land(card(basic)) and copy_limit(card(basic)) is None
    assert not is_basic_land(card("Tropical Island"))


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
    assert word in report.of_kind(ProblemKind.SIZE)[0].message


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
    assert problem.suggestions == ("Shock", "Shack") and "did you mean Shock, Shack?" in problem.message
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
    assert [p.card for p in report.of_kind(ProblemKind.NOT_A_CARD)] == ["Goblin"]
    assert [p.lines for p in report.of_kind(ProblemKind.UNREADABLE)] == [(3,), (4,)]
    assert report.of_kind(ProblemKind.UNREADABLE)[0].message == "line 3: '0 Shock': a count of 0"


def test_summary_embed_legal_and_with_problems_stays_within_discord_limits():
    _, legal = run(kumano_text(), KUMANO)
    e = summary_embed(legal)
    assert e.description.startswith("✅") and embeds.embed_problems([e]) == []
    assert not needs_attachment(legal)

    # a deck where almost everything is wrong: 76 off-color cards and many duplicates
    known = [c for c in cards_by_name().values()
             if c.get("layout") == "normal" and set(c.get("color_identity") or ()) == {"U", "B"}][:76]
    lines = [f"1 {KUMANO}"] + [f"2 {c['name']}" for c in known] + ["1 " + "Q" * 190]
    _, bad = run("\n".join(lines), KUMANO)
    e = summary_embed(bad, attached=True)
    assert embeds.embed_problems([e]) == []
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
    cards = json.loads((Path(__file__).parent / "data" / "backgrounds.json").read_text(encoding="utf-8"))
    return {c["name"]: c for c in cards}


def run_with_backgrounds(text: str, *commanders: str):
    extra = backgrounds()
    known = {**cards_by_name(), **extra}
    deck = parse(text)
    resolved = {n: known[n] for n in deck.names() if n in known}
    return check_deck(deck, [known[c] for c in commanders], resolved, {})


WILSON_DECK = (f"Commander\n1 {WILSON}\n1 {GIANTS}\nDeck\n1 Llanowar Elves\n1 Cultivate\n1 Sol Ring\n"
               "95 Forest\n")


@pytest.mark.parametrize("order", [(WILSON, GIANTS), (GIANTS, WILSON)])
def test_choose_a_background_pair_is_legal(order):
    report = run_with_backgrounds(WILSON_DECK, *order)
    assert report.problems == [], text_report(report)
    assert report.legal and report.card_count == 100 and report.deck_identity == "G"
    assert "Background" not in text_report(report).replace(GIANTS, "")


def test_background_pair_still_checks_colors_and_size():
    report = run_with_backgrounds(WILSON_DECK.replace("95 Forest", "94 Forest\n1 Lightning Bolt"), WILSON, GIANTS)
    assert kinds(report) == {"color": 1}
    assert report.of_kind(ProblemKind.COLOR)[0].card == "Lightning Bolt"
    short = run_with_backgrounds(WILSON_DECK.replace("95 Forest", "94 Forest"), WILSON, GIANTS)
    assert kinds(short) == {"size": 1}


def test_background_with_a_creature_that_cannot_choose_one_is_one_commander_problem():
    text = f"Commander\n1 {KUMANO}\n1 {GIANTS}\nDeck\n98 Mountain\n"
    report = run_with_backgrounds(text, KUMANO, GIANTS)
    problems = report.of_kind(ProblemKind.COMMANDER)
    assert len(problems) == 1, [p.message for p in problems]
    assert problems[0].card == f"{KUMANO} + {GIANTS}"
    assert "can\u2019t be commanders together" in problems[0].message


def test_background_alone_is_not_a_commander():
    report = run_with_backgrounds(f"1 {GIANTS}\n99 Forest\n", GIANTS)
    problems = report.of_kind(ProblemKind.COMMANDER)
    assert len(problems) == 1 and "is a Background" in problems[0].message


def test_two_commanders_are_judged_by_the_pairing_only():
    # Sol Ring can't be a commander, and Thrasios can't pair with it: one problem, from the pairing check
    _, report = run("1 Sol Ring\n", "Thrasios, Triton Hero", "Sol Ring")
    problems = report.of_kind(ProblemKind.COMMANDER)
    assert len(problems) == 1 and problems[0].card == "Thrasios, Triton Hero + Sol Ring"
