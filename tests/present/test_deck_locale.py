"""The deck check in every supported locale (issue 20): reports of every kind of problem, warning and note, the
errors of a decklist or its options, and the deck-link errors. Each reply keeps within Discord's limits and leaves no
English sentence of the templates; card names, type lines and rules text stay as printed. English stays English."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.deck.check import DeckInput, check_deck
from bot.deck.entries import MAX_BYTES, InputIssue, LineIssue, ListUnit
from bot.deck.errors import CommanderNotFound, DeckCheckCode, DeckCheckError, NoCommander
from bot.deck.parser import DeckInputError, parse
from bot.deck.report import NOT_IN_LOCAL_DATA, DeckReport, ProblemKind, Reading, Unchecked, UncheckedCommander
from bot.deck.sources import DeckSourceErrorCode, Site
from bot.deck.sources.result import EntryProblem
from bot.house.rules import Rules, ban_of
from bot.present import deck_errors, decklinks, i18n
from bot.present.deck_errors import line_reason
from bot.present.deck_report import deck_reply, text_report
from bot.present.message import CONTENT_LIMIT, Reply
from tests.deck.test_deck_check import PIPER
from tests.present import limits
from tests.present.test_locale_replies import card_words, english_left, shown_text
from tests.shared_data import card, cards_by_name

LOCALES = ["de", "es-ES", "fr", "it", "ja", "pt-BR"]
DECKS = Path(__file__).parents[1] / "data" / "decks"
KUMANO = "Kumano, Master Yamabushi"
PROBLEMS = """Commander
1 Kumano, Master Yamabushi
Deck
1 Dismember
1 Sol Ring
1 Sol Ring
1 Mox Ruby
1 Goblin
0 Shock
1 Qwxzzy Frobnicator
1 Brainstorm
1 Golos, Tireless Pilgrim
1 Tropical Island
40 Mountain
Companion
1 Jegantha, the Wellspring
Sideboard
1 Lightning Bolt
Maybeboard
2 Shock
"""


def run(text: str, commanders: list[dict], **extra: Any) -> DeckReport:
    deck = parse(text)
    known = cards_by_name()
    unavailable = extra.get("unavailable") or {}
    resolved = {e.name: card(e.name) for e in deck.entries if e.name in known and e.name not in unavailable}
    if any(c["name"] == PIPER["name"] for c in commanders):
        resolved[PIPER["name"]] = PIPER
    shown = {
        k: extra.pop(k) for k in ("readings", "from_list", "second_from_list", "pasted_lines") if k in extra
    }
    return replace(check_deck(DeckInput(deck, commanders, resolved, **extra)), **shown)


def reports() -> Iterator[tuple[str, DeckReport]]:
    """Reports that together show every kind of problem, every warning and every note the report words."""
    kumano = card(KUMANO)
    yield (
        "problems",
        run(
            PROBLEMS,
            [kumano],
            unknown={"Qwxzzy Frobnicator": ["Sol Ring"]},
            unavailable={"Brainstorm": Unchecked(NOT_IN_LOCAL_DATA, ("Brainstorm",))},
            readings=[Reading(3, "Sol Ring // ramp", "Sol Ring")],
            from_list=(KUMANO,),
            pasted_lines=12,
        ),
    )
    legal = (DECKS / "kumano-moxfield.txt").read_text(encoding="utf-8")
    yield "legal", run(legal, [kumano])
    yield "not fully checked", run(legal, [kumano], unavailable={"Shock": Unchecked(NOT_IN_LOCAL_DATA)})
    yield (
        "commander not looked up",
        run(
            legal,
            [],
            unchecked_commanders=[UncheckedCommander(KUMANO, listed=True, reason=NOT_IN_LOCAL_DATA)],
        ),
    )
    house_deck = parse("1 Sol Ring\n1 Ancient Tomb\n1 Chrome Mox\n1 Lightning Bolt\n96 Mountain\n")
    served = {n: {**card(n), "game_changer": n in ("Ancient Tomb", "Chrome Mox")} for n in house_deck.names()}
    rules = Rules((ban_of(card("Sol Ring")), ban_of(kumano)), bracket=2)  # a server's house rules
    yield "house rules", check_deck(DeckInput(house_deck, [kumano], served, house=rules))
    piper = "1 The Prismatic Piper\n1 Counterspell\n1 Brainstorm\n1 Lightning Bolt\n1 Sol Ring\n95 Island\n"
    yield "open choice", run(piper, [PIPER])
    yield "chosen color", run(piper, [PIPER], chosen=["U"], second_from_list=True, from_list=(PIPER["name"],))
    yield (
        "bad commanders",
        run(
            "Commander\n1 Lightning Bolt\n1 Sol Ring\n1 Sol Ring\n1 Kumano, Master Yamabushi\n98 Mountain\n",
            [card("Lightning Bolt"), card("Sol Ring")],
        ),
    )


def english_in_report(text: str, quoted: list[str]) -> list[str]:
    """English template phrases left in a plain-text report; an evidence line quotes the card after its label."""
    lines = []
    for line in text.split("\n"):
        head, dash, tail = line.partition(" \u2014 ")
        lines.append(head + dash + (tail.split(": ", 1)[0] if dash else ""))
    shown = "\n".join(lines)
    for words in quoted:
        shown = shown.replace(words, " ")
    return english_left(shown)


def evidence_free(reply: Reply) -> Reply:
    """The reply with each field line's quoted card text (after an evidence label) left out."""
    for embed in reply.embeds:
        for field in embed.fields:
            field.value = "\n".join(line.partition(" \u2014 ")[0] for line in field.value.split("\n"))
    return reply


