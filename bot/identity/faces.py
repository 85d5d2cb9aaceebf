"""Reading the parts of a Scryfall card object (CR 709 split, 710 flip, 711/712 double-faced, 715 adventure).

`card_faces(card)` turns any dict into a tuple of `Face` records (name, mana cost, type line, rules text,
color indicator), tolerating missing or odd fields. It never looks at Scryfall's `colors` or
`color_identity` answers. `colors_from_front(card)` says whether the card's colors are its front face's
(transform, modal double-faced and other two-sided layouts, CR 712.8) or the union of its parts (split
cards CR 709.4, flip and adventure cards, where all parts share one card).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.identity.model import WUBRG

# Layouts whose faces are separate sides: the card's colors are the front face's (CR 712.8a/b).
SIDED_LAYOUTS = frozenset(
    {"transform", "modal_dfc", "double_faced_token", "reversible_card", "art_series", "battle", "meld"}
)
# Layouts whose colors come from the effect that makes them, not from the object itself (CR 111.3, 114).
TOKEN_LAYOUTS = frozenset({"token", "double_faced_token", "emblem"})
# Objects that are not Magic cards in a deck (CR 901 planes, 902 vanguards, 904 schemes, tokens, emblems).
NON_CARD_LAYOUTS = frozenset(
    {"token", "double_faced_token", "emblem", "vanguard", "planar", "scheme", "art_series"}
)


@dataclass(frozen=True, slots=True)
class Face:
    name: str
    mana_cost: str
    type_line: str
    oracle_text: str
    color_indicator: str  # WUBRG string


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def indicator(value: object) -> str:
    """A WUBRG string from a Scryfall `color_indicator` (list of letters); odd values give ""."""
    if not value:
        return ""
    if isinstance(value, str):
        value = list(value)
    if not isinstance(value, list | tuple):
        return ""
    found = {v for v in value if isinstance(v, str) and len(v) == 1 and v in WUBRG}
    return "".join(c for c in WUBRG if c in found)


def card_name(card: dict) -> str:
    name = _str(card.get("name"))
    if name:
        return name
    faces = card.get("card_faces")
    if isinstance(faces, list):
        names = [_str(f.get("name")) for f in faces if isinstance(f, dict)]
        return " // ".join(n for n in names if n)
    return ""


def card_faces(card: dict) -> tuple[Face, ...]:
    """The card's parts as `Face` records: its `card_faces`, or the card itself as one face."""
    faces = card.get("card_faces")
    name = card_name(card)
    if isinstance(faces, list) and faces:
        out = []
        for i, raw in enumerate(faces):
            if not isinstance(raw, dict):
                continue
            face_name = _str(raw.get("name")) or (name.split(" // ")[i] if i < name.count(" // ") + 1 else name)
            out.append(_face(raw, face_name))
        if out:
            top_indicator = indicator(card.get("color_indicator"))
            if top_indicator and not any(f.color_indicator for f in out):
                first = out[0]
                out[0] = Face(first.name, first.mana_cost, first.type_line, first.oracle_text, top_indicator)
            return tuple(out)
    return (_face(card, name),)


def _face(obj: dict, name: str) -> Face:
    """A Face from a card or card_face object (the same field names on both)."""
    return Face(name, _str(obj.get("mana_cost")), _str(obj.get("type_line")), _str(obj.get("oracle_text")),
                indicator(obj.get("color_indicator")))


def colors_from_front(card: dict, faces: tuple[Face, ...]) -> bool:
    """True when the card's colors are its front face's rather than the union of all its parts."""
    if len(faces) < 2:
        return False
    layout = card.get("layout")
    if isinstance(layout, str) and layout:
        return layout in SIDED_LAYOUTS
    # unknown layout: Scryfall gives two-sided cards no top-level mana cost
    return "mana_cost" not in card
