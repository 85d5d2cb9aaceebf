"""Partner abilities (CR 702.124) as a pure, storable summary: which abilities let a card share the command
zone, and whether two such summaries pair.

CR 702.124a lists the partner abilities: partner, partner—[text], partner with [name], choose a Background,
and Doctor's companion. Each pairs only with its own kind (702.124f: different partner abilities can't be
combined); a card with more than one may use either, but not both (702.124g):

- Partner (702.124h): both cards have partner.
- Partner—[text] (702.124i): both have the same partner—[text] (Friends forever, Survivors, Father & son,
  Character select, ...). Older Oracle text prints "Friends forever" without "Partner—"; it is the same ability.
- Partner with [name] (702.124j): each names the other.
- Choose a Background (702.124k): the other card is a legendary Background enchantment card.
- Doctor's companion (702.124m): the other card is a legendary Time Lord Doctor creature card that has no
  other creature types.

`pairing_traits(card) -> PairingTraits` (the storable summary, defined in `model`) reads them off the card
(front face type line, rules text without reminder text); `can_pair(a, b)` says whether two summaries share
one pairing. Eligibility (CR 903.3) and "the same card twice" are `check_pairing`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.identity.faces import Face, card_faces, card_names, type_words
from bot.identity.model import PairingKind, PairingTrait, PairingTraits
from bot.identity.text import strip_reminder

_PARTNER_WITH_RE = re.compile(r"^partner with (.+?)\.?\s*$", re.IGNORECASE)
_PARTNER_TEXT_RE = re.compile(r"^partner\s*(?:\u2014|--|\u2013|-)\s*(.+?)\.?\s*$", re.IGNORECASE)
_FRIENDS_FOREVER = "Friends forever"
_COMPANION_WORDS = frozenset({"doctor\u2019s companion", "doctor's companion"})


def norm_text(text: str) -> str:
    """A name or partner text as compared: curly apostrophes straight, spaces collapsed, case folded."""
    return " ".join(text.replace("\u2019", "'").split()).casefold()


def front_type_words(faces: tuple[Face, ...]) -> tuple[str, list[str], list[str]]:
    """(front type line, its supertypes and types, its subtypes): the front face's (CR 712.8a) or the main
    part's, from the card's `card_faces(card)`."""
    front_type = faces[0].type_line.split(" // ")[0] if faces else ""
    words, subtypes = type_words(front_type)
    return front_type, words, subtypes


def is_background(type_line: str) -> bool:
    """A legendary Background enchantment card (CR 702.124k), from its (front face) type line."""
    words, subtypes = type_words(type_line)
    return "Legendary" in words and "Enchantment" in words and "Background" in subtypes


def is_time_lord_doctor(type_line: str) -> bool:
    """A legendary Time Lord Doctor creature card that has no other creature types (CR 702.124m).
    "Time Lord" is one creature type of two words."""
    words, subtypes = type_words(type_line)
    if "Legendary" not in words or "Creature" not in words:
        return False
    return sorted(subtypes) == ["Doctor", "Lord", "Time"]


def ability_lines(card: dict, faces: tuple[Face, ...] | None = None) -> list[str]:
    """Every rules-text line of every face, reminder text removed (CR 702.124 abilities are keyword-like).
    `faces`: the card's `card_faces(card)` when the caller has them already."""
    lines = []
    for face in card_faces(card) if faces is None else faces:
        for line in face.oracle_text.split("\n"):
            bare = strip_reminder(line).strip()
            if bare:
                lines.append(bare)
    return lines


