"""Sentences for the engine's facts: commander verdicts (CR 903.3, 702.124), non-deck objects, the /identity
summary and lessons, chosen colors (CR 903.4b). `name=` formats card names (escape, bold)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.identity import Analysis, ColorChoice, NonDeckKind, Verdict, VerdictCode
from bot.identity.model import CdaKind, FaceRole, Note, ReasonKind
from bot.identity.pairing import PairingKind, PairingTrait, PairingTraits
from bot.identity.symbols import SymbolKind
from bot.present import render
from bot.present.i18n import N_, _, ngettext
from bot.present.render import Emoji

NAME_WIDTH = 120  # characters of a card name shown in a sentence

NON_DECK_WORDS: dict[NonDeckKind, str] = {
    NonDeckKind.TOKEN: N_("a token"),
    NonDeckKind.EMBLEM: N_("an emblem"),
    NonDeckKind.MELD_RESULT: N_("a meld result"),
    NonDeckKind.VANGUARD: N_("a Vanguard card"),
    NonDeckKind.PLANE: N_("a Planechase plane or phenomenon"),
    NonDeckKind.SCHEME: N_("an Archenemy scheme"),
    NonDeckKind.ART_CARD: N_("an art card"),
    NonDeckKind.FRONT_CARD: N_("a Jumpstart front card"),
    NonDeckKind.CHECKLIST: N_("a checklist, substitute or helper card"),
    NonDeckKind.DUNGEON: N_("a dungeon"),
}
_NON_DECK_WHY: dict[NonDeckKind, str] = {
    NonDeckKind.TOKEN: N_("an effect creates it during the game (CR 111.1)"),
    NonDeckKind.EMBLEM: N_("an effect creates it during the game (CR 114.1)"),
    NonDeckKind.MELD_RESULT: N_("it is the back faces of two meld cards put together during the game"),
    NonDeckKind.VANGUARD: N_("it belongs to the Vanguard variant (CR 902)"),
    NonDeckKind.PLANE: N_("it belongs to the planar deck of Planechase (CR 901)"),
    NonDeckKind.SCHEME: N_("it belongs to the scheme deck of Archenemy (CR 904)"),
    NonDeckKind.ART_CARD: N_("it is an insert, not a game card"),
    NonDeckKind.FRONT_CARD: N_("it is an insert, not a game card"),
    NonDeckKind.CHECKLIST: N_("it stands in for other cards or helps track the game; it is not a game card"),
    NonDeckKind.DUNGEON: N_("it waits outside the game until you venture into the dungeon (CR 309)"),
}


def plain(name: str) -> str:
    """A card name where bold would be noise (titles, field lines), on one line."""
    return render.escape(render.truncate(" ".join(name.split()), NAME_WIDTH))


def shown(name: str) -> str:
    return f"**{plain(name)}**"


_POSSESSIVE = N_("{name}'s")


def possessive_shown(name: str) -> str:
    """'**Kitchen Finks**\'', '**Dismember**\'s' (mark outside the bold), or the catalog's form."""
    cut = render.truncate(name, NAME_WIDTH)
    if (form := _(_POSSESSIVE)) == _POSSESSIVE:
        form = "{name}'" if cut.endswith("s") and not cut.endswith("ss") else "{name}'s"
    return form.format(name=shown(cut))


def non_deck_words(kind: NonDeckKind | None) -> str:
    return _(NON_DECK_WORDS[kind]) if kind is not None else _("not a card")


def not_deck_sentence(name: str, kind: NonDeckKind) -> str:
    """'Goblin is a token, not a card you put in a deck: an effect creates it during the game (CR 111.1).'"""
    what, why = non_deck_words(kind), _(_NON_DECK_WHY[kind])
    return _("{name} is {what}, not a card you put in a deck: {why}.").format(name=name, what=what, why=why)


