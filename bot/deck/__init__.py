"""Deck check: is every card of a Commander decklist legal with its commander? `parser` reads, `runner`
resolves and picks the commanders, `check` checks, `report` holds the answer, `sources` reads deck links."""
