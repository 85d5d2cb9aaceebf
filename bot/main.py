"""The composition root: builds the bot and what it uses (`assemble`, with the card service of `bot.compose`), and
runs the process (`run`: signals, connect timeout, one clear line and exit code per start-up failure)."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from functools import partial
from typing import Any, NamedTuple

import aiohttp
import discord

from bot import __version__
from bot.app.bot import IdentityBot
from bot.app.endpoints import use_api_base
from bot.cards.refresh import BulkRefresher
from bot.combos.store import ComboRefresh, ComboStore, sync_variants
from bot.compose import EXIT_CONFIG, EXIT_ERROR, EXIT_OK, fail, open_cards
from bot.deck.sources import DeckSites, Site
from bot.house.store import HouseStore
from bot.ops.metrics import BotMetrics
from bot.ops.server import Health, HealthServer, gateway_check, sqlite_check
from bot.settings import Settings

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 60.0  # seconds for login and the first READY before start-up is reported as failed
EXTENSIONS = ("cogs.deck", "cogs.house", "cogs.identity", "cogs.messages")  # the `cogs` the bot loads
_TOKEN_REJECTED = (
    "Discord rejected the token (DISCORD_TOKEN){}; check it in the Developer Portal (Bot > Reset Token)."
)


class Runtime(NamedTuple):
    """What `assemble` built: the bot, the bulk refresher and (with METRICS_PORT) the health server."""

    bot: IdentityBot
    refresher: BulkRefresher
    health: HealthServer | None


class MetricsPortError(Exception):
    """The health server can't listen on METRICS_HOST:METRICS_PORT."""


@asynccontextmanager
async def assemble(
    settings: Settings, *, clock: Callable[[], float] = time.time, **bot_options: Any
) -> AsyncIterator[Runtime]:
    """The bot, all it uses and the bulk refresher, closed on exit; `clock` and `bot_options` for tests."""
    use_api_base(settings.discord_api_base)
    metrics = BotMetrics(version=__version__, process_metrics=settings.metrics_port is not None)
    async with (
        open_cards(settings, metrics=metrics, clock=clock, budget=bot_options.pop("budget", None)) as cards,
        aiohttp.ClientSession() as session,
        AsyncExitStack() as closing,  # closes what follows in reverse order
    ):
        bases = {Site.TAPPEDOUT: settings.tappedout_base, Site.MTGGOLDFISH: settings.mtggoldfish_base,
                 Site.DECKSTATS: settings.deckstats_base, Site.SCRYFALL: settings.scryfall_api_base,
                 Site.AETHERHUB: settings.aetherhub_base, Site.TCGPLAYER: settings.tcgplayer_decks_api_base,
                 Site.EDHREC: settings.edhrec_json_base}  # fmt: skip
        deck_sites = DeckSites(
            session,
            archidekt_base=settings.archidekt_api_base,
            moxfield_base=settings.moxfield_api_base,
            contact_url=settings.decksite_contact,
            moxfield_user_agent=settings.moxfield_user_agent,
            bases=bases,
        )
        closing.push_async_callback(deck_sites.aclose)
        house = await closing.enter_async_context(await HouseStore.open(cards.cache.path, clock=clock))
        combos = ComboStore(cards.cache)
        bot_options.setdefault("extensions", EXTENSIONS)
        bot = IdentityBot(
            settings,
            cards=cards,
            deck_sites=deck_sites,
            house=house,
            metrics=metrics,
            combos=combos,
            **bot_options,
        )
        hours, sync = settings.bulk_refresh_hours, partial(sync_variants, session, settings, cards.cache.path)
        also = [ComboRefresh(combos, sync, every_hours=hours, clock=clock)]
        refresher = BulkRefresher(cards, every_hours=hours, languages=settings.card_languages, also=also)
        health: HealthServer | None = None
        if (port := settings.metrics_port) is not None:
            host = settings.metrics_host
            health = HealthServer(metrics, health_checks(bot, refresher), host=host, port=port)
            try:
                await closing.enter_async_context(health)
            except OSError as exc:
                where = f"{host}:{port} (METRICS_HOST, METRICS_PORT)"
                raise MetricsPortError(
                    f"cannot serve /metrics and /healthz on {where}: {exc.strerror or exc}"
                ) from exc
        closing.push_async_callback(bot.close)
        refresher.start()
        closing.push_async_callback(refresher.stop)
        yield Runtime(bot, refresher, health)


