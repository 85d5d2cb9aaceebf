"""Words for the pick menu (offered when a card option names several cards, or none but close names) and for
the "Explain card names" message command (one line per `[[Card Name]]` of a message)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.cards.opinion import differs
from bot.identity.model import Analysis
from bot.present import render
from bot.present.embeds import card_url
from bot.present.errors import option_note
from bot.present.i18n import _, ngettext, option_name
from bot.present.message import CONTENT_LIMIT, Reply
from bot.present.render import Emoji

PickKind = Literal["ambiguous", "not_found"]

MENU_OPTIONS = 25  # Discord's limit of options in one select menu
MENTION_LIMIT = 10  # [[names]] explained per message


def pick_hint(kind: PickKind) -> str:
    """The line under the error text (which names the candidates) when a menu comes with it."""
    if kind == "ambiguous":
        return _("Or pick the card you mean in the menu below, and I'll finish the command with it.")
    return _("Pick the card you meant in the menu below, and I'll finish the command with it.")


def pick_placeholder(label: str | None = None) -> str:
    text = _("Pick the card for {option}").format(option=option_name(label)) if label else None
    return render.truncate(text or _("Pick the card you mean"), 150)  # Discord's limit


def pick_label(name: str) -> str:
    """Not escaped: Discord shows option labels as plain text (at most 100 characters)."""
    return render.truncate(" ".join(name.split()), 100)


def picked_text(name: str, label: str | None = None) -> str:
    return _("Picked {card}{option}.").format(card=f"**{render.escape(name)}**", option=option_note(label))


def pick_expired_text(query: str, label: str | None = None) -> str:
    return _(
        "This choice for \u201c{query}\u201d{option} has expired. Run the command again to pick a card."
    ).format(query=render.echo(query), option=option_note(label))


def not_your_pick_text() -> str:
    return _("Only the person who ran the command can pick here.")


def pick_taken_text() -> str:
    return _("A card was already picked here.")


@dataclass(frozen=True, slots=True)
class Explained:
    """One `[[name]]` of a message: the card and its analysis, or the problem (with close names or candidates)."""

    query: str
    card: Mapping[str, Any] | None = None
    analysis: Analysis | None = None
    problem: Literal["not_found", "ambiguous", "bad_name", "unavailable"] | None = None
    names: Sequence[str] = ()
    printed: str | None = None  # what was typed when not the card's own name (another language, a slip)


def no_card_mentions_text() -> str:
    return _(
        'That message names no card in double brackets. "{command}" explains each `[[Card Name]]` of a '
        "message, e.g. `[[Sol Ring]]` or `[[Fires of Undeath]]`."
    ).format(command=option_name("Explain card names"))


def explained_line(item: Explained, emoji: Emoji = None) -> str:
    """The card with its color identity (and its color if different), or the problem."""
    typed = f"[[{render.echo(item.query, 60)}]]"
    if item.card is not None and item.analysis is not None:
        name = render.escape(str(item.card.get("name") or item.query))
        card = f"**[{name}](<{card_url(item.card)}>)**"
        if item.printed:  # not the card's own name: the card's name first, then what was typed
            card += f" ({render.echo(item.printed, 60)})"
        identity = render.pips(item.analysis.identity, emoji)
        line = _("{card}: color identity {identity}").format(card=card, identity=identity)
        if item.analysis.colors != item.analysis.identity:
            line += _(" (color: {colors})").format(colors=render.color_words(item.analysis.colors))
        if (doubt := differs(item.card, item.analysis)) is not None:
            theirs = render.pips(doubt.theirs, emoji)
            line += " \u26a0\ufe0f " + _("(Scryfall lists {colors})").format(colors=theirs)
        return line
    names = ", ".join(render.escape(render.truncate(n, 80)) for n in list(dict.fromkeys(item.names))[:3])
    if item.problem == "ambiguous" and names:
        text = _("{typed}: matches several cards ({names}, \u2026)")
    elif item.problem == "ambiguous":
        text = _("{typed}: matches several cards")
    elif item.problem == "not_found":
        text = _("{typed}: no such card; did you mean {names}?") if names else _("{typed}: no such card")
    elif item.problem == "unavailable":
        text = _("{typed}: couldn't be looked up right now (Scryfall isn't answering)")
    else:
        text = _("{typed}: not a card name")
    return text.format(typed=typed, names=names)


def explain_reply(items: Sequence[Explained], *, left_out: int = 0, emoji: Emoji = None) -> Reply:
    """In 2,000 characters; `left_out` names are counted at the end."""
    lines = [explained_line(item, emoji) for item in items]
    if left_out:
        more = ngettext(
            "\u2026and {n} more name (I explain at most {limit} per message)",
            "\u2026and {n} more names (I explain at most {limit} per message)",
            left_out,
        )
        lines.append(more.format(n=left_out, limit=MENTION_LIMIT))
    return Reply(content=render.join_limited(lines, CONTENT_LIMIT))
