"""Does a card fit a deck led by one or two commanders? (CR 903.5c, 903.4b, 702.124)

`check_fit(card, commanders)`: the deck's color identity is the union of its commanders' identities
(one commander, or two paired ones); a card fits when its identity is a subset of it (903.5c). Colorless
cards fit every deck. For each color outside the deck's identity, `FitResult.evidence` holds the card's
identity reasons for that color.

`warnings` is the one list of problems with the commanders (embeds show it as is, each warning once):
- one commander that can't be a commander (`commander_eligibility`);
- two commanders that can't lead a deck together (`check_pairing`, which also judges each card's
  eligibility itself, so a Background in a valid Choose-a-Background pair gets no warning);
- a commander banned in Commander (Scryfall `legalities.commander == "banned"`);
- a commander that has its owner choose a color before the game (903.4b), since that chosen color widens
  the deck's identity and isn't counted here.
Commanders given as `Analysis` objects (not card dicts) are checked for 903.4b only.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.identity.commander import check_pairing, commander_eligibility
from bot.identity.engine import analyze
from bot.identity.model import WUBRG, Analysis, Aspect, FitResult, IdentityError


def _as_analysis(obj: dict | Analysis, what: str) -> Analysis:
    if isinstance(obj, Analysis):
        return obj
    if isinstance(obj, dict):
        return analyze(obj)
    raise IdentityError(f"{what} must be a Scryfall card object (dict) or an Analysis, got {type(obj).__name__}")


def _banned(card: dict) -> bool:
    legalities = card.get("legalities")
    return isinstance(legalities, dict) and legalities.get("commander") == "banned"


def check_fit(card: dict | Analysis, commanders: Sequence[dict | Analysis]) -> FitResult:
    """Whether `card` may be in a deck led by `commanders` (one or two), with evidence for misfits."""
    if isinstance(commanders, dict | Analysis | str) or not isinstance(commanders, Sequence):
        raise IdentityError("commanders must be a sequence of one or two card objects")
    if not 1 <= len(commanders) <= 2:
        raise IdentityError(f"a deck has one or two commanders, got {len(commanders)}")
    card_analysis = _as_analysis(card, "card")
    leaders = tuple(_as_analysis(c, "commander") for c in commanders)

    warnings: list[str] = []
    dicts = [c for c in commanders if isinstance(c, dict)]
    if len(commanders) == 2 and len(dicts) == 2:
        pairing = check_pairing(dicts[0], dicts[1])
        if not pairing.ok:
            warnings.append(pairing.reason)
    else:
        for c in dicts:
            verdict = commander_eligibility(c)
            if not verdict.ok:
                warnings.append(verdict.reason)
    for c, leader in zip(commanders, leaders, strict=True):
        if isinstance(c, dict) and _banned(c):
            warnings.append(f"{leader.name} is banned in Commander, so a deck led by it isn\u2019t legal.")
    for leader in leaders:
        if leader.chooses_color:
            warnings.append(
                f"{leader.name} has you choose a color before the game begins (CR 903.4b); that color also "
                f"belongs to the deck\u2019s color identity but isn\u2019t counted here."
            )

    deck = set()
    for leader in leaders:
        deck.update(leader.identity)
    deck_identity = "".join(c for c in WUBRG if c in deck)
    outside = "".join(c for c in card_analysis.identity if c not in deck)
    evidence = {c: card_analysis.reasons_for(c, Aspect.IDENTITY) for c in outside}
    return FitResult(
        fits=not outside,
        card=card_analysis,
        commanders=leaders,
        deck_identity=deck_identity,
        outside=outside,
        evidence=evidence,
        warnings=tuple(dict.fromkeys(warnings)),
    )
