"""CommandObserver: one finish() = one metrics update + one log line."""

from __future__ import annotations

import io
import json
import logging

from bot.ops.logs import JsonFormatter
from bot.ops.metrics import BotMetrics
from bot.ops.observer import CommandObserver


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def make_logger():
    stream = io.StringIO()
    logger = logging.getLogger("test.observer")
    logger.handlers[:] = []
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return logger, stream


def test_finish_records_metrics_and_one_log_line():
    clock, metrics = Clock(), BotMetrics(process_metrics=False)
    logger, stream = make_logger()
    obs = CommandObserver(metrics, logger, clock)
    started = obs.start()
    clock.now += 0.0125
    seconds = obs.finish(command="identity", outcome="ok", started=started, cache_hit=True, guild_id=9,
                         card="Fires of Undeath", shard_id=1)
    assert abs(seconds - 0.0125) < 1e-9
    assert metrics.value("identity_bot_commands_total", {"command": "identity", "outcome": "ok"}) == 1
    assert metrics.value("identity_bot_command_latency_seconds_sum", {"command": "identity"}) == seconds
    assert metrics.value("identity_bot_cache_lookups_total", {"result": "hit"}) == 1
    [line] = stream.getvalue().splitlines()
    record = json.loads(line)
    assert record["latency_ms"] == 12.5 and record["card"] == "Fires of Undeath" and record["shard_id"] == 1


def test_without_metrics_still_logs_and_autocomplete_is_timed():
    clock = Clock()
    logger, stream = make_logger()
    obs = CommandObserver(None, logger, clock)
    obs.finish(command="fits", outcome="cooldown", started=obs.start())
    assert json.loads(stream.getvalue())["outcome"] == "cooldown"
    metrics = BotMetrics(process_metrics=False)
    obs = CommandObserver(metrics, logger, clock)
    started = obs.start()
    clock.now += 0.004
    assert abs(obs.autocomplete(started) - 0.004) < 1e-9
    assert metrics.value("identity_bot_autocomplete_latency_seconds_count") == 1
    assert metrics.value("identity_bot_autocomplete_total", {"outcome": "ok"}) == 1
    assert stream.getvalue().count("\n") == 1  # autocomplete writes no log line
