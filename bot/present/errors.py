"""The words of every error reply (ephemeral, plain content). User input is echoed escaped and short."""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.cards.model import MAX_SUGGESTIONS
from bot.cards.names import MAX_INPUT_CHARS
from bot.present import render
from bot.present.message import CONTENT_LIMIT

CANDIDATES_SHOWN = 10


def _option(label: str | None) -> str:
    return f" (for `{label}`)" if label else ""


def _names(names: Sequence[str], limit: int) -> list[str]:
    return [render.escape(render.truncate(n, 150)) for n in list(dict.fromkeys(names))[:limit]]


def not_found_text(query: str, suggestions: Sequence[str], label: str | None = None) -> str:
    text = f"I couldn't find a card named \u201c{render.echo(query)}\u201d{_option(label)}."
    names = _names(suggestions, MAX_SUGGESTIONS)
    if names:
        text += "\nDid you mean: " + ", ".join(f"**{n}**" for n in names) + "?"
    else:
        text += "\nCheck the spelling, or start typing and pick a name from the suggestions."
    return render.truncate(text, CONTENT_LIMIT)


def ambiguous_text(query: str, candidates: Sequence[str], label: str | None = None) -> str:
    text = f"\u201c{render.echo(query)}\u201d{_option(label)} matches several cards"
    names = _names(candidates, CANDIDATES_SHOWN)
    if names:
        text += ": " + ", ".join(f"**{n}**" for n in names)
        if len(candidates) > CANDIDATES_SHOWN:
            text += f" and {len(candidates) - CANDIDATES_SHOWN} more"
    text += ". Please type more of the name."
    return render.truncate(text, CONTENT_LIMIT)


def _wait(retry_after: float | None, default: str = "in a minute") -> str:
    if not retry_after or retry_after <= 0:
        return default
    return f"in about {max(1, round(retry_after))} seconds" if retry_after < 90 else "in a few minutes"


def unavailable_text(retry_after: float | None = None) -> str:
    return (f"Scryfall (where my card data comes from) isn't answering right now, so I can't look that "
            f"card up. Please try again {_wait(retry_after)}.")


def busy_text(retry_after: float | None = None) -> str:
    return (f"I'm busy: many card lookups are waiting for Scryfall right now. Please try again "
            f"{_wait(retry_after, 'in a few seconds')}.")


def too_long_text(length: int, label: str | None = None) -> str:
    return (f"That card name{_option(label)} is {length:,} characters long; card names are at most "
            f"{MAX_INPUT_CHARS} characters. Please check it and try again.")


def empty_text(label: str | None = None) -> str:
    return f"Please give a card name{_option(label)}."


def deck_input_text(problem: str) -> str:
    return f"I can't check that decklist: {render.echo(problem, 300)}."


def cooldown_text(retry_after: float) -> str:
    seconds = max(1, math.ceil(retry_after))
    unit = "second" if seconds == 1 else "seconds"
    return f"\u23f3 You're sending commands a little fast. Please try again in {seconds} {unit}."


def error_text() -> str:
    return "Sorry, something went wrong on my side while answering. Please try again."


def attachment_unreadable_text() -> str:
    return "I couldn't download the attached file; please upload it again."


def chosen_color_text(option: str, commander: str | None) -> str:
    """Why a `color:`/`partner_color:` option can't be used: `commander` is the card it would apply to (None
    when there is no such commander, e.g. `partner_color:` without `partner:`)."""
    if commander is None:
        return f"`{option}:` is the color your partner chooses before the game; please give the `partner:` too."
    return (f"`{option}:` is for a commander that chooses a color before the game begins (CR 903.4b), such as "
            f"The Prismatic Piper or Clara Oswald; {render.escape(render.truncate(commander, 150))} doesn\u2019t "
            f"choose one.")
