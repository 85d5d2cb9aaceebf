"""Conformance: `analyze` agrees with Scryfall's `color_identity` and `colors` on every card of the shared
data set and on every card object of `tests/data/cards/` (2022-2026 mechanics) that records Scryfall's
answers (apart from the checked-in allow-list), computed from cards with those answers removed.

Tokens, double-faced tokens and emblems are the one documented exception: their colors come from the
effect that creates them (CR 111.3), which Scryfall records in `colors`, so they are compared on the full
object; without the answers the engine must give only what the object itself shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.identity import analyze
from bot.identity.faces import TOKEN_LAYOUTS
from bot.identity.model import Aspect, Note
from bot.identity.symbols import wubrg
from tests.identity.test_identity_cards import recent_cards
from tests.shared_data import all_analyses, all_cards, without_answers

ALLOWLIST_FILE = Path(__file__).parents[1] / "data" / "identity_allowlist.tsv"
MAX_ALLOWED_FRACTION = 0.001


def load_allowlist() -> dict[str, tuple[str, str]]:
    entries: dict[str, tuple[str, str]] = {}
    for raw in ALLOWLIST_FILE.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        card_id, name, reason = raw.split("\t")
        entries[card_id] = (name, reason)
    return entries


def expected(card: dict) -> tuple[str, str]:
    """Scryfall's answers: (colors, color_identity); colors from the front face where Scryfall keeps them there."""
    if "colors" in card:
        colors = card.get("colors") or []
    else:
        faces = card.get("card_faces") or [{}]
        colors = faces[0].get("colors") or []
    return wubrg(colors), wubrg(card.get("color_identity") or [])


def got(analysis) -> tuple[str, str]:
    return analysis.colors, analysis.identity


@pytest.fixture(scope="module")
def bare_analyses():
    """`analyze` of every card with Scryfall's answers removed, worked out once for the whole module."""
    return [analyze(without_answers(card)) for card in all_cards()]


@pytest.fixture(scope="module")
def results(bare_analyses):
    """(card, expected, from-full-object, from-card-without-answers) for every card."""
    return [
        (card, expected(card), got(full), got(bare))
        for card, full, bare in zip(all_cards(), all_analyses(), bare_analyses, strict=True)
    ]


def _fmt(card, exp, res) -> str:
    return f"{card['name']} [{card['layout']}] colors {res[0]!r} vs {exp[0]!r}, identity {res[1]!r} vs {exp[1]!r}"


def test_allowlist_is_small_and_well_formed():
    allow = load_allowlist()
    assert 0 < len(allow) <= MAX_ALLOWED_FRACTION * len(all_cards())
    by_id = {c["id"]: c for c in all_cards()} | {c["id"]: c for c in recent_cards() if "id" in c}
    for card_id, (name, reason) in allow.items():
        assert card_id in by_id, f"allow-listed id {card_id} ({name}) is not in the data set"
        assert by_id[card_id]["name"] == name
        assert len(reason) > 20 and "\n" not in reason


@pytest.mark.slow
def test_conformance_without_answers(results):
    allow = load_allowlist()
    n = agree_colors = agree_identity = 0
    disagreements = []
    token_total = 0
    for card, exp, _full, bare in results:
        if card["layout"] in TOKEN_LAYOUTS:
            token_total += 1
            continue
        n += 1
        agree_colors += bare[0] == exp[0]
        agree_identity += bare[1] == exp[1]
        if bare != exp and card["id"] not in allow:
            disagreements.append(_fmt(card, exp, bare))
    print(
        f"\n[identity conformance, answers removed] {n} cards (tokens/emblems excluded: {token_total}): "
        f"identity {agree_identity}/{n} = {100 * agree_identity / n:.3f}%, "
        f"colors {agree_colors}/{n} = {100 * agree_colors / n:.3f}%, allow-listed {len(allow)}"
    )
    assert not disagreements, f"{len(disagreements)} disagreements; first: " + "; ".join(disagreements[:15])


@pytest.mark.slow
def test_conformance_full_objects(results):
    """Every object, tokens included (their colors come from Scryfall's record of the creating effect)."""
    allow = load_allowlist()
    n = len(results)
    agree = sum(1 for _c, exp, full, _b in results if full == exp)
    disagreements = [
        _fmt(c, exp, full) for c, exp, full, _b in results if full != exp and c["id"] not in allow
    ]
    raw_bare = sum(1 for _c, exp, _f, bare in results if bare == exp)
    print(
        f"[identity conformance, full objects] {agree}/{n} = {100 * agree / n:.3f}% agree on colors and identity; "
        f"with answers removed from every object (tokens too): {raw_bare}/{n} = {100 * raw_bare / n:.3f}%"
    )
    assert not disagreements, f"{len(disagreements)} disagreements; first: " + "; ".join(disagreements[:15])


@pytest.mark.slow
def test_allowlist_not_stale(results):
    allow = load_allowlist()
    agreeing = [
        c["name"] for c, exp, full, bare in results if c["id"] in allow and full == exp and bare == exp
    ]
    assert not agreeing, f"allow-listed cards that now agree (remove them): {agreeing}"


@pytest.mark.slow
def test_tokens_without_answers_show_only_what_the_object_shows(results):
    for card, exp, _full, bare in results:
        if card["layout"] not in TOKEN_LAYOUTS:
            continue
        assert set(bare[1]) <= set(exp[1]) or not exp[1], _fmt(card, exp, bare)
        if not bare[1] and exp[1]:
            assert Note.TOKEN_COLORS_UNRECORDED in analyze(without_answers(card)).notes


@pytest.mark.slow
def test_every_color_has_evidence_and_no_stray_evidence(bare_analyses):
    for a in bare_analyses:
        for aspect, colors in ((Aspect.COLOR, a.colors), (Aspect.IDENTITY, a.identity)):
            explained = {r.color for r in a.reasons if r.aspect is aspect and not r.removes}
            assert explained == set(colors), f"{a.name}: {aspect} {colors!r} explained by {explained}"
        for r in a.reasons:
            assert r.face, a.name
            if r.removes:
                assert r.color == "" and r.aspect is Aspect.COLOR and a.colors == ""
            if r.symbol is not None:
                assert r.text and r.symbol in r.text, (a.name, r)
        keys = [(r.color, r.aspect, r.kind, r.face, r.symbol, r.text) for r in a.reasons]
        assert len(keys) == len(set(keys)), f"{a.name}: duplicate reasons"


def test_conformance_recent_cards_without_answers():
    """The 2022-2026 card objects: every one with Scryfall's answers recorded agrees once they are removed."""
    allow = load_allowlist()
    compared = 0
    disagreements = []
    for card in recent_cards():
        if "color_identity" not in card:
            continue
        compared += 1
        exp = expected(card)
        bare = got(analyze(without_answers(card)))
        if bare != exp and card.get("id") not in allow:
            disagreements.append(_fmt(card, exp, bare))
    assert compared >= 50
    assert not disagreements, f"{len(disagreements)} disagreements: " + "; ".join(disagreements)


def test_recent_allowlisted_cards_still_disagree():
    allow = load_allowlist()
    for card in recent_cards():
        if card.get("id") in allow:
            assert got(analyze(without_answers(card))) != expected(card), (
                f"{card['name']} now agrees: remove it"
            )