_ELIGIBLE: dict[VerdictCode, str] = {
    VerdictCode.LEGENDARY_CREATURE: N_("{name} is a legendary creature"),
    VerdictCode.SAYS_IT_CAN: N_("{name}\u2019s text says it can be your commander"),
    VerdictCode.CREATURE_OFF_BATTLEFIELD: N_(
        "{name} is a legendary creature while it isn\u2019t on the battlefield"
    ),
    VerdictCode.LEGENDARY_VEHICLE: N_("{name} is a legendary Vehicle"),
    VerdictCode.LEGENDARY_SPACECRAFT: N_("{name} is a legendary Spacecraft with a power/toughness box"),
}
_CAN_BE = N_("{name} can be your commander")
_INELIGIBLE: dict[VerdictCode, str] = {
    VerdictCode.SPACECRAFT_WITHOUT_BOX: N_(
        "{name} is a legendary Spacecraft without a power/toughness box, and only a "
        "Spacecraft with one can be your commander (CR 903.3)."
    ),
    VerdictCode.BACKGROUND_ALONE: N_(
        "{name} is a Background: it can be your commander only alongside a legendary "
        "creature with \u201cChoose a Background\u201d (CR 702.124k)."
    ),
    VerdictCode.LEGENDARY_NOT_CREATURE: N_(
        "{name} is a legendary card but not a creature, and no text on it says it "
        "can be your commander (CR 903.3)."
    ),
    VerdictCode.CREATURE_NOT_LEGENDARY: N_(
        "{name} is a creature but not legendary, and no text on it says it can be your commander (CR 903.3)."
    ),
    VerdictCode.NEITHER: N_(
        "{name} is not a legendary creature, and no text on it says it can be your commander (CR 903.3)."
    ),
}


def verdict_sentence(verdict: Verdict, name: Callable[[str], str] = str) -> str:
    return (_pairing_sentence if is_pairing(verdict) else _eligibility_sentence)(verdict, name)


def _eligibility_sentence(verdict: Verdict, name: Callable[[str], str]) -> str:
    who = name(verdict.card or _("This card"))
    if verdict.code is VerdictCode.NOT_A_DECK_CARD and verdict.not_deck_card is not None:
        what = non_deck_words(verdict.not_deck_card)
        return _("{name} is {what}, not a card you can put in a deck.").format(name=who, what=what)
    if verdict.ok:
        why = _(_ELIGIBLE.get(verdict.code, _CAN_BE)).format(name=who)
        if verdict.banned:
            return _("{why}, so it can be your commander, though it is banned in Commander.").format(why=why)
        return _("{why}, so it can be your commander.").format(why=why)
    return _(_INELIGIBLE.get(verdict.code, _INELIGIBLE[VerdictCode.NEITHER])).format(name=who)


_PAIRING_CODES = set(VerdictCode) - {*_ELIGIBLE, *_INELIGIBLE, VerdictCode.NOT_A_DECK_CARD}  # CR 702.124


def _label(trait: PairingTrait) -> str:
    if trait.kind is PairingKind.PARTNER_TEXT and trait.text == "Friends forever":
        return _("Friends forever")
    if trait.kind is PairingKind.PARTNER_TEXT:
        return _("Partner\u2014{text}").format(text=trait.text)
    if trait.kind is PairingKind.PARTNER_WITH:
        return _("\u201cPartner with {name}\u201d").format(name=trait.text)
    return _(label) if (label := _LABELS.get(trait.kind)) else trait.kind.value


_LABELS = {
    PairingKind.PARTNER: N_("Partner"),
    PairingKind.CHOOSE_BACKGROUND: N_("\u201cChoose a Background\u201d"),
    PairingKind.DOCTORS_COMPANION: N_("Doctor\u2019s companion"),
}
_IS = {
    PairingKind.BACKGROUND: N_("is a Background"),
    PairingKind.TIME_LORD_DOCTOR: N_("is a Time Lord Doctor"),
}


def traits_words(traits: PairingTraits) -> str:
    """What lets a card share the command zone: 'has Partner', 'is a Background', 'has no ability ...'."""
    if not traits:
        return _("has no ability that lets it share the command zone")
    has = [_label(t) for t in sorted(traits.traits) if t.kind not in _IS]
    is_ = [_(_IS[t.kind]) for t in sorted(traits.traits) if t.kind in _IS]
    phrases = ([_("has {abilities}").format(abilities=render.and_list(has))] if has else []) + is_
    return render.and_list(phrases)


