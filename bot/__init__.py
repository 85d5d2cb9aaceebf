"""MTG color-identity Discord bot."""

__version__ = "0.1.0"
BOT_NAME = "IdentityBot"
