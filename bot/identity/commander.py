"""Who may be a commander, and which two may lead a deck together (CR 903.3, 903.3a, 702.124). CR 903.3 (as
amended with Edge of Eternities): a legendary creature, Vehicle, or Spacecraft with a power/toughness box,
read from the front face (712.8a); a legendary card that is a creature off the battlefield (Grist), or whose
text says it "can be your commander" (903.3a). A Background leads only beside a "Choose a Background"
commander (702.124k). The ban list is `Verdict.banned`, not eligibility."""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.identity.faces import card_faces, card_name, non_deck_kind, type_words
from bot.identity.model import IdentityError, PairingKind, PairingTraits, Verdict, VerdictCode
from bot.identity.pairing import (
    ability_lines,
    front_type,
    is_background,
    norm_text,
    pairing_traits,
    shared_pairings,
)

_ELIGIBLE = {
    VerdictCode.LEGENDARY_CREATURE,
    VerdictCode.SAYS_IT_CAN,
    VerdictCode.CREATURE_OFF_BATTLEFIELD,
    VerdictCode.LEGENDARY_VEHICLE,
    VerdictCode.LEGENDARY_SPACECRAFT,
}
_CAN_BE_COMMANDER_RE = re.compile(r"\bcan be your commander\b", re.IGNORECASE)
_CREATURE_OFF_BATTLEFIELD_RE = re.compile(
    r"isn\u2019?'?t on the battlefield, (?:it\u2019?'?s|it is) an? [^.]*\bcreature\b", re.IGNORECASE
)
_STATION_CREATURE_RE = re.compile(r"\bIt[\u2019']s an? (?:artifact )?creature at \d+\+", re.IGNORECASE)
_PRINTED_BOX_RE = re.compile(r"(?:^|\|\s*|,\s*)\d+/\d+\s*$")


def has_power_toughness_box(card: dict) -> bool:
    """Whether the front face has a power/toughness box (CR 208.1): `power`/`toughness`, else station text."""
    faces = card.get("card_faces")
    front = faces[0] if isinstance(faces, list) and faces and isinstance(faces[0], dict) else card
    if any(all(obj.get(k) not in (None, "") for k in ("power", "toughness")) for obj in (front, card)):
        return True
    text = raw if isinstance(raw := front.get("oracle_text"), str) else ""
    return bool(_STATION_CREATURE_RE.search(text) or any(map(_PRINTED_BOX_RE.search, text.split("\n"))))


def is_banned(card: object) -> bool:
    """Whether Scryfall lists `card` as banned in Commander; False for anything but a card object."""
    if not isinstance(card, Mapping):
        return False
    legalities = card.get("legalities")
    return isinstance(legalities, Mapping) and legalities.get("commander") == "banned"


def commander_eligibility(card: dict) -> Verdict:
    """Whether `card` can be your commander (CR 903.3, 903.3a), with the reason as a `VerdictCode`."""
    faces = card_faces(card)
    name = card_name(card)
    if (kind := non_deck_kind(card, faces)) is not None:
        return Verdict(False, VerdictCode.NOT_A_DECK_CARD, name, not_deck_card=kind)
    front = front_type(faces)
    front_words, subtypes = type_words(front)
    legendary, creature = "Legendary" in front_words, "Creature" in front_words
    lines = ability_lines(faces)
    if legendary and creature:
        code = VerdictCode.LEGENDARY_CREATURE
    elif any(_CAN_BE_COMMANDER_RE.search(line) for line in lines):
        code = VerdictCode.SAYS_IT_CAN
    elif legendary and any(_CREATURE_OFF_BATTLEFIELD_RE.search(line) for line in lines):
        code = VerdictCode.CREATURE_OFF_BATTLEFIELD
    elif legendary and "Vehicle" in subtypes:
        code = VerdictCode.LEGENDARY_VEHICLE
    elif legendary and "Spacecraft" in subtypes:
        box = has_power_toughness_box(card)
        code = VerdictCode.LEGENDARY_SPACECRAFT if box else VerdictCode.SPACECRAFT_WITHOUT_BOX
    elif legendary and is_background(front):
        code = VerdictCode.BACKGROUND_ALONE
    elif legendary:
        code = VerdictCode.LEGENDARY_NOT_CREATURE
    elif creature:
        code = VerdictCode.CREATURE_NOT_LEGENDARY
    else:
        code = VerdictCode.NEITHER
    return Verdict(code in _ELIGIBLE, code, name, banned=is_banned(card))


