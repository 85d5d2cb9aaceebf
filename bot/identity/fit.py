"""Does a card fit a deck led by one or two commanders? (CR 903.5c, 903.4b, 903.3, 702.124) The deck's
identity is its commanders' union (702.124c); a card fits when its identity is a subset (903.5c). A color
chosen before the game (903.4b) counts; an open choice gives FITS_IF_CHOSEN with every assignment that covers
the card. DECK_CANT_EXIST: no legal deck holds it (903.3, 702.124, ban list, not a deck card). Commanders
given as `Analysis` are checked only for 903.4b and for being deck cards."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from bot.identity.commander import check_pairing, commander_eligibility, is_banned
from bot.identity.engine import analyze, with_chosen_color
from bot.identity.model import (
    Analysis,
    Aspect,
    ColorChoice,
    DeckBlocker,
    FitResult,
    FitVerdict,
    IdentityError,
    Verdict,
    VerdictCode,
)
from bot.identity.symbols import WUBRG, wubrg


def _as_analysis(obj: dict | Analysis, what: str) -> Analysis:
    if isinstance(obj, Analysis):
        return obj
    if isinstance(obj, dict):
        return analyze(obj)
    raise IdentityError(f"{what} must be a card object (dict) or an Analysis, got {type(obj).__name__}")


def _normalize_chosen(chosen: Sequence[str | None] | None, count: int) -> tuple[str | None, ...]:
    if chosen is None:
        return (None,) * count
    if isinstance(chosen, str) or not isinstance(chosen, Sequence) or len(chosen) != count:
        raise IdentityError("chosen must hold one entry (a color letter or None) per commander")
    for entry in chosen:
        if entry is not None and not (isinstance(entry, str) and len(entry) == 1 and entry.upper() in WUBRG):
            raise IdentityError(f"a chosen color is one of W, U, B, R, G or None; got {entry!r}")
    return tuple(entry and entry.upper() for entry in chosen)


def _blockers_and_problems(
    card: dict | Analysis, analysis: Analysis, given: Sequence[dict | Analysis], leaders: tuple[Analysis, ...]
) -> tuple[list[DeckBlocker], list[Verdict], list[str]]:
    """(blockers, failing commander verdicts, names of banned commanders)."""
    blockers: list[DeckBlocker] = []
    problems: list[Verdict] = []
    dicts = [c for c in given if isinstance(c, dict)]
    if len(given) == 2 and len(dicts) == 2:
        if not (pairing := check_pairing(dicts[0], dicts[1])).ok:
            problems.append(pairing)
            ineligible = pairing.code is VerdictCode.PAIRED_BUT_INELIGIBLE
            blockers.append(DeckBlocker.COMMANDER_INELIGIBLE if ineligible else DeckBlocker.PAIR_INVALID)
    else:
        for c in dicts:
            if not (verdict := commander_eligibility(c)).ok:
                problems.append(verdict)
                blockers.append(DeckBlocker.COMMANDER_INELIGIBLE)
    pairs = list(zip(given, leaders, strict=True))
    if any(not leader.deck_card for c, leader in pairs if not isinstance(c, dict)):
        blockers.append(DeckBlocker.COMMANDER_INELIGIBLE)
    if banned := [leader.name for c, leader in pairs if is_banned(c)]:
        blockers.append(DeckBlocker.COMMANDER_BANNED)
    if is_banned(card):
        blockers.append(DeckBlocker.CARD_BANNED)
    if not analysis.deck_card:
        blockers.append(DeckBlocker.NOT_A_DECK_CARD)
    return sorted(set(blockers), key=list(DeckBlocker).index), list(dict.fromkeys(problems)), banned


def _choice_options(
    outside: str, leaders: tuple[Analysis, ...], choosers: tuple[int, ...]
) -> tuple[tuple[ColorChoice, ...], ...]:
    """Every way the open color choices (one color each) cover all of `outside`."""
    if not outside or len(outside) > len(choosers):
        return ()
    options = []
    for who in permutations(choosers, len(outside)):
        picks = sorted(zip(who, outside, strict=True))  # by commander index
        options.append(tuple(ColorChoice(leaders[i].name, i, color) for i, color in picks))
    return tuple(dict.fromkeys(options))


def check_fit(
    card: dict | Analysis, commanders: Sequence[dict | Analysis], chosen: Sequence[str | None] | None = None
) -> FitResult:
    """Whether `card` may be in a deck led by one or two `commanders`; `chosen`: per commander the color
    chosen before the game (CR 903.4b) or None. `IdentityError` for bad counts, colors, or choosers."""
    if isinstance(commanders, dict | Analysis | str) or not isinstance(commanders, Sequence):
        raise IdentityError("commanders must be a sequence of one or two card objects")
    if not 1 <= len(commanders) <= 2:
        raise IdentityError(f"a deck has one or two commanders, got {len(commanders)}")
    card_analysis = _as_analysis(card, "card")
    base = tuple(_as_analysis(c, "commander") for c in commanders)
    picks = _normalize_chosen(chosen, len(base))
    picked = list(zip(base, picks, strict=True))
    leaders = tuple(leader if pick is None else with_chosen_color(leader, pick) for leader, pick in picked)
    blockers, problems, banned = _blockers_and_problems(card, card_analysis, commanders, base)
    choosers = tuple(i for i, (leader, pick) in enumerate(picked) if leader.chooses_color and pick is None)

    deck_identity = wubrg("".join(leader.identity for leader in leaders))
    outside = "".join(c for c in card_analysis.identity if c not in deck_identity)
    options = _choice_options(outside, base, choosers)
    verdict = FitVerdict.FITS_IF_CHOSEN if options else FitVerdict.DOES_NOT_FIT
    verdict = FitVerdict.DECK_CANT_EXIST if blockers else FitVerdict.FITS if not outside else verdict
    return FitResult(
        fits=not outside,
        card=card_analysis,
        commanders=leaders,
        deck_identity=deck_identity,
        outside=outside,
        evidence={c: card_analysis.reasons_for(c, Aspect.IDENTITY) for c in outside},
        verdict=verdict,
        blockers=tuple(blockers),
        choice_options=options,
        chosen=picks,
        open_choices=choosers,
        commander_problems=tuple(problems),
        banned_commanders=tuple(banned),
    )


class ChosenColorMisplaced(IdentityError):
    """A chosen color (CR 903.4b) given for a commander that chooses none: `option` is "color" or
    "partner_color"; `commander` the name of the card it would apply to (None: there is no partner)."""

    def __init__(self, option: str, commander: str | None) -> None:
        super().__init__(f"{option}: {commander or 'no partner'} chooses no color (CR 903.4b)")
        self.option, self.commander = option, commander


def assign_chosen(
    leaders: Sequence[Analysis], color: str | None, partner_color: str | None
) -> list[str | None]:
    """Each commander's color chosen before the game (CR 903.4b), from /fits' `color` (the partner's when only
    the partner chooses) and `partner_color`; ChosenColorMisplaced for one that chooses none."""
    chosen: list[str | None] = [None] * len(leaders)
    partner = leaders[1] if len(leaders) > 1 else None
    if partner_color is not None:
        if partner is None or not partner.chooses_color:
            raise ChosenColorMisplaced("partner_color", partner.name if partner else None)
        chosen[1] = partner_color
    if color is not None:
        if leaders[0].chooses_color:
            chosen[0] = color
        elif partner is not None and partner.chooses_color and partner_color is None:
            chosen[1] = color
        else:
            raise ChosenColorMisplaced("color", leaders[0].name)
    return chosen
