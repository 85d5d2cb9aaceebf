"""Who may be a commander, and which two may lead a deck together (CR 903.3, 903.3a, 702.124, 903.5c).

`commander_eligibility(card)` (CR 903.3, as amended with Edge of Eternities): "Each deck has a legendary card
designated as its commander. That card must be either (a) a creature card, (b) a Vehicle card, or (c) a
Spacecraft card with one or more power/toughness boxes." Read from the front face (CR 712.8a) or the main
part. A legendary card that is a creature card while it isn't on the battlefield (Grist, the Hunger Tide)
is a creature card in the deck and the command zone. A card whose text says it "can be your commander"
qualifies too (903.3a). A Background (a legendary Background enchantment card) can be a commander only
alongside a commander with "Choose a Background" (702.124k), so on its own it is not eligible and the
reason says so (for a pair, use `check_pairing`). Objects that are not deck cards (tokens, emblems, meld
results, vanguards, planes, schemes, inserts, see `faces.non_deck_kind`) are never eligible. Eligibility is
about the rules, not the ban list: a banned legendary creature is eligible, and the reason mentions the ban
(`Verdict.banned`).

`is_banned(card)` reads the format's ban list from Scryfall (not the Comprehensive Rules'). Verdicts are
facts (`Verdict.code` and data); the presentation layer words them.

`check_pairing(a, b)`: two commanders may share a deck when one partner ability pairs them (CR 702.124,
`bot.identity.pairing`), the two are different cards, and each is eligible, except that the Background of a
Choose-a-Background pair needs no eligibility of its own (702.124k). It agrees with
`pairing.can_pair(pairing_traits(a), pairing_traits(b))` whenever both cards are eligible and different.
"""

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

_ELIGIBLE = frozenset(
    {
        VerdictCode.LEGENDARY_CREATURE,
        VerdictCode.SAYS_IT_CAN,
        VerdictCode.CREATURE_OFF_BATTLEFIELD,
        VerdictCode.LEGENDARY_VEHICLE,
        VerdictCode.LEGENDARY_SPACECRAFT,
    }
)
_CAN_BE_COMMANDER_RE = re.compile(r"\bcan be your commander\b", re.IGNORECASE)
_CREATURE_OFF_BATTLEFIELD_RE = re.compile(
    r"isn\u2019?'?t on the battlefield, (?:it\u2019?'?s|it is) an? [^.]*\bcreature\b", re.IGNORECASE
)
_STATION_CREATURE_RE = re.compile(r"\bIt[\u2019']s an? (?:artifact )?creature at \d+\+", re.IGNORECASE)
_PRINTED_BOX_RE = re.compile(r"(?:^|\|\s*|,\s*)\d+/\d+\s*$")


def has_power_toughness_box(card: dict) -> bool:
    """Whether the card (its front face) has a printed power/toughness box (CR 208.1, 903.3). Scryfall gives
    the card (or its front face) `power` and `toughness` when one is printed (Inspirit, Flagship Vessel: 5/5),
    and none when it isn't (The Eternity Elevator). Without those fields, the printed rules say it: the
    Station reminder ends "It's an artifact creature at N+." only on Spacecraft with a box, and a printed
    station level may show the box ("8+ | Flying, 5/5")."""
    faces = card.get("card_faces")
    front = faces[0] if isinstance(faces, list) and faces and isinstance(faces[0], dict) else card
    if any(
        obj.get("power") not in (None, "") and obj.get("toughness") not in (None, "") for obj in (front, card)
    ):
        return True
    raw_text = front.get("oracle_text")
    text = raw_text if isinstance(raw_text, str) else ""
    if _STATION_CREATURE_RE.search(text):
        return True
    return any(_PRINTED_BOX_RE.search(line) for line in text.split("\n"))


def is_banned(card: object) -> bool:
    """Whether Scryfall lists `card` as banned in Commander (`legalities.commander == "banned"`). Anything
    but a card object with such legalities (an `Analysis`, odd data) gives False."""
    if not isinstance(card, Mapping):
        return False
    legalities = card.get("legalities")
    return isinstance(legalities, Mapping) and legalities.get("commander") == "banned"


def commander_eligibility(card: dict) -> Verdict:
    """Whether `card` can be your commander (CR 903.3, 903.3a), with the reason as a `VerdictCode`."""
    faces = card_faces(card)
    name = card_name(card)
    kind = non_deck_kind(card, faces)
    if kind is not None:
        return Verdict(False, VerdictCode.NOT_A_DECK_CARD, name, not_deck_card=kind)
    front_words, subtypes = type_words(front_type(faces))
    legendary = "Legendary" in front_words
    creature = "Creature" in front_words
    vehicle = legendary and "Vehicle" in subtypes
    spacecraft = legendary and "Spacecraft" in subtypes
    lines = ability_lines(faces)
    says_so = any(_CAN_BE_COMMANDER_RE.search(line) for line in lines)
    creature_elsewhere = legendary and any(_CREATURE_OFF_BATTLEFIELD_RE.search(line) for line in lines)
    banned = is_banned(card)

    if legendary and creature:
        code = VerdictCode.LEGENDARY_CREATURE
    elif says_so:
        code = VerdictCode.SAYS_IT_CAN
    elif creature_elsewhere:
        code = VerdictCode.CREATURE_OFF_BATTLEFIELD
    elif vehicle:
        code = VerdictCode.LEGENDARY_VEHICLE
    elif spacecraft:
        box = has_power_toughness_box(card)
        code = VerdictCode.LEGENDARY_SPACECRAFT if box else VerdictCode.SPACECRAFT_WITHOUT_BOX
    elif legendary and is_background(front_type(faces)):
        code = VerdictCode.BACKGROUND_ALONE
    elif legendary:
        code = VerdictCode.LEGENDARY_NOT_CREATURE
    elif creature:
        code = VerdictCode.CREATURE_NOT_LEGENDARY
    else:
        code = VerdictCode.NEITHER
    return Verdict(code in _ELIGIBLE, code, name, banned=banned)


