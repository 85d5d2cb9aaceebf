"""`analyze(card)`: a card's colors and Commander color identity, with evidence for every color.

Colors (CR 202.2, 204, 604.3): mana cost symbols, color indicator, color-setting characteristic-defining
abilities ("is all colors"; "is colorless" and Devoid take colors away). For split and flip cards the colors
of all parts (CR 709.4, 710); for two-sided cards the front face's (CR 712.8a); for adventurer, omen and
preparation cards the main part's only, since the other part's characteristics exist only on the stack
(CR 715.4, 720, 722.4).

Color identity (CR 903.4): colors of every mana symbol in the mana cost and rules text of every face and
part (903.4d, 903.4e), color indicators, "is all colors" CDAs, and the colors of basic land types (903.5d,
305.6: Plains W, Island U, Swamp B, Mountain R, Forest G). Reminder text is ignored (903.4c). Devoid and
"is colorless" change color, not identity. A card's own text wins over these rules (CR 101.1): a CDA that
"doesn't affect its color identity" (Fallaji Wayfarer) sets colors only. Commanders that choose a color
before the game are flagged (903.4b); `with_chosen_color` adds the chosen color. Color *words* never count.

Objects that are not cards of a deck are flagged (`Analysis.not_deck_card`, see `faces.non_deck_kind`).
Emblems and checklist/substitute cards have no characteristics of a card in a deck, so nothing on them
(text, printed costs) gives them colors or color identity.

Scryfall's `colors` / `color_identity` fields are never read, except for tokens, whose colors come from the
effect that creates them (CR 111.3) and so cannot be derived from the object itself.
"""

from __future__ import annotations

from dataclasses import replace

from bot.identity import cda
from bot.identity.faces import (
    ALTERNATIVE_PART_LAYOUTS,
    TOKEN_LAYOUTS,
    Face,
    card_faces,
    card_name,
    color_face_indices,
    colors_from_front,
    indicator,
    non_deck_kind,
)
from bot.identity.model import (
    WUBRG,
    Analysis,
    Aspect,
    CdaKind,
    FaceAnalysis,
    FaceRole,
    IdentityError,
    NonDeckKind,
    Note,
    Reason,
    ReasonKind,
    TextPlace,
)
from bot.identity.symbols import SYMBOL_RE, Symbol, SymbolKind, classify
from bot.identity.text import named_colors, reminder_symbols, strip_reminder, symbol_context

_NO_CHARACTERISTICS = frozenset({NonDeckKind.EMBLEM, NonDeckKind.CHECKLIST})

BASIC_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

_COLOR = Aspect.COLOR
_IDENTITY = Aspect.IDENTITY
_MANA_COST = ReasonKind.MANA_COST
_RULES_TEXT = ReasonKind.RULES_TEXT
_INDICATOR = ReasonKind.COLOR_INDICATOR
_CDA = ReasonKind.CDA
_LAND = ReasonKind.BASIC_LAND_TYPE
_TOKEN = ReasonKind.TOKEN_COLOR

_new_reason = Reason.__new__
_set = object.__setattr__


def _reason(color: str, aspect: Aspect, kind: ReasonKind, face: str, symbol: str | None = None,
            text: str | None = None, removes: bool = False, symbol_kind: SymbolKind | None = None,
            place: TextPlace | None = None, keyword: str | None = None, land: str | None = None,
            cda_kind: CdaKind | None = None) -> Reason:
    # Same as Reason(...) but skips the frozen-dataclass __setattr__ guard per field (hot path).
    r = _new_reason(Reason)
    _set(r, "color", color)
    _set(r, "aspect", aspect)
    _set(r, "kind", kind)
    _set(r, "face", face)
    _set(r, "symbol", symbol)
    _set(r, "text", text)
    _set(r, "removes", removes)
    _set(r, "symbol_kind", symbol_kind)
    _set(r, "place", place)
    _set(r, "keyword", keyword)
    _set(r, "land", land)
    _set(r, "cda", cda_kind)
    return r


def _order(colors: set[str] | str) -> str:
    return "".join(c for c in WUBRG if c in colors)


