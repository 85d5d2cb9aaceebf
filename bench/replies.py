"""Benchmark: the length of the bot's card replies over the whole shared data set.

Run: python bench/replies.py [--fits COMMANDER] [--emoji] [--locale de]
Renders /identity for every card (and, with --fits, /fits of every card against one commander), and prints the
longest replies (characters of text, as Discord counts them for embeds), the median, how many exceed 1,000
characters, any reply with a repeated line or over Discord's limits, and the time per reply. `--emoji` renders
with an application emoji for every mana symbol (each pip then counts as its `<:mana_X:id>` markup).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.identity import analyze, check_fit
from bot.present import embeds, i18n, mana_art
from bot.present.message import Reply
from tests.present import limits
from tests.shared_data import all_cards, cards_by_name

SHORT = 1000  # issue 13: replies about the multicolor cards stay within this many characters


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fits", metavar="COMMANDER", help="also /fits every card against this commander")
    parser.add_argument("--emoji", action="store_true", help="render with an emoji for every mana symbol")
    parser.add_argument("--top", type=int, default=5, help="how many of the longest replies to name")
    parser.add_argument(
        "--locale", default="en-US", help="the Discord locale to word the replies in (de, ja, pt-BR, ...)"
    )
    args = parser.parse_args()
    i18n.set_locale(args.locale)

    emoji = (
        mana_art.emoji_map(
            {mana_art.emoji_name(s): 1_300_000_000_000_000_000 + i for i, s in enumerate(mana_art.SYMBOLS)}
        )
        if args.emoji
        else None
    )
    cards = all_cards()
    leader = cards_by_name()[args.fits] if args.fits else None
    kinds: dict[str, list[tuple[int, str]]] = {"/identity": []}
    if leader is not None:
        kinds["/fits"] = []
    bad: list[str] = []
    started = time.perf_counter()
    for card in cards:
        replies: dict[str, Reply] = {"/identity": embeds.identity_reply(analyze(card), card, emoji=emoji)}
        if leader is not None:
            replies["/fits"] = embeds.fits_reply(check_fit(card, [leader]), card, [leader], emoji=emoji)
        for kind, reply in replies.items():
            kinds[kind].append((limits.reply_length(reply), card["name"]))
            problems = limits.embed_problems(reply.embeds) + limits.repeated_lines(reply)
            if problems:
                bad.append(f"{kind} {card['name']}: {problems}")
    seconds = time.perf_counter() - started
    total = sum(len(v) for v in kinds.values())
    print(
        f"cards: {len(cards)}, replies: {total}, {seconds / total * 1e6:,.0f} \u00b5s per reply"
        f"{' (with emoji markup)' if emoji else ''}"
    )
    for kind, lengths in kinds.items():
        lengths.sort(reverse=True)
        longest = ", ".join(f"{n} {name}" for n, name in lengths[: args.top])
        over = sum(1 for n, _ in lengths if n > SHORT)
        print(
            f"{kind}: longest reply {lengths[0][0]} characters; median {statistics.median(n for n, _ in lengths):.0f}; "
            f"{over} over {SHORT}"
        )
        print(f"  longest: {longest}")
    print(f"replies breaking Discord's limits or repeating a line: {len(bad)}")
    for line in bad[:10]:
        print(f"  {line}")


if __name__ == "__main__":
    main()
