"""Why a decklist line can't be read, in words: the presentation of `bot.deck.entries.LineIssue`."""

from __future__ import annotations

from bot.deck.entries import MAX_COUNT, MAX_NAME_LENGTH, LineIssue

_WORDS: dict[str, str] = {
    LineIssue.NO_NAME: "no card name",
    LineIssue.COUNT_ONLY: "a count with no card name",
    LineIssue.ZERO_COUNT: "a count of 0",
    LineIssue.COUNT_TOO_HIGH: f"a count of more than {MAX_COUNT}, more than any deck holds",
    LineIssue.BAD_COUNT: "a count that is not a whole number",
    LineIssue.NAME_TOO_LONG: f"a card name longer than {MAX_NAME_LENGTH} characters",
    LineIssue.CONTROL_CHARACTERS: "control characters in the card name",
    LineIssue.HALF_SPLIT_NAME: "half a split-card name",
}


def line_reason(reason: str) -> str:
    """The words for a `ParseProblem.reason` code; a reason that is not a code (already words) as it is."""
    return _WORDS.get(reason, reason)
