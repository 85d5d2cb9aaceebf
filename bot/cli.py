"""`python -m bot [run | sync-cards | check-deck | identity | fits | healthcheck | house]`: each command loads the
settings (exit code 2 when they are wrong) and hands over to `bot.main` (`identity` and `fits`: `bot.cli_cards`;
`house`: `bot.house.cli`). `COMMANDS` lists the subcommands; a new one is a function adding its parser there."""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
import signal
import sys
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
from pydantic import ValidationError
from tqdm import tqdm

from bot import __version__, cli_cards
from bot.cards.allcards import import_printed_names, sync_printed_names
from bot.cards.budget import Budget
from bot.cards.bulk import import_file, sync_from_scryfall
from bot.cards.scryfall import HEADERS
from bot.combos.load import MIN_VARIANTS, ComboImport, import_variants
from bot.combos.store import sync_variants
from bot.compose import EXIT_CONFIG, EXIT_ERROR, EXIT_OK, fail, scryfall_client
from bot.healthcheck import healthcheck
from bot.house import cli as house_cli
from bot.ops.logs import setup_logging
from bot.settings import Settings, load_settings, settings_problem

T = TypeVar("T")


WAITING = (
    "waiting: the configuration is wrong, so starting again would fail the same way. Fix .env (or the "
    "environment), then recreate the container: docker rm -f identity-bot, and the same docker run line."
)


def wait_for_stop(code: int) -> int:
    """`run --wait-on-config-error` (the Docker image's command): after a configuration error, say so and wait
    for SIGTERM or SIGINT instead of exiting, so a restart policy does not start the same error over and
    over; then exit with `code`. Without signals to wait on (Windows), exit at once."""
    if code != EXIT_CONFIG or not hasattr(signal, "sigwait"):
        return code
    stops = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)  # before saying so: a stop from now on is waited for
    print(WAITING, file=sys.stderr, flush=True)
    signal.sigwait(stops)
    return code


def _run_command(args: argparse.Namespace, settings: Settings) -> int:
    if settings.discord_token is None:
        return fail(
            "DISCORD_TOKEN is not set; put the bot token in the environment or in .env (see .env.example).",
            EXIT_CONFIG,
        )
    # discord.py and the bot are imported for this command only (the others start with less to load)
    from bot.main import run

    json = settings.log_format == "json"
    setup_logging(settings.log_level, json=json, token=settings.discord_token, stream=sys.stdout)
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:  # pragma: no cover - a second Ctrl-C during shutdown
        return 130


def _bar(unit: str, desc: str, **options: Any) -> tqdm[Any]:
    return tqdm(unit=unit, desc=desc, disable=not sys.stderr.isatty(), file=sys.stderr, **options)


async def _scryfall(settings: Settings, desc: str, sync: Callable[..., Awaitable[T]], cache: Path) -> T:
    """`sync(client, cache)` on a Scryfall client of its own, its download drawn as a progress bar."""
    async with aiohttp.ClientSession(headers=HEADERS) as session:
        with _bar("B", desc, unit_scale=True) as bar:

            def on_bytes(done: int, total: int | None) -> None:
                bar.total = total or bar.total
                bar.update(done - bar.n)

            return await sync(scryfall_client(settings, session), cache, download_progress=on_bytes)


def _sync_cards(args: argparse.Namespace, settings: Settings) -> int:
    """The card data (and printed names), then the combos; a file given for either imports only files."""
    logging.basicConfig(level=settings.log_level, format="%(levelname)s %(name)s: %(message)s")
    cache: Path = args.cache or settings.cache_path
    if args.printed:
        return _import_printed(args.printed, settings, cache)
    if args.file or args.combos is None:
        code = _sync_card_data(args, settings, cache)
        if code != EXIT_OK or (args.file and args.combos is None):
            return code
    try:
        if args.combos is None:
            result = asyncio.run(_download_combos(settings, cache, args.least))
        else:
            source = sys.stdin.buffer if args.combos == "-" else args.combos
            result = import_variants(source, cache, least=args.least)  # type: ignore[arg-type]
    except Exception as exc:  # refused, unreachable, I/O: one clear line; the combos held stay
        return fail(f"the combos could not be imported (the combos held stay in use): {exc}", EXIT_ERROR)
    print(f"imported {result.combos:,} Commander Spellbook combos in {result.seconds:.1f} s into {cache}")
    return EXIT_OK


def _import_printed(path: Path, settings: Settings, cache: Path) -> int:
    """`--printed FILE`: a downloaded all_cards file's printed names in CARD_LANGUAGES."""
    if not settings.card_languages:
        return fail("no languages turned on: set CARD_LANGUAGES (e.g. de,fr or all)", EXIT_CONFIG)
    try:
        with _bar(" printings", "reading all_cards") as bar:
            result = import_printed_names(path, cache, settings.card_languages, progress=bar.update)
    except Exception as exc:  # bad file, I/O: one clear line, no traceback; the names held stay
        return fail(f"the printed names could not be imported: {exc}", EXIT_ERROR)
    print(f"kept {result.names:,} names from {result.printings:,} printings in {result.seconds:.1f} s")
    return EXIT_OK


async def _download_combos(settings: Settings, cache: Path, least: int) -> ComboImport:
    async with aiohttp.ClientSession() as session:
        return await sync_variants(session, settings, cache, least=least)


