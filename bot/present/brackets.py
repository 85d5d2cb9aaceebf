"""What the bot says about Commander brackets: what a card means for them (/identity, /fits, a server's
bracket), and a deck's bracket with one line per guideline and what sets it, Spellbook's tags beside ours and
what contents can't tell. Bracket names are Wizards' (proper names, printed on no card)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.cards.printed import scryfall_language
from bot.cards.quotes import PrintedText
from bot.deck.brackets import (
    BRACKETS,
    EARLY_TWO_CARD_FLOOR,
    GUIDELINE_FLOORS,
    MAX_GAME_CHANGERS,
    BracketFacts,
    DeckCombo,
    Flagged,
    bracket_floor,
    flags,
    is_game_changer,
)
from bot.identity import Guideline, GuidelineFinding
from bot.present import render
from bot.present.house import bracket_words
from bot.present.i18n import N_, _, current_locale, ngettext
from bot.present.render import Emoji

NAMES = {1: "Exhibition", 2: "Core", 3: "Upgraded", 4: "Optimized", 5: "cEDH"}
TAGS = {"R": "Ruthless", "S": "Spicy", "P": "Powerful", "O": "Oddball", "C": "Core", "E": "Exhibition"}
_WHAT = {Guideline.MASS_LAND_DENIAL: N_("mass land denial"), Guideline.EXTRA_TURN: N_("an extra-turn card")}
_TITLES = {Guideline.MASS_LAND_DENIAL: N_("Mass land denial"), Guideline.EXTRA_TURN: N_("Extra turns")}
_DOUBT = N_("Commander Spellbook tags {cards} {tag} (bracket {theirs}); read from the cards: bracket {ours}.")
_REST = N_(
    "The cards can\u2019t tell the rest: brackets 1 and 2, and 4 and 5, differ by intent and by how long "
    "games last."
)
_NONE = N_("Nothing here sets a floor: no Game Changers, mass land denial, extra turns or two-card combos.")
SHOWN = 3  # items per guideline in the embed before "…and N more"
Name = Callable[[str], str]


def _below(floor: int) -> str:
    """'1, 2 and 3': the brackets that don't allow what sets `floor`."""
    return render.and_list(str(b) for b in BRACKETS if b < floor)


def level(bracket: int) -> str:
    """'bracket 4 (Optimized)'."""
    return _("bracket {level} ({name})").format(level=bracket, name=NAMES[bracket])


def quote(
    finding: GuidelineFinding,
    printed: PrintedText | None = None,
    emoji: Emoji = None,
    *,
    markdown: bool = True,
) -> str:
    """The card's line: as `printed` prints it in the reply's language, else Oracle's, deciding words bold;
    with `markdown`, escaped and its symbols shown as `emoji` has them."""
    here = printed is not None and scryfall_language(current_locale()) == printed.lang
    line = printed.line(finding.face, finding.text) if here and printed is not None else None
    start, end = finding.span if line is None else (0, 0)
    text = line or finding.text
    if not markdown:
        return f"\u201c{text}\u201d"
    parts = ((text[:start], False), (text[start:end], True), (text[end:], False))
    shown = render.bold_runs((render.render_symbols(render.escape(t), emoji), bold) for t, bold in parts if t)
    return f"\u201c{shown}\u201d"


def what(guideline: Guideline) -> str:
    """'mass land denial', 'an extra-turn card'."""
    return _(_WHAT[guideline])


def _meaning(guideline: Guideline) -> str:
    text = _("decks in brackets {none} can\u2019t include it")
    if guideline is Guideline.EXTRA_TURN:
        text = _("decks in bracket {none} can\u2019t include it; brackets 2 and 3 allow a few, not chained")
    return text.format(none=_below(GUIDELINE_FLOORS[guideline]))


def card_lines(
    card: Mapping[str, Any], name: str, printed: PrintedText | None = None, emoji: Emoji = None
) -> list[str]:
    """What the card means for brackets: a Game Changer, mass land denial, an extra-turn card, with its line."""
    lines = []
    if is_game_changer(card):
        bracket, limit = next((b, n) for b in BRACKETS if (n := MAX_GAME_CHANGERS[b]))
        text = _(
            "{card} is a Game Changer: decks in brackets {none} can\u2019t include it; in bracket {bracket} it "
            "counts toward the limit of {limit} Game Changers."
        )
        lines.append(text.format(card=name, none=_below(bracket), bracket=bracket, limit=limit))
    text = _("{card} is {what} ({line}): {meaning}.")
    for flag in flags(card):
        guideline, line = flag.finding.guideline, quote(flag.finding, printed, emoji)
        lines.append(text.format(card=name, what=what(guideline), line=line, meaning=_meaning(guideline)))
    return lines


def house_lines(card: Mapping[str, Any], name: str, bracket: int) -> list[str]:
    """What the server's `bracket` says of the card: each of its guidelines the bracket limits."""
    where = _("this server plays {bracket}").format(bracket=level(bracket))
    lines = []
    if is_game_changer(card) and MAX_GAME_CHANGERS[bracket] is not None:  # how many it allows
        plays = _("this server plays {bracket}").format(bracket=bracket_words(bracket))
        lines.append(_("{card} is a Game Changer, and {where}.").format(card=name, where=plays))
    text = _("{card} is {what}, and {where}: decks here can\u2019t include it.")
    for flag in flags(card):
        if flag.floor > bracket:
            lines.append(text.format(card=name, what=what(flag.finding.guideline), where=where))
    return lines


