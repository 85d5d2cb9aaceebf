"""Importing Scryfall's `oracle_cards` (through /bulk-data, or a JSON array or JSON Lines file, maybe gzipped)
into the card cache, streamed, one transaction a batch (docs/card-data.md)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gzip
import json
import logging
import multiprocessing
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import astuple, dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import ijson

from bot.cards.opinion import META_KEY, Disagreement, disagreement
from bot.cards.rows import INSERT_CARD, INSERT_NAME, card_rows, is_card
from bot.cards.schema import connect_for_import

if TYPE_CHECKING:  # the import child (`in_child`) never loads the client
    from bot.cards.scryfall import ScryfallClient

log = logging.getLogger(__name__)

DEFAULT_BATCH = 2000
T = TypeVar("T")


class BulkFormatError(Exception):
    """The file is not a Scryfall card array or JSON Lines file."""


@dataclass(frozen=True, slots=True)
class ImportResult:
    cards: int
    skipped: int
    seconds: float
    disagreements: tuple[Disagreement, ...] = ()  # cards whose identity Scryfall lists otherwise

    @property
    def rate(self) -> float:
        return self.cards / self.seconds if self.seconds > 0 else float("inf")


def iter_cards(path: Path | str) -> Iterator[tuple[dict[str, Any], str | None]]:
    """Yield (card object, its raw JSON text when cheaply available) from a bulk or JSON Lines file."""
    path = Path(path)
    with path.open("rb") as fh:
        gzipped = fh.read(2) == b"\x1f\x8b"
    with gzip.open(path, "rb") if gzipped else path.open("rb") as fh:
        head = fh.read(4096).lstrip()
        fh.seek(0)
        if head.startswith(b"["):
            for obj in ijson.items(fh, "item", use_float=True):
                yield obj, None
            return
        if not head.startswith(b"{"):
            raise BulkFormatError(f"{path} is neither a JSON array nor JSON Lines")
        for number, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                if number == 1:  # one pretty-printed object, e.g. a Scryfall list object
                    fh.seek(0)
                    for item in ijson.items(fh, "data.item", use_float=True):
                        yield item, None
                    return
                raise BulkFormatError(f"{path}: line {number} is not JSON") from None
            yield obj, line.decode("utf-8")


def _lower_priority(memory: int | None) -> None:
    with contextlib.suppress(OSError):  # not permitted here: the import still runs, at normal priority
        os.nice(10)
    with contextlib.suppress(ImportError, OSError, ValueError):  # no `resource` on Windows
        import resource

        if memory is not None:  # a hostile file runs out of this child's memory, not the machine's
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


async def in_child(call: Callable[[], T], *, memory: int | None = None) -> T:
    """Run picklable `call` in a spawned child process at a lower CPU priority (and at most `memory` bytes of
    address space), so parsing never holds this process's GIL or event loop and the bot keeps the CPU it
    needs to answer."""
    spawn = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(1, mp_context=spawn, initializer=_lower_priority, initargs=(memory,))
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, call)
    finally:
        await asyncio.to_thread(pool.shutdown, wait=True)  # joining the child takes a while: off the loop


def import_file(
    path: Path | str,
    db_path: Path | str,
    *,
    batch_size: int = DEFAULT_BATCH,
    updated_at: float | None = None,
    progress: Callable[[int], object] | None = None,
    clock: Callable[[], float] = time.time,
) -> ImportResult:
    """Import every card in `path` into the cache at `db_path` (synchronous). `updated_at`: when the data
    was published (default: the file's mtime)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    started = time.perf_counter()
    now = clock()
    count = skipped = 0
    differ: list[Disagreement] = []
    set_meta = "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"
    with contextlib.closing(connect_for_import(db_path)) as conn:
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA cache_size = -32000")
        cards: list[tuple[Any, ...]] = []
        names: list[tuple[str, str, int]] = []

        def flush() -> None:
            with conn:
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany(INSERT_CARD, cards)
                conn.executemany(INSERT_NAME, names)
                conn.execute(set_meta, ("bulk_partial", str(now)))
            if progress:
                progress(len(cards))
            cards.clear()
            names.clear()

        for obj, raw in iter_cards(path):
            if not is_card(obj):
                skipped += 1
                continue
            row, name_rows = card_rows(obj, "bulk", now, raw)
            if (found := disagreement(obj)) is not None:
                differ.append(found)
            cards.append(row)
            names.extend(name_rows)
            count += 1
            if len(cards) >= batch_size:
                flush()
        if cards:
            flush()
        if count == 0:
            raise BulkFormatError(f"{path} holds no card objects")
        published = updated_at if updated_at is not None else path.stat().st_mtime
        with conn:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(
                set_meta,
                [
                    ("bulk_updated_at", repr(float(published))),
                    ("bulk_imported_at", repr(float(now))),
                    ("bulk_cards", str(count)),
                    ("bulk_complete", "1"),
                    (META_KEY, json.dumps([astuple(d) for d in differ], ensure_ascii=False)),
                ],
            )
            conn.execute("DELETE FROM meta WHERE key = 'bulk_partial'")
            conn.execute("DELETE FROM negative")  # new cards may exist now
    return ImportResult(count, skipped, time.perf_counter() - started, tuple(differ))


async def sync_from_scryfall(
    client: ScryfallClient,
    db_path: Path | str,
    *,
    batch_size: int = DEFAULT_BATCH,
    download_progress: Callable[[int, int | None], None] | None = None,
    import_progress: Callable[[int], object] | None = None,
) -> ImportResult:
    """Download oracle_cards next to the cache and import it: in a child process, or with
    `import_progress` (a callback of this process) in a thread."""
    async with downloaded(client, "oracle_cards", db_path, download_progress) as (dest, updated_at):
        call = functools.partial(
            import_file, str(dest), str(db_path), batch_size=batch_size, updated_at=updated_at
        )
        if import_progress is None:
            return await in_child(call)
        return await asyncio.to_thread(call, progress=import_progress)


@contextlib.asynccontextmanager
async def downloaded(
    client: ScryfallClient,
    kind: str,
    db_path: Path | str,
    progress: Callable[[int, int | None], None] | None = None,
) -> AsyncIterator[tuple[Path, float]]:
    """Scryfall's `kind` bulk file downloaded next to the cache (deleted after), and when it was published."""
    entry = await client.bulk_entry(kind)
    dest = Path(db_path).with_name(f"{Path(db_path).name}.{kind.replace('_', '-')}.json")
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        size = await client.download(entry["download_uri"], dest, progress=progress)
        log.info("downloaded Scryfall %s (%d bytes)", kind, size)
        published = time.time()
        with contextlib.suppress(ValueError):  # Scryfall's ISO 8601 `updated_at`
            published = datetime.fromisoformat(str(entry.get("updated_at"))).timestamp()
        yield dest, published
    finally:
        dest.unlink(missing_ok=True)