def is_commander_candidate(card: dict) -> bool:
    """Whether `card` may sit in a command zone at all: eligible on its own, or a Background (702.124k)."""
    verdict = commander_eligibility(card)
    return verdict.ok or verdict.code is VerdictCode.BACKGROUND_ALONE


def _no_pair_verdict(a: str, b: str, ta: PairingTraits, tb: PairingTraits) -> Verdict:
    """Why two cards share no partner ability, by a card's only one where that decides it."""
    for wanted in (PairingKind.PARTNER_WITH, PairingKind.PARTNER_TEXT):
        for x, tx, y, ty in ((a, ta, b, tb), (b, tb, a, ta)):
            if len(tx.traits) != 1 or (t := next(iter(tx.traits))).kind is not wanted:
                continue
            if wanted is PairingKind.PARTNER_TEXT:
                code = VerdictCode.VARIANT_ONLY
            elif norm_text(t.text) in {norm_text(n) for n in (*ty.names, y)}:
                code = VerdictCode.PARTNER_WITH_ONE_WAY
            else:
                code = VerdictCode.PARTNER_WITH_OTHER
            return Verdict(False, code, x, y, trait=t, traits=(tx, ty))
    return Verdict(False, VerdictCode.NO_SHARED_ABILITY, a, b, traits=(ta, tb))


def _core_name(name: str) -> str:
    """The card's name, or the one name of a reversible card printed with the same card on both sides."""
    parts = {part.strip() for part in name.split(" // ")}
    return parts.pop() if len(parts) == 1 and "" not in parts else name


def _ineligible(kind: PairingKind, card: dict, traits: PairingTraits, other: PairingTraits) -> Verdict | None:
    """The failing eligibility (CR 903.3) of `card`; none for a Background beside its chooser (702.124k)."""
    if kind is PairingKind.CHOOSE_BACKGROUND and traits.has(PairingKind.BACKGROUND) and other.has(kind):
        return None
    return None if (verdict := commander_eligibility(card)).ok else verdict


def check_pairing(a: dict, b: dict) -> Verdict:
    """Whether `a` and `b` may lead together: different cards sharing a partner ability (CR 702.124)."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        raise IdentityError("check_pairing expects two Scryfall card objects (dicts)")
    na, nb = card_name(a), card_name(b)
    if na and _core_name(na) == _core_name(nb):
        return Verdict(False, VerdictCode.SAME_CARD, na, nb)
    ta, tb = pairing_traits(a), pairing_traits(b)
    if not (kinds := shared_pairings(ta, tb)):
        return _no_pair_verdict(na, nb, ta, tb)
    # the Partner—[text] variant both have, as the first card prints it
    theirs = {norm_text(t) for t in tb.texts(PairingKind.PARTNER_TEXT)}
    shared = next((t for t in ta.texts(PairingKind.PARTNER_TEXT) if norm_text(t) in theirs), "")
    verdicts = []
    for kind in kinds:
        variant = shared if kind is PairingKind.PARTNER_TEXT else ""
        cause = _ineligible(kind, a, ta, tb) or _ineligible(kind, b, tb, ta)
        code = VerdictCode.PAIRED if cause is None else VerdictCode.PAIRED_BUT_INELIGIBLE
        verdicts.append(
            Verdict(cause is None, code, na, nb, pairing=kind, variant=variant, traits=(ta, tb), cause=cause)
        )
    return next((v for v in verdicts if v.ok), verdicts[0])
