"""Decklist parser: every format from the deck-check issue, line numbers for what it can't read."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.deck.entries import MAX_LINES, DeckFormat, DeckInputError, InputIssue, LineIssue, ListUnit, Section
from bot.deck.formats.lines import GROUP_WORDS as _GROUP_WORDS
from bot.deck.formats.lines import QUOTES as _QUOTES
from bot.deck.formats.lines import SECTION_WORDS as _SECTION_WORDS
from bot.deck.formats.lines import header as _header
from bot.deck.formats.lines import normalize_name, parse_card_line
from bot.deck.formats.lines import prose_word as _prose_word
from bot.deck.formats.oneline import NAME_ENDING_SECTION_WORDS, split_entries
from bot.deck.parser import decode, parse
from bot.present import deck_errors
from tests.shared_data import cards_by_name

DECKS = Path(__file__).parents[1] / "data" / "decks"


def one(text: str):
    deck = parse(text)
    assert not deck.problems, deck.problems
    assert len(deck.entries) == 1, deck.entries
    return deck.entries[0]


@pytest.mark.parametrize(
    ("line", "count", "name", "set_code", "number"),
    [
        ("1 Sol Ring", 1, "Sol Ring", None, None),
        ("1x Sol Ring", 1, "Sol Ring", None, None),
        ("1X Sol Ring", 1, "Sol Ring", None, None),
        ("3 x Sol Ring", 3, "Sol Ring", None, None),
        ("Sol Ring", 1, "Sol Ring", None, None),
        ("1 Sol Ring (C21) 263", 1, "Sol Ring", "c21", "263"),
        ("1 Sol Ring (C21)", 1, "Sol Ring", "c21", None),
        ("1 Sol Ring [C21]", 1, "Sol Ring", "c21", None),
        ("1 [C21] Sol Ring", 1, "Sol Ring", "c21", None),
        ("1 Sol Ring (PLST) C21-263", 1, "Sol Ring", "plst", "C21-263"),
        ("12 Mountain (WAR) 262", 12, "Mountain", "war", "262"),
        ("Sol Ring x2", 2, "Sol Ring", None, None),
        ("  1   Sol    Ring  ", 1, "Sol Ring", None, None),
        ("1 Kumano, Master Yamabushi", 1, "Kumano, Master Yamabushi", None, None),
        ("1 B.F.M. (Big Furry Monster)", 1, "B.F.M. (Big Furry Monster)", None, None),
        ("1 Borrowing 100,000 Arrows", 1, "Borrowing 100,000 Arrows", None, None),
        ("1 Xenagos, the Reveler", 1, "Xenagos, the Reveler", None, None),
    ],
)
def test_card_line_formats(line, count, name, set_code, number):
    entry = one(line)
    assert (entry.count, entry.name, entry.set_code, entry.collector_number) == (
        count,
        name,
        set_code,
        number,
    )
    assert entry.line == 1 and entry.section is Section.MAIN


@pytest.mark.parametrize("line", ["1 Fire/Ice", "1 Fire / Ice", "1 Fire // Ice", "1 Fire//Ice", "Fire /Ice"])
def test_split_card_names_become_double_slash(line):
    assert one(line).name == "Fire // Ice"


def test_five_part_split_name():
    assert one("1 Who/What/When/Where/Why").name == "Who // What // When // Where // Why"


@pytest.mark.parametrize(
    ("line", "foil", "commander"),
    [
        ("1 Sol Ring (C21) 263 *F*", True, False),
        ("1 Sol Ring (C21) 263 *E*", True, False),
        ("1x Sol Ring *f-etch*", True, False),
        ("1x Atraxa, Praetors' Voice *CMDR*", False, True),
        ("1x Atraxa, Praetors' Voice *CMDR* *F*", True, True),
    ],
)
def test_markers(line, foil, commander):
    entry = one(line)
    assert entry.foil is foil and entry.commander_marker is commander
    assert entry.name in {"Sol Ring", "Atraxa, Praetors' Voice"}


def test_moxfield_tags_and_archidekt_categories_are_not_part_of_the_name():
    deck = parse((DECKS / "archidekt.txt").read_text())
    assert not deck.problems
    names = [(e.name, e.count, e.section, e.commander_marker) for e in deck.entries]
    assert names == [
        ("Kumano, Master Yamabushi", 1, Section.MAIN, True),
        ("Sol Ring", 1, Section.MAIN, False),
        ("Lightning Bolt", 1, Section.MAIN, False),
        ("Gamble", 1, Section.MAYBEBOARD, False),  # {noDeck}: not in the deck
        ("Mountain", 30, Section.MAIN, False),
    ]
    assert deck.entries[1].set_code == "c19" and deck.entries[1].collector_number == "221"
    assert one("1 Sol Ring (C21) 263 #Ramp #!Staples").name == "Sol Ring"


def test_curly_quotes_and_spacing_are_normalised():
    assert one("1 Commander\u2019s Sphere").name == "Commander's Sphere"
    assert normalize_name("  Kumano,\u00a0Master   Yamabushi ") == "Kumano, Master Yamabushi"


def test_arena_export_with_sections():
    text = (
        "About\nName Kumano burn\n\nCommander\n1 Kumano, Master Yamabushi (CHK) 179\n\n"
        "Deck\n1 Sol Ring (C21) 263\n1 Lightning Bolt (A25) 141\n\n"
        "Sideboard\n1 Pyroblast (EMA) 142\n\nMaybeboard\n1 Gamble (UMA) 135\n"
    )
    deck = parse(text)
    assert deck.problems == []
    assert deck.deck_name == "Kumano burn"
    assert [(e.name, e.section) for e in deck.entries] == [
        ("Kumano, Master Yamabushi", Section.COMMANDER),
        ("Sol Ring", Section.MAIN),
        ("Lightning Bolt", Section.MAIN),
        ("Pyroblast", Section.SIDEBOARD),
        ("Gamble", Section.MAYBEBOARD),
    ]
    assert [e.name for e in deck.commander_entries] == ["Kumano, Master Yamabushi"]
    assert deck.names() == ["Kumano, Master Yamabushi", "Sol Ring", "Lightning Bolt"]
    assert deck.card_count == 3
    assert [e.name for e in deck.excluded_entries] == ["Pyroblast", "Gamble"]


@pytest.mark.parametrize(
    "header",
    [
        "Sideboard",
        "SIDEBOARD:",
        "Sideboard (2)",
        "// Sideboard",
        "# Sideboard",
        "Side board",
        "Considering",
        "Maybeboard",
        "Companion",
        "Tokens",
    ],
)
def test_header_spellings_leave_the_deck(header):
    deck = parse(f"Deck\n1 Sol Ring\n{header}\n1 Pyroblast\n")
    assert not deck.problems
    assert [e.name for e in deck.deck_entries] == ["Sol Ring"]
    assert [e.name for e in deck.excluded_entries] == ["Pyroblast"]


@pytest.mark.parametrize("header", ["Commander", "COMMANDER:", "Commander (1)", "// Commander", "Commanders"])
def test_commander_header_spellings(header):
    deck = parse(f"{header}\n1 Kumano, Master Yamabushi\nDeck (99)\n1 Sol Ring\n")
    assert [e.name for e in deck.commander_entries] == ["Kumano, Master Yamabushi"]
    assert deck.card_count == 2


def test_type_group_headers_and_comments_are_skipped_not_cards():
    deck = parse(
        "Creatures (2)\n1 Guttersnipe\n// my removal\nInstants\n1 Shock\n# lands\nLands (30)\n30 Mountain\n"
    )
    assert not deck.problems
    assert [(e.name, e.count) for e in deck.entries] == [("Guttersnipe", 1), ("Shock", 1), ("Mountain", 30)]


def test_mtgo_sb_prefix():
    deck = parse("1 Sol Ring\nSB: 1 Pyroblast\n")
    assert [(e.name, e.section) for e in deck.entries] == [
        ("Sol Ring", Section.MAIN),
        ("Pyroblast", Section.SIDEBOARD),
    ]


def test_windows_line_endings_bom_and_blank_lines_keep_line_numbers():
    text = "\ufeff1 Sol Ring\r\n\r\n1 Lightning Bolt\r\n\r\n\r\n1 Shock\r\n"
    deck = parse(text)
    assert [(e.name, e.line) for e in deck.entries] == [("Sol Ring", 1), ("Lightning Bolt", 3), ("Shock", 6)]
    assert all("\r" not in e.name for e in deck.entries)
    old_mac = parse("1 Sol Ring\r1 Shock\r")
    assert [(e.name, e.line) for e in old_mac.entries] == [("Sol Ring", 1), ("Shock", 2)]


def test_every_unreadable_line_is_reported_with_its_number():
    text = "1 Sol Ring\n3\n0 Lightning Bolt\n1 ----\n4x\n1 " + "A" * 250 + "\n1 Shock\n2 // \n1 Bad\x07Name\n"
    deck = parse(text)
    assert [e.name for e in deck.entries] == ["Sol Ring", "Shock"]
    assert [p.line for p in deck.problems] == [2, 3, 4, 5, 6, 8, 9]
    reasons = {p.line: p.reason for p in deck.problems}
    assert reasons == {
        2: LineIssue.COUNT_ONLY,
        3: LineIssue.ZERO_COUNT,
        4: LineIssue.NO_NAME,
        5: LineIssue.COUNT_ONLY,
        6: LineIssue.NAME_TOO_LONG,
        8: LineIssue.NO_NAME,
        9: LineIssue.CONTROL_CHARACTERS,
    }
    assert deck.problems[1].text == "0 Lightning Bolt"
    # every non-blank, non-header, non-comment line is an entry or a problem
    assert len(deck.entries) + len(deck.problems) == 9


def test_huge_count_is_unreadable_unless_the_number_starts_the_name():
    deck = parse(
        "1 Sol Ring\n1000x Relentless Rats\n1 1996 World Champion\n1996 World Champion\n"
        "100000 Relentless Rats\n"
    )
    assert [(p.line, p.reason) for p in deck.problems] == [(2, LineIssue.COUNT_TOO_HIGH)]
    # no deck holds 1000 copies, so a bigger leading number is part of the name (the check reports an
    # unknown name with suggestions when it is not a card)
    assert [(e.line, e.count, e.name) for e in deck.entries[1:]] == [
        (3, 1, "1996 World Champion"),
        (4, 1, "1996 World Champion"),
        (5, 1, "100000 Relentless Rats"),
    ]


def test_line_cap_and_empty_input_are_bad_input():
    lines = "\n".join(f"1 Card {i}" for i in range(MAX_LINES + 1))
    with pytest.raises(DeckInputError, match=str(MAX_LINES)):
        parse(lines)
    assert len(parse("\n".join(f"1 Card {i}" for i in range(MAX_LINES))).entries) == MAX_LINES
    with pytest.raises(DeckInputError):
        parse("")
    with pytest.raises(DeckInputError):
        parse("\n\n// only a comment\nSideboard\n")


def test_decode_handles_encodings_and_refuses_binary():
    assert decode("1 Lim-D\u00fbl's Vault\n".encode()) == "1 Lim-D\u00fbl's Vault\n"
    assert decode("\ufeff1 Sol Ring".encode()) == "1 Sol Ring"
    assert decode("1 Sol Ring\n".encode("utf-16")) == "1 Sol Ring\n"
    assert decode("1 Lim-D\u00fbl's Vault".encode("cp1252")) == "1 Lim-D\u00fbl's Vault"
    with pytest.raises(DeckInputError):
        decode(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    with pytest.raises(DeckInputError):
        decode(b"1 Sol Ring\n" * 10_000)


def test_one_line_paste_is_split_back_into_lines():
    text = "1 Kumano, Master Yamabushi 1 Sol Ring 1x Fire // Ice 1 Borrowing 100,000 Arrows 30 Mountain"
    deck = parse(text)
    assert not deck.problems
    assert [(e.count, e.name) for e in deck.entries] == [
        (1, "Kumano, Master Yamabushi"),
        (1, "Sol Ring"),
        (1, "Fire // Ice"),
        (1, "Borrowing 100,000 Arrows"),
        (30, "Mountain"),
    ]
    semi = parse("Sol Ring; Lightning Bolt | Shock")
    assert [e.name for e in semi.entries] == ["Sol Ring", "Lightning Bolt", "Shock"]


def test_real_looking_100_card_moxfield_export():
    path = DECKS / "kumano-moxfield.txt"
    text = path.read_text(encoding="utf-8")
    deck = parse(text)
    assert deck.problems == []
    assert deck.card_count == 100
    assert [e.name for e in deck.commander_entries] == ["Kumano, Master Yamabushi"]
    assert len(deck.names()) == 78  # the commander, 76 singletons and Mountain
    assert {e.name for e in deck.excluded_entries} == {
        "Pyroblast",
        "Mana Vault",
        "Gamble",
        "Ragavan, Nimble Pilferer",
        "Dockside Extortionist",
    }
    known = cards_by_name()
    assert all(e.name in known for e in deck.entries), [e.name for e in deck.entries if e.name not in known]
    # the same deck with Windows line endings parses identically, line numbers included
    crlf = parse(text.replace("\n", "\r\n"))
    assert [(e.name, e.line, e.count, e.section) for e in crlf.entries] == [
        (e.name, e.line, e.count, e.section) for e in deck.entries
    ]
    # line numbers point at the right lines
    lines = text.split("\n")
    for e in deck.entries:
        assert e.name.split(" // ")[0] in lines[e.line - 1]


def test_tappedout_partner_export():
    deck = parse((DECKS / "partners-tappedout.txt").read_text())
    assert not deck.problems
    assert [e.name for e in deck.commander_entries] == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    assert "Fire // Ice" in deck.names()
    assert deck.card_count == 21


_PASTE_PIECES = [
    "1 Siege-Gang Commander",
    "Deck",
    "1x Sol Ring (C21) 263 *F*",
    "(C21)",
    "263",
    "*CMDR*",
    "[Commander{top}]",
    "^Have,#37d67a^",
    "#Ramp",
    "SIDEBOARD:",
    "Lands (30)",
    "// Burn and finishers",
    "Commander: Kumano",
    "SB:",
    "1 1996 World Champion",
    "Name Deck",
    "1 Fire // Ice",
    "x",
    "2",
    ":",
    "Partner:",
]
_LINE_PIECES = [
    "About",
    "Name Kumano burn",
    "Deck",
    "Commander",
    "Sideboard",
    "Creatures (3)",
    "// a comment",
    "# note",
    "1 Sol Ring",
    "1 Sol Ring // ramp",
    "1 Sol Ring # ramp",
    "Commander: Kumano",
    "1 Fire // Ice",
    "SB: 1 Shock",
    "3",
    "0 Shock",
    "",
    "   ",
    "1 Sol Ring (C21) 263 *F* // Ramp",
    "x",
]


def _units(text: str) -> list[tuple[int, str]]:
    """What `parse` numbers: the physical lines, or for a single non-blank line its entries."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    non_blank = [raw for raw in lines if raw.strip()]
    if len(non_blank) == 1 and len(split_entries(non_blank[0].translate(_QUOTES))) > 1:
        return list(enumerate(split_entries(non_blank[0].translate(_QUOTES)), start=1))
    return list(enumerate(lines, start=1))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80),
            st.sampled_from(_LINE_PIECES),
        ),
        max_size=40,
    )
)
def test_never_drops_a_line(lines):
    text = "\n".join(lines)
    try:
        deck = parse(text)
    except DeckInputError:
        return
    reported = {e.line for e in deck.entries} | {p.line for p in deck.problems}
    in_about = False  # lines after an "About" header, up to the next section header, are deck metadata
    for number, raw in _units(text):
        stripped = raw.translate(_QUOTES).strip().lstrip("\ufeff").strip()
        header = _header(stripped) if stripped else None
        if header is not None and header[0] == "section":
            in_about = header[1] is Section.ABOUT
        if number in reported:
            assert header is None and not stripped.startswith(("//", "#")), (number, raw)
            continue
        # anything not reported must be blank, a comment, a header or About metadata
        assert not stripped or stripped.startswith(("//", "#")) or header is not None or in_about, (
            number,
            raw,
        )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_LINE_PIECES[:-2]), st.sampled_from(_PASTE_PIECES)), max_size=30))
