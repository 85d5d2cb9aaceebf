"""`python -m bot house export|import`: the house rules as JSON for backups. An import is checked whole before
anything is written and lands all or nothing; any file gets a clear answer in linear time."""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.house.backup import FORMAT, HouseFileError, export_rules, import_rules, read_export
from bot.house.rules import ban_of
from bot.house.store import HouseStore
from tests.shared_data import card

GUILD, OTHER = 1_100_000_000_000_000_100, 1_100_000_000_000_000_500


def export_of(*servers: dict[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "servers": list(servers)}


@pytest.fixture
def cache(clean_env, monkeypatch, tmp_path) -> Path:
    path = tmp_path / "data" / "cards.sqlite3"
    monkeypatch.setenv("CACHE_PATH", str(path))
    return path


async def test_export_then_import_restores_every_server(cache, tmp_path, capsys):
    async with await HouseStore.open(cache_ready(cache)) as store:
        await store.ban(GUILD, ban_of(card("Sol Ring")))
        await store.ban(GUILD, ban_of(card("Lightning Bolt")))
        await store.set_bracket(GUILD, 2)
        await store.set_bracket(OTHER, 4)
    backup = tmp_path / "backup" / "rules.json"
    assert main(["house", "export", str(backup)]) == 0
    saved = json.loads(backup.read_text())
    assert saved["format"] == FORMAT and saved["version"] == 1
    assert saved["servers"][0] == {
        "guild_id": str(GUILD),
        "bracket": 2,
        "bans": [
            {"key": card("Lightning Bolt")["oracle_id"], "name": "Lightning Bolt"},
            {"key": card("Sol Ring")["oracle_id"], "name": "Sol Ring"},
        ],
    }
    assert main(["house", "export"]) == 0  # to stdout
    assert json.loads(capsys.readouterr().out)["servers"] == saved["servers"]

    cache.unlink()  # the data volume is lost; a new one is restored from the backup
    assert main(["house", "import", str(backup)]) == 0
    assert "2 server(s), 2 ban(s)" in capsys.readouterr().err
    async with await HouseStore.open(cache) as store:
        assert (await store.rules(GUILD)).banned(card("Sol Ring"))
        assert (await store.rules(OTHER)).bracket == 4
    assert main(["house", "import", str(backup)]) == 0  # twice: the same rules, not doubled
    assert export_rules(cache)["servers"] == saved["servers"]


def test_dash_is_standard_output_and_input(cache, tmp_path, capsys, monkeypatch):
    """`house export -` writes to stdout (no file named "-"), `house import -` reads stdin: a backup pipe."""
    saved = export_of({"guild_id": str(GUILD), "bracket": 3, "bans": []})
    import_rules(cache, saved)
    monkeypatch.chdir(tmp_path)
    assert main(["house", "export", "-"]) == 0
    exported = capsys.readouterr().out
    assert json.loads(exported)["servers"] == saved["servers"] and not (tmp_path / "-").exists()
    cache.unlink()
    monkeypatch.setattr(sys, "stdin", io.StringIO(exported))
    assert main(["house", "import", "-"]) == 0
    assert export_rules(cache)["servers"] == saved["servers"]


def cache_ready(path: Path) -> Path:
    import_rules(path, export_of())  # creates and migrates the cache file
    return path


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("not json {", "not valid JSON"),
        (json.dumps([1, 2]), "not a house rules export"),
        (json.dumps({**export_of(), "version": 2}), "version 2"),
        (json.dumps(export_of({"guild_id": "12x"})), "servers[1].guild_id"),
        (json.dumps(export_of({"guild_id": str(GUILD), "bracket": 6})), "servers[1].bracket"),
        (json.dumps(export_of({"guild_id": str(GUILD), "bracket": True})), "servers[1].bracket"),
        (json.dumps(export_of({"guild_id": str(GUILD), "bans": [{"key": "", "name": "x"}]})), "bans[0].key"),
        (json.dumps(export_of({"guild_id": str(GUILD)}, {"guild_id": GUILD})), "listed twice"),
    ],
)
def test_a_bad_file_changes_nothing(cache, tmp_path, capsys, bad, says):
    good = export_of({"guild_id": str(GUILD), "bracket": 3, "bans": [{"key": "k", "name": "Sol Ring"}]})
    import_rules(cache, good)
    before = export_rules(cache)["servers"]
    file = tmp_path / "bad.json"
    try:  # a valid server first: nothing of the file may land when a later part is wrong
        data = json.loads(bad)
        data["servers"].insert(0, {"guild_id": str(OTHER), "bracket": 1})
        bad = json.dumps(data)
    except (ValueError, TypeError, KeyError, AttributeError):
        pass
    file.write_text(bad)
    assert main(["house", "import", str(file)]) == 1
    err = capsys.readouterr().err
    assert says in err and "nothing was changed" in err
    assert export_rules(cache)["servers"] == before


def test_export_of_a_missing_file_fails_clearly(cache, capsys):
    assert main(["house", "export", "--db", str(cache.with_name("nowhere.sqlite3"))]) == 1
    assert "no such file" in capsys.readouterr().err


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
SERVER = st.fixed_dictionaries(
    {"guild_id": st.one_of(st.integers(), st.text(max_size=22)), "bracket": JSON, "bans": JSON}
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON, st.builds(lambda s: export_of(*s), st.lists(SERVER, max_size=3))))
def test_any_file_is_read_or_refused_with_a_reason(data):
    try:
        servers = read_export(data)
    except HouseFileError as exc:
        assert str(exc)
        return
    for guild_id, rules in servers.items():
        assert 0 < guild_id < 2**63 and rules.bracket in (None, 1, 2, 3, 4, 5)
        assert all(b.key.strip() and b.name.strip() for b in rules.bans)


def test_reading_grows_linearly():
    def export(n: int) -> dict[str, Any]:
        bans = [{"key": f"key-{i}", "name": f"Card {i}"} for i in range(n)]
        return export_of(*({"guild_id": str(GUILD + i), "bans": bans[:10]} for i in range(n // 10)))

    def seconds(n: int) -> float:
        data = export(n)
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            read_export(data)
            best = min(best, time.perf_counter() - started)
        return best

    small, large = seconds(2_000), seconds(20_000)
    assert large < small * 30, (small, large)  # 10 times the input: about 10 times the time, never 100
