"""Sentences for the engine's facts: commander verdicts (CR 903.3, 702.124), objects that are not deck cards,
the /identity summary and its lessons, chosen colors (CR 903.4b). Plain text with markdown only where a
function says so; names are escaped by the caller's choice (`escape=`). Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from bot.identity.model import (
    Analysis,
    CdaKind,
    ColorChoice,
    FaceRole,
    NonDeckKind,
    Note,
    ReasonKind,
    Verdict,
    VerdictCode,
)
from bot.identity.pairing import PairingKind, PairingTrait, PairingTraits
from bot.identity.symbols import SymbolKind
from bot.present import render
from bot.present.render import Emoji

NON_DECK_WORDS: dict[NonDeckKind, str] = {
    NonDeckKind.TOKEN: "a token",
    NonDeckKind.EMBLEM: "an emblem",
    NonDeckKind.MELD_RESULT: "a meld result",
    NonDeckKind.VANGUARD: "a Vanguard card",
    NonDeckKind.PLANE: "a Planechase plane or phenomenon",
    NonDeckKind.SCHEME: "an Archenemy scheme",
    NonDeckKind.ART_CARD: "an art card",
    NonDeckKind.FRONT_CARD: "a Jumpstart front card",
    NonDeckKind.CHECKLIST: "a checklist, substitute or helper card",
    NonDeckKind.DUNGEON: "a dungeon",
}
_NON_DECK_WHY: dict[NonDeckKind, str] = {
    NonDeckKind.TOKEN: "an effect creates it during the game (CR 111.1)",
    NonDeckKind.EMBLEM: "an effect creates it during the game (CR 114.1)",
    NonDeckKind.MELD_RESULT: "it is the back faces of two meld cards put together during the game",
    NonDeckKind.VANGUARD: "it belongs to the Vanguard variant (CR 902)",
    NonDeckKind.PLANE: "it belongs to the planar deck of Planechase (CR 901)",
    NonDeckKind.SCHEME: "it belongs to the scheme deck of Archenemy (CR 904)",
    NonDeckKind.ART_CARD: "it is an insert, not a game card",
    NonDeckKind.FRONT_CARD: "it is an insert, not a game card",
    NonDeckKind.CHECKLIST: "it stands in for other cards or helps track the game; it is not a game card",
    NonDeckKind.DUNGEON: "it waits outside the game until you venture into the dungeon (CR 309)",
}


def _plain(text: str) -> str:
    return text


def possessive(name: str) -> str:
    """"Tymna the Weaver" -> "Tymna the Weaver's"; "Kitchen Finks" -> "Kitchen Finks'"."""
    return f"{name}'" if name.endswith("s") and not name.endswith("ss") else f"{name}'s"


def not_deck_sentence(name: str, kind: NonDeckKind) -> str:
    """'Goblin is a token, not a card you put in a deck: an effect creates it during the game (CR 111.1).'"""
    return f"{name} is {NON_DECK_WORDS[kind]}, not a card you put in a deck: {_NON_DECK_WHY[kind]}."


# ----------------------------------------------------------------------------- commander verdicts
_ELIGIBLE: dict[VerdictCode, str] = {
    VerdictCode.LEGENDARY_CREATURE: "{name} is a legendary creature",
    VerdictCode.SAYS_IT_CAN: "{name}\u2019s text says it can be your commander",
    VerdictCode.CREATURE_OFF_BATTLEFIELD: "{name} is a legendary creature while it isn\u2019t on the battlefield",
    VerdictCode.LEGENDARY_VEHICLE: "{name} is a legendary Vehicle",
    VerdictCode.LEGENDARY_SPACECRAFT: "{name} is a legendary Spacecraft with a power/toughness box",
}
_INELIGIBLE: dict[VerdictCode, str] = {
    VerdictCode.SPACECRAFT_WITHOUT_BOX: "{name} is a legendary Spacecraft without a power/toughness box, and only a "
                                        "Spacecraft with one can be your commander (CR 903.3).",
    VerdictCode.BACKGROUND_ALONE: "{name} is a Background: it can be your commander only alongside a legendary "
                                  "creature with \u201cChoose a Background\u201d (CR 702.124k).",
    VerdictCode.LEGENDARY_NOT_CREATURE: "{name} is a legendary card but not a creature, and no text on it says it "
                                        "can be your commander (CR 903.3).",
    VerdictCode.CREATURE_NOT_LEGENDARY: "{name} is a creature but not legendary, and no text on it says it can be "
                                        "your commander (CR 903.3).",
    VerdictCode.NEITHER: "{name} is not a legendary creature, and no text on it says it can be your commander "
                         "(CR 903.3).",
}


def verdict_sentence(verdict: Verdict, name: Callable[[str], str] = _plain) -> str:
    """The sentence for any commander verdict (eligibility or pairing). `name` formats card names (escape,
    bold)."""
    if verdict.code in _PAIRING_CODES:
        return _pairing_sentence(verdict, name)
    return _eligibility_sentence(verdict, name)


def _eligibility_sentence(verdict: Verdict, name: Callable[[str], str]) -> str:
    who = name(verdict.card or "This card")
    if verdict.code is VerdictCode.NOT_A_DECK_CARD and verdict.not_deck_card is not None:
        return f"{who} is {NON_DECK_WORDS[verdict.not_deck_card]}, not a card you can put in a deck."
    if verdict.ok:
        why = _ELIGIBLE.get(verdict.code, "{name} can be your commander").format(name=who)
        tail = ", though it is banned in Commander" if verdict.banned else ""
        return f"{why}, so it can be your commander{tail}."
    return _INELIGIBLE.get(verdict.code, _INELIGIBLE[VerdictCode.NEITHER]).format(name=who)


_PAIRING_CODES = frozenset({
    VerdictCode.PAIRED, VerdictCode.PAIRED_BUT_INELIGIBLE, VerdictCode.SAME_CARD, VerdictCode.PARTNER_WITH_OTHER,
    VerdictCode.PARTNER_WITH_ONE_WAY, VerdictCode.VARIANT_ONLY, VerdictCode.NO_SHARED_ABILITY,
})


def _label(trait: PairingTrait) -> str:
    if trait.kind is PairingKind.PARTNER_TEXT:
        return "Friends forever" if trait.text == "Friends forever" else f"Partner\u2014{trait.text}"
    if trait.kind is PairingKind.PARTNER_WITH:
        return f"\u201cPartner with {trait.text}\u201d"
    return {
        PairingKind.PARTNER: "Partner",
        PairingKind.CHOOSE_BACKGROUND: "\u201cChoose a Background\u201d",
        PairingKind.DOCTORS_COMPANION: "Doctor\u2019s companion",
    }.get(trait.kind, trait.kind.value)


def traits_words(traits: PairingTraits) -> str:
    """What lets a card share the command zone: 'has Partner', 'is a Background', 'has no ability ...'."""
    if not traits:
        return "has no ability that lets it share the command zone"
    has: list[str] = []
    is_: list[str] = []
    for t in sorted(traits.traits):
        if t.kind is PairingKind.BACKGROUND:
            is_.append("is a Background")
        elif t.kind is PairingKind.TIME_LORD_DOCTOR:
            is_.append("is a Time Lord Doctor")
        else:
            has.append(_label(t))
    phrases = ([f"has {render.and_list(has)}"] if has else []) + is_
    return render.and_list(phrases)


def _paired_words(verdict: Verdict, a: str, b: str) -> str:
    ta, tb = (verdict.traits + (PairingTraits(), PairingTraits()))[:2]
    kind = verdict.pairing
    if kind is PairingKind.PARTNER:
        return f"{a} and {b} both have Partner"
    if kind is PairingKind.PARTNER_TEXT:
        return f"{a} and {b} both have {_label(PairingTrait(PairingKind.PARTNER_TEXT, verdict.variant))}"
    if kind is PairingKind.PARTNER_WITH:
        return f"{a} and {b} each have \u201cPartner with\u201d naming the other"
    if kind is PairingKind.CHOOSE_BACKGROUND:
        if ta.has(PairingKind.CHOOSE_BACKGROUND) and tb.has(PairingKind.BACKGROUND):
            return f"{a} has \u201cChoose a Background\u201d and {b} is a Background"
        return f"{b} has \u201cChoose a Background\u201d and {a} is a Background"
    if ta.has(PairingKind.DOCTORS_COMPANION) and tb.has(PairingKind.TIME_LORD_DOCTOR):
        return f"{a} has Doctor\u2019s companion and {b} is a Time Lord Doctor"
    return f"{b} has Doctor\u2019s companion and {a} is a Time Lord Doctor"


def _pairing_sentence(verdict: Verdict, name: Callable[[str], str]) -> str:
    a, b = name(verdict.card), name(verdict.other)
    code = verdict.code
    if code is VerdictCode.PAIRED:
        return f"{_paired_words(verdict, a, b)}, so they can be commanders together (CR 702.124)."
    if code is VerdictCode.PAIRED_BUT_INELIGIBLE:
        cause = _eligibility_sentence(verdict.cause, name) if verdict.cause is not None else ""
        return f"{_paired_words(verdict, a, b)}, but {cause}"
    if code is VerdictCode.SAME_CARD:
        return f"A deck can\u2019t have two copies of {a} as its commanders."
    ty = verdict.traits[1] if len(verdict.traits) > 1 else PairingTraits()
    trait = verdict.trait
    if code is VerdictCode.PARTNER_WITH_OTHER and trait is not None:
        partner = name(trait.text)
        return (f"{a} has \u201cPartner with {partner}\u201d, so it can only be paired with {partner}, not {b} "
                f"(CR 702.124j).")
    if code is VerdictCode.PARTNER_WITH_ONE_WAY:
        return f"{b} {traits_words(ty)}, so it can\u2019t be paired through \u201cPartner with\u201d (CR 702.124j)."
    if code is VerdictCode.VARIANT_ONLY and trait is not None:
        label = _label(trait)
        return (f"{a} has {label}, which pairs only with another commander that has {label}; {b} "
                f"{traits_words(ty)} (CR 702.124i).")
    ta = verdict.traits[0] if verdict.traits else PairingTraits()
    joiner = " and " if len(ta.traits) <= 1 else ", and "
    return (f"{a} {traits_words(ta)}{joiner}{b} {traits_words(ty)}, so they can\u2019t be commanders together "
            f"(CR 702.124).")


def ineligible_name(verdict: Verdict) -> str:
    """The card a failing commander verdict is about: the one that can't be a commander."""
    if verdict.code is VerdictCode.PAIRED_BUT_INELIGIBLE and verdict.cause is not None:
        return verdict.cause.card
    return verdict.card


