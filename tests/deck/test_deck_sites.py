"""Deck links from TappedOut, MTGGoldfish, Deckstats, Scryfall, Aetherhub, TCGplayer and EDHREC: real recorded
answers (tests/data/decksites/README.md) served by fake sites on 127.0.0.1 (tests/fakes/decksites.py)."""

from __future__ import annotations

import csv
import io
from typing import Any

import aiohttp
import pytest

from bot import __version__
from bot.deck.entries import Section
from bot.deck.sources import DeckLink, DeckSites, FetchedDeck, Site, parse_deck_url
from bot.deck.sources import DeckSourceErrorCode as Code
from bot.deck.sources.fetch import read_answer
from bot.deck.sources.result import EntryProblem
from tests.fakes.decksites import DATA_DIR, FakeClock, FakeDeckSite, raises

CONTACT = "https://example.test/identitybot"
AMIGOS = ("Kraum, Ludevic's Opus", "Vial Smasher the Fierce")  # the partner pair of "[mtg-parser] 3 Amigos"
OBOSH = "Obosh, the Preypiercer"  # its companion
SCRYFALL_UUID = "e7aceb4c-29d5-49f5-9a49-c24f64da264b"
WIDGET = "POST /api/deck/widget/?deck=mtg-parser-3-amigos&cols=1"
AETHERHUB_JSON = "GET /Deck/FetchMtgaDeckJson?deckId=495763&langId=0&simple=false"

# (link, {request: recorded answer}, commanders, companions, cards in the deck, name, owner)
RECORDED: dict[str, tuple[str, dict[str, str], tuple[str, ...], tuple[str, ...], int, str | None, str | None]] = {
    "tappedout page 2025": (
        "https://tappedout.net/mtg-decks/mtg-parser-3-amigos/",
        {"GET /mtg-decks/mtg-parser-3-amigos/": "tappedout_page_2025.html"},
        AMIGOS, (OBOSH,), 100, "[mtg-parser] 3 Amigos", "gorila",
    ),
    "tappedout page 2021": (
        "tappedout.net/mtg-decks/mtg-parser-3-amigos",
        {"GET /mtg-decks/mtg-parser-3-amigos/": "tappedout_page_2021.html"},
        AMIGOS, (OBOSH,), 99, "[mtg-parser] 3 Amigos", "gorila",
    ),
    "tappedout widget 2026": (
        "<https://www.tappedout.net/mtg-decks/mtg-parser-3-amigos/?cb=1>",
        {WIDGET: "tappedout_widget_2026.json"},
        AMIGOS, (), 100, "[mtg-parser] 3 Amigos", None,
    ),
    "mtggoldfish component 2026": (
        "https://www.mtggoldfish.com/deck/3935836#paper",
        {"GET /deck/component?id=3935836": "mtggoldfish_component_2026.js"},
        AMIGOS, (OBOSH,), 100, None, None,
    ),
    "mtggoldfish page 2021": (
        "http://mtggoldfish.com/deck/3935836",
        {"GET /deck/3935836": "mtggoldfish_page_2021.html"},
        AMIGOS, (OBOSH,), 99, "[mtg-parser] 3 Amigos", "gorila",
    ),
    "deckstats page 2026": (
        "https://deckstats.net/decks/30198/2034245--mtg-parser-3-amigos/",
        {"GET /decks/30198/2034245--mtg-parser-3-amigos": "deckstats_page_2026.html"},
        AMIGOS, (OBOSH,), 100, "[mtg-parser] 3 Amigos", "gorila",
    ),
    "deckstats page 2025": (
        "deckstats.net/decks/30198/2034245--mtg-parser-3-amigos?lng=en",
        {"GET /decks/30198/2034245--mtg-parser-3-amigos": "deckstats_page_2025.html"},
        AMIGOS, (OBOSH,), 100, "[mtg-parser] 3 Amigos", None,
    ),
    "scryfall csv 2026": (
        f"https://scryfall.com/@gorila/decks/{SCRYFALL_UUID}?as=visual",
        {f"GET /decks/{SCRYFALL_UUID}/export/csv": "scryfall_export_2026.csv"},
        AMIGOS, (OBOSH,), 100, None, "gorila",
    ),
    "scryfall text 2022": (
        f"scryfall.com/@gorila/decks/{SCRYFALL_UUID}",
        {f"GET /decks/{SCRYFALL_UUID}/export/text": "scryfall_export_2022.txt"},
        AMIGOS, (OBOSH,), 99, None, "gorila",
    ),
    "aetherhub page and json 2026": (
        "https://aetherhub.com/Deck/mtg-parser-3-amigos",
        {"GET /Deck/mtg-parser-3-amigos": "aetherhub_page_2026.html", AETHERHUB_JSON: "aetherhub_deck_2026.json"},
        AMIGOS, (OBOSH,), 100, "[mtg-parser] 3 Amigos", None,
    ),
    "aetherhub json 2021 partners": (
        "https://aetherhub.com/Deck/Public/489549",
        {"GET /Deck/FetchMtgaDeckJson?deckId=489549&langId=0&simple=false": "aetherhub_deck_2021.json"},
        ("Thrasios, Triton Hero", "Tymna the Weaver"), (), 100, None, None,
    ),
    "tcgplayer companion 2026": (
        "https://infinite.tcgplayer.com/magic-the-gathering/deck/Cat-Base/465171",
        {"GET /deck/magic/465171/?subDecks=true&cards=true": "tcgplayer_cat_base_2026.json"},
        ("Arahbo, Roar of the World",), ("Kaheera, the Orphanguard",), 100, "Cat Base", "Drew Knapp",
    ),
    "tcgplayer partners 2026": (
        "https://www.tcgplayer.com/content/magic-the-gathering/deck/Malcolm-and-Vial-Smasher/496887",
        {"GET /deck/magic/496887/?subDecks=true&cards=true": "tcgplayer_malcolm_vial_2026.json"},
        ("Malcolm, Keen-Eyed Navigator", "Vial Smasher the Fierce"), (), 100, "Malcolm and Vial Smasher",
        "Everett Delfel",
    ),
    "edhrec average 2024": (
        "https://edhrec.com/average-decks/adamaro-first-to-desire",
        {"GET /pages/average-decks/adamaro-first-to-desire.json": "edhrec_average_adamaro_2024.json"},
        ("Adamaro, First to Desire",), (), 100, "Average Deck for Adamaro, First to Desire", None,
    ),
}  # fmt: skip


