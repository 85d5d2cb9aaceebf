"""Where discord.py connects: it has no per-client option for its REST base (`Route.BASE`) or, with a fixed
shard count, its gateway (`DEFAULT_GATEWAY`), so this is the one place that sets those globals."""

from __future__ import annotations

import logging

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

log = logging.getLogger(__name__)


def use_api_base(base: str) -> None:
    """Send discord.py's REST calls to `base`."""
    Route.BASE = base.rstrip("/")


async def use_gateway(http: HTTPClient) -> None:
    """Connect the gateway to the URL `{Route.BASE}/gateway/bot` names (needs a logged-in client)."""
    _shards, url, _limits = await http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    log.info("gateway %s (from %s/gateway/bot)", url, Route.BASE)