def is_pairing(verdict: Verdict) -> bool:
    """Whether the verdict is about a pair (CR 702.124) rather than one commander (CR 903.3)."""
    return verdict.code in _PAIRING_CODES


# --------------------------------------------------------------------------------- chosen colors
def choice_words(options: Sequence[Sequence[ColorChoice]], name: Callable[[str], str] = _plain) -> str:
    """'red for Clara Oswald', 'white for A and red for B, or red for A and white for B'."""
    phrases = [render.and_list(f"{render.color_name(c.color)} for {name(c.commander)}" for c in option)
               for option in options]
    return ", or ".join(phrases) if any(" and " in p for p in phrases) else render.and_list(phrases, "or")


# ---------------------------------------------------------------------------- the /identity summary
def _face_roles(analysis: Analysis, colors: str) -> set[str]:
    """Why identity colors beyond the card's colors are there: 'text', 'back', 'alternative', 'land',
    'indicator', 'chosen', 'cda', 'token'."""
    roles = {f.name: f.role for f in analysis.faces}
    why: set[str] = set()
    for r in analysis.identity_reasons:
        if r.color not in colors:
            continue
        role = roles.get(r.face, FaceRole.ONLY)
        if role is FaceRole.BACK:
            why.add("back")
        elif role is FaceRole.ALTERNATIVE:
            why.add("alternative")
        elif r.kind is ReasonKind.RULES_TEXT:
            why.add("text")
        elif r.kind is ReasonKind.BASIC_LAND_TYPE:
            why.add("land")
        elif r.kind is ReasonKind.COLOR_INDICATOR:
            why.add("indicator")
        elif r.kind is ReasonKind.CHOSEN_COLOR:
            why.add("chosen")
        elif r.kind is ReasonKind.CDA:
            why.add("cda")
        else:
            why.add("other")
    return why


