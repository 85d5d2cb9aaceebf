"""A deck's bracket (issue 31): the lowest bracket its contents allow, one line per guideline with the cards,
lines and combos behind it (Game Changers, mass land denial, extra turns, Commander Spellbook's two-card
combos), Spellbook's tags beside ours, what contents can't tell said once, and a server's house bracket naming
everything above it. Real cards of the shared data; combos in the export's real shape."""

from __future__ import annotations

import asyncio
import gzip

import pytest

from bot.cards.cache import CardCache
from bot.combos.load import import_variants
from bot.combos.model import ComboFindings
from bot.combos.store import ComboStore
from bot.deck.brackets import BracketFacts, bracket_facts
from bot.deck.check import DeckInput, check_deck
from bot.deck.parser import parse
from bot.deck.report import ProblemKind
from bot.house.rules import Rules
from bot.identity import analyze, check_fit
from bot.present.deck_report import deck_reply, summary_embed, text_report
from bot.present.embeds import fits_reply, identity_reply
from tests.fakes.spellbook import export, template, use, variant
from tests.present import limits
from tests.shared_data import card

GOLOS = "Golos, Tireless Pilgrim"  # five-color identity: every card fits, only the bracket is judged
ORACLE, CONSULTATION = "Thassa's Oracle", "Demonic Consultation"
VARIANTS = [
    variant([use(ORACLE, "H"), use(CONSULTATION, "H")], ["Win the game"], mana_value=3, variant_id="1-2"),
    variant(
        ["Kiki-Jiki, Mirror Breaker", "Zealous Conscripts"], ["Infinite ETB"], mana_value=8, bracket_tag="R"
    ),
    variant(
        ["Isochron Scepter", "Dramatic Reversal"],
        ["Infinite mana"],
        requires=[template("A mana rock that taps for two")],
        mana_value=2,
        bracket_tag="P",
    ),
]


def deck(*names: str) -> str:
    return f"1 {GOLOS} *CMDR*\n" + "".join(f"1 {n}\n" for n in names) + f"{99 - len(names)} Wastes\n"


async def found_combos(store: ComboStore | None, text: str) -> ComboFindings | None:
    return None if store is None else await store.find(parse(text).names())


def report_of(text: str, combos: ComboFindings | None = None, house: Rules | None = None):
    parsed = parse(text)
    resolved = {n: card(n) for n in parsed.names()}
    return check_deck(DeckInput(parsed, [card(GOLOS)], resolved, {}, combos=combos, house=house))


@pytest.fixture
async def store(tmp_path):
    path, source = tmp_path / "cache.sqlite3", tmp_path / "variants.json.gz"
    source.write_bytes(gzip.compress(export(VARIANTS)))
    async with await CardCache.open(path) as cache:
        await asyncio.to_thread(import_variants, source, path, least=1)
        yield ComboStore(cache)


async def test_thassas_oracle_and_demonic_consultation_are_an_early_two_card_combo_bracket_4(store):
    text = deck(ORACLE, CONSULTATION, "Sol Ring")
    report = report_of(text, await found_combos(store, text))
    facts = report.bracket
    assert facts.combos_checked and facts.floor == 4
    [combo] = facts.combos
    assert combo.cards == (ORACLE, CONSULTATION) and combo.floor == 4 and combo.kind.early
    full = text_report(report)
    assert "Bracket 4 or higher (Optimized)" in full
    assert "Early two-card combos: bracket 4 or higher." in full
    assert "Thassa's Oracle + Demonic Consultation: Win the game · 3 mana · Spellbook: Ruthless" in full
    assert "https://commanderspellbook.com/combo/1-2/" in full
    embed = summary_embed(report)
    field = next(f for f in embed.fields if f.name.startswith("Bracket"))
    assert "<https://commanderspellbook.com/combo/1-2/>" in field.value  # no link preview
    assert limits.repeated_lines(deck_reply(report).embeds[0]) == []


async def test_the_same_list_without_demonic_consultation_has_no_combo(store):
    text = deck(ORACLE, "Sol Ring")
    facts = report_of(text, await found_combos(store, text)).bracket
    assert facts.combos_checked and facts.combos == ()
    assert facts.game_changers == (ORACLE,) and facts.floor == 3  # the Oracle is a Game Changer itself


