"""Importing Commander Spellbook's export into the card cache: files (gzipped or not, stdin) through
`sync-cards --combos`, refusals that keep the combos held, tables no other import touches, linear growth,
and hostile documents that never crash the importer nor poison the table."""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards.bulk import import_file
from bot.cards.names import normalize
from bot.cards.schema import HOUSE_TABLES
from bot.cli import main
from bot.combos.load import ComboDataError, import_variants
from bot.combos.model import COMBO
from tests.fakes.spellbook import export, generated, use, variant
from tests.shared_data import all_cards

NAMES = [c["name"] for c in all_cards()[:3000]]
BASE = export(generated(40, NAMES, seed=1))
NEWER = export(generated(60, NAMES, seed=2))


def held(db) -> tuple[int, str | None]:
    """(combos in the table, when they were imported)."""
    with sqlite3.connect(db) as conn:
        stamp = conn.execute("SELECT value FROM meta WHERE key = 'combos_imported_at'").fetchone()
        return conn.execute("SELECT count(*) FROM combos").fetchone()[0], stamp and stamp[0]


def consistent(db) -> int:
    """Every row reads back as a combo whose keys are its cards' and whose anchor is one of them; the count."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, anchor, keys, facts FROM combos").fetchall()
        counted = conn.execute("SELECT value FROM meta WHERE key = 'combos_count'").fetchone()
        assert not conn.execute("SELECT name FROM sqlite_master WHERE name = 'combos_new'").fetchall()
    for combo_id, anchor, keys, facts in rows:
        combo = COMBO.validate_json(facts)
        assert combo.id == combo_id and keys.split("\n") == sorted({normalize(p.name) for p in combo.uses})
        assert anchor in keys.split("\n")
    assert counted is None or int(counted[0]) == len(rows)
    return len(rows)


def sync(*args: str) -> int:
    return main(["sync-cards", *args, "--min-variants", "10"])


def test_sync_cards_imports_a_file_gzipped_or_not_or_stdin(tmp_path, monkeypatch, capsys):
    db = tmp_path / "cache.sqlite3"
    (tmp_path / "v.json").write_bytes(BASE)
    assert sync("--combos", str(tmp_path / "v.json"), "--cache", str(db)) == 0
    assert held(db)[0] == 40 and "imported 40 Commander Spellbook combos" in capsys.readouterr().out
    (tmp_path / "v.json.gz").write_bytes(gzip.compress(NEWER))
    assert sync("--combos", str(tmp_path / "v.json.gz"), "--cache", str(db)) == 0
    assert held(db)[0] == 60 == consistent(db)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(gzip.compress(BASE)))))
    assert sync("--combos", "-", "--cache", str(db)) == 0
    assert held(db)[0] == 40
    with sqlite3.connect(db) as conn:  # only the combos: no card data was asked for
        assert conn.execute("SELECT count(*) FROM cards").fetchone()[0] == 0


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (gzip.compress(NEWER)[:4000], "not a whole export"),  # a cut transfer or upload
        (NEWER[: len(NEWER) // 2], "not a whole export"),  # the JSON ends early
        (NEWER[:-1], "not a whole export"),  # only the last brace missing
        (NEWER.replace(b'"uses": [', b'"uses" [', 1), "not a whole export"),  # malformed
        (NEWER + b" {}", "not a whole export"),  # two documents
        (b"[]", "only 0 of its 0 variants"),  # no export at all
        (export(generated(5, NAMES)), "only 5 of its 5 variants"),  # far too few
        (export([{"id": "x", "uses": "no"}] * 30 + generated(20, NAMES)), "only 20 of its 50 variants"),
        (export(generated(20, NAMES) * 2), "UNIQUE constraint failed"),
    ],
)
def test_a_bad_export_is_refused_and_the_combos_held_stay(tmp_path, capsys, body, reason):
    db = tmp_path / "cache.sqlite3"
    import_variants(io.BufferedReader(io.BytesIO(BASE)), db, least=10)
    before = held(db)
    (tmp_path / "bad").write_bytes(body)
    assert sync("--combos", str(tmp_path / "bad"), "--cache", str(db)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: the combos could not be imported") and reason in err[0]
    assert held(db) == before and consistent(db) == 40


def test_an_export_of_half_the_combos_held_is_refused(tmp_path):
    db = tmp_path / "cache.sqlite3"
    import_variants(io.BufferedReader(io.BytesIO(NEWER)), db, least=10)
    with pytest.raises(ComboDataError, match="usable, not 30"):
        import_variants(io.BufferedReader(io.BytesIO(export(generated(29, NAMES)))), db, least=10)
    assert held(db)[0] == 60


def test_card_imports_and_combo_imports_leave_each_other_and_the_house_rules_alone(tmp_path):
    db = tmp_path / "cache.sqlite3"
    cards = tmp_path / "cards.jsonl"
    cards.write_text("\n".join(json.dumps(c) for c in all_cards()[:200]))
    import_file(cards, db)
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO house_bans VALUES (1, 'sol ring', 'Sol Ring', 0)")
        conn.execute("INSERT INTO house_brackets VALUES (1, 2, 0)")
    import_variants(io.BufferedReader(io.BytesIO(BASE)), db, least=10)
    import_file(cards, db)
    assert held(db)[0] == 40
    import_variants(io.BufferedReader(io.BytesIO(NEWER)), db, least=10)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM cards").fetchone()[0] == 200
        for table in HOUSE_TABLES:
            assert conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 1


def _import_seconds(db, body: bytes) -> float:
    best = float("inf")
    for _ in range(3):
        began = time.thread_time()
        import_variants(io.BufferedReader(io.BytesIO(body)), db, least=1)
        best = min(best, time.thread_time() - began)
    return best


def test_import_time_grows_linearly(tmp_path):
    """n and 10·n variants in the same run: about 10 times the CPU time (a quadratic step would be 100)."""
    small, large = export(generated(200, NAMES, seed=3)), export(generated(2000, NAMES, seed=4))
    ratio = _import_seconds(tmp_path / "b.sqlite3", large) / _import_seconds(tmp_path / "a.sqlite3", small)
    assert ratio < 30


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3),
    max_leaves=8,
)
_FIELDS = st.sampled_from(
    [
        "id",
        "uses",
        "card",
        "name",
        "zoneLocations",
        "produces",
        "feature",
        "status",
        "requires",
        "template",
        "manaValueNeeded",
        "bracketTag",
        "popularity",
        "quantity",
    ]
)
_HOSTILE_VARIANT = st.dictionaries(
    _FIELDS, _JSON | st.lists(st.dictionaries(_FIELDS, _JSON), max_size=3), max_size=6
)


@st.composite
def _documents(draw) -> bytes:
    """Exports with hostile variants among real ones, cut or spliced anywhere, or JSON of any shape."""
    real = generated(draw(st.integers(0, 6)), NAMES, seed=draw(st.integers(0, 50)))
    real.append(variant([use(n) for n in draw(st.lists(st.text(max_size=8), min_size=1, max_size=3))], ["x"]))
    mixed = draw(st.permutations(real + draw(st.lists(_HOSTILE_VARIANT, max_size=4))))
    body = export(mixed)
    cut = draw(st.integers(0, len(body)))
    return draw(
        st.sampled_from(
            [
                body,
                body[:cut],
                body[:cut] + draw(st.binary(max_size=20)) + body[cut:],
                json.dumps(draw(_JSON)).encode(),
                gzip.compress(body)[: cut // 4 + 10],
            ]
        )
    )


@pytest.fixture(scope="module")
def base_cache(tmp_path_factory) -> Path:
    """A cache holding the BASE export, imported once (each example copies it)."""
    db = tmp_path_factory.mktemp("base") / "cache.sqlite3"
    import_variants(io.BufferedReader(io.BytesIO(BASE)), db, least=1)
    return db


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=_documents())
def test_hostile_exports_never_crash_the_importer_nor_poison_the_table(base_cache, tmp_path_factory, body):
    db = shutil.copy(base_cache, tmp_path_factory.mktemp("fuzz") / "cache.sqlite3")
    before = held(db)
    try:
        result = import_variants(io.BufferedReader(io.BytesIO(body)), db, least=1)
    except ComboDataError:
        assert held(db) == before
    else:
        assert result.combos == held(db)[0]
    consistent(db)
    asyncio.run(_finds(db))


async def _finds(db) -> None:
    from bot.cards.cache import CardCache
    from bot.combos.store import ComboStore

    async with await CardCache.open(db) as cache:
        found = await ComboStore(cache).find(NAMES)
        assert found.checked


async def test_a_version_5_cache_gets_the_combo_table_and_keeps_the_rest(tmp_path):
    from bot.cards.cache import CardCache
    from bot.cards.schema import MIGRATIONS
    from bot.combos.store import ComboStore

    db = tmp_path / "v5.sqlite3"
    with sqlite3.connect(db) as conn:
        for version in range(1, 6):
            conn.executescript(MIGRATIONS[version])
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO schema_version VALUES (5)")
        conn.execute("INSERT INTO house_brackets VALUES (1, 2, 0)")
    async with await CardCache.open(db) as cache:
        assert not (await ComboStore(cache).find(NAMES)).checked  # the table is there, empty: not checked
    import_variants(io.BufferedReader(io.BytesIO(BASE)), db, least=10)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == 6
        assert conn.execute("SELECT count(*) FROM house_brackets").fetchone()[0] == 1
    assert held(db)[0] == 40
