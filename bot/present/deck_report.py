"""The /deckcheck answer and the `check-deck` report: the plain-text report (printed, or attached as a file)
and the summary embed, both listing problems grouped by kind, each card once, off-color ones with evidence."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from bot.cards.quotes import PrintedText
from bot.deck.brackets import Flagged
from bot.deck.parser import Section
from bot.deck.report import NOT_IN_LOCAL_DATA, CommanderIssue, DeckReport, Problem, ProblemKind
from bot.identity import Guideline
from bot.identity.model import WUBRG
from bot.present import brackets, embeds, evidence, house, render, second_opinion, words
from bot.present.deck_errors import line_reason
from bot.present.i18n import N_, _, ngettext
from bot.present.message import TITLE_LIMIT, Attachment, Embed, Reply
from bot.present.render import Emoji

ATTACH_OVER = 900  # attach the full report when it is longer than this many characters
FIELD_ITEMS = 8  # problems listed per kind in the embed before "…and N more"
FILE_NAME = "deck-check.txt"
Printed = Mapping[str, PrintedText]  # card name -> its rules text as printed in the reply's language
UNCHECKED_COLOR = 0xF1C40F  # amber: nothing wrong found, but not every name could be looked up


TITLES = {
    ProblemKind.UNREADABLE: N_("Unreadable lines"),
    ProblemKind.UNKNOWN: N_("Unknown cards"),
    ProblemKind.UNCHECKED: N_("Couldn't check"),
    ProblemKind.COMMANDER: N_("Commander"),
    ProblemKind.COMPANION: N_("Companion outside the color identity"),
    ProblemKind.COLOR: N_("Outside the color identity"),
    ProblemKind.SINGLETON: N_("More than one copy"),
    ProblemKind.SIZE: N_("Deck size"),
    ProblemKind.BANNED: N_("Banned in Commander"),
    ProblemKind.NOT_A_CARD: N_("Not deck cards"),
    ProblemKind.HOUSE_BANNED: N_("Banned here by a house rule"),
    ProblemKind.HOUSE_BRACKET: N_("Over this server\u2019s bracket"),
}
_LABELS: dict[ProblemKind, Callable[[int], str]] = {
    ProblemKind.UNREADABLE: lambda n: ngettext("{n} unreadable line", "{n} unreadable lines", n),
    ProblemKind.UNKNOWN: lambda n: ngettext("{n} unknown card", "{n} unknown cards", n),
    ProblemKind.UNCHECKED: lambda n: ngettext("{n} card not checked", "{n} cards not checked", n),
    ProblemKind.COMMANDER: lambda n: ngettext("{n} commander problem", "{n} commander problems", n),
    ProblemKind.COMPANION: lambda n: ngettext("{n} off-color companion", "{n} off-color companions", n),
    ProblemKind.COLOR: lambda n: ngettext("{n} off-color card", "{n} off-color cards", n),
    ProblemKind.SINGLETON: lambda n: ngettext("{n} duplicate", "{n} duplicates", n),
    ProblemKind.SIZE: lambda n: ngettext("{n} deck size problem", "{n} deck size problems", n),
    ProblemKind.BANNED: lambda n: ngettext("{n} banned card", "{n} banned cards", n),
    ProblemKind.NOT_A_CARD: lambda n: ngettext("{n} non-deck card", "{n} non-deck cards", n),
    ProblemKind.HOUSE_BANNED: lambda n: ngettext("{n} card banned here", "{n} cards banned here", n),
    ProblemKind.HOUSE_BRACKET: lambda n: ngettext("{n} bracket problem", "{n} bracket problems", n),
}
SECTION_WORDS = {
    Section.SIDEBOARD: N_("{n} in the sideboard"),
    Section.MAYBEBOARD: N_("{n} in the maybeboard"),
    Section.TOKENS: N_("{n} in tokens"),
    Section.ABOUT: N_("{n} in the About section"),
}


def kind_label(kind: ProblemKind, n: int) -> str:
    return _LABELS[kind](n).format(n=n)


def _lines(lines: Sequence[int]) -> str:
    text = ngettext("line {lines}", "lines {lines}", len(lines)) if lines else ""
    return text.format(lines=", ".join(str(n) for n in lines))


def _with_lines(card: str, lines: Sequence[int]) -> str:
    return f"{card} ({_lines(lines)})" if lines else card


def _banned_text(problem: Problem, name: Callable[[str], str]) -> str:
    text = _("{card} is banned in Commander ({lines})")
    if problem.commander:
        text = _("{card} is banned in Commander (a commander)")
    elif problem.companion:
        text = _("{card} is banned in Commander (the companion)")
    elif not problem.lines:
        text = _("{card} is banned in Commander")
    return text.format(card=name(problem.card or ""), lines=_lines(problem.lines))


def _house_text(problem: Problem, name: Callable[[str], str]) -> str:
    card = name(problem.card or "")
    if problem.kind is ProblemKind.HOUSE_BANNED:
        text = _("{card} is banned here by a house rule ({lines})")
        if problem.commander:
            text = _("{card} is banned here by a house rule (a commander)")
        return text.format(card=card, lines=_lines(problem.lines))
    here = (brackets.level if problem.why else house.bracket_words)(problem.bracket or 1)
    if problem.why == "combo":
        text = _("{cards}: a two-card combo for bracket {level} or higher; this server plays {bracket}")
        return text.format(cards=card, level=problem.limit, bracket=here)
    if problem.why:
        text = _("{card} is {what} ({lines}); this server plays {bracket}")
        what = brackets.what(Guideline(problem.why))
        return text.format(card=card, what=what, lines=_lines(problem.lines), bracket=here)
    text = ngettext(
        "{n} Game Changer ({cards}); this server plays {bracket}",
        "{n} Game Changers ({cards}); this server plays {bracket}",
        problem.count,
    )
    return text.format(n=problem.count, cards=render.and_list(map(name, problem.others)), bracket=here)


def problem_text(problem: Problem, name: Callable[[str], str] = str) -> str:
    """One problem without its evidence; `name` formats outside names (escape for Discord)."""
    card, kind, lines = name(problem.card or ""), problem.kind, _lines(problem.lines)
    if kind is ProblemKind.UNREADABLE:
        shown = problem.text if len(problem.text) <= 80 else problem.text[:79] + "\u2026"
        return render.colon(render.colon(lines, name(repr(shown))), name(line_reason(problem.why)))
    if kind is ProblemKind.UNKNOWN:
        text = _("{lines}: no card named {card}").format(lines=lines, card=name(repr(problem.card or "")))
        names = ", ".join(name(s) for s in problem.suggestions)
        return text + (_(" (did you mean {names}?)").format(names=names) if names else "")
    if kind is ProblemKind.UNCHECKED:
        return _unchecked_text(problem, card, lines, name)
    if kind is ProblemKind.COMMANDER:
        return _commander_text(problem, name)
    if kind is ProblemKind.COLOR:
        return render.colon(_with_lines(card, problem.lines), render.color_words(problem.outside))
    if kind is ProblemKind.COMPANION:
        text = _("{card}: the companion is {colors}, outside the commanders\u2019 color identity")
        return text.format(card=_with_lines(card, problem.lines), colors=render.color_words(problem.outside))
    if kind is ProblemKind.SINGLETON:
        text = _("{card}: {count} copies ({lines}); a deck may hold one copy")
        if problem.limit != 1:
            text = _("{card}: {count} copies ({lines}); a deck may hold up to {limit} copies")
        return text.format(card=card, count=problem.count, lines=lines, limit=problem.limit)
    if kind is ProblemKind.SIZE:
        diff = problem.count - (problem.limit or 100)
        how = _("{n} too many").format(n=diff) if diff > 0 else _("{n} short").format(n=-diff)
        text = (
            _("{count} cards counting the commanders; a Commander deck has exactly {limit} ({how})")
            if len(problem.others) > 1
            else _("{count} cards counting the commander; a Commander deck has exactly {limit} ({how})")
        )
        return text.format(count=problem.count, limit=problem.limit, how=how)
    if kind is ProblemKind.BANNED:
        return _banned_text(problem, name)
    if kind in (ProblemKind.HOUSE_BANNED, ProblemKind.HOUSE_BRACKET):
        return _house_text(problem, name)
    text = _("{card} is {what}, not a card a deck can hold ({lines})")
    return text.format(card=card, what=words.non_deck_words(problem.not_deck_card), lines=lines)


def _unchecked_text(problem: Problem, card: str, lines: str, name: Callable[[str], str]) -> str:
    """`Sol Rnig (line 3): couldn’t look it up (Scryfall didn’t answer; did you mean Sol Ring?)`."""
    where = _("commander") if problem.commander else lines
    # the lookup's own reason (a timeout, an HTTP status) is for the log; the player is told what it means
    local = problem.why == NOT_IN_LOCAL_DATA
    why = name(_("not in the local card data") if local else _("Scryfall didn\u2019t answer"))
    if names := ", ".join(name(s) for s in problem.suggestions):  # inside the one pair of parentheses
        why += _("; did you mean {names}?").format(names=names)
    return _("{card} ({where}): couldn\u2019t look it up ({why})").format(card=card, where=where, why=why)


def _commander_text(problem: Problem, name: Callable[[str], str]) -> str:
    card = name(problem.card or "")
    if problem.issue is CommanderIssue.NAMED_TWICE:
        return _("{card} is named twice; a deck has one copy of each commander").format(card=card)
    if problem.issue is CommanderIssue.LIST_NAMES_OTHER:
        others = render.and_list(map(name, problem.others))
        return _(
            "{lines}: the list names {card} as a commander, but the deck is being checked against "
            "{commanders}"
        ).format(lines=_lines(problem.lines), card=card, commanders=others)
    if problem.verdict is not None:
        return words.verdict_sentence(problem.verdict, name).removesuffix(".").removesuffix("\u3002")
    return _("{card} can\u2019t lead this deck").format(card=card)


def _sources(problem: Problem) -> list[evidence.Source]:
    return evidence.sources(r for color in problem.outside for r in problem.evidence_for(color))


def evidence_text(
    problem: Problem, emoji: Emoji = None, *, markdown: bool = False, printed: Printed | None = None
) -> list[str]:
    if problem.analysis is None:
        return []
    quoted = (printed or {}).get(problem.card or "")
    return evidence.evidence_lines(
        problem.analysis, _sources(problem), emoji, markdown=markdown, printed=quoted
    )


def headline(report: DeckReport) -> str:
    if not report.legal and not report.findings:  # only names that could not be looked up
        n = len(report.problems)
        return ngettext(
            "{n} card could not be checked; nothing else is wrong.",
            "{n} cards could not be checked; nothing else is wrong.",
            n,
        ).format(n=n)
    if report.legal:
        return _(
            "{count} cards, every one inside the {colors} color identity; no duplicates, nothing banned."
        ).format(count=report.card_count, colors=render.color_words(report.deck_identity))
    return _problems_sentence(report, bold=False)


def _problems_sentence(report: DeckReport, *, bold: bool) -> str:
    """'3 problems: 2 off-color cards, 1 duplicate; 1 card not checked.'"""
    counts = report.counts()
    unchecked = counts.pop(ProblemKind.UNCHECKED, 0)
    total = sum(counts.values())
    problems = ngettext("{n} problem", "{n} problems", total).format(n=total)
    parts = ", ".join(kind_label(kind, n) for kind, n in counts.items())
    if unchecked:
        label = kind_label(ProblemKind.UNCHECKED, unchecked)
        parts = _("{problems}; {unchecked}").format(problems=parts, unchecked=label)
    return _("{problems}: {kinds}.").format(problems=f"**{problems}**" if bold else problems, kinds=parts)


def _best_choice(report: DeckReport) -> str | None:
    """The color that, chosen before the game, brings the most off-color cards in."""
    off = report.of_kind(ProblemKind.COLOR)
    if not (helped := Counter(p.outside for p in off if len(p.outside) == 1)):
        return None
    color, n = max(helped.items(), key=lambda item: (item[1], -WUBRG.index(item[0])))
    return ngettext(
        "choosing {color} would bring in {n} of the {total} off-color card",
        "choosing {color} would bring in {n} of the {total} off-color cards",
        len(off),
    ).format(color=render.color_name(color), n=n, total=len(off))


def warnings_text(report: DeckReport, name: Callable[[str], str] = str) -> list[str]:
    """Commanders not looked up, open color choices (CR 903.4b), cards not judged, the caller's warnings."""
    out: list[str] = []
    if report.unchecked_commanders:
        names = render.and_list(name(u.name) for u in report.unchecked_commanders)
        text = _(
            "Color identity, commander eligibility and pairing were not checked: {names} could not be "
            "looked up (Scryfall unreachable)."
        )
        out.append(text.format(names=names))
    tip = _best_choice(report)
    for leader in report.open_choices:
        choice = _(
            "{card} has you choose a color before the game begins, and that color joins the deck\u2019s "
            "color identity (CR 903.4b); none was given, so it isn\u2019t counted"
        ).format(card=name(leader))
        out.append((_("{sentence}: {tip}.") if tip else _("{sentence}.")).format(sentence=choice, tip=tip))
    if report.unjudged:
        names = render.and_list(map(name, report.unjudged))
        out.append(_("Could not work out the color identity of {names}.").format(names=names))
    out.extend(name(w) for w in report.warnings)
    return list(dict.fromkeys(out))