def link_of(text: str) -> DeckLink:
    link = parse_deck_url(text)
    assert link is not None, text
    return link


def sites_for(session: aiohttp.ClientSession, site: Site, fake: FakeDeckSite, **options: Any) -> DeckSites:
    values: dict[str, Any] = {"contact_url": CONTACT, "min_interval": 0.0, "timeout": 5.0, **options}
    dead = "http://127.0.0.1:9"
    return DeckSites(session, archidekt_base=dead, moxfield_base=dead, bases={site: fake.base_url}, **values)


def in_section(fetched: FetchedDeck, section: Section) -> tuple[str, ...]:
    return tuple(sorted(e.name for e in fetched.deck.entries if e.section is section))


# -- links ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "site", "deck_id"),
    [
        ("https://tappedout.net/mtg-decks/mtg-parser-3-amigos/", Site.TAPPEDOUT, "mtg-parser-3-amigos"),
        ("http://m.tappedout.net/mtg-decks/food-chain-sliver?cat=custom#x", Site.TAPPEDOUT, "food-chain-sliver"),
        ("<www.mtggoldfish.com/deck/3935836>", Site.MTGGOLDFISH, "3935836"),
        ("https://www.mtggoldfish.com/deck/download/3935836", Site.MTGGOLDFISH, "3935836"),
        ("deckstats.net/decks/30198/2034245--mtg-parser-3-amigos/", Site.DECKSTATS, "30198/2034245--mtg-parser-3-amigos"),
        ("https://deckstats.net/decks/2034245-mtg-parser-3-Amigos", Site.DECKSTATS, "2034245-mtg-parser-3-Amigos"),
        (f"https://scryfall.com/@gorila/decks/{SCRYFALL_UUID}/", Site.SCRYFALL, f"gorila/decks/{SCRYFALL_UUID}"),
        ("https://www.aetherhub.com/Deck/Public/495763?utm_source=share", Site.AETHERHUB, "Public/495763"),
        ("https://decks.tcgplayer.com/magic/commander/gorila/3-amigos/1384198", Site.TCGPLAYER, "3-amigos/1384198"),
        ("https://edhrec.com/average-decks/atraxa-praetors-voice/budget", Site.EDHREC, "atraxa-praetors-voice/budget"),
    ],
)  # fmt: skip
def test_links_of_every_site_are_recognised(text: str, site: Site, deck_id: str) -> None:
    link = link_of(text)
    assert link == DeckLink(site, deck_id)
    assert link_of(link.url) == link  # the canonical page names the same deck


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("https://www.mtggoldfish.com/archetype/modern-rakdos-scam#paper", Code.ARCHETYPE),
        ("https://tappedout.net/users/gorila/", Code.MALFORMED_URL),
        ("https://deckstats.net/decks/30198/", Code.MALFORMED_URL),
        ("https://edhrec.com/commanders/atraxa-praetors-voice", Code.MALFORMED_URL),
        ("https://infinite.tcgplayer.com/magic-the-gathering/decks/advanced-search", Code.MALFORMED_URL),
    ],
)
def test_site_pages_that_are_no_deck_are_refused_without_a_request(text: str, code: Code) -> None:
    with raises(code) as info:
        parse_deck_url(text)
    assert info.value.site is not None


