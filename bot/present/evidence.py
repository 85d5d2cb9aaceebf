"""The one way evidence becomes text: the engine's reasons merged into one `Source` per line of the card, so
Golos gives one line, `{W}{U}{B}{R}{G} — activated ability: {2}**{W}{U}{B}{R}{G}**: Exile…`, not five. In a
reply in another language, a rules-text line is quoted as the player's cards print it when the card's printed
text is known and its line matches the Oracle line (`bot.cards.quotes`); else the Oracle line, noted English."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.cards.printed import scryfall_language
from bot.cards.quotes import PrintedText
from bot.identity.model import WUBRG, Analysis, FaceRole, Reason, ReasonKind, TextPlace
from bot.present import render
from bot.present.i18n import ENGLISH, N_, _, current_locale, ngettext, pgettext
from bot.present.render import Emoji
from bot.present.words import alternative_part_word

_PLACES: dict[TextPlace, str] = {
    TextPlace.ACTIVATED_COST: N_("activated ability"),
    TextPlace.MANA_ABILITY: N_("mana ability"),
    TextPlace.MANA_ADDED: N_("mana it adds"),
    TextPlace.COST_ASKED: N_("a cost it asks for"),
    TextPlace.COST_CHANGE: N_("cost change"),
    TextPlace.GRANTED_COST: N_("cost of an ability it grants"),
    TextPlace.GRANTED_MANA_ABILITY: N_("mana ability it grants"),
    TextPlace.GRANTED_ABILITY: N_("ability it grants"),
    TextPlace.TEXT: N_("rules text"),
}
_RULES_LINES = (ReasonKind.RULES_TEXT, ReasonKind.CDA)  # kinds whose text is a line of the rules text
_NOT_WORDS = (ReasonKind.MANA_COST, ReasonKind.COLOR_INDICATOR)  # kinds that quote no words
_CAPITALIZED = ("de", "ja")  # languages whose keywords keep their printed first letter mid-sentence
_WHERE: dict[ReasonKind, str] = {
    ReasonKind.MANA_COST: N_("mana cost"),
    ReasonKind.COLOR_INDICATOR: N_("color indicator"),
    ReasonKind.CDA: N_("characteristic-defining ability"),
    ReasonKind.CHOSEN_COLOR: N_("color chosen before the game (CR 903.4b)"),
    ReasonKind.TOKEN_COLOR: N_("set by the effect that creates it"),
}


@dataclass(frozen=True, slots=True)
class Source:
    """The reasons from one line of one face (or one chosen/token color)."""

    kind: ReasonKind
    face: str
    text: str | None
    colors: str
    symbols: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    lands: tuple[str, ...] = ()


def printed_keyword(keyword: str) -> str:
    """A keyword as the cards print it in the reply's language (msgctxt "keyword": de "Rückblende"), else as
    the engine read it; "Level up" finds the catalog's "Level Up"."""
    for msgid in dict.fromkeys((keyword, keyword[:1].upper() + keyword[1:].lower(), keyword.title())):
        if (printed := pgettext("keyword", msgid)) != msgid:
            return printed
    return keyword


def place_words(reason: Reason) -> str:
    """Where in a rules-text line a symbol sits: 'activated ability', 'flashback cost', 'mana ability'."""
    if reason.place is TextPlace.KEYWORD_COST and reason.keyword:
        keyword = printed_keyword(reason.keyword)
        if current_locale() not in _CAPITALIZED:  # "flashback cost", "coste de retrospectiva"; de nouns stay
            keyword = keyword[0].lower() + keyword[1:]
        return _("{keyword} cost").format(keyword=keyword)
    return _(_PLACES.get(reason.place or TextPlace.TEXT, _PLACES[TextPlace.TEXT]))


