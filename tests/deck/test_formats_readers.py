"""Each deck-file reader on its own: Forge, XMage, CSV, Cockatrice and MTGO XML, and the text list's counts
after the name, one-slash split names and MTGO's blank-line sideboard."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.deck.entries import DeckFormat, DeckInputError, LineIssue, Section
from bot.deck.parser import parse


def read(text: str, **kwargs):
    deck = parse(text, **kwargs)
    return [(e.name, e.count, e.section) for e in deck.entries]


def _filler(n: int, prefix: str = "Card") -> list[str]:
    return [f"1 {prefix} {chr(65 + i % 26)}{i}" for i in range(n)]


# -- text lists ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "count", "name"),
    [
        ("Island: 9", 9, "Island"),
        ("Swamp: 1", 1, "Swamp"),
        ("Island:12", 12, "Island"),
        ("Island x9", 9, "Island"),
        ("4x Island", 4, "Island"),
        ("4 Island", 4, "Island"),
        ("Circle of Protection: Red", 1, "Circle of Protection: Red"),
        ("Fire/Ice", 1, "Fire // Ice"),
        ("1 Fire / Ice", 1, "Fire // Ice"),
        ("Fire/Ice: 2", 2, "Fire // Ice"),
    ],
)
def test_counts_before_or_after_the_name(line, count, name):
    assert read(f"1 Sol Ring\n{line}\n")[1] == (name, count, Section.MAIN)


def test_mtgo_txt_main_blank_line_sideboard():
    text = "\n".join([*_filler(56), "4 Mountain", "", "3 Pyroblast", "2 Red Elemental Blast"])
    entries = read(text)
    assert entries[-2:] == [
        ("Pyroblast", 3, Section.SIDEBOARD),
        ("Red Elemental Blast", 2, Section.SIDEBOARD),
    ]
    assert {s for _, _, s in entries[:-2]} == {Section.MAIN}


def test_mtgo_txt_commander_deck_keeps_its_commander_in_the_sideboard():
    deck = parse("\n".join([*_filler(69), "30 Mountain", "", "1 Krenko, Mob Boss"]))
    assert [e.name for e in deck.commander_entries] == ["Krenko, Mob Boss"] and deck.card_count == 100


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(
            ["1 Krenko, Mob Boss", "", *_filler(69), "30 Mountain"]
        ),  # commander first: a bigger second part
        "\n".join(
            [*_filler(30), "", *_filler(30, "Other"), "", "1 Krenko, Mob Boss"]
        ),  # two gaps: groups, not MTGO
        "\n".join([*_filler(20), "", "1 Krenko, Mob Boss"]),  # a main part of fewer than 40 cards
        "\n".join(
            ["Deck", *_filler(69), "30 Mountain", "", "1 Krenko, Mob Boss"]
        ),  # headers say what is what
    ],
)
def test_blank_lines_elsewhere_change_no_section(text):
    assert {s for _, _, s in read(text)} == {Section.MAIN}


def test_sb_lines_of_a_commander_deck_are_its_commanders():
    deck = parse(
        "\n".join([*_filler(68), "30 Mountain", "SB: 1 Thrasios, Triton Hero", "SB: 1 Tymna the Weaver"])
    )
    assert [e.name for e in deck.commander_entries] == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    deck = parse("\n".join([*_filler(56), "4 Mountain", "SB: 15 Pyroblast"]))
    assert deck.commander_entries == [] and deck.excluded_entries[0].name == "Pyroblast"


# -- Forge .dck -------------------------------------------------------------------------------------------------

FORGE = """[metadata]
Name=Thrasios & Tymna
Comment=cEDH, Name=not a card
Deck Type=Commander
[commander]
1 Thrasios, Triton Hero|C16|1
1 Tymna the Weaver+|C16
[Main]
1 Sol Ring|C21|2
1 Fire // Ice|UMA
0 Shock|M20
30 Island
[SIDEBOARD]
1 Pyroblast|EMA
[Planes]
1 Academy at Tolaria West|HOP
"""


def test_forge_sections_metadata_sets_and_foils():
    deck = parse(FORGE)
    assert deck.format is DeckFormat.FORGE and deck.deck_name == "Thrasios & Tymna"
    assert [(e.name, e.count, e.section, e.line) for e in deck.entries] == [
        ("Thrasios, Triton Hero", 1, Section.COMMANDER, 6),
        ("Tymna the Weaver", 1, Section.COMMANDER, 7),
        ("Sol Ring", 1, Section.MAIN, 9),
        ("Fire // Ice", 1, Section.MAIN, 10),
        ("Island", 30, Section.MAIN, 12),
        ("Pyroblast", 1, Section.SIDEBOARD, 14),
        ("Academy at Tolaria West", 1, Section.TOKENS, 16),
    ]
    assert [e.name for e in deck.commander_entries] == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    tymna, sol_ring = deck.entries[1], deck.entries[2]
    assert (tymna.foil, tymna.set_code, sol_ring.set_code, sol_ring.collector_number) == (
        True,
        "c16",
        "c21",
        None,
    )
    assert [(p.line, p.text, p.reason) for p in deck.problems] == [(11, "0 Shock|M20", LineIssue.ZERO_COUNT)]


def test_forge_lines_outside_a_card_section_are_not_dropped():
    deck = parse("1 Sol Ring|C21\n[Sideboard]\n1 Pyroblast\n")
    assert [(e.name, e.section, e.line) for e in deck.entries] == [
        ("Sol Ring", Section.MAIN, 1),
        ("Pyroblast", Section.SIDEBOARD, 3),
    ]


@pytest.mark.parametrize(
    ("name", "kind"), [("urza-forge.dck", DeckFormat.ONE_LINE), ("meren-cockatrice.cod", None)]
)
def test_forge_and_cockatrice_files_pasted_on_one_line(name, kind):
    text = (Path(__file__).parents[1] / "data" / "decks" / name).read_text(encoding="utf-8")
    multi, single = parse(text), parse(" ".join(text.split("\n")))
    assert (
        single.format is (kind or multi.format)
        and single.deck_name == multi.deck_name
        and not single.problems
    )
    key = [(e.name, e.count, e.section, e.set_code, e.commander_marker) for e in multi.entries]
    assert [(e.name, e.count, e.section, e.set_code, e.commander_marker) for e in single.entries] == key
    assert single.card_count == 100 and len(key) > 60


def test_a_forge_section_word_inside_a_pasted_text_list_is_no_forge_file():
    deck = parse("1 Sol Ring [Sideboard] 1 Shock [Main]")
    assert [(e.name, e.section) for e in deck.entries] == [
        ("Sol Ring", Section.MAYBEBOARD),
        ("Shock", Section.MAIN),
    ]


# -- XMage .dck -------------------------------------------------------------------------------------------------


def test_xmage_set_and_number_in_brackets_name_and_layout():
    text = "\n".join(
        [
            "NAME:Dust to dust",
            "AUTHOR:someone",
            "1 [MMQ:316] Dust Bowl",
            "2 [C13:2] Fire // Ice",
            "SB: 3 [EMA:142] Pyroblast",
            "LAYOUT MAIN:(1,2)(NONE,false,50)|([MMQ:316])",
        ]
    )
    deck = parse(text)
    assert deck.format is DeckFormat.XMAGE and deck.deck_name == "Dust to dust" and deck.problems == []
    assert [(e.name, e.count, e.section, e.set_code, e.collector_number) for e in deck.entries] == [
        ("Dust Bowl", 1, Section.MAIN, "mmq", "316"),
        ("Fire // Ice", 2, Section.MAIN, "c13", "2"),
        ("Pyroblast", 3, Section.SIDEBOARD, "ema", "142"),
    ]


def test_xmage_commander_deck():
    lines = [f"1 [C13:{i}] Card {chr(65 + i % 26)}{i}" for i in range(69)]
    deck = parse(
        "\n".join(["NAME:Derevi", *lines, "30 [ZEN:235] Forest", "SB: 1 [C13:2] Derevi, Empyrial Tactician"])
    )
    assert [(e.name, e.section, e.line) for e in deck.commander_entries] == [
        ("Derevi, Empyrial Tactician", Section.COMMANDER, 72)
    ]
    assert deck.card_count == 100


def test_xmage_and_sb_lines_pasted_on_one_line():
    cards = " ".join(f"1 [C13:{i}] Card {chr(65 + i % 26)}{i}" for i in range(69))
    deck = parse(f"NAME:Derevi {cards} 30 [ZEN:235] Forest SB: 1 [C13:2] Derevi, Empyrial Tactician")
    assert deck.format is DeckFormat.ONE_LINE and deck.deck_name == "Derevi" and deck.problems == []
    assert [e.name for e in deck.commander_entries] == [
        "Derevi, Empyrial Tactician"
    ] and deck.card_count == 100


# -- CSV ------------------------------------------------------------------------------------------------------


def test_moxfield_and_deckbox_csv():
    text = (
        '"Count","Tradelist Count","Name","Edition","Condition","Language","Foil","Tags"\n'
        '"1","0","Sol Ring","c21","Near Mint","English","foil",""\n'
        '"1","0","Fire/Ice","uma","Near Mint","English","",""\n'
        '"12","0","Mountain","war","Near Mint","English","",""\n'
        '"two","0","Shock","m20","Near Mint","English","",""\n'
    )
    deck = parse(text)
    assert deck.format is DeckFormat.CSV
    assert [(e.name, e.count, e.set_code, e.foil, e.line) for e in deck.entries] == [
        ("Sol Ring", 1, "c21", True, 2),
        ("Fire // Ice", 1, "uma", False, 3),
        ("Mountain", 12, "war", False, 4),
    ]
    assert [(p.line, p.reason) for p in deck.problems] == [(5, LineIssue.BAD_COUNT)]


def test_archidekt_csv_categories():
    text = (
        'Quantity,Name,Finish,Categories\n1,"Kinnan, Bonder Prodigy",Normal,Commander\n'
        '1,Sol Ring,Normal,"Ramp,Artifact"\n1,Cyclonic Rift,Normal,Maybeboard\n1,Pyroblast,Normal,Sideboard\n'
        '1,Gamble,Normal,"Tutor,{noDeck}"\n'
    )
    assert read(text) == [
        ("Kinnan, Bonder Prodigy", 1, Section.COMMANDER),
        ("Sol Ring", 1, Section.MAIN),
        ("Cyclonic Rift", 1, Section.MAYBEBOARD),
        ("Pyroblast", 1, Section.SIDEBOARD),
        ("Gamble", 1, Section.MAYBEBOARD),
    ]


def test_manabox_and_semicolon_csv():
    manabox = "Name,Set code,Set name,Collector number,Foil,Rarity,Quantity\nSol Ring,C21,Commander 2021,263,normal,uncommon,1\n"
    assert read(manabox) == [("Sol Ring", 1, Section.MAIN)]
    assert read("Count;Name;Board\n1;Sol Ring;main\n1;Pyroblast;sideboard\n") == [
        ("Sol Ring", 1, Section.MAIN),
        ("Pyroblast", 1, Section.SIDEBOARD),
    ]


# -- Cockatrice .cod and MTGO .dek ----------------------------------------------------------------------------

COD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>Partners</deckname>
    <zone name="main">
        <card number="1" name="Sol Ring" setShortName="C21" collectorNumber="263"/>
        <card number="one" name="Shock"/>
        <card number="1" name="Fire/Ice"/>
    </zone>
    <zone name="Commander">
        <card number="1" name="Thrasios, Triton Hero"/>
    </zone>
    <zone name="side">
        <card number="1" name="Pyroblast"/>
    </zone>
    <zone name="tokens">
        <card number="2" name="Clue"/>
    </zone>
</cockatrice_deck>
"""