def test_one_line_entries_keep_every_word(pieces):
    """Cutting a pasted line into entries loses no text and keeps its order."""
    line = " ".join(p.strip() for p in pieces if p.strip())
    entries = split_entries(line)
    assert " ".join(" ".join(e.split()) for e in entries) == " ".join(
        line.replace(";", " ").replace("|", " ").split()
    )
    assert all(e.strip() for e in entries)


def test_about_section_ends_at_the_next_header():
    deck = parse("About\nName Burn\nDeck\nName Burn\n1 Sol Ring\n")
    assert deck.deck_name == "Burn"
    # after "Deck", "Name Burn" is a card line (an unknown name for the check to report), not metadata
    assert [(e.name, e.line) for e in deck.entries] == [("Name Burn", 4), ("Sol Ring", 5)]


@pytest.mark.parametrize(
    ("line", "name", "set_code", "number"),
    [
        ("1 Sol Ring // ramp", "Sol Ring", None, None),
        ("1 Sol Ring //ramp", "Sol Ring", None, None),
        ("1 Sol Ring // ramp, cast turn one", "Sol Ring", None, None),
        ("1 Sol Ring // -- Ramp", "Sol Ring", None, None),
        ("1 Sol Ring # ramp", "Sol Ring", None, None),
        ("1 Sol Ring # Ramp, #1 card", "Sol Ring", None, None),
        ("1 Sol Ring #Ramp # staple", "Sol Ring", None, None),
        ("1 Sol Ring (C21) 263 // Ramp", "Sol Ring", "c21", "263"),
        ("1 Sol Ring (C21) 263 *F* // ramp", "Sol Ring", "c21", "263"),
        ("1 Sol Ring [C21] # ramp", "Sol Ring", "c21", None),
        ("1 Fire // Ice // ramp", "Fire // Ice", None, None),
        ("1 Fire // Ice (UMA) 225 # the best", "Fire // Ice", "uma", "225"),
    ],
)
def test_comments_at_the_end_of_a_card_line(line, name, set_code, number):
    entry = one(line)
    assert (entry.name, entry.set_code, entry.collector_number) == (name, set_code, number)
    # the comment is gone; a split card keeps its front face as the fallback reading
    assert entry.alternative == ("Fire" if name == "Fire // Ice" else None)


