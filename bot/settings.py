"""The one settings object, read from the environment and `.env` (README, *Configuration*, and
`.env.example` document every name; keep them stable)."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from pydantic import AfterValidator, BeforeValidator, Field, SecretStr, ValidationError, model_validator
from pydantic_core import PydanticUseDefault
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.ops.sharding import parse_shard_ids

APP_NAME = "identity-bot"  # the per-user data directory's name (platformdirs)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# Scryfall's codes of the languages Magic is printed in besides English (CARD_LANGUAGES=all).
CARD_LANGUAGES = ("de", "es", "fr", "it", "ja", "ko", "pt", "ru", "zhs", "zht")
_RATE_OFF = {"", "0", "off", "none", "false", "no", "disabled"}
_RATE_RE = re.compile(r"\s*(\d+)\s*/\s*(\d+(?:\.\d+)?|\.\d+)\s*s?\s*", re.IGNORECASE)


def parse_rate(spec: str | None) -> tuple[int, float] | None:
    """USER_RATE: `"5/10"` -> (5, 10.0), 5 commands per 10 s (a trailing `s` and fractional seconds are
    fine); `"0"`, `"off"` -> None (no cooldown). Raises ValueError with a readable message otherwise."""
    text = (spec or "").strip()
    if text.lower() in _RATE_OFF:
        return None
    if not (match := _RATE_RE.fullmatch(text)):
        raise ValueError(
            f"USER_RATE must look like '5/10' (commands per seconds) or 'off', not {text[:40]!r}"
        )
    rate, per = int(match[1]), float(match[2])
    if rate == 0:
        return None
    if not 0 < per < math.inf:
        raise ValueError("USER_RATE: the period (after '/') must be a positive number of seconds")
    return rate, per


def _blank_is_default(value: Any) -> Any:
    """A blank value (`KEY= `, or an override of spaces) means the default, like an empty one."""
    if isinstance(value, str) and not value.strip():
        raise PydanticUseDefault()
    return value


def _log_level(value: str) -> str:
    if value.strip().upper() not in LOG_LEVELS:
        raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)} (any case), not {value!r}")
    return value.strip().upper()


def _user_rate(value: str) -> str:
    parse_rate(value)  # raises ValueError with a readable message
    return value.strip()


def _languages(value: Any) -> Any:
    """`de, FR` -> ("de", "fr"); `all` -> every language. Unknown codes are refused."""
    if not isinstance(value, str):
        return value
    codes = [c.strip().lower() for c in value.split(",") if c.strip()]
    if codes == ["all"]:
        return CARD_LANGUAGES
    if unknown := [c for c in codes if c not in CARD_LANGUAGES]:
        raise ValueError(
            f"unknown language code(s) {', '.join(unknown)}: use {','.join(CARD_LANGUAGES)} or all"
        )
    return tuple(dict.fromkeys(codes))


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _shard_ids(value: Any) -> Any:
    return parse_shard_ids(value) if isinstance(value, str | list | tuple) else value


Blank = BeforeValidator(_blank_is_default)
Base = Annotated[str, AfterValidator(lambda url: url.rstrip("/"))]  # an API base URL


class Settings(BaseSettings):
    """Bot configuration; each field is the upper-case environment variable of its name."""

    # `KEY=` (as docker --env-file passes it) means the default.
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: Annotated[SecretStr | None, Blank] = None  # required to run
    discord_api_base: Base = "https://discord.com/api/v10"
    dev_guild_id: Annotated[int | None, Blank] = None
    sync_commands: bool = True

    scryfall_api_base: Base = "https://api.scryfall.com"
    scryfall_rate: float = Field(default=1.0, gt=0.0, le=1.0)  # scales Scryfall's limits down, never up
    scryfall_timeout: float = Field(default=8.0, gt=0.0)
    # `cache.sqlite3` in this user's data directory (platformdirs), wherever run from
    cache_path: Annotated[Path, Blank] = Field(
        default_factory=lambda: platformdirs.user_data_path(APP_NAME, appauthor=False) / "cache.sqlite3"
    )
    cache_ttl: int = Field(default=86_400, ge=0)
    negative_ttl: int = Field(default=600, ge=0)
    bulk_refresh_hours: float = Field(default=24.0, ge=0.0)
    card_languages: Annotated[tuple[str, ...], NoDecode, BeforeValidator(_languages)] = ()
    spellbook_json_base: Base = "https://json.commanderspellbook.com"  # Commander Spellbook's bulk export

    archidekt_api_base: Base = "https://archidekt.com/api"
    moxfield_api_base: Base = "https://api2.moxfield.com"
    moxfield_user_agent: Annotated[str | None, Blank] = None
    tappedout_base: Base = "https://tappedout.net"
    mtggoldfish_base: Base = "https://www.mtggoldfish.com"
    deckstats_base: Base = "https://deckstats.net"
    aetherhub_base: Base = "https://aetherhub.com"
    tcgplayer_decks_api_base: Base = "https://infinite-api.tcgplayer.com"
    edhrec_json_base: Base = "https://json.edhrec.com"
    decksite_contact: str = "https://github.com/identity-bot/identity-bot"

    mana_emoji: str = ""
    mana_emoji_upload: bool = True
    log_level: Annotated[str, Blank, AfterValidator(_log_level)] = "INFO"
    log_format: Annotated[Literal["text", "json"], Blank, BeforeValidator(_lower)] = "text"

    metrics_port: Annotated[int | None, Blank] = Field(default=None, ge=0, le=65535)
    metrics_host: Annotated[str, Blank, AfterValidator(str.strip)] = "127.0.0.1"
    user_rate: Annotated[str, Blank, AfterValidator(_user_rate)] = "5/10"
    shard_count: Annotated[int | None, Blank] = Field(default=None, ge=1)
    shard_ids: Annotated[list[int] | None, NoDecode, BeforeValidator(_shard_ids)] = None

    @model_validator(mode="after")
    def _check_shards(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards across all processes)")
        if too_big := [i for i in self.shard_ids if i >= self.shard_count]:
            raise ValueError(
                f"SHARD_IDS {too_big} out of range: shard ids run from 0 to SHARD_COUNT-1 "
                f"({self.shard_count - 1})"
            )
        return self

    def user_rate_limit(self) -> tuple[int, float] | None:
        """USER_RATE parsed: (commands, seconds), or None when the cooldown is off."""
        return parse_rate(self.user_rate)

    def emoji_map(self) -> dict[str, str]:
        """MANA_EMOJI (`SYMBOL=<emoji>` pairs, comma separated) as {symbol: emoji}."""
        pairs = (pair.partition("=") for pair in self.mana_emoji.split(","))
        return {
            k.strip().upper().strip("{}"): v.strip() for k, sep, v in pairs if sep and k.strip() and v.strip()
        }


def settings_problem(exc: ValidationError) -> str:
    """The settings' validation errors as one message naming each environment variable."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']).upper() or 'settings'}: {e['msg']}" for e in exc.errors()
    )
    return f"invalid configuration: {problems}"


def load_settings(**overrides: object) -> Settings:
    """Read settings from the environment and `.env`; keyword overrides win (used by tests)."""
    return Settings(**overrides)  # type: ignore[arg-type]