def _paired_words(verdict: Verdict, a: str, b: str, ta: PairingTraits, tb: PairingTraits) -> str:
    if (kind := verdict.pairing) is PairingKind.PARTNER:
        return _("{a} and {b} both have Partner").format(a=a, b=b)
    if kind is PairingKind.PARTNER_TEXT:
        ability = _label(PairingTrait(PairingKind.PARTNER_TEXT, verdict.variant))
        return _("{a} and {b} both have {ability}").format(a=a, b=b, ability=ability)
    if kind is PairingKind.PARTNER_WITH:
        return _("{a} and {b} each have \u201cPartner with\u201d naming the other").format(a=a, b=b)
    if kind is PairingKind.CHOOSE_BACKGROUND:
        text = _("{a} has \u201cChoose a Background\u201d and {b} is a Background")
        in_order = ta.has(PairingKind.CHOOSE_BACKGROUND) and tb.has(PairingKind.BACKGROUND)
    else:
        text = _("{a} has Doctor\u2019s companion and {b} is a Time Lord Doctor")
        in_order = ta.has(PairingKind.DOCTORS_COMPANION) and tb.has(PairingKind.TIME_LORD_DOCTOR)
    return text.format(a=a, b=b) if in_order else text.format(a=b, b=a)


def _pairing_sentence(verdict: Verdict, name: Callable[[str], str]) -> str:
    a, b = name(verdict.card), name(verdict.other)
    ta, ty = (*verdict.traits, PairingTraits(), PairingTraits())[:2]
    code, trait = verdict.code, verdict.trait
    if code is VerdictCode.PAIRED:
        why = _paired_words(verdict, a, b, ta, ty)
        return _("{why}, so they can be commanders together (CR 702.124).").format(why=why)
    if code is VerdictCode.PAIRED_BUT_INELIGIBLE:
        cause = _eligibility_sentence(verdict.cause, name) if verdict.cause is not None else ""
        return _("{why}, but {cause}").format(why=_paired_words(verdict, a, b, ta, ty), cause=cause)
    if code is VerdictCode.SAME_CARD:
        return _("A deck can\u2019t have two copies of {a} as its commanders.").format(a=a)
    if code is VerdictCode.PARTNER_WITH_OTHER and trait is not None:
        return _(
            "{a} has \u201cPartner with {partner}\u201d, so it can only be paired with {partner}, not {b} "
            "(CR 702.124j)."
        ).format(a=a, b=b, partner=name(trait.text))
    if code is VerdictCode.PARTNER_WITH_ONE_WAY:
        return _(
            "{b} {traits}, so it can\u2019t be paired through \u201cPartner with\u201d (CR 702.124j)."
        ).format(b=b, traits=traits_words(ty))
    if code is VerdictCode.VARIANT_ONLY and trait is not None:
        return _(
            "{a} has {ability}, which pairs only with another commander that has {ability}; {b} {traits} "
            "(CR 702.124i)."
        ).format(a=a, b=b, ability=_label(trait), traits=traits_words(ty))
    text = (
        _("{a} {traits_a} and {b} {traits_b}, so they can\u2019t be commanders together (CR 702.124).")
        if len(ta.traits) <= 1
        else _("{a} {traits_a}, and {b} {traits_b}, so they can\u2019t be commanders together (CR 702.124).")
    )
    return text.format(a=a, b=b, traits_a=traits_words(ta), traits_b=traits_words(ty))


def ineligible_name(verdict: Verdict) -> str:
    """The card of a failing commander verdict that can't be a commander."""
    if verdict.code is VerdictCode.PAIRED_BUT_INELIGIBLE and verdict.cause is not None:
        return verdict.cause.card
    return verdict.card


def is_pairing(verdict: Verdict) -> bool:
    """About a pair (CR 702.124) rather than one commander (CR 903.3)."""
    return verdict.code in _PAIRING_CODES