def notes_text(report: DeckReport, name: Callable[[str], str] = str) -> list[str]:
    """How the list was read: commanders taken from it, chosen colors, names read as other cards."""
    out: list[str] = []
    if report.from_list:
        n = len(report.from_list)
        msg = ngettext("Commander taken from the list: {names}", "Commanders taken from the list: {names}", n)
        if report.second_from_list:
            msg = _("Second commander taken from the list: {names}")
        out.append(msg.format(names=render.and_list(map(name, report.from_list))))
    for leader, color in report.chosen.items():
        text = _("{card}: chosen color {color} (CR 903.4b); it counts in the deck\u2019s color identity")
        out.append(text.format(card=name(leader), color=render.color_name(color)))
    if report.pasted_lines:
        text = _(
            "The list was pasted on one line; it was read as {n} separate lines, numbered in the order pasted"
        )
        out.append(text.format(n=report.pasted_lines))
    text = _(
        "line {line}: {typed} was read as {card}; the text after the last \u201c//\u201d was taken for a "
        "comment"
    )
    out.extend(
        text.format(line=r.line, typed=name(repr(r.typed)), card=name(r.read_as)) for r in report.readings
    )
    return out


def text_report(report: DeckReport, printed: Printed | None = None) -> str:
    """Plain text, printed by the CLI, attached by the bot; `printed`: the texts to quote card lines from."""
    names = " + ".join(report.commanders) or _("(none)")
    if report.identity_checked:
        names += f" ({render.color_words(report.deck_identity)})"
    else:
        names = _("{names} (color identity not checked)").format(names=names)
    out = [_("Deck check for {commanders}").format(commanders=names)]
    if report.deck_name:
        out.append(_("Deck: {name}").format(name=report.deck_name))
    counted = (
        _("{n} counting the commanders") if len(report.commanders) > 1 else _("{n} counting the commander")
    ).format(n=report.card_count)
    out.append(_("Cards: {cards}").format(cards="; ".join([counted, *_card_notes(report)])))
    if report.companions:
        out.append(_("Companion: {names} (not counted)").format(names=render.and_list(report.companions)))
    if report.house is not None:
        out.append(house.applied_line(report.house))
    verdict = _("LEGAL.") if report.legal else _("NOT LEGAL.") if report.findings else _("NOT FULLY CHECKED.")
    if report.unsure:
        verdict = _("NOT SURE.")
    out += ["", f"{verdict} {headline(report)}"]
    if report.disputed:
        out += ["", f"{second_opinion.field_name()} ({len(report.disputed)})"]
        out += [f"  - {second_opinion.sentence(d)}" for d in report.disputed]
    for kind in report.counts():
        problems = report.of_kind(kind)
        out += ["", f"{_(TITLES[kind])} ({len(problems)})"]
        for p in problems:
            out.append(f"  - {problem_text(p)}")
            if kind is ProblemKind.COLOR:
                out.extend(f"      {line}" for line in evidence_text(p, printed=printed))
    out += ["", *brackets.deck_text(report.bracket, partial(_quoted, printed or {}, None, markdown=False))]
    for heading, items in ((_("Warnings"), warnings_text(report)), (_("Read as"), notes_text(report))):
        if items:
            out += ["", heading, *(f"  - {item}" for item in items)]
    return "\n".join(out) + "\n"


