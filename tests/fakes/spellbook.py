"""A fake Commander Spellbook JSON host (json.commanderspellbook.com) on 127.0.0.1, and variants in the real
shape of its bulk export.

    async with FakeSpellbook(export([variant(["Thassa's Oracle", "Demonic Consultation"], ["Win the game"])]))
        as fake:   # settings: spellbook_json_base=fake.base_url
        ...
        assert fake.count() == 1

`/variants.json` is served gzip-encoded (`Content-Encoding: gzip`), as the real host serves it. Knobs: `mode =
"down"` (every request answers 500), `truncated` (the gzipped body cut in half, as a partial upload or a cut
transfer leaves it), `malformed` (a body that is not JSON), `delay` (seconds before answering). Every request
is recorded in `requests` (path, headers).

The shape is `backend/spellbook/serializers/variant_serializer.py` and `tasks/export_variants.py` of
SpaceCowMedia/commander-spellbook-backend (see tests/data/spellbook/README.md): `{"timestamp", "version",
"variants": [...], "aliases": [...]}`, each variant with every field the serializer writes, camelCased.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.server import serve

LEGALITIES = (
    "commander",
    "pauperCommanderMain",
    "pauperCommander",
    "oathbreaker",
    "predh",
    "standardBrawl",
    "brawl",
    "competitiveBrawl",
    "alchemy",
    "vintage",
    "legacy",
    "premodern",
    "modern",
    "pioneer",
    "standard",
    "pauper",
)
IMAGE_SIZES = ("Png", "Large", "Normal", "Small", "ArtCrop")
FEATURE_IDS: dict[str, int] = {}
CARD_IDS: dict[str, int] = {}


def _card(name: str) -> dict[str, Any]:
    card_id = CARD_IDS.setdefault(name, len(CARD_IDS) + 1)
    image = (
        f"https://cards.scryfall.io/{{}}/front/0/0/{card_id:08d}-0000-0000-0000-000000000000.jpg?1700000000"
    )
    return {
        "id": card_id,
        "name": name,
        "oracleId": f"{card_id:08d}-0000-4000-8000-000000000000",
        "spoiler": False,
        "faces": name.count(" // ") + 1,
        "typeLine": "Creature — Human Wizard",
        **{f"imageUriFront{size}": image.format(size.lower()) for size in IMAGE_SIZES},
        "layoutRotationFront": 0,
        **{f"imageUriBack{size}": None for size in IMAGE_SIZES},
    }


def _states(zones: str) -> dict[str, Any]:
    return {
        "zoneLocations": list(zones),
        "battlefieldCardState": "untapped" if "B" in zones else "",
        "exileCardState": "",
        "libraryCardState": "",
        "graveyardCardState": "",
    }


def use(name: str, zones: str = "B", *, must_be_commander: bool = False, quantity: int = 1) -> dict[str, Any]:
    """A card a variant uses (`zones`: Spellbook's letters, H hand, B battlefield, C command zone, E exile,
    G graveyard, L library)."""
    return {
        "card": _card(name),
        **_states(zones),
        "mustBeCommander": must_be_commander,
        "quantity": quantity,
        "usedFace": None,
    }


def template(name: str, zones: str = "B", *, must_be_commander: bool = False) -> dict[str, Any]:
    """A template a variant requires ("A creature token", "Any instant", ...)."""
    return {
        "template": {"id": len(name), "name": name, "scryfallQuery": "t:creature", "scryfallApi": None},
        **_states(zones),
        "mustBeCommander": must_be_commander,
        "quantity": 1,
    }


def variant(
    cards: Sequence[str | dict[str, Any]],
    features: Sequence[str | tuple[str, str]],
    *,
    requires: Sequence[dict[str, Any]] = (),
    mana: str = "{U}{U}{B}",
    mana_value: int | None = 3,
    notable: str = "",
    identity: str = "UB",
    bracket_tag: str | None = "R",
    popularity: int | None = 1000,
    status: str = "OK",
    variant_id: str | None = None,
) -> dict[str, Any]:
    """One variant as the export writes it; `cards` are names (started on the battlefield) or `use(...)`,
    `features` names (status "S", standalone) or (name, status)."""
    uses = [use(c) if isinstance(c, str) else c for c in cards]
    ids = sorted(u["card"]["id"] for u in uses)
    produces = [(f, "S") if isinstance(f, str) else f for f in features]
    return {
        "id": variant_id or "-".join(map(str, ids)) + "".join(f"--{t['template']['id']}" for t in requires),
        "status": status,
        "uses": uses,
        "requires": list(requires),
        "produces": [
            {
                "feature": {
                    "id": FEATURE_IDS.setdefault(name, len(FEATURE_IDS) + 1),
                    "name": name,
                    "uncountable": False,
                    "status": feature_status,
                },
                "quantity": 1,
            }
            for name, feature_status in produces
        ],
        "of": [{"id": ids[0]}],
        "includes": [{"id": ids[0]}],
        "identity": identity,
        "manaNeeded": mana,
        "manaValueNeeded": mana_value,
        "easyPrerequisites": "All permanents on the battlefield.",
        "notablePrerequisites": notable,
        "description": "\n".join(f"Activate {u['card']['name']}." for u in uses),
        "notes": "",
        "popularity": popularity,
        "spoiler": False,
        "bracketTag": bracket_tag,
        "legalities": {name: True for name in LEGALITIES},
        "prices": {"tcgplayer": "12.34", "cardkingdom": "11.99", "cardmarket": "10.50"},
        "variantCount": 1,
    }


def export(variants: Sequence[dict[str, Any]], aliases: Sequence[dict[str, Any]] = ()) -> bytes:
    """The export document, written as the backend's `build_document` writes it."""
    return (
        b'{"timestamp": "2026-11-20T09:00:00.000000+00:00", "version": "6.4.0", "variants": '
        + json.dumps(list(variants)).encode()
        + b', "aliases": '
        + json.dumps(list(aliases)).encode()
        + b"}"
    )


