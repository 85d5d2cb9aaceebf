"""Deck links from Archidekt and Moxfield, against fake servers on 127.0.0.1 (tests/fakes/decksites.py)."""

from __future__ import annotations

import asyncio
import copy
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot import __version__
from bot.cards.service import CardService
from bot.deck.check import DeckInput, check_deck
from bot.deck.entries import Section
from bot.deck.report import ProblemKind
from bot.deck.sources import DeckLink, DeckSites, DeckSourceError, FetchedDeck, Site, parse_deck_url
from bot.deck.sources import DeckSourceErrorCode as Code
from bot.deck.sources.fetch import ASKS
from bot.deck.sources.result import EntryProblem, read_archidekt, read_moxfield
from bot.present.deck_report import problem_text
from tests.deck.test_deck_runner import paced_cards
from tests.fakes.decksites import FakeArchidekt, FakeClock, FakeMoxfield, load_sample, raises, to_v3
from tests.fakes.scryfall import FakeScryfall

CONTACT = "https://example.test/identitybot"
ARCHIDEKT_PARTNERS = load_sample("archidekt_partners.json")
ARCHIDEKT_SINGLE = load_sample("archidekt_commander.json")
MOXFIELD_SINGLE = load_sample("moxfield_commander.json")
MOXFIELD_PARTNERS_V2 = load_sample("moxfield_partners_v2.json")

ARCHIDEKT_ID = str(ARCHIDEKT_PARTNERS["id"])
MOXFIELD_ID = MOXFIELD_SINGLE["publicId"]


def archidekt_link(deck: dict[str, Any] = ARCHIDEKT_PARTNERS) -> DeckLink:
    link = parse_deck_url(f"https://archidekt.com/decks/{deck['id']}/some_slug")
    assert link is not None
    return link


def moxfield_link(deck: dict[str, Any] = MOXFIELD_SINGLE) -> DeckLink:
    link = parse_deck_url(f"https://www.moxfield.com/decks/{deck['publicId']}")
    assert link is not None
    return link


def archidekt_variant(new_id: int) -> dict[str, Any]:
    deck = copy.deepcopy(ARCHIDEKT_SINGLE)
    deck["id"] = new_id
    return deck


@pytest.fixture
async def archidekt() -> AsyncIterator[FakeArchidekt]:
    async with FakeArchidekt([copy.deepcopy(ARCHIDEKT_PARTNERS), copy.deepcopy(ARCHIDEKT_SINGLE)]) as fake:
        yield fake


@pytest.fixture
async def card_service(fake_scryfall: FakeScryfall, tmp_path: Path) -> AsyncIterator[CardService]:
    """The card service on the fake Scryfall, its request budget on a stepping fake clock (no real waits)."""
    async with paced_cards(fake_scryfall, tmp_path) as cards:
        yield cards


@pytest.fixture
async def moxfield() -> AsyncIterator[FakeMoxfield]:
    async with FakeMoxfield([copy.deepcopy(MOXFIELD_SINGLE), copy.deepcopy(MOXFIELD_PARTNERS_V2)]) as fake:
        yield fake


def make_sites(
    session: aiohttp.ClientSession,
    archidekt: FakeArchidekt | None = None,
    moxfield: FakeMoxfield | None = None,
    **options: Any,
) -> DeckSites:
    values: dict[str, Any] = {
        "contact_url": CONTACT,
        "min_interval": 0.0,
        "timeout": 3.0,
        "archidekt_base": "http://127.0.0.1:9",
        "moxfield_base": "http://127.0.0.1:9",
    }
    if archidekt is not None:
        values["archidekt_base"] = archidekt.base_url
    if moxfield is not None:
        values["moxfield_base"] = moxfield.base_url
    values.update(options)
    return DeckSites(session, **values)


def commanders_of(fetched: FetchedDeck) -> tuple[str, ...]:
    return tuple(e.name for e in fetched.deck.commander_entries)


def names(fetched: FetchedDeck, section: Section) -> list[str]:
    return [e.name for e in fetched.deck.entries if e.section is section]