def _card_notes(report: DeckReport) -> list[str]:
    """'2 of them not checked', '3 in the sideboard, 2 in tokens not counted'."""
    notes = [_("{n} of them not checked").format(n=report.unverified)] if report.unverified else []
    parts = [
        _(SECTION_WORDS[section]).format(n=n) if section in SECTION_WORDS else f"{n} in {section.value}"
        for section, n in report.excluded.items()
        if n
    ]
    return notes + ([_("{sections} not counted").format(sections=", ".join(parts))] if parts else [])


def _quoted(printed: Printed, emoji: Emoji, flagged: Flagged, *, markdown: bool) -> str:
    return brackets.quote(flagged.finding, printed.get(flagged.name), emoji, markdown=markdown)


def _escaped(text: str) -> str:
    return render.escape(render.truncate(text, 150))


def _field_line(p: Problem, emoji: Emoji, printed: Printed) -> str:
    text = render.truncate(problem_text(p, _escaped), 300)
    found = evidence_text(p, emoji, markdown=True, printed=printed) if p.kind is ProblemKind.COLOR else []
    if found:
        text += f" \u00b7 {found[0]}" + (_(" (+{n} more)").format(n=len(found) - 1) if len(found) > 1 else "")
    return f"\u2022 {text}"


def _english_note(report: DeckReport, printed: Printed) -> str | None:
    """The footer's note when a card line the embed quotes (each off-color card's first) is English."""
    shown = (p for p in report.of_kind(ProblemKind.COLOR)[:FIELD_ITEMS] if p.analysis is not None)
    notes = (evidence.english_note(_sources(p)[:1], printed.get(p.card or "")) for p in shown)
    return next(filter(None, notes), None)