@pytest.mark.parametrize(
    ("line", "name", "alternative", "set_code"),
    [
        ("Fire // Ice", "Fire // Ice", "Fire", None),
        ("1 Fire // Ice (UMA) 225", "Fire // Ice", "Fire", "uma"),
        ("1 fire // ice", "fire // ice", "fire", None),  # all lower case: the card check decides
        ("1 Sol Ring // Staple", "Sol Ring // Staple", "Sol Ring", None),
        ("1 Bonecrusher Giant // Stomp (ELD) 115", "Bonecrusher Giant // Stomp", "Bonecrusher Giant", "eld"),
    ],
)
def test_split_names_keep_the_split_reading_and_record_the_alternative(line, name, alternative, set_code):
    entry = one(line)
    assert (entry.name, entry.alternative, entry.set_code) == (name, alternative, set_code)


def test_split_names_without_spaces_have_no_alternative():
    assert one("1 Fire//Ice").alternative is None
    assert one("1 Fire/Ice").alternative is None


@pytest.mark.parametrize(
    ("line", "section", "commander"),
    [
        ("Commander: Kumano, Master Yamabushi", Section.COMMANDER, True),
        ("COMMANDER: 1 Kumano, Master Yamabushi (CHK) 179", Section.COMMANDER, True),
        ("Commanders:Kumano, Master Yamabushi", Section.COMMANDER, True),
        ("Partner: Kumano, Master Yamabushi", Section.COMMANDER, True),
        ("Companion: Kumano, Master Yamabushi", Section.COMPANION, False),
        ("Sideboard: 1 Kumano, Master Yamabushi", Section.SIDEBOARD, False),
    ],
)
def test_section_prefix_on_a_card_line(line, section, commander):
    deck = parse(f"Deck\n1 Sol Ring\n{line}\n1 Shock\n")
    assert not deck.problems
    assert [(e.name, e.section, e.commander_marker) for e in deck.entries] == [
        ("Sol Ring", Section.MAIN, False),
        ("Kumano, Master Yamabushi", section, commander),
        ("Shock", Section.MAIN, False),  # the prefix covers its own line only
    ]


