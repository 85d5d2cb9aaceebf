"""The Discord bot: `IdentityBot` (a `commands.Bot`) and `cli(argv)` behind `python -m bot [run]`.

- No privileged intents; slash commands only. Cogs in `cogs/` are loaded as extensions in
  `setup_hook` (every module there with a `setup` function).
- The card service (`bot.cards`) is created in `setup_hook` and closed in `close()`.
- Commands sync in `setup_hook`: globally, or to `DEV_GUILD_ID` (instant, for development);
  `SYNC_COMMANDS=false` skips syncing.
- `DISCORD_API_BASE` other than Discord's own sends every REST call there and connects to the gateway
  URL its `/gateway/bot` returns (a Discord REST proxy, or the tests' fake Discord).
- No message can ping anyone: `AllowedMentions.none()` is the bot-wide default.
- SIGINT/SIGTERM shut down gracefully: in-flight commands finish (bounded by `DRAIN_SECONDS`) before
  the gateway, HTTP session and card cache close, so no answered lookup loses its cache write.
  A missing or rejected token prints one error line on stderr and exits with code 2; the token is
  never printed or logged.
- Production (issue 6): `SHARD_COUNT`/`SHARD_IDS` make `create_bot` build a `ShardedIdentityBot`
  (discord.py's `AutoShardedBot`; the same bot body as `IdentityBot`, through `IdentityBotMixin`).
  Every command and autocomplete is observed by `IdentityTree` (metrics + one log line per command);
  `USER_RATE` is checked in `IdentityTree.interaction_check` (slash commands only, never autocomplete);
  `METRICS_PORT` starts `/metrics` + `/healthz`. Replies Discord rejects are logged once, counted in
  `identity_bot_discord_reply_errors_total` and answered with at most one plain error text.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import pkgutil
import signal
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from pydantic import ValidationError

from bot import __version__
from bot.ops.metrics import BotMetrics
from bot.ops.observer import CommandObserver
from bot.ops.ratelimit import UserRateLimiter, cooldown_message
from bot.ops.sharding import shard_for_guild
from bot.present import embeds
from bot.settings import Settings, load_settings

log = logging.getLogger("bot.app")

DEFAULT_API_BASE = "https://discord.com/api/v10"
_ORIGINAL_ROUTE_BASE = Route.BASE
_ORIGINAL_GATEWAY = DiscordWebSocket.DEFAULT_GATEWAY
_custom_api_bots = 0  # running bots that pointed Route.BASE / DEFAULT_GATEWAY elsewhere (restore at 0)
DRAIN_SECONDS = 8.0  # close(): how long in-flight commands may take to finish (Docker waits 10 s)


def default_extensions() -> tuple[str, ...]:
    """Every module in the `cogs` package (each defines `async def setup(bot)`)."""
    import cogs

    return tuple(sorted(f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__) if not m.name.startswith("_")))


def bot_intents() -> discord.Intents:
    """Default intents minus every privileged one (slash commands need none of them)."""
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    intents.typing = False
    intents.dm_typing = False
    return intents


def note(interaction: discord.Interaction, outcome: str | None = None, *, card: str | None = None,
         cache_hit: bool | None = None) -> None:
    """Tell the observer how a command went (outcome, the card it was about, whether the cache answered).

    Stored in `interaction.extras`; `IdentityTree` reads it once the command has finished.
    """
    extras = interaction.extras
    if outcome is not None:
        extras["outcome"] = outcome
    if card is not None:
        extras["card"] = card
    if cache_hit is not None:
        extras["cache_hit"] = cache_hit


def _count_reply_error(interaction: discord.Interaction, exc: discord.HTTPException) -> None:
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.observe_reply_error(exc.status)


class IdentityTree(app_commands.CommandTree):
    """Command tree that observes every interaction, applies the per-user cooldown and makes sure every
    interaction still gets exactly one reply when something fails."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """The per-user cooldown (USER_RATE), for slash commands only: autocomplete is never limited."""
        if interaction.type is not discord.InteractionType.application_command:
            return True
        limiter: UserRateLimiter | None = getattr(self.client, "limiter", None)
        if limiter is None:
            return True
        wait = limiter.hit(interaction.user.id)
        if wait is None:
            return True
        note(interaction, "cooldown")
        await reply_error(interaction, cooldown_message(wait))
        return False

    async def _call(self, interaction: discord.Interaction) -> None:
        # Wraps discord.py's dispatch of one interaction (command or autocomplete): time it, keep it in
        # the bot's in-flight set (close() lets it finish), and record it once it is done.
        started = time.perf_counter()
        task = asyncio.current_task()
        inflight: set[asyncio.Task[Any]] | None = getattr(self.client, "inflight", None)
        if inflight is not None and task is not None:
            inflight.add(task)
        try:
            await super()._call(interaction)
        except BaseException:
            interaction.extras.setdefault("outcome", "error")
            raise
        finally:
            if inflight is not None and task is not None:
                inflight.discard(task)
            observe = getattr(self.client, "observe_interaction", None)
            if observe is not None:
                observe(interaction, started)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        original = getattr(error, "original", error)
        if isinstance(original, discord.HTTPException):
            # Discord refused our reply (or the interaction expired): log once, count, no retry loop.
            note(interaction, "rejected")
            _count_reply_error(interaction, original)
            log.warning("Discord rejected the reply to /%s (HTTP %s, code %s): %s", command, original.status,
                        original.code, str(original.text)[:200])
            if original.status not in (404, 429):  # 404: the interaction expired; 429: don't push harder
                await reply_error(interaction, embeds.error_text(), quiet=True)  # one plain fallback, no loop
            return
        note(interaction, "error")
        if isinstance(error, app_commands.CommandNotFound):
            log.warning("interaction for unknown command %r", command)
        else:
            log.error("error in /%s", command, exc_info=(type(original), original, original.__traceback__))
        await reply_error(interaction, embeds.error_text())


async def reply_error(interaction: discord.Interaction, text: str, *, quiet: bool = False) -> None:
    """Send `text` as an ephemeral reply, whatever state the interaction is in; never raises.

    A reply Discord refuses is counted and logged (at DEBUG when `quiet`: the caller already logged)."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # A public "thinking…" placeholder: remove it so the error is only shown to the user.
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                pass
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException as exc:  # the interaction expired or Discord refused: log, don't retry
        _count_reply_error(interaction, exc)
        log.log(logging.DEBUG if quiet else logging.WARNING, "could not send error reply (HTTP %s): %s",
                exc.status, str(exc.text)[:200])


