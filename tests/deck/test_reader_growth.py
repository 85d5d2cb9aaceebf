"""Growth tests: each shape of player text that once made a reader, the one-line splitter, a message helper or
the log redaction backtrack (issue 25), timed at n and at 10·n in the same run. Linear work takes about 10 times as long; the
bound (`MAX_RATIO`) leaves room for noise, and a quadratic pattern (100 times) or worse fails it. Times are the
thread's CPU time, the least of a few runs, so other work on the machine can't fail these tests."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from bot.app.decks import links_in, looks_like_a_list, without_fences
from bot.deck.formats.lines import header, normalize_name, read_entry
from bot.deck.formats.oneline import split_entries
from bot.deck.parser import DeckInputError, parse
from bot.deck.sources import DeckLink, DeckSourceError, Site, parse_deck_url
from bot.deck.sources.fetch import read_answer
from bot.ops.logs import redact
from cogs.messages import card_mentions

MAX_RATIO = 30
N = 5_000  # 10·N characters of a shape stay under the readers' 64 KB


def _parse(text: str) -> object:
    try:
        return parse(text)
    except DeckInputError:
        return None


def _link(text: str) -> object:
    try:
        return parse_deck_url(text)
    except DeckSourceError:
        return None


def _answer(site: Site) -> Callable[[str], object]:
    """A deck site's reader on an answer (a failure to read is a result too)."""

    def read(text: str) -> object:
        try:
            return read_answer(DeckLink(site, "1/2"), text, 10**7)
        except DeckSourceError as exc:
            return exc

    return read


def _message(text: str) -> object:
    rest = links_in(text)[2]
    return looks_like_a_list(without_fences(rest)), card_mentions(text)