def test_colons_in_card_names_are_not_section_prefixes():
    assert one("1 Circle of Protection: Red").name == "Circle of Protection: Red"
    assert one("Rune of Protection: Lands").name == "Rune of Protection: Lands"


# -- one-line pastes ------------------------------------------------------------------------------------------

EXPORTS = sorted(p.name for p in DECKS.glob("*.txt"))
BLANK_LINE_LAYOUT = {"teysa-mtgo.txt"}


def _entry_key(e):
    return (
        e.name,
        e.count,
        e.section,
        e.set_code,
        e.collector_number,
        e.foil,
        e.commander_marker,
        e.alternative,
    )


def _one_line(text: str) -> str:
    """What a chat client makes of the export: every newline (and the blank lines) became a space."""
    return " ".join(text.replace("\r\n", "\n").split("\n"))


def test_every_format_has_a_sample():
    assert {
        "kumano-moxfield.txt",
        "moxfield-sideboard.txt",
        "archidekt.txt",
        "archidekt-partners.txt",
        "arena.txt",
        "mtgo.txt",
        "partners-tappedout.txt",
        "plain.txt",
    } <= set(EXPORTS)


@pytest.mark.parametrize("name", EXPORTS)
def test_one_line_paste_reads_like_the_multi_line_export(name):
    text = (DECKS / name).read_text(encoding="utf-8")
    multi = parse(text)
    single = parse(_one_line(text))
    assert multi.problems == [] and single.problems == []
    if name in BLANK_LINE_LAYOUT:  # MTGO .txt: only a blank line marks the sideboard, and a paste loses it
        assert [(e.name, e.count) for e in single.entries] == [(e.name, e.count) for e in multi.entries]
        assert {e.section for e in single.entries} == {Section.MAIN} != {e.section for e in multi.entries}
    else:
        assert [_entry_key(e) for e in single.entries] == [_entry_key(e) for e in multi.entries]
        assert single.card_count == multi.card_count
    assert single.deck_name == multi.deck_name
    assert single.format is DeckFormat.ONE_LINE is not multi.format
    # entries are numbered in the order pasted: entry N is the export's N-th non-blank line
    non_blank = [line for line in text.split("\n") if line.strip()]
    assert single.lines_read == len(non_blank)
    for entry in single.entries:
        first_face = entry.name.split(" // ")[0]
        assert first_face.lower() in non_blank[entry.line - 1].lower(), (entry, non_blank[entry.line - 1])