# -- parse_deck_url -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "site", "deck_id"),
    [
        ("https://archidekt.com/decks/7281944/tymna_thrasios", Site.ARCHIDEKT, "7281944"),
        ("https://www.archidekt.com/decks/7281944", Site.ARCHIDEKT, "7281944"),
        ("https://archidekt.com/decks/7281944/", Site.ARCHIDEKT, "7281944"),
        ("https://archidekt.com/decks/7281944/slug?view=table#Sideboard", Site.ARCHIDEKT, "7281944"),
        ("http://archidekt.com/decks/42#x", Site.ARCHIDEKT, "42"),
        ("archidekt.com/decks/42/slug", Site.ARCHIDEKT, "42"),
        ("https://archidekt.com/api/decks/42/", Site.ARCHIDEKT, "42"),
        ("  <https://ARCHIDEKT.com/decks/0042/slug>  ", Site.ARCHIDEKT, "42"),
        ("https://www.moxfield.com/decks/H_9XBcW317Loe7nrOx11r_", Site.MOXFIELD, "H_9XBcW317Loe7nrOx11r_"),
        ("https://moxfield.com/decks/H_9XBcW317Loe7nrOx11r_", Site.MOXFIELD, "H_9XBcW317Loe7nrOx11r_"),
        ("moxfield.com/decks/H_9XBcW317Loe7nrOx11r_/primer?tab=1#a", Site.MOXFIELD, "H_9XBcW317Loe7nrOx11r_"),
        ("www.moxfield.com/decks/0OpflgKa-hD5fs6VNRFySN", Site.MOXFIELD, "0OpflgKa-hD5fs6VNRFySN"),
    ],
)
def test_deck_urls_are_recognised(text: str, site: Site, deck_id: str) -> None:
    link = parse_deck_url(text)
    assert link == DeckLink(site, deck_id)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "Sol Ring",
        "https://example.com/decks/42",
        "https://archidekt.com.evil.example/decks/42",
        "https://evil.example/archidekt.com/decks/42",
        "ftp://archidekt.com/decks/42",
        "tappedout.net.evil.example/mtg-decks/x/",
        "https://user@archidekt.com/decks/42",
        "https://moxfield.com/decks/abc def",
        "archidekt",
    ],
)
def test_other_text_is_not_a_deck_link(text: str) -> None:
    assert parse_deck_url(text) is None


@pytest.mark.parametrize(
    ("text", "site"),
    [
        ("https://archidekt.com/decks/", Site.ARCHIDEKT),
        ("https://archidekt.com/decks/not-a-number/slug", Site.ARCHIDEKT),
        ("https://archidekt.com/search/decks?name=tymna", Site.ARCHIDEKT),
        ("https://www.archidekt.com", Site.ARCHIDEKT),
        ("https://www.moxfield.com/decks/personal", Site.MOXFIELD),
        ("https://moxfield.com/decks/public?filter=commander", Site.MOXFIELD),
        ("https://moxfield.com/users/samplebrewer", Site.MOXFIELD),
        ("moxfield.com", Site.MOXFIELD),
        ("https://scryfall.com/card/c21/263/sol-ring", Site.SCRYFALL),
    ],
)
def test_known_site_without_deck_id_is_a_clear_error(text: str, site: Site) -> None:
    with raises(Code.MALFORMED_URL) as info:
        parse_deck_url(text)
    assert info.value.code.value == "malformed_url"
    assert info.value.site is site
    assert info.value.data["reason"] == "no_deck_id"


def test_canonical_urls() -> None:
    assert DeckLink(Site.ARCHIDEKT, "42").url == "https://archidekt.com/decks/42"
    assert DeckLink(Site.MOXFIELD, "abcDEF_-123").url == "https://www.moxfield.com/decks/abcDEF_-123"


async def test_api_url_is_built_from_the_configured_base(session: aiohttp.ClientSession) -> None:
    sites = DeckSites(
        session,
        archidekt_base="https://a.example/api/",
        moxfield_base="https://m.example",
        contact_url=CONTACT,
    )

    def api_url(link: DeckLink) -> str:  # the first address asked for a link: the configured base
        return sites.bases[link.site] + ASKS[link.site](link.deck_id)[0].path

    assert api_url(DeckLink(Site.ARCHIDEKT, "42")) == "https://a.example/api/decks/42/"
    assert api_url(DeckLink(Site.MOXFIELD, "abcDEF_-123")) == "https://m.example/v3/decks/all/abcDEF_-123"