def test_cockatrice_zones_and_deck_name():
    deck = parse(COD)
    assert deck.format is DeckFormat.COCKATRICE and deck.deck_name == "Partners"
    assert [(e.name, e.count, e.section, e.line) for e in deck.entries] == [
        ("Sol Ring", 1, Section.MAIN, 5),
        ("Fire // Ice", 1, Section.MAIN, 7),
        ("Thrasios, Triton Hero", 1, Section.COMMANDER, 10),
        ("Pyroblast", 1, Section.SIDEBOARD, 13),
        ("Clue", 2, Section.TOKENS, 16),
    ]
    assert (deck.entries[0].set_code, deck.entries[0].collector_number) == ("c21", "263")
    assert [(p.line, p.reason) for p in deck.problems] == [(6, LineIssue.BAD_COUNT)]


def test_mtgo_dek():
    text = (
        '<?xml version="1.0" encoding="utf-8"?>\n<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n'
        "  <NetDeckID>0</NetDeckID>\n"
        '  <Cards CatID="1" Quantity="4" Sideboard="false" Name="Fire/Ice" Annotation="0" />\n'
        '  <Cards CatID="2" Quantity="56" Sideboard="false" Name="Mountain" Annotation="0" />\n'
        '  <Cards CatID="3" Quantity="2" Sideboard="true" Name="Pyroblast" Annotation="0" />\n</Deck>\n'
    )
    deck = parse(text)
    assert deck.format is DeckFormat.MTGO_DEK
    assert read(text) == [
        ("Fire // Ice", 4, Section.MAIN),
        ("Mountain", 56, Section.MAIN),
        ("Pyroblast", 2, Section.SIDEBOARD),
    ]
    assert [e.line for e in deck.entries] == [4, 5, 6]


@pytest.mark.parametrize(
    "text",
    [
        '<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY a "aaaa">]>\n<cockatrice_deck><deckname>&a;</deckname>'
        "</cockatrice_deck>",
        "<cockatrice_deck><zone name='main'><card number='1' name='Sol Ring'></zone>",
        "<Deck>" + "<Cards Quantity='1' Name='Sol Ring'/>" * 301 + "</Deck>",
    ],
)
def test_xml_with_a_doctype_broken_or_too_long_is_bad_input(text):
    with pytest.raises(DeckInputError):
        parse(text)


def test_every_card_name_alone_reads_as_itself():
    """No card name looks like a count after a name (`Island: 9`, `Sol Ring x2`) or a set code after it."""
    from bot.deck.formats.lines import normalize_name, parse_card_line
    from tests.shared_data import cards_by_name

    for name in (n for n in cards_by_name() if n.strip()):
        line = parse_card_line(name)
        assert line is not None and (line.name, line.count) == (normalize_name(name), 1), name
