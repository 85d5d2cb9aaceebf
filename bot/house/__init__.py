"""House rules per server: the cards a server bans and the bracket it plays, kept in the card cache file's
house tables (`rules` the rules as data, `store` the bot's access, `backup` JSON export and import, `cli` the
`python -m bot house` commands). Imports the deck check's brackets and the cards layer, never Discord."""