def test_defaults_point_at_the_real_apis() -> None:
    from bot.settings import Settings

    defaults = Settings(_env_file=None)
    assert defaults.archidekt_api_base == "https://archidekt.com/api"
    assert defaults.moxfield_api_base == "https://api2.moxfield.com"


# -- public decks -----------------------------------------------------------------------------------------


def expected_archidekt(deck: dict[str, Any]) -> tuple[int, set[str], set[str]]:
    """(cards in the deck, commanders, out-of-deck names) worked out from the sample's own categories."""
    excluded = {c["name"] for c in deck["categories"] if not c["includedInDeck"]}
    in_deck = 0
    commanders: set[str] = set()
    outside: set[str] = set()
    for item in deck["cards"]:
        name = item["card"]["oracleCard"]["name"]
        if "Commander" in item["categories"]:
            commanders.add(name)
        if item["categories"] and item["categories"][0] in excluded:
            outside.add(name)
        else:
            in_deck += item["quantity"]
    return in_deck, commanders, outside


async def test_public_archidekt_deck(session: aiohttp.ClientSession, archidekt: FakeArchidekt) -> None:
    sites = make_sites(session, archidekt)
    fetched = await sites.fetch(archidekt_link())

    assert fetched.site is Site.ARCHIDEKT and fetched.deck_id == ARCHIDEKT_ID
    assert fetched.url == f"https://archidekt.com/decks/{ARCHIDEKT_ID}"
    assert fetched.name == fetched.deck.deck_name == ARCHIDEKT_PARTNERS["name"]
    # The commanders are the ones the deck marks, a partner pair.
    assert commanders_of(fetched) == ("Thrasios, Triton Hero", "Tymna the Weaver")
    in_deck, commanders, outside = expected_archidekt(ARCHIDEKT_PARTNERS)
    assert set(commanders_of(fetched)) == commanders
    assert fetched.deck.card_count == in_deck == 100
    assert {e.name for e in fetched.deck.excluded_entries} == outside
    assert names(fetched, Section.SIDEBOARD) == ["Fire // Ice", "Kraum, Ludevic's Opus"]
    assert names(fetched, Section.MAYBEBOARD) == [
        "Lightning Bolt",
        "Thassa's Oracle",
        "Valakut Awakening // Valakut Stoneforge",
    ]
    main = names(fetched, Section.MAIN)
    assert "Life // Death" in main  # split card
    assert "Search for Azcanta // Azcanta, the Sunken Ruin" in main  # double-faced card
    assert fetched.deck.problems == []
    # line = position in the deck: 1..n, commanders first, then alphabetical within a section.
    assert [e.line for e in fetched.deck.entries] == list(range(1, len(fetched.deck.entries) + 1))
    assert main == sorted(main, key=str.casefold)
    islands = next(e for e in fetched.deck.entries if e.name == "Island")
    assert islands.count > 1

    (request,) = archidekt.requests
    assert request.path == f"/api/decks/{ARCHIDEKT_ID}/"
    assert request.headers["User-Agent"] == f"IdentityBot/{__version__} (+{CONTACT})"
    assert request.headers["Accept"] == "application/json"


async def test_public_moxfield_deck(session: aiohttp.ClientSession, moxfield: FakeMoxfield) -> None:
    sites = make_sites(session, moxfield=moxfield)
    fetched = await sites.fetch(moxfield_link())

    assert fetched.site is Site.MOXFIELD and fetched.deck_id == MOXFIELD_ID
    assert fetched.url == f"https://www.moxfield.com/decks/{MOXFIELD_ID}" == MOXFIELD_SINGLE["publicUrl"]
    assert fetched.name == MOXFIELD_SINGLE["name"]
    board_names = {e["card"]["name"] for e in MOXFIELD_SINGLE["boards"]["commanders"]["cards"].values()}
    assert set(commanders_of(fetched)) == board_names == {"Niv-Mizzet, Parun"}
    expected_main = sum(
        e["quantity"]
        for b in ("commanders", "mainboard")
        for e in MOXFIELD_SINGLE["boards"][b]["cards"].values()
    )
    assert fetched.deck.card_count == expected_main == 100
    assert names(fetched, Section.SIDEBOARD) == ["Tymna the Weaver"]
    assert names(fetched, Section.MAYBEBOARD) == [
        "Life // Death",
        "Search for Azcanta // Azcanta, the Sunken Ruin",
    ]
    main = names(fetched, Section.MAIN)
    assert {
        "Fire // Ice",
        "Delver of Secrets // Insectile Aberration",
        "Valakut Awakening // Valakut Stoneforge",
    } <= set(main)
    assert fetched.deck.entries[0].name == "Niv-Mizzet, Parun" and fetched.deck.entries[0].commander_marker
    (request,) = moxfield.requests
    assert request.path == f"/v3/decks/all/{MOXFIELD_ID}"
    assert request.headers["User-Agent"].startswith(f"IdentityBot/{__version__}")