# (what reads it, the text at size n)
SHAPES: dict[str, tuple[Callable[[str], object], Callable[[int], str]]] = {
    "header: a, spaces, !": (header, lambda n: "a" + " " * n + "!"),
    "a pasted line: a, spaces, !": (_parse, lambda n: "a" + " " * n + "!"),
    "suffixes searched from every space": (_parse, lambda n: "1 a" + " " * n + "b\n1 Shock"),
    "tabs before a set code": (_parse, lambda n: "1 a" + "\t" * n + "(C21)\n1 Shock"),
    "one line of spaces between `;`": (_parse, lambda n: "1 a" + " " * n + "; 1 b"),
    "one line cut at `|` and `;`": (split_entries, lambda n: "1 a ;" * (n // 5)),
    "trailing count: spaces, x": (_parse, lambda n: "Sol Ring" + " " * n + "x\n1 Shock"),
    "inline section: spaces before a colon": (read_entry, lambda n: "Commander" + " " * n + ": a"),
    "header words and spaces": (_parse, lambda n: "Main Deck " * (n // 10) + "!"),
    "star marks": (_parse, lambda n: "1 a" + " *F*" * (n // 4) + "\n1 Shock"),
    "tags": (_parse, lambda n: "1 a" + " #x" * (n // 3) + "\n1 Shock"),
    "carets": (_parse, lambda n: "1 a" + " ^x" * (n // 3) + "\n1 Shock"),
    "set codes": (_parse, lambda n: "1 a" + " (C21)" * (n // 6) + "\n1 Shock"),
    "brackets": (_parse, lambda n: "1 a" + " [x" * (n // 3) + "\n1 Shock"),
    "split-card separators": (_parse, lambda n: "1 A" + " // B" * (n // 5) + "\n1 Shock"),
    "separators on one line": (_parse, lambda n: "1 A" + " // B" * (n // 5)),
    "a name of slashes": (normalize_name, lambda n: "a" + " / " * (n // 3)),
    "a count of thousands of digits": (_parse, lambda n: "Swamp: " + "9" * n + "\n1 Shock"),
    "a leading count of thousands of digits": (_parse, lambda n: "9" * n + " Swamp\n1 Shock"),
    "a Forge file on one line, spaces": (_parse, lambda n: "[Main] 1 a" + " " * n + "b 1 c"),
    "a Forge file on one line, metadata": (_parse, lambda n: "[metadata] " + "Name=x " * (n // 7)),
    "a CSV row of spaces": (_parse, lambda n: "Count,Name\n1," + " " * n + "a\n"),
    "XML attribute of spaces": (
        _parse,
        lambda n: (
            f'<cockatrice_deck><zone name="main"><card number="1" name="a{" " * n}b"/></zone>'
            "</cockatrice_deck>"
        ),
    ),
    "message: a count, spaces": (_message, lambda n: "1" + " " * n),
    "message: fences": (_message, lambda n: "```" * (n // 3)),
    "message: an open fence, spaces": (_message, lambda n: "```a" + " " * n),
    "message: open mentions": (_message, lambda n: "[[" * (n // 2)),
    "message: site words": (_message, lambda n: "moxfield.com/ " * (n // 14)),
    "deck link of slashes": (_link, lambda n: "https://moxfield.com/decks" + "/" * (n // 100)),
    "a logged Authorization: of spaces": (redact, lambda n: "authorization:" + " " * n),
    "page: tags whose quotes never close": (_answer(Site.TAPPEDOUT), lambda n: '<a x="' * (n // 6)),
    "page: a tag of equals signs": (_answer(Site.TAPPEDOUT), lambda n: "<a " + "=" * n),
    "page: open tags": (_answer(Site.AETHERHUB), lambda n: "<" * n),
    "page: an open script": (_answer(Site.AETHERHUB), lambda n: "<script>" + "<a " * (n // 3)),
    "page: TappedOut board cards": (
        _answer(Site.TAPPEDOUT),
        lambda n: '<h3>Commander</h3><a class="qty board" data-qty="1" data-name="a">' * (n // 70),
    ),
    "page: TappedOut widget members": (
        _answer(Site.TAPPEDOUT),
        lambda n: '{"board": "' + '<li class=\\"tappedout-member\\">1x<a>b</a>' * (n // 45) + '"}',
    ),
    "page: MTGGoldfish escapes": (_answer(Site.MTGGOLDFISH), lambda n: "x('deck-view-deck-table" + "\\'" * n),
    "page: MTGGoldfish rows": (
        _answer(Site.MTGGOLDFISH),
        lambda n: "<table class='deck-view-deck-table'>" + "<tr><td>1</td><td><a>b</a></td></tr>" * (n // 36),
    ),
    "page: Deckstats nested data": (_answer(Site.DECKSTATS), lambda n: "init_deck_data(" + "[" * n),
    "page: Deckstats app data": (
        _answer(Site.DECKSTATS),
        lambda n: (
            '<script data-page="app" type="application/json">{"props":{"entries":['
            + '{"amount":1,"name":"a"},' * (n // 24)
            + "{}]}}</script>"
        ),
    ),
    "export: Scryfall headings": (_answer(Site.SCRYFALL), lambda n: "// x\n1 a\n" * (n // 10)),
    "export: a CSV quote never closed": (
        _answer(Site.TAPPEDOUT),
        lambda n: 'Board,Qty,Name\nmain,1,"' + "a" * n,
    ),
    "answer: EDHREC lines": (_answer(Site.EDHREC), lambda n: '{"deck": [' + '"1 a",' * (n // 6) + '"1 b"]}'),
    "answer: nested JSON": (_answer(Site.TCGPLAYER), lambda n: "[" * n),
}


def cpu_time(read: Callable[[str], object], text: str, runs: int = 3) -> float:
    """CPU seconds one read takes: the least of `runs` rounds, each of enough reads to take 5 ms or more."""
    calls, best = 1, float("inf")
    while True:
        started = time.thread_time()
        for _ in range(calls):
            read(text)
        if (spent := time.thread_time() - started) >= 0.005:
            break
        calls *= 2
    best = spent / calls
    for _ in range(runs - 1):
        started = time.thread_time()
        for _ in range(calls):
            read(text)
        best = min(best, (time.thread_time() - started) / calls)
    return best


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_reading_grows_linearly(shape: str) -> None:
    read, make = SHAPES[shape]
    cpu_time(read, make(N // 10))  # warm up: caches, compiled patterns
    small, large = cpu_time(read, make(N)), cpu_time(read, make(10 * N))
    assert large / small < MAX_RATIO, f"{shape}: {small:.5f} s at n, {large:.5f} s at 10·n"