QUOTED = [
    *card_words(
        *(
            card(n)
            for n in (
                "Dismember",
                "Golos, Tireless Pilgrim",
                "Tropical Island",
                "Goblin",
                "Jegantha, the Wellspring",
                "Mox Ruby",
                KUMANO,
                "Lightning Bolt",
                "Ancient Tomb",
                "Chrome Mox",
            )
        )
    ),
    *card_words(PIPER),
    "Qwxzzy Frobnicator",
    "Sol Ring // ramp",
]


@pytest.mark.parametrize("locale", LOCALES)
def test_deck_reports_in_every_locale_fit_discord_and_leave_no_english(locale: str) -> None:
    problems: dict[str, list[str]] = {}
    with i18n.using(locale):
        for name, report in reports():
            reply = deck_reply(report, stale=None)
            full = text_report(report)
            found = limits.embed_problems(reply.embeds) + limits.repeated_lines(reply)
            found += english_left(shown_text(evidence_free(reply), QUOTED))
            found += english_in_report(full, QUOTED)
            if found:
                problems[name] = found
    assert problems == {}


def test_the_reports_show_every_kind_and_english_is_the_templates() -> None:
    """The check can fail: the same reports in English are full of template phrases, and every kind of problem
    appears in them."""
    seen = set()
    for _name, report in reports():
        seen.update(report.counts())
        assert english_in_report(text_report(report), QUOTED)
        assert english_left(shown_text(evidence_free(deck_reply(report)), QUOTED))
    assert seen == set(ProblemKind)


def test_a_german_report_speaks_magic_german() -> None:
    with i18n.using("de"):
        report = dict(reports())["problems"]
        embed = deck_reply(report).embeds[0]
        text = text_report(report)
    assert embed.title == f"Deckprüfung: {KUMANO}"
    assert [f.name for f in embed.fields][:2] == ["Farbidentität", "Karten"]
    assert (
        "In Commander gebannt (1)" in text
        and "Zeilen 5, 6" in text
        and "Zeile 7" in text
        and "NICHT LEGAL." in text
    )
    assert "Sideboard" in text and "Gefährte" in text


def input_errors() -> list[DeckInputError]:
    return [
        DeckInputError(InputIssue.TOO_BIG, size=MAX_BYTES + 1, limit=MAX_BYTES),
        DeckInputError(InputIssue.TOO_BIG, size=None, limit=MAX_BYTES),
        *(
            DeckInputError(InputIssue.TOO_LONG, count=n, unit=unit, limit=300)
            for unit in ListUnit
            for n in (1, 400)
        ),
        DeckInputError(InputIssue.NOT_TEXT),
        DeckInputError(InputIssue.NO_CARDS),
        DeckInputError(InputIssue.DOCTYPE),
        DeckInputError(InputIssue.NOT_XML, detail="syntax error"),
        DeckInputError(InputIssue.UNREADABLE_FILE, path="deck.txt", reason="No such file or directory"),
        NoCommander(),
        CommanderNotFound("commander", "Kumanoo", ["Kumano, Master Yamabushi"]),
        CommanderNotFound("partner", "bolt", ambiguous=True),
        CommanderNotFound(None, "Qwxzzy"),
        CommanderNotFound(None, "bolt", ["Lightning Bolt"], ambiguous=True),
        DeckCheckError(DeckCheckCode.TOO_MANY_COMMANDERS, count=5, names=["A", "B", "C", "D", "E"]),
        DeckCheckError(DeckCheckCode.OPTION_TOO_LONG, option="commander", length=5000, limit=200),
        DeckCheckError(DeckCheckCode.NOT_A_COLOR, text="purple"),
        DeckCheckError(DeckCheckCode.NO_CHOOSER),
        *(DeckCheckError(DeckCheckCode.TOO_MANY_COLORS, given=n, choosers=1) for n in (1, 2)),
    ]