async def test_a_late_two_card_combo_is_bracket_3_and_a_combo_needing_a_template_sets_no_floor(store):
    text = deck("Kiki-Jiki, Mirror Breaker", "Zealous Conscripts", "Isochron Scepter", "Dramatic Reversal")
    report = report_of(text, await found_combos(store, text))
    floors = {c.cards: c.floor for c in report.bracket.combos}
    assert floors == {
        ("Kiki-Jiki, Mirror Breaker", "Zealous Conscripts"): 3,
        ("Isochron Scepter", "Dramatic Reversal"): None,  # needs a mana rock: not two cards
    }
    assert report.bracket.floor == 3
    full = text_report(report)
    assert "Two-card combos: bracket 3 or higher." in full and "Other combos (no floor of their own):" in full
    assert "Isochron Scepter + Dramatic Reversal, with A mana rock that taps for two:" in full
    # Spellbook tags Kiki-Jiki's combo Ruthless (bracket 4), above the cards' bracket 3: said, not picked
    assert (
        "Commander Spellbook tags Kiki-Jiki, Mirror Breaker + Zealous Conscripts Ruthless (bracket 4)" in full
    )


def test_armageddon_is_mass_land_denial_with_its_line_bracket_4():
    report = report_of(deck("Armageddon"))
    [flagged] = report.bracket.flagged
    assert flagged.name == "Armageddon" and flagged.finding.text == "Destroy all lands."
    assert report.bracket.floor == 4
    assert "Mass land denial: bracket 4 or higher." in text_report(report)
    assert "Armageddon \u2014 \u201c**Destroy all lands**.\u201d" in summary_embed(report).fields[-1].value


def test_one_time_warp_is_an_extra_turn_bracket_2_and_chaining_is_left_to_the_table():
    report = report_of(deck("Time Warp"))
    assert report.bracket.floor == 2
    full = text_report(report)
    assert "Extra turns: bracket 2 or higher." in full
    assert "Time Warp \u2014 \u201cTarget player takes an extra turn after this one.\u201d" in full
    assert full.count("Whether extra turns are chained is for your table") == 1


def test_a_deck_with_no_such_cards_has_no_floor_beyond_its_game_changers():
    report = report_of(deck("Sol Ring", "Rhystic Study", "Cultivate", "Counterspell"))
    facts = report.bracket
    assert facts.game_changers == ("Rhystic Study",) and not facts.flagged and facts.floor == 3
    full = text_report(report)
    assert "1 Game Changer: bracket 3 or higher." in full
    assert "Combos were not checked: there is no Commander Spellbook data yet." in full  # no data: said once
    assert full.count("differ by intent and by how long games last") == 1


async def test_a_house_bracket_2_names_every_card_and_combo_above_it(store):
    house = Rules(bracket=2)
    text = deck(ORACLE, CONSULTATION, "Armageddon", "Time Warp", "Rhystic Study")
    report = report_of(text, await found_combos(store, text), house)
    over = report.of_kind(ProblemKind.HOUSE_BRACKET)
    named = {p.card or ", ".join(p.others) for p in over}
    # not Time Warp: bracket 2 allows a few extra turns
    assert named == {"Armageddon", "Thassa's Oracle + Demonic Consultation", "Thassa's Oracle, Rhystic Study"}
    full = text_report(report)
    assert "Armageddon is mass land denial (line 4); this server plays bracket 2" in full
    assert "Thassa's Oracle + Demonic Consultation: a two-card combo for bracket 4 or higher" in full
    assert "2 Game Changers (Thassa's Oracle and Rhystic Study); this server plays bracket 2" in full
    assert not report_of(deck("Time Warp"), house=Rules(bracket=2)).of_kind(ProblemKind.HOUSE_BRACKET)
    assert report_of(deck("Time Warp"), house=Rules(bracket=1)).of_kind(ProblemKind.HOUSE_BRACKET)


def test_identity_and_fits_say_what_a_card_means_for_brackets_and_under_the_servers():
    armageddon = card("Armageddon")
    reply = identity_reply(analyze(armageddon), armageddon, house_bracket=3)
    embed = reply.embeds[0]
    assert (
        "**Armageddon** is mass land denial (\u201c**Destroy all lands**.\u201d): decks in brackets 1, 2 and 3"
        in (embed.description)
    )
    warnings = next(f for f in embed.fields if f.name == "Warnings").value
    assert "Armageddon is mass land denial, and this server plays bracket 3 (Upgraded)" in warnings
    warp, leader = card("Time Warp"), card(GOLOS)
    result = check_fit(warp, [leader])
    fits = fits_reply(result, warp, [leader]).embeds[0]
    assert (
        "decks in bracket 1 can\u2019t include it; brackets 2 and 3 allow a few, not chained"
        in fits.description
    )
    assert not any(f.name == "Warnings" for f in fits.fields)


def test_the_facts_of_nothing_are_empty_and_checked_only_with_data():
    assert BracketFacts().floor == 1 and BracketFacts().empty
    assert not bracket_facts([], None).combos_checked
    assert bracket_facts([], ComboFindings(True)).combos_checked
