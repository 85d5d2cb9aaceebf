"""One settings object, read from the environment and `.env`.

Every name here is part of the bot's public configuration (README's configuration table and
`.env.example` list them); keep them stable.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, StringConstraints, ValidationError, field_validator, model_validator
from pydantic_core import PydanticUseDefault
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.ops.sharding import parse_shard_ids

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_RATE_OFF = {"", "0", "off", "none", "false", "no", "disabled"}
_RATE_RE = re.compile(r"^\s*(\d+)\s*/\s*(\d+(?:\.\d+)?|\.\d+)\s*s?\s*$", re.IGNORECASE)


def parse_rate(spec: str | None) -> tuple[int, float] | None:
    """USER_RATE: `"5/10"` -> (5, 10.0), 5 commands per 10 s (a trailing `s` and fractional seconds are
    fine); `"0"`, `"off"` -> None (no cooldown). Raises ValueError with a readable message otherwise."""
    text = str(spec or "").strip()
    if text.lower() in _RATE_OFF:
        return None
    match = _RATE_RE.match(text)
    if not match:
        raise ValueError(
            f"USER_RATE must look like '5/10' (commands per seconds) or 'off', not {text[:40]!r}"
        )
    rate, per = int(match.group(1)), float(match.group(2))
    if rate == 0:
        return None
    if not (per > 0 and math.isfinite(per)):
        raise ValueError("USER_RATE: the period (after '/') must be a positive number of seconds")
    return rate, per


# Scryfall's codes of the languages Magic is printed in besides English (CARD_LANGUAGES=all).
CARD_LANGUAGES = ("de", "es", "fr", "it", "ja", "ko", "pt", "ru", "zhs", "zht")


class Settings(BaseSettings):
    """Bot configuration. Field names map to upper-case environment variables."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        env_ignore_empty=True,  # `KEY=` (as docker --env-file passes it) means "use the default"
    )

    # Discord
    discord_token: SecretStr | None = Field(default=None, description="Bot token (required to run).")
    discord_api_base: str = Field(default="https://discord.com/api/v10")
    dev_guild_id: int | None = None
    sync_commands: bool = True

    # Scryfall and cache
    scryfall_api_base: str = "https://api.scryfall.com"
    scryfall_rate: float = Field(default=1.0, gt=0.0, le=1.0, description="Scales Scryfall's limits down.")
    scryfall_timeout: float = Field(default=8.0, gt=0.0)
    cache_path: Path = Path("data/cache.sqlite3")
    cache_ttl: int = Field(default=86_400, ge=0, description="Card TTL in seconds.")
    negative_ttl: int = Field(default=600, ge=0, description="Not-found TTL in seconds.")
    bulk_refresh_hours: float = Field(default=24.0, ge=0.0)
    card_languages: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(),
        description="Printed-name languages to import from Scryfall's all_cards file ('de,fr', 'all').",
    )

    # Deck links (/deckcheck url:)
    archidekt_api_base: str = "https://archidekt.com/api"
    moxfield_api_base: str = "https://api2.moxfield.com"
    moxfield_user_agent: str | None = Field(
        default=None,
        description="The User-Agent Moxfield allowed for this bot (Moxfield blocks unknown clients).",
    )
    decksite_contact: str = Field(
        default="https://github.com/identity-bot/identity-bot",
        description="Contact URL sent in the User-Agent to Archidekt and Moxfield.",
    )

    # Presentation and logging
    mana_emoji: str = Field(default="", description="Custom emoji for pips, e.g. 'W=<:w:1>,U=<:u:2>'.")
    mana_emoji_upload: bool = Field(
        default=True,
        description="Upload Scryfall's official mana symbols as application emojis on start and use them.",
    )
    log_level: str = "INFO"

    # Production: observability, abuse limits, sharding (issue 6)
    metrics_port: int | None = Field(
        default=None, ge=0, le=65535, description="Serve /metrics and /healthz on this port; unset = off."
    )
    metrics_host: Annotated[str, StringConstraints(strip_whitespace=True)] = Field(
        default="127.0.0.1", description="Bind address of the metrics server."
    )
    user_rate: str = Field(
        default="5/10", description="Per-user cooldown 'N/SECONDS'; '0' or 'off' disables."
    )
    shard_count: int | None = Field(default=None, ge=1, description="Total shards; unset = one connection.")
    shard_ids: Annotated[list[int] | None, NoDecode] = Field(
        default=None, description="Shards this process runs, e.g. '0,1' or '0-3'; needs SHARD_COUNT."
    )
    log_format: Literal["text", "json"] = "text"

    @field_validator(
        "discord_token",
        "dev_guild_id",
        "cache_path",
        "moxfield_user_agent",
        "log_level",
        "metrics_port",
        "metrics_host",
        "user_rate",
        "shard_count",
        "log_format",
        mode="before",
    )
    @classmethod
    def _blank_is_default(cls, value: object) -> object:
        """A blank value (`KEY= `, or an override of spaces) means the default, like an empty one."""
        if isinstance(value, str) and not value.strip():
            raise PydanticUseDefault()
        return value

    @field_validator("discord_api_base", "scryfall_api_base", "archidekt_api_base", "moxfield_api_base")
    @classmethod
    def _strip_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @field_validator("log_level")
    @classmethod
    def _valid_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)} (any case), not {value!r}")
        return level

    @field_validator("user_rate")
    @classmethod
    def _valid_rate(cls, value: str) -> str:
        parse_rate(value)  # raises ValueError with a readable message
        return value.strip()

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: object) -> object:
        if value is None or isinstance(value, str | list | tuple):
            return parse_shard_ids(value)
        return value

    @field_validator("card_languages", mode="before")
    @classmethod
    def _parse_languages(cls, value: object) -> object:
        """`de, FR` -> ("de", "fr"); `all` -> every language; blank -> () (off). Unknown codes are refused."""
        if not isinstance(value, str):
            return value
        codes = [c.strip().lower() for c in value.split(",") if c.strip()]
        if codes == ["all"]:
            return CARD_LANGUAGES
        unknown = [c for c in codes if c not in CARD_LANGUAGES]
        if unknown:
            raise ValueError(
                f"unknown language code(s) {', '.join(unknown)}: use some of "
                f"{','.join(CARD_LANGUAGES)}, or all"
            )
        return tuple(dict.fromkeys(codes))

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _check_shards(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError(
                    "SHARD_IDS needs SHARD_COUNT (the total number of shards across all processes)"
                )
            too_big = [i for i in self.shard_ids if i >= self.shard_count]
            if too_big:
                raise ValueError(
                    f"SHARD_IDS {too_big} out of range: shard ids run from 0 to SHARD_COUNT-1 ({self.shard_count - 1})"
                )
        return self

    def user_rate_limit(self) -> tuple[int, float] | None:
        """USER_RATE parsed: (commands, seconds), or None when the cooldown is off."""
        return parse_rate(self.user_rate)

    def emoji_map(self) -> dict[str, str]:
        """Parse MANA_EMOJI (`SYMBOL=<emoji>` pairs, comma separated) into {symbol: emoji}."""
        result: dict[str, str] = {}
        for pair in self.mana_emoji.split(","):
            key, sep, value = pair.partition("=")
            if sep and key.strip() and value.strip():
                result[key.strip().upper().strip("{}")] = value.strip()
        return result


def settings_problem(exc: ValidationError) -> str:
    """The settings' validation errors as one message naming each environment variable."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']).upper() or 'settings'}: {e['msg']}" for e in exc.errors()
    )
    return f"invalid configuration: {problems}"


def load_settings(**overrides: object) -> Settings:
    """Read settings from the environment and `.env`; keyword overrides win (used by tests)."""
    return Settings(**overrides)  # type: ignore[arg-type]
