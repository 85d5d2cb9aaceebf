"""Prometheus metrics ``identity_bot_<name>`` (README, *Health and metrics*) in a registry of their own (no
clashes between bots or tests); label values are bounded whatever callers pass."""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from functools import partial
from urllib.parse import urlsplit

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

NAMESPACE = "identity_bot"


class Outcome(StrEnum):
    """How a command ended: the `outcome` label of `commands_total` and of the command log line."""

    OK = "ok"  # answered with a result (identity, a fit verdict, a deck report)
    STALE = "stale"  # answered from an expired cache entry while Scryfall failed
    NOT_FOUND = "not_found"  # unknown card, "did you mean" reply
    AMBIGUOUS = "ambiguous"  # several candidates
    INVALID = "invalid"  # refused input (too long, empty, a bad decklist, ...)
    SCRYFALL_UNAVAILABLE = "scryfall_unavailable"  # Scryfall down and nothing cached
    BUSY = "busy"  # too many lookups waiting for Scryfall: "try again in N s"
    COOLDOWN = "cooldown"  # per-user cooldown reply
    REJECTED = "rejected"  # Discord refused our reply (4xx)
    ERROR = "error"  # unexpected exception


_COMMAND_RE = re.compile(r"[^a-z0-9_\- ]")
# Scryfall paths -> endpoint labels: /cards/<endpoint>[/...], /bulk-data[/...], /cards/<id>[/...] ("card").
_ENDPOINT_RE = re.compile(
    r"^/(?:cards/(named|autocomplete|search|collection|random)|(bulk-data)|cards/[^/]+)(?:/|$)"
)
_OUTCOMES = frozenset(o.value for o in Outcome)


def scryfall_endpoint(path: str) -> str:
    """A Scryfall URL or path (``/cards/named?...``) as a bounded label value."""
    match = _ENDPOINT_RE.match(urlsplit(path).path)
    return "other" if match is None else match.group(1) or match.group(2) or "card"


def _status(status: int | str | None) -> str:
    """An HTTP status (100-599), "timeout" or "connection"; anything else is "error"."""
    if (text := str(status).strip().lower()).isdigit():
        return text if 100 <= int(text) <= 599 else "error"
    return text if text in {"timeout", "connection"} else "error"


class _CardData(Collector):
    """``card_data{key}``: the local card data's state, read at scrape time."""

    state: Callable[[], Mapping[str, float]] = dict

    def collect(self) -> Iterable[GaugeMetricFamily]:
        about = "Local card data: names indexed, bulk import complete, age in days (-1: none)."
        family = GaugeMetricFamily(f"{NAMESPACE}_card_data", about, labels=["key"])
        try:
            state = self.state()
        except Exception:  # a broken stats source must not break /metrics
            log.warning("reading the card data state for /metrics failed", exc_info=True)
            state = {}
        for key, number in state.items():
            if isinstance(number, int | float) and not isinstance(number, bool) and math.isfinite(number):
                family.add_metric([str(key)], float(number))
        return [family]


