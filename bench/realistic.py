"""Card data of Scryfall's real size for benchmarks: about 36,000 oracle cards, about 160 MB of JSON.

`scryfall_size_cards(n)` returns the shared data set's 24,249 real card objects plus synthetic ones up to
`n` (copies of real cards under new names and ids, e.g. "Lightning Bolt Variant 3"), every object carrying
the fields a real `oracle_cards` object has and this data set dropped (all legalities, image and purchase
URIs, prices, rulings and set URIs, artist, frame and print flags, ...), so the file has the real size and
shape: the importer parses, and the cache stores, as much as in production. Deterministic.
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import sys
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.shared_data import all_cards  # noqa: E402

SCRYFALL_CARDS = 36_000  # oracle_cards in 2026
SCRYFALL_BYTES = 160_000_000  # its uncompressed size
FORMATS = (
    "standard",
    "future",
    "historic",
    "timeless",
    "gladiator",
    "pioneer",
    "explorer",
    "modern",
    "legacy",
    "pauper",
    "vintage",
    "penny",
    "commander",
    "oathbreaker",
    "standardbrawl",
    "brawl",
    "alchemy",
    "paupercommander",
    "duel",
    "oldschool",
    "premodern",
    "predh",
)
NAMESPACE = uuid.UUID("6f0f6a52-1a2b-4c3d-8e9f-0a1b2c3d4e5f")


def _uri(kind: str, key: str) -> str:
    return f"https://cards.scryfall.io/{kind}/front/{key[0]}/{key[1]}/{key}.jpg?1562925340"


def padded(card: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """`card` with the fields of a real Scryfall oracle card object that the shared data set left out."""
    out = copy.deepcopy(card)
    key = str(out.get("id") or uuid.uuid5(NAMESPACE, out["name"]))
    legal = (out.get("legalities") or {}).get("commander", "legal")
    out["legalities"] = {
        f: (legal if f == "commander" else rng.choice(("legal", "not_legal"))) for f in FORMATS
    }
    out["image_uris"] = {
        size: _uri(size, key) for size in ("small", "normal", "large", "png", "art_crop", "border_crop")
    }
    slug = out["name"].lower().replace(" ", "-")
    out["uri"] = f"https://api.scryfall.com/cards/{key}"
    out["scryfall_uri"] = out.get("scryfall_uri") or f"https://scryfall.com/card/xyz/1/{slug}?utm_source=api"
    out["rulings_uri"] = f"https://api.scryfall.com/cards/{key}/rulings"
    out["prints_search_uri"] = (
        "https://api.scryfall.com/cards/search?order=released&q=oracleid%3A"
        f"{out.get('oracle_id', key)}&unique=prints"
    )
    out["set_uri"] = f"https://api.scryfall.com/sets/{uuid.uuid5(NAMESPACE, str(out.get('set')))}"
    out["set_search_uri"] = (
        f"https://api.scryfall.com/cards/search?order=set&q=e%3A{out.get('set')}&unique=prints"
    )
    out["scryfall_set_uri"] = f"https://scryfall.com/sets/{out.get('set')}?utm_source=api"
    out["related_uris"] = {
        "gatherer": f"https://gatherer.wizards.com/Pages/Card/Details.aspx?multiverseid={rng.randrange(10**6)}",
        "tcgplayer_infinite_articles": f"https://tcgplayer.pxf.io/c/4931599/1830156/21018?subId1=api&trafcat=infinite&u=https%3A%2F%2Finfinite.tcgplayer.com%2Fsearch%3FcontentMode%3Darticle%26game%3Dmagic%26partner%3Dscryfall%26q%3D{slug}",
        "tcgplayer_infinite_decks": f"https://tcgplayer.pxf.io/c/4931599/1830156/21018?subId1=api&trafcat=infinite&u=https%3A%2F%2Finfinite.tcgplayer.com%2Fsearch%3FcontentMode%3Ddeck%26game%3Dmagic%26partner%3Dscryfall%26q%3D{slug}",
        "edhrec": f"https://edhrec.com/route/?cc={slug}",
    }
    out["purchase_uris"] = {
        "tcgplayer": f"https://tcgplayer.pxf.io/c/4931599/1830156/21018?subId1=api&u=https%3A%2F%2Fwww.tcgplayer.com%2Fproduct%2F{rng.randrange(10**6)}%3Fpage%3D1",
        "cardmarket": f"https://www.cardmarket.com/en/Magic/Products/Search?referrer=scryfall&searchString={slug}&utm_campaign=card_prices&utm_medium=text&utm_source=scryfall",
        "cardhoarder": f"https://www.cardhoarder.com/cards/{rng.randrange(10**5)}?affiliate_id=scryfall&ref=card-profile&utm_campaign=affiliate&utm_medium=card&utm_source=scryfall",
    }
    out["prices"] = {
        "usd": f"{rng.random() * 20:.2f}",
        "usd_foil": f"{rng.random() * 40:.2f}",
        "usd_etched": None,
        "eur": f"{rng.random() * 20:.2f}",
        "eur_foil": None,
        "tix": f"{rng.random():.2f}",
    }
    out.update(
        {
            "multiverse_ids": [rng.randrange(10**6)],
            "mtgo_id": rng.randrange(10**5),
            "arena_id": rng.randrange(10**5),
            "tcgplayer_id": rng.randrange(10**6),
            "cardmarket_id": rng.randrange(10**6),
            "reserved": False,
            "foil": True,
            "nonfoil": True,
            "finishes": ["nonfoil", "foil"],
            "oversized": False,
            "promo": False,
            "reprint": True,
            "variation": False,
            "set_id": str(uuid.uuid5(NAMESPACE, str(out.get("set")))),
            "set_type": "expansion",
            "collector_number": str(rng.randrange(1, 400)),
            "digital": False,
            "rarity": rng.choice(("common", "uncommon", "rare", "mythic")),
            "card_back_id": str(uuid.uuid5(NAMESPACE, "back")),
            "artist": "Some Artist",
            "artist_ids": [str(uuid.uuid5(NAMESPACE, "artist"))],
            "illustration_id": str(uuid.uuid5(NAMESPACE, key)),
            "border_color": "black",
            "frame": "2015",
            "full_art": False,
            "textless": False,
            "booster": True,
            "story_spotlight": False,
            "penny_rank": rng.randrange(1, 20000),
            "highres_image": True,
            "image_status": "highres_scan",
            "lang": "en",
            "games": out.get("games") or ["paper", "mtgo", "arena"],
            "flavor_text": "The shape of a real card object is most of its size; the rules text is a small part.",
        }
    )
    return out


def scryfall_size_cards(n: int = SCRYFALL_CARDS, seed: int = 7) -> list[dict[str, Any]]:
    """`n` card objects shaped and sized like Scryfall's oracle_cards (the real 24,249 first)."""
    rng = random.Random(seed)
    real = list(all_cards())
    cards = [padded(c, rng) for c in real]
    variant = 0
    while len(cards) < n:
        variant += 1
        for base in real:
            if len(cards) >= n:
                break
            if base.get("card_faces"):
                continue  # a renamed multi-face card would need every face renamed
            name = f"{base['name']} Variant {variant}"
            clone = dict(
                base,
                name=name,
                id=str(uuid.uuid5(NAMESPACE, name)),
                oracle_id=str(uuid.uuid5(NAMESPACE, "oracle " + name)),
            )
            clone.pop("edhrec_rank", None)
            cards.append(padded(clone, rng))
    return cards


def bulk_file(cards: list[dict[str, Any]]) -> tuple[bytes, bytes]:
    """The oracle_cards file for `cards`, as Scryfall ships it (a JSON array), and its gzip."""
    raw = ("[\n" + ",\n".join(json.dumps(c, separators=(",", ":")) for c in cards) + "\n]").encode()
    return raw, gzip.compress(raw, compresslevel=6)


if __name__ == "__main__":
    made = scryfall_size_cards()
    data, packed = bulk_file(made)
    print(
        f"{len(made):,} cards, {len(data) / 1e6:.0f} MB JSON, {len(packed) / 1e6:.0f} MB gzipped "
        f"(Scryfall's oracle_cards: about {SCRYFALL_CARDS:,} cards, {SCRYFALL_BYTES / 1e6:.0f} MB)"
    )
