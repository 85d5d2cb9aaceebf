"""Prometheus metrics: own registry, valid exposition format, bounded labels."""

from __future__ import annotations

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.ops.metrics import BotMetrics, scryfall_endpoint


def samples(metrics: BotMetrics) -> dict[tuple[str, tuple], float]:
    """Parse the served text format back (also proves it is valid Prometheus exposition)."""
    out = {}
    for family in text_string_to_metric_families(generate_latest(metrics.registry).decode()):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def test_commands_latency_and_cache():
    m = BotMetrics(process_metrics=False)
    m.observe_command("identity", "ok", 0.004, cache_hit=True)
    m.observe_command("identity", "ok", 0.2, cache_hit=False)
    m.observe_command("fits", "not_found", 0.01)
    s = samples(m)
    assert s[("identity_bot_commands_total", (("command", "identity"), ("outcome", "ok")))] == 2
    assert s[("identity_bot_commands_total", (("command", "fits"), ("outcome", "not_found")))] == 1
    assert s[("identity_bot_command_latency_seconds_count", (("command", "identity"),))] == 2
    assert s[("identity_bot_command_latency_seconds_bucket", (("command", "identity"), ("le", "0.005")))] == 1
    assert s[("identity_bot_command_latency_seconds_bucket", (("command", "identity"), ("le", "0.25")))] == 2
    assert s[("identity_bot_cache_lookups_total", (("result", "hit"),))] == 1
    assert s[("identity_bot_cache_lookups_total", (("result", "miss"),))] == 1


def test_registries_are_independent():
    a, b = BotMetrics(), BotMetrics()  # would raise "Duplicated timeseries" on a shared registry
    a.observe_command("identity", "ok", 0.01)
    assert a.value("identity_bot_commands_total", {"command": "identity", "outcome": "ok"}) == 1
    assert b.value("identity_bot_commands_total", {"command": "identity", "outcome": "ok"}) is None


def test_unknown_outcomes_and_odd_commands_stay_bounded():
    m = BotMetrics(process_metrics=False)
    for i in range(50):
        m.observe_command("identity", f"weird-{i}", 0.01)
    m.observe_command("Iden<@123>tity\n", "OK", float("nan"))
    m.observe_command("", "error", -1)
    s = samples(m)
    assert s[("identity_bot_commands_total", (("command", "identity"), ("outcome", "other")))] == 50
    assert s[("identity_bot_commands_total", (("command", "iden123tity"), ("outcome", "ok")))] == 1
    assert s[("identity_bot_commands_total", (("command", "unknown"), ("outcome", "error")))] == 1
    # NaN and negative latencies are not observed
    assert ("identity_bot_command_latency_seconds_count", (("command", "unknown"),)) not in s
    assert ("identity_bot_command_latency_seconds_count", (("command", "iden123tity"),)) not in s


def test_cooldowns_autocomplete_and_reply_errors():
    m = BotMetrics(process_metrics=False)
    m.observe_command("identity", "cooldown", 0.0)
    m.observe_command("fits", "cooldown", 0.001)
    m.observe_autocomplete(0.003)
    m.observe_autocomplete(2.5, outcome="timeout")
    m.observe_reply_error(404)
    m.observe_reply_error("weird")
    s = samples(m)
    assert s[("identity_bot_cooldowns_total", ())] == 2
    assert s[("identity_bot_commands_total", (("command", "identity"), ("outcome", "cooldown")))] == 1
    assert s[("identity_bot_autocomplete_latency_seconds_count", ())] == 2
    assert s[("identity_bot_autocomplete_latency_seconds_bucket", (("le", "0.005"),))] == 1
    assert s[("identity_bot_autocomplete_total", (("outcome", "timeout"),))] == 1
    assert s[("identity_bot_discord_reply_errors_total", (("status", "404"),))] == 1
    assert s[("identity_bot_discord_reply_errors_total", (("status", "error"),))] == 1


def test_scryfall_statuses_429_and_retries():
    m = BotMetrics(process_metrics=False)
    m.observe_scryfall(200, "/cards/named?fuzzy=fire")
    m.observe_scryfall(200, "/cards/named")
    m.observe_scryfall(429, "/cards/search")
    m.observe_scryfall("timeout", "/cards/collection")
    m.observe_scryfall(None, "/cards/abc")
    m.observe_scryfall_retry("/cards/named")
    s = samples(m)
    assert s[("identity_bot_scryfall_requests_total", (("endpoint", "named"), ("status", "200")))] == 2
    assert s[("identity_bot_scryfall_requests_total", (("endpoint", "search"), ("status", "429")))] == 1
    assert (
        s[("identity_bot_scryfall_requests_total", (("endpoint", "collection"), ("status", "timeout")))] == 1
    )
    assert s[("identity_bot_scryfall_requests_total", (("endpoint", "card"), ("status", "error")))] == 1
    assert s[("identity_bot_scryfall_rate_limited_total", ())] == 1
    assert s[("identity_bot_scryfall_retries_total", (("endpoint", "named"),))] == 1


def test_scryfall_endpoint_labels():
    assert scryfall_endpoint("https://api.scryfall.com/cards/named?exact=x") == "named"
    assert scryfall_endpoint("/cards/autocomplete?q=fi") == "autocomplete"
    assert scryfall_endpoint("/cards/0000579f-7b35-4ed3-b44c-db2a538066fe") == "card"
    assert scryfall_endpoint("/cards/") == "other"
    assert scryfall_endpoint("/bulk-data") == "bulk-data"
    assert scryfall_endpoint("/bulk-data/oracle-cards") == "bulk-data"
    assert scryfall_endpoint("/symbology") == "other"
    assert scryfall_endpoint("/cards/search?q=t:goblin") == "search"
    assert scryfall_endpoint("") == "other"


def test_gateway_gauges():
    m = BotMetrics(process_metrics=False, version="1.2.3")
    m.set_gateway(0, True)
    m.set_gateway(1, True)
    m.set_gateway(1, False)
    m.observe_reconnect(1, resumed=True)
    s = samples(m)
    assert s[("identity_bot_gateway_connected", (("shard", "0"),))] == 1
    assert s[("identity_bot_gateway_connected", (("shard", "1"),))] == 0
    assert s[("identity_bot_gateway_reconnects_total", (("kind", "resume"), ("shard", "1")))] == 1
    assert s[("identity_bot_build_info", (("version", "1.2.3"),))] == 1


def test_card_data_gauge_is_read_at_scrape_time_and_survives_errors():
    m = BotMetrics(process_metrics=False)
    state = {"names": 10, "complete": 1, "bad": "x"}
    m.set_card_data(lambda: state)
    s = samples(m)
    assert s[("identity_bot_card_data", (("key", "names"),))] == 10
    assert ("identity_bot_card_data", (("key", "bad"),)) not in s
    state["names"] = 11
    assert samples(m)[("identity_bot_card_data", (("key", "names"),))] == 11

    def broken():
        raise RuntimeError("stats source down")

    m.set_card_data(broken)
    assert ("identity_bot_card_data", (("key", "names"),)) not in samples(m)


def test_process_metrics_are_included_by_default():
    text = generate_latest(BotMetrics().registry).decode()
    assert "process_resident_memory_bytes" in text
    assert "python_info" in text