def test_moxfield_v2_shape_and_v3_shape_read_the_same() -> None:
    public_id = MOXFIELD_PARTNERS_V2["publicId"]
    from_v2 = read_moxfield(copy.deepcopy(MOXFIELD_PARTNERS_V2), public_id)
    from_v3 = read_moxfield(to_v3(copy.deepcopy(MOXFIELD_PARTNERS_V2)), public_id)
    assert commanders_of(from_v2) == ("Kraum, Ludevic's Opus", "Tymna the Weaver")
    assert from_v2.deck.card_count == 100
    assert [(e.name, e.count, e.section) for e in from_v2.deck.entries] == [
        (e.name, e.count, e.section) for e in from_v3.deck.entries
    ]


async def test_moxfield_unlisted_deck_is_readable(
    session: aiohttp.ClientSession, moxfield: FakeMoxfield
) -> None:
    moxfield.decks[MOXFIELD_ID]["visibility"] = "unlisted"
    fetched = await make_sites(session, moxfield=moxfield).fetch(moxfield_link())
    assert fetched.deck.card_count == 100


def test_unknown_moxfield_board_is_reported_not_dropped() -> None:
    deck = copy.deepcopy(MOXFIELD_SINGLE)
    extra = copy.deepcopy(next(iter(deck["boards"]["mainboard"]["cards"].values())))
    deck["boards"]["dungeons"] = {"count": 1, "cards": {"zz": extra}}
    fetched = read_moxfield(deck, MOXFIELD_ID)
    (problem,) = fetched.deck.problems
    assert problem.reason == EntryProblem.UNKNOWN_BOARD and problem.text == extra["card"]["name"]
    assert fetched.deck.card_count == 100


def test_unreadable_entries_become_problems_with_positions() -> None:
    deck = copy.deepcopy(ARCHIDEKT_SINGLE)
    deck["cards"][0]["quantity"] = "two"
    deck["cards"][1]["card"]["oracleCard"] = {"id": 1}
    fetched = read_archidekt(deck, str(deck["id"]))
    assert len(fetched.deck.problems) == 2
    assert sorted(p.reason for p in fetched.deck.problems) == [
        EntryProblem.COUNT_NOT_WHOLE,
        EntryProblem.NO_NAME,
    ]
    report = check_deck(DeckInput(fetched.deck))
    words = {problem_text(p).rsplit(": ", 1)[1] for p in report.of_kind(ProblemKind.UNREADABLE)}
    assert words == {"the quantity is not a whole number", "the site\u2019s entry has no card name"}
    lines = {e.line for e in fetched.deck.entries} | {p.line for p in fetched.deck.problems}
    assert lines == set(range(1, len(deck["cards"]) + 1))


def test_archidekt_excluded_custom_category_and_companion() -> None:
    deck = copy.deepcopy(ARCHIDEKT_SINGLE)
    deck["categories"].append(
        {
            "id": 1,
            "name": "Proxies To Print",
            "includedInDeck": False,
            "includedInPrice": False,
            "isPremier": False,
        }
    )
    first, second = deck["cards"][0], deck["cards"][1]
    first["categories"] = ["Proxies To Print", "Creature"]
    second["companion"] = True
    fetched = read_archidekt(deck, str(deck["id"]))
    first_name = first["card"]["oracleCard"]["name"]
    second_name = second["card"]["oracleCard"]["name"]
    assert first_name in names(fetched, Section.MAYBEBOARD)
    assert names(fetched, Section.COMPANION) == [second_name]
    assert fetched.deck.card_count == 100 - first["quantity"] - second["quantity"]


