"""Structured logging: one line per record (JSON or key=value text), and the token never appears.

- :class:`JsonFormatter`: one JSON object per line (``ts``, ``level``, ``logger``, ``msg``, extra fields,
  ``exc`` for tracebacks). Newlines and control characters inside values are escaped by JSON.
- :class:`TextFormatter`: ``2026-01-01T00:00:00.000Z INFO bot.commands: command command=identity ...``;
  extra fields are appended as ``key=value`` (values with spaces or quotes are JSON-quoted), so user text
  can never start a fake log line.
- :class:`RedactingFilter`: replaces the Discord token (the exact configured value and anything shaped like
  a bot token, plus ``Authorization: Bot ...`` headers) in the message, its arguments, extra fields,
  tracebacks and stack info of every record. :func:`setup_logging` installs it on the root handler, so
  records from every logger (discord.py, aiohttp, ours) pass through it.
- :func:`log_command`: the one line per command (command, outcome, latency, cache hit, guild id, card).
"""

from __future__ import annotations

import json as _json
import logging
import re
import sys
import time
from collections.abc import Iterable
from typing import IO, Any

from pydantic import SecretStr

__all__ = [
    "COMMAND_LOGGER",
    "REDACTED",
    "JsonFormatter",
    "RedactingFilter",
    "TextFormatter",
    "log_command",
    "redact",
    "setup_logging",
]

REDACTED = "[REDACTED]"
COMMAND_LOGGER = "bot.commands"

# Discord bot tokens: base64(user id) . base64(timestamp) . HMAC, e.g. "MTA4...", "Nz...", "OT...".
TOKEN_PATTERN = re.compile(
    r"(?<![A-Za-z0-9_\-])[A-Za-z0-9_\-]{23,30}\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27,45}"
)
AUTH_HEADER_PATTERN = re.compile(r"(?i)(authorization['\"]?\s*[:=]\s*['\"]?\s*(?:bot|bearer)\s+)[^\s'\",}]+")

_STANDARD_ATTRS = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message",
    "asctime",
    "taskName",
}
_MARK = "_identity_bot_handler"
_MAX_CARD = 100
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_BARE = re.compile(r"^[A-Za-z0-9_.:/@+\-]+$")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every secret value, token-shaped string and Authorization header value replaced."""
    for secret in secrets:
        if secret and secret in text:
            text = text.replace(secret, REDACTED)
    text = AUTH_HEADER_PATTERN.sub(lambda m: m.group(1) + REDACTED, text)
    return TOKEN_PATTERN.sub(REDACTED, text)


class RedactingFilter(logging.Filter):
    """Scrub the token from every record that passes through the handler it is attached to."""

    def __init__(self, token: SecretStr | str | None = None) -> None:
        super().__init__()
        value = token.get_secret_value() if isinstance(token, SecretStr) else token
        self._secrets: tuple[str, ...] = (value,) if value else ()

    def _scrub(self, value: Any) -> Any:
        if isinstance(value, str):
            return redact(value, self._secrets)
        if isinstance(value, bytes | bytearray):
            return redact(bytes(value).decode("utf-8", "replace"), self._secrets)
        if isinstance(value, int | float | bool) or value is None:
            return value
        # Anything else (dicts, exceptions, objects) is rendered now so its text can be checked.
        return redact(
            repr(value) if isinstance(value, dict | list | tuple | set) else str(value), self._secrets
        )

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # bad %-args: keep what we can, scrubbed
            message = f"{record.msg!s} {record.args!r}"
        record.msg = redact(message, self._secrets)
        record.args = None
        for key, value in list(record.__dict__.items()):
            if key not in _STANDARD_ATTRS and not key.startswith("_"):
                record.__dict__[key] = self._scrub(value)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self._secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self._secrets)
        return True


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {
        key: value
        for key, value in record.__dict__.items()
        if key not in _STANDARD_ATTRS and not key.startswith("_")
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_jsonable(v) for v in value]
    return str(value)


class _UtcFormatter(logging.Formatter):
    """ISO 8601 UTC timestamps with milliseconds (``2026-01-01T00:00:00.000Z``)."""

    converter = staticmethod(time.gmtime)
    default_time_format = "%Y-%m-%dT%H:%M:%S"
    default_msec_format = "%s.%03dZ"


class JsonFormatter(_UtcFormatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in _extras(record).items():
            payload.setdefault(key, _jsonable(value))
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            payload["exc"] = record.exc_text
        if record.stack_info:
            payload["stack"] = record.stack_info
        return _json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def _kv(value: Any) -> str:
    """A value as key=value text: bare when it is one simple word (numbers, true, null), else JSON-quoted."""
    text = value if isinstance(value, str) else _json.dumps(_jsonable(value), ensure_ascii=False)
    return text if text and _BARE.match(text) else _json.dumps(text, ensure_ascii=False)


class TextFormatter(_UtcFormatter):
    """``<ts> <LEVEL> <logger>: <message> key=value ...`` on one line (tracebacks follow, escaped)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = _CONTROL.sub(lambda m: repr(m.group(0))[1:-1], record.message)
        fields = "".join(f" {key}={_kv(value)}" for key, value in _extras(record).items())
        return super().formatMessage(record) + fields