class _Collector:
    """Accumulates reasons without duplicates (one per color/aspect/kind/face/symbol/text)."""

    __slots__ = ("reasons", "seen")

    def __init__(self) -> None:
        self.reasons: list[Reason] = []
        self.seen: set[tuple[object, ...]] = set()

    def add(self, color: str, aspect: Aspect, kind: ReasonKind, face: str, symbol: str | None = None,
            text: str | None = None, removes: bool = False, symbol_kind: SymbolKind | None = None,
            place: TextPlace | None = None, keyword: str | None = None, land: str | None = None,
            cda_kind: CdaKind | None = None) -> None:
        key = (color, aspect, kind, face, symbol, text)
        if key in self.seen:
            return
        self.seen.add(key)
        self.reasons.append(_reason(color, aspect, kind, face, symbol, text, removes, symbol_kind, place, keyword,
                                    land, cda_kind))


def _land_types(type_line: str) -> list[str]:
    if "Land" not in type_line:
        return []
    dash = type_line.find("\u2014")
    if dash == -1:
        return []
    subtypes = type_line[dash + 1 :].split("//")[0].split()
    return [t for t in subtypes if t in BASIC_LAND_TYPES]


def _face_names(face: Face, name: str) -> tuple[str, ...]:
    return (face.name, name) if face.name != name else (face.name,)


class _FaceFacts:
    """What `_analyze_face` learned about one face besides its reasons."""

    __slots__ = ("chooses", "colors", "identity", "keeps_identity", "removes", "reminder", "words")

    def __init__(self) -> None:
        self.colors = ""
        self.identity = ""
        self.chooses = False
        self.removes = False
        self.keeps_identity = False
        self.reminder: list[Symbol] = []
        self.words: set[str] = set()


def _analyze_face(face: Face, name: str, out: _Collector, colors_count: bool) -> _FaceFacts:
    """Adds this face's reasons; returns its colors, identity and the other facts about it."""
    fname = face.name
    facts = _FaceFacts()
    identity: set[str] = set()
    colors: set[str] = set()
    removed_by: tuple[CdaKind, str] | None = None
    all_colors_line: str | None = None
    all_colors_identity = True
    names = _face_names(face, name)

    # Rules text (CR 903.4; reminder text ignored, 903.4c).
    text = face.oracle_text
    text_reasons: list[tuple[Symbol, str, str, int]] = []
    if text:
        for line in text.split("\n"):
            bare = strip_reminder(line) if "(" in line else line
            if bare is not line and "{" in line:
                for raw in reminder_symbols(line, bare):
                    sym = classify(raw)
                    if sym.colors and sym not in facts.reminder:
                        facts.reminder.append(sym)
            if not bare.strip():
                continue
            shown = bare if "  " not in bare and bare[0] != " " and bare[-1] != " " else " ".join(bare.split())
            if "{" in bare:
                for m in SYMBOL_RE.finditer(bare):
                    sym = classify(m.group())
                    if sym.colors:
                        text_reasons.append((sym, shown, bare, m.start()))
            if removed_by is None:
                if cda.devoid(bare):
                    removed_by = (CdaKind.DEVOID, shown)
                elif cda.colorless_cda(bare, names):
                    removed_by = (CdaKind.COLORLESS, shown)
            if all_colors_line is None and cda.all_colors_cda(bare, names):
                all_colors_line = shown
                all_colors_identity = not cda.keeps_identity(bare)
            if not facts.chooses and cda.chooses_color(bare):
                facts.chooses = True
        if named_colors(text, names):  # rare: then read the words again without the reminder text
            facts.words = named_colors("\n".join(strip_reminder(line) for line in text.split("\n")), names)

    # Mana cost (CR 202.2 for color, 903.4 for identity).
    cost = face.mana_cost
    cost_syms = []
    if cost and "{" in cost:
        for raw in SYMBOL_RE.findall(cost):
            sym = classify(raw)
            if sym.colors:
                cost_syms.append(sym)

    for sym in cost_syms:
        for c in sym.colors:
            identity.add(c)
            out.add(c, _IDENTITY, _MANA_COST, fname, sym.raw, cost, False, sym.kind)
    for sym, shown, bare, start in text_reasons:
        place, keyword = symbol_context(bare, start)
        for c in sym.colors:
            identity.add(c)
            out.add(c, _IDENTITY, _RULES_TEXT, fname, sym.raw, shown, False, sym.kind, place, keyword)

    ind = face.color_indicator
    for c in ind:
        identity.add(c)
        out.add(c, _IDENTITY, _INDICATOR, fname, None, face.type_line)
    if all_colors_line is not None and all_colors_identity:
        for c in WUBRG:
            identity.add(c)
            out.add(c, _IDENTITY, _CDA, fname, None, all_colors_line, cda_kind=CdaKind.ALL_COLORS)
    for land in _land_types(face.type_line):
        c = BASIC_LAND_TYPES[land]
        identity.add(c)
        out.add(c, _IDENTITY, _LAND, fname, None, face.type_line, land=land)

    # Colors (CR 202.2, 204, 604.3).
    if removed_by is not None:
        if colors_count:
            facts.removes = True
            out.add("", _COLOR, _CDA, fname, None, removed_by[1], True, cda_kind=removed_by[0])
    else:
        for sym in cost_syms:
            for c in sym.colors:
                colors.add(c)
                if colors_count:
                    out.add(c, _COLOR, _MANA_COST, fname, sym.raw, cost, False, sym.kind)
        for c in ind:
            colors.add(c)
            if colors_count:
                out.add(c, _COLOR, _INDICATOR, fname, None, face.type_line)
        if all_colors_line is not None:
            colors.update(WUBRG)
            facts.keeps_identity = not all_colors_identity
            if colors_count:
                for c in WUBRG:
                    out.add(c, _COLOR, _CDA, fname, None, all_colors_line, cda_kind=CdaKind.ALL_COLORS)
    facts.colors = _order(colors)
    facts.identity = _order(identity)
    return facts


