"""The second opinion in replies: when Scryfall lists another color identity for a card than its mana cost and
rules text give (a rule the engine doesn't know yet, or a data error), a reply says what Scryfall lists and
gives no plain verdict (no ✅ or ❌). The identity compared is the one the reply already worked out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.cards.opinion import Disagreement, differs, fits_by_scryfall
from bot.identity.model import Analysis, FitResult
from bot.present import render
from bot.present.i18n import _
from bot.present.render import Emoji
from bot.present.words import shown

MARK = "\u26a0\ufe0f"
COLOR = render.CONDITIONAL_COLOR


def disputed(
    pairs: Iterable[tuple[Mapping[str, Any], Analysis]], chosen: Sequence[str | None] = ()
) -> list[Disagreement]:
    """Each card whose two readings differ; `chosen[i - 1]`: the color chosen for pair i (0 is the card)."""
    found = (
        differs(card, a, chosen[i - 1] if 0 < i <= len(chosen) else None) for i, (card, a) in enumerate(pairs)
    )
    return [d for d in found if d is not None]


def sentence(doubt: Disagreement, name: str | None = None) -> str:
    """What Scryfall lists against cost and text; `name`: the card as the reply shows it (default its own)."""
    theirs, ours = render.color_words(doubt.theirs), render.color_words(doubt.ours)
    return _(
        "Scryfall lists {card}\u2019s color identity as {theirs}, but its mana cost and rules text give "
        "{ours}: it may use a rule this bot doesn\u2019t know yet. Check the card before you build."
    ).format(card=name or doubt.name, theirs=theirs, ours=ours)


def field_name() -> str:
    return _("Color identity (Scryfall)")


def field_line(name: str, doubt: Disagreement, emoji: Emoji = None) -> str:
    text = _("{card}: Scryfall lists {theirs}; cost and text give {ours}")
    theirs, ours = render.pips(doubt.theirs, emoji), render.pips(doubt.ours, emoji)
    return text.format(card=name, theirs=theirs, ours=ours)


def fits_title(name: str) -> str:
    return f"{MARK} " + _("{card}: Scryfall lists another color identity").format(card=name)


def fits_lines(
    result: FitResult,
    card: Mapping[str, Any],
    commanders: Sequence[Mapping[str, Any]],
    doubts: Sequence[Disagreement],
    verdict: str | None,
) -> list[str]:
    """Both readings: the `verdict` from cost and text (None: the title says it), what Scryfall lists for
    each of `doubts` (`fit_pairs_disputed`), and the fit by Scryfall's."""
    read = _("Read from the cards\u2019 cost and text: {verdict}.").format(verdict=verdict)
    lines = [read] if verdict else []
    lines += [sentence(d, shown(d.name)) for d in doubts]
    if (by_scryfall := fits_by_scryfall(result, card, commanders)) is not None:
        fit = _("By the color identity Scryfall lists, it would fit.")
        lines.append(fit if by_scryfall else _("By the color identity Scryfall lists, it would not fit."))
    return lines


def fit_pairs_disputed(
    result: FitResult, card: Mapping[str, Any], commanders: Sequence[Mapping[str, Any]]
) -> list[Disagreement]:
    """The card and commanders of a /fits answer whose identity Scryfall lists otherwise."""
    return disputed([(card, result.card), *zip(commanders, result.commanders, strict=False)], result.chosen)