class IdentityBotMixin:
    """The bot body, shared by `IdentityBot` (one gateway connection) and `ShardedIdentityBot`
    (discord.py's AutoShardedBot). `cards` may be given (tests); otherwise it is created in setup_hook."""

    def __init__(
        self,
        settings: Settings,
        *,
        cards: Any = None,
        extensions: Sequence[str] | None = None,
        **options: Any,
    ) -> None:
        options.setdefault("intents", bot_intents())
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("max_messages", None)
        options.setdefault("chunk_guilds_at_startup", False)
        options.setdefault("member_cache_flags", discord.MemberCacheFlags.none())
        options.setdefault("help_command", None)
        options.setdefault("tree_cls", IdentityTree)
        if isinstance(self, commands.AutoShardedBot):
            options.setdefault("shard_count", settings.shard_count)
            options.setdefault("shard_ids", settings.shard_ids)
        # The bot never joins voice: skip discord.py's "PyNaCl/davey is not installed" warnings.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(command_prefix=commands.when_mentioned, **options)  # type: ignore[call-arg]
        self.settings = settings
        self.cards = cards
        self._owns_cards = cards is None
        self.extensions_to_load = tuple(extensions) if extensions is not None else default_extensions()
        self.emoji = settings.emoji_map()
        self.synced_commands: list[app_commands.AppCommand] = []
        # Production: metrics (always collected; served only with METRICS_PORT), cooldown, drain set.
        self.metrics = BotMetrics(version=__version__, process_metrics=settings.metrics_port is not None)
        self.observer = CommandObserver(self.metrics)
        rate = settings.user_rate_limit()
        self.limiter: UserRateLimiter | None = UserRateLimiter(*rate) if rate else None
        self.inflight: set[asyncio.Task[Any]] = set()
        self.health_server: Any = None
        self._routes_patched = False
        self._ready_seen: set[int | None] = set()

    # ---------------------------------------------------------------------------- Discord endpoints
    @property
    def custom_api(self) -> bool:
        return self.settings.discord_api_base.rstrip("/") != DEFAULT_API_BASE

    async def login(self, token: str) -> None:
        global _custom_api_bots
        if self.custom_api and not self._routes_patched:
            Route.BASE = self.settings.discord_api_base.rstrip("/")
            self._routes_patched = True
            _custom_api_bots += 1
        await super().login(token)  # type: ignore[misc]

    async def _use_custom_gateway(self) -> None:
        data = await self.http.request(Route("GET", "/gateway/bot"))  # type: ignore[attr-defined]
        url = data["url"] if isinstance(data, dict) else None
        if not url:
            raise discord.GatewayNotFound()
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        log.info("using gateway %s from %s", url, self.settings.discord_api_base)

    # ------------------------------------------------------------------------------------ lifecycle
    async def setup_hook(self) -> None:
        if self.custom_api:
            await self._use_custom_gateway()
        if self.cards is None:
            from bot.cards.service import CardService

            self.cards = await CardService.create(self.settings)
            await self.cards.start_background_sync()
        self._wire_metrics()
        for name in self.extensions_to_load:
            await self.load_extension(name)  # type: ignore[attr-defined]
        if self.settings.sync_commands:
            await self.sync_commands()
        else:
            log.info("SYNC_COMMANDS=false: not syncing application commands")
        if self.settings.metrics_port is not None:
            await self.start_health_server()

    def _wire_metrics(self) -> None:
        """Let the card service report Scryfall traffic and expose its counters as a gauge."""
        client = getattr(self.cards, "client", None)
        if client is not None and hasattr(client, "metrics"):
            client.metrics = self.metrics
        stats = getattr(self.cards, "metrics", None)
        if callable(stats):
            try:
                self.metrics.add_callback("card_service", "Card service counters (see CardService.metrics).",
                                          stats)
            except ValueError:  # already registered (setup_hook ran twice)
                pass

    async def start_health_server(self) -> None:
        """Serve /metrics and /healthz on METRICS_HOST:METRICS_PORT (port 0 picks a free one)."""
        from bot.ops.server import HealthServer, gateway_check, sqlite_check

        def health() -> dict[str, Any]:
            checks: dict[str, Any] = {"gateway": gateway_check(self)}
            cache = getattr(self.cards, "cache", None)
            if cache is not None and getattr(cache, "in_memory", False):
                checks["cache"] = True
            else:
                checks["cache"] = sqlite_check(getattr(cache, "path", None) or self.settings.cache_path)
            return checks

        self.health_server = HealthServer(self.metrics, health, host=self.settings.metrics_host,
                                          port=self.settings.metrics_port or 0)
        await self.health_server.start()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Register the slash commands: to DEV_GUILD_ID when set (instant), otherwise globally."""
        tree = self.tree  # type: ignore[attr-defined]
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            tree.copy_global_to(guild=guild)
            self.synced_commands = await tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(self.synced_commands), guild.id)
        else:
            self.synced_commands = await tree.sync()
            log.info("synced %d global commands", len(self.synced_commands))
        return self.synced_commands

    # --------------------------------------------------------------------------- gateway events
    @property
    def sharded(self) -> bool:
        return isinstance(self, commands.AutoShardedBot)

    def shard_of(self, guild_id: int | None) -> int | None:
        """The shard serving `guild_id` (Discord's formula), or None when not sharded."""
        count = getattr(self, "shard_count", None)
        if not self.sharded or not count:
            return None
        return shard_for_guild(guild_id, count) if guild_id else 0

    async def on_ready(self) -> None:
        user = self.user  # type: ignore[attr-defined]
        guilds = self.guilds  # type: ignore[attr-defined]
        self.metrics.set_guilds(len(guilds))
        log.info("ready as %s (id %s) in %d guilds", user, user.id if user else "?", len(guilds))

    async def on_connect(self) -> None:
        if not self.sharded:
            self.metrics.set_gateway(None, True)

    async def on_disconnect(self) -> None:
        if not self.sharded:
            self.metrics.set_gateway(None, False)

    async def on_resumed(self) -> None:
        if not self.sharded:
            self.metrics.set_gateway(None, True)
            self.metrics.observe_reconnect(None, resumed=True)
            log.info("gateway session resumed")

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

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.metrics.set_guilds(len(self.guilds))  # type: ignore[attr-defined]

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.metrics.set_guilds(len(self.guilds))  # type: ignore[attr-defined]

    # ------------------------------------------------------------------------------ observation
    def observe_interaction(self, interaction: discord.Interaction, started: float) -> None:
        """Called by IdentityTree when an interaction is done: metrics and the one command log line."""
        extras = interaction.extras
        if interaction.type is discord.InteractionType.autocomplete:
            self.observer.autocomplete(started, str(extras.get("outcome") or "ok"))
            return
        if interaction.type is not discord.InteractionType.application_command:
            return
        data = interaction.data or {}
        outcome = extras.get("outcome") or ("error" if interaction.command_failed else "ok")
        self.observer.finish(
            command=str(data.get("name") or "unknown"), outcome=str(outcome), started=started,
            cache_hit=extras.get("cache_hit"), guild_id=interaction.guild_id, card=extras.get("card"),
            shard_id=self.shard_of(interaction.guild_id),
        )

    async def drain(self, timeout: float = DRAIN_SECONDS) -> int:  # noqa: ASYNC109
        """Wait (at most `timeout` s) for the interactions being handled; returns how many were left."""
        me = asyncio.current_task()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            await asyncio.sleep(0)  # let interactions already received start (and join the in-flight set)
            pending = {t for t in self.inflight if t is not me and not t.done()}
            left = deadline - loop.time()
            if not pending or left <= 0:
                if pending:
                    log.warning("closing with %d command(s) still running", len(pending))
                return len(pending)
            await asyncio.wait(pending, timeout=left)

    async def close(self) -> None:
        global _custom_api_bots
        if not self.is_closed():  # type: ignore[attr-defined]
            await self.drain()
        try:
            await super().close()  # type: ignore[misc]
        finally:
            server, self.health_server = self.health_server, None
            if server is not None:
                try:
                    await server.stop()
                except Exception:
                    log.exception("error while stopping the metrics server")
            cards, self.cards = self.cards, (None if self._owns_cards else self.cards)
            if cards is not None and self._owns_cards:
                try:
                    await cards.close()
                except Exception:  # closing must not hide the reason we are closing
                    log.exception("error while closing the card service")
            if self._routes_patched:
                self._routes_patched = False
                _custom_api_bots -= 1
                if _custom_api_bots <= 0:
                    _custom_api_bots = 0
                    if Route.BASE == self.settings.discord_api_base.rstrip("/"):
                        Route.BASE = _ORIGINAL_ROUTE_BASE
                    DiscordWebSocket.DEFAULT_GATEWAY = _ORIGINAL_GATEWAY


class IdentityBot(IdentityBotMixin, commands.Bot):
    """The color identity bot on one gateway connection (no SHARD_COUNT)."""


class ShardedIdentityBot(IdentityBotMixin, commands.AutoShardedBot):
    """The same bot on several shards in one process: all `SHARD_COUNT` shards, or just `SHARD_IDS`.

    discord.py spaces IDENTIFYs (its `before_identify_hook` waits 5 s between shards), as Discord asks.
    """


def create_bot(settings: Settings, **options: Any) -> IdentityBot | ShardedIdentityBot:
    """The bot for these settings: sharded when SHARD_COUNT (or SHARD_IDS) is set, else one connection."""
    if settings.shard_count is None and settings.shard_ids is None:
        return IdentityBot(settings, **options)
    return ShardedIdentityBot(settings, **options)


# -------------------------------------------------------------------------------------------- CLI
def _fail(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr, flush=True)
    return code


def _setup_logging(settings: Settings) -> None:
    from bot.ops.logs import setup_logging

    setup_logging(settings.log_level, json=settings.log_format == "json",
                  token=settings.discord_token, stream=sys.stdout)


async def run_bot(settings: Settings, bot: IdentityBotMixin | None = None) -> int:
    """Run until SIGINT/SIGTERM or a fatal error; returns the process exit code."""
    assert settings.discord_token is not None
    bot = bot or create_bot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    installed: list[int] = []
    # asyncio signal handlers exist only on Unix event loops and only in the main thread; elsewhere
    # (Windows, an embedding thread) Ctrl-C still ends `bot.start()` through KeyboardInterrupt.
    if sys.platform != "win32" and threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
    runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
    stopper = asyncio.create_task(stop.wait())
    try:
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("shutdown signal received, closing")
            await bot.close()
        try:
            await runner
        except discord.ConnectionClosed as exc:
            if exc.code == 4004:  # the gateway refused the token
                return _fail("Discord rejected the token (DISCORD_TOKEN) on the gateway; check it in the "
                             "Developer Portal (Bot > Reset Token).", 2)
            return _fail(f"the Discord gateway closed the connection (code {exc.code}).", 1)
        except discord.LoginFailure:
            return _fail("Discord rejected the token (DISCORD_TOKEN); check it in the Developer Portal "
                         "(Bot > Reset Token).", 2)
        except discord.PrivilegedIntentsRequired:
            return _fail("Discord refused the gateway intents this bot asked for.", 1)
        except (discord.GatewayNotFound, OSError, discord.HTTPException) as exc:
            log.debug("connection failure", exc_info=True)
            return _fail(f"cannot talk to Discord at {settings.discord_api_base}: "
                         f"{type(exc).__name__}: {exc}".replace("\n", " "), 1)
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # e.g. the card cache can't be opened: say so in one line
            log.debug("startup failure", exc_info=True)
            return _fail(f"the bot stopped: {type(exc).__name__}: {exc}".replace("\n", " "), 1)
        return 0
    finally:
        stopper.cancel()
        if not bot.is_closed():
            await bot.close()
        for sig in installed:
            loop.remove_signal_handler(sig)


def cli(argv: Sequence[str] | None = None) -> int:
    """`python -m bot [run]`: run the bot with settings from the environment and `.env`."""
    parser = argparse.ArgumentParser(
        prog="python -m bot run",
        description="Run the Discord bot. Configuration comes from the environment and .env "
                    "(see .env.example).",
    )
    parser.parse_args(list(argv or []))
    try:
        settings = load_settings()
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']).upper() or 'settings'}: {e['msg']}"
                             for e in exc.errors())
        return _fail(f"invalid configuration: {problems}", 2)
    if settings.discord_token is None:
        return _fail("DISCORD_TOKEN is not set; put the bot token in the environment or in .env "
                     "(see .env.example).", 2)
    _setup_logging(settings)
    try:
        return asyncio.run(run_bot(settings))
    except KeyboardInterrupt:  # pragma: no cover - a second Ctrl-C during shutdown
        return 130
