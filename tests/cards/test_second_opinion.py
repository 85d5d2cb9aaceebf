"""The second opinion on identity (issue 28): every card the bot reads, from the bulk file or the API, is
compared with Scryfall's `color_identity`; after each import the disagreements are counted in /metrics
(`identity_bot_identity_disagreements{source}`) and logged once each with the card's name, not per request."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.cards.bulk import import_file
from bot.cards.opinion import META_KEY, Disagreement, disagreement, parse_stored, scryfall_identity
from bot.cards.refresh import BulkRefresher
from bot.cards.schema import connect_sync
from bot.compose import open_cards
from bot.deck.brackets import is_game_changer
from tests.fakes.budget import FastForwardBudget
from tests.fakes.fixtures import fake_settings
from tests.fakes.scryfall import FakeScryfall
from tests.shared_data import all_cards, card

METRIC = "identity_bot_identity_disagreements"
SCOUT = Disagreement("Wildgraft Scout", "R", "RG")
GARRUK = Disagreement("Garruk the Slayer", "", "BG")  # shared data: no cost or indicator kept, Scryfall BG


def crafted() -> dict[str, Any]:
    [obj] = json.loads((Path(__file__).parents[1] / "data" / "second_opinion.json").read_text("utf-8"))
    return obj


def cards() -> list[dict[str, Any]]:
    """A few hundred shared cards, Garruk the Slayer, Brisela (a meld result: no verdict, so no count) and
    the crafted card."""
    return [
        *all_cards()[:300],
        card("Garruk the Slayer"),
        card("Brisela, Voice of Nightmares"),
        card("Mana Vault"),
        crafted(),
    ]


def write(path: Path, objs: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(o) for o in objs), encoding="utf-8")
    return path


def logged(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.cards.opinion"]


def test_scryfalls_identity_and_the_comparison():
    assert scryfall_identity({"color_identity": ["G", "R"]}) == "RG"
    assert scryfall_identity({}) is None and scryfall_identity({"color_identity": ["X"]}) is None
    assert disagreement(crafted()) == SCOUT
    assert disagreement(card("Lightning Bolt")) is None
    assert disagreement(card("Brisela, Voice of Nightmares")) is None  # not a deck card: no verdict on it
    assert parse_stored("not json") == [] and parse_stored('[["a", "", "W"], [1]]') == [
        Disagreement("a", "", "W")
    ]


def test_an_import_finds_the_disagreements_and_keeps_them_with_the_data(tmp_path):
    result = import_file(write(tmp_path / "cards.jsonl", cards()), tmp_path / "c.sqlite3")
    assert set(result.disagreements) == {SCOUT, GARRUK}
    conn = connect_sync(tmp_path / "c.sqlite3")
    [(stored,)] = conn.execute("SELECT value FROM meta WHERE key = ?", (META_KEY,)).fetchall()
    conn.close()
    assert set(parse_stored(stored)) == {SCOUT, GARRUK}


async def test_the_loaded_data_counts_in_metrics_and_each_card_is_logged_once(tmp_path, caplog):
    async with FakeScryfall(cards()) as fake:
        settings = fake_settings(fake, tmp_path)
        settings.cache_path.parent.mkdir(parents=True)
        import_file(write(tmp_path / "cards.jsonl", cards()), settings.cache_path)
        with caplog.at_level(logging.INFO, logger="bot.cards.opinion"):
            async with open_cards(settings) as service:
                assert service.metrics.value(METRIC, {"source": "bulk"}) == 2
                for _ in range(3):
                    found = await service.resolve("Wildgraft Scout")
                    assert found.card["color_identity"] == ["G", "R"]  # Scryfall's answer kept with the card
                assert (await service.resolve("Mana Vault")).card[
                    "game_changer"
                ] is True  # the bulk file's field
                await service.load_index()  # a reload (another process imported): no new lines
                assert service.metrics.value(METRIC, {"source": "bulk"}) == 2
        lines = logged(caplog)
        assert len(lines) == 2, lines
        assert any("'Wildgraft Scout' reads R from its cost and text, Scryfall lists RG" in x for x in lines)
        assert any("'Garruk the Slayer' reads colorless" in x for x in lines)
        assert fake.count() == 0  # all local


async def test_a_background_refresh_counts_its_import(tmp_path):
    async with (
        FakeScryfall(cards()) as fake,
        open_cards(fake_settings(fake, tmp_path, bulk_refresh_hours=24)) as service,
    ):
        assert service.metrics.value(METRIC, {"source": "bulk"}) == 0
        result = await BulkRefresher(service, every_hours=24).refresh_now()  # download, child process import
        assert set(result.disagreements) == {SCOUT, GARRUK}
        assert service.metrics.value(METRIC, {"source": "bulk"}) == 2


async def test_cards_read_from_the_api_are_compared_too(tmp_path, caplog):
    async with FakeScryfall(cards()) as fake:
        with caplog.at_level(logging.WARNING, logger="bot.cards.opinion"):
            async with open_cards(fake_settings(fake, tmp_path), budget=FastForwardBudget()) as service:
                assert not service.has_local_data
                for _ in range(2):
                    await service.resolve("Wildgraft Scout")
                other = all_cards()[5]["name"]
                batch = await service.resolve_many(["Garruk the Slayer", other])
                assert set(batch.found) == {"Garruk the Slayer", other}
                assert service.metrics.value(METRIC, {"source": "api"}) == 2
                assert service.metrics.value(METRIC, {"source": "bulk"}) == 0
                vault = await service.resolve("Mana Vault")  # Scryfall's fields survive the API and the cache
                assert vault.source == "api" and vault.card["game_changer"] is True
                again = await service.resolve("Mana Vault")
                assert again.source == "cache" and again.card["game_changer"] is True
        assert len(logged(caplog)) == 2
        assert fake.count("/cards/named") + fake.count("/cards/collection") >= 2


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=20,
)


@given(identity=JSONISH, flag=JSONISH)
def test_odd_card_data_is_never_taken_for_an_answer(identity, flag):
    """Whatever a card object holds in `color_identity` and `game_changer`, nothing raises; only a list of
    WUBRG letters is Scryfall's identity, only `true` makes a Game Changer."""
    obj = crafted() | {"color_identity": identity, "game_changer": flag}
    theirs = scryfall_identity(obj)
    if theirs is not None:
        assert isinstance(identity, list) and set(theirs) <= set("WUBRG")
    found = disagreement(obj)
    assert found is None or found.theirs == theirs
    assert is_game_changer(obj) is (flag is True)