def choice_words(options: Sequence[Sequence[ColorChoice]], name: Callable[[str], str] = str) -> str:
    """'red for Clara Oswald', 'white for A and red for B, or red for A and white for B'."""
    each = _("{color} for {commander}")
    phrases = [
        render.and_list(each.format(color=render.color_name(c.color), commander=name(c.commander)) for c in o)
        for o in options
    ]
    if any(len(o) > 1 for o in options):
        return _(", or ").join(phrases)
    return render.and_list(phrases, style="or")


_PART_WORDS = {"Adventure": N_("Adventure"), "Omen": N_("Omen")}


def alternative_part_word(type_line: str) -> str:
    """What an alternative part (CR 715, 720) is called: 'Adventure', 'Omen', 'other part'."""
    type_words = type_line.split()
    return next((_(w) for t, w in _PART_WORDS.items() if t in type_words), _("other part"))


def _extra_causes(analysis: Analysis, extra: str) -> str:
    roles = {f.name: f.role for f in analysis.faces}
    why: set[str] = set()  # a FaceRole for the back/alternative parts, else the ReasonKind
    for r in analysis.identity_reasons:
        if r.color in extra:
            role = roles.get(r.face, FaceRole.ONLY)
            why.add(role if role in (FaceRole.BACK, FaceRole.ALTERNATIVE) else r.kind)
    part = next((f.type_line for f in analysis.faces if f.role is FaceRole.ALTERNATIVE), "")
    causes = {
        ReasonKind.RULES_TEXT: (_("mana symbols in its rules text"), "903.4"),
        FaceRole.BACK: (_("its back face"), "903.4d"),
        FaceRole.ALTERNATIVE: (_("its {part}").format(part=alternative_part_word(part)), "903.4"),
        ReasonKind.COLOR_INDICATOR: (_("the color indicator of another part"), "903.4"),
        ReasonKind.CHOSEN_COLOR: (_("the color chosen before the game"), "903.4b"),
    }
    parts = [cause for key, cause in causes.items() if key in why]
    out: list[str] = []
    if parts:
        what = render.and_list(what for what, _rule in parts)
        plural = len(parts) > 1 or ReasonKind.RULES_TEXT in why
        text = _("{what} count too (CR {rules})") if plural else _("{what} counts too (CR {rules})")
        out.append(text.format(what=what, rules=", ".join(dict.fromkeys(rule for _what, rule in parts))))
    if ReasonKind.BASIC_LAND_TYPE in why:
        land = _(
            "a land may only join a deck whose identity has every color its basic land types tap for "
            "(CR 903.5d)"
        )
        out.append(land)
    return "; ".join(out) or _("more of the card counts toward its identity (CR 903.4)")


def _color_part(analysis: Analysis, who: str) -> tuple[str, str]:
    """'X is red' and, when its own text removes its color, why that leaves its identity alone."""
    removing = next((r for r in analysis.color_reasons if r.removes), None)
    if removing is not None and removing.cda is CdaKind.DEVOID:
        return (
            _("{card} is colorless because of Devoid").format(card=who),
            _("Devoid changes its color only, not its color identity (CR 702.114a, 903.4)"),
        )
    if removing is not None:
        own = removing.text or ""
        said = _("{card} is colorless by its own text (\u201c{text}\u201d)").format(card=who, text=own)
        return said, _("that changes its color only, not its color identity (CR 604.3)")
    if any(r.cda is CdaKind.ALL_COLORS for r in analysis.color_reasons) and len(analysis.colors) == 5:
        return _("{card} is all colors by its own text (CR 604.3)").format(card=who), ""
    return _("{card} is {colors}").format(card=who, colors=render.color_words(analysis.colors)), ""


