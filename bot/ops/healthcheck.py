"""Docker's ``HEALTHCHECK`` probe: the bot's ``GET /healthz`` with a metrics port, else the SQLite cache.
Standard library only, every step with a timeout, so a hung bot fails the check instead of hanging it."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from contextlib import closing
from pathlib import Path

TIMEOUT = 5.0


def one_line(text: str, limit: int = 300) -> str:
    """``text`` with its whitespace runs collapsed to single spaces, cut to ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def base_url(host: str, port: int) -> str:
    """``http://host:port`` as a client on this host reaches it: a wildcard over loopback, IPv6 bracketed."""
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host.strip(), host.strip())
    return f"http://[{host}]:{port}" if ":" in host and not host.startswith("[") else f"http://{host}:{port}"


def probe_url(host: str, port: int) -> str:
    return base_url(host, port) + "/healthz"


def _failing(status: int, body: str) -> str:
    """A non-200 ``/healthz`` answer in a few words: its failing checks when the body is the bot's JSON."""
    try:
        bad = [f"{name}: {result}" for name, result in json.loads(body)["checks"].items() if result != "ok"]
    except (ValueError, TypeError, KeyError, AttributeError):
        bad = []
    return "; ".join(bad) if bad else f"HTTP {status}" + (f": {body}" if body.strip() else "")


def check_endpoint(url: str, timeout: float = TIMEOUT) -> tuple[bool, str]:
    """GET ``url`` (the bot's ``/healthz``): (True, "ok: <body>") on 200, else (False, why)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            status, body = response.status, response.read(4096)
    except urllib.error.HTTPError as exc:
        status, body = exc.code, exc.read(4096) if exc.fp is not None else b""
    except urllib.error.URLError as exc:
        return False, one_line(f"unreachable: {url}: {exc.reason}")
    except (OSError, ValueError) as exc:  # timeouts, resets, malformed URL or answer
        return False, one_line(f"unreachable: {url}: {type(exc).__name__}: {exc}")
    text = body.decode("utf-8", "replace")
    if status == 200:
        return True, one_line(f"ok: {url} {text}")
    return False, one_line(f"unhealthy: {url} answered {_failing(status, text)}")


def _shown(path: str | Path) -> str:
    return str(path) if Path(path).is_absolute() else f"{path} (in {Path.cwd()})"


def cache_cards(cache_path: str | Path, timeout: float = TIMEOUT) -> int | str:
    """How many cards the SQLite card cache holds, opened read-only; or, in one line, why it can't say."""
    path, shown = Path(cache_path), _shown(cache_path)
    if not path.exists():
        return one_line(
            f"no cache file at {shown}: the bot creates it on start; check CACHE_PATH and that the "
            "directory is writable"
        )
    if not path.is_file():
        return one_line(f"cache path {shown} is not a file")
    try:  # read-only, the name percent-encoded in the URI (`?`, `#`, `%`), so SQLite opens no other file
        with closing(sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=timeout)) as con:
            if "cards" not in {name for (name,) in con.execute("SELECT name FROM sqlite_master")}:
                return one_line(f"cache {shown} has no cards table yet (the bot has not initialised it)")
            count: int = con.execute("SELECT count(*) FROM cards").fetchone()[0]
    except (sqlite3.Error, OSError, ValueError) as exc:
        return one_line(f"cache {shown} is unreadable: {exc}")
    return count


def check_cache(cache_path: str | Path, timeout: float = TIMEOUT) -> tuple[bool, str]:
    """(True, "ok: … N cards") when the card cache opens read-only and holds cards, else (False, why)."""
    if isinstance(cards := cache_cards(cache_path, timeout), str):
        return False, cards
    if not cards:
        return False, one_line(
            f"cache {_shown(cache_path)} holds no card data yet: wait for the bulk download or run sync-cards"
        )
    return True, f"ok: cache {_shown(cache_path)} holds {cards} cards"


def check_health(
    host: str, port: int | None, cache_path: str | Path, timeout: float = TIMEOUT
) -> tuple[bool, str]:
    if port is not None:
        return check_endpoint(probe_url(host, port), timeout)
    return check_cache(cache_path, timeout)
