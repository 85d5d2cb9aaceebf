"""The words for why a decklist line can't be read."""

from __future__ import annotations

from bot.deck.entries import LineIssue
from bot.present.deck_errors import line_reason


def test_every_line_issue_has_words():
    words = {issue: line_reason(issue) for issue in LineIssue}
    assert all(text and text != issue.value for issue, text in words.items())
    assert line_reason(LineIssue.ZERO_COUNT) == "a count of 0"
    assert "999" in line_reason(LineIssue.COUNT_TOO_HIGH)


def test_a_reason_already_in_words_is_kept():
    assert line_reason("quantity is not a whole number") == "quantity is not a whole number"
