"""The Discord bot: `IdentityBot` (a `commands.Bot`) and `cli(argv)` behind `python -m bot [run]`.

- No privileged intents; slash commands only. Cogs in `cogs/` are loaded as extensions in
  `setup_hook` (every module there with a `setup` function).
- The card service (`bot.cards`) is created in `setup_hook` and closed in `close()`.
- Commands sync in `setup_hook`: globally, or to `DEV_GUILD_ID` (instant, for development);
  `SYNC_COMMANDS=false` skips syncing.
- `DISCORD_API_BASE` other than Discord's own sends every REST call there and connects to the gateway
  URL its `/gateway/bot` returns (a Discord REST proxy, or the tests' fake Discord).
- No message can ping anyone: `AllowedMentions.none()` is the bot-wide default.
- SIGINT/SIGTERM shut down gracefully. A missing or rejected token prints one error line on stderr
  and exits with code 2; the token is never printed or logged.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import pkgutil
import signal
import sys
from collections.abc import Sequence
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from pydantic import ValidationError

from bot import embeds
from bot.settings import Settings, load_settings

log = logging.getLogger("bot.app")

DEFAULT_API_BASE = "https://discord.com/api/v10"
_ORIGINAL_ROUTE_BASE = Route.BASE
_ORIGINAL_GATEWAY = DiscordWebSocket.DEFAULT_GATEWAY


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


class IdentityTree(app_commands.CommandTree):
    """Command tree whose error handler makes sure every interaction still gets exactly one reply."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CommandNotFound):
            log.warning("interaction for unknown command %r", command)
        else:
            log.error("error in /%s", command, exc_info=(type(original), original, original.__traceback__))
        await reply_error(interaction, embeds.error_text())


async def reply_error(interaction: discord.Interaction, text: str) -> None:
    """Send `text` as an ephemeral reply, whatever state the interaction is in; never raises."""
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
        log.warning("could not send error reply (HTTP %s): %s", exc.status, exc.text)


class IdentityBot(commands.Bot):
    """The color identity bot. `cards` may be given (tests); otherwise it is created in setup_hook."""

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
        # The bot never joins voice: skip discord.py's "PyNaCl/davey is not installed" warnings.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.settings = settings
        self.cards = cards
        self._owns_cards = cards is None
        self.extensions_to_load = tuple(extensions) if extensions is not None else default_extensions()
        self.emoji = settings.emoji_map()
        self.synced_commands: list[app_commands.AppCommand] = []

    # ---------------------------------------------------------------------------- Discord endpoints
    @property
    def custom_api(self) -> bool:
        return self.settings.discord_api_base.rstrip("/") != DEFAULT_API_BASE

    async def login(self, token: str) -> None:
        if self.custom_api:
            Route.BASE = self.settings.discord_api_base.rstrip("/")
        await super().login(token)

    async def _use_custom_gateway(self) -> None:
        data = await self.http.request(Route("GET", "/gateway/bot"))
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
            from bot.service import CardService

            self.cards = await CardService.create(self.settings)
            await self.cards.start_background_sync()
        for name in self.extensions_to_load:
            await self.load_extension(name)
        if self.settings.sync_commands:
            await self.sync_commands()
        else:
            log.info("SYNC_COMMANDS=false: not syncing application commands")

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Register the slash commands: to DEV_GUILD_ID when set (instant), otherwise globally."""
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            self.synced_commands = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(self.synced_commands), guild.id)
        else:
            self.synced_commands = await self.tree.sync()
            log.info("synced %d global commands", len(self.synced_commands))
        return self.synced_commands

    async def on_ready(self) -> None:
        user = self.user
        log.info("ready as %s (id %s) in %d guilds", user, user.id if user else "?", len(self.guilds))

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            cards, self.cards = self.cards, (None if self._owns_cards else self.cards)
            if cards is not None and self._owns_cards:
                try:
                    await cards.close()
                except Exception:  # closing must not hide the reason we are closing
                    log.exception("error while closing the card service")
            if self.custom_api:
                if Route.BASE == self.settings.discord_api_base.rstrip("/"):
                    Route.BASE = _ORIGINAL_ROUTE_BASE
                DiscordWebSocket.DEFAULT_GATEWAY = _ORIGINAL_GATEWAY


# -------------------------------------------------------------------------------------------- CLI
def _fail(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr, flush=True)
    return code


def _setup_logging(settings: Settings) -> None:
    try:
        from bot.obs.logs import setup_logging
    except ImportError:  # pragma: no cover - the observability module is optional
        logging.basicConfig(level=settings.log_level, stream=sys.stdout,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        return
    setup_logging(settings.log_level, json=getattr(settings, "log_format", "text") == "json",
                  token=settings.discord_token, stream=sys.stdout)


async def run_bot(settings: Settings, bot: IdentityBot | None = None) -> int:
    """Run until SIGINT/SIGTERM or a fatal error; returns the process exit code."""
    assert settings.discord_token is not None
    bot = bot or IdentityBot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    installed: list[int] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not on the main thread / Windows
            pass
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
