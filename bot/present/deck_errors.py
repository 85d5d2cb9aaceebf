"""Why a decklist, one of its lines or a deck-check option can't be used: the words for `LineIssue`,
`InputIssue` and `DeckCheckCode`, as the Discord reply (`deck_input_text`) or the CLI's line (`cli_text`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from bot.deck.entries import MAX_COUNT, MAX_NAME_LENGTH, InputIssue, LineIssue, ListUnit
from bot.deck.errors import CommanderNotFound, DeckCheckCode
from bot.deck.parser import DeckInputError
from bot.deck.sources.result import EntryProblem
from bot.present import render
from bot.present.i18n import N_, _, ngettext, number, option_name

_LINE_ISSUES: dict[str, str] = {  # a reader's `LineIssue`, or a deck site's `EntryProblem`
    LineIssue.NO_NAME: N_("no card name"),
    LineIssue.COUNT_ONLY: N_("a count with no card name"),
    LineIssue.ZERO_COUNT: N_("a count of 0"),
    LineIssue.COUNT_TOO_HIGH: N_("a count of more than {max_count}, more than any deck holds"),
    LineIssue.BAD_COUNT: N_("a count that is not a whole number"),
    LineIssue.NAME_TOO_LONG: N_("a card name longer than {max_length} characters"),
    LineIssue.CONTROL_CHARACTERS: N_("control characters in the card name"),
    LineIssue.HALF_SPLIT_NAME: N_("half a split-card name"),
    EntryProblem.NOT_AN_OBJECT: N_("the site\u2019s entry is not a card"),
    EntryProblem.NO_NAME: N_("the site\u2019s entry has no card name"),
    EntryProblem.COUNT_NOT_WHOLE: N_("the quantity is not a whole number"),
    EntryProblem.COUNT_OUT_OF_RANGE: N_("the quantity is outside 1-{max_count}"),
    EntryProblem.UNKNOWN_BOARD: N_("it is on a board of the deck the bot does not read"),
}


def line_reason(reason: str) -> str:
    """The words for a `ParseProblem.reason` code; a reason that is not a code as it is."""
    words = _LINE_ISSUES.get(reason)
    return _(words).format(max_count=MAX_COUNT, max_length=MAX_NAME_LENGTH) if words else reason


def _too_long(data: Mapping[str, Any]) -> str:
    count, limit = int(data.get("count", 0)), number(int(data.get("limit", 0)))
    if (unit := data.get("unit")) == ListUnit.ENTRIES:
        text = ngettext(
            "the decklist has {count} entry; the limit is {limit}",
            "the decklist has {count} entries; the limit is {limit}",
            count,
        )
    elif unit == ListUnit.CARD_ENTRIES:
        text = ngettext(
            "the decklist has {count} card entry; the limit is {limit}",
            "the decklist has {count} card entries; the limit is {limit}",
            count,
        )
    else:
        text = ngettext(
            "the decklist has {count} non-blank line; the limit is {limit}",
            "the decklist has {count} non-blank lines; the limit is {limit}",
            count,
        )
    return text.format(count=count, limit=limit)


def _too_big(data: Mapping[str, Any]) -> str:
    limit = number(int(data.get("limit", 0)))
    if data.get("size") is None:
        return _("the decklist is longer than {limit} bytes").format(limit=limit)
    size = number(int(data["size"]))
    return _("the decklist is {size} bytes; the limit is {limit}").format(size=size, limit=limit)


_INPUT: dict[InputIssue, Callable[[Mapping[str, Any]], str]] = {
    InputIssue.TOO_BIG: _too_big,
    InputIssue.TOO_LONG: _too_long,
    InputIssue.NOT_TEXT: lambda _d: _("the file is not a text decklist"),
    InputIssue.NO_CARDS: lambda _d: _("the decklist holds no cards"),
    InputIssue.DOCTYPE: lambda _d: _("the deck file declares a document type; deck files don't"),
    InputIssue.NOT_XML: lambda d: _("the deck file is not well-formed XML ({detail})").format(**d),
    InputIssue.UNREADABLE_FILE: lambda d: _("cannot read {path}: {reason}").format(**d),
    InputIssue.TOO_SLOW: lambda d: _(
        "it took too long to read (over {limit} s); send a shorter list, or try again in a moment"
    ).format(limit=number(math.ceil(float(d.get("limit", 0))))),
}


_NOT_FOUND = {  # (named by an option, ambiguous)
    (True, True): N_("{option} {query} matches several cards"),
    (True, False): N_("{option} {query} is not a card I know"),
    (False, True): N_("the list's commander {query} matches several cards"),
    (False, False): N_("the list's commander {query} is not a card I know"),
}


def _check(code: DeckCheckCode, data: Mapping[str, Any], how: str) -> str:
    if code is DeckCheckCode.NO_COMMANDER:
        marks = _("a Commander section, a `Commander: Name` line or `*CMDR*`")
        return _("no commander named: {how}, or mark it in the list ({marks})").format(how=how, marks=marks)
    if code is DeckCheckCode.OPTION_TOO_LONG:
        option, length = option_name(str(data.get("option"))), number(int(data.get("length", 0)))
        text = _("the {option} name is {length} characters long; card names are at most {limit}")
        return text.format(option=option, length=length, limit=data.get("limit"))
    if code is DeckCheckCode.NOT_A_COLOR:
        text = _("{text} is not a color; use W, U, B, R, G or white, blue, black, red, green")
        return text.format(text=repr(data["text"]))
    if code is DeckCheckCode.NO_CHOOSER:
        return _(
            "a chosen color was given, but no commander of this deck chooses a color before the game "
            "(CR 903.4b)"
        )
    if code is DeckCheckCode.TOO_MANY_COLORS:
        return ngettext(
            "{given} chosen color was given, but only {choosers} of the commanders chooses a color "
            "(CR 903.4b)",
            "{given} chosen colors were given, but only {choosers} of the commanders chooses a color "
            "(CR 903.4b)",
            data["given"],
        ).format(**data)
    if code is DeckCheckCode.TOO_MANY_COMMANDERS:
        names = list(data["names"])
        shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        return ngettext(
            "the list marks {count} card as commanders ({names}); a deck has one or two: name the commander",
            "the list marks {count} cards as commanders ({names}); a deck has one or two: name the commander",
            data["count"],
        ).format(count=data["count"], names=shown)
    return code.value


def problem_text(error: DeckInputError, *, how: str | None = None) -> str:
    """The problem in a few words; `how` says how to name a commander where the words are read."""
    if isinstance(error, CommanderNotFound):
        data = error.data
        who = option_name(data["option"]) if data["option"] else ""
        text = _(_NOT_FOUND[bool(who), data["ambiguous"]]).format(option=who, query=repr(data["query"]))
        if data["names"]:
            text += _("; did you mean {names}?").format(names=", ".join(data["names"][:5]))
        return text
    if isinstance(error.code, InputIssue):
        return _INPUT[error.code](error.data)
    if isinstance(error.code, DeckCheckCode):
        return _check(error.code, error.data, how or _("give the commander"))
    return str(error)


def deck_input_text(error: DeckInputError) -> str:
    problem = problem_text(error, how=_("give it with `{option}:`").format(option=option_name("commander")))
    return _("I can't check that decklist: {problem}.").format(problem=render.echo(problem, 300))


def cli_text(error: DeckInputError) -> str:
    return "error: " + problem_text(error, how=_("give it with --commander NAME"))
