"""A second opinion on color identity: Scryfall's `color_identity` beside the engine's reading of the same card
object. The engine stays pure; the card layer compares the two on every card it reads (the bulk import, API
answers), counts the disagreements in `/metrics` (`identity_disagreements{source}`) and logs each card once.
Replies compare the identity they already worked out with the card's own `color_identity` (no re-analysis)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.identity import IdentityError, analyze
from bot.identity.model import WUBRG, Analysis, FitResult, FitVerdict, wubrg

if TYPE_CHECKING:  # the import child (`in_child`) never loads the metrics
    from bot.ops.metrics import BotMetrics

log = logging.getLogger(__name__)

META_KEY = "identity_disagreements"  # the import's list, in the cache's `meta` table (JSON)


def scryfall_identity(card: Mapping[str, Any]) -> str | None:
    """Scryfall's `color_identity` as a WUBRG string; None when the card object carries none (or nonsense)."""
    value = card.get("color_identity")
    if not isinstance(value, list) or not all(isinstance(c, str) and c in WUBRG for c in value):
        return None
    return wubrg("".join(value))


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A card whose identity read from its cost and text (`ours`) is not what Scryfall lists (`theirs`)."""

    name: str
    ours: str
    theirs: str


def differs(card: Mapping[str, Any], analysis: Analysis, chosen: str | None = None) -> Disagreement | None:
    """The disagreement when Scryfall's identity of a deck card is not the engine's `analysis.identity`; None
    when they agree, when Scryfall lists none, or for an object no deck holds (no identity verdict is made on
    it). `chosen`: the color chosen for a commander before the game (CR 903.4b), in `analysis` and not in
    Scryfall's answer."""
    theirs = scryfall_identity(card) if analysis.deck_card else None
    if theirs is not None and chosen:
        theirs = wubrg(theirs + chosen)
    if theirs is None or theirs == analysis.identity:
        return None
    return Disagreement(analysis.name or str(card.get("name", "")), analysis.identity, theirs)


def disagreement(card: Mapping[str, Any]) -> Disagreement | None:
    """The engine's reading of `card` against Scryfall's; None when they agree (or the engine can't read it)."""
    try:
        analysis = analyze(dict(card))
    except IdentityError:
        return None
    return differs(card, analysis)


def parse_stored(text: str | None) -> list[Disagreement]:
    """The import's list as the cache stores it (JSON `[[name, ours, theirs], ...]`); [] for anything else."""
    try:
        value = json.loads(text or "[]")
    except ValueError:
        value = None
    return [
        Disagreement(*item)
        for item in (value if isinstance(value, list) else ())
        if isinstance(item, list) and len(item) == 3 and all(isinstance(x, str) for x in item)
    ]


class SecondOpinion:
    """Counts the disagreements in `/metrics` and logs each card once per process (not once per request)."""

    def __init__(self, metrics: BotMetrics) -> None:
        self.metrics = metrics
        self._logged: set[str] = set()
        self._api: set[str] = set()
        metrics.set_identity_disagreements("bulk", 0)
        metrics.set_identity_disagreements("api", 0)

    def imported(self, found: Iterable[Disagreement]) -> None:
        """The disagreements of the local card data, when it is loaded (at start and after each import). The
        importer warned of them already (`sync-cards` prints them), so they are logged at INFO: a terminal
        command on the same data is not noisy."""
        found = list(found)
        self.metrics.set_identity_disagreements("bulk", len(found))
        self._log(found, "bulk data", logging.INFO)

    def fetched(self, cards: Iterable[Mapping[str, Any]]) -> None:
        """Cards Scryfall's API answered with."""
        found = [d for d in map(disagreement, cards) if d is not None]
        self._api.update(d.name for d in found)
        self.metrics.set_identity_disagreements("api", len(self._api))
        self._log(found, "Scryfall API", logging.WARNING)

    def _log(self, found: list[Disagreement], source: str, level: int) -> None:
        for d in found:
            if d.name not in self._logged:
                self._logged.add(d.name)
                ours, theirs = d.ours or "colorless", d.theirs or "colorless"
                text = "color identity differs (%s): %r reads %s from its cost and text, Scryfall lists %s"
                log.log(level, text, source, d.name, ours, theirs)


def fits_by_scryfall(
    result: FitResult, card: Mapping[str, Any], commanders: Sequence[Mapping[str, Any]]
) -> bool | None:
    """Whether the card would fit by the identities Scryfall lists (the engine's where Scryfall lists none);
    None when the verdict does not turn on identity alone (a deck that can't exist, a color to choose)."""
    if result.verdict not in (FitVerdict.FITS, FitVerdict.DOES_NOT_FIT):
        return None

    def listed(obj: Mapping[str, Any], analysis: Analysis) -> str:
        theirs = scryfall_identity(obj) if analysis.deck_card else None
        return analysis.identity if theirs is None else theirs

    deck = {c for c in result.chosen if c}
    for obj, analysis in zip(commanders, result.commanders, strict=False):
        deck.update(listed(obj, analysis))
    return set(listed(card, result.card)) <= deck
