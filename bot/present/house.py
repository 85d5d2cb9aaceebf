"""The words of /house and of the house rules in other replies: a server's bans (told apart from the official
Commander ban list) and its bracket (how many Game Changers it allows)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.deck.brackets import MAX_GAME_CHANGERS
from bot.deck.report import HouseApplied
from bot.house.rules import Rules
from bot.present import render
from bot.present.i18n import _, ngettext
from bot.present.message import Embed, Reply
from bot.present.words import NAME_WIDTH, plain, shown

SHOWN_BANS = 30  # names /house show lists before "…and N more" (a phone screen)


def allowance_words(bracket: int) -> str:
    """'no Game Changers', 'up to 3 Game Changers', 'any number of Game Changers'."""
    if (limit := MAX_GAME_CHANGERS[bracket]) is None:
        return _("any number of Game Changers")
    if limit == 0:
        return _("no Game Changers")
    return ngettext("up to {n} Game Changer", "up to {n} Game Changers", limit).format(n=limit)


def bracket_words(bracket: int) -> str:
    """'bracket 2 (no Game Changers)'."""
    return _("bracket {level} ({allowance})").format(level=bracket, allowance=allowance_words(bracket))


def not_allowed_text() -> str:
    return _(
        "Only members with the **Manage Server** permission can change this server\u2019s house rules; "
        "nothing was changed. Everyone can see them with `/house show`."
    )


def server_only_text() -> str:
    return _("House rules belong to a server: use `/house` in a server where this bot is installed.")


def unavailable_text() -> str:
    return _(
        "The house rules can\u2019t be saved right now (the bot\u2019s data file can\u2019t be written); "
        "nothing was changed. Please tell whoever runs the bot."
    )


def banned_reply(name: str, *, added: bool) -> Reply:
    text = _("{card} was already banned here by a house rule.")
    if added:
        text = _("\u26d4 {card} is now banned here by a house rule. Deck checks in this server report it.")
    return Reply(content=text.format(card=shown(name)))


def unbanned_reply(name: str, *, lifted: bool) -> Reply:
    if lifted:
        return Reply(content=_("\u2705 {card} is no longer banned here.").format(card=shown(name)))
    text = _("{card} isn\u2019t banned here by a house rule; nothing was changed.")
    return Reply(content=text.format(card=shown(name)), ephemeral=True)


def bracket_reply(bracket: int) -> Reply:
    text = _("This server now plays {bracket}. Deck checks here report what it doesn\u2019t allow.")
    return Reply(content=text.format(bracket=bracket_words(bracket)))


def cleared_reply(removed: Rules) -> Reply:
    if removed.empty:
        return Reply(content=_("This server had no house rules; nothing was removed."), ephemeral=True)
    parts = []
    if removed.bans:
        names = [shown(b.name) for b in removed.bans[:3]]
        if (more := len(removed.bans) - 3) > 0:
            names.append(ngettext("{n} other card", "{n} other cards", more).format(n=more))
        text = ngettext("the ban of {cards}", "the bans of {n} cards ({cards})", len(removed.bans))
        parts.append(text.format(n=len(removed.bans), cards=render.and_list(names)))
    if removed.bracket is not None:
        parts.append(_("the bracket ({level})").format(level=removed.bracket))
    text = _(
        "\U0001f9f9 Removed this server\u2019s house rules: {removed}. The official Commander rules apply."
    )
    return Reply(content=render.truncate(text.format(removed=render.and_list(parts)), 2000))


def show_reply(rules: Rules) -> Reply:
    """The server's house rules, for everyone (only to the one who asked)."""
    embed = Embed(title=_("House rules of this server"), color=render.GOLD)
    if rules.empty:
        embed.description = _("None: the official Commander rules apply.")
        return Reply(embeds=[embed], ephemeral=True)
    bracket = bracket_words(rules.bracket) if rules.bracket is not None else _("no bracket set")
    embed.add_field(name=_("Bracket played here"), value=bracket[:1].upper() + bracket[1:])
    if rules.bans:
        lines = [f"\u2022 {plain(b.name)}" for b in rules.bans[:SHOWN_BANS]]
        if len(rules.bans) > SHOWN_BANS:
            lines.append(_("\u2026and {n} more").format(n=len(rules.bans) - SHOWN_BANS))
        embed.description = "\n".join(lines)
        embed.title = ngettext(
            "House rules of this server: {n} card banned",
            "House rules of this server: {n} cards banned",
            len(rules.bans),
        ).format(n=len(rules.bans))
    embed.footer = _("Banned here by the server, on top of the official Commander ban list.")
    return Reply(embeds=[embed], ephemeral=True)


def applied_line(applied: HouseApplied) -> str:
    """What a deck check applied: 'This server's house rules: 3 cards banned, bracket 2 (no Game Changers)'."""
    parts = []
    if applied.bans:
        parts.append(ngettext("{n} card banned", "{n} cards banned", applied.bans).format(n=applied.bans))
    if applied.bracket is not None:
        parts.append(bracket_words(applied.bracket))
    return _("This server\u2019s house rules: {rules}").format(rules=", ".join(parts))


def fits_house_lines(banned: Sequence[str], card: str, *, officially_banned: bool) -> list[str]:
    """Why the house rules keep the card (or a commander) out of decks here."""
    here = _("This server\u2019s house rules ban {card}; the official Commander ban list doesn\u2019t.")
    ban = _("{card} is banned here by a house rule.")
    return [(here if n == card and not officially_banned else ban).format(card=shown(n)) for n in banned]


def fits_house_headline(banned: Sequence[str], card: str) -> str:
    """The /fits title when a house rule bans the card or a commander (plain text)."""
    if card in banned:
        return _("{card} is banned here by a house rule").format(card=render.truncate(card, NAME_WIDTH))
    text = ngettext(
        "This deck can\u2019t be played here: {cards} is banned here by a house rule",
        "This deck can\u2019t be played here: {cards} are banned here by a house rule",
        len(banned),
    )
    return text.format(cards=render.and_list(render.truncate(n, 80) for n in banned))