def test_one_line_100_card_moxfield_export_keeps_its_sections():
    """The Commander header must not swallow the deck (the bug: "the list names Sol Ring as a commander" x98)."""
    deck = parse(_one_line((DECKS / "kumano-moxfield.txt").read_text(encoding="utf-8")))
    assert deck.card_count == 100
    assert [e.name for e in deck.commander_entries] == ["Kumano, Master Yamabushi"]
    assert [e.name for e in deck.entries if e.section is Section.COMMANDER] == ["Kumano, Master Yamabushi"]
    assert {e.name for e in deck.excluded_entries} == {
        "Pyroblast",
        "Mana Vault",
        "Gamble",
        "Ragavan, Nimble Pilferer",
        "Dockside Extortionist",
    }
    foils = {e.name for e in deck.entries if e.foil}
    assert {"Commander's Sphere", "Ruby Medallion", "Siege-Gang Commander"} - foils == {
        "Siege-Gang Commander"
    }
    medallion = next(e for e in deck.entries if e.name == "Ruby Medallion")
    assert (medallion.set_code, medallion.collector_number, medallion.count) == ("cm2", "1", 1)


def _read(text: str) -> list[tuple[str, int, str]]:
    deck = parse(text)
    assert deck.problems == [], deck.problems
    return [(e.name, e.count, e.section.value) for e in deck.entries]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Arena/Moxfield headers right after a collector number
        (
            "Commander 1 Kumano, Master Yamabushi (CHK) 179 Deck 1 Sol Ring (C21) 263",
            [("Kumano, Master Yamabushi", 1, "commander"), ("Sol Ring", 1, "main")],
        ),
        # a section word that ends card names belongs to the name after a name without a set code
        (
            "1 Siege-Gang Commander 1 Sol Ring 1 Raptor Companion 1 Shock",
            [
                ("Siege-Gang Commander", 1, "main"),
                ("Sol Ring", 1, "main"),
                ("Raptor Companion", 1, "main"),
                ("Shock", 1, "main"),
            ],
        ),
        # ... and one that never ends a card name is a header there
        (
            "Deck 1 Sol Ring 1 Shock Sideboard 1 Pyroblast Maybeboard 1 Gamble",
            [
                ("Sol Ring", 1, "main"),
                ("Shock", 1, "main"),
                ("Pyroblast", 1, "sideboard"),
                ("Gamble", 1, "maybeboard"),
            ],
        ),
        (
            "1 Sol Ring Commander: 1 Kumano, Master Yamabushi Deck: 1 Shock",
            [("Sol Ring", 1, "main"), ("Kumano, Master Yamabushi", 1, "commander"), ("Shock", 1, "main")],
        ),
        (
            "1 Sol Ring SIDEBOARD: 1 Pyroblast 1 Mana Vault",
            [("Sol Ring", 1, "main"), ("Pyroblast", 1, "sideboard"), ("Mana Vault", 1, "sideboard")],
        ),
        (
            "Commander: Kumano, Master Yamabushi 1 Sol Ring 2 x Shock",
            [("Kumano, Master Yamabushi", 1, "commander"), ("Sol Ring", 1, "main"), ("Shock", 2, "main")],
        ),
        (
            "Commander: Alesha, Who Smiles at Death Main: 1 Sol Ring",
            [("Alesha, Who Smiles at Death", 1, "commander"), ("Sol Ring", 1, "main")],
        ),
        ("SB: 1 Pyroblast 1 Sol Ring", [("Pyroblast", 1, "sideboard"), ("Sol Ring", 1, "main")]),
        # names that start with a number or hold one, split cards
        (
            "1 1996 World Champion 1 +2 Mace 1 Fire // Ice 1 Borrowing 100,000 Arrows 1 Who // What // When // Where "
            "// Why 1 X",
            [
                ("1996 World Champion", 1, "main"),
                ("+2 Mace", 1, "main"),
                ("Fire // Ice", 1, "main"),
                ("Borrowing 100,000 Arrows", 1, "main"),
                ("Who // What // When // Where // Why", 1, "main"),
                ("X", 1, "main"),
            ],
        ),
        (
            "1x Fire/Ice 1x Brass's Tunnel-Grinder / Tecutlan, the Searing Rift (LCI) 135 1x Sol Ring",
            [
                ("Fire // Ice", 1, "main"),
                ("Brass's Tunnel-Grinder // Tecutlan, the Searing Rift", 1, "main"),
                ("Sol Ring", 1, "main"),
            ],
        ),
        # collector numbers: after a set code, before markers and counts
        (
            "1 Ruby Medallion (CM2) 1 *F* 1 Seething Song (DDG) 249 23 Mountain (WAR) 262",
            [("Ruby Medallion", 1, "main"), ("Seething Song", 1, "main"), ("Mountain", 23, "main")],
        ),
        (
            "1 Sol Ring (PLST) C21-263 1 Helm of the Host (PDOM) 217p 1 Shock (M20) 8 12 Mountain",
            [
                ("Sol Ring", 1, "main"),
                ("Helm of the Host", 1, "main"),
                ("Shock", 1, "main"),
                ("Mountain", 12, "main"),
            ],
        ),
        # this paste's set codes carry no numbers, so `(C21) 2 Shock` is 2 Shocks
        (
            "1x Sol Ring (C21) 1x Arcane Signet (ELD) 2 Shock (M20) *F*",
            [("Sol Ring", 1, "main"), ("Arcane Signet", 1, "main"), ("Shock", 2, "main")],
        ),
        # a name after a finished entry starts a new one, even without a count
        (
            "1 Sol Ring (C21) 263 Arcane Signet *F* Shock",
            [("Sol Ring", 1, "main"), ("Arcane Signet", 1, "main"), ("Shock", 1, "main")],
        ),
        # counts after the name (`Island: 9`) finish an entry
        (
            "Island: 9 Mountain : 8 1 Sol Ring (C21) 263 Shock: 2 Lightning Bolt",
            [
                ("Island", 9, "main"),
                ("Mountain", 8, "main"),
                ("Sol Ring", 1, "main"),
                ("Shock", 2, "main"),
                ("Lightning Bolt", 1, "main"),
            ],
        ),
        # separators, type headers, comments
        (
            "Sol Ring; Lightning Bolt | Shock",
            [("Sol Ring", 1, "main"), ("Lightning Bolt", 1, "main"), ("Shock", 1, "main")],
        ),
        (
            "Creatures (2) 1 Guttersnipe 1 Young Pyromancer Lands (30) 30 Mountain",
            [("Guttersnipe", 1, "main"), ("Young Pyromancer", 1, "main"), ("Mountain", 30, "main")],
        ),
        (
            "1 Sol Ring // Ramp 1 Fiery Confluence // Burn and finishers 1 Shock # staple 1 Gamble",
            [
                ("Sol Ring", 1, "main"),
                ("Fiery Confluence", 1, "main"),
                ("Shock", 1, "main"),
                ("Gamble", 1, "main"),
            ],
        ),
        (
            "// Mainboard (3 cards) 1 Sol Ring // Sideboard 1 Pyroblast",
            [("Sol Ring", 1, "main"), ("Pyroblast", 1, "sideboard")],
        ),
        (
            "1x Thrasios, Triton Hero *CMDR* 1x Tymna the Weaver *CMDR* *F* 1x Sol Ring",
            [("Thrasios, Triton Hero", 1, "main"), ("Tymna the Weaver", 1, "main"), ("Sol Ring", 1, "main")],
        ),
    ],
)
def test_one_line_entry_boundaries(text, expected):
    assert _read(text) == expected
    assert parse(text).format is DeckFormat.ONE_LINE