def is_commander_candidate(card: dict) -> bool:
    """Whether `card` may sit in a command zone at all: eligible on its own (`commander_eligibility`), or a
    legendary Background enchantment card, which leads beside a "Choose a Background" commander (702.124k).
    Commander pickers offer these."""
    verdict = commander_eligibility(card)
    if verdict.code is VerdictCode.NOT_A_DECK_CARD:
        return False
    return verdict.ok or is_background(front_type(card_faces(card)))


def _no_pair_verdict(a: str, b: str, ta: PairingTraits, tb: PairingTraits) -> Verdict:
    """Why two cards share no partner ability, as facts: in terms of a card's one pairing ability where that
    decides it ("Partner with X" pairs only with X; a partner variant only with the same variant)."""
    sides = ((a, ta, b, tb), (b, tb, a, ta))
    for wanted in (PairingKind.PARTNER_WITH, PairingKind.PARTNER_TEXT):
        for x, tx, y, ty in sides:
            if len(tx.traits) != 1:
                continue
            (t,) = tx.traits
            if t.kind is not wanted:
                continue
            if wanted is PairingKind.PARTNER_WITH:
                if norm_text(t.text) not in {norm_text(n) for n in ty.names} | {norm_text(y)}:
                    return Verdict(False, VerdictCode.PARTNER_WITH_OTHER, x, y, trait=t, traits=(tx, ty))
                return Verdict(False, VerdictCode.PARTNER_WITH_ONE_WAY, x, y, trait=t, traits=(tx, ty))
            return Verdict(False, VerdictCode.VARIANT_ONLY, x, y, trait=t, traits=(tx, ty))
    return Verdict(False, VerdictCode.NO_SHARED_ABILITY, a, b, traits=(ta, tb))


def _shared_variant(ta: PairingTraits, tb: PairingTraits) -> str:
    """The Partner\u2014[text] variant both have, as the first card prints it."""
    theirs = {norm_text(t) for t in tb.texts(PairingKind.PARTNER_TEXT)}
    return next((t for t in ta.texts(PairingKind.PARTNER_TEXT) if norm_text(t) in theirs), "")


def _core_name(name: str) -> str:
    """The card's name, or the one name of a reversible card printed with the same card on both sides."""
    parts = {part.strip() for part in name.split(" // ")}
    return parts.pop() if len(parts) == 1 and "" not in parts else name


def _ineligible(kind: PairingKind, card: dict, traits: PairingTraits, other: PairingTraits) -> Verdict | None:
    """The failing eligibility verdict (CR 903.3) that keeps `card` from leading beside `other` through
    `kind`, or None. The Background of a Choose-a-Background pair needs no eligibility of its own
    (702.124k)."""
    if kind is PairingKind.CHOOSE_BACKGROUND and traits.has(PairingKind.BACKGROUND) and other.has(kind):
        return None
    verdict = commander_eligibility(card)
    return None if verdict.ok else verdict


def judge_pairing(a: dict, b: dict) -> tuple[Verdict, bool]:
    """`check_pairing`'s verdict, and whether a failure comes from the pairing itself (True: no shared partner
    ability, or the same card twice) rather than from a card's eligibility (False). ok verdicts give True."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        raise IdentityError("check_pairing expects two Scryfall card objects (dicts)")
    name_a, name_b = card_name(a), card_name(b)
    if name_a and _core_name(name_a) == _core_name(name_b):
        return Verdict(False, VerdictCode.SAME_CARD, name_a, name_b), True
    ta, tb = pairing_traits(a), pairing_traits(b)
    kinds = shared_pairings(ta, tb)
    if not kinds:
        return _no_pair_verdict(name_a, name_b, ta, tb), True
    failures: list[Verdict] = []
    for kind in kinds:
        variant = _shared_variant(ta, tb) if kind is PairingKind.PARTNER_TEXT else ""
        cause = _ineligible(kind, a, ta, tb) or _ineligible(kind, b, tb, ta)
        if cause is None:
            return Verdict(
                True, VerdictCode.PAIRED, name_a, name_b, pairing=kind, variant=variant, traits=(ta, tb)
            ), True
        failures.append(
            Verdict(
                False,
                VerdictCode.PAIRED_BUT_INELIGIBLE,
                name_a,
                name_b,
                pairing=kind,
                variant=variant,
                traits=(ta, tb),
                cause=cause,
            )
        )
    return failures[0], False


def check_pairing(a: dict, b: dict) -> Verdict:
    """Whether `a` and `b` may be your two commanders (CR 702.124), with the reason as facts."""
    return judge_pairing(a, b)[0]
