"""/identity, /fits and deck reports at the table (issue 28): a Game Changer is named with what it means for
brackets; a card whose Scryfall `color_identity` differs from the one its cost and text give never gets a plain
verdict (no ✅ or ❌, no bare "fits") without what Scryfall lists, in every language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.deck.check import DeckInput, check_deck
from bot.deck.parser import parse
from bot.identity import analyze
from bot.present import embeds, i18n
from bot.present.choices import Explained, explained_line
from bot.present.deck_report import deck_reply, text_report
from bot.present.message import Embed
from tests.present import limits
from tests.present.test_embeds import card, fits, identity

KUMANO = "Kumano, Master Yamabushi"
GC_LINE = (
    "**{card}** is a Game Changer: decks in brackets 1 and 2 can\u2019t include it; in bracket 3 it counts "
    "toward the limit of 3 Game Changers."
)
CHECK, CROSS, WARN = "\u2705", "\u274c", "\u26a0\ufe0f"


def crafted() -> dict[str, Any]:
    """Wildgraft Scout: `{G2}` in its text is a symbol the engine doesn't read; Scryfall lists red and green."""
    path = Path(__file__).parents[1] / "data" / "second_opinion.json"
    [obj] = json.loads(path.read_text(encoding="utf-8"))
    return obj


def crafted_commander() -> dict[str, Any]:
    """The same card, legendary (this test's variant), to lead a deck."""
    return crafted() | {"name": "Wildgraft Scout, the First", "type_line": "Legendary Creature — Elf Scout"}


def everything(e: Embed) -> str:
    return "\n".join([e.title or "", e.description or "", *(f"{f.name}\n{f.value}" for f in e.fields)])


def test_identity_names_a_game_changer_and_what_it_means_for_brackets():
    e = identity("Mana Vault")
    assert GC_LINE.format(card="Mana Vault") in e.description
    assert "Game Changer" not in everything(identity("Sol Ring"))


def test_fits_names_a_game_changer_card_and_a_game_changer_commander():
    e = fits("Underworld Breach", KUMANO)
    assert e.title == f"{CHECK} Underworld Breach fits"
    assert GC_LINE.format(card="Underworld Breach") in e.description
    led = fits("Sol Ring", "Tergrid, God of Fright // Tergrid's Lantern")
    assert GC_LINE.format(card="Tergrid, God of Fright // Tergrid's Lantern") in led.description
    assert "Game Changer" not in everything(fits("Lightning Bolt", KUMANO))


def test_the_game_changer_field_is_the_source_never_the_name():
    vault = card("Mana Vault")
    vault["game_changer"] = False  # off the list in a later update: the bot follows the field
    assert "Game Changer" not in everything(identity_of(vault))
    bolt = card("Lightning Bolt")
    bolt["game_changer"] = True
    assert GC_LINE.format(card="Lightning Bolt") in identity_of(bolt).description


def identity_of(obj: dict[str, Any]) -> Embed:
    return embeds.identity_reply(analyze(obj), obj).embeds[0]


def test_identity_of_a_card_scryfall_reads_otherwise_says_what_scryfall_lists():
    scout = crafted()
    e = identity_of(scout)
    text = everything(e)
    assert next(f.value for f in e.fields if f.name == "Color identity (Scryfall)") == "{R}{G} red and green"
    assert (
        "Scryfall lists **Wildgraft Scout**\u2019s color identity as red and green, but its mana cost and rules "
        "text give red" in text
    )
    assert CHECK not in text and CROSS not in text
    garruk = identity("Garruk the Slayer")  # shared data: Scryfall black-green, no cost or indicator kept
    assert "Scryfall lists **Garruk the Slayer**\u2019s color identity as black and green" in everything(
        garruk
    )