# -- private, missing, malformed ------------------------------------------------------------------------


async def test_private_archidekt_deck(session: aiohttp.ClientSession, archidekt: FakeArchidekt) -> None:
    archidekt.make_private(ARCHIDEKT_ID)
    sites = make_sites(session, archidekt)
    with raises(Code.PRIVATE) as info:
        await sites.fetch(archidekt_link())
    assert info.value.code.value == "private" and info.value.site is Site.ARCHIDEKT
    assert info.value.data["status"] == 403
    assert info.value.url == f"https://archidekt.com/decks/{ARCHIDEKT_ID}"


async def test_archidekt_deck_marked_private_in_the_answer(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt
) -> None:
    archidekt.decks[ARCHIDEKT_ID]["private"] = True
    with raises(Code.PRIVATE) as info:
        await make_sites(session, archidekt).fetch(archidekt_link())
    assert info.value.data["status"] == 200


async def test_private_moxfield_deck(session: aiohttp.ClientSession, moxfield: FakeMoxfield) -> None:
    moxfield.make_private(MOXFIELD_ID)
    with raises(Code.PRIVATE) as info:
        await make_sites(session, moxfield=moxfield).fetch(moxfield_link())
    assert info.value.site is Site.MOXFIELD and info.value.data["status"] == 403


async def test_moxfield_visibility_private_or_deleted(
    session: aiohttp.ClientSession, moxfield: FakeMoxfield
) -> None:
    sites = make_sites(session, moxfield=moxfield, cache_ttl=0)
    moxfield.decks[MOXFIELD_ID]["visibility"] = "private"
    with raises(Code.PRIVATE):
        await sites.fetch(moxfield_link())
    moxfield.decks[MOXFIELD_ID]["visibility"] = "deleted"
    with raises(Code.NOT_FOUND):
        await sites.fetch(moxfield_link())


@pytest.mark.parametrize("site", [Site.ARCHIDEKT, Site.MOXFIELD])
async def test_missing_deck(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt, moxfield: FakeMoxfield, site: Site
) -> None:
    sites = make_sites(session, archidekt, moxfield)
    link = (
        DeckLink(Site.ARCHIDEKT, "999999")
        if site is Site.ARCHIDEKT
        else DeckLink(site, "AAAAAAAAAAAAAAAAAAAAAA")
    )
    with raises(Code.NOT_FOUND) as info:
        await sites.fetch(link)
    assert info.value.code.value == "not_found" and info.value.site is site
    assert info.value.data["status"] == 404


@pytest.mark.parametrize(
    ("mode", "reason"), [("json", "malformed_json"), ("html", "malformed_json"), ("shape", "shape")]
)
@pytest.mark.parametrize("site", [Site.ARCHIDEKT, Site.MOXFIELD])
async def test_malformed_answer(
    session: aiohttp.ClientSession,
    archidekt: FakeArchidekt,
    moxfield: FakeMoxfield,
    site: Site,
    mode: str,
    reason: str,
) -> None:
    fake = archidekt if site is Site.ARCHIDEKT else moxfield
    fake.malformed = mode
    sites = make_sites(session, archidekt, moxfield)
    link = archidekt_link() if site is Site.ARCHIDEKT else moxfield_link()
    with raises(Code.NOT_A_DECK) as info:
        await sites.fetch(link)
    assert info.value.code.value == "not_a_deck" and info.value.data["reason"] == reason
    # Errors are not cached: once the site answers properly, the deck reads.
    fake.malformed = None
    assert (await sites.fetch(link)).deck.card_count == 100
    assert fake.count() == 2


def test_answer_for_another_deck_or_with_no_readable_entry_is_not_a_deck() -> None:
    with raises(Code.NOT_A_DECK) as info:
        read_archidekt(copy.deepcopy(ARCHIDEKT_SINGLE), "1")
    assert info.value.data["reason"] == "mismatched_id"
    broken = copy.deepcopy(ARCHIDEKT_SINGLE)
    for item in broken["cards"]:
        item["card"] = {}
    with raises(Code.NOT_A_DECK) as info:
        read_archidekt(broken, str(broken["id"]))
    assert info.value.data["reason"] == "no_entries"
    with raises(Code.NOT_A_DECK):
        read_moxfield({"publicId": MOXFIELD_ID, "boards": {"mainboard": {"cards": []}}}, MOXFIELD_ID)