def sources(reasons: Iterable[Reason], colors: str | None = None) -> list[Source]:
    """The reasons (for `colors` only, when given) merged into one `Source` per line, in first-seen order."""
    groups: dict[tuple[ReasonKind, str, str | None], list[Reason]] = {}
    for r in reasons:
        if not r.removes and (colors is None or r.color in colors):
            groups.setdefault((r.kind, r.face, r.text), []).append(r)
    out: list[Source] = []
    for (kind, face, text), group in groups.items():
        symbols = list(dict.fromkeys(r.symbol for r in group if r.symbol))
        if text is not None:  # as printed, left to right
            symbols.sort(key=lambda sym: text.find(sym) if sym in text else len(text))
            if kind is ReasonKind.BASIC_LAND_TYPE:
                group.sort(key=lambda r: text.find(r.land) if r.land and r.land in text else len(text))
        if not symbols and kind is not ReasonKind.BASIC_LAND_TYPE:
            group.sort(key=lambda r: WUBRG.find(r.color))
        colors = "".join(dict.fromkeys(r.color for r in group))
        places = tuple(dict.fromkeys(place_words(r) for r in group if kind is ReasonKind.RULES_TEXT))
        lands = tuple(dict.fromkeys(r.land for r in group if r.land))
        out.append(Source(kind, face, text, colors, tuple(symbols), places, lands))
    return out


def face_label(analysis: Analysis, face: str) -> str:
    """'' for the card or its front part; else 'Homicidal Brute (back face)', 'Take It Back (Adventure)'."""
    if not face or face == analysis.name or len(analysis.faces) < 2:
        return ""
    role = next((f.role for f in analysis.faces if f.name == face), FaceRole.HALF)
    if role in (FaceRole.FRONT, FaceRole.MAIN) and analysis.faces[0].name == face:
        return ""
    if role is FaceRole.ALTERNATIVE:
        type_line = next((f.type_line for f in analysis.faces if f.name == face), "")
        return _("{face} ({part})").format(face=face, part=alternative_part_word(type_line))
    return _("{face} ({part})").format(face=face, part=_("back face")) if role is FaceRole.BACK else face


def printed_line(source: Source, printed: PrintedText | None) -> str | None:
    """The line of `source` as `printed` prints it in the reply's language; None: Oracle's is quoted."""
    if printed is None or source.kind not in _RULES_LINES or not source.text:
        return None
    if scryfall_language(current_locale()) != printed.lang:
        return None
    return printed.line(source.face, source.text)


def evidence_line(
    source: Source,
    analysis: Analysis,
    emoji: Emoji = None,
    *,
    markdown: bool = True,
    printed: PrintedText | None = None,
) -> str:
    """Symbols (or pips), where they sit, the card's line with them in bold (as `printed` prints it in the
    reply's language when it matches); `markdown=False` for files."""
    if not markdown:
        emoji = None
    label = face_label(analysis, source.face)
    if source.kind is ReasonKind.RULES_TEXT:
        where = render.and_list(source.places) or _(_PLACES[TextPlace.TEXT])
    elif source.kind is ReasonKind.BASIC_LAND_TYPE:
        where = ngettext("basic land type (CR 903.5d)", "basic land types (CR 903.5d)", len(source.lands))
    else:
        where = _(_WHERE[source.kind])
    if label:
        where = _("{face}, {where}").format(face=render.escape(label) if markdown else label, where=where)
    lead = "".join(render.symbol(s, emoji) for s in source.symbols or source.colors)
    line = f"{lead} \u2014 {where}"
    text = (printed_line(source, printed) or source.text or "").strip()
    if not text or source.kind is ReasonKind.COLOR_INDICATOR:
        return line
    lands = source.kind is ReasonKind.BASIC_LAND_TYPE
    shown = render.clip_line(text, None if lands or not source.symbols else source.symbols[0])
    if markdown and lands:  # the basic land types in bold
        shown = render.bold_runs(((w, w in source.lands) for w in render.escape(shown).split(" ")), " ")
    elif markdown:
        shown = render.highlight(shown, source.symbols, emoji)
    return render.colon(line, shown)


def english_note(found: Sequence[Source], printed: PrintedText | None = None) -> str | None:
    """Outside English, a note when a quoted line (not a mana cost) is the English Oracle text."""
    if current_locale() == ENGLISH:
        return None
    english = any(s.text and s.kind not in _NOT_WORDS and printed_line(s, printed) is None for s in found)
    return _("card lines quoted in English (Oracle text)") if english else None


def evidence_lines(
    analysis: Analysis,
    found: Sequence[Source],
    emoji: Emoji = None,
    *,
    markdown: bool = True,
    printed: PrintedText | None = None,
) -> list[str]:
    lines = (evidence_line(s, analysis, emoji, markdown=markdown, printed=printed) for s in found)
    return list(dict.fromkeys(lines))
