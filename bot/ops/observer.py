"""One call per finished command that feeds both the metrics and the one-line command log."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.ops.logs import COMMAND_LOGGER, log_command
from bot.ops.metrics import BotMetrics

__all__ = ["CommandObserver"]


class CommandObserver:
    """``started = obs.start()`` when the interaction arrives; ``obs.finish(...)`` once it has its reply.

    ``metrics`` may be None (METRICS_PORT unset): the log line is still written. Never raises.
    """

    def __init__(
        self,
        metrics: BotMetrics | None = None,
        logger: logging.Logger | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.metrics = metrics
        self.logger = logger if logger is not None else logging.getLogger(COMMAND_LOGGER)
        self.clock = clock

    def start(self) -> float:
        return self.clock()

    def finish(
        self,
        *,
        command: str,
        outcome: str,
        started: float,
        cache_hit: bool | None = None,
        guild_id: int | None = None,
        card: str | None = None,
        shard_id: int | None = None,
    ) -> float:
        """Record one finished command; returns its latency in seconds."""
        seconds = max(self.clock() - started, 0.0)
        try:
            if self.metrics is not None:
                self.metrics.observe_command(command, outcome, seconds, cache_hit)
            log_command(
                self.logger, command=command, outcome=outcome, latency_ms=seconds * 1000.0,
                cache_hit=cache_hit, guild_id=guild_id, card=card, shard_id=shard_id,
            )
        except Exception:  # observability must never break a reply
            logging.getLogger(__name__).exception("could not record command %r", command)
        return seconds

    def autocomplete(self, started: float, outcome: str = "ok") -> float:
        """Record one answered autocomplete request (metrics only: autocomplete is not logged per call)."""
        seconds = max(self.clock() - started, 0.0)
        if self.metrics is not None:
            try:
                self.metrics.observe_autocomplete(seconds, outcome)
            except Exception:
                logging.getLogger(__name__).exception("could not record autocomplete")
        return seconds
