"""Structured logs: one line per record and per command, and the Discord token never appears."""

from __future__ import annotations

import io
import json
import logging

import pytest
from pydantic import SecretStr

from bot.ops.logs import REDACTED, log_command, redact, setup_logging

# Token-shaped but fake (the three base64url parts of a bot token).
TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
SHORT_TOKEN = "test-token-123"  # not token-shaped: only the exact-value rule catches it
OTHER_TOKEN = "OTk5OTk5OTk5OTk5OTk5OTk5OQ.Zx_-9a.ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zz"


@pytest.fixture
def capture():
    """setup_logging into a StringIO; restore the root logger afterwards."""
    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    stream = io.StringIO()

    def install(**kwargs):
        setup_logging(stream=stream, **kwargs)
        return stream

    yield install
    for handler in list(root.handlers):
        if handler not in saved_handlers:
            root.removeHandler(handler)
    for handler in saved_handlers:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(saved_level)


def lines(stream: io.StringIO) -> list[str]:
    return [line for line in stream.getvalue().splitlines() if line]


def test_json_one_line_per_record_with_fields(capture):
    stream = capture(level="DEBUG", json=True)
    logging.getLogger("bot.test").info("hello %s", "world\nsecond line", extra={"guild_id": 5})
    [line] = lines(stream)
    record = json.loads(line)
    assert record["msg"] == "hello world\nsecond line"
    assert record["level"] == "INFO" and record["logger"] == "bot.test" and record["guild_id"] == 5
    assert record["ts"].endswith("Z")


def test_log_command_json_exact_fields(capture):
    stream = capture(json=True)
    log_command(
        command="identity",
        outcome="ok",
        latency_ms=3.14159,
        cache_hit=True,
        guild_id=123456789012345678,
        card="Fires of Undeath",
    )
    [line] = lines(stream)
    record = json.loads(line)
    fields = {k: v for k, v in record.items() if k not in {"ts", "level", "logger", "msg"}}
    assert fields == {
        "event": "command",
        "command": "identity",
        "outcome": "ok",
        "latency_ms": 3.14,
        "cache_hit": True,
        "guild_id": 123456789012345678,
        "card": "Fires of Undeath",
    }
    assert record["logger"] == "bot.commands" and record["msg"] == "command"


def test_log_command_text_is_one_escaped_line(capture):
    stream = capture(json=False)
    hostile = 'Fire\n2026-01-01 ERROR fake: injected "quote" @everyone' + "x" * 500
    log_command(
        command="fits",
        outcome="not_found",
        latency_ms=12,
        cache_hit=None,
        guild_id=None,
        card=hostile,
    )
    [line] = lines(stream)
    assert " INFO bot.commands: command " in line
    assert "command=fits outcome=not_found latency_ms=12.0 cache_hit=null guild_id=null" in line
    assert "\n" not in line.strip() and "x" * 101 not in line  # card cut to 100 characters
    assert 'card="Fire 2026-01-01 ERROR fake: injected \\"quote\\" @everyone' in line


def test_log_command_error_outcome_is_a_warning(capture):
    stream = capture(json=True)
    log_command(command="identity", outcome="error", latency_ms=1, shard_id=1)
    record = json.loads(lines(stream)[0])
    assert record["level"] == "WARNING" and record["shard_id"] == 1 and record["card"] is None


@pytest.mark.parametrize("fmt_json", [True, False])
def test_token_never_appears(capture, fmt_json):
    stream = capture(level="DEBUG", json=fmt_json, token=SecretStr(SHORT_TOKEN))
    log = logging.getLogger("discord.http")
    log.debug("token is %s", SHORT_TOKEN)
    log.info("embedded " + SHORT_TOKEN + "!")
    log.info("shaped %s", OTHER_TOKEN)  # any token-shaped string, even one we were not told about
    log.info("headers %r", {"Authorization": f"Bot {SHORT_TOKEN}x", "User-Agent": "u"})
    log.info("header text Authorization: Bot abc.def")
    log.warning("extra", extra={"payload": {"token": SHORT_TOKEN}, "raw": SHORT_TOKEN.encode()})
    try:
        raise RuntimeError(f"login failed for {SHORT_TOKEN} / {OTHER_TOKEN}")
    except RuntimeError:
        logging.getLogger("bot.app").exception("cannot start with %s", SHORT_TOKEN)
    logging.getLogger("bot.app").info("stack", stack_info=True, extra={"t": TOKEN})
    out = stream.getvalue()
    assert SHORT_TOKEN not in out
    assert OTHER_TOKEN not in out and TOKEN not in out
    assert "abc.def" not in out
    assert out.count(REDACTED) >= 8
    assert "RuntimeError: login failed for" in out  # the traceback is still there, scrubbed


def test_token_filter_covers_handlers_added_before_setup(capture):
    root = logging.getLogger()
    earlier = io.StringIO()
    handler = logging.StreamHandler(earlier)
    root.addHandler(handler)
    try:
        capture(token=TOKEN)
        logging.getLogger("x").warning("leak %s", TOKEN)
    finally:
        root.removeHandler(handler)
    assert "leak [REDACTED]" in earlier.getvalue() and TOKEN not in earlier.getvalue()


def test_setup_twice_replaces_its_own_handler(capture):
    stream = capture(json=True)
    setup_logging(json=True, stream=stream)
    logging.getLogger("once").warning("one line")
    assert len(lines(stream)) == 1


def test_level_is_applied(capture):
    stream = capture(level="warning", json=True)
    logging.getLogger("lvl").info("hidden")
    logging.getLogger("lvl").warning("shown")
    assert [json.loads(line)["msg"] for line in lines(stream)] == ["shown"]


def test_bad_format_args_are_still_logged_and_scrubbed(capture):
    stream = capture(json=True, token=SHORT_TOKEN)
    logging.getLogger("bad").warning("%d items %s", "not-a-number", SHORT_TOKEN)
    out = stream.getvalue()
    assert SHORT_TOKEN not in out and "not-a-number" in out


def test_redact_function():
    assert redact(f"a {TOKEN} b") == f"a {REDACTED} b"
    assert redact("version 1.2.3 and example.com/path") == "version 1.2.3 and example.com/path"
    assert redact("x", secrets=["", "x"]) == REDACTED
