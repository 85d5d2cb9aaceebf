"""Which reader a text goes to: decided by what the text looks like; a file name's extension only breaks a tie."""

from __future__ import annotations

import pytest

from bot.deck.entries import DeckFormat, Section
from bot.deck.parser import detect, parse


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("[metadata]\nName=Urza\n[Main]\n1 Sol Ring|C21", DeckFormat.FORGE),
        ("[Main]\n1 Sol Ring", DeckFormat.FORGE),
        ("1 [MMQ:316] Dust Bowl\n1 [C21:263] Sol Ring", DeckFormat.XMAGE),
        ("NAME:Burn\n1 Sol Ring", DeckFormat.XMAGE),
        (
            '<?xml version="1.0"?>\n<cockatrice_deck version="1"><zone name="main"><card number="1" name="Sol Ring"/></zone></cockatrice_deck>',
            DeckFormat.COCKATRICE,
        ),
        ("<Deck>\n<Cards Quantity='1' Name='Sol Ring'/></Deck>", DeckFormat.MTGO_DEK),
        ("Count,Name\n1,Sol Ring", DeckFormat.CSV),
        ("Name,Set code,Quantity\nSol Ring,C21,1", DeckFormat.CSV),
        ("Quantity\tName\tCategories\n1\tSol Ring\tRamp", DeckFormat.CSV),
        # plain lists are never tables, Forge or XMage files
        ("1 Borrowing 100,000 Arrows\n1 Sol Ring", DeckFormat.TEXT),
        ("Name, Set\n1 Sol Ring", DeckFormat.TEXT),
        ("Kumano, Master Yamabushi\nSol Ring", DeckFormat.TEXT),
        ("1x Thrasios, Triton Hero (c16) 46 [Commander{top}]\n1x Sol Ring [Ramp]", DeckFormat.TEXT),
        ("1 [C21] Sol Ring\n1 Sol Ring [C21]", DeckFormat.TEXT),
        ("<3 this deck\n1 Sol Ring", DeckFormat.TEXT),
        ("Commander\n1 Kumano, Master Yamabushi\nDeck\n1 Sol Ring\nSIDEBOARD:\n1 Shock", DeckFormat.TEXT),
        ("Name: Kumano\n1 Sol Ring", DeckFormat.TEXT),
    ],
)
def test_detect(text, kind):
    assert detect(text.split("\n")) is kind
    assert parse(text).format is kind


def test_a_csv_file_name_lets_a_name_only_table_be_read():
    text = "Name\nSol Ring\nLightning Bolt"
    assert detect(text.split("\n")) is DeckFormat.TEXT
    assert detect(text.split("\n"), "deck.csv") is DeckFormat.CSV
    assert [e.name for e in parse(text, filename="deck.CSV").entries] == ["Sol Ring", "Lightning Bolt"]
    assert [e.name for e in parse(text).entries] == ["Name", "Sol Ring", "Lightning Bolt"]  # an unknown name


def test_one_line_paste_format():
    deck = parse("Commander 1 Kumano, Master Yamabushi Deck 1 Sol Ring 1 Shock")
    assert deck.format is DeckFormat.ONE_LINE
    assert [e.section for e in deck.entries] == [Section.COMMANDER, Section.MAIN, Section.MAIN]


def test_every_text_export_sample_reads_as_a_text_list():
    from pathlib import Path

    decks = Path(__file__).parents[1] / "data" / "decks"
    for path in decks.glob("*.txt"):
        assert detect(path.read_text(encoding="utf-8").split("\n"), path.name) is DeckFormat.TEXT, path.name
