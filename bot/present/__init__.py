"""Presentation layer: every word the bot says (identity, fits, deck report, errors, help)."""
