"""A deck check with a server's house rules (pure): house-banned cards (commanders too) and Game Changers over
the server's bracket are problems, the report names the rules it applied, and a check without house rules is
the official one, unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from bot.deck.brackets import MAX_GAME_CHANGERS
from bot.deck.check import DeckInput, check_deck
from bot.deck.parser import parse
from bot.deck.report import HouseApplied, ProblemKind
from bot.house.rules import Rules, ban_of
from bot.present import i18n
from bot.present.deck_report import summary_embed, text_report
from tests.present import limits
from tests.shared_data import card

KUMANO = "Kumano, Master Yamabushi"
# On the Commander Format Panel's Game Changers list; written as Scryfall serves them (`game_changer: true`).
GAME_CHANGERS = ("Ancient Tomb", "Chrome Mox", "Grim Monolith", "Gamble", "Mox Diamond")


def served(name: str) -> dict[str, Any]:
    return {**card(name), "game_changer": name in GAME_CHANGERS}


def check(names: list[str], rules: Rules | None, commander: str = KUMANO):
    deck = parse("".join(f"1 {n}\n" for n in names))
    resolved = {n: served(n) for n in deck.names()}
    return check_deck(DeckInput(deck, [served(commander)], resolved, house=rules))


@pytest.mark.parametrize(("bracket", "changers"), [(b, n) for b in range(1, 6) for n in (0, 2, 3, 4)])
def test_game_changers_over_the_bracket(bracket, changers):
    report = check(["Sol Ring", *GAME_CHANGERS[:changers]], Rules(bracket=bracket))
    problems = report.of_kind(ProblemKind.HOUSE_BRACKET)
    limit = MAX_GAME_CHANGERS[bracket]
    over = limit is not None and changers > limit
    assert bool(problems) is over
    if over:
        [problem] = problems
        assert (problem.count, problem.limit, problem.bracket) == (changers, limit, bracket)
        assert set(problem.others) == set(GAME_CHANGERS[:changers])
    assert report.house == HouseApplied(0, bracket)


def test_house_bans_with_their_lines_and_commanders():
    rules = Rules((ban_of(card("Sol Ring")), ban_of(card(KUMANO))), bracket=2)
    report = check(["Lightning Bolt", "Sol Ring", "Gamble"], rules)
    [sol, kumano] = sorted(report.of_kind(ProblemKind.HOUSE_BANNED), key=lambda p: p.commander)
    assert (sol.card, sol.lines, sol.commander) == ("Sol Ring", (2,), False)
    assert (kumano.card, kumano.commander) == (KUMANO, True)
    text = text_report(report)
    assert "Sol Ring is banned here by a house rule (line 2)" in text
    assert f"{KUMANO} is banned here by a house rule (a commander)" in text
    assert "1 Game Changer (Gamble); this server plays bracket 2 (no Game Changers)" in text
    assert "This server’s house rules: 2 cards banned, bracket 2 (no Game Changers)" in text
    assert not report.legal


def test_no_house_rules_is_the_official_check():
    names = ["Sol Ring", *GAME_CHANGERS]
    report = check(names, None)
    assert report.house is None
    assert not any(p.kind in (ProblemKind.HOUSE_BANNED, ProblemKind.HOUSE_BRACKET) for p in report.problems)
    assert "house rules" not in text_report(report)


@pytest.mark.parametrize("locale", ["en", *i18n.SUPPORTED])
def test_the_house_problems_fit_discord_in_every_language(locale):
    rules = Rules(tuple(ban_of(card(n)) for n in ("Sol Ring", "Lightning Bolt")), bracket=1)
    with i18n.using(locale):
        report = check(["Sol Ring", "Lightning Bolt", *GAME_CHANGERS], rules)
        embed = summary_embed(report)
    assert limits.embed_problems([embed]) == []
    assert len(embed.fields) >= 3
