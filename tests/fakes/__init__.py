"""Small fake servers (Scryfall, Discord) that the tests run on 127.0.0.1."""
