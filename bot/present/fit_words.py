"""The sentences of a /fits answer: the headline says the verdict once (fits, does not fit, fits if you choose a
color (CR 903.4b), or this deck can't exist); the lines under it explain it (CR 903.4, 903.5c)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.identity.model import DeckBlocker, FitResult, FitVerdict, VerdictCode
from bot.present import render, words
from bot.present.i18n import _, ngettext, option_name
from bot.present.words import possessive_shown, shown


def _blocker_reason(result: FitResult, blocker: DeckBlocker, leaders: Sequence[str], name: str) -> str:
    if blocker is DeckBlocker.COMMANDER_INELIGIBLE:
        problem = next((v for v in result.commander_problems if not words.is_pairing(v) or v.cause), None)
        default = leaders[0] if leaders else _("The commander")
        fallback = next((a.name for a in result.commanders if not a.deck_card), default)
        who = words.ineligible_name(problem) if problem is not None else fallback
        return _("{card} can\u2019t be your commander").format(card=who)
    if blocker is DeckBlocker.PAIR_INVALID:
        problem = next((v for v in result.commander_problems if words.is_pairing(v)), None)
        if problem is not None and problem.code is VerdictCode.SAME_CARD:
            return _("{card} can\u2019t be both commanders").format(card=problem.card)
        return _("{cards} can\u2019t be commanders together").format(cards=render.and_list(leaders))
    if blocker is DeckBlocker.COMMANDER_BANNED:
        banned = result.banned_commanders
        text = ngettext("{cards} is banned in Commander", "{cards} are banned in Commander", len(banned))
        return text.format(cards=render.and_list(banned))
    if blocker is DeckBlocker.CARD_BANNED:
        return _("{card} is banned in Commander").format(card=name)
    what = words.non_deck_words(result.card.not_deck_card)
    return _("{card} is {what}, not a deck card").format(card=name, what=what)


def _blocker_sentences(result: FitResult, name: str) -> list[str]:
    out = [words.verdict_sentence(v, shown) for v in result.commander_problems]
    for blocker in result.blockers:
        if blocker is DeckBlocker.COMMANDER_INELIGIBLE and not result.commander_problems:
            out.extend(
                words.not_deck_sentence(shown(leader.name), leader.not_deck_card)
                for leader in result.commanders
                if leader.not_deck_card is not None
            )
        elif blocker is DeckBlocker.COMMANDER_BANNED:
            text = _("{card} is banned in Commander, so a deck led by it isn\u2019t legal.")
            out.extend(text.format(card=shown(banned)) for banned in result.banned_commanders)
        elif blocker is DeckBlocker.CARD_BANNED:
            text = _("{card} is banned in Commander, so no Commander deck may hold it.")
            out.append(text.format(card=shown(name)))
        elif blocker is DeckBlocker.NOT_A_DECK_CARD and result.card.not_deck_card is not None:
            out.append(words.not_deck_sentence(shown(name), result.card.not_deck_card))
    return list(dict.fromkeys(out))


def headline(result: FitResult, name: str, leaders: Sequence[str]) -> str:
    """The verdict, said once, with its reason when the deck can't exist (plain text, for the title)."""
    if result.verdict is FitVerdict.DECK_CANT_EXIST and result.blockers:
        reason = _blocker_reason(result, result.blockers[0], leaders, name)
        return _("This deck can\u2019t exist: {reason}").format(reason=reason)
    if result.verdict is FitVerdict.FITS_IF_CHOSEN:
        choice = words.choice_words(result.choice_options)
        return _("{card} fits if you choose {choice}").format(card=name, choice=choice)
    text = _("{card} fits") if result.verdict is FitVerdict.FITS else _("{card} does not fit")
    return text.format(card=name)


def _deck_words(result: FitResult) -> str:
    """'**Kumano, Master Yamabushi** is red' / 'together **A** and **B** are white and blue'."""
    names = render.and_list(shown(a.name) for a in result.commanders)
    deck = render.color_words(result.deck_identity)
    if len(result.commanders) > 1:
        return _("together {commanders} are {colors}").format(commanders=names, colors=deck)
    return _("{commander} is {colors}").format(commander=names, colors=deck)


