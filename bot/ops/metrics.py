"""Prometheus metrics for the bot, in a registry of its own (no clashes between bots or tests).

Every metric is named ``identity_bot_<name>`` and defined once in :class:`BotMetrics` with its labels and help
text (README, *Health and metrics*, lists them for operators), plus the standard ``process_*``,
``python_gc_*`` and ``python_info`` collectors.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from urllib.parse import urlsplit

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

__all__ = ["OUTCOMES", "BotMetrics", "Outcome", "scryfall_endpoint"]

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


#: Known command outcomes; anything else is counted as "other" so label values stay bounded.
OUTCOMES = frozenset(o.value for o in Outcome)

_COMMAND_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_AUTOCOMPLETE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0)
_COMMAND_RE = re.compile(r"[^a-z0-9_\- ]")

# Scryfall paths -> bounded endpoint label values: /cards/<name>[/...], /bulk-data[/...], /cards/<id>[/...].
_ENDPOINT_RE = re.compile(
    r"^/(?:cards/(named|autocomplete|search|collection|random)|(bulk-data)|cards/[^/]+)(?:/|$)"
)
_ENDPOINTS = frozenset({"named", "autocomplete", "search", "collection", "random", "bulk-data", "card"})


def scryfall_endpoint(path_or_name: str) -> str:
    """Map a Scryfall URL or path (``/cards/named?...``) or an endpoint name to a bounded label value."""
    text = (path_or_name or "").strip()
    if text.lower() in _ENDPOINTS:
        return text.lower()
    match = _ENDPOINT_RE.match(urlsplit(text).path)
    if match is None:
        return "other"
    return match.group(1) or match.group(2) or "card"


def _status_label(status: int | str | None) -> str:
    if status is None:
        return "error"
    if isinstance(status, int):
        return str(status) if 100 <= status <= 599 else "error"
    text = str(status).strip().lower()
    if text.isdigit() and 100 <= int(text) <= 599:
        return text
    return text if text in {"timeout", "error", "connection"} else "error"


class _CardData(Collector):
    """``card_data{key}``: the local card data's state (a mapping of numbers), read at scrape time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.state: Callable[[], Mapping[str, float]] = dict

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            self.name,
            "Local card data: names in the index, whether the bulk import is "
            "complete, its age in days (-1: none).",
            labels=["key"],
        )
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
    """All of the bot's metrics, in their own :class:`CollectorRegistry`.

    Methods never raise on odd input (unknown outcome, weird status): metrics must not break commands.
    """

    def __init__(
        self,
        registry: CollectorRegistry | None = None,
        *,
        namespace: str = NAMESPACE,
        version: str = "",
        process_metrics: bool = True,
    ) -> None:
        self.registry = registry if registry is not None else CollectorRegistry(auto_describe=True)
        self.namespace = namespace
        r, ns = self.registry, namespace
        self.commands = Counter(
            "commands",
            "Slash commands served, by command and outcome.",
            ["command", "outcome"],
            namespace=ns,
            registry=r,
        )
        self.command_latency = Histogram(
            "command_latency_seconds",
            "Time from receiving an interaction to its reply, by command.",
            ["command"],
            namespace=ns,
            registry=r,
            buckets=_COMMAND_BUCKETS,
        )
        self.cache_lookups = Counter(
            "cache_lookups",
            "Card lookups answered from the local cache (hit) or not (miss).",
            ["result"],
            namespace=ns,
            registry=r,
        )
        self.autocomplete = Counter(
            "autocomplete",
            "Autocomplete requests answered, by outcome.",
            ["outcome"],
            namespace=ns,
            registry=r,
        )
        self.autocomplete_latency = Histogram(
            "autocomplete_latency_seconds",
            "Time to answer an autocomplete request.",
            namespace=ns,
            registry=r,
            buckets=_AUTOCOMPLETE_BUCKETS,
        )
        self.scryfall_requests = Counter(
            "scryfall_requests",
            "HTTP requests sent to Scryfall, by endpoint and status.",
            ["endpoint", "status"],
            namespace=ns,
            registry=r,
        )
        self.scryfall_rate_limited = Counter(
            "scryfall_rate_limited",
            "HTTP 429 answers from Scryfall (each pauses all requests).",
            namespace=ns,
            registry=r,
        )
        self.scryfall_retries = Counter(
            "scryfall_retries",
            "Scryfall requests retried after a 5xx or a timeout.",
            ["endpoint"],
            namespace=ns,
            registry=r,
        )
        self.cooldowns = Counter(
            "cooldowns",
            "Commands refused by the per-user cooldown (USER_RATE).",
            namespace=ns,
            registry=r,
        )
        self.reply_errors = Counter(
            "discord_reply_errors",
            "Replies Discord rejected, by HTTP status.",
            ["status"],
            namespace=ns,
            registry=r,
        )
        self.gateway_connected = Gauge(
            "gateway_connected",
            "1 while the shard's gateway connection is up.",
            ["shard"],
            namespace=ns,
            registry=r,
        )
        self.gateway_reconnects = Counter(
            "gateway_reconnects",
            "Gateway reconnections, by shard and kind (resume or identify).",
            ["shard", "kind"],
            namespace=ns,
            registry=r,
        )
        self.card_lookups = Counter(
            "card_lookups",
            "Card lookups by how they were answered (cache, local, api, stale, negative, miss, "
            "not_found, ambiguous, unavailable, cache_error).",
            ["result"],
            namespace=ns,
            registry=r,
        )
        self._card_data = _CardData(f"{ns}_card_data")
        r.register(self._card_data)
        self.build_info = Gauge("build_info", "Bot version.", ["version"], namespace=ns, registry=r)
        self.build_info.labels(version=version or "unknown").set(1)
        # Pre-create the common series so dashboards see zeros instead of gaps.
        self.cache_lookups.labels(result="hit")
        self.cache_lookups.labels(result="miss")
        if process_metrics:
            ProcessCollector(registry=r)
            PlatformCollector(registry=r)
            GCCollector(registry=r)

    # -- commands -------------------------------------------------------------------------------
    @staticmethod
    def _command(command: str) -> str:
        name = _COMMAND_RE.sub("", (command or "").strip().lower())[:64]
        return name or "unknown"

    @staticmethod
    def _outcome(outcome: str) -> str:
        value = (outcome or "").strip().lower()
        return value if value in OUTCOMES else "other"

    def observe_command(
        self, command: str, outcome: str, seconds: float, cache_hit: bool | None = None
    ) -> None:
        """One finished command: counts it, records its latency and (when known) the cache result."""
        name = self._command(command)
        outcome = self._outcome(outcome)
        self.commands.labels(command=name, outcome=outcome).inc()
        if seconds is not None and math.isfinite(seconds) and seconds >= 0:
            self.command_latency.labels(command=name).observe(seconds)
        if outcome == "cooldown":
            self.cooldowns.inc()
        if cache_hit is not None:
            self.cache_lookups.labels(result="hit" if cache_hit else "miss").inc()

    def observe_autocomplete(self, seconds: float, outcome: str = "ok") -> None:
        outcome = outcome if outcome in {"ok", "error", "timeout"} else "error"
        self.autocomplete.labels(outcome=outcome).inc()
        if seconds is not None and math.isfinite(seconds) and seconds >= 0:
            self.autocomplete_latency.observe(seconds)

    def observe_reply_error(self, status: int | str | None) -> None:
        """Discord refused a reply (HTTPException.status); the caller logs it and does not retry."""
        self.reply_errors.labels(status=_status_label(status)).inc()

    # -- Scryfall ---------------------------------------------------------------------------------
    def observe_scryfall(self, status: int | str | None, endpoint: str = "other") -> None:
        """One HTTP exchange with Scryfall. ``status`` is the HTTP code, or "timeout"/"error"."""
        label = _status_label(status)
        self.scryfall_requests.labels(endpoint=scryfall_endpoint(endpoint), status=label).inc()
        if label == "429":
            self.scryfall_rate_limited.inc()

    def observe_scryfall_retry(self, endpoint: str = "other") -> None:
        self.scryfall_retries.labels(endpoint=scryfall_endpoint(endpoint)).inc()

    # -- gateway ----------------------------------------------------------------------------------
    def set_gateway(self, shard_id: int | None, connected: bool) -> None:
        self.gateway_connected.labels(shard=str(0 if shard_id is None else shard_id)).set(
            1 if connected else 0
        )

    def observe_reconnect(self, shard_id: int | None, resumed: bool) -> None:
        shard = str(0 if shard_id is None else shard_id)
        self.gateway_reconnects.labels(shard=shard, kind="resume" if resumed else "identify").inc()

    # -- card data --------------------------------------------------------------------------------
    def observe_lookup(self, result: str, count: int = 1) -> None:
        """`count` card lookups answered as `result` (see `card_lookups_total`)."""
        self.card_lookups.labels(result=result).inc(count)

    def set_card_data(self, state: Callable[[], Mapping[str, float]]) -> None:
        """Where `card_data{key}` reads the local card data's state at scrape time."""
        self._card_data.state = state

    # -- reading ----------------------------------------------------------------------------------
    def value(self, name: str, labels: Mapping[str, str] | None = None) -> float | None:
        """Current value of one sample (full sample name, e.g. ``identity_bot_commands_total``)."""
        return self.registry.get_sample_value(name, dict(labels or {}))
