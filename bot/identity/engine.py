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

from dataclasses import dataclass, field, replace
from itertools import compress

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
from bot.identity.symbols import SYMBOL_RE, WUBRG, Symbol, SymbolKind, classify, wubrg
from bot.identity.text import named_colors, reminder_symbols, strip_reminder, symbol_context

_NO_CHARACTERISTICS = frozenset({NonDeckKind.EMBLEM, NonDeckKind.CHECKLIST})

BASIC_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

# in the order `Analysis.notes` lists them
_NOTES = (Note.TOKEN_COLORS_UNRECORDED, Note.CHOOSES_COLOR, Note.COLOR_NOT_IDENTITY, Note.CDA_KEEPS_IDENTITY)
_COLOR = Aspect.COLOR
_IDENTITY = Aspect.IDENTITY


class _Collector:
    """Accumulates reasons without duplicates (one per color/aspect/kind/face/symbol/text)."""

    __slots__ = ("reasons", "seen")

    def __init__(self) -> None:
        self.reasons: list[Reason] = []
        self.seen: set[tuple[object, ...]] = set()

    def add(
        self,
        color: str,
        aspect: Aspect,
        kind: ReasonKind,
        face: str,
        symbol: str | None = None,
        text: str | None = None,
        removes: bool = False,
        symbol_kind: SymbolKind | None = None,
        place: TextPlace | None = None,
        keyword: str | None = None,
        land: str | None = None,
        cda: CdaKind | None = None,
    ) -> None:
        key = (color, aspect, kind, face, symbol, text)
        if key not in self.seen:
            self.seen.add(key)
            self.reasons.append(
                Reason(
                    color, aspect, kind, face, symbol, text, removes, symbol_kind, place, keyword, land, cda
                )
            )


def _land_types(type_line: str) -> list[str]:
    """The basic land types of a land's type line (CR 305.6)."""
    if "Land" not in type_line:
        return []
    subtypes = type_line.partition("\u2014")[2].split("//")[0].split()
    return [t for t in subtypes if t in BASIC_LAND_TYPES]


@dataclass(slots=True)
class _FaceText:
    """What one face's rules text says, reminder text removed (CR 903.4, 903.4c, 604.3, 903.4b)."""

    # each colored symbol: (symbol, its line as shown, its line as read, where in that line)
    symbols: list[tuple[Symbol, str, str, int]] = field(default_factory=list)
    reminder: dict[Symbol, None] = field(default_factory=dict)  # colored symbols only in reminder text, once
    removed_by: tuple[CdaKind, str] | None = None  # Devoid / "is colorless", with its line
    all_colors_line: str | None = None  # the line of an "is all colors" CDA
    all_colors_identity: bool = True  # False when that CDA "doesn't affect its color identity" (CR 101.1)
    chooses: bool = False  # CR 903.4b
    words: set[str] = field(default_factory=set)  # colors named in words

    @property
    def keeps_identity(self) -> bool:
        """An "is all colors" CDA that sets colors only, as the card says (CR 101.1)."""
        return self.removed_by is None and self.all_colors_line is not None and not self.all_colors_identity


def _read_text(text: str, names: tuple[str, ...]) -> _FaceText:
    """The colored symbols of every rules-text line, the symbols only its reminder text holds, its CDAs."""
    facts = _FaceText()
    for line in text.split("\n"):
        bare = strip_reminder(line)
        if bare is not line and "{" in line:
            hidden = (classify(raw) for raw in reminder_symbols(line, bare))
            facts.reminder.update(dict.fromkeys(sym for sym in hidden if sym.colors))
        if not bare.strip():
            continue
        shown = bare if "  " not in bare and bare[0] != " " and bare[-1] != " " else " ".join(bare.split())
        if "{" in bare:
            for m in SYMBOL_RE.finditer(bare):
                sym = classify(m.group())
                if sym.colors:
                    facts.symbols.append((sym, shown, bare, m.start()))
        _read_cdas(facts, bare, shown, names)
    if named_colors(text, names):  # rare: then read the words again without the reminder text
        facts.words = named_colors("\n".join(strip_reminder(line) for line in text.split("\n")), names)
    return facts


