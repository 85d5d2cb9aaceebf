"""`IdentityBot`, built by `bot.main`: no gateway intents, no caches, no pings. Mana symbols are text until
the MANA_EMOJI_UPLOAD task (`bot.app.emoji`) makes app emojis; MANA_EMOJI overrides them one by one."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord.ext import commands
from discord.ext.commands import CooldownMapping

from bot.app.context import COMMAND, Interaction
from bot.app.emoji import ensure_mana_emojis
from bot.app.endpoints import use_gateway
from bot.app.picks import PICK_TIMEOUT
from bot.app.recent import RecentNames
from bot.app.replies import received_at
from bot.app.translator import CatalogTranslator
from bot.app.tree import IdentityTree, user_of
from bot.cards.service import CardService
from bot.combos.store import ComboStore
from bot.deck.sources import DeckSites
from bot.house.store import HouseStore
from bot.ops.logs import log_command
from bot.ops.metrics import BotMetrics, Outcome
from bot.ops.sharding import shard_for_guild
from bot.settings import Settings

log = logging.getLogger(__name__)

DRAIN_SECONDS = 8.0  # close(): how long in-flight interactions may take to finish (Docker waits 10 s)
IDENTIFY_SPACING = 5.0  # seconds between shard IDENTIFYs, as Discord asks


# discord.py's warnings about what this bot does without on purpose: voice, the GUILDS intent.
_UNWANTED = ("voice will NOT be supported", "Guilds intent seems to be disabled")
for _logger in ("discord.client", "discord.state"):
    logging.getLogger(_logger).addFilter(lambda r: not any(w in r.getMessage() for w in _UNWANTED))


class IdentityBot(commands.AutoShardedBot):
    """The color identity bot, on all of `SHARD_COUNT` shards (default 1) or just `SHARD_IDS`."""

    tree: IdentityTree  # made by discord.py from `tree_cls`

    def __init__(
        self,
        settings: Settings,
        *,
        cards: CardService,
        deck_sites: DeckSites,
        house: HouseStore,
        metrics: BotMetrics,
        combos: ComboStore | None = None,
        extensions: Sequence[str],
        identify_spacing: float = IDENTIFY_SPACING,
    ) -> None:
        # No intents: interactions reach a bot whatever its intents and carry all it reads.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.none(),
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # no message cache (member caching and chunking follow the intents: none)
            guild_ready_timeout=0.0,  # no GUILDS intent, so no GUILD_CREATE follows READY: don't wait for one
            help_command=None,
            tree_cls=IdentityTree,
            shard_count=settings.shard_count or 1,
            shard_ids=settings.shard_ids,  # type: ignore[arg-type]  # None (all shards): discord.py's default
        )
        self.settings, self.metrics = settings, metrics
        self.cards, self.deck_sites, self.combos, self.house = cards, deck_sites, combos, house
        rate = settings.user_rate_limit()
        self.tree.cooldown = CooldownMapping.from_cooldown(*rate, user_of) if rate else None
        self.emoji_override = settings.emoji_map()
        self.emoji: Mapping[str, str] = dict(self.emoji_override)
        self.emoji_ready = asyncio.Event()  # set once the mana emojis are settled (or not wanted)
        self._emoji_task: asyncio.Task[None] | None = None
        self.pick_timeout = PICK_TIMEOUT
        self.recent = RecentNames()
        self.extensions_to_load = tuple(extensions)
        self.identify_spacing = identify_spacing
        self.inflight: set[asyncio.Task[Any]] = set()
        self._ready_seen: set[int] = set()

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        await use_gateway(self.http)
        for name in self.extensions_to_load:
            await self.load_extension(name)
        if self.settings.mana_emoji_upload:
            self._emoji_task = asyncio.create_task(self.load_mana_emojis(), name="mana-emojis")
        else:
            self.emoji_ready.set()
        if not self.settings.sync_commands:
            log.info("SYNC_COMMANDS=false: not syncing application commands")
            return
        self.tree.sync_contexts(self.application)
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:  # to DEV_GUILD_ID: instant
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d commands %s", len(synced), f"to guild {guild.id}" if guild else "globally")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial:
            await asyncio.sleep(self.identify_spacing)

    async def load_mana_emojis(self) -> None:
        try:
            uploaded = await ensure_mana_emojis(self, self.cards.client)
            self.emoji = {**uploaded, **self.emoji_override}
            log.info("mana symbols: %d app emojis, %d MANA_EMOJI", len(uploaded), len(self.emoji_override))
        except Exception:  # never let the emojis stop the bot: symbols stay text
            log.exception("could not set up the mana emojis; symbols stay text")
        finally:
            self.emoji_ready.set()

    async def _drain(self) -> None:
        """Wait (at most DRAIN_SECONDS) for the interactions being handled."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DRAIN_SECONDS
        while True:
            await asyncio.sleep(0)  # let interactions already received start (and join the in-flight set)
            pending = {t for t in self.inflight if t is not asyncio.current_task() and not t.done()}
            if not pending or (left := deadline - loop.time()) <= 0:
                break
            await asyncio.wait(pending, timeout=left)
        if pending:
            log.warning("closing with %d command(s) still running", len(pending))

    async def close(self) -> None:
        if not self.is_closed():
            await self._drain()
        if self._emoji_task is not None:
            self._emoji_task.cancel()
            await asyncio.gather(self._emoji_task, return_exceptions=True)
        await super().close()

    def shard_of(self, guild_id: int | None) -> int | None:
        """The shard serving `guild_id` (Discord's formula), or None with a single shard."""
        if (self.shard_count or 1) == 1:
            return None
        return shard_for_guild(guild_id, self.shard_count) if guild_id else 0

    def watch(self, interaction: Interaction) -> None:
        """Keep the interaction's task in flight (`close` lets it finish); once done, metrics and log line."""
        if (task := asyncio.current_task()) is not None:
            self.inflight.add(task)
            task.add_done_callback(functools.partial(self._finished, interaction, received_at(interaction)))

    def _finished(self, interaction: Interaction, started: float, task: asyncio.Task[Any]) -> None:
        self.inflight.discard(task)
        extras = interaction.extras
        seconds = time.perf_counter() - started
        if interaction.type is discord.InteractionType.autocomplete:  # counted, not logged per call
            self.metrics.observe_autocomplete(seconds, str(extras.get("outcome") or "ok"))
            return
        if interaction.type is not discord.InteractionType.application_command and COMMAND not in extras:
            return  # a component or form that finished no command
        failed = task.cancelled() or task.exception() is not None or interaction.command_failed
        outcome = str(extras.get("outcome") or (Outcome.ERROR if failed else Outcome.OK))
        data: Mapping[str, Any] = interaction.data or {}
        command = str(extras.get(COMMAND) or data.get("name") or "unknown")
        self.metrics.observe_command(command, outcome, seconds, extras.get("cache_hit"))
        log_command(
            command=command,
            outcome=outcome,
            latency_ms=seconds * 1000.0,
            cache_hit=extras.get("cache_hit"),
            guild_id=interaction.guild_id,
            card=extras.get("card"),
            shard_id=self.shard_of(interaction.guild_id),
        )

    async def on_ready(self) -> None:
        log.info("ready as %s (id %s)", self.user, self.user.id if self.user else "?")

    async def on_shard_connect(self, shard_id: int) -> None:
        self.metrics.set_gateway(shard_id, True)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.metrics.set_gateway(shard_id, False)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.metrics.set_gateway(shard_id, True)
        self.metrics.observe_reconnect(shard_id, resumed=True)
        log.info("gateway session resumed", extra={"shard_id": shard_id})

    async def on_shard_ready(self, shard_id: int) -> None:
        if shard_id in self._ready_seen:
            self.metrics.observe_reconnect(shard_id, resumed=False)
        self._ready_seen.add(shard_id)
        self.metrics.set_gateway(shard_id, True)
        log.info("shard ready", extra={"shard_id": shard_id})
