"""Who may be a commander, and which two may lead a deck together (CR 903.3, 702.124, 702.124j-k, 903.5c).

`commander_eligibility(card)`: a legendary creature (front face, CR 903.3), or a card whose text says it
"can be your commander", or a legendary card that is a creature while it isn't on the battlefield. A
Background (Legendary Enchantment — Background) can be a commander only alongside a creature with
"Choose a Background" (CR 702.124k), so on its own it is not eligible and the reason says so (for a pair,
use `check_pairing`, which checks both cards' eligibility itself). Tokens, emblems, vanguards, planes and
schemes are not cards of a deck. Eligibility is about the rules, not the ban list: a banned legendary
creature is eligible, and the reason mentions the ban (Scryfall `legalities.commander == "banned"`).

`check_pairing(a, b)`: two commanders may share a deck when both have Partner (702.124a); when each has
"Partner with" naming the other (702.124j); when both have the same "Partner—<kind>" variant, e.g.
"Partner—Survivors" or "Friends forever"; when one has "Choose a Background" and the other is a
Background (702.124k); or when one has "Doctor's companion" and the other is a Time Lord Doctor creature.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.identity.faces import NON_CARD_LAYOUTS, card_faces, card_name
from bot.identity.model import IdentityError, Verdict
from bot.identity.text import strip_reminder

_LAYOUT_WORDS = {
    "token": "a token",
    "double_faced_token": "a token",
    "emblem": "an emblem",
    "vanguard": "a Vanguard card",
    "planar": "a Planechase plane or phenomenon",
    "scheme": "an Archenemy scheme",
    "art_series": "an art card",
}

_CAN_BE_COMMANDER_RE = re.compile(r"\bcan be your commander\b", re.IGNORECASE)
_CREATURE_OFF_BATTLEFIELD_RE = re.compile(
    r"isn\u2019?'?t on the battlefield, (?:it\u2019?'?s|it is) an? [^.]*\bcreature\b", re.IGNORECASE
)
_PARTNER_WITH_RE = re.compile(r"^partner with (.+?)\s*$", re.IGNORECASE)
_PARTNER_KIND_RE = re.compile(r"^partner\s*(?:\u2014|--|-|\u2013)\s*(.+?)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Abilities:
    name: str
    front_type: str
    partner: bool = False
    partner_with: str | None = None
    partner_kind: str | None = None
    choose_background: bool = False
    doctors_companion: bool = False


def _text_lines(card: dict) -> list[str]:
    lines = []
    for face in card_faces(card):
        for line in face.oracle_text.split("\n"):
            bare = strip_reminder(line).strip()
            if bare:
                lines.append(bare)
    return lines


def _abilities(card: dict) -> _Abilities:
    faces = card_faces(card)
    front_type = faces[0].type_line.split(" // ")[0] if faces else ""
    partner = choose_bg = companion = False
    partner_with = partner_kind = None
    for line in _text_lines(card):
        for part in (p.strip() for p in line.split(",")) if "," in line and "with" not in line.lower() else (line,):
            low = part.lower().rstrip(".")
            if low == "partner":
                partner = True
            elif low == "friends forever":
                partner_kind = "Friends forever"
            elif low == "choose a background":
                choose_bg = True
            elif low == "doctor\u2019s companion" or low == "doctor's companion":
                companion = True
            else:
                m = _PARTNER_WITH_RE.match(part)
                if m:
                    partner_with = m.group(1).rstrip(".")
                    continue
                m = _PARTNER_KIND_RE.match(part)
                if m:
                    partner_kind = m.group(1).rstrip(".")
    return _Abilities(card_name(card), front_type, partner, partner_with, partner_kind, choose_bg, companion)


def _subtypes(type_line: str) -> list[str]:
    dash = type_line.find("\u2014")
    return type_line[dash + 1 :].split() if dash != -1 else []


def _is_background(type_line: str) -> bool:
    return "Enchantment" in type_line.split("\u2014")[0] and "Background" in _subtypes(type_line)


def _is_time_lord_doctor(type_line: str) -> bool:
    subs = _subtypes(type_line)
    return "Creature" in type_line.split("\u2014")[0] and "Doctor" in subs and "Time" in subs and "Lord" in subs


def commander_eligibility(card: dict) -> Verdict:
    """Whether `card` can be your commander, with a plain-English reason sentence."""
    if not isinstance(card, dict):
        raise IdentityError(f"expected a Scryfall card object (dict), got {type(card).__name__}")
    name = card_name(card) or "This card"
    layout = card.get("layout")
    if isinstance(layout, str) and layout in NON_CARD_LAYOUTS:
        return Verdict(False, f"{name} is {_LAYOUT_WORDS[layout]}, not a card you can put in a deck.")
    faces = card_faces(card)
    front_type = faces[0].type_line.split(" // ")[0]
    front_words = front_type.split("\u2014")[0].split()
    legendary = "Legendary" in front_words
    creature = "Creature" in front_words
    lines = _text_lines(card)
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
    elif legendary and _is_background(front_type):
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
    Background, which leads beside a "Choose a Background" creature. Commander pickers offer these."""
    if commander_eligibility(card).ok:
        return True
    faces = card_faces(card)
    front_type = faces[0].type_line.split(" // ")[0] if faces else ""
    return "Legendary" in front_type.split("\u2014")[0].split() and _is_background(front_type)