def test_look_alike_hosts_are_not_deck_sites() -> None:
    for text in (
        "https://tappedout.net.evil.example/mtg-decks/x/",
        "https://evil.example/edhrec.com/average-decks/x",
    ):
        assert parse_deck_url(text) is None


def test_defaults_point_at_the_real_hosts() -> None:
    from bot.settings import Settings

    defaults = Settings(_env_file=None)
    assert (defaults.tappedout_base, defaults.mtggoldfish_base, defaults.deckstats_base) == (
        "https://tappedout.net",
        "https://www.mtggoldfish.com",
        "https://deckstats.net",
    )
    assert (defaults.aetherhub_base, defaults.tcgplayer_decks_api_base, defaults.edhrec_json_base) == (
        "https://aetherhub.com",
        "https://infinite-api.tcgplayer.com",
        "https://json.edhrec.com",
    )


# -- real recorded answers --------------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(RECORDED))
async def test_recorded_answers_read_with_their_commanders(session: aiohttp.ClientSession, case: str) -> None:
    text, answers, commanders, companions, cards, name, owner = RECORDED[case]
    link = link_of(text)
    async with FakeDeckSite(answers, json_errors=link.site is Site.TCGPLAYER) as fake:
        fetched = await sites_for(session, link.site, fake).fetch(link)
    assert in_section(fetched, Section.COMMANDER) == commanders
    assert in_section(fetched, Section.COMPANION) == companions
    assert all(e.commander_marker for e in fetched.deck.commander_entries)
    assert fetched.deck.card_count == cards
    assert (fetched.name, fetched.owner) == (name, owner)
    assert fetched.deck.problems == []
    asked = {f"{r.path}" for r in fake.requests}
    assert all(r.headers["User-Agent"] == f"IdentityBot/{__version__} (+{CONTACT})" for r in fake.requests)
    assert {key.split(" ", 1)[1].split("?", 1)[0] for key in answers} <= asked  # what it read, it asked for
    assert len(fake.requests) <= 3


