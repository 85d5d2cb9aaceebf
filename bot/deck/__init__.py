"""Deck check: is every card of a Commander decklist legal with its commander?

- `parser.parse(text)`: the decklist formats people paste (pure).
- `check.check_deck(parsed, commanders, resolved, unknown)`: the checks (pure).
- `runner.check_decklist(cards, text, commander, partner)`: resolve through the card service, then check.

The report's words are the presentation layer's (`bot.present.deck_report`); `python -m bot check-deck`
lives with the other commands in `bot.main`.
"""
