"""Entry point and composition root: `python -m bot [run | sync-cards | check-deck | healthcheck]`.

The composition root is the one place that builds things: it opens the HTTP session and the card cache
(`async with`), builds the Scryfall client with its request budget, the card service, the bulk refresher
and the metrics, and passes them into the bot (`assemble`), the deck check and `sync-cards` (`open_cards`).
Nothing below it looks objects up on the bot or keeps module globals. `run` adds the process around the
bot: logging, the metrics/health server, signals, a connect timeout, and one clear line and exit code for
each way start-up can fail.
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
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
from pydantic import ValidationError

from bot import __version__
from bot.app.bot import IdentityBot
from bot.app.endpoints import use_api_base
from bot.cards.budget import Budget
from bot.cards.bulk import ImportResult, import_file, sync_from_scryfall
from bot.cards.cache import CardCache
from bot.cards.model import ScryfallUnavailable
from bot.cards.refresh import BulkRefresher
from bot.cards.scryfall import HEADERS, LOCKOUT_SECONDS, ScryfallClient
from bot.cards.service import CardService
from bot.deck.check import DeckReport, ProblemKind
from bot.deck.parser import DeckInputError, decode
from bot.deck.runner import NoCommander, check_decklist
from bot.deck.sources import DeckSites
from bot.healthcheck import healthcheck
from bot.ops.metrics import BotMetrics
from bot.ops.ratelimit import UserRateLimiter
from bot.ops.server import HealthServer, gateway_check, sqlite_check
from bot.present.deck_report import text_report
from bot.present.embeds import stale_note
from bot.settings import Settings, load_settings, settings_problem

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 60.0  # seconds for login and the first READY before start-up is reported as failed
EXIT_OK, EXIT_ERROR, EXIT_CONFIG = 0, 1, 2
DECK_LEGAL, DECK_PROBLEMS, DECK_BAD_INPUT, DECK_UNAVAILABLE = 0, 1, 2, 3


# ------------------------------------------------------------------------------- composition root
def scryfall_client(settings: Settings, session: aiohttp.ClientSession, budget: Budget | None = None, *,
                    metrics: BotMetrics | None = None, lockout_seconds: float = LOCKOUT_SECONDS) -> ScryfallClient:
    """The Scryfall client for these settings, on `budget` (Scryfall's limits for this process, scaled by
    `SCRYFALL_RATE`; a new one by default)."""
    return ScryfallClient(session, settings.scryfall_api_base, budget=budget or Budget(scale=settings.scryfall_rate),
                          metrics=metrics, timeout=settings.scryfall_timeout, lockout_seconds=lockout_seconds)


@asynccontextmanager
async def open_cards(settings: Settings, *, metrics: BotMetrics | None = None, budget: Budget | None = None,
                     clock: Callable[[], float] = time.time,
                     lockout_seconds: float = LOCKOUT_SECONDS) -> AsyncIterator[CardService]:
    """The card service on its own HTTP session and cache, closed on exit. `budget` (default: a new one for
    this process), `clock` (wall time, for TTLs) and `lockout_seconds` are for tests."""
    metrics = metrics or BotMetrics(version=__version__, process_metrics=False)
    async with aiohttp.ClientSession(headers=HEADERS) as session, \
            await CardCache.open(settings.cache_path, clock=clock) as cache:
        client = scryfall_client(settings, session, budget, metrics=metrics, lockout_seconds=lockout_seconds)
        cards = CardService(cache, client, metrics=metrics, cache_ttl=settings.cache_ttl,
                            negative_ttl=settings.negative_ttl, clock=clock)
        await cards.load_index()
        try:
            yield cards
        finally:
            cards.close()


def default_extensions() -> tuple[str, ...]:
    """Every module in the `cogs` package (each defines `async def setup(bot)`), loaded as extensions."""
    import cogs

    return tuple(sorted(f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__) if not m.name.startswith("_")))


@dataclass(frozen=True, slots=True)
class Runtime:
    """What `assemble` built: the bot (with its metrics), and beside it the bulk refresher and (with
    METRICS_PORT) the /metrics and /healthz server."""

    bot: IdentityBot
    refresher: BulkRefresher
    health: HealthServer | None


class MetricsPortError(OSError):
    """The metrics server can't listen on METRICS_HOST:METRICS_PORT."""


