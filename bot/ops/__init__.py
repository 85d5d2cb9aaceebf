"""Production building blocks: metrics, health server and probe, logs, sharding. Nothing is imported
here, so `bot.settings` and the Docker healthcheck never pull in aiohttp or prometheus-client."""
