"""Fuzz (hypothesis) over every decklist reader and the deck-link parser: whatever a player sends, reading it
ends in a deck or a documented input error (`DeckInputError`), every count is within bounds and every line is
accounted for (read, a problem, or a header, comment or left-out section). Mutations of the sample files of
tests/data/decks reach each format's reader; each run stays short (`max_examples`) and has no deadline, so a
busy machine can't fail it."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app.decks import links_in, looks_like_a_list, without_fences
from bot.deck.entries import MAX_COUNT, MAX_LINES, MAX_NAME_LENGTH, DeckFormat, LineIssue, ParsedDeck, Section
from bot.deck.formats.lines import QUOTES, header, read_entry
from bot.deck.parser import DeckInputError, parse
from bot.deck.sources import DeckLink, DeckSourceError, FetchedDeck, Site, parse_deck_url
from bot.deck.sources.fetch import read_answer
from bot.deck.sources.links import PAGES
from bot.deck.sources.result import Ask
from cogs.messages import card_mentions

DECKS = Path(__file__).parents[1] / "data" / "decks"
SAMPLES = {path.name: path.read_text(encoding="utf-8") for path in sorted(DECKS.iterdir())}
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces a hostile or careless paste is made of: runs of spaces, marks the readers look for, counts in digits
# no reader takes (`²`, `①`, `٣`, fullwidth `１`), counts of thousands of digits.
_SPACES = (" " * 300, "\t" * 50, "\u00a0" * 20, "\n", "\r", "\x00", "\ufeff")
_MARKS = ("//", " // ", "#", " #x", ";", "|", ":", " : ", "(", ")", "[", "]", "*", "*F*", "^", "x", "\u00d7")
_WORDS = (
    "SB:",
    "Commander:",
    "Deck",
    "Sideboard",
    "(C21)",
    "[C21:1]",
    "[Main]",
    "[metadata]",
    "Name=",
    "NAME:",
)
_XML = ("<", ">", '"', "=", ",", "Sol Ring")
_DIGITS = ("\u00b2", "\u2460", "\u0663", "\uff11", "9" * 5000, "0" * 20, "1", "99", "1000", "-1", "1.5")
_PIECES = st.sampled_from((*_SPACES, *_MARKS, *_WORDS, *_XML, *_DIGITS))
_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)


@st.composite
def mutated_samples(draw: st.DrawFn) -> tuple[str, str]:
    """(file name, a sample deck file with pieces inserted, text replaced or deleted at random places)."""
    name = draw(st.sampled_from(sorted(SAMPLES)))
    text = SAMPLES[name]
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        end = min(len(text), at + draw(st.integers(0, 12)))
        text = text[:at] + draw(st.one_of(_PIECES, _TEXT)) + text[end:]
    return name, text


def assert_sound(deck: ParsedDeck) -> None:
    """A deck any reader returned: counts within bounds, names within bounds, each record on its own line (an
    XML file's records carry their element's line: two elements may share one, as XML allows)."""
    for entry in deck.entries:
        assert 1 <= entry.count <= MAX_COUNT, entry
        assert entry.name and len(entry.name) <= MAX_NAME_LENGTH, entry
    for problem in deck.problems:
        assert problem.reason in set(LineIssue), problem
    lines = [e.line for e in deck.entries] + [p.line for p in deck.problems]
    if deck.format is not DeckFormat.COCKATRICE and deck.format is not DeckFormat.MTGO_DEK:
        assert len(lines) == len(set(lines)), "two records on one line"
        assert all(1 <= n <= max(deck.lines_read, 1) for n in lines), lines
    assert len(lines) <= MAX_LINES or deck.format in (DeckFormat.CSV,), len(lines)


def assert_every_line_accounted_for(text: str, deck: ParsedDeck) -> None:
    """A multi-line text list: each line is read, a problem, blank, a comment, a header or `About` metadata."""
    recorded = {e.line for e in deck.entries} | {p.line for p in deck.problems}
    about = False
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")  # as `parse` numbers
    for number, raw in enumerate(lines, start=1):
        line = raw.translate(QUOTES).strip()
        head = header(line) if line else None
        about = head[1] is Section.ABOUT if head and head[0] == "section" else about
        skipped = not line or line.startswith(("//", "#")) or head is not None or about
        assert (number in recorded) != skipped, (number, raw)


def read(text: str, filename: str | None = None) -> ParsedDeck | None:
    """`parse`, where the only exception allowed out is a documented input error."""
    try:
        deck = parse(text, filename=filename)
    except DeckInputError:
        return None
    assert_sound(deck)
    if deck.format is DeckFormat.TEXT:
        assert_every_line_accounted_for(text, deck)
    return deck


def test_two_xml_card_elements_on_one_line_are_both_read():
    """Found by the fuzz run: a Cockatrice file whose line break between two cards was lost reads both cards,
    each with the line its element starts on."""
    text = SAMPLES["meren-cockatrice.cod"].replace('"Beast Within"/>\n', '"Beast Within"/>' + " " * 300, 1)
    deck = read(text, filename="meren-cockatrice.cod")
    assert deck is not None
    on_one = [e.name for e in deck.entries if e.line == 19]
    assert on_one == ["Beast Within", "Mind Stone"], on_one
    assert len(deck.entries) == len(read(SAMPLES["meren-cockatrice.cod"]).entries)  # type: ignore[union-attr]


@FUZZ
@given(mutated_samples())
def test_mutated_deck_files_read_or_refuse(sample):
    name, text = sample
    read(text, filename=name)
    read(text)


@FUZZ
@given(st.lists(st.one_of(_PIECES, _TEXT), max_size=30))
def test_pasted_pieces_read_or_refuse(pieces):
    text = "".join(pieces)
    read(text)
    read(text.replace("\n", " "))  # the same, pasted on one line
    entry = read_entry(text.replace("\n", " "))
    assert isinstance(entry, LineIssue) or 1 <= entry.count <= MAX_COUNT


_COUNTS = st.one_of(
    st.sampled_from(["\u00b2", "\u2460", "\u0663", "\uff11", "9" * 4301, "-1", "1.5", "", " ", "0", "1000"]),
    st.integers(0, 10**6).map(str),
    _TEXT,
)


@FUZZ
@given(_COUNTS, _TEXT)
def test_a_count_no_reader_takes_is_a_line_problem(count, name):
    """The same count in every reader: a card of count 1..MAX_COUNT, or a line problem, never a ValueError."""
    quoted = count.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    named = name.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;") or "Sol Ring"
    texts = [
        f"Count,Name\n{count},Sol Ring\n1,Shock\n",
        f'<?xml version="1.0"?>\n<cockatrice_deck version="1">\n<zone name="main">\n'
        f'<card number="{quoted}" name="{named}"/>\n</zone>\n</cockatrice_deck>\n',
        f'<?xml version="1.0"?>\n<Deck>\n<Cards CatID="1" Quantity="{quoted}" Sideboard="false" Name="{named}"/>\n'
        "</Deck>\n",
        f"[Main]\n{count} Sol Ring|C21\n1 Shock\n",
        f"NAME:x\n{count} [C21:263] Sol Ring\n",
        f"{count} Sol Ring\n1 Shock\n",
        f"Swamp: {count}\n1 Shock\n",
        f"{count}x Sol Ring 1 Shock",
    ]
    for text in texts:
        deck = read(text)
        if deck is not None and count.strip() and not (count.isascii() and count.strip().isdigit()):
            assert all(e.count <= MAX_COUNT for e in deck.entries)


@FUZZ
@given(st.lists(st.one_of(_PIECES, _TEXT, st.just("[["), st.just("]]"), st.just("```")), max_size=30))
def test_message_helpers_take_any_text(pieces):
    """What the message command reads of a message: links, fences, `[[names]]`, whether it holds a list."""
    text = "".join(pieces)
    _link, _refused, rest = links_in(text)  # a refused link is kept, never raised
    assert isinstance(looks_like_a_list(without_fences(rest)), bool)
    assert all(name and "\n" not in name for name in card_mentions(text))


_URL_HEADS = ("https://", "http://", "ftp://", "//", "user:pass@", "<", ">", " ", "\t", "\n")
_HOSTS = (
    "archidekt.com",
    "www.moxfield.com",
    "m.tappedout.net",
    "www.mtggoldfish.com",
    "deckstats.net",
    "scryfall.com",
    "aetherhub.com",
    "infinite.tcgplayer.com",
    "decks.tcgplayer.com",
    "edhrec.com",
    "moxfield.com.",
    "\u0430rchidekt.com",
    "xn--",
    "[::1]",
    ":99999",
)
_PATHS = ("@", ":", "/", "decks", "api", "/decks/", "123", "0" * 13, "\u00b2", "\uff11", "abcdefghij_-KLMN")
_PATHS += (
    "/mtg-decks/",
    "/deck/",
    "/archetype/",
    "/@u/decks/",
    "e7aceb4c-29d5-49f5-9a49-c24f64da264b",
    "/Deck/",
)
_PATHS += ("/magic-the-gathering/deck/", "/average-decks/", "12-slug", "Public/")
_URL_PIECES = st.sampled_from((*_URL_HEADS, *_HOSTS, *_PATHS, "?", "#", "%2F", "..", "\\"))


@FUZZ
@given(st.lists(st.one_of(_URL_PIECES, _TEXT), max_size=12))
def test_deck_links_are_refused_or_name_a_deck_of_the_site(pieces):
    text = "".join(pieces)
    try:
        link = parse_deck_url(text)
    except DeckSourceError as exc:
        assert exc.site is not None
        return
    if link is not None:
        assert link.url == PAGES[link.site].format(link.deck_id)
        assert parse_deck_url(link.url) == link  # the page the bot names is the deck it read
        assert link.deck_id.isascii() and all(ch.isalnum() or ch in "-_/@.%" for ch in link.deck_id)


ANSWERS = Path(__file__).parents[1] / "data" / "decksites"
_RECORDED = {
    "tappedout_page_2021.html": Site.TAPPEDOUT,
    "tappedout_widget_2026.json": Site.TAPPEDOUT,
    "mtggoldfish_component_2026.js": Site.MTGGOLDFISH,
    "mtggoldfish_page_2021.html": Site.MTGGOLDFISH,
    "deckstats_page_2025.html": Site.DECKSTATS,
    "deckstats_page_2026.html": Site.DECKSTATS,
    "scryfall_export_2022.txt": Site.SCRYFALL,
    "scryfall_export_2026.csv": Site.SCRYFALL,
    "aetherhub_page_2026.html": Site.AETHERHUB,
    "aetherhub_deck_2021.json": Site.AETHERHUB,
    "tcgplayer_malcolm_vial_2026.json": Site.TCGPLAYER,
    "edhrec_average_adamaro_2024.json": Site.EDHREC,
}
_ANSWER_TEXT = {name: (ANSWERS / name).read_text(encoding="utf-8") for name in _RECORDED}
_ANSWER_PIECES = st.sampled_from(
    ('"', "'", "<", ">", "=", "\\", "{", "[", "]", "}", ",", "\n", "<script>", "null")
)


@FUZZ
@given(
    st.sampled_from(sorted(_RECORDED)),
    st.lists(st.tuples(st.integers(0, 10**6), st.one_of(_ANSWER_PIECES, _TEXT)), max_size=6),
)
def test_mutated_site_answers_read_or_refuse(name, edits):
    """A site's recorded answer with pieces cut in: a deck, the next ask, or a DeckSourceError, never a crash."""
    text = _ANSWER_TEXT[name]
    for at, piece in edits:
        at %= len(text) + 1
        text = text[:at] + piece + text[at + len(piece) // 2 :]
    try:
        read = read_answer(DeckLink(_RECORDED[name], "1/2"), text, 1000)
    except DeckSourceError as exc:
        assert exc.site is _RECORDED[name]
        return
    assert isinstance(read, FetchedDeck | Ask)
    if isinstance(read, FetchedDeck):
        assert all(
            1 <= e.count <= MAX_COUNT and 0 < len(e.name) <= MAX_NAME_LENGTH for e in read.deck.entries
        )
        lines = [e.line for e in read.deck.entries] + [p.line for p in read.deck.problems]
        assert sorted(lines) == list(range(1, len(lines) + 1))