def alternative_part_word(type_line: str) -> str:
    """What an alternative part (CR 715 adventurer, 720 omen cards) is called, from its type line: 'Adventure',
    'Omen', or 'other part'."""
    type_words = type_line.split()
    return next((t for t in ("Adventure", "Omen") if t in type_words), "other part")


def _alternative_kind(analysis: Analysis) -> str:
    for f in analysis.faces:
        if f.role is FaceRole.ALTERNATIVE:
            return alternative_part_word(f.type_line)
    return "other part"


def _extra_causes(analysis: Analysis, extra: str) -> str:
    why = _face_roles(analysis, extra)
    parts: list[tuple[str, str]] = []  # (what counts too, its rule)
    if "text" in why:
        parts.append(("mana symbols in its rules text", "903.4"))
    if "back" in why:
        parts.append(("its back face", "903.4d"))
    if "alternative" in why:
        parts.append((f"its {_alternative_kind(analysis)}", "903.4"))
    if "indicator" in why:
        parts.append(("the color indicator of another part", "903.4"))
    if "chosen" in why:
        parts.append(("the color chosen before the game", "903.4b"))
    causes: list[str] = []
    if parts:
        rules = ", ".join(dict.fromkeys(rule for _, rule in parts))
        verb = "counts" if len(parts) == 1 and not parts[0][0].startswith("mana symbols") else "count"
        causes.append(f"{render.and_list(what for what, _ in parts)} {verb} too (CR {rules})")
    if "land" in why:
        causes.append("a land may only join a deck whose identity has every color its basic land types tap for "
                      "(CR 903.5d)")
    return "; ".join(causes) or "more of the card counts toward its identity (CR 903.4)"