# -- timeouts, size, availability -----------------------------------------------------------------------


async def test_slow_site_times_out(session: aiohttp.ClientSession, archidekt: FakeArchidekt) -> None:
    archidekt.delay = 2.0
    sites = make_sites(session, archidekt, timeout=0.3)
    started = time.monotonic()
    with raises(Code.UNAVAILABLE) as info:
        await sites.fetch(archidekt_link())
    assert time.monotonic() - started < archidekt.delay  # cut off by the timeout, never the slow answer
    assert info.value.code.value == "unavailable"
    assert info.value.data["reason"] == "timeout" and info.value.data["seconds"] == 0.3


async def test_too_large_by_content_length(session: aiohttp.ClientSession, moxfield: FakeMoxfield) -> None:
    sites = make_sites(session, moxfield=moxfield, max_bytes=50_000)
    with raises(Code.TOO_LARGE) as info:
        await sites.fetch(moxfield_link())
    assert info.value.code.value == "too_large"
    assert info.value.data["unit"] == "bytes" and info.value.data["limit"] == 50_000
    assert info.value.data["size"] > 50_000


async def test_too_large_is_enforced_while_streaming(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt
) -> None:
    total = 40 * 1024 * 1024
    archidekt.oversize = total
    sites = make_sites(session, archidekt, max_bytes=1024 * 1024)
    with raises(Code.TOO_LARGE) as info:
        await sites.fetch(archidekt_link())
    assert 1024 * 1024 < info.value.data["size"] <= 1024 * 1024 + 64 * 1024
    # The client hung up: the server's stream broke off long before its end.
    for _ in range(100):
        if archidekt.aborted:
            break
        await asyncio.sleep(0.02)
    assert archidekt.aborted == 1
    assert archidekt.streamed < total // 2


async def test_declared_oversize_is_refused_before_reading(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt
) -> None:
    archidekt.oversize, archidekt.declare_length = 5 * 1024 * 1024, True
    with raises(Code.TOO_LARGE) as info:
        await make_sites(session, archidekt).fetch(archidekt_link())
    assert info.value.data["size"] == 5 * 1024 * 1024 and info.value.data["limit"] == 4 * 1024 * 1024


def test_too_many_entries() -> None:
    with raises(Code.TOO_LARGE) as info:
        read_moxfield(copy.deepcopy(MOXFIELD_SINGLE), MOXFIELD_ID, max_entries=50)
    assert info.value.data == {"limit": 50, "unit": "entries", "size": 79}


async def test_unreachable_site(session: aiohttp.ClientSession) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    sites = DeckSites(
        session,
        archidekt_base=f"http://127.0.0.1:{port}/api",
        moxfield_base="http://127.0.0.1:9",
        contact_url=CONTACT,
        min_interval=0,
    )
    with raises(Code.UNAVAILABLE) as info:
        await sites.fetch(archidekt_link())
    assert info.value.data["reason"] == "unreachable"


@pytest.mark.parametrize(
    ("status", "reason"), [(503, "server_error"), (302, "redirect"), (418, "http_status")]
)
async def test_other_answers_are_unavailable(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt, status: int, reason: str
) -> None:
    archidekt.fail_next(status)
    sites = make_sites(session, archidekt)
    with raises(Code.UNAVAILABLE) as info:
        await sites.fetch(archidekt_link())
    assert info.value.data == {
        "reason": reason,
        "status": status,
        **({"location": ""} if status == 302 else {}),
    }
    assert (await sites.fetch(archidekt_link())).deck.card_count == 100  # not cached, not locked


async def test_user_agent_is_enforced(session: aiohttp.ClientSession) -> None:
    async with FakeMoxfield([copy.deepcopy(MOXFIELD_SINGLE)], required_agent="MoxAllowed/") as moxfield:
        refused = make_sites(session, moxfield=moxfield)
        with raises(Code.REFUSED) as info:
            await refused.fetch(moxfield_link())
        assert info.value.code is Code.REFUSED and info.value.data == {"status": 403}  # not a private deck
        allowed = make_sites(session, moxfield=moxfield, moxfield_user_agent="MoxAllowed/1.0 (identitybot)")
        fetched = await allowed.fetch(moxfield_link())
        assert fetched.deck.card_count == 100
        assert [r.headers["User-Agent"] for r in moxfield.requests] == [
            f"IdentityBot/{__version__} (+{CONTACT})",
            "MoxAllowed/1.0 (identitybot)",
        ]


