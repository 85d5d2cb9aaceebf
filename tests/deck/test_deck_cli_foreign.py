"""`python -m bot check-deck` and `sync-cards` with printed names (issue 20): a German decklist is checked
with the printed names imported (no request) and without them (Scryfall's `lang:` search);
`sync-cards` imports the printed names when CARD_LANGUAGES is on."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.cards.allcards import imported_languages
from bot.cli import main
from tests.fakes.allcards import all_cards_gz_of, oracle_cards_of
from tests.fakes.budget import FastForwardBudget
from tests.fakes.scryfall import FakeScryfall
from tests.fakes.spellbook import FakeSpellbook, export, generated
from tests.production_world import copy_database

pytest_plugins = ("tests.fakes.printed_cache",)

# Four German names (each a /cards/search without the index, at Scryfall's 2 a second): the commander, a card
# that fits, one that doesn't and one that names two cards.
GERMAN_DECK = """1 Krenko der Boss *CMDR*
1 Blitzschlag
1 Gegenzauber
1 Zwang
"""


def _environment(monkeypatch: pytest.MonkeyPatch, fake: FakeScryfall, cache: Path, languages: str) -> None:
    for key in list(os.environ):
        if key.startswith(("DISCORD_", "SCRYFALL_", "CACHE_", "BULK_", "CARD_")):
            monkeypatch.delenv(key)
    for key, value in {
        "SCRYFALL_API_BASE": fake.base_url,
        "CACHE_PATH": str(cache),
        "BULK_REFRESH_HOURS": "0",
        "SCRYFALL_TIMEOUT": "3",
        "CARD_LANGUAGES": languages,
    }.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(cache.parent)


@pytest.mark.parametrize("languages", ["all", ""])
async def test_a_german_decklist(languages, printed_cache_template, tmp_path, monkeypatch, capsys):
    cache = copy_database(printed_cache_template, tmp_path / "cards.sqlite3")
    deck = tmp_path / "deck.txt"
    deck.write_text(GERMAN_DECK, encoding="utf-8")
    async with FakeScryfall.with_shared_data() as fake:
        _environment(monkeypatch, fake, cache, languages)
        runs = []
        for _ in range(2):
            capsys.readouterr()
            code = await asyncio.to_thread(main, ["check-deck", str(deck)], budget=FastForwardBudget())
            runs.append((code, capsys.readouterr().out, fake.count("/cards/search")))
    (code, out, searched), (code2, out2, searched2) = runs
    assert code == 1, out  # Counterspell is outside Krenko's red
    assert "Deck check for Krenko, Mob Boss" in out and "Counterspell" in out
    assert "Duress" in out and "Coercion" in out  # `Zwang` is two cards: unknown, both suggested
    assert "Lightning Bolt" not in out  # found and legal: not listed among the problems
    assert (code2, out2) == (code, out)
    assert searched == (0 if languages else 4)  # without the index: one search per German name
    assert searched2 == 2 * searched  # each run is a new process: the search cache lives in memory


async def test_sync_cards_imports_the_printed_names(tmp_path, monkeypatch, capsys):
    cache = tmp_path / "cards.sqlite3"
    async with (
        FakeScryfall.with_shared_data() as fake,
        FakeSpellbook(export(generated(1, ["Sol Ring", "Island", "Swamp", "Forest", "Plains"]))) as book,
    ):
        fake.serve_bulk(oracle_cards_of(1500))  # both downloads small: the sync, not the data set, is tested
        fake.serve_all_cards(all_cards_gz_of({"Lightning Bolt", "Counterspell", "Dusk // Dawn"}))
        _environment(monkeypatch, fake, cache, "de,fr")
        monkeypatch.setenv("SPELLBOOK_JSON_BASE", book.base_url)  # sync-cards fetches the combos too
        code = await asyncio.to_thread(main, ["sync-cards", "--min-variants", "1"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "printed names (de,fr)" in out
    assert set(imported_languages(cache)) == {"de", "fr"}
