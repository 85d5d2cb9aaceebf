"""One real-shaped 100-card Commander file per deck-file format: every card read with its count and section, the
commanders the file marks, the deck name, and the format the text was recognised as."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.deck.entries import DeckFormat, Section
from bot.deck.parser import parse
from tests.shared_data import cards_by_name

DECKS = Path(__file__).parents[1] / "data" / "decks"

# file -> (format, commanders, deck name, card lines in the file, a few entries: name -> (count, section))
SAMPLES = {
    "urza-forge.dck": (
        DeckFormat.FORGE,
        ["Urza, Lord High Artificer"],
        "Urza, Lord High Artificer",
        re.compile(r"^\d+ .+\|"),
        {
            "Island": (35, Section.MAIN),
            "Sol Ring": (1, Section.MAIN),
            "Tezzeret the Seeker": (1, Section.SIDEBOARD),
            "Mox Opal": (1, Section.SIDEBOARD),
        },
    ),
    "derevi-xmage.dck": (
        DeckFormat.XMAGE,
        ["Derevi, Empyrial Tactician"],
        "Derevi stax",
        re.compile(r"^(SB: )?\d+ \["),
        {
            "Forest": (11, Section.MAIN),
            "Island": (11, Section.MAIN),
            "Plains": (11, Section.MAIN),
            "Commit // Memory": (1, Section.MAIN),
            "Derevi, Empyrial Tactician": (1, Section.COMMANDER),
        },
    ),
    "meren-cockatrice.cod": (
        DeckFormat.COCKATRICE,
        ["Meren of Clan Nel Toth"],
        "Meren recursion",
        re.compile(r"^\s*<card "),
        {
            "Swamp": (18, Section.MAIN),
            "Forest": (18, Section.MAIN),
            "Zombie": (1, Section.TOKENS),
            "Meren of Clan Nel Toth": (1, Section.COMMANDER),
        },
    ),
    "krenko-mtgo.dek": (
        DeckFormat.MTGO_DEK,
        ["Krenko, Mob Boss"],
        None,
        re.compile(r"^\s*<Cards "),
        {"Mountain": (36, Section.MAIN), "Krenko, Mob Boss": (1, Section.COMMANDER)},
    ),
    "teysa-mtgo.txt": (
        DeckFormat.TEXT,
        ["Teysa Karlov"],
        None,
        re.compile(r"^\d+ "),
        {
            "Plains": (14, Section.MAIN),
            "Swamp": (14, Section.MAIN),
            "Revival // Revenge": (1, Section.MAIN),
            "Teysa Karlov": (1, Section.COMMANDER),
        },
    ),
    "lathril-moxfield.csv": (
        DeckFormat.CSV,
        [],
        None,
        re.compile(r'^"\d+",'),
        {
            "Lathril, Blade of the Elves": (1, Section.MAIN),
            "Forest": (15, Section.MAIN),
            "Swamp": (15, Section.MAIN),
        },
    ),
    "kinnan-archidekt.csv": (
        DeckFormat.CSV,
        ["Kinnan, Bonder Prodigy"],
        None,
        re.compile(r"^\d+,"),
        {
            "Island": (16, Section.MAIN),
            "Forest": (16, Section.MAIN),
            "Cyclonic Rift": (1, Section.MAYBEBOARD),
            "Kinnan, Bonder Prodigy": (1, Section.COMMANDER),
        },
    ),
    "edgar-manabox.csv": (
        DeckFormat.CSV,
        [],
        None,
        re.compile(r'^"[^"]+",[A-Z0-9]+,'),
        {
            "Edgar Markov": (1, Section.MAIN),
            "Mountain": (10, Section.MAIN),
            "Plains": (9, Section.MAIN),
            "Swamp": (9, Section.MAIN),
        },
    ),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_card_of_a_deck_file_is_read(name):
    kind, commanders, deck_name, card_line, spots = SAMPLES[name]
    text = (DECKS / name).read_text(encoding="utf-8")
    deck = parse(text, filename=name)
    assert deck.format is kind
    assert deck.problems == []
    assert deck.card_count == 100
    assert [e.name for e in deck.commander_entries] == commanders
    assert deck.deck_name == deck_name
    # one entry per card line of the file, on that line
    lines = text.split("\n")
    assert sorted(e.line for e in deck.entries) == [
        n for n, line in enumerate(lines, 1) if card_line.match(line)
    ]
    for entry in deck.entries:
        assert entry.name.split(" // ")[0].split("/")[0] in lines[entry.line - 1].replace("&amp;", "&")
    by_name = {e.name: (e.count, e.section) for e in deck.entries}
    assert {n: by_name.get(n) for n in spots} == spots
    assert all(e.count == 1 for e in deck.deck_entries if e.name not in spots)  # singletons but the basics
    known = cards_by_name()
    assert [e.name for e in deck.entries if e.name not in known] == []


def test_the_forge_metadata_is_not_a_card():
    deck = parse((DECKS / "urza-forge.dck").read_text(encoding="utf-8"))
    assert deck.names().count("Urza, Lord High Artificer") == 1  # `Name=Urza, ...` is the deck's name
    sol_ring = next(e for e in deck.entries if e.name == "Sol Ring")
    assert sol_ring.set_code is not None and sol_ring.line > 6


def test_the_sideboard_of_an_xmage_deck_is_its_command_zone():
    deck = parse((DECKS / "derevi-xmage.dck").read_text(encoding="utf-8"))
    derevi = next(e for e in deck.entries if e.commander_marker)
    assert (derevi.set_code, derevi.collector_number) == ("cma", "225")
    assert deck.excluded_entries == []


def test_a_csv_export_keeps_set_codes_collector_numbers_and_foils():
    deck = parse((DECKS / "edgar-manabox.csv").read_text(encoding="utf-8"))
    edgar = deck.entries[0]
    assert (edgar.name, edgar.set_code, edgar.foil) == ("Edgar Markov", "c17", True)
    assert edgar.collector_number is not None and edgar.line == 2
    assert not any(e.foil for e in deck.entries[1:])
