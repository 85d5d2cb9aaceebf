"""Card names recently looked up, per server (or per user in DMs): autocomplete offers them first, so the
cards a server talks about are one keystroke away."""

from __future__ import annotations

from typing import Any

import discord
from cachetools import LRUCache

from bot.cards.names import normalize

RECENT_FIRST = 5  # recently looked-up names shown before the card service's matches


class RecentNames:
    """Newest last: `per_scope` names (key, can be a commander) for each of the `scopes` latest servers."""

    def __init__(self, per_scope: int = 64, scopes: int = 2048) -> None:
        self.per_scope = per_scope
        self._by_scope: LRUCache[int, dict[str, tuple[str, bool]]] = LRUCache(scopes)

    def add(self, interaction: discord.Interaction[Any], name: str, *, commander: bool) -> None:
        names = self._by_scope.setdefault(interaction.guild_id or interaction.user.id, {})
        names.pop(name, None)
        names[name] = (normalize(name), commander)
        if len(names) > self.per_scope:
            del names[next(iter(names))]

    def matching(
        self, interaction: discord.Interaction[Any], text: str, *, commanders_only: bool = False
    ) -> list[str]:
        q = normalize(text)
        names = self._by_scope.get(interaction.guild_id or interaction.user.id, {}) if q else {}
        return [
            name
            for name, (key, commander) in reversed(names.items())
            if f" {q}" in f" {key}" and (commander or not commanders_only)  # a word of the name starts so
        ][:RECENT_FIRST]
