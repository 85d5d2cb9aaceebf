"""Plain-English sentences for evidence and fit results (for Discord embeds). Pure string work.

`describe(reason)` → e.g. "the {B} in its flashback cost (rules text)",
"the {B/P} (Phyrexian mana) in its mana cost {1}{B/P}", "Homicidal Brute's red color indicator".
`identity_phrase("R")` → "mono-red"; `explain_fit(fit)` → a sentence naming each outside color and where
on the card it comes from (CR 903.5c).
"""

from __future__ import annotations

from bot.identity.model import COLOR_NAMES, WUBRG, FitResult, Reason, ReasonKind

_SPECIAL_SYMBOL_KINDS = {
    "hybrid mana",
    "two-generic hybrid mana",
    "colorless hybrid mana",
    "Phyrexian mana",
    "Phyrexian hybrid mana",
    "half mana",
}


_RULES_TEXT_PHRASES = {
    "mana ability": "the {symbol} that {owner} mana ability adds (rules text)",
    "mana it adds": "the {symbol} in the mana {owner} text adds (rules text)",
    "cost it asks for": "the {symbol} {owner} text asks someone to pay (rules text)",
    "cost change": "the {symbol} in {owner} cost-changing text (rules text)",
    "granted ability's cost": "the {symbol} in the cost of an ability {owner} text grants (rules text)",
    "granted mana ability": "the {symbol} in a mana ability {owner} text grants (rules text)",
    "granted ability": "the {symbol} in an ability {owner} text grants (rules text)",
}


def color_name(letter: str) -> str:
    return COLOR_NAMES.get(letter, letter)


def identity_phrase(colors: str) -> str:
    """ "" → "colorless", "R" → "mono-red", "BR" → "black-red", 3+ → "white, blue and black"."""
    colors = "".join(c for c in WUBRG if c in colors)
    if not colors:
        return "colorless"
    names = [color_name(c) for c in colors]
    if len(names) == 1:
        return f"mono-{names[0]}"
    if len(names) == 2:
        return "-".join(names)
    if len(names) == 5:
        return "all five colors"
    return ", ".join(names[:-1]) + " and " + names[-1]


def _owner(reason: Reason, card_name: str | None) -> str:
    if card_name is None or not reason.face or reason.face == card_name:
        return "its"
    return f"{reason.face}\u2019s"


def describe(reason: Reason, card_name: str | None = None) -> str:
    """One phrase saying where `reason.color` comes from. Pass the card's name to name other faces."""
    owner = _owner(reason, card_name)
    kind = reason.kind
    detail = reason.detail or ""
    symbol = reason.symbol or ""
    if kind is ReasonKind.MANA_COST:
        extra = f" ({detail})" if detail in _SPECIAL_SYMBOL_KINDS else ""
        cost = f" {reason.text}" if reason.text else ""
        return f"the {symbol}{extra} in {owner} mana cost{cost}"
    if kind is ReasonKind.RULES_TEXT:
        template = _RULES_TEXT_PHRASES.get(detail)
        if template is not None:
            return template.format(symbol=symbol, owner=owner)
        if not detail or detail == "rules text":
            return f"the {symbol} in {owner} rules text"
        return f"the {symbol} in {owner} {detail} (rules text)"
    if kind is ReasonKind.COLOR_INDICATOR:
        return f"{owner} {color_name(reason.color)} color indicator"
    if kind is ReasonKind.CDA:
        if reason.removes:
            if detail == "Devoid":
                return f"Devoid, which makes {'it' if owner == 'its' else reason.face} colorless"
            return f"\u201c{(reason.text or '').strip()}\u201d, which makes it colorless"
        return f"\u201c{(reason.text or '').strip()}\u201d (a characteristic-defining ability)"
    if kind is ReasonKind.BASIC_LAND_TYPE:
        land = detail.removesuffix(" type") if detail else "basic land"
        return f"{owner} {land} land type (it taps for {{{reason.color}}})"
    if kind is ReasonKind.CHOSEN_COLOR:
        return f"the color chosen for it before the game ({color_name(reason.color)})"
    if kind is ReasonKind.TOKEN_COLOR:
        return f"the effect that creates it, which makes it {color_name(reason.color)}"
    return f"{owner} {kind.value}"


def explain_fit(fit: FitResult) -> str:
    """A sentence for a fit result: why each outside color is outside, or that it fits."""
    leaders = " and ".join(c.name for c in fit.commanders) or "the commander"
    deck = identity_phrase(fit.deck_identity)
    verb = "are" if len(fit.commanders) > 1 else "is"
    if fit.fits:
        return (
            f"{fit.card.name} ({identity_phrase(fit.card.identity)}) fits: {leaders} {verb} {deck}."
        )
    parts = []
    for color in fit.outside:
        reasons = fit.evidence.get(color, ())
        where = "; ".join(describe(r, fit.card.name) for r in reasons[:3]) or "its color identity"
        parts.append(f"{color_name(color)} comes from {where}")
    return f"{fit.card.name} doesn\u2019t fit: " + ", and ".join(parts) + f". {leaders} {verb} {deck}."