def identity_summary(analysis: Analysis, name: Callable[[str], str] = _plain) -> str:
    """One sentence: the card's color against its color identity, and why they differ (CR 903.4)."""
    who = name(analysis.name or "This card")
    colors, ident = analysis.colors, analysis.identity
    removing = next((r for r in analysis.color_reasons if r.removes), None)
    all_colors_cda = any(r.cda is CdaKind.ALL_COLORS for r in analysis.color_reasons)
    if removing is not None and removing.cda is CdaKind.DEVOID:
        color_part = f"{who} is colorless because of Devoid"
        removed_why = "Devoid changes its color only, not its color identity (CR 702.114a, 903.4)"
    elif removing is not None:
        color_part = f"{who} is colorless by its own text (\u201c{removing.text or ''}\u201d)"
        removed_why = "that changes its color only, not its color identity (CR 604.3)"
    elif all_colors_cda and len(colors) == 5:
        color_part = f"{who} is all colors by its own text (CR 604.3)"
        removed_why = ""
    else:
        color_part = f"{who} is {render.color_words(colors)}"
        removed_why = ""
    if Note.CDA_KEEPS_IDENTITY in analysis.notes and not set(colors) <= set(ident):
        return (f"{color_part}, but its color identity is {render.color_words(ident)}: the same text says that "
                f"ability doesn\u2019t affect its color identity, and a card\u2019s own text wins (CR 101.1).")
    if ident == colors:
        if not ident:
            return (f"{color_part}, and so is its color identity: it has no colored mana symbol, color indicator "
                    f"or basic land type.")
        return f"{color_part}, and so is its color identity."
    extra = "".join(c for c in ident if c not in colors)
    if removed_why:
        return f"{color_part}, but its color identity is {render.color_words(ident)}: {removed_why}."
    return f"{color_part}, but its color identity is {render.color_words(ident)}: {_extra_causes(analysis, extra)}."