_ONLY = [FaceRole.ONLY]


def _roles(card: dict, faces: tuple[Face, ...], color_faces: tuple[int, ...]) -> list[FaceRole]:
    """Each face's role: front/back of a two-sided card, halves, main part and alternative part."""
    if len(faces) < 2:
        return _ONLY if faces else []
    if colors_from_front(card, faces):
        return [FaceRole.FRONT] + [FaceRole.BACK] * (len(faces) - 1)
    layout = card.get("layout")
    main = isinstance(layout, str) and layout in ALTERNATIVE_PART_LAYOUTS
    roles = []
    for i in range(len(faces)):
        if i not in color_faces:
            roles.append(FaceRole.ALTERNATIVE)
        else:
            roles.append(FaceRole.MAIN if main else FaceRole.HALF)
    if FaceRole.ALTERNATIVE in roles and not main:
        roles = [FaceRole.MAIN if r is FaceRole.HALF else r for r in roles]
    return roles


def _token_colors(card: dict, faces: tuple[Face, ...], out: _Collector) -> tuple[str, str, bool]:
    """Colors Scryfall records for a token/emblem (set by the creating effect, CR 111.3): (colors, identity,
    whether the data records colors at all: a `colors` list, even an empty one, means it does)."""
    recorded = isinstance(card.get("colors"), list)
    front = indicator(card.get("colors"))
    raw_faces = card.get("card_faces")
    face_colors: list[str] = []
    if isinstance(raw_faces, list):
        face_colors = [indicator(f.get("colors")) if isinstance(f, dict) else "" for f in raw_faces]
        recorded = recorded or any(isinstance(f, dict) and isinstance(f.get("colors"), list) for f in raw_faces)
    if not front and face_colors:
        front = face_colors[0]
    all_colors = set(front)
    for fc in face_colors:
        all_colors.update(fc)
    fname = faces[0].name if faces else card_name(card)
    for c in front:
        out.add(c, _COLOR, _TOKEN, fname)
    for i, fc in enumerate(face_colors or [front]):
        face = faces[i].name if i < len(faces) else fname
        for c in fc:
            out.add(c, _IDENTITY, _TOKEN, face)
    for c in front:  # the front's colors explain themselves even when the faces record none
        out.add(c, _IDENTITY, _TOKEN, fname)
    return front, _order(all_colors), recorded


