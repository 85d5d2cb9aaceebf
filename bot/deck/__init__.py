"""Deck check: is every card of a Commander decklist legal with its commander?

- `parser.parse(text)`: the decklist formats people paste, multi-line or on one line (pure);
  `parser.parse_card_line(text)`: one card as players paste it (card options).
- `check.check_deck(parsed, commanders, resolved, unknown, unavailable=...)`: the checks (pure).
- `runner.check_decklist(cards, text, commander=None, partner=None, chosen=())`: resolve through the card
  service, take the commanders from the options and the list, then check.

The report's words are the presentation layer's (`bot.present.deck_report`); `python -m bot check-deck`
lives with the other commands in `bot.main`.
"""