def test_one_line_markers_categories_and_about():
    deck = parse(
        "About Name Kumano burn Commander 1 Kumano, Master Yamabushi (CHK) 179 *F* Deck "
        "1x Sol Ring (c19) 221 [Ramp] ^Have,#37d67a^ 1x Gamble (uma) 135 [Maybeboard{noDeck}{noPrice},Tutor] "
        "1x Guttersnipe [Commander{top}] 1 Shock (M20) 8 #Burn #!Staples"
    )
    assert deck.deck_name == "Kumano burn"
    assert [(e.name, e.section.value, e.commander_marker, e.foil) for e in deck.entries] == [
        ("Kumano, Master Yamabushi", "commander", True, True),
        ("Sol Ring", "main", False, False),
        ("Gamble", "maybeboard", False, False),
        ("Guttersnipe", "main", True, False),
        ("Shock", "main", False, False),
    ]


def test_one_line_unreadable_entries_are_numbered_in_order():
    deck = parse("1 Sol Ring 0 Shock 1 Lightning Bolt 4x")
    assert [(e.line, e.name) for e in deck.entries] == [(1, "Sol Ring"), (3, "Lightning Bolt")]
    assert [(p.line, p.text, p.reason) for p in deck.problems] == [
        (2, "0 Shock", LineIssue.ZERO_COUNT),
        (4, "4x", LineIssue.COUNT_ONLY),
    ]