def health_checks(bot: IdentityBot, refresher: BulkRefresher) -> Health:
    """What /healthz checks: the gateway, the cache file, and that there is card data to answer from."""
    cards = bot.cards

    def card_data() -> bool | str:
        if cards.has_local_data or refresher.period <= 0:
            return True  # local data, or API-only mode (BULK_REFRESH_HOURS=0) by choice
        if refresher.failures:
            return f"no local card data: the bulk download failed {refresher.failures} time(s), see the log"
        return "no local card data yet: the first bulk download is running"

    async def checks() -> dict[str, bool | str]:
        cache = True if cards.cache.in_memory else await sqlite_check(cards.cache.path)
        return {"gateway": gateway_check(bot), "cache": cache, "card_data": card_data()}

    return checks


async def run(settings: Settings, *, connect_timeout: float = CONNECT_TIMEOUT) -> int:
    """Run the bot until SIGINT/SIGTERM or a fatal error; returns the process exit code."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # asyncio signal handlers exist only on Unix and in the main thread; elsewhere (Windows, an embedding
    # thread) Ctrl-C still ends the bot through KeyboardInterrupt.
    handled = sys.platform != "win32" and threading.current_thread() is threading.main_thread()
    signals = (signal.SIGINT, signal.SIGTERM) if handled else ()
    for sig in signals:
        loop.add_signal_handler(sig, stop.set)
    try:
        # `async with` the bot: discord.py's own set-up, so `wait_until_ready` works before the login.
        async with assemble(settings) as runtime, runtime.bot:
            return await _serve(runtime.bot, settings, stop, connect_timeout)
    except MetricsPortError as exc:
        return fail(str(exc), EXIT_ERROR)
    except OSError as exc:  # the cache directory or file can't be opened at all
        return fail(f"cannot open the card cache at {settings.cache_path} (CACHE_PATH): {exc}", EXIT_ERROR)
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)


async def _serve(bot: IdentityBot, settings: Settings, stop: asyncio.Event, connect_timeout: float) -> int:
    assert settings.discord_token is not None
    runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()), name="discord")
    stopper = asyncio.create_task(stop.wait(), name="stop-signal")
    ready = asyncio.create_task(bot.wait_until_ready(), name="ready")
    try:
        done, _ = await asyncio.wait(
            {runner, stopper, ready}, timeout=connect_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if not done:
            await bot.close()
            return fail(
                f"Discord did not answer within {connect_timeout:.0f} s at {settings.discord_api_base} "
                f"(login and gateway); check DISCORD_API_BASE and the network.",
                EXIT_ERROR,
            )
        if ready in done and runner not in done:
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("shutdown signal received, closing")
            await bot.close()
            try:
                await runner
            except Exception:  # stopping during the connect: whatever the half-open connection says
                log.debug("connection ended while stopping", exc_info=True)
            return EXIT_OK
        return _discord_exit(runner, settings)
    finally:
        for task in (stopper, ready):
            task.cancel()


def _discord_exit(runner: asyncio.Task[None], settings: Settings) -> int:
    """The exit code (and the one error line) for how `bot.start()` ended."""
    try:
        runner.result()
    except asyncio.CancelledError:
        return EXIT_OK
    except discord.LoginFailure:
        return fail(_TOKEN_REJECTED.format(""), EXIT_CONFIG)
    except discord.ConnectionClosed as exc:
        if exc.code == 4004:  # the gateway refused the token
            return fail(_TOKEN_REJECTED.format(" on the gateway"), EXIT_CONFIG)
        return fail(f"the Discord gateway closed the connection (code {exc.code}).", EXIT_ERROR)
    except discord.PrivilegedIntentsRequired:
        return fail("Discord refused the gateway intents this bot asked for.", EXIT_ERROR)
    except Exception as exc:
        log.debug("the bot stopped", exc_info=True)
        connecting = isinstance(exc, discord.GatewayNotFound | OSError | discord.HTTPException)
        what = f"cannot talk to Discord at {settings.discord_api_base}" if connecting else "the bot stopped"
        return fail(f"{what}: {type(exc).__name__}: {exc}".replace("\n", " "), EXIT_ERROR)
    return EXIT_OK