def summary_embed(
    report: DeckReport,
    *,
    emoji: Emoji = None,
    attached: bool = False,
    stale: str | None = None,
    printed: Printed | None = None,
) -> Embed:
    heading = _("Deck check: {commanders}").format(commanders=" + ".join(report.commanders))
    printed = printed or {}
    if report.legal:
        color = render.FITS_COLOR
        description = "\u2705 " + _(
            "**Legal.** {count} cards, all inside {colors}; no duplicates, nothing banned."
        ).format(count=report.card_count, colors=render.pips(report.deck_identity, emoji))
    elif not report.findings:  # only names that could not be looked up
        color = UNCHECKED_COLOR
        text = _("**Not fully checked.** {headline}")
        description = "\u26a0\ufe0f " + text.format(headline=headline(report))
    else:
        color = render.MISFIT_COLOR
        description = "\u274c " + _problems_sentence(report, bold=True)
    if report.unsure:  # no plain verdict while Scryfall lists another identity for a card
        color = second_opinion.COLOR
        sure = headline(report) if report.legal else _problems_sentence(report, bold=False)
        text = _("**Not sure.** Read from cost and text: {verdict}")
        description = f"{second_opinion.MARK} " + text.format(verdict=sure)
    title = render.truncate(render.escape(heading), TITLE_LIMIT)
    embed = Embed(title=title, description=description, color=color)
    identity = render.pips(report.deck_identity, emoji) if report.identity_checked else _("not checked")
    embed.add_field(name=_("Color identity"), value=identity, inline=True)
    cards = f"{report.card_count} / 100" + "".join(f" ({part})" for part in _card_notes(report))
    embed.add_field(name=_("Cards"), value=cards, inline=True)
    if report.companions:
        companions = render.and_list(map(_escaped, report.companions))
        embed.add_field(name=_("Companion"), value=companions, inline=True)
    doubts = [second_opinion.field_line(_escaped(d.name), d, emoji) for d in report.disputed]
    embeds.add_list_field(embed, second_opinion.field_name(), doubts, mark="\u2022 ")
    for kind, n in report.counts().items():
        shown = [_field_line(p, emoji, printed) for p in report.of_kind(kind)[:FIELD_ITEMS]]
        if n > FIELD_ITEMS:
            more = kind_label(kind, n - FIELD_ITEMS)
            shown.append(_("\u2026and {more} more in the full report").format(more=more))
        embeds.add_list_field(embed, f"{_(TITLES[kind])} ({n})", shown)
    field = brackets.deck_field(report.bracket, _escaped, partial(_quoted, printed, emoji, markdown=True))
    embeds.add_list_field(embed, brackets.title(report.bracket), field)
    embeds.add_warnings(embed, [*warnings_text(report, _escaped), stale])
    embeds.add_list_field(embed, _("Read as"), notes_text(report, _escaped))
    if report.house is not None:
        embeds.add_list_field(embed, _("House rules applied"), [house.applied_line(report.house)])
    notes = [_("The full report is attached as {file}.").format(file=FILE_NAME) if attached else None]
    notes += [_english_note(report, printed), *brackets.cannot_tell(report.bracket)]
    embed.footer = " \u00b7 ".join(n for n in notes if n) or None
    return embeds.finish(embed)


def needs_attachment(report: DeckReport, text: str | None = None) -> bool:
    """When the text report is long or the embed had to leave things out."""
    text = text if text is not None else text_report(report)
    return len(text) > ATTACH_OVER or any(len(report.of_kind(kind)) > FIELD_ITEMS for kind in ProblemKind)


def deck_reply(
    report: DeckReport, *, emoji: Emoji = None, stale: str | None = None, printed: Printed | None = None
) -> Reply:
    """`printed`: the off-color cards' rules text as printed in the reply's language, by card name."""
    full = text_report(report, printed)
    attach = needs_attachment(report, full)
    embed = summary_embed(report, emoji=emoji, attached=attach, stale=stale, printed=printed)
    return Reply(embeds=[embed], attachment=Attachment(FILE_NAME, full) if attach else None)