def test_one_line_entry_cap():
    too_many = " ".join(f"1 Card {chr(65 + i % 26)}{i}" for i in range(MAX_LINES + 1))
    with pytest.raises(DeckInputError) as caught:
        parse(too_many)
    assert caught.value.code is InputIssue.TOO_LONG
    assert caught.value.data == {"count": MAX_LINES + 1, "unit": ListUnit.ENTRIES, "limit": MAX_LINES}
    assert (
        deck_errors.problem_text(caught.value)
        == f"the decklist has {MAX_LINES + 1} entries; the limit is {MAX_LINES}"
    )
    assert (
        len(parse(" ".join(f"1 Card {chr(65 + i % 26)}{i}" for i in range(MAX_LINES))).entries) == MAX_LINES
    )


def test_a_single_entry_line_is_not_a_paste():
    deck = parse("1 Sol Ring (C21) 263 *F*\n")
    assert deck.format is not DeckFormat.ONE_LINE and [(e.line, e.name, e.foil) for e in deck.entries] == [
        (1, "Sol Ring", True)
    ]
    # a multi-line list is never cut inside a line, whatever a line holds
    deck = parse("1 Sol Ring // ramp, 2 mana\n1 Shock\n")
    assert [(e.line, e.name) for e in deck.entries] == [(1, "Sol Ring"), (2, "Shock")]


