"""Game Changers in a deck check (issue 28): the deck's Game Changers, each once by name (commanders too), read
from the cards' own `game_changer` field, and the lowest bracket their count allows (none: no floor; 1-3:
bracket 3 or higher; 4 or more: bracket 4 or higher), said in the summary embed and the text report's bracket
section together with the one note on what the cards can't tell."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.deck.brackets import allows, bracket_floor
from bot.deck.check import DeckInput, check_deck
from bot.deck.parser import parse
from bot.present.deck_report import deck_reply, summary_embed, text_report
from tests.present import limits
from tests.shared_data import card, cards_by_name

DECK = (Path(__file__).parents[1] / "data" / "decks" / "kumano-moxfield.txt").read_text(encoding="utf-8")
KUMANO = "Kumano, Master Yamabushi"
IN_DECK = ("Underworld Breach", "Ancient Tomb (PUMA) 225")  # its sideboard's Mana Vault is not in the deck
MOUNTAINS = "\n23 Mountain (WAR) 262\n"
NOTE = "brackets 1 and 2, and 4 and 5, differ by intent"
TITLES = {
    1: "Bracket 1 or higher (Exhibition)",
    3: "Bracket 3 or higher (Upgraded)",
    4: "Bracket 4 or higher (Optimized)",
}


def deck_with(game_changers: int) -> str:
    """The Kumano deck (legal, 100 cards, two Game Changers) with `game_changers` of them: a Mountain for
    each one taken out, Chrome Mox and Grim Monolith for two Mountains to make four."""
    text = DECK
    for line in IN_DECK[game_changers:]:
        assert f"\n1 {line}\n" in text, line
        text = text.replace(f"\n1 {line}\n", "\n1 Mountain\n", 1)
    if game_changers == 4:
        assert MOUNTAINS in text
        text = text.replace(MOUNTAINS, "\n21 Mountain (WAR) 262\n1 Chrome Mox\n1 Grim Monolith\n")
    return text


def report_of(text: str, *commanders: str):
    deck = parse(text)
    known = cards_by_name()
    resolved = {n: card(n) for n in deck.names() if n in known}
    return check_deck(DeckInput(deck, [card(c) for c in commanders], resolved, {}))


def field(embed, prefix: str):
    return next((f for f in embed.fields if f.name.startswith(prefix)), None)


def test_the_shared_cards_carry_the_field_as_scryfall_serves_it():
    assert card("Mana Vault")["game_changer"] is True
    assert card("Sol Ring")["game_changer"] is False
    assert card("Tergrid, God of Fright // Tergrid's Lantern")["game_changer"] is True  # by its front face


@pytest.mark.parametrize(
    ("count", "floor", "words"),
    [
        (0, 1, None),
        (2, 3, "2 Game Changers: bracket 3 or higher."),
        (4, 4, "4 Game Changers: bracket 4 or higher."),
    ],
)
def test_a_deck_lists_its_game_changers_and_the_lowest_bracket_they_allow(count, floor, words):
    report = report_of(deck_with(count), KUMANO)
    assert report.legal  # Game Changers are no problem of a Commander deck
    expected = ("Underworld Breach", "Ancient Tomb", "Chrome Mox", "Grim Monolith")[:count]
    assert report.game_changers == expected  # in list order, by name
    assert bracket_floor(len(report.game_changers)) == floor == report.bracket.floor  # nothing else here
    text = text_report(report)
    assert TITLES[floor] in text and text.count(NOTE) == 1
    assert "Game Changer" not in text if words is None else words in text
    embed = summary_embed(report)
    field = next(f for f in embed.fields if f.name.startswith("Bracket"))
    assert field.name == TITLES[floor] and NOTE in (embed.footer or "")
    if count:
        assert (
            words in field.value and ", ".join(expected[:-1]) in field.value and expected[-1] in field.value
        )
    reply = deck_reply(report)
    assert limits.repeated_lines(reply.embeds[0]) == []


def test_each_game_changer_counts_once_and_a_commander_counts_too():
    text = deck_with(2).replace("\n1x Hanweir Battlements\n", "\n1 Underworld Breach\n")  # named twice
    assert text.count("Underworld Breach") == 2
    report = report_of(text, KUMANO)
    assert report.game_changers == ("Underworld Breach", "Ancient Tomb")  # the sideboard's Mana Vault: not
    assert "Mana Vault" in text
    led = report_of("1 Sol Ring\n1 Necropotence\n", "Tergrid, God of Fright // Tergrid's Lantern")
    assert led.game_changers == ("Tergrid, God of Fright // Tergrid's Lantern", "Necropotence")
    assert not allows(2, len(led.game_changers)) and allows(3, len(led.game_changers))


def test_a_card_without_the_field_is_no_game_changer():
    deck = parse("1 Mana Vault\n")
    vault = card("Mana Vault")
    del vault["game_changer"]  # card data older than the field: nothing is guessed from the name
    report = check_deck(DeckInput(deck, [card(KUMANO)], {"Mana Vault": vault}, {}))
    assert report.game_changers == ()
