"""Replies in every supported locale (issue 20): /identity and /fits for many real cards of the shared data set,
/help, every error and choice text. Each stays within Discord's limits, never repeats a line, and keeps no English
sentence of the templates (the card's own words, its name, type line and rules text, stay as printed)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pytest

from bot.deck.entries import InputIssue
from bot.deck.parser import DeckInputError
from bot.identity import analyze, check_fit
from bot.present import choices, deck_errors, embeds, errors, i18n
from bot.present.message import CONTENT_LIMIT, Reply
from tests.present import limits
from tests.present.test_embeds import card as card_named
from tests.present.test_i18n import code_messages
from tests.shared_data import all_cards, cards_by_name

EXAMPLE_CARDS = (
    "Fires of Undeath",
    "Dismember",
    "Sol Ring",
    "Lightning Bolt",
    "Kumano, Master Yamabushi",
    "Tymna the Weaver",
    "Kraum, Ludevic's Opus",
    "The Prismatic Piper",
    "Clara Oswald",
)
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
LEADERS = (
    ["Kumano, Master Yamabushi"],
    ["Tymna the Weaver", "Kraum, Ludevic's Opus"],
    ["The Prismatic Piper"],
    ["Lightning Bolt"],
)


@cache
def english_phrases() -> frozenset[str]:
    """Every run of three or more words in the English templates (between placeholders): none may be left in a
    reply in another language."""
    out: set[str] = set()
    for message in code_messages():
        for text in message if isinstance(message, tuple) else (message,):
            for piece in re.split(r"[{}\n().;:,“”\"`*]", PLACEHOLDER.sub("\n", text)):
                words = piece.split()
                if len(words) >= 3 and all(w.isascii() for w in words):
                    out.add(" ".join(words))
    return frozenset(out)


def card_words(*cards: Mapping[str, Any]) -> list[str]:
    """What a reply quotes from the cards themselves, longest first."""
    found: set[str] = set()
    for card in cards:
        for part in [card, *(card.get("card_faces") or ())]:
            found.update(str(part.get(k) or "") for k in ("name", "type_line"))
            found.update(str(part.get("oracle_text") or "").split("\n"))
    return sorted((w for w in found if w), key=len, reverse=True)


def shown_text(reply: Reply, quoted: list[str], *, card_line: bool = False) -> str:
    """The reply's words without what it quotes from cards (evidence lines show the card's line after ': ';
    `card_line`: the description starts with the card's mana cost and type line)."""
    lines = []
    for embed in reply.embeds:
        lines += [
            embed.title or "",
            *(embed.description or "").split("\n")[int(card_line) :],
            embed.footer or "",
        ]
        for f in embed.fields:
            lines += [f.name, *(line.split(": ", 1)[0] for line in f.value.split("\n"))]
    text = "\n".join([reply.content or "", *lines]).replace("\\", "").replace("**", "")
    for words in quoted:
        text = text.replace(words, " ")
    return text


def english_left(text: str) -> list[str]:
    return sorted(p for p in english_phrases() if p in text)


def sample_cards() -> Iterator[Mapping[str, Any]]:
    yield from all_cards()[::97]
    for name in (
        "Fires of Undeath",
        "Kitchen Finks",
        "Dismember",
        "Transguild Courier",
        "Ghostfire",
        "Goblin",
        "Sol Ring",
        "Lurrus of the Dream-Den",
        "Esika, God of the Tree // The Prismatic Bridge",
    ):
        yield card_named(name)


@cache
def sample_facts() -> tuple[dict[tuple[str, ...], list[Any]], list[tuple[Any, ...]]]:
    """The leaders by names, and each sample card with its analysis and its fit under each of LEADERS: facts
    without words, worked out once for every locale's replies."""
    named = {tuple(names): [card_named(n) for n in names] for names in LEADERS}
    facts = [
        (c, analyze(c), {names: check_fit(c, led) for names, led in named.items()}) for c in sample_cards()
    ]
    return named, facts


@pytest.mark.parametrize("locale", ["de", "es-ES", "es-419", "fr", "it", "ja", "pt-BR"])
def test_card_replies_in_every_locale_fit_discord_and_leave_no_english(locale: str) -> None:
    named, facts = sample_facts()
    every_leader = [leader for leaders in named.values() for leader in leaders]
    problems: dict[str, list[str]] = {}
    with i18n.using(locale):
        for card, analysis, fits in facts:
            quoted = card_words(card, *every_leader)
            replies = {"/identity": embeds.identity_reply(analysis, card)}
            for names, leaders in named.items():
                replies[f"/fits {names}"] = embeds.fits_reply(fits[names], card, leaders)
            for kind, reply in replies.items():
                found = limits.embed_problems(reply.embeds) + limits.repeated_lines(reply)
                found += english_left(shown_text(reply, quoted, card_line=kind == "/identity"))
                if found:
                    problems[f"{kind} {card['name']}"] = found
    assert problems == {}


@pytest.mark.parametrize("locale", ["de", "es-ES", "fr", "it", "ja", "pt-BR"])
def test_help_errors_and_choices_in_every_locale(locale: str) -> None:
    with i18n.using(locale):
        texts = [
            errors.not_found_text("Foudre", ["Lightning Bolt"], "card"),
            errors.not_found_text("xyz", []),
            errors.ambiguous_text("bolt", [f"Card {i}" for i in range(14)], "commander"),
            errors.unavailable_text(),
            errors.unavailable_text(30),
            errors.unavailable_text(600),
            errors.busy_text(1),
            errors.busy_text(),
            errors.too_long_text(240, "card"),
            errors.empty_text("partner"),
            deck_errors.deck_input_text(DeckInputError(InputIssue.NO_CARDS)),
            errors.cooldown_text(1),
            errors.cooldown_text(7),
            errors.error_text(),
            errors.attachment_unreadable_text(),
            errors.chosen_color_text("partner_color", None),
            errors.chosen_color_text("color", "Kumano, Master Yamabushi"),
            choices.pick_hint("ambiguous"),
            choices.pick_hint("not_found"),
            choices.pick_placeholder("commander"),
            choices.pick_placeholder(),
            choices.picked_text("Sol Ring", "card"),
            choices.pick_expired_text("sol", "card"),
            choices.not_your_pick_text(),
            choices.pick_taken_text(),
            choices.no_card_mentions_text(),
            choices.explain_reply(
                [
                    choices.Explained("boltt", problem="not_found", names=["Lightning Bolt"]),
                    choices.Explained("x", problem="ambiguous", names=["A", "B"]),
                    choices.Explained("y", problem="unavailable"),
                    choices.Explained("z", problem="bad_name"),
                ],
                left_out=3,
            ).content
            or "",
        ]
        help_reply = embeds.help_reply()
    quoted = [*card_words(*(card_named(n) for n in EXAMPLE_CARDS)), "Praetors' Voice", "Ludevic's Opus"]
    problems = [
        t
        for t in texts
        if not 0 < len(t) <= CONTENT_LIMIT or english_left(shown_text(Reply(content=t), quoted))
    ]
    problems += limits.embed_problems(help_reply.embeds) + english_left(shown_text(help_reply, quoted))
    assert problems == []


def test_english_replies_are_the_templates_themselves() -> None:
    """The check can fail: an English reply is full of template phrases."""
    card = cards_by_name()["Fires of Undeath"]
    assert english_left(
        shown_text(embeds.identity_reply(analyze(card), card), card_words(card), card_line=True)
    )
