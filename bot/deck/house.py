"""A server's house rules applied to a deck: its house-banned cards, and what its bracket does not allow (Game
Changers over its limit, mass land denial, extra turns, two-card combos), as problems. The rules are given as
`HouseRules` (`bot.house.rules.Rules` is one), read once per check and matched in memory: no query per card."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from bot.deck.brackets import MAX_GAME_CHANGERS, BracketFacts
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
    rules: HouseRules, cards: Iterable[tuple[Card, tuple[int, ...], bool]], facts: BracketFacts
) -> tuple[list[Problem], HouseApplied]:
    """`cards`: each card once (commanders included), its lines, whether it leads. HOUSE_BANNED per banned
    card; HOUSE_BRACKET for the Game Changers over the bracket's limit (one), each card and combo above it."""
    problems: list[Problem] = []
    lines: dict[str, tuple[int, ...]] = {}
    for card, at, leads in cards:
        lines[str(card.get("name"))] = at
        if rules.ban_count and rules.banned(card):
            name = str(card.get("name") or "?")
            problems.append(Problem(ProblemKind.HOUSE_BANNED, name, at, commander=leads))
    if (bracket := rules.bracket) is not None:
        over, kind = facts.over(bracket), ProblemKind.HOUSE_BRACKET
        if changers := over.game_changers:
            limit = MAX_GAME_CHANGERS[bracket]
            problems.append(Problem(kind, count=len(changers), limit=limit, others=changers, bracket=bracket))
        for f in over.flagged:
            at, why = lines.get(f.name, ()), f.finding.guideline.value
            problems.append(Problem(kind, f.name, at, why=why, limit=f.floor, bracket=bracket))
        for c in over.combos:
            problems.append(Problem(kind, " + ".join(c.cards), why="combo", limit=c.floor, bracket=bracket))
    return problems, HouseApplied(rules.ban_count, bracket)