_SYMBOL_LESSONS: dict[SymbolKind, str] = {
    SymbolKind.HYBRID: "Hybrid {sym} counts as both {colors}, though either can pay for it.",
    SymbolKind.PHYREXIAN: "Phyrexian {sym} counts as {colors}, though 2 life can pay for it.",
    SymbolKind.PHYREXIAN_HYBRID: "Phyrexian hybrid {sym} counts as {colors}, though 2 life can pay for it.",
    SymbolKind.TWO_HYBRID: "{sym} counts as {colors}, though {two} can pay for it.",
    SymbolKind.COLORLESS_HYBRID: "{sym} counts as {colors}, though {colorless} can pay for it.",
}


def lessons(analysis: Analysis, emoji: Emoji = None, *, markdown: bool = True) -> list[str]:
    """What the card exists to teach, each once: hybrid/Phyrexian symbols count as their colors; symbols in
    reminder text don't count (CR 903.4c); color words don't count (CR 903.4); a color chosen before the game
    joins the identity (CR 903.4b)."""
    shown = emoji if markdown else None
    out: list[str] = []
    seen: set[SymbolKind] = set()
    for r in analysis.identity_reasons:
        kind = r.symbol_kind
        if kind is None or kind in seen or kind not in _SYMBOL_LESSONS or not r.symbol:
            continue
        seen.add(kind)
        colors = "".join(x.color for x in analysis.identity_reasons if x.symbol == r.symbol)
        out.append(_SYMBOL_LESSONS[kind].format(sym=render.symbol(r.symbol, shown), colors=render.color_words(colors),
                                                two=render.symbol("{2}", shown), colorless=render.symbol("{C}", shown)))
    hidden = [s for s in analysis.reminder_symbols if not set(s.colors) <= set(analysis.identity)][:3]
    if hidden:
        syms = render.and_list(render.symbol(s.raw, shown) for s in hidden)
        verb = "don\u2019t" if len(hidden) > 1 else "doesn\u2019t"
        out.append(f"The {syms} in its reminder text {verb} count: reminder text is ignored (CR 903.4c).")
    words = "".join(c for c in analysis.color_words if c not in analysis.identity)
    if words:
        named = render.and_list(f"\u201c{render.color_name(c)}\u201d" for c in words)
        plural = len(words) > 1
        out.append(f"The word{'s' if plural else ''} {named} in its text {'don' if plural else 'doesn'}\u2019t count: "
                   f"words never add to color identity, mana symbols do (CR 903.4).")
    if Note.CHOOSES_COLOR in analysis.notes:
        out.append("As your commander, it has you choose a color before the game begins; that color joins its "
                   "color identity (CR 903.4b).")
    return out


def deck_line(analysis: Analysis) -> str:
    """Which Commander decks the card can join."""
    if not analysis.identity:
        return "A colorless identity fits every Commander deck."
    return (f"It can go in a Commander deck whose commander\u2019s identity includes "
            f"{render.color_words(analysis.identity)}.")


def token_colors_sentence(analysis: Analysis) -> str:
    """What is known of a token's colors (set by the effect that creates it)."""
    if Note.TOKEN_COLORS_UNRECORDED in analysis.notes:
        return "Its colors come from the effect that creates it, and this card data records none."
    return f"The effect that creates it makes it {render.color_words(analysis.colors)}."


def names_list(names: Iterable[str], name: Callable[[str], str] = _plain) -> str:
    """'A', 'A and B' with each name formatted."""
    return render.and_list(name(n) for n in names)