# -- cache and single flight ----------------------------------------------------------------------------


async def test_second_fetch_is_cached(session: aiohttp.ClientSession, archidekt: FakeArchidekt) -> None:
    clock = FakeClock()
    sites = make_sites(session, archidekt, clock=clock)
    first = await sites.fetch(archidekt_link())
    first.deck.entries.clear()  # the caller's copy; the cache keeps its own
    clock.now += 299
    second = await sites.fetch(archidekt_link())
    assert archidekt.count() == 1  # the second came from the cache
    assert second.deck.card_count == 100 and commanders_of(second) == (
        "Thrasios, Triton Hero",
        "Tymna the Weaver",
    )
    clock.now += 2  # 301 s after the first fetch: expired
    third = await sites.fetch(archidekt_link())
    assert third.deck.card_count == 100 and archidekt.count() == 2


async def test_cache_is_bounded(session: aiohttp.ClientSession, archidekt: FakeArchidekt) -> None:
    sites = make_sites(session, archidekt, cache_size=1)
    single = parse_deck_url(f"https://archidekt.com/decks/{ARCHIDEKT_SINGLE['id']}")
    assert single is not None
    await sites.fetch(archidekt_link())
    await sites.fetch(single)
    await sites.fetch(single)
    await sites.fetch(archidekt_link())
    assert archidekt.count(ARCHIDEKT_ID) == 2 and archidekt.count(single.deck_id) == 1


async def test_concurrent_fetches_of_one_deck_share_one_request(
    session: aiohttp.ClientSession, moxfield: FakeMoxfield
) -> None:
    moxfield.delay = 0.2
    sites = make_sites(session, moxfield=moxfield)
    results = await asyncio.gather(*(sites.fetch(moxfield_link()) for _ in range(3)))
    assert moxfield.count() == 1
    assert all(r.deck.card_count == 100 for r in results)
    assert len({id(r.deck.entries) for r in results}) == 3  # each caller owns its lists


# -- politeness -----------------------------------------------------------------------------------------


async def test_rate_limit_is_honoured_per_site(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt, moxfield: FakeMoxfield
) -> None:
    third = archidekt.add(archidekt_variant(5113208))
    sites = make_sites(session, archidekt, moxfield, min_interval=60, max_wait=0)
    links = [archidekt_link(), archidekt_link(ARCHIDEKT_SINGLE), DeckLink(Site.ARCHIDEKT, third)]
    results = await asyncio.gather(
        *(sites.fetch(link) for link in links), sites.fetch(moxfield_link()), return_exceptions=True
    )
    # One Archidekt request; the other two would wait a minute for their turn: refused at once, no request.
    assert isinstance(results[0], FetchedDeck) and archidekt.count() == 1
    for busy in results[1:3]:
        assert isinstance(busy, DeckSourceError) and busy.code is Code.BUSY
        assert busy.retry_after == 60 and busy.retry_after_seconds == 60
    # Moxfield has its own turn: not held up by Archidekt's.
    assert isinstance(results[3], FetchedDeck) and moxfield.count() == 1


async def test_sequential_fetches_wait_their_turn(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt
) -> None:
    sites = make_sites(session, archidekt, min_interval=0.2, max_wait=1.0)
    await sites.fetch(archidekt_link())
    await sites.fetch(archidekt_link(ARCHIDEKT_SINGLE))
    first, second = archidekt.times()
    assert second - first >= 0.15


async def test_site_429_locks_that_site_only(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt, moxfield: FakeMoxfield
) -> None:
    archidekt.fail_next(429, retry_after=5)
    clock = FakeClock()
    sites = make_sites(session, archidekt, moxfield, lockout_seconds=2.0, clock=clock)
    with raises(Code.RATE_LIMITED) as info:
        await sites.fetch(archidekt_link())
    assert info.value.retry_after == 5.0
    # While locked, Archidekt links fail at once without a request; Moxfield still works.
    clock.now += 1
    with raises(Code.RATE_LIMITED) as again:
        await sites.fetch(archidekt_link(ARCHIDEKT_SINGLE))
    assert again.value.retry_after == 4.0 and archidekt.count() == 1
    assert (await sites.fetch(moxfield_link())).deck.card_count == 100
    clock.now += 4  # the lockout is over
    assert (await sites.fetch(archidekt_link(ARCHIDEKT_SINGLE))).deck.card_count == 100


