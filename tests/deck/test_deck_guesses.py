"""No finding from a guessed card (issue 19): names are read exactly, a name that is no card or could not be
checked is reported with its close names and nothing else is said about it; sections that are not the deck
are counted by section; the companion is checked against the commanders' color identity."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from functools import lru_cache

import pytest

from bot.cards.bulk import import_file
from bot.cards.model import Batch, Resolved
from bot.cards.names import names_card, normalize
from bot.compose import open_cards
from bot.deck.check import DeckInput, check_deck
from bot.deck.entries import Section
from bot.deck.parser import parse
from bot.deck.report import NOT_IN_LOCAL_DATA, ProblemKind
from bot.deck.runner import check_decklist
from bot.present.deck_report import problem_text, summary_embed, text_report
from tests.fakes.budget import FastForwardBudget
from tests.fakes.fixtures import fake_settings
from tests.fakes.scryfall import FakeScryfall
from tests.shared_data import all_cards, card, cards_by_name

THRASIOS, TYMNA = "Thrasios, Triton Hero", "Tymna the Weaver"


@lru_cache(maxsize=1)
def similar_pairs() -> list[tuple[str, str]]:
    """Real pairs (A, B) of the data where every word of A's name is in B's name and in no other name: the
    kind of pair a name matcher reads as one card (Kyoshi Warriors -> Suki, Kyoshi Warrior). B can lead a
    deck (a legendary creature), A can't, so a guess would give "2 copies" of the commander."""
    names = {c["name"]: c for c in all_cards() if c.get("layout") == "normal"}
    words = {n: set(normalize(n).split()) for n in names}
    holders: dict[str, set[str]] = defaultdict(set)
    for name, ws in words.items():
        for w in ws:
            holders[w].add(name)
    pairs = []
    for a, ws in sorted(words.items()):
        others = set.intersection(*(holders[w] for w in ws)) - {a} if len(ws) > 1 else set()
        if len(others) == 1:
            b = others.pop()
            if (
                "Legendary Creature" in names[b]["type_line"]
                and "Legendary" not in names[a]["type_line"]
                and not b.startswith("A-")
                and names[b]["legalities"].get("commander") == "legal"
            ):
                pairs.append((a, b))
    return pairs


class GuessingCards:
    """A card source that answers every name with a card of another, close name (as a fuzzy matcher may)."""

    has_local_data = True

    def __init__(self, guesses: dict[str, str], source: str = "local") -> None:
        self.guesses = guesses
        self.source = source

    async def resolve_many(self, names: list[str]) -> Batch:
        return Batch(found={n: Resolved(card(self.guesses.get(n, n)), self.source) for n in names})  # type: ignore[arg-type]

    async def resolve_commander(self, name: str) -> Resolved:
        return Resolved(card(name), "local")

    async def autocomplete(self, prefix: str, *, commanders_only: bool = False) -> list[str]:
        return []


def test_the_data_holds_such_pairs():
    assert len(similar_pairs()) >= 5


@pytest.mark.parametrize("index", range(3))
@pytest.mark.parametrize("source", ["local", "api"])
async def test_a_close_card_is_never_used_in_place_of_the_name(index, source):
    typed, close = similar_pairs()[index]
    deck = f"Commander\n1 {close}\nDeck\n1 {typed}\n98 Wastes\n"
    report, resolved = await check_decklist(GuessingCards({typed: close}, source), deck)
    assert report.commanders == (close,)
    # no duplicate, no "the list names another commander", no color finding from the guess
    assert not report.of_kind(ProblemKind.SINGLETON) and not report.of_kind(ProblemKind.COMMANDER)
    kind = ProblemKind.UNCHECKED if source == "local" else ProblemKind.UNKNOWN
    (problem,) = report.problems
    assert problem.kind is kind and problem.card == typed and problem.suggestions == (close,)
    assert f"did you mean {close}?" in problem_text(problem)
    if source == "local":  # offline: the local data lacks it; it may be a card newer than the data
        assert problem.why == NOT_IN_LOCAL_DATA and "not in the local card data" in problem_text(problem)
    else:
        assert problem_text(problem).startswith(f"line 4: no card named {typed!r}")
    assert report.card_count == 100 and report.unverified == 1
    assert "100 counting the commander; 1 of them not checked" in text_report(report)
    assert [r.name for r in resolved] == [close, "Wastes"]


def test_names_are_read_exactly_folded():
    fire_ice = card("Fire // Ice")
    for typed in ("Fire // Ice", "fire/ice", "Fire / Ice", "FIRE", "ice"):
        assert names_card(typed, fire_ice), typed
    assert names_card("lim-dul's vault", card("Lim-Dûl's Vault"))
    assert not names_card("Fire Ice Storm", fire_ice)
    assert not names_card("Samite Healer", card("Orim, Samite Healer"))
    # the name printed in place of the card's own (Scryfall's `flavor_name`) names it too
    zilortha = {**card("Zilortha, Strength Incarnate"), "flavor_name": "Godzilla, King of the Monsters"}
    assert names_card("Godzilla, King of the Monsters", zilortha) and names_card(
        "zilortha strength incarnate", zilortha
    )