def _chooser_words(result: FitResult) -> str:
    """Who may still choose a color (CR 903.4b)."""
    open_names = [result.commanders[i].name for i in result.open_choices]
    return ngettext(
        "{commanders} has you choose a color before the game begins",
        "{commanders} have you choose a color before the game begins",
        len(open_names),
    ).format(commanders=render.and_list(map(shown, open_names)))


def _comparison(result: FitResult, name: str) -> str:
    if not result.card.identity:
        text = _("As for colors: {card} has a colorless identity, which fits every deck.")
        return text.format(card=shown(name))
    if not result.outside:
        colors, deck = render.color_words(result.card.identity), render.color_words(result.deck_identity)
        text = _("As for colors: {card_s} identity ({colors}) is within the deck\u2019s ({deck}).")
        return text.format(card_s=possessive_shown(name), colors=colors, deck=deck)
    text = _("As for colors: {outside} would be outside the deck\u2019s identity; {deck}.")
    return text.format(outside=_capitalized(render.color_words(result.outside)), deck=_deck_words(result))


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def _fits_tail(result: FitResult) -> str:
    """How chosen colors (CR 903.4b) made the deck's identity, or the rule the fit follows (CR 903.5c)."""
    picked = [(i, c) for i, c in enumerate(result.chosen) if c]
    if len(result.commanders) == 1 and picked:
        if result.commanders[0].identity == picked[0][1]:
            return _(", the color chosen for it before the game (CR 903.4b)")
        color = render.color_name(picked[0][1])
        return _(", with {color} chosen for it before the game (CR 903.4b)").format(color=color)
    if picked:
        each = _("{color} chosen for {commander}")
        chosen = [
            each.format(color=render.color_name(c), commander=shown(result.commanders[i].name))
            for i, c in picked
        ]
        return _(", with {choices} before the game (CR 903.4b)").format(choices=render.and_list(chosen))
    return " (CR 903.5c)"


def fits_lines(result: FitResult, name: str) -> list[str]:
    """Why, then (when the deck can exist) the identity comparison."""
    card, verdict = result.card, result.verdict
    if verdict is FitVerdict.DECK_CANT_EXIST:
        lines = _blocker_sentences(result, name)
        if card.deck_card:
            lines.append(_comparison(result, name))
        return lines
    if verdict is FitVerdict.FITS:
        if not card.identity:
            text = _("{card} has a colorless identity, which fits every Commander deck (CR 903.5c).")
            return [text.format(card=shown(name))]
        text = _("{card_s} color identity ({colors}) is within the deck\u2019s: {deck}{tail}.")
        colors, deck, tail = render.color_words(card.identity), _deck_words(result), _fits_tail(result)
        return [text.format(card_s=possessive_shown(name), colors=colors, deck=deck, tail=tail)]
    outside = render.color_words(result.outside)
    if verdict is FitVerdict.FITS_IF_CHOSEN:
        text = _(
            "{choosers}, and that color joins the deck\u2019s color identity (CR 903.4b). {card} needs "
            "{colors}; {deck} without it."
        )
        deck, choosers = _deck_words(result), _chooser_words(result)
        return [
            text.format(choosers=choosers, card=shown(name), colors=outside, deck=deck),
            _option_hint(result),
        ]
    text = ngettext(
        "{colors} is outside the deck\u2019s color identity: {deck} (CR 903.5c).",
        "{colors} are outside the deck\u2019s color identity: {deck} (CR 903.5c).",
        len(result.outside),
    )
    lines = [text.format(colors=_capitalized(outside), deck=_deck_words(result))]
    if n := len(result.open_choices):
        text = ngettext(
            "{choosers} (CR 903.4b), but that one color can\u2019t cover {colors}.",
            "{choosers} (CR 903.4b), but those {n} colors can\u2019t cover {colors}.",
            n,
        )
        lines.append(text.format(choosers=_chooser_words(result), n=n, colors=outside))
    return lines


def _option_hint(result: FitResult) -> str:
    if len(result.commanders) == 2 and len(result.open_choices) == 2:
        return _(
            "Say which with `{color}:` (for the commander) and `{partner_color}:` (for the partner)."
        ).format(color=option_name("color"), partner_color=option_name("partner_color"))
    option = "partner_color" if result.open_choices and result.open_choices[0] == 1 else "color"
    return _("Say which with `{option}:`.").format(option=option_name(option))
