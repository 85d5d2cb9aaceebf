"""Deck check output: the plain-text report (terminal and attached file) and the summary embed. Pure.

`text_report(report)` is what `python -m bot check-deck` prints and what the bot attaches as a file;
`summary_embed(report)` is the bot's reply embed (✅ legal, or the count of problems by kind with the first
few of each).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.deck.check import DeckReport, Problem, ProblemKind
from bot.identity.describe import describe, identity_phrase
from bot.identity.model import WUBRG, ReasonKind
from bot.present import embeds, render
from bot.present.message import Attachment, Embed, Reply

EVIDENCE_PER_COLOR = 3
ATTACH_OVER = 900  # attach the full report when it is longer than this many characters
FIELD_ITEMS = 8  # problems listed per kind in the embed before "…and N more"
FILE_NAME = "deck-check.txt"
UNCHECKED_COLOR = 0xF1C40F  # amber: nothing wrong found, but not every name could be looked up

_COLOR_TITLES = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green"}


def _lines(lines: Sequence[int]) -> str:
    if not lines:
        return ""
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(str(n) for n in lines)


def evidence_text(problem: Problem, color: str) -> str:
    """Why one off-color card has `color`, e.g. 'the {B/P} (Phyrexian mana) in its mana cost {1}{B/P}'."""
    reasons = embeds.distinct_reasons(problem.evidence_for(color))
    if not reasons:
        return "its color identity"
    parts = [describe(r, problem.card) for r in reasons[:EVIDENCE_PER_COLOR]]
    if len(reasons) > EVIDENCE_PER_COLOR:
        parts.append(f"and {len(reasons) - EVIDENCE_PER_COLOR} more")
    text = "; ".join(parts)
    if any(r.kind is ReasonKind.BASIC_LAND_TYPE for r in reasons):
        text += " [CR 903.5d]"
    return text


def by_color(report: DeckReport) -> dict[str, list[Problem]]:
    """Color problems grouped by outside color (WUBRG order); a two-color misfit is in both groups."""
    groups: dict[str, list[Problem]] = {}
    for color in WUBRG:
        hits = [p for p in report.of_kind(ProblemKind.COLOR) if color in p.outside]
        if hits:
            groups[color] = hits
    return groups


def headline(report: DeckReport) -> str:
    """'Legal: 100 cards ...' or '3 problems: 2 off-color cards, 1 duplicate'."""
    if not report.legal and not report.findings:  # only names that could not be looked up
        n = len(report.problems)
        return (f"{n} card{'s' if n != 1 else ''} could not be checked (Scryfall unreachable); nothing else is "
                f"wrong.")
    if report.legal:
        return (f"Legal: {report.card_count} cards, every one inside the {identity_phrase(report.deck_identity)} "
                f"color identity, no duplicates, nothing banned.")
    counts = report.counts()
    unchecked = counts.pop(ProblemKind.UNCHECKED, 0)
    total = sum(counts.values())
    parts = ", ".join(kind.label(n) for kind, n in counts.items())
    return f"{total} problem{'s' if total != 1 else ''}: {parts}{_unchecked_tail(unchecked)}."


def _unchecked_tail(n: int) -> str:
    """'; 2 cards not checked (Scryfall unreachable)' after the problems found, or ''."""
    return f"; {ProblemKind.UNCHECKED.label(n)} (Scryfall unreachable)" if n else ""


def _commander_line(report: DeckReport) -> str:
    names = " + ".join(report.commanders) or "(none)"
    if not report.identity_checked:
        return f"{names} (color identity not checked)"
    return f"{names} ({identity_phrase(report.deck_identity)})"


def text_report(report: DeckReport) -> str:
    """The full plain-text report (no markdown), as printed by the CLI and attached by the bot."""
    out: list[str] = []
    out.append(f"Deck check for {_commander_line(report)}")
    if report.deck_name:
        out.append(f"Deck: {report.deck_name}")
    extra = f"; {report.excluded} in sideboard/maybeboard not counted" if report.excluded else ""
    out.append(f"Cards: {report.card_count} counting the commander{'s' if len(report.commanders) > 1 else ''}{extra}")
    out.append("")
    verdict = "LEGAL. " if report.legal else "NOT LEGAL. " if report.findings else "NOT FULLY CHECKED. "
    out.append(verdict + headline(report))
    for kind in report.counts():
        problems = report.of_kind(kind)
        out.append("")
        out.append(f"{kind.title} ({len(problems)})")
        if kind is ProblemKind.COLOR:
            for color, hits in by_color(report).items():
                out.append(f"  {_COLOR_TITLES[color]} ({len(hits)}):")
                for p in hits:
                    out.append(f"    - {p.card} ({_lines(p.lines)}): {evidence_text(p, color)}")
        else:
            for p in problems:
                out.append(f"  - {p.message}")
    if report.warnings:
        out.append("")
        out.append("Warnings")
        out.extend(f"  - {w}" for w in report.warnings)
    if report.notes:
        out.append("")
        out.append("Notes")
        out.extend(f"  - {n}" for n in report.notes)
    return "\n".join(out) + "\n"


def _short_evidence(problem: Problem, color: str) -> str:
    reasons = embeds.distinct_reasons(problem.evidence_for(color))
    if not reasons:
        return "its color identity"
    text = describe(reasons[0], problem.card)
    if len(reasons) > 1:
        text += f" (+{len(reasons) - 1} more)"
    return text


def _field_lines(report: DeckReport, kind: ProblemKind, emoji: Mapping[str, str] | None) -> list[str]:
    if kind is ProblemKind.COLOR:
        lines: list[str] = []
        for color, hits in by_color(report).items():
            lines.append(f"**{render.symbol(color, emoji)} {_COLOR_TITLES[color]}**")
            for p in hits:
                why = render.render_symbols(render.escape(render.truncate(_short_evidence(p, color), 160)), emoji)
                lines.append(f"• {render.escape(p.card or '')} ({_lines(p.lines)}): {why}")
        return lines
    return [render.escape(render.truncate(p.message, 300)) for p in report.of_kind(kind)]


def summary_embed(
    report: DeckReport,
    *,
    emoji: Mapping[str, str] | None = None,
    attached: bool = False,
    stale: str | None = None,
) -> Embed:
    """The reply embed: verdict, commanders and identity, then one field per kind of problem."""
    title = "Deck check: " + " + ".join(report.commanders)
    if report.legal:
        color = render.FITS_COLOR
        description = (f"✅ **Legal.** {report.card_count} cards, all inside "
                       f"{render.pips(report.deck_identity, emoji)}; no duplicates, nothing banned.")
    elif not report.findings:  # only names that could not be looked up
        color = UNCHECKED_COLOR
        description = f"⚠️ **Not fully checked.** {headline(report)}"
    else:
        color = render.MISFIT_COLOR
        counts = report.counts()
        unchecked = counts.pop(ProblemKind.UNCHECKED, 0)
        total = sum(counts.values())
        description = (f"❌ **{total} problem{'s' if total != 1 else ''}**: "
                       + ", ".join(kind.label(n) for kind, n in counts.items()) + _unchecked_tail(unchecked) + ".")
    embed = Embed(title=render.truncate(render.escape(title), embeds.TITLE_LIMIT),
                          description=description, color=color)
    identity = render.pips(report.deck_identity, emoji) if report.identity_checked else "not checked"
    embed.add_field(name="Color identity", value=identity, inline=True)
    cards = f"{report.card_count} / 100"
    if report.excluded:
        cards += f" ({report.excluded} in sideboard/maybeboard not counted)"
    embed.add_field(name="Cards", value=cards, inline=True)
    for kind, n in report.counts().items():
        lines = _field_lines(report, kind, emoji)
        limit = FIELD_ITEMS * 2 if kind is ProblemKind.COLOR else FIELD_ITEMS
        shown = lines[:limit]
        if len(lines) > limit:
            shown.append(f"…and {len(lines) - limit} more lines in the full report")
        value = render.join_limited(shown, embeds.FIELD_VALUE_LIMIT)
        embed.add_field(name=f"{kind.title} ({n})", value=value, inline=False)
    notes = list(report.warnings)
    if stale:
        notes.append(stale)
    if notes:
        embed.add_field(name="Warnings",
                        value=render.join_limited((f"⚠️ {render.escape(w)}" for w in notes),
                                                  embeds.FIELD_VALUE_LIMIT),
                        inline=False)
    if report.notes:
        embed.add_field(name="Read as",
                        value=render.join_limited((render.escape(n) for n in report.notes), embeds.FIELD_VALUE_LIMIT),
                        inline=False)
    if attached:
        embed.set_footer(text=f"The full report is attached as {FILE_NAME}.")
    return embeds.fit_to_limits(embed)


def needs_attachment(report: DeckReport, text: str | None = None) -> bool:
    """Attach the full text report when it is long or the embed had to leave things out."""
    text = text if text is not None else text_report(report)
    if len(text) > ATTACH_OVER:
        return True
    return any(len(report.of_kind(kind)) > FIELD_ITEMS for kind in ProblemKind)


def deck_reply(report: DeckReport, *, emoji: Mapping[str, str] | None = None, stale: str | None = None) -> Reply:
    """The /deckcheck answer: the summary embed, with the full text report attached when it is long."""
    full = text_report(report)
    attach = needs_attachment(report, full)
    embed = summary_embed(report, emoji=emoji, attached=attach, stale=stale)
    return Reply(embeds=[embed], attachment=Attachment(FILE_NAME, full) if attach else None)
