"""Settings added for production: METRICS_*, USER_RATE, SHARD_*, LOG_FORMAT."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.settings import load_settings, parse_rate


@pytest.fixture
def env(clean_env, monkeypatch):
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    return monkeypatch


def test_defaults(env):
    s = load_settings()
    assert s.metrics_port is None
    assert s.metrics_host == "127.0.0.1"
    assert s.user_rate == "5/10"
    assert s.user_rate_limit() == (5, 10.0)
    assert s.shard_count is None and s.shard_ids is None
    assert s.log_format == "text"


def test_environment(env):
    env.setenv("METRICS_PORT", "9100")
    env.setenv("METRICS_HOST", "0.0.0.0")
    env.setenv("USER_RATE", "3/5")
    env.setenv("SHARD_COUNT", "4")
    env.setenv("SHARD_IDS", "0-1,3")
    env.setenv("LOG_FORMAT", "JSON")
    s = load_settings()
    assert s.metrics_port == 9100
    assert s.metrics_host == "0.0.0.0"
    assert s.user_rate_limit() == (3, 5.0)
    assert s.shard_count == 4
    assert s.shard_ids == [0, 1, 3]
    assert s.log_format == "json"


def test_dotenv_and_empty_values(env, clean_env):
    (clean_env / ".env").write_text("METRICS_PORT=\nSHARD_COUNT=\nSHARD_IDS=\nUSER_RATE=off\nMETRICS_HOST=\n")
    s = load_settings()
    assert s.metrics_port is None and s.shard_count is None and s.shard_ids is None
    assert s.user_rate_limit() is None
    assert s.metrics_host == "127.0.0.1"


def test_user_rate_off_values(env):
    for value in ("0", "off", "OFF"):
        env.setenv("USER_RATE", value)
        assert load_settings().user_rate_limit() is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("METRICS_PORT", "70000"),
        ("METRICS_PORT", "-1"),
        ("METRICS_PORT", "http"),
        ("USER_RATE", "lots"),
        ("USER_RATE", "5/0"),
        ("SHARD_COUNT", "0"),
        ("LOG_FORMAT", "xml"),
    ],
)
def test_invalid_values(env, name, value):
    env.setenv(name, value)
    with pytest.raises(ValidationError):
        load_settings()


def test_shard_ids_need_shard_count(env):
    env.setenv("SHARD_IDS", "0,1")
    with pytest.raises(ValidationError, match="SHARD_COUNT"):
        load_settings()


def test_shard_ids_must_be_below_shard_count(env):
    env.setenv("SHARD_COUNT", "2")
    env.setenv("SHARD_IDS", "1-2")
    with pytest.raises(ValidationError, match="out of range"):
        load_settings()


def test_malformed_shard_ids(env):
    env.setenv("SHARD_COUNT", "2")
    env.setenv("SHARD_IDS", "zero")
    with pytest.raises(ValidationError, match="SHARD_IDS"):
        load_settings()


def test_keyword_overrides(env):
    s = load_settings(shard_count=2, shard_ids=[1], metrics_port=0, user_rate="10/60")
    assert s.shard_ids == [1] and s.metrics_port == 0 and s.user_rate_limit() == (10, 60.0)
    s = load_settings(shard_count=2, shard_ids="0-1")
    assert s.shard_ids == [0, 1]


def test_existing_fields_unchanged(env):
    s = load_settings()
    assert s.log_level == "INFO" and s.cache_ttl == 86_400 and s.sync_commands is True


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("5/10", (5, 10.0)),
        (" 5 / 10 ", (5, 10.0)),
        ("5/10s", (5, 10.0)),
        ("3/1.5", (3, 1.5)),
        ("1/.5", (1, 0.5)),
        ("0", None),
        ("off", None),
        ("OFF", None),
        ("", None),
        (None, None),
        ("0/10", None),
    ],
)
def test_parse_rate(spec, expected):
    assert parse_rate(spec) == expected


@pytest.mark.parametrize("spec", ["5", "five/10", "5/0", "5/-1", "-5/10", "5/10/2", "5/inf", "5/10m"])
def test_parse_rate_rejects(spec):
    with pytest.raises(ValueError):
        parse_rate(spec)