def setup_logging(
    level: str | int = "INFO",
    json: bool = False,
    token: SecretStr | str | None = None,
    *,
    stream: IO[str] | None = None,
) -> logging.Handler:
    """Configure the root logger: one handler (stderr by default) with our formatter and the token filter.

    Calling it again replaces the handler it installed before (other handlers are left alone, but
    get the redacting filter too). Returns the handler. Use ``bot.start()``/``run(log_handler=None)``
    so discord.py does not install a handler of its own.
    """
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, _MARK, False):
            root.removeHandler(handler)
            handler.close()
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    setattr(handler, _MARK, True)
    handler.setFormatter(JsonFormatter() if json else TextFormatter())
    redactor = RedactingFilter(token)
    handler.addFilter(redactor)
    for other in root.handlers:
        if not any(isinstance(f, RedactingFilter) for f in other.filters):
            other.addFilter(redactor)
    root.addHandler(handler)
    root.setLevel(
        level.strip().upper() if isinstance(level, str) else level
    )  # a name Settings checked, or a number
    # Quiet aiohttp's access log at INFO; our own command lines stay.
    logging.getLogger("aiohttp.access").setLevel(max(root.level, logging.WARNING))
    return handler


def _clean_card(card: str | None) -> str | None:
    if card is None:
        return None
    text = _CONTROL.sub(" ", str(card)).strip()
    if len(text) > _MAX_CARD:
        text = text[: _MAX_CARD - 1] + "…"
    return text or None


def log_command(
    logger: logging.Logger | None = None,
    *,
    command: str,
    outcome: str,
    latency_ms: float,
    cache_hit: bool | None = None,
    guild_id: int | None = None,
    card: str | None = None,
    shard_id: int | None = None,
    level: int | None = None,
) -> None:
    """Log exactly one line for one command. Only these fields; ``card`` is the (resolved) card name.

    ``card`` is cut to 100 characters with control characters removed, so even when the caller passes
    what the user typed it stays one short line. Outcome ``error`` logs at WARNING, the rest at INFO.
    """
    target = logger if logger is not None else logging.getLogger(COMMAND_LOGGER)
    fields: dict[str, Any] = {
        "event": "command",
        "command": str(command)[:64],
        "outcome": str(outcome)[:32],
        "latency_ms": round(float(latency_ms), 2),
        "cache_hit": None if cache_hit is None else bool(cache_hit),
        "guild_id": None if guild_id is None else int(guild_id),
        "card": _clean_card(card),
    }
    if shard_id is not None:
        fields["shard_id"] = int(shard_id)
    if level is None:
        level = logging.WARNING if outcome == "error" else logging.INFO
    target.log(level, "command", extra=fields)
