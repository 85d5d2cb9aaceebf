"""Every card of the shared data set through /identity (issue 13's acceptance): within Discord's embed limits, no
line said twice, every object that is not a deck card said to be one, and with the application's mana emoji no
`{X}` text left for a symbol that has an emoji."""

from __future__ import annotations

import re

import pytest

from bot.identity import analyze
from bot.present import embeds, mana_art
from tests.present import limits
from tests.shared_data import all_analyses, all_cards

EMOJI = mana_art.emoji_map(
    {mana_art.emoji_name(s): 900_000_000_000_000_000 + i for i, s in enumerate(mana_art.SYMBOLS)}
)
SYMBOL = re.compile(r"\{([^{}]+)\}")


@pytest.mark.slow
def test_every_identity_reply_fits_discord_and_never_repeats_a_line():
    problems: dict[str, list[str]] = {}
    longest = (0, "")
    for card, analysis in zip(all_cards(), all_analyses(), strict=True):
        reply = embeds.identity_reply(analysis, card)
        (embed,) = reply.embeds
        found = limits.embed_problems(reply.embeds) + [
            f"repeated: {line}" for line in limits.repeated_lines(reply)
        ]
        if not analysis.deck_card and "not a card you put in a deck" not in (embed.description or ""):
            found.append("a non-deck object described as a deck card")
        if found:
            problems[card["name"]] = found
        longest = max(longest, (limits.reply_length(reply), card["name"]))
    assert problems == {}
    assert longest[0] <= 1000, longest  # every reply stays short (bench/replies.py prints the longest)


def test_every_symbol_shown_uses_the_emoji_map_when_it_has_one():
    leftovers: dict[str, set[str]] = {}
    for card in all_cards()[::7]:
        reply = embeds.identity_reply(analyze(card), card, emoji=EMOJI)
        assert limits.embed_problems(reply.embeds) == [], card["name"]
        text = "\n".join(limits.reply_lines(reply))
        left = {m for m in SYMBOL.findall(text) if m.upper() in EMOJI}
        if left:
            leftovers[card["name"]] = left
    assert leftovers == {}
