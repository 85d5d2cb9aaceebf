"""The words of every error reply (ephemeral, plain content). User input is echoed escaped and short."""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.cards.model import MAX_SUGGESTIONS
from bot.cards.names import MAX_INPUT_CHARS
from bot.present import render
from bot.present.i18n import _, ngettext, number, option_name
from bot.present.message import CONTENT_LIMIT

CANDIDATES_SHOWN = 10


def option_note(label: str | None) -> str:
    """' (for `commander`)': which option a reply is about, named as the player's client shows it."""
    return _(" (for `{option}`)").format(option=option_name(label)) if label else ""


def _bold_names(names: Sequence[str], limit: int) -> str:
    shown = list(dict.fromkeys(names))[:limit]
    return ", ".join(f"**{render.escape(render.truncate(n, 150))}**" for n in shown)


def not_found_text(query: str, suggestions: Sequence[str], label: str | None = None) -> str:
    query, option = render.echo(query), option_note(label)
    text = _("I couldn't find a card named \u201c{query}\u201d{option}.").format(query=query, option=option)
    if names := _bold_names(suggestions, MAX_SUGGESTIONS):
        text += "\n" + _("Did you mean: {names}?").format(names=names)
    else:
        text += "\n" + _("Check the spelling, or start typing and pick a name from the suggestions.")
    return render.truncate(text, CONTENT_LIMIT)


def ambiguous_text(query: str, candidates: Sequence[str], label: str | None = None) -> str:
    query, option = render.echo(query), option_note(label)
    text = _("\u201c{query}\u201d{option} matches several cards").format(query=query, option=option)
    if names := _bold_names(candidates, CANDIDATES_SHOWN):
        text = render.colon(text, names)
        if len(candidates) > CANDIDATES_SHOWN:
            text += _(" and {n} more").format(n=len(candidates) - CANDIDATES_SHOWN)
    text += _(". Please type more of the name.")
    return render.truncate(text, CONTENT_LIMIT)


def wait_words(retry_after: float | None, default: str | None = None, *, about: bool = True) -> str:
    """When to try again: 'in about 5 seconds' (`about=False`: 'in 5 seconds'), 'in a few minutes'."""
    if not retry_after or retry_after <= 0:
        return default or _("in a minute")
    if retry_after >= 90:
        return _("in a few minutes")
    n = max(1, round(retry_after))
    if about:
        return ngettext("in about {n} second", "in about {n} seconds", n).format(n=n)
    return ngettext("in {n} second", "in {n} seconds", n).format(n=n)


def unavailable_text(retry_after: float | None = None) -> str:
    return _(
        "Scryfall (where my card data comes from) isn't answering right now, so I can't look that card up. "
        "Please try again {when}."
    ).format(when=wait_words(retry_after))


def busy_text(retry_after: float | None = None) -> str:
    return _(
        "I'm busy: many card lookups are waiting for Scryfall right now. Please try again {when}."
    ).format(when=wait_words(retry_after, _("in a few seconds")))


def too_long_text(length: int, label: str | None = None) -> str:
    return _(
        "That card name{option} is {length} characters long; card names are at most {limit} characters. "
        "Please check it and try again."
    ).format(option=option_note(label), length=number(length), limit=MAX_INPUT_CHARS)


def empty_text(label: str | None = None) -> str:
    return _("Please give a card name{option}.").format(option=option_note(label))


def cooldown_text(retry_after: float) -> str:
    seconds = max(1, math.ceil(retry_after))
    return "\u23f3 " + ngettext(
        "You're sending commands a little fast. Please try again in {n} second.",
        "You're sending commands a little fast. Please try again in {n} seconds.",
        seconds,
    ).format(n=seconds)


def error_text() -> str:
    return _("Sorry, something went wrong on my side while answering. Please try again.")


def attachment_unreadable_text() -> str:
    return _("I couldn't download the attached file; please upload it again.")


def chosen_color_text(option: str, commander: str | None) -> str:
    """`commander`: the card the option would apply to (None for `partner_color:` without `partner:`)."""
    if commander is None:
        return _(
            "`{option}:` is the color your partner chooses before the game; please give the `{partner}:` too."
        ).format(option=option_name(option), partner=option_name("partner"))
    return _(
        "`{option}:` is for a commander that chooses a color before the game begins (CR 903.4b), such as "
        "The Prismatic Piper or Clara Oswald; {card} doesn\u2019t choose one."
    ).format(option=option_name(option), card=render.escape(render.truncate(commander, 150)))