def analyze(card: dict) -> Analysis:
    """Colors, color identity and the evidence for each color of a Scryfall card object.

    Raises `IdentityError` only when `card` is not a dict; any dict gives a result.
    """
    if not isinstance(card, dict):
        raise IdentityError(f"expected a Scryfall card object (dict), got {type(card).__name__}")
    name = card_name(card)
    faces = card_faces(card)
    kind = non_deck_kind(card, faces)
    color_faces = color_face_indices(card, faces)
    roles = _roles(card, faces, color_faces)
    if kind in _NO_CHARACTERISTICS:
        # Emblems and checklist/substitute cards: nothing printed on them is a card's cost or rules text.
        return Analysis(
            name=name,
            colors="",
            identity="",
            faces=tuple(FaceAnalysis(f.name, "", "", f.mana_cost, f.type_line, role)
                        for f, role in zip(faces, roles, strict=True)),
            not_deck_card=kind,
        )
    out = _Collector()
    colors: set[str] = set()
    identity: set[str] = set()
    face_results = []
    chooses = keeps_identity = False
    reminder: list[Symbol] = []
    words: set[str] = set()
    for i, face in enumerate(faces):
        counts = i in color_faces
        facts = _analyze_face(face, name, out, counts)
        if counts:
            colors.update(facts.colors)
            keeps_identity = keeps_identity or facts.keeps_identity
        identity.update(facts.identity)
        chooses = chooses or facts.chooses
        if facts.reminder:
            reminder.extend(sym for sym in facts.reminder if sym not in reminder)
        if facts.words:
            words |= facts.words
        face_results.append(FaceAnalysis(face.name, facts.colors, facts.identity, face.mana_cost, face.type_line,
                                         roles[i]))

    notes: list[Note] = []
    layout = card.get("layout")
    if isinstance(layout, str) and layout in TOKEN_LAYOUTS:
        tcolors, tidentity, recorded = _token_colors(card, faces, out)
        colors.update(tcolors)
        identity.update(tidentity)
        if not recorded and not colors:
            notes.append(Note.TOKEN_COLORS_UNRECORDED)
    if chooses:
        notes.append(Note.CHOOSES_COLOR)
    if any(r.removes for r in out.reasons):
        notes.append(Note.COLOR_NOT_IDENTITY)
    if keeps_identity:
        notes.append(Note.CDA_KEEPS_IDENTITY)
    # Colorless identity reasons (none) are fine; every listed color has at least one reason.
    return Analysis(
        name=name,
        colors=_order(colors),
        identity=_order(identity),
        reasons=tuple(out.reasons),
        faces=tuple(face_results),
        chooses_color=chooses,
        notes=tuple(notes),
        not_deck_card=kind,
        reminder_symbols=tuple(reminder),
        color_words=_order(words) if words else "",
    )


def with_chosen_color(analysis: Analysis, color: str) -> Analysis:
    """`analysis` of a commander that chose `color` before the game (CR 903.4b): the color joins its color
    identity and, as its text makes it "the chosen color", its colors; evidence kind CHOSEN_COLOR.

    Raises `IdentityError` for anything but one of W, U, B, R, G, or for a card that doesn't choose a color.
    """
    letter = color.upper() if isinstance(color, str) else ""
    if len(letter) != 1 or letter not in WUBRG:
        raise IdentityError(f"a chosen color is one of W, U, B, R, G; got {color!r}")
    if not analysis.chooses_color:
        raise IdentityError(f"{analysis.name} doesn\u2019t choose a color before the game")
    face = analysis.faces[0].name if analysis.faces else analysis.name
    added = tuple(_reason(letter, aspect, ReasonKind.CHOSEN_COLOR, face) for aspect in (_COLOR, _IDENTITY))
    keep = tuple(r for r in analysis.reasons if not (r.removes and r.aspect is _COLOR))
    return replace(
        analysis,
        colors=_order(set(analysis.colors) | {letter}),
        identity=_order(set(analysis.identity) | {letter}),
        reasons=keep + added,
    )
