"""Deck check output: the plain-text report (terminal and attached file) and the summary embed. Pure.

`text_report(report)` is what `python -m bot check-deck` prints and what the bot attaches as a file;
`summary_embed(report)` is the bot's reply embed (✅ legal, or the count of problems by kind with the first
few of each); `deck_reply(report)` is the whole /deckcheck reply. Both list problems grouped by kind, each
problem card once: an off-color card with all its outside colors and the evidence for them, one line per
source (`bot.present.evidence`). Every word comes from here, `bot.present.words` and `bot.present.evidence`;
the report itself is data (`bot.deck.check.DeckReport`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from bot.deck.parser import MAX_COUNT, Section
from bot.deck.report import NOT_IN_LOCAL_DATA, CommanderIssue, DeckReport, Problem, ProblemKind
from bot.deck.sources.result import EntryProblem
from bot.identity.model import WUBRG
from bot.present import embeds, evidence, render, words
from bot.present.deck_lines import line_reason
from bot.present.message import FIELD_VALUE_LIMIT, TITLE_LIMIT, Attachment, Embed, Reply
from bot.present.render import Emoji

ATTACH_OVER = 900  # attach the full report when it is longer than this many characters
FIELD_ITEMS = 8  # problems listed per kind in the embed before "…and N more"
FILE_NAME = "deck-check.txt"
UNCHECKED_COLOR = 0xF1C40F  # amber: nothing wrong found, but not every name could be looked up
EVIDENCE_WIDTH = 90  # characters of a card's line in the embed's evidence


TITLES = {
    ProblemKind.UNREADABLE: "Unreadable lines",
    ProblemKind.UNKNOWN: "Unknown cards",
    ProblemKind.UNCHECKED: "Couldn't check",
    ProblemKind.COMMANDER: "Commander",
    ProblemKind.COMPANION: "Companion outside the color identity",
    ProblemKind.COLOR: "Outside the color identity",
    ProblemKind.SINGLETON: "More than one copy",
    ProblemKind.SIZE: "Deck size",
    ProblemKind.BANNED: "Banned in Commander",
    ProblemKind.NOT_A_CARD: "Not deck cards",
}
_LABELS = {
    ProblemKind.UNREADABLE: ("unreadable line", "unreadable lines"),
    ProblemKind.UNKNOWN: ("unknown card", "unknown cards"),
    ProblemKind.UNCHECKED: ("card not checked", "cards not checked"),
    ProblemKind.COMMANDER: ("commander problem", "commander problems"),
    ProblemKind.COMPANION: ("off-color companion", "off-color companions"),
    ProblemKind.COLOR: ("off-color card", "off-color cards"),
    ProblemKind.SINGLETON: ("duplicate", "duplicates"),
    ProblemKind.SIZE: ("deck size problem", "deck size problems"),
    ProblemKind.BANNED: ("banned card", "banned cards"),
    ProblemKind.NOT_A_CARD: ("non-deck card", "non-deck cards"),
}
#: Why a deck site's entry could not be read (`bot.deck.sources.result.EntryProblem`).
ENTRY_PROBLEMS: dict[str, str] = {
    EntryProblem.NOT_AN_OBJECT: "the site\u2019s entry is not a card",
    EntryProblem.NO_NAME: "the site\u2019s entry has no card name",
    EntryProblem.COUNT_NOT_WHOLE: "the quantity is not a whole number",
    EntryProblem.COUNT_OUT_OF_RANGE: f"the quantity is outside 1-{MAX_COUNT}",
    EntryProblem.UNKNOWN_BOARD: "it is on a board of the deck the bot does not read",
}
#: How a section that is not the deck is called in "3 in the sideboard, 2 in tokens not counted".
SECTION_WORDS = {Section.SIDEBOARD: "the sideboard", Section.MAYBEBOARD: "the maybeboard", Section.TOKENS: "tokens"}


def kind_label(kind: ProblemKind, n: int) -> str:
    """'1 off-color card', '3 off-color cards'."""
    singular, plural = _LABELS[kind]
    return f"{n} {singular if n == 1 else plural}"


def excluded_text(report: DeckReport) -> str:
    """'3 in the sideboard, 2 in tokens not counted', or '' when every section was the deck."""
    parts = [f"{n} in {SECTION_WORDS.get(section, section.value)}" for section, n in report.excluded.items() if n]
    return ", ".join(parts) + " not counted" if parts else ""


def _plain(text: str) -> str:
    return text


def _lines(lines: Sequence[int]) -> str:
    if not lines:
        return ""
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(str(n) for n in lines)


def _with_lines(card: str, lines: Sequence[int]) -> str:
    where = _lines(lines)
    return f"{card} ({where})" if where else card


def problem_text(problem: Problem, name: Callable[[str], str] = _plain) -> str:
    """One problem in words, without its evidence ('Sol Ring: 2 copies (lines 3, 40); a deck may hold one
    copy'). `name` formats names that came from the list or the card data (escape for Discord)."""
    card = name(problem.card or "")
    kind = problem.kind
    if kind is ProblemKind.UNREADABLE:
        shown = problem.text if len(problem.text) <= 80 else problem.text[:79] + "\u2026"
        why = ENTRY_PROBLEMS.get(problem.why) or line_reason(problem.why)  # a site's code, or the parser's
        return f"{_lines(problem.lines)}: {name(repr(shown))}: {name(why)}"
    if kind is ProblemKind.UNKNOWN:
        return f"{_lines(problem.lines)}: no card named {name(repr(problem.card or ''))}{_did_you_mean(problem, name)}"
    if kind is ProblemKind.UNCHECKED:
        where = "commander" if problem.commander else _lines(problem.lines)
        why = "not in the local card data" if problem.why == NOT_IN_LOCAL_DATA else problem.why
        return f"{card} ({where}): couldn\u2019t look it up ({name(why)}){_did_you_mean(problem, name)}"
    if kind is ProblemKind.COMMANDER:
        return _commander_text(problem, name)
    if kind is ProblemKind.COLOR:
        return f"{_with_lines(card, problem.lines)}: {render.color_words(problem.outside)}"
    if kind is ProblemKind.COMPANION:
        return (f"{_with_lines(card, problem.lines)}: the companion is {render.color_words(problem.outside)}, outside "
                f"the commanders\u2019 color identity")
    if kind is ProblemKind.SINGLETON:
        allowed = "one copy" if problem.limit == 1 else f"up to {problem.limit} copies"
        return f"{card}: {problem.count} copies ({_lines(problem.lines)}); a deck may hold {allowed}"
    if kind is ProblemKind.SIZE:
        diff = problem.count - (problem.limit or 100)
        how = f"{diff} too many" if diff > 0 else f"{-diff} short"
        return (f"{problem.count} cards counting the commander{'s' if len(problem.others) > 1 else ''}; a Commander "
                f"deck has exactly {problem.limit} ({how})")
    if kind is ProblemKind.BANNED:
        where = " (a commander)" if problem.commander else " (the companion)" if problem.companion else \
            (f" ({_lines(problem.lines)})" if problem.lines else "")
        return f"{card} is banned in Commander{where}"
    what = words.NON_DECK_WORDS[problem.not_deck_card] if problem.not_deck_card else "not a card"
    return f"{card} is {what}, not a card a deck can hold ({_lines(problem.lines)})"


def _did_you_mean(problem: Problem, name: Callable[[str], str]) -> str:
    return f" (did you mean {', '.join(name(s) for s in problem.suggestions)}?)" if problem.suggestions else ""


def _commander_text(problem: Problem, name: Callable[[str], str]) -> str:
    if problem.issue is CommanderIssue.NAMED_TWICE:
        return f"{name(problem.card or '')} is named twice; a deck has one copy of each commander"
    if problem.issue is CommanderIssue.LIST_NAMES_OTHER:
        return (f"{_lines(problem.lines)}: the list names {name(problem.card or '')} as a commander, but the deck "
                f"is being checked against {words.names_list(problem.others, name)}")
    if problem.verdict is not None:
        return words.verdict_sentence(problem.verdict, name).removesuffix(".")
    return f"{name(problem.card or '')} can\u2019t lead this deck"


def evidence_text(problem: Problem, emoji: Emoji = None, *, markdown: bool = False,
                  width: int = evidence.LINE_WIDTH) -> list[str]:
    """The evidence for an off-color card's outside colors: one line per source, each once."""
    if problem.analysis is None:
        return []
    reasons = [r for color in problem.outside for r in problem.evidence_for(color)]
    found = evidence.sources(reasons)
    return evidence.evidence_lines(problem.analysis, found, emoji, markdown=markdown, width=width)


def headline(report: DeckReport) -> str:
    """'100 cards, every one inside the red color identity; ...' or '3 problems: 2 off-color cards, ...'."""
    if not report.legal and not report.findings:  # only names that could not be looked up
        n = len(report.problems)
        return f"{n} card{'s' if n != 1 else ''} could not be checked; nothing else is wrong."
    if report.legal:
        return (f"{report.card_count} cards, every one inside the {render.color_words(report.deck_identity)} color "
                f"identity; no duplicates, nothing banned.")
    counts = report.counts()
    unchecked = counts.pop(ProblemKind.UNCHECKED, 0)
    total = sum(counts.values())
    parts = ", ".join(kind_label(kind, n) for kind, n in counts.items())
    return f"{total} problem{'s' if total != 1 else ''}: {parts}{_unchecked_tail(unchecked)}."


def _unchecked_tail(n: int) -> str:
    """'; 2 cards not checked' after the problems found, or ''."""
    return f"; {kind_label(ProblemKind.UNCHECKED, n)}" if n else ""


def _commander_line(report: DeckReport) -> str:
    names = " + ".join(report.commanders) or "(none)"
    if not report.identity_checked:
        return f"{names} (color identity not checked)"
    return f"{names} ({render.color_words(report.deck_identity)})"


def _best_choice(report: DeckReport) -> str | None:
    """The one color that, chosen before the game, would bring the most off-color cards in."""
    helped: Counter[str] = Counter()
    for p in report.of_kind(ProblemKind.COLOR):
        if len(p.outside) == 1:
            helped[p.outside] += 1
    if not helped:
        return None
    color, n = max(helped.items(), key=lambda item: (item[1], -WUBRG.index(item[0])))
    total = len(report.of_kind(ProblemKind.COLOR))
    return f"choosing {render.color_name(color)} would bring in {n} of the {total} off-color card{'s' if total > 1 else ''}"


def warnings_text(report: DeckReport, name: Callable[[str], str] = _plain) -> list[str]:
    """The report's warnings in words: commanders not looked up, open color choices (CR 903.4b), cards whose
    identity could not be worked out, then the ones the caller worded (stale data)."""
    out: list[str] = []
    if report.unchecked_commanders:
        names = words.names_list((u.name for u in report.unchecked_commanders), name)
        out.append(f"Color identity, commander eligibility and pairing were not checked: {names} could not be "
                   f"looked up (Scryfall unreachable).")
    for leader in report.open_choices:
        tip = _best_choice(report)
        out.append(f"{name(leader)} has you choose a color before the game begins, and that color joins the deck\u2019s "
                   f"color identity (CR 903.4b); none was given, so it isn\u2019t counted"
                   + (f": {tip}." if tip else "."))
    if report.unjudged:
        out.append(f"Could not work out the color identity of {words.names_list(report.unjudged, name)}.")
    out.extend(name(w) for w in report.warnings)
    return list(dict.fromkeys(out))


def notes_text(report: DeckReport, name: Callable[[str], str] = _plain) -> list[str]:
    """How the list was read: commanders taken from it, chosen colors, names read as other cards."""
    out: list[str] = []
    if report.from_list:
        listed = words.names_list(report.from_list, name)
        if report.second_from_list:
            out.append(f"Second commander taken from the list: {listed}")
        else:
            out.append(f"Commander{'s' if len(report.from_list) > 1 else ''} taken from the list: {listed}")
    for leader, color in report.chosen.items():
        out.append(f"{name(leader)}: chosen color {render.color_name(color)} (CR 903.4b); it counts in the "
                   f"deck\u2019s color identity")
    if report.pasted_lines:
        out.append(f"The list was pasted on one line; it was read as {report.pasted_lines} separate lines, numbered "
                   f"in the order pasted")
    out.extend(f"line {r.line}: {name(repr(r.typed))} was read as {name(r.read_as)}; the text after the last "
               f"\u201c//\u201d was taken for a comment" for r in report.readings)
    return out


def text_report(report: DeckReport) -> str:
    """The full plain-text report (no markdown), as printed by the CLI and attached by the bot."""
    out: list[str] = []
    out.append(f"Deck check for {_commander_line(report)}")
    if report.deck_name:
        out.append(f"Deck: {report.deck_name}")
    out.append(f"Cards: {_cards_text(report)}")
    if report.companions:
        out.append(f"Companion: {words.names_list(report.companions, _plain)} (not counted)")
    out.append("")
    verdict = "LEGAL. " if report.legal else "NOT LEGAL. " if report.findings else "NOT FULLY CHECKED. "
    out.append(verdict + headline(report))
    for kind in report.counts():
        problems = report.of_kind(kind)
        out.append("")
        out.append(f"{TITLES[kind]} ({len(problems)})")
        for p in problems:
            out.append(f"  - {problem_text(p)}")
            if kind is ProblemKind.COLOR:
                out.extend(f"      {line}" for line in evidence_text(p))
    for title, items in (("Warnings", warnings_text(report)), ("Read as", notes_text(report))):
        if items:
            out.append("")
            out.append(title)
            out.extend(f"  - {item}" for item in items)
    return "\n".join(out) + "\n"


def _card_notes(report: DeckReport) -> list[str]:
    """'2 not checked', '3 in the sideboard not counted': what the count leaves open or out."""
    notes = [f"{report.unverified} of them not checked"] if report.unverified else []
    return notes + ([excluded] if (excluded := excluded_text(report)) else [])


def _cards_text(report: DeckReport) -> str:
    counted = f"{report.card_count} counting the commander{'s' if len(report.commanders) > 1 else ''}"
    return "; ".join([counted, *_card_notes(report)])


def _escaped(text: str) -> str:
    return render.escape(render.truncate(text, 150))


def _field_lines(report: DeckReport, kind: ProblemKind, emoji: Emoji, limit: int) -> list[str]:
    """One line per problem of `kind`, the first `limit` of them; an off-color card with its first piece of
    evidence."""
    lines: list[str] = []
    for p in report.of_kind(kind)[:limit]:
        text = render.truncate(problem_text(p, _escaped), 300)
        if kind is ProblemKind.COLOR:
            found = evidence_text(p, emoji, markdown=True, width=EVIDENCE_WIDTH)
            if found:
                text += f" \u00b7 {found[0]}" + (f" (+{len(found) - 1} more)" if len(found) > 1 else "")
        lines.append(f"\u2022 {text}")
    return lines


def summary_embed(
    report: DeckReport,
    *,
    emoji: Emoji = None,
    attached: bool = False,
    stale: str | None = None,
) -> Embed:
    """The reply embed: verdict, commanders and identity, then one field per kind of problem."""
    title = "Deck check: " + " + ".join(report.commanders)
    if report.legal:
        color = render.FITS_COLOR
        description = (f"\u2705 **Legal.** {report.card_count} cards, all inside "
                       f"{render.pips(report.deck_identity, emoji)}; no duplicates, nothing banned.")
    elif not report.findings:  # only names that could not be looked up
        color = UNCHECKED_COLOR
        description = f"\u26a0\ufe0f **Not fully checked.** {headline(report)}"
    else:
        color = render.MISFIT_COLOR
        counts = report.counts()
        unchecked = counts.pop(ProblemKind.UNCHECKED, 0)
        total = sum(counts.values())
        description = (f"\u274c **{total} problem{'s' if total != 1 else ''}**: "
                       + ", ".join(kind_label(kind, n) for kind, n in counts.items()) + _unchecked_tail(unchecked) + ".")
    embed = Embed(title=render.truncate(render.escape(title), TITLE_LIMIT), description=description, color=color)
    identity = render.pips(report.deck_identity, emoji) if report.identity_checked else "not checked"
    embed.add_field(name="Color identity", value=identity, inline=True)
    cards = f"{report.card_count} / 100" + "".join(f" ({part})" for part in _card_notes(report))
    embed.add_field(name="Cards", value=cards, inline=True)
    if report.companions:
        embed.add_field(name="Companion", value=words.names_list(report.companions, _escaped), inline=True)
    for kind, n in report.counts().items():
        shown = _field_lines(report, kind, emoji, FIELD_ITEMS)
        if n > FIELD_ITEMS:
            shown.append(f"\u2026and {kind_label(kind, n - FIELD_ITEMS)} more in the full report")
        value = render.join_limited(shown, FIELD_VALUE_LIMIT, more="\u2026and {n} more " + kind_label(kind, 2).split(" ", 1)[1])
        embed.add_field(name=f"{TITLES[kind]} ({n})", value=value, inline=False)
    warnings = warnings_text(report, _escaped) + ([stale] if stale else [])
    if warnings:
        embed.add_field(name="Warnings",
                        value=render.join_limited((f"\u26a0\ufe0f {w}" for w in dict.fromkeys(warnings)),
                                                  FIELD_VALUE_LIMIT, more="\u2026and {n} more warnings"),
                        inline=False)
    notes = notes_text(report, _escaped)
    if notes:
        embed.add_field(name="Read as",
                        value=render.join_limited(notes, FIELD_VALUE_LIMIT, more="\u2026and {n} more readings"),
                        inline=False)
    if attached:
        embed.set_footer(text=f"The full report is attached as {FILE_NAME}.")
    return embeds.finish(embed)


def needs_attachment(report: DeckReport, text: str | None = None) -> bool:
    """Attach the full text report when it is long or the embed had to leave things out."""
    text = text if text is not None else text_report(report)
    if len(text) > ATTACH_OVER:
        return True
    return any(len(report.of_kind(kind)) > FIELD_ITEMS for kind in ProblemKind)


def deck_reply(report: DeckReport, *, emoji: Emoji = None, stale: str | None = None) -> Reply:
    """The /deckcheck answer: the summary embed, with the full text report attached when it is long."""
    full = text_report(report)
    attach = needs_attachment(report, full)
    embed = summary_embed(report, emoji=emoji, attached=attach, stale=stale)
    return Reply(embeds=[embed], attachment=Attachment(FILE_NAME, full) if attach else None)
