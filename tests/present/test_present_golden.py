"""Golden replies: what the bot says for the cards issue 13 names, their /fits misfits, every /fits verdict kind
(issue 12) and a deck report, kept as text files in tests/golden/ and reviewed by eye.

A change of wording fails here on purpose. After reviewing the new text, rewrite the files with
`UPDATE_GOLDEN=1 python -m pytest tests/present/test_present_golden.py` and read the diff before committing.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot.combos.model import COMBO, ComboFindings
from bot.deck.check import DeckInput, check_deck
from bot.deck.parser import parse
from bot.house.rules import Rules
from bot.identity import analyze, check_fit
from bot.present import embeds
from bot.present.deck_report import deck_reply
from bot.present.message import Reply
from tests.fakes.spellbook import template, use, variant
from tests.present import limits
from tests.present.test_embeds import KUMANO, card

GOLDEN = Path(__file__).parents[1] / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def show(reply: Reply) -> str:
    """A reply as a reader sees it, one block per part of the embed."""
    out: list[str] = []
    if reply.content:
        out += ["[content]", reply.content]
    for e in reply.embeds:
        out += [f"[title] {e.title}"]
        if e.description:
            out += ["[description]", e.description]
        for f in e.fields:
            out += [f"[field{' inline' if f.inline else ''}] {f.name}", f.value]
        if e.footer:
            out += [f"[footer] {e.footer}"]
    if reply.attachment is not None:
        out += [f"[attachment] {reply.attachment.filename}", reply.attachment.text.rstrip("\n")]
    out.append(f"[{limits.reply_length(reply)} characters]")
    return "\n".join(out) + "\n"


def identity(name: str) -> Reply:
    c = card(name)
    return embeds.identity_reply(analyze(c), c)


def fits(name: str, *leaders: str, chosen: list[str | None] | None = None) -> Reply:
    c = card(name)
    cards = [card(n) for n in leaders]
    return embeds.fits_reply(check_fit(c, cards, chosen), c, cards)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:80]


IDENTITY = [
    "Transguild Courier",
    "Golos, Tireless Pilgrim",
    "General Tazri",
    "Jegantha, the Wellspring",
    "Kenrith, the Returned King",
    "Kitchen Finks",
    "Alesha, Who Smiles at Death",
    "Lurrus of the Dream-Den",
    "Esika, God of the Tree // The Prismatic Bridge",
    "Fires of Undeath",
    "Mad Ratter",
    "Syndic of Tithes",
    "Dismember",
    "Civilized Scholar // Homicidal Brute",
    "Tropical Island",
    "Ghostfire",
    "Sol Ring",
    "Fallaji Wayfarer",
    "Spellscorn Coven // Take It Back",
    "The Prismatic Piper",
    "Goblin",
    "Brisela, Voice of Nightmares",
    "Ob Nixilis of the Black Oath Emblem",
]
FITS: list[tuple[str, tuple[str, ...], list[str | None] | None]] = [
    *[(name, (KUMANO,), None) for name in IDENTITY[:9]],
    ("Lightning Bolt", (KUMANO,), None),  # fits
    ("Fires of Undeath", ("Tymna the Weaver", "Kraum, Ludevic's Opus"), None),  # fits a pair
    ("Lightning Bolt", ("Clara Oswald",), None),  # fits if you choose red
    ("Lightning Bolt", ("Clara Oswald",), ["R"]),  # color: red makes it fit
    ("Lightning Helix", ("Clara Oswald",), None),  # one choice can't cover two colors
    ("Lightning Helix", ("The Prismatic Piper", "Kraum, Ludevic's Opus"), None),
    ("Sol Ring", ("Lightning Bolt",), None),  # can't exist: not a commander
    ("Swords to Plowshares", (KUMANO, "Tymna the Weaver"), None),  # can't exist: not a pair
    ("Tempest Efreet", (KUMANO,), None),  # can't exist: the card is banned
    ("Dismember", ("Griselbrand",), None),  # can't exist: the commander is banned
    ("Goblin", (KUMANO,), None),  # can't exist: not a deck card
]
DECK = (
    "Commander\n1 Kumano, Master Yamabushi\nDeck\n1 Dismember\n1 Prophet of Kruphix\n2 Sol Ring\n1 Goblin\n"
    "1 Tropical Island\n1 Golos, Tireless Pilgrim\n90 Mountain\n"
)

# Every bracket guideline at once: mass land denial, an extra turn, a Game Changer, an early two-card combo, a
# later one, and a combo that needs a template (Commander Spellbook's shape, tests/fakes/spellbook.py).
BRACKET_DECK = (
    "Commander: Golos, Tireless Pilgrim\n"
    + "".join(
        f"1 {n}\n"
        for n in (
            *("Armageddon", "Time Warp", "Rhystic Study", "Thassa's Oracle", "Demonic Consultation"),
            *("Kiki-Jiki, Mirror Breaker", "Zealous Conscripts", "Isochron Scepter", "Dramatic Reversal"),
        )
    )
    + "90 Wastes\n"
)
BRACKET_COMBOS = [
    variant(
        [use("Thassa's Oracle", "H"), use("Demonic Consultation", "H")], ["Win the game"], variant_id="1-2"
    ),
    variant(
        ["Kiki-Jiki, Mirror Breaker", "Zealous Conscripts"], ["Infinite ETB"], mana_value=8, variant_id="3-4"
    ),
    variant(
        ["Isochron Scepter", "Dramatic Reversal"],
        ["Infinite mana"],
        requires=[template("A mana rock that taps for two")],
        mana_value=2,
        bracket_tag="P",
        variant_id="5-6--1",
    ),
]


def cases() -> list[tuple[str, Reply]]:
    out = [(f"identity-{slug(name)}", identity(name)) for name in IDENTITY]
    for name, leaders, chosen in FITS:
        tail = f"-color-{''.join(c or '-' for c in chosen)}" if chosen else ""
        out.append(
            (f"fits-{slug(name)}--{slug('-'.join(leaders))}{tail}", fits(name, *leaders, chosen=chosen))
        )
    parsed = parse(DECK)
    report = check_deck(DeckInput(parsed, [card(KUMANO)], {n: card(n) for n in parsed.names()}))
    out.append(("deckcheck-kumano-with-problems", deck_reply(report)))
    parsed = parse(BRACKET_DECK)
    combos = ComboFindings(True, tuple(COMBO.validate_python(v) for v in BRACKET_COMBOS))
    inp = DeckInput(
        parsed, [card("Golos, Tireless Pilgrim")], {n: card(n) for n in parsed.names()}, combos=combos
    )
    out.append(("deckcheck-golos-bracket", deck_reply(check_deck(inp))))
    out.append(
        ("deckcheck-golos-house-bracket-2", deck_reply(check_deck(replace(inp, house=Rules(bracket=2)))))
    )
    return out


CASES = cases()


@pytest.mark.parametrize(("name", "reply"), CASES, ids=[name for name, _ in CASES])
def test_golden(name: str, reply: Reply) -> None:
    path = GOLDEN / f"{name}.txt"
    text = show(reply)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8")
    assert limits.repeated_lines(reply) == []


def test_no_stray_golden_files() -> None:
    names = {f"{name}.txt" for name, _ in CASES}
    assert {p.name for p in GOLDEN.glob("*.txt")} <= names