@asynccontextmanager
async def assemble(settings: Settings, *, clock: Callable[[], float] = time.time,
                   lockout_seconds: float = LOCKOUT_SECONDS,
                   **bot_options: Any) -> AsyncIterator[Runtime]:
    """The bot with everything it uses, the bulk refresher running beside it; all closed on exit.
    `bot_options` go to `IdentityBot` (tests: `extensions`, `identify_spacing`); the clocks and
    `lockout_seconds` to `open_cards`."""
    use_api_base(settings.discord_api_base)
    metrics = BotMetrics(version=__version__, process_metrics=settings.metrics_port is not None)
    async with open_cards(settings, metrics=metrics, clock=clock,
                          lockout_seconds=lockout_seconds) as cards, \
            aiohttp.ClientSession() as session:
        deck_sites = DeckSites(session, archidekt_base=settings.archidekt_api_base,
                               moxfield_base=settings.moxfield_api_base, contact_url=settings.decksite_contact,
                               moxfield_user_agent=settings.moxfield_user_agent)
        rate = settings.user_rate_limit()
        bot_options.setdefault("extensions", default_extensions())
        bot_options.setdefault("app_emojis", settings.mana_emoji_upload)
        bot = IdentityBot(settings, cards=cards, deck_sites=deck_sites, metrics=metrics,
                          limiter=UserRateLimiter(*rate) if rate else None, emoji=settings.emoji_map(),
                          **bot_options)
        refresher = BulkRefresher(cards, every_hours=settings.bulk_refresh_hours)
        health: HealthServer | None = None
        if settings.metrics_port is not None:
            health = HealthServer(metrics, health_checks(bot, refresher), host=settings.metrics_host,
                                  port=settings.metrics_port)
            try:
                await health.start()
            except OSError as exc:
                raise MetricsPortError(exc.errno, f"cannot serve /metrics and /healthz on {settings.metrics_host}:"
                                                  f"{settings.metrics_port} (METRICS_HOST, METRICS_PORT): "
                                                  f"{exc.strerror or exc}") from exc
        refresher.start()
        try:
            yield Runtime(bot, refresher, health)
        finally:
            await refresher.stop()
            if not bot.is_closed():
                await bot.close()
            if health is not None:
                await health.stop()
            await deck_sites.aclose()


def health_checks(bot: IdentityBot, refresher: BulkRefresher) -> Callable[[], dict[str, Any]]:
    """What /healthz checks: the gateway, the cache file, and that there is card data to answer from."""
    cards = bot.cards

    def card_data() -> bool | str:
        if cards.has_local_data or refresher.period <= 0:
            return True  # local data, or API-only mode (BULK_REFRESH_HOURS=0) by choice
        if refresher.failures:
            return f"no local card data: the bulk download failed {refresher.failures} time(s), see the log"
        return "no local card data yet: the first bulk download is running"

    def checks() -> dict[str, Any]:
        cache = True if cards.cache.in_memory else sqlite_check(cards.cache.path)
        return {"gateway": gateway_check(bot), "cache": cache, "card_data": card_data()}

    return checks


# ------------------------------------------------------------------------------------------ run
def _fail(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr, flush=True)
    return code


async def run(settings: Settings, *, connect_timeout: float = CONNECT_TIMEOUT, **bot_options: Any) -> int:
    """Run the bot until SIGINT/SIGTERM or a fatal error; returns the process exit code."""
    assert settings.discord_token is not None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    # asyncio signal handlers exist only on Unix event loops and only in the main thread; elsewhere
    # (Windows, an embedding thread) Ctrl-C still ends the bot through KeyboardInterrupt.
    if sys.platform != "win32" and threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
    try:
        async with assemble(settings, **bot_options) as runtime:
            return await _serve(runtime.bot, settings, stop, connect_timeout)
    except MetricsPortError as exc:
        return _fail(exc.strerror or str(exc), EXIT_ERROR)
    except OSError as exc:  # the cache directory or file can't be opened at all
        return _fail(f"cannot open the card cache at {settings.cache_path} (CACHE_PATH): {exc}", EXIT_ERROR)
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