def every_error_text() -> list[str]:
    """Every deck error reply: decklist and option errors, list options, deck links, the commander form."""
    texts = [deck_errors.deck_input_text(e) for e in input_errors()]
    texts += [
        decklinks.deck_link_error_text(code, site, after)
        for code in DeckSourceErrorCode
        for site in (*(s.label for s in Site), None)
        for after in (None, 1, 30, 600)
    ]
    texts += [
        decklinks.not_a_deck_link_text("hello"),
        decklinks.no_decklist_in_message_text(),
        decklinks.no_commander_text(),
        decklinks.no_commander_text(from_message=True),
        decklinks.deck_source_text("none"),
        decklinks.deck_source_text("several"),
        decklinks.deck_source_text("file_too_big", size=70000, limit=MAX_BYTES),
        decklinks.deck_from_link_line(None, "Moxfield", "https://www.moxfield.com/decks/x"),
        decklinks.deck_from_link_line(
            "3 Amigos", "TappedOut", "https://tappedout.net/mtg-decks/x/", "gorila"
        ),
        decklinks.deck_from_link_line("Average Deck", "EDHREC", "https://edhrec.com/average-decks/x"),
        *(line_reason(issue) for issue in LineIssue),
        *(line_reason(p) for p in EntryProblem),
    ]
    return texts


FORM_LIMITS = (decklinks.FORM_LABEL_LIMIT, decklinks.FORM_LABEL_LIMIT, 100, decklinks.FORM_LABEL_LIMIT, 100)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_deck_error_in_every_locale(locale: str) -> None:
    quoted = ["Kumano, Master Yamabushi", "Lightning Bolt", "No such file or directory", "Doctor's companion"]
    with i18n.using(locale):
        texts = every_error_text()
        form = list(zip(decklinks.commander_form_words(), FORM_LIMITS, strict=True))
    problems = [
        t
        for t in texts
        if not 0 < len(t) <= CONTENT_LIMIT or english_left(shown_text(Reply(content=t), quoted))
    ]
    problems += [t for t, limit in form if not 0 < len(t) <= limit or english_left(t)]
    assert problems == []


def test_english_error_wording_is_kept() -> None:
    """The English words of the errors are the ones the golden files, the CLI and the README show."""
    by_code = {str(e.code) + str(e.data): deck_errors.cli_text(e) for e in input_errors()}
    assert (
        by_code[f"too_big{{'size': {MAX_BYTES + 1}, 'limit': {MAX_BYTES}}}"]
        == "error: the decklist is 65,537 bytes; the limit is 65,536"
    )
    assert "error: the decklist has 400 non-blank lines; the limit is 300" in by_code.values()
    assert "error: the decklist has 400 card entries; the limit is 300" in by_code.values()
    assert deck_errors.cli_text(NoCommander()).startswith(
        "error: no commander named: give it with --commander NAME"
    )
    assert (
        deck_errors.deck_input_text(DeckInputError(InputIssue.NOT_TEXT))
        == "I can't check that decklist: the file is not a text decklist."
    )
    with i18n.using("de"):
        assert (
            deck_errors.deck_input_text(DeckInputError(InputIssue.TOO_BIG, size=70000, limit=MAX_BYTES))
            == "Ich kann diese Deckliste nicht prüfen: die Deckliste hat 70.000 Bytes; die Grenze ist 65.536."
        )
        assert "`kommandeur:`" in decklinks.no_commander_text()
    with i18n.using("ja"):
        assert "統率者" in deck_errors.deck_input_text(NoCommander())