class BotMetrics:
    """All of the bot's metrics; methods never raise on odd input (metrics must not break commands)."""

    def __init__(self, *, version: str = "", process_metrics: bool = True) -> None:
        self.registry = r = CollectorRegistry(auto_describe=True)
        counter = partial(Counter, namespace=NAMESPACE, registry=r)
        gauge = partial(Gauge, namespace=NAMESPACE, registry=r)
        histogram = partial(Histogram, namespace=NAMESPACE, registry=r)
        self.commands = counter("commands", "Slash commands by command and outcome.", ["command", "outcome"])
        self.command_latency = histogram(
            "command_latency_seconds",
            "Interaction to reply, by command.",
            ["command"],
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
        )
        self.cache_lookups = counter("cache_lookups", "Lookups the cache answered (hit) or not.", ["result"])
        self.autocomplete = counter("autocomplete", "Autocomplete requests by outcome.", ["outcome"])
        self.autocomplete_latency = histogram(
            "autocomplete_latency_seconds",
            "Time to answer autocomplete.",
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0),
        )
        self.scryfall_requests = counter(
            "scryfall_requests", "Requests to Scryfall by endpoint and status.", ["endpoint", "status"]
        )
        self.scryfall_rate_limited = counter("scryfall_rate_limited", "HTTP 429 answers from Scryfall.")
        self.scryfall_retries = counter("scryfall_retries", "Scryfall requests retried.", ["endpoint"])
        self.cooldowns = counter("cooldowns", "Commands refused by the per-user cooldown (USER_RATE).")
        self.reply_errors = counter("discord_reply_errors", "Replies Discord refused.", ["status"])
        self.gateway_connected = gauge("gateway_connected", "1 while the shard is connected.", ["shard"])
        self.gateway_reconnects = counter("gateway_reconnects", "Resumes and identifies.", ["shard", "kind"])
        self.card_lookups = counter("card_lookups", "Card lookups by how they were answered.", ["result"])
        self.identity_disagreements = gauge(
            "identity_disagreements",
            "Cards whose color identity read from cost and text is not Scryfall's color_identity: in the "
            "last import of the local data (bulk), among cards read from the API this run (api).",
            ["source"],
        )
        self._card_data = _CardData()
        r.register(self._card_data)
        gauge("build_info", "Bot version.", ["version"]).labels(version or "unknown").set(1)
        # Zeros instead of gaps on dashboards.
        self.cache_lookups.labels("hit")
        self.cache_lookups.labels("miss")
        if process_metrics:
            ProcessCollector(registry=r)
            PlatformCollector(registry=r)
            GCCollector(registry=r)

    def observe_command(
        self, command: str, outcome: str, seconds: float, cache_hit: bool | None = None
    ) -> None:
        """One finished command: counts it, records its latency and (when known) the cache result."""
        name = _COMMAND_RE.sub("", command.strip().lower())[:64] or "unknown"
        outcome = outcome.strip().lower()
        outcome = outcome if outcome in _OUTCOMES else "other"
        self.commands.labels(name, outcome).inc()
        if 0 <= seconds < math.inf:
            self.command_latency.labels(name).observe(seconds)
        if outcome == Outcome.COOLDOWN:
            self.cooldowns.inc()
        if cache_hit is not None:
            self.cache_lookups.labels("hit" if cache_hit else "miss").inc()

    def observe_autocomplete(self, seconds: float, outcome: str = "ok") -> None:
        self.autocomplete.labels(outcome if outcome in {"ok", "error", "timeout"} else "error").inc()
        if 0 <= seconds < math.inf:
            self.autocomplete_latency.observe(seconds)

    def observe_reply_error(self, status: int | str | None) -> None:
        self.reply_errors.labels(_status(status)).inc()

    def observe_scryfall(self, status: int | str | None, endpoint: str) -> None:
        """One HTTP exchange with Scryfall: ``status`` is the HTTP code, or "timeout"/"error"."""
        label = _status(status)
        self.scryfall_requests.labels(scryfall_endpoint(endpoint), label).inc()
        if label == "429":
            self.scryfall_rate_limited.inc()

    def observe_scryfall_retry(self, endpoint: str) -> None:
        self.scryfall_retries.labels(scryfall_endpoint(endpoint)).inc()

    def set_gateway(self, shard_id: int | None, connected: bool) -> None:
        self.gateway_connected.labels(str(shard_id or 0)).set(connected)

    def observe_reconnect(self, shard_id: int | None, resumed: bool) -> None:
        self.gateway_reconnects.labels(str(shard_id or 0), "resume" if resumed else "identify").inc()

    def observe_lookup(self, result: str, count: int = 1) -> None:
        """`count` card lookups answered as `result` (see `card_lookups_total`)."""
        self.card_lookups.labels(result).inc(count)

    def set_identity_disagreements(self, source: str, count: int) -> None:
        """`count` cards of `source` ("bulk" or "api") where the engine and Scryfall differ on identity."""
        label = source if source in {"bulk", "api"} else "other"
        self.identity_disagreements.labels(label).set(max(0, count))

    def set_card_data(self, state: Callable[[], Mapping[str, float]]) -> None:
        """Where `card_data{key}` reads the local card data's state at scrape time."""
        self._card_data.state = state

    def value(self, name: str, labels: Mapping[str, str] | None = None) -> float | None:
        """Current value of one sample (full name, e.g. ``identity_bot_commands_total``)."""
        return self.registry.get_sample_value(name, dict(labels or {}))
