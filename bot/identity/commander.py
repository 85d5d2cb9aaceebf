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
(Scryfall `legalities.commander == "banned"`).

A Spacecraft's power/toughness box: Scryfall gives the card (or its front face) `power` and `toughness`
when one is printed (Inspirit, Flagship Vessel: 5/5), and none when it isn't (The Eternity Elevator). Without
those fields, the printed rules say it: the Station reminder ends "It's an artifact creature at N+." only on
Spacecraft with a box, and a printed station level may show the box ("8+ | Flying, 5/5").

`check_pairing(a, b)`: two commanders may share a deck when one partner ability pairs them (CR 702.124,
`bot.identity.pairing`), the two are different cards, and each is eligible, except that the Background of a
Choose-a-Background pair needs no eligibility of its own (702.124k). It agrees with
`pairing.can_pair(pairing_traits(a), pairing_traits(b))` whenever both cards are eligible and different.
"""

from __future__ import annotations

import re

from bot.identity.faces import card_faces, card_name, card_names, non_deck_kind
from bot.identity.model import IdentityError, NonDeckKind, Verdict
from bot.identity.pairing import (
    PairingKind,
    PairingTraits,
    ability_lines,
    is_background,
    is_time_lord_doctor,
    pairing_traits,
    shared_pairings,
)

_KIND_WORDS = {
    NonDeckKind.TOKEN: "a token",
    NonDeckKind.EMBLEM: "an emblem",
    NonDeckKind.MELD_RESULT: "a meld result (the back halves of two meld cards)",
    NonDeckKind.VANGUARD: "a Vanguard card",
    NonDeckKind.PLANE: "a Planechase plane or phenomenon",
    NonDeckKind.SCHEME: "an Archenemy scheme",
    NonDeckKind.ART_CARD: "an art card",
    NonDeckKind.FRONT_CARD: "a Jumpstart front card",
    NonDeckKind.CHECKLIST: "a checklist, substitute or helper card",
    NonDeckKind.DUNGEON: "a dungeon",
}

_CAN_BE_COMMANDER_RE = re.compile(r"\bcan be your commander\b", re.IGNORECASE)
_CREATURE_OFF_BATTLEFIELD_RE = re.compile(
    r"isn\u2019?'?t on the battlefield, (?:it\u2019?'?s|it is) an? [^.]*\bcreature\b", re.IGNORECASE
)
_STATION_CREATURE_RE = re.compile(r"\bIt[\u2019']s an? (?:artifact )?creature at \d+\+", re.IGNORECASE)
_PRINTED_BOX_RE = re.compile(r"(?:^|\|\s*|,\s*)\d+/\d+\s*$")


def _front(card: dict) -> tuple[str, list[str], list[str]]:
    """(front type line, its supertypes and types, its subtypes)."""
    faces = card_faces(card)
    front_type = faces[0].type_line.split(" // ")[0] if faces else ""
    left, dash, right = front_type.partition("\u2014")
    return front_type, left.split(), right.split() if dash else []


def has_power_toughness_box(card: dict) -> bool:
    """Whether the card (its front face) has a printed power/toughness box (CR 208.1, 903.3)."""
    faces = card.get("card_faces")
    front = faces[0] if isinstance(faces, list) and faces and isinstance(faces[0], dict) else card
    for obj in (front, card):
        if obj.get("power") not in (None, "") and obj.get("toughness") not in (None, ""):
            return True
    raw_text = front.get("oracle_text")
    text = raw_text if isinstance(raw_text, str) else ""
    if _STATION_CREATURE_RE.search(text):
        return True
    return any(_PRINTED_BOX_RE.search(line) for line in text.split("\n"))


def commander_eligibility(card: dict) -> Verdict:
    """Whether `card` can be your commander (CR 903.3), with a plain-English reason sentence."""
    if not isinstance(card, dict):
        raise IdentityError(f"expected a Scryfall card object (dict), got {type(card).__name__}")
    name = card_name(card) or "This card"
    kind = non_deck_kind(card)
    if kind is not None:
        return Verdict(False, f"{name} is {_KIND_WORDS[kind]}, not a card you can put in a deck.")
    front_type, front_words, subtypes = _front(card)
    legendary = "Legendary" in front_words
    creature = "Creature" in front_words
    vehicle = legendary and "Vehicle" in subtypes
    spacecraft = legendary and "Spacecraft" in subtypes
    lines = ability_lines(card)
    says_so = any(_CAN_BE_COMMANDER_RE.search(line) for line in lines)
    creature_elsewhere = legendary and any(_CREATURE_OFF_BATTLEFIELD_RE.search(line) for line in lines)
    legalities = card.get("legalities")
    banned = isinstance(legalities, dict) and legalities.get("commander") == "banned"

    if legendary and creature:
        why = f"{name} is a legendary creature"
    elif says_so:
        why = f"{name}\u2019s text says it can be your commander"
    elif creature_elsewhere:
        why = f"{name} is a legendary creature while it isn\u2019t on the battlefield"
    elif vehicle:
        why = f"{name} is a legendary Vehicle"
    elif spacecraft and has_power_toughness_box(card):
        why = f"{name} is a legendary Spacecraft with a power/toughness box"
    elif spacecraft:
        return Verdict(
            False,
            f"{name} is a legendary Spacecraft without a power/toughness box, and only a Spacecraft with one "
            f"can be your commander.",
        )
    elif legendary and is_background(front_type):
        return Verdict(
            False,
            f"{name} is a Background: it can be your commander only alongside a legendary creature "
            f"with \u201cChoose a Background\u201d.",
        )
    else:
        what = "a legendary card but not a creature" if legendary else (
            "a creature but not legendary" if creature else "not a legendary creature"
        )
        return Verdict(False, f"{name} is {what}, and no text on it says it can be your commander.")
    if banned:
        return Verdict(True, f"{why}, so it can be your commander, though it is banned in Commander.")
    return Verdict(True, f"{why}, so it can be your commander.")


def is_commander_candidate(card: dict) -> bool:
    """Whether `card` may sit in a command zone at all: eligible on its own (`commander_eligibility`), or a
    legendary Background enchantment card, which leads beside a "Choose a Background" commander (702.124k).
    Commander pickers offer these."""
    if commander_eligibility(card).ok:
        return True
    if non_deck_kind(card) is not None:
        return False
    return is_background(_front(card)[0])


def _label(kind: PairingKind, text: str) -> str:
    if kind is PairingKind.PARTNER_TEXT:
        return f"Partner\u2014{text}" if text != "Friends forever" else "Friends forever"
    return {
        PairingKind.PARTNER: "Partner",
        PairingKind.PARTNER_WITH: f"Partner with {text}",
        PairingKind.CHOOSE_BACKGROUND: "Choose a Background",
        PairingKind.DOCTORS_COMPANION: "Doctor\u2019s companion",
    }.get(kind, kind.value)


def _describe_one(t_kind: PairingKind, text: str) -> str:
    if t_kind is PairingKind.PARTNER:
        return "has Partner"
    if t_kind is PairingKind.PARTNER_WITH:
        return f"has \u201cPartner with {text}\u201d"
    if t_kind is PairingKind.PARTNER_TEXT:
        return "has Friends forever" if text == "Friends forever" else f"has \u201cPartner\u2014{text}\u201d"
    if t_kind is PairingKind.CHOOSE_BACKGROUND:
        return "has \u201cChoose a Background\u201d"
    if t_kind is PairingKind.DOCTORS_COMPANION:
        return "has Doctor\u2019s companion"
    if t_kind is PairingKind.BACKGROUND:
        return "is a Background"
    return "is a Time Lord Doctor"


def _describe_pairing(traits: PairingTraits) -> str:
    """What lets the card share the command zone, e.g. "has Partner", "is a Background"."""
    if not traits:
        return "has no ability that lets it share the command zone"
    parts = [_describe_one(t.kind, t.text) for t in sorted(traits.traits)]
    has = [p.removeprefix("has ") for p in parts if p.startswith("has ")]
    is_ = [p for p in parts if not p.startswith("has ")]
    phrases = ([f"has {_and(has)}"] if has else []) + is_
    return _and(phrases)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _pair_reason(kind: PairingKind, a: str, b: str, ta: PairingTraits, tb: PairingTraits) -> str:
    if kind is PairingKind.PARTNER:
        return f"{a} and {b} both have Partner"
    if kind is PairingKind.PARTNER_TEXT:
        shared = sorted({t.casefold() for t in ta.texts(kind)} & {t.casefold() for t in tb.texts(kind)})
        text = next(t for t in ta.texts(kind) if t.casefold() == shared[0])
        return f"{a} and {b} both have {_label(kind, text)}"
    if kind is PairingKind.PARTNER_WITH:
        return f"{a} and {b} each have \u201cPartner with\u201d naming the other"
    if kind is PairingKind.CHOOSE_BACKGROUND:
        if ta.has(PairingKind.CHOOSE_BACKGROUND) and tb.has(PairingKind.BACKGROUND):
            return f"{a} has \u201cChoose a Background\u201d and {b} is a Background"
        return f"{b} has \u201cChoose a Background\u201d and {a} is a Background"
    if ta.has(PairingKind.DOCTORS_COMPANION) and tb.has(PairingKind.TIME_LORD_DOCTOR):
        return f"{a} has Doctor\u2019s companion and {b} is a Time Lord Doctor"
    return f"{b} has Doctor\u2019s companion and {a} is a Time Lord Doctor"


def _no_pair_reason(a: str, b: str, ta: PairingTraits, tb: PairingTraits) -> str:
    """Why two cards share no partner ability, in the terms of a card's one pairing ability where that
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
                if _norm_name(t.text) not in {_norm_name(n) for n in ty.names} | {_norm_name(y)}:
                    return (f"{x} has \u201cPartner with {t.text}\u201d, so it can only be paired with {t.text}, "
                            f"not {y}.")
                return f"{y} {_describe_pairing(ty)}, so it can\u2019t be paired through \u201cPartner with\u201d."
            label = _label(t.kind, t.text)
            return (f"{x} has {label}, which pairs only with another commander that has {label}; "
                    f"{y} {_describe_pairing(ty)}.")
    joiner = " and " if len(ta.traits) <= 1 else ", and "
    return (f"{a} {_describe_pairing(ta)}{joiner}{b} {_describe_pairing(tb)}, "
            f"so they can\u2019t be commanders together.")


