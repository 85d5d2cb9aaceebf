"""The parts of a Scryfall card object (CR 709, 710, 712, 715, 720, 722): `card_faces` tolerates odd fields
and never reads `colors`/`color_identity`; `face_roles` says which parts give colors; `non_deck_kind` what a
non-deck object is."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bot.identity.model import FaceRole, IdentityError, NonDeckKind
from bot.identity.symbols import wubrg

# Layouts whose faces are separate sides: the card's colors are the front face's (CR 712.8a/b).
SIDED_LAYOUTS = frozenset(
    {"transform", "modal_dfc", "double_faced_token", "reversible_card", "art_series", "battle", "meld"}
)
TOKEN_LAYOUTS = frozenset({"token", "double_faced_token", "emblem"})  # colored by their maker (CR 111.3, 114)
# A second part used only on the stack (CR 715.4, 720, 722.4): colors are the main part's, identity both's.
ALTERNATIVE_PART_LAYOUTS = frozenset({"adventure", "omen", "prepare", "preparation"})
_LAYOUT_KINDS = {
    "token": NonDeckKind.TOKEN,
    "double_faced_token": NonDeckKind.TOKEN,
    "vanguard": NonDeckKind.VANGUARD,
    "planar": NonDeckKind.PLANE,
    "scheme": NonDeckKind.SCHEME,
    "art_series": NonDeckKind.ART_CARD,
    "front_card": NonDeckKind.FRONT_CARD,
}
_MELD_WORD_RE = re.compile(r"\bmeld", re.IGNORECASE)


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
    return wubrg([v for v in value if isinstance(v, str)]) if isinstance(value, list | tuple | str) else ""


def card_name(card: dict) -> str:
    """The card's name; for an object without one, its faces' names joined by " // "."""
    name = _str(card.get("name"))
    faces = card.get("card_faces")
    if name or not isinstance(faces, list):
        return name
    return " // ".join(filter(None, (_str(face.get("name")) for face in faces if isinstance(face, dict))))


def card_faces(card: dict) -> tuple[Face, ...]:
    """Its `card_faces`, or the card itself as one face; `IdentityError` for a `card` that is not a dict."""
    if not isinstance(card, dict):
        raise IdentityError(f"expected a Scryfall card object (dict), got {type(card).__name__}")
    faces = card.get("card_faces")
    name = card_name(card)
    if isinstance(faces, list):
        parts = name.split(" // ")  # a face without a name of its own takes its part of the card's name
        out = [
            _face(raw, _str(raw.get("name")) or (parts[i] if i < len(parts) else name))
            for i, raw in enumerate(faces)
            if isinstance(raw, dict)
        ]
        if out:
            if (top := indicator(card.get("color_indicator"))) and not any(f.color_indicator for f in out):
                out[0] = replace(out[0], color_indicator=top)
            return tuple(out)
    return (_face(card, name),)


def _face(obj: dict, name: str) -> Face:
    """A Face from a card or card_face object (the same field names on both)."""
    cost, type_line, text = (_str(obj.get(key)) for key in ("mana_cost", "type_line", "oracle_text"))
    return Face(name, cost, type_line, text, indicator(obj.get("color_indicator")))


def card_names(card: dict, faces: tuple[Face, ...]) -> frozenset[str]:
    """Every name the card answers to: its full name, each face's name, each part of its name."""
    name = card_name(card)
    names = {name, *(face.name for face in faces), *(part.strip() for part in name.split(" // "))}
    return frozenset(names - {""})


def type_words(type_line: str) -> tuple[list[str], list[str]]:
    """(supertypes and card types, subtypes) of a type line: the words before and after its dash (CR 205)."""
    left, dash, right = type_line.partition("\u2014")
    return left.split(), right.split() if dash else []


def face_roles(card: dict, faces: tuple[Face, ...]) -> list[FaceRole]:
    """Each part's role: which parts give the card its colors (CR 709.4, 710, 712.8a, 715.4, 720, 722.4)."""
    if len(faces) < 2:
        return [FaceRole.ONLY] * len(faces)
    layout = _str(card.get("layout"))
    # two-sided (CR 712.8a); without a layout, Scryfall gives those no top-level mana cost
    two_sided = layout in SIDED_LAYOUTS if layout else "mana_cost" not in card
    if two_sided:
        return [FaceRole.FRONT] + [FaceRole.BACK] * (len(faces) - 1)
    if layout in ALTERNATIVE_PART_LAYOUTS:
        return [FaceRole.MAIN] + [FaceRole.ALTERNATIVE] * (len(faces) - 1)
    # any other layout: every part gives colors, except parts printed as an Adventure or Omen spell
    subtypes = [type_words(face.type_line.split("//")[0])[1] for face in faces]
    alternative = [i > 0 and not {"Adventure", "Omen"}.isdisjoint(sub) for i, sub in enumerate(subtypes)]
    part = FaceRole.MAIN if any(alternative) else FaceRole.HALF
    return [FaceRole.ALTERNATIVE if alt else part for alt in alternative]


def _is_meld_result(card: dict) -> bool:
    """A meld result (CR 712): `all_parts` says so; without it, no mana cost and no word of melding."""
    if card.get("layout") != "meld":
        return False
    if isinstance(parts := card.get("all_parts"), list) and parts:
        result = next((p for p in parts if isinstance(p, dict) and p.get("component") == "meld_result"), None)
        return result is not None and _str(result.get("name")) == card_name(card)
    return not _str(card.get("mana_cost")) and not _MELD_WORD_RE.search(_str(card.get("oracle_text")))


def non_deck_kind(card: dict, faces: tuple[Face, ...]) -> NonDeckKind | None:
    """What kind of object this is when it is not a card you put in a deck, else None."""
    layout = _str(card.get("layout"))
    front_type = faces[0].type_line
    if layout == "emblem" or front_type.startswith("Emblem"):
        return NonDeckKind.EMBLEM
    if layout in ("art_series", "front_card"):
        return _LAYOUT_KINDS[layout]
    if all(part.strip() == "Card" for face in faces for part in face.type_line.split("//")):
        return NonDeckKind.CHECKLIST  # checklists, substitute cards, helper cards, inserts
    if layout in _LAYOUT_KINDS:
        return _LAYOUT_KINDS[layout]
    if front_type.split(" ", 1)[0] == "Token":
        return NonDeckKind.TOKEN
    if front_type.split("\u2014")[0].split() == ["Dungeon"]:
        return NonDeckKind.DUNGEON
    if _is_meld_result(card):
        return NonDeckKind.MELD_RESULT
    return None
