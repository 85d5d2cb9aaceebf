"""Docker ``HEALTHCHECK`` probe: ``python -m bot.ops.healthcheck``.

Exit 0 when ``/healthz`` answers 200, 1 otherwise. When ``METRICS_PORT`` is not set there is no endpoint
to ask, so it exits 0 (the container's liveness is then just "the process runs"). Uses only the standard
library and a short timeout so a hung bot fails the check instead of hanging it.
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request


def probe_url(host: str, port: int) -> str:
    """The URL to probe: a wildcard bind address is reached over loopback."""
    target = "127.0.0.1" if host in {"", "0.0.0.0"} else ("[::1]" if host == "::" else host)
    if ":" in target and not target.startswith("["):
        target = f"[{target}]"
    return f"http://{target}:{port}/healthz"


def check(url: str, timeout: float = 3.0) -> tuple[bool, str]:
    """GET ``url``; (True, body) on 200, (False, reason) otherwise."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            body = response.read(4096).decode("utf-8", "replace")
            return response.status == 200, body
    except urllib.error.HTTPError as exc:
        return False, exc.read(4096).decode("utf-8", "replace") or f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        return False, f"unreachable: {exc}"


def main(argv: list[str] | None = None) -> int:
    from bot.settings import load_settings

    settings = load_settings()
    if settings.metrics_port is None:
        print("METRICS_PORT not set: no health endpoint to probe")
        return 0
    ok, detail = check(probe_url(settings.metrics_host, settings.metrics_port))
    print(detail.strip()[:500])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
