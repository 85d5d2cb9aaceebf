"""Which printed line stands for which Oracle line (issue 26), on the printed text of real cards
(`tests/data/printed_texts.json`)."""

from __future__ import annotations

import re
from typing import Any

from bot.cards.quotes import PrintedText, bare, matching_lines, printing_rank, text_faces
from tests.fakes.allcards import printed_texts
from tests.shared_data import all_cards


def card(name: str) -> dict[str, Any]:
    return next(c for c in all_cards() if c["name"] == name)


def printed(name: str, lang: str) -> str:
    return str(printed_texts()[(name, lang)]["printed_text"])


def test_each_oracle_line_gets_the_printed_line_at_its_place_without_reminder_text() -> None:
    fires = card("Fires of Undeath")
    assert matching_lines(fires["oracle_text"], printed("Fires of Undeath", "de")) == [
        "Das Feuer der Untoten fügt einer Kreatur oder einem Spieler deiner Wahl 2 Schadenspunkte zu.",
        "Rückblende {5}{B}",
    ]
    assert (
        matching_lines(fires["oracle_text"], printed("Fires of Undeath", "es"))[1] == "Retrospectiva {5}{B}."
    )


def test_a_line_with_other_symbols_or_text_of_another_shape_stands_for_nothing() -> None:
    justice = card("Justice")  # Fifth Edition prints "WW" where the Oracle text has {W}{W}
    lines = matching_lines(justice["oracle_text"], printed("Justice", "de"))
    assert lines[0] is None and lines[1] is not None and lines[1].startswith("Immer wenn")
    fires = card("Fires of Undeath")
    one_line = printed("Fires of Undeath", "de").replace("\n", " ")  # as some data sources hold it
    assert matching_lines(fires["oracle_text"], one_line) == [None, None]
    swapped = "\n".join(reversed(printed("Fires of Undeath", "de").split("\n")))
    assert matching_lines(fires["oracle_text"], swapped)[1] is None


def test_japanese_reminder_text_in_full_width_parentheses_is_left_out() -> None:
    assert (
        bare("フラッシュバック {5}{B} （あなたはフラッシュバック・コストで…）") == "フラッシュバック {5}{B}"
    )


def test_the_printing_that_follows_the_oracle_text_ranks_first_then_the_newest() -> None:
    fires = card("Fires of Undeath")
    good = {**fires, "printed_text": printed("Fires of Undeath", "de"), "released_at": "2012-02-03"}
    flat = {**good, "printed_text": good["printed_text"].replace("\n", " "), "released_at": "2024-01-01"}
    newer = {**good, "released_at": "2020-01-01"}
    assert printing_rank(good) == (True, 2, "2012-02-03")
    assert printing_rank(flat) < printing_rank(good) < printing_rank(newer)
    justice = {**card("Justice"), "printed_text": printed("Justice", "de")}
    assert printing_rank(justice)[:2] == (False, 1)


def test_faces_of_a_card_of_several_parts() -> None:
    split = {
        "name": "A // B",
        "card_faces": [
            {"name": "A", "oracle_text": "Add {R}.", "printed_text": "Erzeuge {R}."},
            {"name": "B", "oracle_text": "Add {G}.", "printed_text": "Erzeuge {U}."},
        ],
    }
    assert text_faces(split, "printed_text") == ["Erzeuge {R}.", "Erzeuge {U}."]
    text = PrintedText.of(split, "de", text_faces(split, "printed_text"))
    assert text is not None
    assert text.line("A", "Add {R}.") == "Erzeuge {R}."
    assert text.line("B", "Add {G}.") is None  # another symbol
    assert text.line("A", "Add {G}.") is None  # the line of another face
    assert PrintedText.of(split, "de", ["Erzeuge {R}."]) is None  # not one text per face
    assert text_faces({"name": "C", "oracle_text": "x"}, "printed_text") == [""]


def test_no_quoted_line_keeps_a_space_before_punctuation() -> None:
    """Every line of every printed text the tests hold, quoted (reminder text left out), has no space before
    punctuation, full-width Japanese included; French keeps its space before : ; ! ? (its typography)."""
    quoted = 0
    for (_name, lang), printing in printed_texts().items():
        for line in printing["printed_text"].split("\n"):
            double = "" if lang == "fr" else ":;!?"
            assert not re.search(rf"\s[.,)\u3002\u3001\uff0c\uff0e\u300d{double}]", bare(line)), (
                lang,
                bare(line),
            )
            quoted += 1
    assert quoted >= 10