async def test_429_without_retry_after_uses_the_lockout(
    session: aiohttp.ClientSession, moxfield: FakeMoxfield
) -> None:
    moxfield.fail_next(429)
    clock = FakeClock()
    sites = make_sites(session, moxfield=moxfield, lockout_seconds=30, clock=clock)
    with raises(Code.RATE_LIMITED) as info:
        await sites.fetch(moxfield_link())
    assert info.value.retry_after == 30
    clock.now += 29.9
    with raises(Code.RATE_LIMITED):
        await sites.fetch(moxfield_link())
    clock.now += 0.2
    assert (await sites.fetch(moxfield_link())).deck.card_count == 100
    assert moxfield.count() == 2


def test_error_codes_say_what_and_when() -> None:
    limited = DeckSourceError(Code.RATE_LIMITED, Site.MOXFIELD, retry_after=2.2)
    assert limited.retry_after_seconds == 3
    assert DeckSourceError(Code.BUSY, Site.ARCHIDEKT, retry_after=0.1).retry_after_seconds == 1
    private = DeckSourceError(Code.PRIVATE, Site.MOXFIELD, status=403)
    assert private.retry_after_seconds is None and private.data == {"status": 403}
    assert "moxfield" in str(private) and "private" in str(private)


async def test_aclose_cancels_fetches_in_flight(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt
) -> None:
    archidekt.delay = 5.0
    sites = make_sites(session, archidekt)
    waiter = asyncio.ensure_future(sites.fetch(archidekt_link()))
    await asyncio.wait_for(archidekt.received.wait(), 10)  # the request is in flight: the fake holds it
    await sites.aclose()
    with pytest.raises(asyncio.CancelledError):
        await waiter


@pytest.mark.parametrize("sample", ["archidekt_partners.json", "moxfield_commander.json"])
async def test_fetched_deck_goes_through_the_deck_check(
    session: aiohttp.ClientSession,
    archidekt: FakeArchidekt,
    moxfield: FakeMoxfield,
    card_service: Any,
    sample: str,
) -> None:
    """A deck link's deck, with the commanders the site marks, checks like a pasted list (fake Scryfall)."""
    from bot.deck.runner import check_decklist

    deck = load_sample(sample)
    link = archidekt_link(deck) if sample.startswith("archidekt") else moxfield_link(deck)
    fetched = await make_sites(session, archidekt, moxfield).fetch(link)
    report, _resolved = await check_decklist(card_service, fetched.deck, *commanders_of(fetched))
    assert report.commanders == commanders_of(fetched)
    assert report.card_count == 100
    assert report.legal, [p.kind for p in report.problems]
    outside = [e for e in fetched.deck.excluded_entries if e.section is not Section.COMPANION]
    assert sum(report.excluded.values()) == sum(e.count for e in outside) > 0


async def test_sideboard_card_moved_into_the_deck_is_checked(
    session: aiohttp.ClientSession, archidekt: FakeArchidekt, card_service: Any
) -> None:
    """Fire // Ice leaves the sideboard for the deck: its red half is outside Tymna + Thrasios (WUBG)."""
    from bot.deck.runner import check_decklist

    item = next(
        c for c in archidekt.decks[ARCHIDEKT_ID]["cards"] if c["card"]["oracleCard"]["name"] == "Fire // Ice"
    )
    item["categories"] = ["Instant"]
    fetched = await make_sites(session, archidekt).fetch(archidekt_link())
    report, _resolved = await check_decklist(card_service, fetched.deck, *commanders_of(fetched))
    (color,) = report.of_kind(ProblemKind.COLOR)
    assert color.card == "Fire // Ice" and color.outside == "R"
    assert color.lines == (next(e.line for e in fetched.deck.entries if e.name == "Fire // Ice"),)
    assert report.card_count == 101 and report.of_kind(ProblemKind.SIZE)