def generated(count: int, names: Sequence[str], *, seed: int = 7) -> list[dict[str, Any]]:
    """`count` variants of 2 to 5 cards out of `names` (about as many of each size as Spellbook holds), of
    unique ids, in the real shape."""
    rng = random.Random(seed)
    out: dict[str, dict[str, Any]] = {}
    features = ["Infinite ETB", "Infinite LTB", "Infinite mana", "Win the game", "Infinite damage"]
    while len(out) < count:
        size = rng.choices((2, 3, 4, 5), weights=(5, 47, 41, 7))[0]
        cards = rng.sample(names, size)
        made = rng.sample(features, rng.randint(1, 3))
        found = variant(cards, made, mana_value=rng.randint(0, 10), popularity=rng.randint(0, 100_000))
        out.setdefault(found["id"], found)
    return list(out.values())


@dataclass
class Recorded:
    path: str
    headers: dict[str, str] = field(default_factory=dict)


class FakeSpellbook:
    """Serve `document` (an export, JSON bytes) at /variants.json, gzip-encoded."""

    def __init__(self, document: bytes = b"", *, host: str = "127.0.0.1") -> None:
        self.host = host
        self.requests: list[Recorded] = []
        self.mode = "ok"
        self.truncated = False
        self.malformed = False
        self.delay = 0.0
        self.base_url = ""
        self._runner: web.AppRunner | None = None
        self.serve(document)

    def serve(self, document: bytes) -> None:
        """Serve this export (JSON bytes) from now on."""
        self.serve_gzipped(gzip.compress(document, compresslevel=1))

    def serve_gzipped(self, gzipped: bytes) -> None:
        """Serve this gzipped export from now on."""
        self._gzipped = gzipped

    def count(self) -> int:
        return len(self.requests)

    async def __aenter__(self) -> FakeSpellbook:
        self._closing = asyncio.Event()
        app = web.Application()
        app.router.add_get("/variants.json", self._variants)
        self._runner, self.base_url = await serve(app, self.host)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            self._closing.set()
            await self._runner.cleanup()
            self._runner = None

    async def _variants(self, request: web.Request) -> web.Response:
        self.requests.append(Recorded(request.path, dict(request.headers)))
        if self.delay:
            with contextlib.suppress(TimeoutError):  # a slow answer, cut short when the fake shuts down
                await asyncio.wait_for(self._closing.wait(), self.delay)
        if self.mode == "down":
            return web.Response(status=500, text="Internal Server Error")
        body = self._gzipped
        if self.malformed:
            body = gzip.compress(b'{"timestamp": "2026-11-20", "variants": [{"id": "1-2", "uses": [}')
        elif self.truncated:
            body = body[: len(body) // 2]
        headers = {"Content-Encoding": "gzip", "Content-Type": "application/json"}
        return web.Response(body=body, headers=headers)