def _line_traits(line: str) -> Iterable[PairingTrait]:
    # Keyword lines may list several keywords ("Flying, partner"); a "partner with" name may hold a comma.
    parts = [line] if "with" in line.lower() else [p.strip() for p in line.split(",")]
    for part in parts:
        low = norm_text(part).rstrip(".")
        if low == "partner":
            yield PairingTrait(PairingKind.PARTNER)
        elif low == norm_text(_FRIENDS_FOREVER):
            yield PairingTrait(PairingKind.PARTNER_TEXT, _FRIENDS_FOREVER)
        elif low == "choose a background":
            yield PairingTrait(PairingKind.CHOOSE_BACKGROUND)
        elif low in _COMPANION_WORDS:
            yield PairingTrait(PairingKind.DOCTORS_COMPANION)
        else:
            m = _PARTNER_WITH_RE.match(part)
            if m:
                yield PairingTrait(PairingKind.PARTNER_WITH, m.group(1).strip())
                continue
            m = _PARTNER_TEXT_RE.match(part)
            if m:
                variant = m.group(1).strip()
                if norm_text(variant) == norm_text(_FRIENDS_FOREVER):
                    variant = _FRIENDS_FOREVER
                yield PairingTrait(PairingKind.PARTNER_TEXT, variant)


def pairing_traits(card: dict) -> PairingTraits:
    """The card's pairing summary (CR 702.124): its partner abilities from the rules text of every face,
    and whether its front face is a legendary Background enchantment or a lone Time Lord Doctor."""
    faces = card_faces(card)
    traits: set[PairingTrait] = set()
    for line in ability_lines(card, faces):
        traits.update(_line_traits(line))
    front_type = front_type_words(faces)[0]
    if is_background(front_type):
        traits.add(PairingTrait(PairingKind.BACKGROUND))
    if is_time_lord_doctor(front_type):
        traits.add(PairingTrait(PairingKind.TIME_LORD_DOCTOR))
    has_with = any(t.kind is PairingKind.PARTNER_WITH for t in traits)
    return PairingTraits(frozenset(traits), card_names(card, faces) if has_with else frozenset())


def _names_either(names: frozenset[str], wanted: tuple[str, ...]) -> bool:
    have = {norm_text(n) for n in names}
    return any(norm_text(w) in have for w in wanted)


def shared_pairings(a: PairingTraits, b: PairingTraits) -> tuple[PairingKind, ...]:
    """Every partner ability through which `a` and `b` pair (CR 702.124h-m), in the order of CR 702.124a.
    For the one-sided kinds the value names the ability (CHOOSE_BACKGROUND, DOCTORS_COMPANION)."""
    out: list[PairingKind] = []
    if a.has(PairingKind.PARTNER) and b.has(PairingKind.PARTNER):
        out.append(PairingKind.PARTNER)
    a_texts = {norm_text(t) for t in a.texts(PairingKind.PARTNER_TEXT)}
    if a_texts & {norm_text(t) for t in b.texts(PairingKind.PARTNER_TEXT)}:
        out.append(PairingKind.PARTNER_TEXT)
    a_with, b_with = a.texts(PairingKind.PARTNER_WITH), b.texts(PairingKind.PARTNER_WITH)
    if a_with and b_with and _names_either(b.names, a_with) and _names_either(a.names, b_with):
        out.append(PairingKind.PARTNER_WITH)
    if (a.has(PairingKind.CHOOSE_BACKGROUND) and b.has(PairingKind.BACKGROUND)) or (
        b.has(PairingKind.CHOOSE_BACKGROUND) and a.has(PairingKind.BACKGROUND)
    ):
        out.append(PairingKind.CHOOSE_BACKGROUND)
    if (a.has(PairingKind.DOCTORS_COMPANION) and b.has(PairingKind.TIME_LORD_DOCTOR)) or (
        b.has(PairingKind.DOCTORS_COMPANION) and a.has(PairingKind.TIME_LORD_DOCTOR)
    ):
        out.append(PairingKind.DOCTORS_COMPANION)
    return tuple(out)


def can_pair(a: PairingTraits, b: PairingTraits) -> bool:
    """Whether two cards with these summaries share a partner ability that pairs them (CR 702.124)."""
    return bool(shared_pairings(a, b))
