"""`python -m bot healthcheck`, the Docker HEALTHCHECK (the probe is `bot.ops.healthcheck`). Docker runs it
every 30 s, so it imports only the settings and the probe, never discord.py or aiohttp (`bot/__main__.py`
calls it before importing `bot.cli`)."""

from __future__ import annotations

from pydantic import ValidationError

from bot.ops.healthcheck import check_health, one_line
from bot.settings import load_settings, settings_problem


def healthcheck() -> int:
    """Print one line saying how the bot is; 0 when it is healthy, 1 when not (Docker's exit codes)."""
    try:
        settings = load_settings()
    except ValidationError as exc:
        print(one_line(settings_problem(exc)))
        return 1
    if settings.discord_token is None:
        print(
            "DISCORD_TOKEN is not set, so the bot is not running: put the token in .env (docker logs says more)"
        )
        return 1
    if settings.metrics_port == 0:
        print("METRICS_PORT=0 binds a random port, which the probe cannot know: set a fixed port")
        return 1
    ok, reason = check_health(settings.metrics_host, settings.metrics_port, settings.cache_path)
    print(reason)
    return 0 if ok else 1