# -- the rules the splitter relies on, checked against every card name of the shared data set ---------------


@functools.cache
def _all_names() -> tuple[str, ...]:
    """Every card name of the shared data set, sorted (read once per module)."""
    return tuple(sorted(cards_by_name()))


def test_section_words_that_end_card_names_are_known():
    header_words = set(_SECTION_WORDS)
    ending = {w for w in header_words for n in _all_names() if n.lower().endswith(" " + w) or n.lower() == w}
    assert ending <= NAME_ENDING_SECTION_WORDS, ending - NAME_ENDING_SECTION_WORDS


def test_no_card_face_is_named_like_a_header_or_holds_a_prose_word():
    headers = set(_SECTION_WORDS) | _GROUP_WORDS
    for name in _all_names():
        faces = name.split(" // ")
        assert not any(face.lower() in headers for face in faces), name
        for face in faces[1:]:  # what follows ` // ` in a split name must not read as a note
            assert not _prose_word(face), name


@pytest.mark.slow
def test_every_card_name_survives_a_one_line_paste():
    names = [n for n in _all_names() if n.strip()]
    for start in range(0, len(names), 250):
        chunk = names[start : start + 250]
        deck = parse(" ".join(f"1 {n}" for n in chunk))
        assert deck.problems == [], deck.problems[:3]
        assert [e.name for e in deck.entries] == [normalize_name(n) for n in chunk]
        # and after a finished Arena-style entry, under a Commander header
        deck = parse(
            "Commander "
            + " ".join(f"1 {n} (ABC) 12" for n in chunk[:2])
            + " Deck "
            + " ".join(f"1 {n} (ABC) 12 *F*" for n in chunk[2:])
        )
        assert [e.name for e in deck.entries] == [normalize_name(n) for n in chunk]
        assert [e.section for e in deck.entries[:3]] == [Section.COMMANDER, Section.COMMANDER, Section.MAIN]


# -- parse_card_line ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "count", "set_code", "number", "foil", "commander"),
    [
        ("Sol Ring (C21) 263", "Sol Ring", 1, "c21", "263", False, False),
        ("1x Sol Ring *F*", "Sol Ring", 1, None, None, True, False),
        ("1 Sol Ring [C21]", "Sol Ring", 1, "c21", None, False, False),
        ("  sol ring  ", "sol ring", 1, None, None, False, False),
        ("Commander: Kumano, Master Yamabushi", "Kumano, Master Yamabushi", 1, None, None, False, True),
        ("1x Atraxa, Praetors\u2019 Voice *CMDR*", "Atraxa, Praetors' Voice", 1, None, None, False, True),
        ("1996 World Champion", "1996 World Champion", 1, None, None, False, False),
        ("+2 Mace", "+2 Mace", 1, None, None, False, False),
        ("Fire/Ice", "Fire // Ice", 1, None, None, False, False),
        ("4 Lightning Bolt (2XM) 141 # the best", "Lightning Bolt", 4, "2xm", "141", False, False),
        ("1x Sol Ring (c19) 221 [Ramp] ^Have,#37d67a^", "Sol Ring", 1, "c19", "221", False, False),
        ("Circle of Protection: Red", "Circle of Protection: Red", 1, None, None, False, False),
        ("Hazmat Suit (Used)", "Hazmat Suit (Used)", 1, None, None, False, False),
    ],
)
def test_parse_card_line(text, name, count, set_code, number, foil, commander):
    line = parse_card_line(text)
    assert line is not None
    assert (
        line.name,
        line.count,
        line.set_code,
        line.collector_number,
        line.foil,
        line.commander_marker,
    ) == (name, count, set_code, number, foil, commander)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "Sideboard", "Deck (99)", "// Ramp", "# note", "3", "0 Sol Ring", "1 Bad\x07Name", "----"],
)
def test_parse_card_line_none_for_what_is_not_a_card_line(text):
    assert parse_card_line(text) is None


@pytest.mark.parametrize("name", EXPORTS)
def test_parse_card_line_reads_every_export_line_like_parse(name):
    for raw in (DECKS / name).read_text(encoding="utf-8").split("\n"):
        deck_entries = parse(f"Deck\n{raw}").entries if raw.strip() and parse_card_line(raw) else []
        line = parse_card_line(raw)
        if line is None:
            continue
        entry = deck_entries[0]
        assert (line.name, line.count, line.set_code, line.collector_number, line.foil, line.alternative) == (
            entry.name,
            entry.count,
            entry.set_code,
            entry.collector_number,
            entry.foil,
            entry.alternative,
        )
