"""Reminder-text removal (CR 903.4c) and symbol context phrases used as evidence details."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.identity.text import strip_reminder, symbol_context


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Extort (Whenever you cast a spell, you may pay {W/B}.)", "Extort "),
        ("Flashback {5}{B} (You may cast this card from your graveyard.)", "Flashback {5}{B} "),
        ("No parentheses {G}", "No parentheses {G}"),
        ("a (b (c {R}) d) e", "a  e"),
        ('Lands have "{T}: Add {G}. (reminder {U})" now', 'Lands have "{T}: Add {G}. " now'),
        ("Unclosed (reminder {U}", "Unclosed "),
        ("Stray ) paren {W}", "Stray ) paren {W}"),
    ],
)
def test_strip_reminder(line, expected):
    assert strip_reminder(line) == expected


@pytest.mark.parametrize(
    ("line", "symbol", "detail"),
    [
        ("Flashback {5}{B}", "{B}", "flashback cost"),
        ("{W}{U}{B}{R}{G}: Search your library for up to X Ally cards.", "{U}", "activated ability cost"),
        ("{T}: Add {G}.", "{G}", "mana ability"),
        ('Elves you control have "{T}: Add {B}."', "{B}", "granted mana ability"),
        ('Creatures you control have "{2}{G}: This creature gets +1/+1."', "{G}", "granted ability's cost"),
        ("Kicker {1}{R}", "{R}", "kicker cost"),
        ("Escape\u2014{3}{G}{G}, Exile four other cards from your graveyard.", "{G}", "escape cost"),
        ("Channel \u2014 {X}{G}{G}, Discard Arashi: Arashi deals X damage.", "{G}", "activated ability cost"),
        ("This spell costs {U} less to cast.", "{U}", "cost change"),
        ("Counter target spell unless its controller pays {3}{U}.", "{U}", "cost it asks for"),
        ("If it was kicked with its {2}{U} kicker, draw a card.", "{U}", "rules text"),
        # keywords with a number or X before the em dash (audit 11: these were plain "rules text")
        ("Suspend 4\u2014{1}{R}", "{R}", "suspend cost"),
        ("Suspend X\u2014{X}{B}{B}{B}. X can't be 0.", "{B}", "suspend cost"),
        ("Awaken 3\u2014{5}{W}", "{W}", "awaken cost"),
        ("Reinforce 1\u2014{1}{W}", "{W}", "reinforce cost"),
    ],
)
def test_symbol_context(line, symbol, detail):
    assert symbol_context(line, line.index(symbol)) == detail


@given(st.text(max_size=120), st.integers(min_value=0, max_value=130))
def test_text_helpers_never_raise(line, pos):
    stripped = strip_reminder(line)
    assert "(" not in stripped
    assert symbol_context(line, min(pos, len(line)))


def test_suspend_cost_on_a_real_card():
    """A real suspend card's colored symbol in its suspend cost is described as such, not "rules text"."""
    from bot.identity import analyze
    from tests.shared_data import all_cards

    suspend = [c for c in all_cards() if "\nSuspend " in "\n" + (c.get("oracle_text") or "")
               and "\u2014{" in (c.get("oracle_text") or "") and not c.get("mana_cost")]
    assert suspend, "the data set has suspend cards without a mana cost (e.g. Ancestral Vision)"
    a = analyze(suspend[0])
    details = {r.detail for r in a.identity_reasons if r.kind.value == "rules text"}
    assert "suspend cost" in details, (suspend[0]["name"], details)
