"""Reminder-text removal (CR 903.4c), where a symbol sits in a line (a fact), symbols only in reminder text and
color words."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cards.quotes import bare
from bot.identity.model import TextPlace
from bot.identity.text import named_colors, reminder_symbols, strip_reminder, symbol_context


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Extort (Whenever you cast a spell, you may pay {W/B}.)", "Extort"),
        ("Flashback {5}{B} (You may cast this card from your graveyard.)", "Flashback {5}{B}"),
        ("No parentheses {G}", "No parentheses {G}"),
        ("a (b (c {R}) d) e", "a e"),
        ('Lands have "{T}: Add {G}. (reminder {U})" now', 'Lands have "{T}: Add {G}." now'),
        ("Unclosed (reminder {U}", "Unclosed"),
        ("Ciclo {W} ({W}, scarta questa carta: pesca una carta.).", "Ciclo {W}."),  # no stray " ."
        ("Word (reminder)word", "Word word"),
        ("Stray ) paren {W}", "Stray ) paren {W}"),
    ],
)
def test_strip_reminder(line, expected):
    assert strip_reminder(line) == expected


K = TextPlace.KEYWORD_COST


@pytest.mark.parametrize(
    ("line", "symbol", "place"),
    [
        ("Flashback {5}{B}", "{B}", (K, "Flashback")),
        (
            "{W}{U}{B}{R}{G}: Search your library for up to X Ally cards.",
            "{U}",
            (TextPlace.ACTIVATED_COST, None),
        ),
        ("{T}: Add {G}.", "{G}", (TextPlace.MANA_ABILITY, None)),
        ('Elves you control have "{T}: Add {B}."', "{B}", (TextPlace.GRANTED_MANA_ABILITY, None)),
        (
            'Creatures you control have "{2}{G}: This creature gets +1/+1."',
            "{G}",
            (TextPlace.GRANTED_COST, None),
        ),
        ("Kicker {1}{R}", "{R}", (K, "Kicker")),
        ("Escape\u2014{3}{G}{G}, Exile four other cards from your graveyard.", "{G}", (K, "Escape")),
        (
            "Channel \u2014 {X}{G}{G}, Discard Arashi: Arashi deals X damage.",
            "{G}",
            (TextPlace.ACTIVATED_COST, None),
        ),
        ("This spell costs {U} less to cast.", "{U}", (TextPlace.COST_CHANGE, None)),
        ("Counter target spell unless its controller pays {3}{U}.", "{U}", (TextPlace.COST_ASKED, None)),
        ("If it was kicked with its {2}{U} kicker, draw a card.", "{U}", (TextPlace.TEXT, None)),
        ("When it enters, add {R}.", "{R}", (TextPlace.MANA_ADDED, None)),
        # keywords with a number or X before the em dash (audit 11: these were plain "rules text")
        ("Suspend 4\u2014{1}{R}", "{R}", (K, "Suspend")),
        ("Suspend X\u2014{X}{B}{B}{B}. X can't be 0.", "{B}", (K, "Suspend")),
        ("Awaken 3\u2014{5}{W}", "{W}", (K, "Awaken")),
        ("Reinforce 1\u2014{1}{W}", "{W}", (K, "Reinforce")),
        ("Level up {1}{W}", "{W}", (K, "Level up")),
    ],
)
def test_symbol_context(line, symbol, place):
    assert symbol_context(line, line.index(symbol)) == place


def test_reminder_symbols_are_the_ones_only_in_parentheses():
    line = "Extort (Whenever you cast a spell, you may pay {W/B}.)"
    assert reminder_symbols(line, strip_reminder(line)) == ["{W/B}"]
    line = "Kicker {1}{G} (You may pay an additional {1}{G} as you cast this spell.)"
    assert reminder_symbols(line, strip_reminder(line)) == ["{1}", "{G}"]
    assert reminder_symbols("{T}: Add {G}.", "{T}: Add {G}.") == []


def test_named_colors():
    assert named_colors("create X 1/1 black Rat creature tokens") == {"B"}
    assert named_colors("Destroy target nonwhite, non-green creature.") == {"W", "G"}
    assert named_colors("Sacrifice Black Lotus: Add three mana.", ("Black Lotus",)) == set()
    assert named_colors("Redcap and Greenwarden and Blackblade") == set()


_WORD = st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8) | st.sampled_from(
    ("{W}", "{2}")
)
_PUNCTUATION = st.sampled_from(
    (".", ",", ";", ":", "!", "?", "\u3002", "\u3001", "\uff0c", "\uff0e", "\u300d")
)
_REMINDER = st.text(st.characters(exclude_characters="()\uff08\uff09\n"), max_size=12).map(lambda s: f"({s})")


@given(
    st.lists(st.tuples(st.sampled_from(("word", "punctuation", "reminder")), _WORD, _PUNCTUATION, _REMINDER))
)
def test_reminder_removal_leaves_no_space_before_punctuation(parts):
    """Any line of words, punctuation (Latin and Japanese full-width) and reminder text reads, without its
    reminder text, as if it had never had any: "Ciclo {W} (…)." is "Ciclo {W}.", never "Ciclo {W} ."."""
    line, expected = "Flying", "Flying"
    for kind, word, mark, reminder in parts:
        line += {"word": " " + word, "punctuation": mark, "reminder": " " + reminder}[kind]
        expected += {"word": " " + word, "punctuation": mark, "reminder": ""}[kind]
    assert " ".join(strip_reminder(line).split()) == expected
    assert bare(line.replace("(", "\uff08").replace(")", "\uff09")) == expected  # Japanese （…）, as quoted


@given(st.text(max_size=120), st.integers(min_value=0, max_value=130))
def test_text_helpers_never_raise(line, pos):
    stripped = strip_reminder(line)
    assert "(" not in stripped
    assert symbol_context(line, min(pos, len(line)))


def test_suspend_cost_on_a_real_card():
    """A real suspend card's colored symbol in its suspend cost is described as such, not "rules text"."""
    from bot.identity import analyze
    from tests.shared_data import all_cards

    suspend = [
        c
        for c in all_cards()
        if "\nSuspend " in "\n" + (c.get("oracle_text") or "")
        and "\u2014{" in (c.get("oracle_text") or "")
        and not c.get("mana_cost")
    ]
    assert suspend, "the data set has suspend cards without a mana cost (e.g. Ancestral Vision)"
    a = analyze(suspend[0])
    places = {(r.place, r.keyword) for r in a.identity_reasons if r.kind.value == "rules text"}
    assert (TextPlace.KEYWORD_COST, "Suspend") in places, (suspend[0]["name"], places)


def test_reminder_removal_time_grows_linearly():
    """n vs 10·n characters of spaces, nested and unclosed parentheses: within 30 times the baseline."""

    def timed(n: int) -> float:
        line = " " * n + "x" + " (a (b) c)" * (n // 10) + " (" * (n // 10) + "{W}"
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            strip_reminder(line)
            best = min(best, time.perf_counter() - start)
        return best

    small, large = timed(2_000), timed(20_000)
    assert large < max(small, 1e-4) * 30