def _read_cdas(facts: _FaceText, bare: str, shown: str, names: tuple[str, ...]) -> None:
    """The color-setting CDAs (CR 604.3, 702.114a) and the 903.4b choice on one line; the first of each."""
    if facts.removed_by is None:
        if cda.devoid(bare):
            facts.removed_by = (CdaKind.DEVOID, shown)
        elif cda.colorless_cda(bare, names):
            facts.removed_by = (CdaKind.COLORLESS, shown)
    if facts.all_colors_line is None and cda.all_colors_cda(bare, names):
        facts.all_colors_line = shown
        facts.all_colors_identity = not cda.keeps_identity(bare)
    facts.chooses = facts.chooses or cda.chooses_color(bare)


def _colored_symbols(cost: str) -> list[Symbol]:
    """The symbols of a mana cost that carry a color (CR 202.2)."""
    return [sym for raw in SYMBOL_RE.findall(cost) if (sym := classify(raw)).colors] if "{" in cost else []


def _identity(face: Face, cost: list[Symbol], text: _FaceText, out: _Collector) -> str:
    """The face's color identity and its reasons (CR 903.4, 903.4c-d, 903.5d): mana symbols of its cost and
    rules text, its color indicator, an "is all colors" CDA, its basic land types."""
    fname = face.name
    identity: set[str] = set()
    for sym in cost:
        identity.update(sym.colors)
        for c in sym.colors:
            out.add(c, _IDENTITY, ReasonKind.MANA_COST, fname, sym.raw, face.mana_cost, False, sym.kind)
    for sym, shown, bare, start in text.symbols:
        identity.update(sym.colors)
        place, keyword = symbol_context(bare, start)
        for c in sym.colors:
            out.add(
                c, _IDENTITY, ReasonKind.RULES_TEXT, fname, sym.raw, shown, False, sym.kind, place, keyword
            )
    identity.update(face.color_indicator)
    for c in face.color_indicator:
        out.add(c, _IDENTITY, ReasonKind.COLOR_INDICATOR, fname, None, face.type_line)
    if text.all_colors_line is not None and text.all_colors_identity:
        identity.update(WUBRG)
        for c in WUBRG:
            out.add(c, _IDENTITY, ReasonKind.CDA, fname, None, text.all_colors_line, cda=CdaKind.ALL_COLORS)
    for land in _land_types(face.type_line):
        c = BASIC_LAND_TYPES[land]
        identity.add(c)
        out.add(c, _IDENTITY, ReasonKind.BASIC_LAND_TYPE, fname, None, face.type_line, land=land)
    return wubrg(identity)


def _colors(face: Face, cost: list[Symbol], text: _FaceText, out: _Collector | None) -> str:
    """The face's colors (CR 202.2, 204, 604.3): its mana cost, color indicator and color-setting CDAs. Their
    reasons go to `out`, unless the face doesn't give the card its colors (`out` None)."""
    fname = face.name
    if text.removed_by is not None:
        kind, line = text.removed_by
        if out is not None:
            out.add("", _COLOR, ReasonKind.CDA, fname, None, line, True, cda=kind)
        return ""
    if out is not None:
        for sym in cost:
            for c in sym.colors:
                out.add(c, _COLOR, ReasonKind.MANA_COST, fname, sym.raw, face.mana_cost, False, sym.kind)
        for c in face.color_indicator:
            out.add(c, _COLOR, ReasonKind.COLOR_INDICATOR, fname, None, face.type_line)
        if text.all_colors_line is not None:
            for c in WUBRG:
                out.add(c, _COLOR, ReasonKind.CDA, fname, None, text.all_colors_line, cda=CdaKind.ALL_COLORS)
    if text.all_colors_line is not None:
        return WUBRG
    return wubrg("".join(sym.colors for sym in cost) + face.color_indicator)


def _roles(card: dict, faces: tuple[Face, ...], color_faces: tuple[int, ...]) -> list[FaceRole]:
    """Each face's role: front/back of a two-sided card, halves, main part and alternative part."""
    if len(faces) < 2:
        return [FaceRole.ONLY] * len(faces)
    if colors_from_front(card, faces):
        return [FaceRole.FRONT] + [FaceRole.BACK] * (len(faces) - 1)
    layout = card.get("layout")
    main = (isinstance(layout, str) and layout in ALTERNATIVE_PART_LAYOUTS) or len(color_faces) < len(faces)
    part = FaceRole.MAIN if main else FaceRole.HALF
    return [part if i in color_faces else FaceRole.ALTERNATIVE for i in range(len(faces))]


