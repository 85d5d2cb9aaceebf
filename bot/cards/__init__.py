"""Cards layer: the Scryfall client, the SQLite card cache, the local name index, bulk data and the card
service that ties them together. Imports the engine (`bot.identity`) and operations helpers, never Discord."""
