"""Production building blocks: metrics, health server, structured logs, sharding.

Submodules are imported on demand (``from bot.ops.metrics import BotMetrics``) so that importing
``bot.settings`` (which uses the small pure parser in :mod:`bot.ops.sharding`) never pulls in aiohttp or
prometheus-client.
"""
