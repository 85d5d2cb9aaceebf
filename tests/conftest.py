"""Shared fixtures. Test-specific fixtures live in their own modules or in tests/fakes/."""

from __future__ import annotations

import gc
import os
import sys

import pytest

from tests import shared_data

# No test reaches Commander Spellbook: a bot refreshing its bulk data finds no host here (connection refused);
# the tests of the combos point SPELLBOOK_JSON_BASE at tests/fakes/spellbook.py instead.
os.environ.setdefault("SPELLBOOK_JSON_BASE", "http://127.0.0.1:9")

# Temporary files (card caches, house rules, downloads) on the machine's RAM disk where it has one: the
# tests write hundreds of SQLite files, whose fsyncs on a real disk cost a tenth of the run. pytest reads its
# temporary root from this variable (a `--basetemp` given on the command line still wins).
if os.access("/dev/shm", os.W_OK):
    os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", "/dev/shm")

# Where the environment says PYTHONDONTWRITEBYTECODE, pytest would rewrite every test module's assertions again
# in each worker on every run (seconds each): the suite keeps its compiled modules in __pycache__ (ignored by git
# and by the image's build context).
sys.dont_write_bytecode = False

# The tests' garbage is small and short-lived; the shared card data is large and lives the whole run (frozen out
# of collections, `shared_data.kept`): collect the young generation less often than every 700 allocations.
gc.set_threshold(200_000, 50, 100)

# fake_scryfall, make_card_service, card_service (see tests/fakes/fixtures.py)
pytest_plugins = ("tests.fakes.fixtures",)


@pytest.fixture(scope="session")
def all_cards():
    return shared_data.all_cards()


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """Run with no bot-related environment variables and an empty working directory (no .env); the per-user
    data directory (CACHE_PATH's default, `XDG_DATA_HOME`) is `xdg-data` in it, never the real one."""
    import os

    for key in list(os.environ):
        if key.startswith(
            (
                "DISCORD_",
                "SCRYFALL_",
                "CACHE_",
                "BULK_",
                "DEV_GUILD",
                "SYNC_COMMANDS",
                "LOG_LEVEL",
                "MANA_EMOJI",
                "NEGATIVE_TTL",
                "METRICS_",
                "USER_RATE",
                "SHARD_",
                "ARCHIDEKT_",
                "MOXFIELD_",
                "DECKSITE_",
            )
        ):
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.chdir(tmp_path)
    return tmp_path
