"""Card names recently looked up, per server (or per user in DMs): autocomplete offers them first."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import discord

from bot.cards.names import normalize

RECENT_FIRST = 5  # recently looked-up names shown before the card service's matches


class RecentNames:
    """Card names recently looked up, per server (or per user in DMs), newest first.

    Autocomplete shows the ones matching what is being typed before the card service's matches, so
    the cards a server talks about are one keystroke away. Bounded: `per_scope` names for each of at
    most `scopes` servers.
    """

    def __init__(self, per_scope: int = 64, scopes: int = 2048) -> None:
        self.per_scope = per_scope
        self.scopes = scopes
        self._by_scope: OrderedDict[int, OrderedDict[str, tuple[str, bool]]] = OrderedDict()

    def add(self, scope: int, name: str, *, commander: bool) -> None:
        names = self._by_scope.get(scope)
        if names is None:
            names = self._by_scope[scope] = OrderedDict()
            if len(self._by_scope) > self.scopes:
                self._by_scope.popitem(last=False)
        else:
            self._by_scope.move_to_end(scope)
        names[name] = (normalize(name), commander)
        names.move_to_end(name)
        if len(names) > self.per_scope:
            names.popitem(last=False)

    def matching(
        self, scope: int, text: str, *, commanders_only: bool = False, limit: int = RECENT_FIRST
    ) -> list[str]:
        names = self._by_scope.get(scope)
        q = normalize(text)
        if not names or not q:
            return []
        out: list[str] = []
        for name, (key, commander) in reversed(names.items()):
            if commanders_only and not commander:
                continue
            if f" {q}" in f" {key}":  # the name, or one of its words, starts with the text
                out.append(name)
                if len(out) == limit:
                    break
        return out


def scope_of(interaction: discord.Interaction[Any]) -> int:
    return interaction.guild_id or interaction.user.id
