"""Production building blocks: metrics, health server and probe, logs, sharding (each imported on its own,
so `bot.settings` never pulls in aiohttp or prometheus-client)."""