def identity_summary(analysis: Analysis, name: Callable[[str], str] = str) -> str:
    """One sentence: the card's color against its color identity, and why they differ (CR 903.4)."""
    colors, ident = analysis.colors, analysis.identity
    color_part, removed_why = _color_part(analysis, name(analysis.name or _("This card")))
    identity = render.color_words(ident)
    if Note.CDA_KEEPS_IDENTITY in analysis.notes and not set(colors) <= set(ident):
        return _(
            "{color_part}, but its color identity is {identity}: the same text says that ability doesn\u2019t "
            "affect its color identity, and a card\u2019s own text wins (CR 101.1)."
        ).format(color_part=color_part, identity=identity)
    if ident == colors:
        if not ident:
            return _(
                "{color_part}, and so is its color identity: it has no colored mana symbol, color indicator "
                "or basic land type."
            ).format(color_part=color_part)
        return _("{color_part}, and so is its color identity.").format(color_part=color_part)
    why = removed_why or _extra_causes(analysis, "".join(c for c in ident if c not in colors))
    text = _("{color_part}, but its color identity is {identity}: {why}.")
    return text.format(color_part=color_part, identity=identity, why=why)


_SYMBOL_LESSONS: dict[SymbolKind, str] = {
    SymbolKind.HYBRID: N_("Hybrid {sym} counts as both {colors}, though either can pay for it."),
    SymbolKind.PHYREXIAN: N_("Phyrexian {sym} counts as {colors}, though 2 life can pay for it."),
    SymbolKind.PHYREXIAN_HYBRID: N_(
        "Phyrexian hybrid {sym} counts as {colors}, though 2 life can pay for it."
    ),
    SymbolKind.TWO_HYBRID: N_("{sym} counts as {colors}, though {two} can pay for it."),
    SymbolKind.COLORLESS_HYBRID: N_("{sym} counts as {colors}, though {colorless} can pay for it."),
}


def lessons(analysis: Analysis, emoji: Emoji = None) -> list[str]:
    """Hybrid, Phyrexian and chosen colors count (CR 903.4, 903.4b); reminder text (903.4c), words don't."""
    out: list[str] = []
    seen: set[SymbolKind] = set()
    for r in analysis.identity_reasons:
        if (kind := r.symbol_kind) is None or kind in seen or kind not in _SYMBOL_LESSONS or not r.symbol:
            continue
        seen.add(kind)
        colors = render.color_words(x.color for x in analysis.identity_reasons if x.symbol == r.symbol)
        sym, two, colorless = (render.symbol(s, emoji) for s in (r.symbol, "{2}", "{C}"))
        out.append(_(_SYMBOL_LESSONS[kind]).format(sym=sym, colors=colors, two=two, colorless=colorless))
    if hidden := [s for s in analysis.reminder_symbols if not set(s.colors) <= set(analysis.identity)][:3]:
        text = ngettext(
            "The {symbols} in its reminder text doesn\u2019t count: reminder text is ignored (CR 903.4c).",
            "The {symbols} in its reminder text don\u2019t count: reminder text is ignored (CR 903.4c).",
            len(hidden),
        )
        out.append(text.format(symbols=render.and_list(render.symbol(s.raw, emoji) for s in hidden)))
    if words := "".join(c for c in analysis.color_words if c not in analysis.identity):
        named = render.and_list(_("\u201c{word}\u201d").format(word=render.color_name(c)) for c in words)
        text = ngettext(
            "The word {words} in its text doesn\u2019t count: words never add to color identity, "
            "mana symbols do (CR 903.4).",
            "The words {words} in its text don\u2019t count: words never add to color identity, "
            "mana symbols do (CR 903.4).",
            len(words),
        )
        out.append(text.format(words=named))
    if Note.CHOOSES_COLOR in analysis.notes:
        text = _(
            "As your commander, it has you choose a color before the game begins; that color joins its "
            "color identity (CR 903.4b)."
        )
        out.append(text)
    return out


def deck_line(analysis: Analysis) -> str:
    if not analysis.identity:
        return _("A colorless identity fits every Commander deck.")
    text = _("It can go in a Commander deck whose commander\u2019s identity includes {colors}.")
    return text.format(colors=render.color_words(analysis.identity))


def token_colors_sentence(analysis: Analysis) -> str:
    if Note.TOKEN_COLORS_UNRECORDED in analysis.notes:
        return _("Its colors come from the effect that creates it, and this card data records none.")
    colors = render.color_words(analysis.colors)
    return _("The effect that creates it makes it {colors}.").format(colors=colors)
