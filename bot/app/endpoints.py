"""Where discord.py connects: the one place the bot touches discord.py's globals.

discord.py has no per-client option for its endpoints. Every REST request, interaction callbacks and webhook
edits included, builds its URL from the class attribute `discord.http.Route.BASE`, and a client with a
fixed shard count connects to the class attribute `DiscordWebSocket.DEFAULT_GATEWAY`. So:

- `use_api_base(base)` sets the REST base once, from the composition root, before the bot logs in (with
  Discord's own base it changes nothing; a REST proxy or the tests' fake Discord give another);
- `use_gateway(http)`, from `setup_hook` (after login, before the gateway connects), asks
  `GET {base}/gateway/bot` for the gateway URL, as Discord documents, and connects there.
"""

from __future__ import annotations

import logging

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

DISCORD_API_BASE = "https://discord.com/api/v10"

log = logging.getLogger(__name__)


def use_api_base(base: str) -> None:
    """Send discord.py's REST calls to `base`."""
    Route.BASE = base.rstrip("/")


async def use_gateway(http: HTTPClient) -> None:
    """Connect the gateway to the URL `{Route.BASE}/gateway/bot` names (needs a logged-in client)."""
    _shards, url, _limits = await http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    log.info("gateway %s (from %s/gateway/bot)", url, Route.BASE)