def _describe_pairing(ab: _Abilities) -> str:
    if ab.partner:
        return "has Partner"
    if ab.partner_with:
        return f"has \u201cPartner with {ab.partner_with}\u201d"
    if ab.partner_kind:
        return f"has \u201cPartner\u2014{ab.partner_kind}\u201d" if ab.partner_kind != "Friends forever" else (
            "has Friends forever"
        )
    if ab.choose_background:
        return "has \u201cChoose a Background\u201d"
    if ab.doctors_companion:
        return "has Doctor\u2019s companion"
    if _is_background(ab.front_type):
        return "is a Background"
    if _is_time_lord_doctor(ab.front_type):
        return "is a Time Lord Doctor"
    return "has no ability that lets it share the command zone"


def check_pairing(a: dict, b: dict) -> Verdict:
    """Whether `a` and `b` may be your two commanders (CR 702.124), with a reason sentence."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        raise IdentityError("check_pairing expects two Scryfall card objects (dicts)")
    A, B = _abilities(a), _abilities(b)
    if A.name and A.name == B.name:
        return Verdict(False, f"A deck can\u2019t have two copies of {A.name} as its commanders.")

    ok_reason: str | None = None
    background_pair = False
    if A.partner and B.partner:
        ok_reason = f"{A.name} and {B.name} both have Partner"
    elif A.partner_with or B.partner_with:
        if A.partner_with == B.name and B.partner_with == A.name:
            ok_reason = f"{A.name} and {B.name} each have \u201cPartner with\u201d naming the other"
        else:
            named, other = (A, B) if A.partner_with and A.partner_with != B.name else (B, A)
            if named.partner_with and named.partner_with != other.name:
                return Verdict(
                    False,
                    f"{named.name} has \u201cPartner with {named.partner_with}\u201d, so it can only be paired "
                    f"with {named.partner_with}, not {other.name}.",
                )
            lacking = B if A.partner_with else A
            return Verdict(
                False,
                f"{lacking.name} {_describe_pairing(lacking)}, so it can\u2019t be paired through "
                f"\u201cPartner with\u201d.",
            )
    elif A.partner_kind or B.partner_kind:
        if A.partner_kind and B.partner_kind and A.partner_kind.lower() == B.partner_kind.lower():
            kind = A.partner_kind
            label = "Friends forever" if kind == "Friends forever" else f"Partner\u2014{kind}"
            ok_reason = f"{A.name} and {B.name} both have {label}"
        else:
            with_kind, other = (A, B) if A.partner_kind else (B, A)
            kind = with_kind.partner_kind
            label = "Friends forever" if kind == "Friends forever" else f"Partner\u2014{kind}"
            return Verdict(
                False,
                f"{with_kind.name} has {label}, which pairs only with another commander that has {label}; "
                f"{other.name} {_describe_pairing(other)}.",
            )
    elif (A.choose_background and _is_background(B.front_type)) or (
        B.choose_background and _is_background(A.front_type)
    ):
        chooser, bg = (A, B) if A.choose_background else (B, A)
        ok_reason = f"{chooser.name} has \u201cChoose a Background\u201d and {bg.name} is a Background"
        background_pair = True
    elif (A.doctors_companion and _is_time_lord_doctor(B.front_type)) or (
        B.doctors_companion and _is_time_lord_doctor(A.front_type)
    ):
        companion, doctor = (A, B) if A.doctors_companion else (B, A)
        ok_reason = f"{companion.name} has Doctor\u2019s companion and {doctor.name} is a Time Lord Doctor"
    if ok_reason is None:
        return Verdict(
            False,
            f"{A.name} {_describe_pairing(A)} and {B.name} {_describe_pairing(B)}, "
            f"so they can\u2019t be commanders together.",
        )
    for card, ab in ((a, A), (b, B)):
        if background_pair and _is_background(ab.front_type):
            continue
        verdict = commander_eligibility(card)
        if not verdict.ok:
            return Verdict(False, f"{ok_reason}, but {verdict.reason}")
    return Verdict(True, f"{ok_reason}, so they can be commanders together.")
