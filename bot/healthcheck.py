"""`python -m bot healthcheck`, the Docker HEALTHCHECK: one line saying how this host's bot is (the probe is
`bot.ops.healthcheck`), exit 0 healthy or 1 not.

Docker runs it every 30 s, so it imports only the settings and the probe, never discord.py or aiohttp:
`bot/__main__.py` calls it before importing `bot.cli`, which registers the same function for the CLI's
`healthcheck` command (its `--help`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.ops.healthcheck import check_health, one_line
from bot.settings import load_settings, settings_problem

if TYPE_CHECKING:
    import argparse

HEALTHY, UNHEALTHY = 0, 1  # Docker's HEALTHCHECK exit codes


def healthcheck(args: argparse.Namespace | None = None) -> int:
    """Print one line saying how the bot is; 0 when it is healthy, 1 when not."""
    try:
        settings = load_settings()
    except ValidationError as exc:
        print(one_line(settings_problem(exc)))
        return UNHEALTHY
    if settings.metrics_port == 0:
        print("METRICS_PORT=0 binds a random port, which the probe cannot know: set a fixed port")
        return UNHEALTHY
    ok, reason = check_health(settings.metrics_host, settings.metrics_port, settings.cache_path)
    print(reason)
    return HEALTHY if ok else UNHEALTHY
