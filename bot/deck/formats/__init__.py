"""One small reader per decklist format, and the line-level pieces they share (`lines`). `bot.deck.parser`
picks the reader from what the text looks like."""