def title(facts: BracketFacts) -> str:
    """'Bracket 4 or higher (Optimized)'."""
    floor = facts.floor
    return _("Bracket {level} or higher ({name})").format(level=floor, name=NAMES[floor])


def _tag(combo: DeckCombo) -> str:
    tag = combo.combo.bracket_tag
    return TAGS.get(tag.value, tag.value) if tag is not None else "?"


def combo_line(combo: DeckCombo, name: Name = str) -> str:
    """'Thassa's Oracle + Demonic Consultation: Win the game · 3 mana · Spellbook: Ruthless · <link>'."""
    cards = " + ".join(map(name, combo.cards))
    if combo.combo.requires:
        needs = render.and_list(name(t.name) for t in combo.combo.requires)
        cards = _("{cards}, with {templates}").format(cards=cards, templates=needs)
    parts = [render.and_list(name(f.name) for f in combo.combo.produces[:3])]
    if combo.combo.mana_value_needed is not None:
        parts.append(_("{n} mana").format(n=combo.combo.mana_value_needed))
    parts.append(_("Spellbook: {tag}").format(tag=_tag(combo)))
    parts.append(f"<{combo.combo.url}>" if name is not str else combo.combo.url)
    return f"{cards}: " + " \u00b7 ".join(p for p in parts if p)


def _spellbook_doubts(facts: BracketFacts, name: Name) -> list[str]:
    """Combos Spellbook tags above the deck's floor, or below the floor the combo itself sets."""
    out = []
    for combo in facts.combos:
        theirs = combo.combo.bracket_tag.bracket if combo.combo.bracket_tag is not None else None
        below = theirs is not None and combo.floor is not None and theirs < combo.floor
        ours = combo.floor if below and combo.floor is not None else facts.floor
        if theirs is not None and (theirs > facts.floor or below):
            cards = " + ".join(map(name, combo.cards))
            out.append(_(_DOUBT).format(cards=cards, tag=_tag(combo), theirs=theirs, ours=ours))
    return out


def groups(
    facts: BracketFacts, name: Name = str, quoted: Callable[[Flagged], str] | None = None
) -> list[tuple[str, list[str]]]:
    """(headline, items) per guideline the deck meets, strongest first: each line its reason and its floor."""
    out: list[tuple[str, list[str]]] = []
    quoted = quoted or (lambda f: quote(f.finding, markdown=False))
    for guideline in (Guideline.MASS_LAND_DENIAL, Guideline.EXTRA_TURN):
        if found := facts.of(guideline):
            label, level = _(_TITLES[guideline]), GUIDELINE_FLOORS[guideline]
            head = _("{what}: bracket {level} or higher.").format(what=label, level=level)
            out.append((head, [f"{name(f.name)} \u2014 {quoted(f)}" for f in found]))
    combos = facts.combos
    for floor, head in (
        (EARLY_TWO_CARD_FLOOR, N_("Early two-card combos: bracket {level} or higher.")),
        (EARLY_TWO_CARD_FLOOR - 1, N_("Two-card combos: bracket {level} or higher.")),
    ):
        if found_combos := [c for c in combos if c.floor == floor]:
            out.append((_(head).format(level=floor), [combo_line(c, name) for c in found_combos]))
    if gcs := facts.game_changers:
        head = ngettext(
            "{n} Game Changer: bracket {level} or higher.",
            "{n} Game Changers: bracket {level} or higher.",
            len(gcs),
        ).format(n=len(gcs), level=bracket_floor(len(gcs)))
        out.append((head, [render.and_list(map(name, gcs))]))
    if others := [c for c in combos if c.floor is None]:
        out.append((_("Other combos (no floor of their own):"), [combo_line(c, name) for c in others]))
    return out


def notes(facts: BracketFacts, name: Name = str) -> list[str]:
    """No floor at all, combos not checked, Spellbook's disagreements."""
    out = [_(_NONE)] if facts.empty else []
    if not facts.combos_checked:
        out = [_("Combos were not checked: there is no Commander Spellbook data yet.")]
    return out + _spellbook_doubts(facts, name)


def cannot_tell(facts: BracketFacts) -> list[str]:
    """What the contents can't tell, said once."""
    chained = _("Whether extra turns are chained is for your table: the cards can\u2019t tell.")
    return [chained] * bool(facts.of(Guideline.EXTRA_TURN)) + [_(_REST)]


def deck_text(facts: BracketFacts, quoted: Callable[[Flagged], str] | None = None) -> list[str]:
    out = [title(facts)]
    for head, items in groups(facts, str, quoted):
        out += [f"  {head}", *(f"    - {item}" for item in items)]
    return out + [f"  {note}" for note in (*notes(facts), *cannot_tell(facts))]


def deck_field(facts: BracketFacts, name: Name, quoted: Callable[[Flagged], str]) -> list[str]:
    """The bracket field of the summary embed: each guideline's headline and its first items."""
    out: list[str] = []
    for head, items in groups(facts, name, quoted):
        out += [f"**{head}**", *(f"\u2022 {item}" for item in items[:SHOWN])]
        if len(items) > SHOWN:
            out.append(_("\u2026and {n} more in the full report").format(n=len(items) - SHOWN))
    return out + notes(facts, name)
