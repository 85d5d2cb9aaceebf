"""Partner abilities (CR 702.124) as a storable summary (`PairingTraits`), and whether two cards pair. Each
pairs only with its own kind (702.124f), one at a time (702.124g): Partner both (702.124h); Partner—[text] the
same text, older Oracle text printing "Friends forever" alone (702.124i); Partner with each naming the other
(702.124j); Choose a Background with a legendary Background (702.124k); Doctor's companion with a legendary
Time Lord Doctor creature with no other creature types (702.124m)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.identity.faces import Face, card_faces, card_names, type_words
from bot.identity.model import PairingKind, PairingTrait, PairingTraits
from bot.identity.text import strip_reminder

_PARTNER_WITH_RE = re.compile(r"^partner with (.+?)\.?\s*$", re.IGNORECASE)
_PARTNER_TEXT_RE = re.compile(r"^partner\s*(?:\u2014|--|\u2013|-)\s*(.+?)\.?\s*$", re.IGNORECASE)
_FRIENDS_FOREVER = "Friends forever"
_KEYWORD_TRAITS = {  # keywords as `norm_text` gives them
    "partner": PairingTrait(PairingKind.PARTNER),
    "friends forever": PairingTrait(PairingKind.PARTNER_TEXT, _FRIENDS_FOREVER),
    "choose a background": PairingTrait(PairingKind.CHOOSE_BACKGROUND),
    "doctor's companion": PairingTrait(PairingKind.DOCTORS_COMPANION),
}


def norm_text(text: str) -> str:
    """A name or partner text as compared: curly apostrophes straight, spaces collapsed, case folded."""
    return " ".join(text.replace("\u2019", "'").split()).casefold()


def front_type(faces: tuple[Face, ...]) -> str:
    """The type line of the front face (CR 712.8a) or main part."""
    return faces[0].type_line.split(" // ")[0]


def is_background(type_line: str) -> bool:
    """A legendary Background enchantment card (CR 702.124k), from its (front face) type line."""
    words, subtypes = type_words(type_line)
    return "Legendary" in words and "Enchantment" in words and "Background" in subtypes


def ability_lines(faces: tuple[Face, ...]) -> list[str]:
    """Every rules-text line of every face, reminder text removed (CR 903.4c)."""
    bare = (strip_reminder(line).strip() for face in faces for line in face.oracle_text.split("\n"))
    return [line for line in bare if line]


def _line_traits(line: str) -> Iterable[PairingTrait]:
    # Keyword lines may list several keywords ("Flying, partner"); a "partner with" name may hold a comma.
    for part in [line] if "with" in line.lower() else [p.strip() for p in line.split(",")]:
        if (trait := _KEYWORD_TRAITS.get(norm_text(part).rstrip("."))) is not None:
            yield trait
        elif m := _PARTNER_WITH_RE.match(part):
            yield PairingTrait(PairingKind.PARTNER_WITH, m.group(1).strip())
        elif m := _PARTNER_TEXT_RE.match(part):
            variant = m.group(1).strip()
            same = norm_text(variant) == norm_text(_FRIENDS_FOREVER)
            yield PairingTrait(PairingKind.PARTNER_TEXT, _FRIENDS_FOREVER if same else variant)


def pairing_traits(card: dict) -> PairingTraits:
    """Partner abilities of every face (CR 702.124); whether the front is a Background or Time Lord Doctor."""
    faces = card_faces(card)
    traits = {trait for line in ability_lines(faces) for trait in _line_traits(line)}
    front = front_type(faces)
    words, subtypes = type_words(front)
    if is_background(front):
        traits.add(PairingTrait(PairingKind.BACKGROUND))
    if "Legendary" in words and "Creature" in words and sorted(subtypes) == ["Doctor", "Lord", "Time"]:
        traits.add(PairingTrait(PairingKind.TIME_LORD_DOCTOR))
    has_with = any(t.kind is PairingKind.PARTNER_WITH for t in traits)
    return PairingTraits(frozenset(traits), card_names(card, faces) if has_with else frozenset())


def _normed(texts: Iterable[str]) -> set[str]:
    return {norm_text(t) for t in texts}


def shared_pairings(a: PairingTraits, b: PairingTraits) -> tuple[PairingKind, ...]:
    """Every partner ability through which `a` and `b` pair (CR 702.124h-m), in the order of CR 702.124a."""
    K, ab = PairingKind, ((a, b), (b, a))
    pairs = {  # for the one-sided kinds, one card has the ability and the other is what it seeks
        K.PARTNER: a.has(K.PARTNER) and b.has(K.PARTNER),
        K.PARTNER_TEXT: _normed(a.texts(K.PARTNER_TEXT)) & _normed(b.texts(K.PARTNER_TEXT)),
        K.PARTNER_WITH: all(_normed(x.texts(K.PARTNER_WITH)) & _normed(y.names) for x, y in ab),
        K.CHOOSE_BACKGROUND: any(x.has(K.CHOOSE_BACKGROUND) and y.has(K.BACKGROUND) for x, y in ab),
        K.DOCTORS_COMPANION: any(x.has(K.DOCTORS_COMPANION) and y.has(K.TIME_LORD_DOCTOR) for x, y in ab),
    }
    return tuple(k for k, shared in pairs.items() if shared)


def can_pair(a: PairingTraits, b: PairingTraits) -> bool:
    """Whether two cards with these summaries share a partner ability that pairs them (CR 702.124)."""
    return bool(shared_pairings(a, b))
