"""One settings object, read from the environment and `.env`.

Every name here is part of the bot's public configuration (README's configuration table and
`.env.example` list them); keep them stable.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Bot configuration. Field names map to upper-case environment variables."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
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

    # Presentation and logging
    mana_emoji: str = Field(default="", description="Custom emoji for pips, e.g. 'W=<:w:1>,U=<:u:2>'.")
    log_level: str = "INFO"

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("discord_token", mode="before")
    @classmethod
    def _empty_token_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("discord_api_base", "scryfall_api_base")
    @classmethod
    def _strip_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @field_validator("log_level")
    @classmethod
    def _upper(cls, value: str) -> str:
        return value.upper()

    def emoji_map(self) -> dict[str, str]:
        """Parse MANA_EMOJI (`SYMBOL=<emoji>` pairs, comma separated) into {symbol: emoji}."""
        result: dict[str, str] = {}
        for pair in self.mana_emoji.split(","):
            key, sep, value = pair.partition("=")
            if sep and key.strip() and value.strip():
                result[key.strip().upper().strip("{}")] = value.strip()
        return result


def load_settings(**overrides: object) -> Settings:
    """Read settings from the environment and `.env`; keyword overrides win (used by tests)."""
    return Settings(**overrides)  # type: ignore[arg-type]
