"""The /house commands' work and the server's house rules for other commands: only where the bot is installed
in a server (never in DMs or user installs); changes need Manage Server (the member's permissions in the
interaction). A write waiting for the file (a card import holds it) defers rather than miss Discord's 3 s."""

from __future__ import annotations

from collections.abc import Sequence

from bot.app.context import Interaction, app_of
from bot.app.options import CardQuery, resolve_options
from bot.app.replies import defer_if_slow, send_reply
from bot.app.tree import InputProblem
from bot.cards.model import CardNotFound, Resolved
from bot.deck.runner import names_card
from bot.house.rules import Card, FitHere, Rules, ban_of
from bot.present import house


def server_of(interaction: Interaction) -> int | None:
    """The server whose house rules apply to the interaction: one the bot is installed in."""
    return interaction.guild_id if interaction.guild_id and interaction.is_guild_integration() else None


async def fit_here(interaction: Interaction, card: Card, commanders: Sequence[Card]) -> FitHere:
    """The house rules of the interaction's server on a /fits of `card` led by `commanders`."""
    rules = await rules_here(interaction)
    return rules.at_fit(card, commanders) if rules is not None else FitHere()


async def rules_here(interaction: Interaction) -> Rules | None:
    """The house rules of the interaction's server; None where none apply (or the server has none)."""
    guild_id = server_of(interaction)
    rules = await app_of(interaction).house.rules(guild_id) if guild_id is not None else None
    return rules if rules is not None and not rules.empty else None


def _server(interaction: Interaction) -> int:
    if (guild_id := server_of(interaction)) is None:
        raise InputProblem(house.server_only_text())
    return guild_id


def _managed_server(interaction: Interaction) -> int:
    """The server, when the member may change its house rules (Manage Server); else InputProblem."""
    guild_id = _server(interaction)
    allowed = interaction.permissions  # the member's, as Discord resolved them for this interaction
    if not (allowed.manage_guild or allowed.administrator):
        raise InputProblem(house.not_allowed_text())
    return guild_id


async def _exact(interaction: Interaction, card: CardQuery) -> Resolved:
    """The card named exactly so (or printed so); a misspelling's match is offered to pick, never banned."""
    [found] = await resolve_options(interaction, [card])
    if not names_card(card.text, found.card) and found.printed != card.text:
        raise CardNotFound(card.text, [found.name], card.option)
    return found


async def ban(interaction: Interaction, card: CardQuery) -> None:
    guild_id = _managed_server(interaction)
    found = await _exact(interaction, card)
    added = await defer_if_slow(interaction, app_of(interaction).house.ban(guild_id, ban_of(found.card)))
    await send_reply(interaction, house.banned_reply(found.name, added=added))


async def unban(interaction: Interaction, card: CardQuery) -> None:
    """Lift the ban of the card named so (no lookup), else of the card the name finds."""
    guild_id = _managed_server(interaction)
    store = app_of(interaction).house
    rules = await store.rules(guild_id)
    lifted = rules.find(None, card.text)
    name = lifted.name if lifted is not None else card.text
    if lifted is None:
        found = await _exact(interaction, card)
        lifted, name = rules.find(found.card, card.text), found.name
    done = lifted is not None and await defer_if_slow(interaction, store.unban(guild_id, lifted))
    await send_reply(interaction, house.unbanned_reply(name, lifted=done))


async def set_bracket(interaction: Interaction, level: int) -> None:
    guild_id = _managed_server(interaction)
    await defer_if_slow(interaction, app_of(interaction).house.set_bracket(guild_id, level))
    await send_reply(interaction, house.bracket_reply(level))


async def clear(interaction: Interaction) -> None:
    guild_id = _managed_server(interaction)
    removed = await defer_if_slow(interaction, app_of(interaction).house.clear(guild_id))
    await send_reply(interaction, house.cleared_reply(removed))


async def show(interaction: Interaction) -> None:
    rules = await app_of(interaction).house.rules(_server(interaction))
    await send_reply(interaction, house.show_reply(rules))