async def test_a_missing_endpoint_falls_back_to_the_next(session: aiohttp.ClientSession) -> None:
    """MTGGoldfish's component missing (an older site): the deck page; TappedOut's page missing: the widget."""
    link = link_of("https://www.mtggoldfish.com/deck/3935836")
    async with FakeDeckSite({"GET /deck/3935836": "mtggoldfish_page_2021.html"}) as fake:
        fetched = await sites_for(session, Site.MTGGOLDFISH, fake).fetch(link)
        assert [r.path for r in fake.requests] == ["/deck/component", "/deck/3935836"]
        assert fake.requests[0].headers["X-Requested-With"] == "XMLHttpRequest"
    assert fetched.deck.card_count == 99
    link = link_of("https://tappedout.net/mtg-decks/mtg-parser-3-amigos/")
    async with FakeDeckSite({WIDGET: "tappedout_widget_2026.json"}) as fake:
        sites = sites_for(session, Site.TAPPEDOUT, fake)
        assert (await sites.fetch(link)).deck.card_count == 100
        assert [r.path for r in fake.requests] == ["/mtg-decks/mtg-parser-3-amigos/", "/api/deck/widget/"]


async def test_a_redirect_is_followed_only_within_the_site(session: aiohttp.ClientSession) -> None:
    link = link_of("https://deckstats.net/decks/30198/2034245--mtg-parser-3-amigos")
    async with FakeDeckSite({"GET /decks/2034245-mtg-parser-3-Amigos": "deckstats_page_2026.html"}) as fake:
        fake.redirect("GET /decks/30198/2034245--mtg-parser-3-amigos", "/decks/2034245-mtg-parser-3-Amigos")
        sites = sites_for(session, Site.DECKSTATS, fake, cache_ttl=0)
        assert (await sites.fetch(link)).deck.card_count == 100
        fake.redirect("GET /decks/30198/2034245--mtg-parser-3-amigos", "https://deckstats.example/decks/1-x")
        with raises(Code.UNAVAILABLE) as info:
            await sites.fetch(link)
        assert info.value.data["reason"] == "redirect" and "follow" not in info.value.data
        assert {r.path for r in fake.requests} == {
            "/decks/30198/2034245--mtg-parser-3-amigos",
            "/decks/2034245-mtg-parser-3-Amigos",
        }


async def test_a_link_pasted_twice_is_read_once(session: aiohttp.ClientSession) -> None:
    text, answers, *_ = RECORDED["tcgplayer companion 2026"]
    clock = FakeClock()
    async with FakeDeckSite(answers) as fake:
        sites = sites_for(session, Site.TCGPLAYER, fake, clock=clock)
        await sites.fetch(link_of(text))
        clock.now += 59
        again = await sites.fetch(link_of(text.replace("https://infinite.", "infinite.")))
        assert len(fake.requests) == 1 and again.deck.card_count == 100


async def test_a_site_without_a_base_is_never_asked(session: aiohttp.ClientSession) -> None:
    sites = DeckSites(
        session, archidekt_base="http://127.0.0.1:9", moxfield_base="http://127.0.0.1:9", contact_url=CONTACT
    )
    with raises(Code.UNAVAILABLE) as info:
        await sites.fetch(link_of("https://edhrec.com/average-decks/adamaro-first-to-desire"))
    assert info.value.data == {"reason": "not_configured"}


# -- every failure its own answer -------------------------------------------------------------------------

FAILING = {name: RECORDED[name] for name in ("tappedout page 2025", "mtggoldfish page 2021", "deckstats page 2026",
           "scryfall csv 2026", "aetherhub json 2021 partners", "tcgplayer companion 2026", "edhrec average 2024")}  # fmt: skip


