from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import load_settings


def test_defaults(clean_env):
    s = load_settings()
    assert s.discord_token is None
    assert s.discord_api_base == "https://discord.com/api/v10"
    assert s.scryfall_api_base == "https://api.scryfall.com"
    assert s.cache_ttl == 86_400
    assert s.sync_commands is True
    assert s.dev_guild_id is None


def test_environment_overrides(clean_env, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:9999/api/v10/")
    monkeypatch.setenv("CACHE_PATH", "/tmp/x.sqlite3")
    monkeypatch.setenv("SYNC_COMMANDS", "false")
    monkeypatch.setenv("DEV_GUILD_ID", "1234")
    s = load_settings()
    assert s.discord_token.get_secret_value() == "abc.def.ghi"
    assert "abc.def.ghi" not in repr(s)  # the token never shows in logs or reprs
    assert s.discord_api_base == "http://127.0.0.1:9999/api/v10"
    assert s.cache_path == Path("/tmp/x.sqlite3")
    assert s.sync_commands is False
    assert s.dev_guild_id == 1234


def test_dotenv_file_is_read(clean_env):
    (clean_env / ".env").write_text("DISCORD_TOKEN=from-dotenv\nCACHE_TTL=60\nDEV_GUILD_ID=\n")
    s = load_settings()
    assert s.discord_token.get_secret_value() == "from-dotenv"
    assert s.cache_ttl == 60
    assert s.dev_guild_id is None


def test_scryfall_rate_can_only_scale_down(clean_env, monkeypatch):
    monkeypatch.setenv("SCRYFALL_RATE", "2")
    with pytest.raises(ValidationError):
        load_settings()


def test_emoji_map(clean_env, monkeypatch):
    monkeypatch.setenv("MANA_EMOJI", "W=<:w:1>, {U}=<:u:2>,bad")
    assert load_settings().emoji_map() == {"W": "<:w:1>", "U": "<:u:2>"}


@pytest.mark.parametrize(
    ("given", "level"),
    [
        ("debug", "DEBUG"),
        ("Info", "INFO"),
        (" WARNING ", "WARNING"),
        ("error", "ERROR"),
        ("CRITICAL", "CRITICAL"),
    ],
)
def test_log_level_accepts_the_standard_levels_in_any_case(clean_env, monkeypatch, given, level):
    monkeypatch.setenv("LOG_LEVEL", given)
    assert load_settings().log_level == level


def test_an_empty_value_means_the_default(clean_env, monkeypatch):
    """`docker run --env-file` passes `KEY=` lines as empty values: they must not override defaults."""
    for name in ("LOG_LEVEL", "CACHE_PATH", "SCRYFALL_RATE", "METRICS_PORT", "USER_RATE"):
        monkeypatch.setenv(name, "")
    loaded = load_settings()
    assert (
        loaded.log_level,
        str(loaded.cache_path),
        loaded.scryfall_rate,
        loaded.metrics_port,
        loaded.user_rate,
    ) == ("INFO", str(clean_env / "xdg-data" / "identity-bot" / "cache.sqlite3"), 1.0, None, "5/10")


def test_the_card_cache_defaults_to_the_users_data_directory_not_the_working_directory(
    clean_env, monkeypatch
):
    """CACHE_PATH unset: the per-user data directory (platformdirs), the same from any working directory."""
    first = load_settings().cache_path
    elsewhere = clean_env / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert load_settings().cache_path == first
    assert first.is_absolute() and first == clean_env / "xdg-data" / "identity-bot" / "cache.sqlite3"
    monkeypatch.setenv("CACHE_PATH", "/srv/cards.sqlite3")  # CACHE_PATH still wins
    assert load_settings().cache_path == Path("/srv/cards.sqlite3")


@pytest.mark.parametrize("bad", ["LOUD", "verbose", "10"])
def test_log_level_rejects_unknown_levels_clearly(clean_env, monkeypatch, bad):
    monkeypatch.setenv("LOG_LEVEL", bad)
    with pytest.raises(ValidationError) as err:
        load_settings()
    message = str(err.value)
    assert "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL" in message
    assert repr(bad) in message