def _token_colors(card: dict, faces: tuple[Face, ...], out: _Collector) -> tuple[str, str, bool]:
    """Colors Scryfall records for a token/emblem (set by the creating effect, CR 111.3): (colors, identity,
    whether the data records colors at all: a `colors` list, even an empty one, means it does)."""
    recorded = isinstance(card.get("colors"), list)
    front = indicator(card.get("colors"))
    raw_faces = card.get("card_faces")
    face_colors: list[str] = []
    if isinstance(raw_faces, list):
        face_colors = [indicator(f.get("colors")) if isinstance(f, dict) else "" for f in raw_faces]
        recorded = recorded or any(
            isinstance(f, dict) and isinstance(f.get("colors"), list) for f in raw_faces
        )
    front = front or (face_colors[0] if face_colors else "")
    fname = faces[0].name
    for c in front:
        out.add(c, _COLOR, ReasonKind.TOKEN_COLOR, fname)
    for i, fc in enumerate(face_colors or [front]):
        for c in fc:
            out.add(c, _IDENTITY, ReasonKind.TOKEN_COLOR, faces[i].name if i < len(faces) else fname)
    for c in front:  # the front's colors explain themselves even when the faces record none
        out.add(c, _IDENTITY, ReasonKind.TOKEN_COLOR, fname)
    return front, wubrg(front + "".join(face_colors)), recorded


def analyze(card: dict) -> Analysis:
    """Colors, color identity and the evidence for each color of a Scryfall card object.

    Raises `IdentityError` only when `card` is not a dict; any dict gives a result.
    """
    faces = card_faces(card)
    name = card_name(card)
    kind = non_deck_kind(card, faces)
    color_faces = color_face_indices(card, faces)
    roles = _roles(card, faces, color_faces)
    if kind in _NO_CHARACTERISTICS:
        # Emblems and checklist/substitute cards: nothing printed on them is a card's cost or rules text.
        return Analysis(
            name,
            "",
            "",
            not_deck_card=kind,
            faces=tuple(
                FaceAnalysis(f.name, "", "", f.mana_cost, f.type_line, role)
                for f, role in zip(faces, roles, strict=True)
            ),
        )
    out = _Collector()
    colors: set[str] = set()
    identity: set[str] = set()
    words: set[str] = set()
    reminder: dict[Symbol, None] = {}  # in order, once each
    face_results = []
    chooses = removes = keeps_identity = False
    for i, face in enumerate(faces):
        text = _read_text(face.oracle_text, (face.name, name) if face.name != name else (name,))
        cost = _colored_symbols(face.mana_cost)
        face_identity = _identity(face, cost, text, out)
        counts = i in color_faces
        face_colors = _colors(face, cost, text, out if counts else None)
        if counts:
            colors.update(face_colors)
            removes = removes or text.removed_by is not None
            keeps_identity = keeps_identity or text.keeps_identity
        identity.update(face_identity)
        chooses = chooses or text.chooses
        reminder.update(text.reminder)
        words |= text.words
        face_results.append(
            FaceAnalysis(face.name, face_colors, face_identity, face.mana_cost, face.type_line, roles[i])
        )
    unrecorded = False
    layout = card.get("layout")
    if isinstance(layout, str) and layout in TOKEN_LAYOUTS:
        token_colors, token_identity, recorded = _token_colors(card, faces, out)
        colors.update(token_colors)
        identity.update(token_identity)
        unrecorded = not recorded and not colors
    notes = tuple(compress(_NOTES, (unrecorded, chooses, removes, keeps_identity)))
    return Analysis(
        name,
        wubrg(colors),
        wubrg(identity),
        tuple(out.reasons),
        tuple(face_results),
        chooses,
        notes,
        kind,
        tuple(reminder),
        wubrg(words) if words else "",
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
    added = tuple(Reason(letter, aspect, ReasonKind.CHOSEN_COLOR, face) for aspect in (_COLOR, _IDENTITY))
    keep = tuple(r for r in analysis.reasons if not (r.removes and r.aspect is _COLOR))
    return replace(
        analysis,
        colors=wubrg(analysis.colors + letter),
        identity=wubrg(analysis.identity + letter),
        reasons=keep + added,
    )