def _sync_card_data(args: argparse.Namespace, settings: Settings, cache: Path) -> int:
    batch = max(1, args.batch_size)
    try:
        with _bar(" cards", "importing") as bar:
            if args.file:
                with tempfile.TemporaryDirectory() as folder:
                    path = Path(folder, "stdin") if str(args.file) == "-" else args.file
                    if path is not args.file:  # stdin, spooled: the import reads its file twice
                        with path.open("wb") as spool:
                            shutil.copyfileobj(sys.stdin.buffer, spool)
                    result = import_file(path, cache, batch_size=batch, progress=bar.update)
            else:
                oracle = partial(sync_from_scryfall, batch_size=batch, import_progress=bar.update)
                result = asyncio.run(_scryfall(settings, "downloading", oracle, cache))
    except Exception as exc:  # bad file, I/O, Scryfall unavailable...: one clear line, no traceback
        return fail(f"the card data could not be imported: {exc}", EXIT_ERROR)
    rate = f"{result.seconds:.1f} s ({result.rate:,.0f} cards/s)"
    skipped = f"; skipped {result.skipped} non-card objects" if result.skipped else ""
    print(f"imported {result.cards} cards in {rate} into {cache}{skipped}")
    if differ := result.disagreements:
        listed = ", ".join(d.name for d in differ[:10]) + (", …" if len(differ) > 10 else "")
        cards = "1 card" if len(differ) == 1 else f"{len(differ)} cards"
        print(f"{cards} where Scryfall lists another color identity than cost and text give: {listed}")
    if args.file or not settings.card_languages:
        return EXIT_OK
    try:
        names = partial(sync_printed_names, languages=settings.card_languages)
        printed = asyncio.run(_scryfall(settings, "downloading all_cards", names, cache))
    except Exception as exc:  # one clear line, no traceback; the oracle data is imported already
        return fail(f"the printed names could not be imported (the card data was): {exc}", EXIT_ERROR)
    print(
        f"imported {printed.names:,} printed names ({','.join(settings.card_languages)}) from "
        f"{printed.printings:,} printings in {printed.seconds:.1f} s"
    )
    return EXIT_OK


def _add_run(commands: Any) -> None:
    run_parser = commands.add_parser("run", help="run the Discord bot until SIGINT or SIGTERM (the default)")
    run_parser.add_argument(
        "--wait-on-config-error",
        action="store_true",
        help="after a configuration error (no or a rejected DISCORD_TOKEN, a bad setting), print it and wait "
        "for SIGTERM instead of exiting, so a container's restart policy does not repeat it (the Docker image "
        "runs this)",
    )
    run_parser.set_defaults(handler=_run_command)


def _add_sync_cards(commands: Any) -> None:
    sync = commands.add_parser(
        "sync-cards",
        help="download Scryfall's bulk card data and Commander Spellbook's combos into the cache, or import files",
        description="Fill the local card cache from Scryfall's oracle_cards bulk file (downloaded through "
        "/bulk-data) and Commander Spellbook's combo export (variants.json), or from the files you give (then "
        "only those). A running bot picks the new data up within a minute.",
    )
    sync.add_argument("--file", type=Path, help="import this .json, .jsonl or .gz file (- for stdin) instead")
    sync.add_argument("--combos", metavar="FILE", help="import this Spellbook variants.json (.gz; - stdin)")
    sync.add_argument(
        "--printed", type=Path, metavar="FILE", help="import this all_cards file's printed names"
    )
    sync.add_argument("--min-variants", dest="least", type=int, default=MIN_VARIANTS, help=argparse.SUPPRESS)
    sync.add_argument("--cache", type=Path, help="cache file (default: CACHE_PATH)")
    sync.add_argument("--batch-size", type=int, default=2000, help=argparse.SUPPRESS)
    sync.set_defaults(handler=_sync_cards)


def _add_healthcheck(commands: Any) -> None:
    health = commands.add_parser(
        "healthcheck",
        help="exit 0 when this host's bot is healthy (the Docker HEALTHCHECK)",
        description="Probe the running bot's /healthz (METRICS_PORT set) or its card cache (unset); "
        "prints one line saying why when it is not healthy.",
    )
    health.set_defaults(handler=healthcheck)


#: The subcommands in `--help` order: each adds its parser, with `handler(args, settings) -> exit code`.
COMMANDS: tuple[Callable[[Any], None], ...] = (
    _add_run,
    _add_sync_cards,
    cli_cards.add_check_deck,
    cli_cards.add_identity,
    cli_cards.add_fits,
    _add_healthcheck,
    house_cli.add_parser,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="IdentityBot: Magic: The Gathering color identity for Discord. Settings come from the "
        "environment and .env (see .env.example). Without a command, runs the bot.",
    )
    parser.add_argument("--version", action="version", version=f"IdentityBot {__version__}")
    parser.set_defaults(handler=_run_command)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for add in COMMANDS:
        add(commands)
    return parser


def main(argv: Sequence[str] | None = None, *, budget: Budget | None = None) -> int:
    """Run the command; bad settings exit 2, but `healthcheck` reports them as unhealthy itself. `budget`: the
    Scryfall request budget of `identity`, `fits` and `check-deck` (default: SCRYFALL_RATE's; tests give one)."""
    start = argparse.Namespace(budget=budget)
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv), namespace=start)
    if args.handler is healthcheck:
        return healthcheck()
    try:
        settings = load_settings()
    except ValidationError as exc:
        code = fail(settings_problem(exc), EXIT_CONFIG)
    else:
        code = int(args.handler(args, settings))
    return wait_for_stop(code) if getattr(args, "wait_on_config_error", False) else code
