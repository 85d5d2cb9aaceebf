"""Why a decklist line can't be read, in words: the presentation of `bot.deck.entries.LineIssue`."""

from __future__ import annotations

from bot.deck.entries import MAX_COUNT, MAX_NAME_LENGTH, LineIssue
from bot.present.i18n import N_, _

_WORDS: dict[str, str] = {
    LineIssue.NO_NAME: N_("no card name"),
    LineIssue.COUNT_ONLY: N_("a count with no card name"),
    LineIssue.ZERO_COUNT: N_("a count of 0"),
    LineIssue.COUNT_TOO_HIGH: N_("a count of more than {max_count}, more than any deck holds"),
    LineIssue.BAD_COUNT: N_("a count that is not a whole number"),
    LineIssue.NAME_TOO_LONG: N_("a card name longer than {max_length} characters"),
    LineIssue.CONTROL_CHARACTERS: N_("control characters in the card name"),
    LineIssue.HALF_SPLIT_NAME: N_("half a split-card name"),
}


def line_reason(reason: str) -> str:
    """The words for a `ParseProblem.reason` code; a reason that is not a code (already words) as it is."""
    words = _WORDS.get(reason)
    if words is None:
        return reason
    return _(words).format(max_count=MAX_COUNT, max_length=MAX_NAME_LENGTH)
