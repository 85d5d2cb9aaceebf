"""Words for the choices the bot offers and for the "Explain card names" message command.

- The pick menu: when a card option names several cards, or no card but close names, the error reply
  carries a select menu of the candidates (best first); these functions word its prompt, placeholder,
  options, and what the prompt says once a card was picked or the menu expired.
- "Explain card names" (a message command): one compact line per `[[Card Name]]` of a message, with the
  card's color identity in the presentation's own color words (`render.pips`, `render.color_words`).

No discord.py here: the Discord layer (`bot.app.picks`, `cogs.messages`) builds the components.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.identity.model import Analysis
from bot.present import render
from bot.present.embeds import card_url
from bot.present.errors import option_note
from bot.present.i18n import _, ngettext, option_name
from bot.present.message import CONTENT_LIMIT, Reply

PickKind = Literal["ambiguous", "not_found"]

MENU_OPTIONS = 25  # Discord's limit of options in one select menu
OPTION_LABEL_LIMIT = 100  # Discord's limit of a select option's label
PLACEHOLDER_LIMIT = 150  # Discord's limit of a select menu's placeholder
MENTION_LIMIT = 10  # [[names]] explained per message
SUGGESTIONS_SHOWN = 3  # close names shown for an unknown [[name]]


# ------------------------------------------------------------------------------------- the pick menu
def pick_hint(kind: PickKind) -> str:
    """The line added under the error text (which names the candidates) when a menu comes with it."""
    if kind == "ambiguous":
        return _("Or pick the card you mean in the menu below, and I'll finish the command with it.")
    return _("Pick the card you meant in the menu below, and I'll finish the command with it.")


def pick_placeholder(label: str | None = None) -> str:
    """The menu's grey text before anything is picked."""
    text = (
        _("Pick the card for {option}").format(option=option_name(label))
        if label
        else _("Pick the card you mean")
    )
    return render.truncate(text, PLACEHOLDER_LIMIT)


def pick_label(name: str) -> str:
    """One option of the menu: the card name, cut to Discord's 100 characters (not escaped: Discord shows
    option labels as plain text)."""
    return render.truncate(" ".join(name.split()), OPTION_LABEL_LIMIT)


def picked_text(name: str, label: str | None = None) -> str:
    """What the prompt says once the user picked a card (the menu is removed)."""
    return _("Picked {card}{option}.").format(card=f"**{render.escape(name)}**", option=option_note(label))


def pick_expired_text(query: str, label: str | None = None) -> str:
    """What the prompt says when nobody picked in time (the menu is removed)."""
    return _(
        "This choice for \u201c{query}\u201d{option} has expired. Run the command again to pick a card."
    ).format(query=render.echo(query), option=option_note(label))


def not_your_pick_text() -> str:
    """Said (only to them) to someone who tries to pick in another user's menu."""
    return _("Only the person who ran the command can pick here.")


def pick_taken_text() -> str:
    """Said when the menu was already used (a second pick arriving before the menu is removed)."""
    return _("A card was already picked here.")


# ---------------------------------------------------------------------------------- explain names
@dataclass(frozen=True, slots=True)
class Explained:
    """One `[[name]]` of a message and what became of it: the card and its analysis, or not found (with close
    names), ambiguous (with candidates), or not readable as a card name."""

    query: str
    card: Mapping[str, Any] | None = None
    analysis: Analysis | None = None
    problem: Literal["not_found", "ambiguous", "bad_name", "unavailable"] | None = None
    names: Sequence[str] = ()
    printed: str | None = None  # the name printed in another language the card was found by, as typed


def no_card_mentions_text() -> str:
    """The message has no `[[Card Name]]` to explain."""
    return _(
        'That message names no card in double brackets. "{command}" explains each `[[Card Name]]` of a '
        "message, e.g. `[[Sol Ring]]` or `[[Fires of Undeath]]`."
    ).format(command=option_name("Explain card names"))


def _names(names: Sequence[str], limit: int) -> str:
    return ", ".join(render.escape(render.truncate(n, 80)) for n in list(dict.fromkeys(names))[:limit])


def explained_line(item: Explained, emoji: Mapping[str, str] | None = None) -> str:
    """One line for one `[[name]]`: the card (linked to Scryfall) with its color identity, and its color when
    that differs; or why it could not be explained."""
    typed = f"[[{render.echo(item.query, 60)}]]"
    if item.card is not None and item.analysis is not None:
        name = render.escape(str(item.card.get("name") or item.query))
        card = f"**[{name}](<{card_url(item.card)}>)**"
        if item.printed:  # typed in another language: the English name first, then what was typed
            card += f" ({render.echo(item.printed, 60)})"
        line = _("{card}: color identity {identity}").format(
            card=card, identity=render.pips(item.analysis.identity, emoji)
        )
        if item.analysis.colors != item.analysis.identity:
            line += _(" (color: {colors})").format(colors=render.color_words(item.analysis.colors))
        return line
    names = _names(item.names, SUGGESTIONS_SHOWN)
    if item.problem == "ambiguous":
        if names:
            return _("{typed}: matches several cards ({names}, \u2026)").format(typed=typed, names=names)
        return _("{typed}: matches several cards").format(typed=typed)
    if item.problem == "not_found":
        if names:
            return _("{typed}: no such card; did you mean {names}?").format(typed=typed, names=names)
        return _("{typed}: no such card").format(typed=typed)
    if item.problem == "unavailable":
        return _("{typed}: couldn't be looked up right now (Scryfall isn't answering)").format(typed=typed)
    return _("{typed}: not a card name").format(typed=typed)


def explain_reply(
    items: Sequence[Explained], *, left_out: int = 0, emoji: Mapping[str, str] | None = None
) -> Reply:
    """The reply to "Explain card names": one line per name, within Discord's 2,000 characters; `left_out`
    names beyond the limit are counted at the end."""
    lines = [explained_line(item, emoji) for item in items]
    if left_out:
        lines.append(
            ngettext(
                "\u2026and {n} more name (I explain at most {limit} per message)",
                "\u2026and {n} more names (I explain at most {limit} per message)",
                left_out,
            ).format(n=left_out, limit=MENTION_LIMIT)
        )
    return Reply(content=render.join_limited(lines, CONTENT_LIMIT))