def _norm_name(name: str) -> str:
    return " ".join(name.replace("\u2019", "'").split()).casefold()


def _core_name(card: dict) -> str:
    """The card's name, or the one name of a reversible card printed with the same card on both sides."""
    names = card_names(card)
    parts = {part.strip() for part in card_name(card).split(" // ")}
    return next(iter(parts)) if len(parts) == 1 and parts <= names else card_name(card)


def judge_pairing(a: dict, b: dict) -> tuple[Verdict, bool]:
    """`check_pairing`'s verdict, and whether a failure comes from the pairing itself (True: no shared partner
    ability, or the same card twice) rather than from a card's eligibility (False). ok verdicts give True."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        raise IdentityError("check_pairing expects two Scryfall card objects (dicts)")
    name_a, name_b = card_name(a), card_name(b)
    if name_a and _core_name(a) == _core_name(b):
        return Verdict(False, f"A deck can\u2019t have two copies of {name_a} as its commanders."), True
    ta, tb = pairing_traits(a), pairing_traits(b)
    kinds = shared_pairings(ta, tb)
    if not kinds:
        return Verdict(False, _no_pair_reason(name_a, name_b, ta, tb)), True
    first_failure: Verdict | None = None
    for kind in kinds:
        ok_reason = _pair_reason(kind, name_a, name_b, ta, tb)
        failure: Verdict | None = None
        for card, traits, other in ((a, ta, tb), (b, tb, ta)):
            background_side = (
                kind is PairingKind.CHOOSE_BACKGROUND
                and traits.has(PairingKind.BACKGROUND)
                and other.has(PairingKind.CHOOSE_BACKGROUND)
            )
            if background_side:
                continue  # 702.124k: the Background leads only beside the Choose a Background commander
            verdict = commander_eligibility(card)
            if not verdict.ok:
                failure = Verdict(False, f"{ok_reason}, but {verdict.reason}")
                break
        if failure is None:
            return Verdict(True, f"{ok_reason}, so they can be commanders together."), True
        first_failure = first_failure or failure
    assert first_failure is not None
    return first_failure, False


def check_pairing(a: dict, b: dict) -> Verdict:
    """Whether `a` and `b` may be your two commanders (CR 702.124), with a reason sentence."""
    return judge_pairing(a, b)[0]


__all__ = [
    "check_pairing",
    "commander_eligibility",
    "has_power_toughness_box",
    "is_commander_candidate",
    "is_time_lord_doctor",
    "judge_pairing",
]
