"""Deck check: is every card of a Commander decklist legal with its commander?

- `parser.parse(text)`: the decklist formats people paste and export (pure);
- `check.check_deck(DeckInput(...))`: the checks, one function each (pure); `report`: their answer as data;
- `runner.read_list(text, filename)` and `runner.check_decklist(cards, deck, commander, partner, chosen)`:
  the one path every list takes (`/deckcheck`, the message command, `check-deck`): read, resolve every name
  exactly through the card service, take the commanders from the options and the list, then check;
- `errors`: why a list or an option can't be used, as codes; `sources`: public Archidekt and Moxfield decks.

Every word is the presentation layer's (`bot.present.deck_report`, `deck_errors`, `decklinks`);
`python -m bot check-deck` lives with the other commands in `bot.main`.
"""