async def _serve(bot: IdentityBot, settings: Settings, stop: asyncio.Event, connect_timeout: float) -> int:
    assert settings.discord_token is not None
    runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()), name="discord")
    stopper = asyncio.create_task(stop.wait(), name="stop-signal")
    ready = asyncio.create_task(_until_ready(bot), name="ready")
    try:
        done, _ = await asyncio.wait({runner, stopper, ready}, timeout=connect_timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        if not done:
            await bot.close()
            return _fail(f"Discord did not answer within {connect_timeout:.0f} s at {settings.discord_api_base} "
                         f"(login and gateway); check DISCORD_API_BASE and the network.", EXIT_ERROR)
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


async def _until_ready(bot: IdentityBot) -> None:
    while not bot.is_ready():  # noqa: ASYNC110 - discord.py's wait_until_ready needs a logged-in client
        await asyncio.sleep(0.05)


def _discord_exit(runner: asyncio.Task[None], settings: Settings) -> int:
    """The exit code (and the one error line) for how `bot.start()` ended."""
    try:
        runner.result()
    except discord.ConnectionClosed as exc:
        if exc.code == 4004:  # the gateway refused the token
            return _fail("Discord rejected the token (DISCORD_TOKEN) on the gateway; check it in the "
                         "Developer Portal (Bot > Reset Token).", EXIT_CONFIG)
        return _fail(f"the Discord gateway closed the connection (code {exc.code}).", EXIT_ERROR)
    except discord.LoginFailure:
        return _fail("Discord rejected the token (DISCORD_TOKEN); check it in the Developer Portal "
                     "(Bot > Reset Token).", EXIT_CONFIG)
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the gateway intents this bot asked for.", EXIT_ERROR)
    except (discord.GatewayNotFound, OSError, discord.HTTPException) as exc:
        log.debug("connection failure", exc_info=True)
        return _fail(f"cannot talk to Discord at {settings.discord_api_base}: "
                     f"{type(exc).__name__}: {exc}".replace("\n", " "), EXIT_ERROR)
    except asyncio.CancelledError:
        return EXIT_OK
    except Exception as exc:
        log.debug("bot failure", exc_info=True)
        return _fail(f"the bot stopped: {type(exc).__name__}: {exc}".replace("\n", " "), EXIT_ERROR)
    return EXIT_OK


def _load_settings() -> Settings | int:
    try:
        return load_settings()
    except ValidationError as exc:
        return _fail(settings_problem(exc), EXIT_CONFIG)


def _run_command(args: argparse.Namespace) -> int:
    settings = _load_settings()
    if isinstance(settings, int):
        return settings
    if settings.discord_token is None:
        return _fail("DISCORD_TOKEN is not set; put the bot token in the environment or in .env "
                     "(see .env.example).", EXIT_CONFIG)
    from bot.ops.logs import setup_logging

    setup_logging(settings.log_level, json=settings.log_format == "json", token=settings.discord_token,
                  stream=sys.stdout)
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:  # pragma: no cover - a second Ctrl-C during shutdown
        return 130


# ------------------------------------------------------------------------------------- sync-cards
def _sync_cards(args: argparse.Namespace) -> int:
    settings = _load_settings()
    if isinstance(settings, int):
        return settings
    if not logging.getLogger().handlers:
        logging.basicConfig(level=settings.log_level, format="%(levelname)s %(name)s: %(message)s")
    cache_path: Path = args.cache or settings.cache_path
    show = sys.stderr.isatty()
    from tqdm import tqdm

    bar = tqdm(unit=" cards", desc="importing", disable=not show, file=sys.stderr)

    def imported(count: int) -> None:
        bar.update(count)

    try:
        if args.file:
            result = import_file(args.file, cache_path, batch_size=max(1, args.batch_size), progress=imported)
        else:
            result = asyncio.run(_download(settings, cache_path, max(1, args.batch_size), imported, show))
    except Exception as exc:  # bad file, I/O, Scryfall unavailable...: one clear line, no traceback
        bar.close()
        print(f"sync-cards failed: {exc}", file=sys.stderr)
        return EXIT_ERROR
    bar.close()
    print(f"imported {result.cards} cards in {result.seconds:.1f} s ({result.rate:,.0f} cards/s) "
          f"into {cache_path}" + (f"; skipped {result.skipped} non-card objects" if result.skipped else ""))
    return EXIT_OK


async def _download(settings: Settings, cache_path: Path, batch_size: int, imported: Callable[[int], None],
                    show: bool) -> ImportResult:
    from tqdm import tqdm

    down = tqdm(unit="B", unit_scale=True, desc="downloading", disable=not show, file=sys.stderr)
    last = [0]

    def on_bytes(done: int, total: int | None) -> None:
        if total and down.total != total:
            down.total = total
        down.update(done - last[0])
        last[0] = done

    try:
        async with aiohttp.ClientSession(headers=HEADERS) as session:
            return await sync_from_scryfall(scryfall_client(settings, session), cache_path,
                                            batch_size=batch_size, download_progress=on_bytes,
                                            import_progress=imported)
    finally:
        down.close()


# ------------------------------------------------------------------------------------- check-deck
DECK_EXIT_CODES = """exit codes:
  0  the deck is legal
  1  problems found (also when some names could not be checked: the problems found are certain)
  2  bad input: unreadable or binary file, list too long, no commander, unknown or mistyped commander
     (with "did you mean" names), a bad --color
  3  some names could not be checked because Scryfall was unreachable and nothing else is wrong (the report
     on stdout lists them), or nothing at all could be looked up (a message on stderr, no report)"""


def _read_deck(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise DeckInputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return decode(data)


def deck_exit_code(report: DeckReport) -> int:
    """0 legal, 1 problems found (they win over unchecked names), 3 only names that could not be checked."""
    if report.legal:
        return DECK_LEGAL
    return DECK_PROBLEMS if report.findings else DECK_UNAVAILABLE


async def _check_deck(settings: Settings, text: str, commander: str | None, partner: str | None,
                      colors: Sequence[str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of one check."""
    async with open_cards(settings) as cards:
        try:
            report, resolved = await check_decklist(cards, text, commander, partner, chosen=colors)
        except ScryfallUnavailable as exc:
            return DECK_UNAVAILABLE, "", (f"error: Scryfall is not answering ({exc.reason}) and the local card "
                                          f"data could not answer either; nothing was checked. Try again in a "
                                          f"minute.\n")
    note = stale_note(resolved)
    if note:
        report.warnings.append(note)
    err = ""
    if not report.complete:
        unchecked = report.of_kind(ProblemKind.UNCHECKED)
        err = (f"warning: {len(unchecked)} name{'s' if len(unchecked) != 1 else ''} could not be checked "
               f"(Scryfall unreachable); the report lists them\n")
    return deck_exit_code(report), text_report(report), err


def _check_deck_command(args: argparse.Namespace) -> int:
    settings = _load_settings()
    if isinstance(settings, int):
        return settings
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    try:
        text = _read_deck(args.file)
        code, out, err = asyncio.run(_check_deck(settings, text, args.commander, args.partner, args.color))
    except NoCommander:
        print(f"error: {NoCommander('give it with --commander NAME')}", file=sys.stderr)
        return DECK_BAD_INPUT
    except DeckInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return DECK_BAD_INPUT
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


# -------------------------------------------------------------------------------------- the CLI
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="IdentityBot: Magic: The Gathering color identity for Discord. Settings come from the "
                    "environment and .env (see .env.example). Without a command, runs the bot.",
    )
    parser.add_argument("--version", action="version", version=f"IdentityBot {__version__}")
    parser.set_defaults(handler=_run_command)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    run_parser = commands.add_parser("run", help="run the Discord bot (the default)",
                                     description="Run the Discord bot until SIGINT or SIGTERM.")
    run_parser.set_defaults(handler=_run_command)

    sync = commands.add_parser(
        "sync-cards", help="download Scryfall's bulk card data into the cache, or import a file",
        description="Fill the local card cache from Scryfall's oracle_cards bulk file (downloaded through "
                    "/bulk-data), or from a file you give. A running bot picks the new data up within a minute.")
    sync.add_argument("--file", type=Path, help="import this file (.json, .json.gz, .jsonl, .jsonl.gz) instead of "
                                                "downloading oracle_cards")
    sync.add_argument("--cache", type=Path, help="cache file (default: CACHE_PATH)")
    sync.add_argument("--batch-size", type=int, default=2000, help=argparse.SUPPRESS)
    sync.set_defaults(handler=_sync_cards)

    deck = commands.add_parser(
        "check-deck", help="check a Commander decklist on the terminal",
        description="Check a Commander decklist: color identity (with the symbol behind every misfit),\n"
                    "singleton, deck size, banned cards, commander eligibility and partner pairing.\n"
                    "Reads Moxfield, Archidekt, Arena, MTGO, TappedOut and plain exports, also pasted on\n"
                    "one line. Prints the report on stdout.",
        epilog=DECK_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    deck.add_argument("file", help="the decklist text file, or - to read it from stdin")
    deck.add_argument("--commander", default=None, metavar="NAME",
                      help="the commander (a partial name works: Kumano). Optional when the list marks its "
                           "commander(s): a Commander section, a 'Commander: Name' line, *CMDR* or Archidekt's "
                           "[Commander] category")
    deck.add_argument("--partner", default=None, metavar="NAME",
                      help="the second commander (Partner, Background, Doctor's companion, ...). Optional: "
                           "with --commander alone, a second commander the list marks is used too")
    deck.add_argument("--color", action="append", default=[], metavar="COLOR",
                      help="the color chosen before the game for a commander that chooses one (CR 903.4b, "
                           "e.g. The Prismatic Piper): W, U, B, R, G or white, blue, black, red, green. "
                           "Repeat once per such commander, in commander order; it counts in the deck's color "
                           "identity")
    deck.set_defaults(handler=_check_deck_command)

    health = commands.add_parser(
        "healthcheck", help="exit 0 when this host's bot is healthy (the Docker HEALTHCHECK)",
        description="Probe the running bot's /healthz (METRICS_PORT set) or its card cache (unset); "
                    "prints one line saying why when it is not healthy.")
    health.set_defaults(handler=healthcheck)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)
