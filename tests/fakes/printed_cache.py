"""A card cache holding the shared data set's printed names too (issue 20), for tests of the bot with and
without the language data: `foreign_caches(card_cache_copy, tmp_path_factory)`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cards.allcards import import_printed_names
from bot.settings import CARD_LANGUAGES
from tests.fakes.allcards import all_cards_gz
from tests.fakes.fixtures import built_once
from tests.fakes.scryfall import printed_index
from tests.production_world import copy_database


@pytest.fixture(scope="session")
def printed_cache_template(
    card_cache_copy: Callable[[Path], Path], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The shared data set's oracle cards and, in every language, their printed names (imported once per
    run, `built_once`)."""

    def build(db: Path) -> None:
        card_cache_copy(db)
        source = db.with_name("all-cards.json.gz")
        source.write_bytes(all_cards_gz())
        import_printed_names(source, db, CARD_LANGUAGES)
        source.unlink()

    db = built_once(tmp_path_factory, "printed-cards.sqlite3", build)
    printed_index()  # the fake's `lang:` searches need it (a second): build it once, here
    return db


@pytest.fixture(params=["index", "search"])
def language_data(
    request: pytest.FixtureRequest, printed_cache_template: Path, tmp_path: Path
) -> tuple[str, dict[str, object]]:
    """Each test twice: with the printed names imported (`CARD_LANGUAGES=all`), and without them (the
    setting off: Scryfall's `lang:` search answers). Returns the mode and the settings overrides."""
    path = copy_database(printed_cache_template, tmp_path / "cards.sqlite3")
    if request.param == "index":
        return "index", {"cache_path": path, "card_languages": "all"}
    return "search", {"cache_path": path, "card_languages": ""}
