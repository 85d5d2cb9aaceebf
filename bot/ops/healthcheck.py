"""Health probe for Docker's ``HEALTHCHECK`` (and any supervisor): is this bot able to answer?

``check_health(host, port, cache_path, timeout)`` returns ``(ok, reason)``, the reason one line of text:

- with a metrics port, it asks the bot's own ``GET /healthz`` (served when ``METRICS_PORT`` is set): healthy
  on 200, otherwise the endpoint's failing checks, its HTTP status, or why it could not be reached;
- without one (no endpoint to ask), it checks the card cache directly: the SQLite file at ``cache_path``
  opens read-only and holds card data (a ``cards`` table with at least one row).

``python -m bot healthcheck`` runs it with the bot's settings (``METRICS_HOST``, ``METRICS_PORT``,
``CACHE_PATH``), prints the reason and exits 0 (healthy) or 1 (unhealthy); never a traceback. Standard
library only; every step has a timeout, so a hung bot fails the check instead of hanging it.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

DEFAULT_TIMEOUT = 5.0
MAX_REASON = 300


def one_line(text: str, limit: int = MAX_REASON) -> str:
    """``text`` with all whitespace runs collapsed to single spaces, cut to ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def base_url(host: str, port: int) -> str:
    """``http://host:port`` as a client on this host reaches it: a wildcard bind address over loopback, IPv6
    bracketed."""
    host = host.strip()
    target = "127.0.0.1" if host in {"", "0.0.0.0"} else ("::1" if host == "::" else host)
    if ":" in target and not target.startswith("["):
        target = f"[{target}]"
    return f"http://{target}:{port}"


def probe_url(host: str, port: int) -> str:
    """The ``/healthz`` URL to probe."""
    return base_url(host, port) + "/healthz"


def _describe_unhealthy(status: int, body: str) -> str:
    """One line for a non-200 ``/healthz`` answer: its failing checks when the body is the bot's JSON."""
    try:
        checks = json.loads(body).get("checks")
    except (ValueError, AttributeError):
        checks = None
    bad = (
        {name: result for name, result in checks.items() if result != "ok"}
        if isinstance(checks, Mapping)
        else {}
    )
    if bad:
        return "; ".join(f"{name}: {result}" for name, result in bad.items())
    return f"HTTP {status}" + (f": {body}" if body.strip() else "")


def check_endpoint(url: str, timeout: float = DEFAULT_TIMEOUT) -> tuple[bool, str]:
    """GET ``url`` (the bot's ``/healthz``): (True, "ok: <body>") on 200, else (False, why) in one line."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            body = response.read(4096).decode("utf-8", "replace")
            if response.status == 200:
                return True, one_line(f"ok: {url} {body}")
            return False, one_line(f"unhealthy: {url} answered {_describe_unhealthy(response.status, body)}")
    except urllib.error.HTTPError as exc:
        body = exc.read(4096).decode("utf-8", "replace") if exc.fp is not None else ""
        return False, one_line(f"unhealthy: {url} answered {_describe_unhealthy(exc.code, body)}")
    except urllib.error.URLError as exc:
        return False, one_line(f"unreachable: {url}: {exc.reason}")
    except (OSError, ValueError) as exc:  # timeouts, resets, malformed URL or answer
        return False, one_line(f"unreachable: {url}: {type(exc).__name__}: {exc}")


def open_readonly(path: str | Path, timeout: float = DEFAULT_TIMEOUT) -> sqlite3.Connection:
    """Open the SQLite file at ``path`` read-only, whatever characters its name holds.

    The path goes into a ``file:`` URI percent-encoded (``?``, ``#`` and ``%`` included), so SQLite never
    cuts it short and opens (or creates) some other file. Raises ``sqlite3.Error``, ``OSError`` or
    ``ValueError`` when it cannot be opened.
    """
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    return sqlite3.connect(uri, uri=True, timeout=timeout)


def check_cache(cache_path: str | Path, timeout: float = DEFAULT_TIMEOUT) -> tuple[bool, str]:
    """Open the SQLite card cache read-only: (True, "ok: … N cards") when it holds card data, else why not."""
    path = Path(cache_path)
    shown = str(path) if path.is_absolute() else f"{path} (in {Path.cwd()})"
    if not path.exists():
        return False, one_line(
            f"no cache file at {shown}: the bot creates it on start; check CACHE_PATH "
            "and that the directory is writable"
        )
    if not path.is_file():
        return False, one_line(f"cache path {shown} is not a file")
    try:
        con = open_readonly(path, timeout)
    except (sqlite3.Error, OSError, ValueError) as exc:
        return False, one_line(f"cannot open cache {shown}: {exc}")
    try:
        has_table = con.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cards'"
        ).fetchone()
        if has_table is None:
            return False, one_line(f"cache {shown} has no cards table yet (the bot has not initialised it)")
        count = con.execute("SELECT count(*) FROM cards").fetchone()[0]
    except sqlite3.Error as exc:
        return False, one_line(f"cache {shown} is unreadable: {exc}")
    finally:
        con.close()
    if not count:
        return False, one_line(
            f"cache {shown} holds no card data yet: wait for the first bulk download or run `sync-cards`"
        )
    return True, f"ok: cache {shown} holds {count} cards"


def check_health(
    host: str, port: int | None, cache_path: str | Path, timeout: float = DEFAULT_TIMEOUT
) -> tuple[bool, str]:
    """The probe: ``/healthz`` on ``host:port`` when a port is given, else the card cache at ``cache_path``.

    Returns (ok, reason) with ``reason`` a single line; never raises for an unhealthy bot.
    """
    if port is not None:
        return check_endpoint(probe_url(host, port), timeout)
    return check_cache(cache_path, timeout)
