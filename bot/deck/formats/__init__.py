"""One small reader per decklist format and the line-level pieces they share (`lines`)."""
