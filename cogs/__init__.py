"""Slash-command cogs, loaded as discord.py extensions by :class:`bot.app.IdentityBot`."""