async def test_offline_not_in_local_data_and_no_such_card_are_told_apart(tmp_path):
    typed, close = similar_pairs()[0]
    subset = [card(n) for n in (close, "Wastes", "Sol Ring")]
    (tmp_path / "cards.json").write_text(json.dumps(subset), encoding="utf-8")
    (tmp_path / "cache").mkdir()
    import_file(tmp_path / "cards.json", tmp_path / "cache" / "cards.sqlite3", updated_at=time.time())
    async with (
        FakeScryfall([*subset, card(typed)]) as scryfall,
        open_cards(fake_settings(scryfall, tmp_path), budget=FastForwardBudget()) as cards,
    ):
        scryfall.mode = "down"
        deck = f"Commander\n1 {close}\nDeck\n1 {typed}\n1 Qwxzzy Frobnicator\n1 Sol Ring\n96 Wastes\n"
        report, _ = await check_decklist(cards, deck)
        unchecked = {p.card: p for p in report.of_kind(ProblemKind.UNCHECKED)}
        assert set(unchecked) == {typed, "Qwxzzy Frobnicator"}
        # the close name the local data has is offered, not used; the other one just could not be asked
        assert close in unchecked[typed].suggestions
        assert "Scryfall" in unchecked["Qwxzzy Frobnicator"].why or unchecked["Qwxzzy Frobnicator"].why
        assert not report.of_kind(ProblemKind.UNKNOWN) and not report.of_kind(ProblemKind.SINGLETON)
        assert report.unverified == 2 and report.card_count == 100
        assert "NOT FULLY CHECKED. 2 cards could not be checked; nothing else is wrong." in text_report(
            report
        )
        scryfall.mode = "ok"  # Scryfall answers: a name no card has is "no card named"
        report, _ = await check_decklist(cards, deck)
        assert [p.card for p in report.of_kind(ProblemKind.UNKNOWN)] == ["Qwxzzy Frobnicator"]


# -- sections that are not the deck, the companion (pure) -----------------------------------------------------------


def check(text: str, *commanders: str):
    deck = parse(text)
    known = cards_by_name()
    names = [e.name for e in deck.entries]
    return check_deck(
        DeckInput(deck, [card(c) for c in commanders], {n: card(n) for n in names if n in known})
    )


def test_sections_that_are_not_the_deck_are_counted_by_section():
    text = (
        f"Commander\n1 {THRASIOS}\n1 {TYMNA}\nDeck\n1 Sol Ring\n97 Island\nSideboard\n2 Lightning Bolt\n1 Shock\n"
        "Maybeboard\n2 Dismember\nTokens\n2 Goblin\n"
    )
    report = check(text, THRASIOS, TYMNA)
    assert report.legal, text_report(report)
    assert report.excluded == {Section.SIDEBOARD: 3, Section.MAYBEBOARD: 2, Section.TOKENS: 2}
    assert (
        "Cards: 100 counting the commanders; 3 in the sideboard, 2 in the maybeboard, 2 in tokens not counted"
        in text_report(report)
    )
    assert (
        summary_embed(report).fields[1].value
        == "100 / 100 (3 in the sideboard, 2 in the maybeboard, 2 in tokens not counted)"
    )


@pytest.mark.parametrize(
    ("companion", "outside"),
    [("Yorion, Sky Nomad", ""), ("Lurrus of the Dream-Den", ""), ("Obosh, the Preypiercer", "R")],
)
def test_the_companion_is_checked_against_the_commanders_identity(companion, outside):
    text = f"Commander\n1 {THRASIOS}\n1 {TYMNA}\nCompanion\n1 {companion}\nDeck\n1 Sol Ring\n97 Island\n"
    report = check(text, THRASIOS, TYMNA)
    assert report.companions == (companion,) and report.card_count == 100  # not one of the 100
    assert f"Companion: {companion} (not counted)" in text_report(report)
    problems = report.of_kind(ProblemKind.COMPANION)
    assert [p.outside for p in problems] == ([outside] if outside else [])
    assert report.legal is not bool(outside)
    if outside:
        assert problem_text(problems[0]) == (
            f"{companion} (line 5): the companion is red, outside the commanders\u2019 color identity"
        )


def test_a_banned_companion_is_reported_as_the_companion():
    report = check(
        f"Commander\n1 {THRASIOS}\n1 {TYMNA}\nCompanion\n1 Lutri, the Spellchaser\nDeck\n98 Island\n",
        THRASIOS,
        TYMNA,
    )
    banned = report.of_kind(ProblemKind.BANNED)
    assert [(p.card, p.companion) for p in banned] == [("Lutri, the Spellchaser", True)]
    assert problem_text(banned[0]) == "Lutri, the Spellchaser is banned in Commander (the companion)"
