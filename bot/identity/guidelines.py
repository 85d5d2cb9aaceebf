"""`guideline_findings(card)`: the lines of a card's rules text, every face and part (CR 709-712, 715, 720),
reminder text removed (CR 903.4c), that make it mass land denial (lands destroyed, exiled, sacrificed or
bounced en masse: 701, 305.6, 110, 503, 513; kept tapped: 502.3; their mana changed: 106, 305.7) or an
extra-turn card (500.7) in the sense of the Commander Brackets; the exact rules and the choices, with cards,
are in docs/brackets.md. Findings are facts: Wizards' words are for `bot.present`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from bot.identity.faces import card_faces
from bot.identity.text import shown_line, strip_reminder


class Guideline(StrEnum):
    """A Commander Brackets guideline judged from rules text."""

    MASS_LAND_DENIAL = "mass land denial"
    EXTRA_TURN = "extra turn"


class GuidelineEffect(StrEnum):
    """How the line meets its guideline."""

    REMOVES_LANDS = "removes lands"  # destroys, exiles, bounces or makes players sacrifice them
    KEEPS_LANDS_TAPPED = "keeps lands tapped"
    CHANGES_LAND_MANA = "changes land mana"
    GIVES_EXTRA_TURN = "gives an extra turn"  # CR 500.7


@dataclass(frozen=True, slots=True)
class GuidelineFinding:
    """One line that meets a guideline: `face` and `text` as in `Reason`, `span` the deciding words in it."""

    guideline: Guideline
    effect: GuidelineEffect
    face: str
    text: str
    span: tuple[int, int]


_A = "['\u2019]"  # an apostrophe as printed
_TYPE = r"(?:plains|islands|swamps|mountains|forests)"
_LANDS = rf"(?:(?:non)?basic |snow )?lands\b|{_TYPE}\b"
# "all artifacts, creatures, and nonbasic lands" but not "... lands you control"; "all permanents" unlimited
_LIST = r"(?:(?:[a-z]+s,? |and |or |other |(?:non)?basic |snow |nontoken |(?:un)?tapped ){0,6})"
_UNLIMITED = r"(?=[.,]| to | from | at | other than |$)"
_ALL = rf"all (?:{_LIST}(?:{_LANDS})(?! you (?:control|own))|(?:other )?permanents{_UNLIMITED})"
_SIZE = r"(?:four|five|six|seven|eight|nine|ten|x|all but \w+)"
_RULES: tuple[tuple[Guideline, GuidelineEffect, re.Pattern[str]], ...] = tuple(
    (g, e, re.compile(p, re.IGNORECASE))
    for g, e, p in (
        (Guideline.EXTRA_TURN, GuidelineEffect.GIVES_EXTRA_TURN,
         rf"(?<!n{_A}t )(?<!not )(?<!would )\btakes? (?:\w+ ){{0,2}}?extra turns?\b"),
        (Guideline.MASS_LAND_DENIAL, GuidelineEffect.REMOVES_LANDS,
         rf"\b(?:destroy|exile|sacrifices?|returns?)(?: target \w+ and)? {_ALL}"
         rf"|\bsacrifices (?:{_SIZE} (?:[a-z]+ )?lands\b|an? (?:[a-z]+ )?land for each\b)"
         r"|\bchooses?\b[^.]{0,200}?\bsacrifices? the rest\b"
         r"|\bat the beginning of [^.,]{0,40}, [^.]{0,60}?\bsacrifices an? (?:[a-z]+ )?land\b(?! or)"),
        (Guideline.MASS_LAND_DENIAL, GuidelineEffect.KEEPS_LANDS_TAPPED,
         rf"\b(?:{_LANDS}) don{_A}t untap during their controllers{_A} untap steps"
         rf"|\bplayers can{_A}t untap more than (?:one|two|three) (?:land|permanent)s?\b"
         r"|\b(?:players skip their|each player skips their) untap steps?\b"
         rf"|\bwhenever (?:a player|an opponent) taps an? land for mana, that land doesn{_A}t untap\b"),
        (Guideline.MASS_LAND_DENIAL, GuidelineEffect.CHANGES_LAND_MANA,
         rf"\b(?:{_LANDS})(?: of the first chosen type)? are (?:the (?:second )?chosen type|{_TYPE})\b"
         r"(?! in addition)|\b(?:taps?|tapped)\b[^.]{0,40}?\bfor mana\b[^.]{0,120}?\binstead of any other\b"),
    )
)  # fmt: skip
_LAND_WORD = re.compile(r"\b(?:lands?|permanents|plains|islands?|swamps?|mountains?|forests?)\b", re.I)
_REPLACED = re.compile(
    r"\bfor each land (?:destroyed|sacrificed|exiled) this way, [^.]{0,40}?\bsearch"
    r"|\breturns? those cards to the battlefield",
    re.IGNORECASE,
)
_SPARED = re.compile(r"[^.]{0,60}?\bexcept\b[^.]{0,40}?\blands\b|[^.]{0,60}?\bnonland\b", re.IGNORECASE)
_UNLESS = re.compile(r"\bunless\b", re.IGNORECASE)
_YOU = re.compile(r"\byou\b", re.IGNORECASE)
_ONE_TURN = re.compile(r"\buntil end of turn\b", re.IGNORECASE)
_EACH_TURN = re.compile(r"\bat the beginning of each\b", re.IGNORECASE)
_REACH = 300  # how far around a match its sentence is read: bounded, so a long line stays linear
_WORDS = ("extra turn", "land", "plains", "island", "swamp", "mountain", "forest", "permanents", "untap")


def _decides(effect: GuidelineEffect, line: str, m: re.Match[str]) -> bool:
    """Whether a match counts: lands not given back, a bounce to hand; mana changed for lands not only yours,
    lastingly or at the beginning of each turn."""
    words = m.group().lower()
    start = max(0, m.start() - _REACH)
    sentence = line[line.rfind(".", start, m.start()) + 1 or start : m.end()]
    if effect is GuidelineEffect.REMOVES_LANDS:
        back = words.startswith("return") and "hand" not in line[m.end() : m.end() + 40]
        spared = _SPARED.match(line, m.end()) or "nonland" in words or _UNLESS.search(sentence)
        return bool(_LAND_WORD.search(words)) and not (
            back or spared or _REPLACED.search(line, m.end(), m.end() + _REACH)
        )
    if effect is not GuidelineEffect.CHANGES_LAND_MANA or not words.startswith("tap"):
        return True
    if "produce" not in words or _YOU.search(sentence) or not _LAND_WORD.search(sentence):
        return False
    return not _ONE_TURN.search(sentence) or bool(_EACH_TURN.match(line))  # a trigger starts its line


def guideline_findings(card: Mapping) -> tuple[GuidelineFinding, ...]:
    """Every line of every face that meets a guideline, in card order; the first rule that decides per line
    and guideline. `IdentityError` when `card` is no mapping."""
    found: list[GuidelineFinding] = []
    for face in card_faces(dict(card) if isinstance(card, Mapping) else card):
        for raw in face.oracle_text.split("\n"):
            low = raw.lower()
            if not any(w in low for w in _WORDS) or not (line := shown_line(strip_reminder(raw))):
                continue
            seen: set[Guideline] = set()
            for guideline, effect, rule in _RULES:
                if guideline in seen:
                    continue
                for m in rule.finditer(line):
                    if _decides(effect, line, m):
                        found.append(GuidelineFinding(guideline, effect, face.name, line, m.span()))
                        seen.add(guideline)
                        break
    return tuple(found)