@pytest.mark.parametrize("case", sorted(FAILING))
async def test_each_failure_has_its_own_code(session: aiohttp.ClientSession, case: str) -> None:
    text, answers, *_ = FAILING[case]
    link = link_of(text)
    clock = FakeClock()
    async with FakeDeckSite(answers, json_errors=link.site in (Site.TCGPLAYER, Site.SCRYFALL)) as fake:
        sites = sites_for(session, link.site, fake, cache_ttl=0, clock=clock, lockout_seconds=1)
        fake.challenge = True
        with raises(Code.REFUSED) as info:
            await sites.fetch(link)
        assert info.value.data["status"] == 403
        fake.challenge = False
        fake.make_private(link.deck_id.rsplit("/", 1)[-1].split("-")[0])
        with raises(Code.NOT_FOUND if link.site is Site.EDHREC else Code.PRIVATE):
            await sites.fetch(link)
        fake.private.clear()
        fake.fail_next(429, retry_after=7)
        with raises(Code.RATE_LIMITED) as info:
            await sites.fetch(link)
        assert info.value.retry_after == 7
        clock.now += 8
        fake.fail_next(503)
        with raises(Code.UNAVAILABLE) as info:
            await sites.fetch(link)
        assert info.value.data["reason"] == "server_error"
        fake.malformed = "html"
        with raises(Code.NOT_A_DECK):
            await sites.fetch(link)
        fake.malformed = None
        fake.answers.clear()
        with raises(Code.NOT_FOUND):
            await sites.fetch(link)


def read(site: Site, deck_id: str, body: bytes) -> FetchedDeck:
    fetched = read_answer(DeckLink(site, deck_id), body.decode(), 1000)
    assert isinstance(fetched, FetchedDeck)
    return fetched


def test_unclear_lines_are_listed_as_unread_never_dropped() -> None:
    text = (DATA_DIR / "scryfall_export_2022.txt").read_text(encoding="utf-8")
    broken = text.replace("1 Sol Ring", "Sol Ring twice").replace("1 Ponder", "two Ponder")
    fetched = read(Site.SCRYFALL, "gorila/decks/x", broken.encode())
    assert sorted(p.text for p in fetched.deck.problems) == ["Sol Ring twice", "two Ponder"]
    assert {p.reason for p in fetched.deck.problems} == {EntryProblem.NO_NAME}
    assert fetched.deck.card_count == 97


def test_tappedout_csv_export_with_or_without_its_commander_column() -> None:
    """TappedOut's `?fmt=csv` header grew over the years (`Languange` typo, then Commander, Proxy)."""
    page = read(Site.TAPPEDOUT, "x", (DATA_DIR / "tappedout_page_2025.html").read_bytes())
    for header in (
        "Board,Qty,Name,Printing,Foil,Alter,Signed,Condition,Languange",
        "Board,Qty,Name,Printing,Foil,Alter,Signed,Condition,Language,Commander",
        "Board,Qty,Name,Printing,Foil,Alter,Signed,Condition,Language,Commander,Proxy",
    ):
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header.split(","))
        for e in page.deck.entries:
            board = "side" if e.section is Section.COMPANION else "main"
            writer.writerow(
                [board, e.count, e.name, "", "", "", "", "", "", str(e.section is Section.COMMANDER), ""]
            )
        fetched = read(Site.TAPPEDOUT, "x", out.getvalue().encode())
        marked = "Commander" in header
        assert in_section(fetched, Section.COMMANDER) == (AMIGOS if marked else ())
        assert fetched.deck.card_count == 100 if marked else 100
        assert in_section(fetched, Section.SIDEBOARD) == (OBOSH,)


def test_tcgplayer_card_without_a_name_is_unread() -> None:
    body = (
        (DATA_DIR / "tcgplayer_cat_base_2026.json").read_bytes().replace(b'"name": "Sol Ring"', b'"nom": 1')
    )
    fetched = read(Site.TCGPLAYER, "x/465171", body)
    (problem,) = fetched.deck.problems
    assert problem.reason is EntryProblem.NO_NAME and fetched.deck.card_count == 99


def test_each_failure_has_its_own_words_and_the_sites_export() -> None:
    from bot.present.decklinks import deck_link_error_text

    texts = {code: deck_link_error_text(code.value, "TappedOut", 30) for code in Code}
    assert len(set(texts.values())) == len(texts)
    assert (
        texts[Code.REFUSED].startswith("TappedOut refused an automatic read")
        and "Export → CSV" in texts[Code.REFUSED]
    )
    assert "More → Export" in deck_link_error_text("refused", "Moxfield")
    assert "archetype, a summary of many decks, not a deck" in deck_link_error_text(
        "archetype", "MTGGoldfish"
    )
