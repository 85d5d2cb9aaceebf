"""What the benchmarks share: one percentile, a free port, the cards they ask for, the bot as a process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

# Cards the shared data set answers locally (one double-faced card among them): what the benchmarks look up.
CARDS = [
    "Fires of Undeath",
    "Dismember",
    "Sol Ring",
    "Kumano, Master Yamabushi",
    "Lightning Bolt",
    "Civilized Scholar // Homicidal Brute",
    "General Tazri",
    "Kitchen Finks",
    "Counterspell",
]


def pct(values: list[float], q: float) -> float:
    """The `q`-th percentile (0-100) of `values` by nearest rank; NaN when there are none."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on (free when this returns)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bot_env(fake: Any, scryfall: Any, cache: Path, **settings: str) -> dict[str, str]:
    """The bot's environment for a run against the fake Discord `fake` and fake Scryfall `scryfall`, its
    card cache at `cache`: local data refreshed daily, no cooldown, no metrics port, no emoji upload,
    commands synced globally. `settings` (lower-case names, e.g. ``log_level="INFO"``) add or replace
    variables."""
    env = {
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "SCRYFALL_API_BASE": scryfall.base_url,
        "SPELLBOOK_JSON_BASE": "http://127.0.0.1:9",  # no combo data: Commander Spellbook is never reached
        "CACHE_PATH": str(cache),
        "BULK_REFRESH_HOURS": "24",
        "USER_RATE": "off",
        "LOG_LEVEL": "WARNING",
        "SYNC_COMMANDS": "true",
        "DEV_GUILD_ID": "",
        "METRICS_PORT": "",
        "MANA_EMOJI_UPLOAD": "false",
    }
    return env | {name.upper(): value for name, value in settings.items()}


@contextlib.asynccontextmanager
async def bot_process(
    env: Mapping[str, str], cwd: Path, *, stdout: int | None = None, stop_timeout: float = 30.0
) -> AsyncIterator[asyncio.subprocess.Process]:
    """`python -m bot` in `cwd` with `env` over this process's environment (its variables whose names start
    with one of `env`'s left out) and this repository on PYTHONPATH; terminated, and waited for, on exit."""
    child_env = {k: v for k, v in os.environ.items() if not k.startswith(tuple(env))} | dict(env)
    child_env["PYTHONPATH"] = str(REPO)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=child_env, stdout=stdout
    )
    try:
        yield proc
    finally:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):  # it exited already
                proc.terminate()
        await asyncio.wait_for(proc.wait(), stop_timeout)
