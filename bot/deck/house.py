"""A server's house rules applied to a deck: its house-banned cards, and its Game Changers over the server's
bracket, as problems. The rules are given as `HouseRules` (`bot.house.rules.Rules` is one), read once per
check and matched in memory: no query per card."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from bot.deck.brackets import MAX_GAME_CHANGERS, allows
from bot.deck.report import HouseApplied, Problem, ProblemKind

Card = Mapping[str, Any]


class HouseRules(Protocol):
    """What the deck check needs of a server's house rules."""

    @property
    def bracket(self) -> int | None: ...

    @property
    def ban_count(self) -> int: ...

    def banned(self, card: Card) -> bool: ...


def house_problems(
    rules: HouseRules, cards: Iterable[tuple[Card, tuple[int, ...], bool]], changers: Sequence[str]
) -> tuple[list[Problem], HouseApplied]:
    """`cards`: each card of the deck once (commanders included) with its lines and whether it leads;
    `changers`: the deck's Game Changers (`DeckReport.game_changers`). A house-banned card is a HOUSE_BANNED
    problem; more Game Changers than the bracket allows, one HOUSE_BRACKET problem naming them (`count` of
    `limit`)."""
    problems: list[Problem] = []
    for card, lines, leads in cards:
        if rules.ban_count and rules.banned(card):
            problems.append(
                Problem(ProblemKind.HOUSE_BANNED, str(card.get("name") or "?"), lines, commander=leads)
            )
    bracket = rules.bracket
    if bracket is not None and not allows(bracket, len(changers)):
        problems.append(
            Problem(
                ProblemKind.HOUSE_BRACKET,
                count=len(changers),
                limit=MAX_GAME_CHANGERS[bracket],
                others=tuple(changers),
                bracket=bracket,
            )
        )
    return problems, HouseApplied(rules.ban_count, bracket)
