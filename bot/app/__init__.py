"""Discord layer: the bot class, the command tree and the helpers the cogs share."""
