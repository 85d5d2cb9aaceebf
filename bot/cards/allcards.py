"""Printed card names and rules text from Scryfall's `all_cards` bulk file, in the cache tables this module
owns (`printed_names`, `printed_texts`, `printed_languages`): docs/card-data.md, docs/languages-terms.md."""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.cards.bulk import BulkFormatError, downloaded, in_child, iter_cards
from bot.cards.printed import KEY_VERSION, PrintedNames, printed_key, printing_names
from bot.cards.quotes import printing_rank, text_faces
from bot.cards.schema import connect_for_import

if TYPE_CHECKING:  # the import child (`in_child`) never loads the client
    from bot.cards.scryfall import ScryfallClient

# Made anew by every import; `key` is `printed_key(printed)` as of `key_version`, so loading folds nothing.
SCHEMA = (
    "DROP TABLE IF EXISTS printed_names",
    "DROP TABLE IF EXISTS printed_languages",
    "DROP TABLE IF EXISTS printed_texts",
    "CREATE TABLE printed_names (lang TEXT NOT NULL, printed TEXT NOT NULL, oracle_id TEXT NOT NULL,"
    " name TEXT NOT NULL, prints INTEGER NOT NULL, key TEXT NOT NULL, PRIMARY KEY (lang, printed, oracle_id))"
    " WITHOUT ROWID",
    # `faces`: a JSON list of the printed text of each face (one for a card of one part)
    "CREATE TABLE printed_texts (lang TEXT NOT NULL, oracle_id TEXT NOT NULL, faces TEXT NOT NULL,"
    " PRIMARY KEY (lang, oracle_id)) WITHOUT ROWID",
    "CREATE TABLE printed_languages (lang TEXT PRIMARY KEY, names INTEGER NOT NULL, imported_at REAL NOT NULL,"
    " updated_at REAL, key_version INTEGER NOT NULL)",
)
PROGRESS_EVERY = 5000  # printings between two progress calls

Row = tuple[str, str, str, str]  # (lang, printed name, oracle id, English name)
# (lang, oracle id) -> (rank, the JSON list of the printed text of each face)
Texts = dict[tuple[str, str], tuple[tuple[bool, int, str], str]]


class NoPrintings(BulkFormatError):
    """The file holds no printing in the languages asked for (oracle_cards and default_cards are English)."""


@dataclass(frozen=True, slots=True)
class PrintedImport:
    printings: int  # printings read in the languages turned on
    names: int  # distinct (language, printed name, card) rows stored
    seconds: float
    texts: int = 0  # (language, card) printed rules texts stored


def card_oracle_id(obj: Mapping[str, Any]) -> str | None:
    if isinstance(oracle_id := obj.get("oracle_id"), str):
        return oracle_id
    for face in obj.get("card_faces") or ():  # reversible cards keep it on their faces
        if isinstance(face, Mapping) and isinstance(face.get("oracle_id"), str):
            return str(face["oracle_id"])
    return None


def printed_rows(obj: Any, languages: Collection[str]) -> list[Row]:
    """The rows one `all_cards` object gives for `languages` ([] for English printings and non-cards)."""
    if not isinstance(obj, dict) or obj.get("object") != "card" or obj.get("lang") not in languages:
        return []
    name, oracle_id = obj.get("name"), card_oracle_id(obj)
    if not isinstance(name, str) or oracle_id is None:
        return []
    return [(str(obj["lang"]), printed, oracle_id, name) for printed in printing_names(obj)]


def _keep_text(texts: Texts, obj: dict[str, Any], lang: str, oracle_id: str) -> None:
    """Keep this printing's printed text when it follows the Oracle text better than the one kept."""
    if not any(faces := text_faces(obj, "printed_text")):
        return
    kept = texts.get((lang, oracle_id))
    released = obj.get("released_at")
    if kept is not None and kept[0][0] and (not isinstance(released, str) or released <= kept[0][2]):
        return  # a text whose every line matches, and no older, is kept already
    rank = printing_rank(obj)
    if kept is None or rank > kept[0]:
        texts[(lang, oracle_id)] = (rank, json.dumps(faces, ensure_ascii=False))