@pytest.mark.parametrize(
    ("the_card", "leaders", "scryfall_verdict"),
    [
        ("scout", (KUMANO,), "it would not fit"),  # fits by cost and text, not by Scryfall's green
        ("Lightning Bolt", ("leader",), "it would fit"),  # the commander is the one in doubt
        ("Llanowar Elves", ("leader",), "it would fit"),  # does not fit by cost and text
        ("Llanowar Elves", ("leader", "Kraum, Ludevic's Opus"), None),  # can't exist: no verdict on colors
    ],
)
def test_fits_never_gives_a_plain_verdict_when_scryfall_lists_another_identity(
    the_card, leaders, scryfall_verdict
):
    def obj(name: str) -> dict[str, Any]:
        return {"scout": crafted, "leader": crafted_commander}.get(name, lambda: card(name))()

    e = fits(obj(the_card), *(obj(n) for n in leaders))
    text = everything(e)
    assert CHECK not in text and CROSS not in text
    assert "Scryfall lists **" in e.description
    if scryfall_verdict is not None:
        assert e.title.startswith(f"{WARN} ") and "Scryfall lists another color identity" in e.title
        assert e.description.split("\n")[0].startswith("Read from the cards\u2019 cost and text: ")
        assert f"By the color identity Scryfall lists, {scryfall_verdict}." in e.description
    else:  # a deck that can't exist says so in its title; the note on colors follows
        assert e.title.startswith("\u26d4 This deck can\u2019t exist")
        assert "By the color identity Scryfall lists" not in e.description
    assert limits.repeated_lines(e) == []


def test_a_deck_with_a_card_scryfall_reads_otherwise_is_not_sure():
    deck = parse("1 Wildgraft Scout\n1 Sol Ring\n97 Mountain\n")
    resolved = {"Wildgraft Scout": crafted(), "Sol Ring": card("Sol Ring"), "Mountain": card("Mountain")}
    report = check_deck(DeckInput(deck, [card(KUMANO)], resolved, {}))
    assert report.legal and report.unsure
    [doubt] = report.disputed
    assert (doubt.name, doubt.ours, doubt.theirs) == ("Wildgraft Scout", "R", "RG")
    embed = deck_reply(report).embeds[0]
    assert CHECK not in everything(embed) and CROSS not in everything(embed)
    assert embed.description.startswith(f"{WARN} **Not sure.** Read from cost and text: 100 cards")
    value = next(f.value for f in embed.fields if f.name == "Color identity (Scryfall)")
    assert value == "\u2022 Wildgraft Scout: Scryfall lists {R}{G} red and green; cost and text give {R} red"
    text = text_report(report)
    assert "NOT SURE." in text and "LEGAL." not in text.replace("NOT SURE.", "")
    assert "Scryfall lists Wildgraft Scout\u2019s color identity as red and green" in text


def test_a_finding_apart_from_identity_still_says_not_legal_beside_scryfalls_reading():
    deck = parse("1 Wildgraft Scout\n2 Sol Ring\n96 Mountain\n")
    resolved = {"Wildgraft Scout": crafted(), "Sol Ring": card("Sol Ring"), "Mountain": card("Mountain")}
    report = check_deck(DeckInput(deck, [card(KUMANO)], resolved, {}))
    assert not report.unsure and report.disputed
    embed = deck_reply(report).embeds[0]
    assert embed.description.startswith(CROSS)
    assert any(f.name == "Color identity (Scryfall)" for f in embed.fields)


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_the_new_words_come_in_every_language(locale):
    with i18n.using(locale):
        gc = identity("Mana Vault")
        doubt = fits(crafted(), card(KUMANO))
        deck = parse("1 Wildgraft Scout\n1 Mana Vault\n97 Mountain\n")
        resolved = {
            "Wildgraft Scout": crafted(),
            "Mana Vault": card("Mana Vault"),
            "Mountain": card("Mountain"),
        }
        report = deck_reply(check_deck(DeckInput(deck, [card(KUMANO)], resolved, {}))).embeds[0]
    for english in ("is a Game Changer", "Scryfall lists another", "Not sure", "bracket 3 or higher"):
        assert english not in everything(gc) + everything(doubt) + everything(report), (locale, english)
    assert CHECK not in everything(doubt) and CROSS not in everything(report)


def test_explain_card_names_says_what_scryfall_lists_on_the_cards_line():
    scout = crafted()
    line = explained_line(Explained("Wildgraft Scout", card=scout, analysis=analyze(scout)))
    assert line.endswith(f"color identity {{R}} red {WARN} (Scryfall lists {{R}}{{G}} red and green)")
    bolt = card("Lightning Bolt")
    assert "Scryfall" not in explained_line(Explained("bolt", card=bolt, analysis=analyze(bolt)))
