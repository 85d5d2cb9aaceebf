"""The cache's combos: `sync_variants` downloads Commander Spellbook's export and imports it in a child
(`bot.combos.load`); `ComboStore` finds a deck's combos (one indexed query); `ComboRefresh` downloads the export
on the bulk data's schedule (`BulkRefresher(also=...)`)."""

from __future__ import annotations

import functools
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

import aiohttp

from bot import BOT_NAME, __version__
from bot.cards.bulk import in_child
from bot.cards.cache import CardCache
from bot.cards.names import normalize
from bot.cards.scryfall import download_file
from bot.combos.load import MIN_VARIANTS, ComboDataError, ComboImport, import_variants
from bot.combos.model import COMBO, ComboFindings
from bot.settings import Settings

log = logging.getLogger(__name__)

CANDIDATES = "SELECT id, keys FROM combos WHERE anchor IN (SELECT value FROM json_each(?))"  # the index only
FACTS = "SELECT facts FROM combos WHERE id IN (SELECT value FROM json_each(?))"


async def sync_variants(
    session: aiohttp.ClientSession, settings: Settings, db_path: Path | str, *, least: int = MIN_VARIANTS
) -> ComboImport:
    """Download `variants.json` from SPELLBOOK_JSON_BASE (kept gzipped) beside the cache and import it in a
    child process. An answer other than 200, or a connection that fails: aiohttp's error."""
    dest = Path(db_path).with_suffix(".spellbook-variants.gz")
    agent = f"{BOT_NAME}/{__version__} (+{settings.decksite_contact})"
    headers = {"User-Agent": agent, "Accept": "application/json", "Accept-Encoding": "gzip"}
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=60)
    uri, ok = f"{settings.spellbook_json_base}/variants.json", aiohttp.ClientResponse.raise_for_status
    try:
        await download_file(session, uri, dest, ok, headers=headers, timeout=timeout, auto_decompress=False)
        import_ = functools.partial(import_variants, str(dest), str(db_path), least=least)
        return await in_child(import_, memory=1 << 30)  # the import needs 80 MB
    finally:
        dest.unlink(missing_ok=True)


class ComboStore:
    """The combos held in the file of `cache`."""

    def __init__(self, cache: CardCache) -> None:
        self.cache = cache
        self.imported_at: float | None = None  # of the combos held, as `held` last read it

    async def held(self) -> bool:
        """Whether the cache holds combos (False: never imported, or only refused or failed downloads)."""
        stamp = (await self.cache.get_metas(["combos_imported_at"])).get("combos_imported_at")
        self.imported_at = None if stamp is None else float(stamp)
        return stamp is not None

    async def find(self, names: Iterable[str], commanders: Iterable[str] = ()) -> ComboFindings:
        """Every combo whose every card is among `names` or `commanders` (Scryfall's full names, matched by
        their `normalize` key, never fuzzily), most popular first."""
        if not await self.held():
            return ComboFindings(checked=False)
        deck = {normalize(name) for name in chain(names, commanders)}
        rows = await self.cache.rows(CANDIDATES, [json.dumps(sorted(deck))])
        ids = json.dumps([combo_id for combo_id, keys in rows if deck.issuperset(keys.split("\n"))])
        found = [COMBO.validate_json(facts) for (facts,) in await self.cache.rows(FACTS, [ids])]
        found.sort(key=lambda combo: (-(combo.popularity or 0), combo.id))
        return ComboFindings(True, tuple(found), self.imported_at)


@dataclass
class ComboRefresh:
    """`sync()` (download and import the export) every `every_hours` (0: never), for the bulk refresher, which
    retries a failed download after 1, 2, 4, ... minutes. A refused export is logged and tried again a period
    later. The combos held stay in use."""

    store: ComboStore
    sync: Callable[[], Awaitable[ComboImport]]
    every_hours: float
    clock: Callable[[], float] = time.time
    refused_at: float = -math.inf

    def due_in(self) -> float:
        last = max(self.store.imported_at or -math.inf, self.refused_at)
        return max(0.0, last + self.every_hours * 3600 - self.clock()) if self.every_hours > 0 else math.inf

    async def refresh_due(self) -> ComboImport | None:  # an import by another process counts
        await self.store.held()
        return await self.refresh_now() if self.due_in() <= 0 else None

    async def refresh_now(self) -> ComboImport | None:
        """Download and import the export now; None when it was refused (logged)."""
        try:
            result = await self.sync()
        except ComboDataError as exc:
            self.refused_at = self.clock()
            log.error("Commander Spellbook's combo export refused, the combos held stay in use: %s", exc)
            return None
        await self.store.held()
        log.info("combos: imported %d Commander Spellbook variants in %.1f s", result.combos, result.seconds)
        return result
