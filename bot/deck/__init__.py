"""Deck check: is every card of a Commander decklist legal with its commander? `parser` reads the formats,
`runner` resolves names exactly and picks the commanders, `check` runs the checks, `report` holds the answer
as data (words: `bot.present`), `sources` reads deck links."""
