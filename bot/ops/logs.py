"""Logging: one line per record (JSON, or text with ``key=value`` extras JSON-quoted unless one plain word, so
user text never starts a fake line), the Discord token scrubbed, one line per command."""

from __future__ import annotations

import json as _json
import logging
import re
import sys
import time
from collections.abc import Iterable
from typing import IO, Any

from pydantic import SecretStr

REDACTED = "[REDACTED]"

# Discord bot tokens: base64(user id) . base64(timestamp) . HMAC, e.g. "MTA4...", "Nz...", "OT...".
TOKEN_PATTERN = re.compile(
    r"(?<![A-Za-z0-9_\-])[A-Za-z0-9_\-]{23,30}\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27,45}"
)
# Possessive (`*+`): the spaces around the quote are taken once, so a line of spaces costs linear time.
AUTH_HEADER_PATTERN = re.compile(
    r"(?i)(authorization['\"]?\s*+[:=]\s*+['\"]?\s*+(?:bot|bearer)\s+)[^\s'\",}]+"
)

_STANDARD_ATTRS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_BARE = re.compile(r"^[A-Za-z0-9_.:/@+\-]+$")
_commands = logging.getLogger("bot.commands")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every secret value, token-shaped string and Authorization header value replaced."""
    for secret in filter(None, secrets):
        text = text.replace(secret, REDACTED)
    text = AUTH_HEADER_PATTERN.sub(lambda m: m.group(1) + REDACTED, text)
    return TOKEN_PATTERN.sub(REDACTED, text)


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD_ATTRS and not k.startswith("_")}


class _Redactor(logging.Filter):
    """Scrubs the token from every record passing the handler it is on; renders what it cannot check."""

    def __init__(self, token: SecretStr | str | None) -> None:
        super().__init__()
        value = token.get_secret_value() if isinstance(token, SecretStr) else token
        self.secrets = (value,) if value else ()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # bad %-args: keep what we can, scrubbed
            message = f"{record.msg!s} {record.args!r}"
        record.msg, record.args = redact(message, self.secrets), None
        for key, value in _extras(record).items():
            if isinstance(value, bytes | bytearray):
                value = value.decode("utf-8", "replace")
            if value is not None and not isinstance(value, int | float):  # rendered now, so it can be checked
                setattr(record, key, redact(str(value), self.secrets))
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


def _kv(value: Any) -> str:
    """A value as key=value text: bare when it is one simple word (numbers, true, null), else JSON-quoted."""
    text = value if isinstance(value, str) else _json.dumps(value, ensure_ascii=False, default=str)
    return text if _BARE.match(text) else _json.dumps(text, ensure_ascii=False)


class _Formatter(logging.Formatter):
    """One JSON object, or ``<ts> <LEVEL> <logger>: <message> key=value ...``, per line (UTC timestamps)."""

    converter = staticmethod(time.gmtime)
    default_time_format = "%Y-%m-%dT%H:%M:%S"
    default_msec_format = "%s.%03dZ"

    def __init__(self, json: bool) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.json = json

    def format(self, record: logging.LogRecord) -> str:
        if not self.json:
            return super().format(record)
        payload = {"ts": self.formatTime(record), "level": record.levelname, "logger": record.name}
        payload["msg"] = record.getMessage()
        payload |= {k: v for k, v in _extras(record).items() if k not in payload}
        if record.exc_text:  # set by the _Redactor
            payload["exc"] = record.exc_text
        if record.stack_info:
            payload["stack"] = record.stack_info
        return _json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=str)

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
    """Give the root logger our handler (stderr by default) and the token filter on each of its handlers.
    Start discord.py with ``bot.start()`` so it installs no handler of its own."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h.formatter, _Formatter)]:  # ours, set up before
        root.removeHandler(old)
        old.close()
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(_Formatter(json))
    root.addHandler(handler)
    redactor = _Redactor(token)
    for each in root.handlers:
        if not any(isinstance(f, _Redactor) for f in each.filters):
            each.addFilter(redactor)
    root.setLevel(level.strip().upper() if isinstance(level, str) else level)
    return handler


def log_command(
    *,
    command: str,
    outcome: str,
    latency_ms: float,
    cache_hit: bool | None = None,
    guild_id: int | None = None,
    card: str | None = None,
    shard_id: int | None = None,
) -> None:
    """The one log line of a command, with only these fields; WARNING for outcome ``error``, else INFO.
    ``card`` (at worst what the user typed) loses its control characters and is cut to 100 characters."""
    if card is not None:
        card = _CONTROL.sub(" ", str(card)).strip()
        card = (card[:99] + "…" if len(card) > 100 else card) or None
    fields = {
        "event": "command",
        "command": command[:64],
        "outcome": outcome[:32],
        "latency_ms": round(float(latency_ms), 2),
        "cache_hit": cache_hit,
        "guild_id": guild_id,
        "card": card,
    }
    if shard_id is not None:
        fields["shard_id"] = shard_id
    _commands.log(logging.WARNING if outcome == "error" else logging.INFO, "command", extra=fields)