def _read(
    path: Path, languages: Collection[str], progress: Callable[[int], object] | None
) -> tuple[dict[tuple[str, str, str], list[Any]], Texts, int]:
    counts: dict[tuple[str, str, str], list[Any]] = {}  # (lang, printed, oracle id) -> [name, printings]
    texts: Texts = {}
    printings = seen = 0
    held: set[str] = set()  # the languages of the file's printings
    for obj, _raw in iter_cards(path):
        seen += 1
        if isinstance(obj, dict) and isinstance(obj.get("lang"), str):
            held.add(obj["lang"])
        rows = printed_rows(obj, languages)
        printings += bool(rows)
        for lang, printed, oracle_id, name in rows:
            counts.setdefault((lang, printed, oracle_id), [name, 0])[1] += 1
        if rows:
            _keep_text(texts, obj, rows[0][0], rows[0][2])
        if progress and seen % PROGRESS_EVERY == 0:
            progress(PROGRESS_EVERY)
    if progress:
        progress(seen % PROGRESS_EVERY)
    if seen == 0:
        raise BulkFormatError(f"{path} holds no card objects")
    if printings == 0:  # nothing replaces the names kept; the error's one text crosses from the child
        where = ", ".join(sorted(held)) or "no language"
        raise NoPrintings(
            f"{path} holds no printings in {', '.join(sorted(languages))}: its {seen:,} card objects are in"
            f" {where}. Scryfall's all_cards file is the bulk file with every language."
        )
    return counts, texts, printings


def import_printed_names(
    path: Path | str,
    db_path: Path | str,
    languages: Collection[str],
    *,
    updated_at: float | None = None,
    progress: Callable[[int], object] | None = None,
    clock: Callable[[], float] = time.time,
) -> PrintedImport:
    """Make the cache's `printed_names` and `printed_texts` hold exactly the names and texts in `languages` of
    an `all_cards` file (synchronous). `progress` gets the number of objects read since its last call."""
    started = time.perf_counter()
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    with contextlib.closing(connect_for_import(db_path)) as conn:
        counts, texts, printings = _read(path, frozenset(languages), progress)
        per_lang: dict[str, int] = dict.fromkeys(languages, 0)
        for lang, _printed, _oracle in counts:
            per_lang[lang] += 1
        now = clock()
        rows = [
            (lang, printed, oracle, name, n, printed_key(printed))
            for (lang, printed, oracle), (name, n) in counts.items()
        ]
        del counts
        with conn:
            conn.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA:
                conn.execute(statement)
            conn.executemany("INSERT INTO printed_names VALUES (?, ?, ?, ?, ?, ?)", rows)
            conn.executemany(
                "INSERT INTO printed_texts VALUES (?, ?, ?)",
                ((lang, oracle, faces) for (lang, oracle), (_rank, faces) in texts.items()),
            )
            conn.executemany(
                "INSERT INTO printed_languages VALUES (?, ?, ?, ?, ?)",
                ((lang, n, now, updated_at, KEY_VERSION) for lang, n in per_lang.items()),
            )
    return PrintedImport(printings, len(rows), time.perf_counter() - started, len(texts))


def _connect_existing(db_path: Path | str) -> sqlite3.Connection | None:
    """A read-only connection to the cache file, or None when there is no file."""
    if str(db_path) == ":memory:" or not Path(db_path).is_file():
        return None
    return sqlite3.connect(f"{Path(db_path).resolve().as_uri()}?mode=ro", uri=True)


def imported_languages(db_path: Path | str) -> dict[str, float]:
    """{language: when it was imported (epoch seconds)} for the languages the cache holds names in."""
    if (conn := _connect_existing(db_path)) is not None:
        with contextlib.closing(conn), contextlib.suppress(sqlite3.OperationalError):
            return dict(conn.execute("SELECT lang, imported_at FROM printed_languages").fetchall())
    return {}  # no file, or no table: never imported


def load_printed_names(db_path: Path | str, languages: Collection[str]) -> PrintedNames | None:
    """The index of the cache's printed names in `languages` (most printed spelling first), or None when
    the cache holds none. Synchronous."""
    if (conn := _connect_existing(db_path) if languages else None) is None:
        return None
    langs = tuple(languages)
    where = f"WHERE lang IN ({','.join('?' * len(langs))})"
    try:
        versions = {v for (v,) in conn.execute(f"SELECT key_version FROM printed_languages {where}", langs)}
        keyed = versions == {KEY_VERSION}  # else keys of another version (or none): folded here
        order = "key, prints DESC" if keyed else "prints DESC"
        rows = conn.execute(
            f"SELECT key, lang, printed, name, prints FROM printed_names {where} ORDER BY {order}", langs
        )
        index = PrintedNames(rows if keyed else ((printed_key(r[2]), *r[1:]) for r in rows))
    except sqlite3.OperationalError:  # no such table or column: never imported, or by another version
        return None
    finally:
        conn.close()
    return index if len(index) else None


async def sync_printed_names(
    client: ScryfallClient,
    db_path: Path | str,
    languages: Sequence[str],
    *,
    download_progress: Callable[[int, int | None], None] | None = None,
) -> PrintedImport:
    """Download `all_cards` next to the cache and import it in a child process."""
    async with downloaded(client, "all_cards", db_path, download_progress) as (dest, updated_at):
        langs = tuple(languages)
        return await in_child(
            functools.partial(import_printed_names, str(dest), str(db_path), langs, updated_at=updated_at)
        )
