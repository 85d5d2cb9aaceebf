"""`analyze(card)`: a card's colors and Commander color identity, with evidence for every color. Colors (CR
202.2, 204, 604.3) come from the parts that carry them (709.4, 710, 712.8a, 715.4, 720, 722.4); identity
(903.4) from mana symbols in cost and rules text of every part (903.4d-e) minus reminder text (903.4c), color
indicators, "is all colors" and basic land types (903.5d), never color words. A card's own text wins (CR
101.1): a CDA that "doesn't affect its color identity" sets colors only. Scryfall's `colors`/`color_identity`
are read only for tokens, colored by the effect that makes them (CR 111.3)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import compress

from bot.identity.faces import (
    TOKEN_LAYOUTS,
    Face,
    card_faces,
    card_name,
    face_roles,
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
)
from bot.identity.symbols import SYMBOL_RE, WUBRG, Symbol, classify, wubrg
from bot.identity.text import named_colors, reminder_symbols, shown_line, strip_reminder, symbol_context

BASIC_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
_COLOR, _IDENTITY = Aspect.COLOR, Aspect.IDENTITY
_NOTES = (Note.TOKEN_COLORS_UNRECORDED, Note.CHOOSES_COLOR, Note.COLOR_NOT_IDENTITY, Note.CDA_KEEPS_IDENTITY)
_COLORLESS_ROLES = frozenset({FaceRole.BACK, FaceRole.ALTERNATIVE})  # CR 712.8a, 715.4, 720: no colors
_NO_CHARACTERISTICS = frozenset({NonDeckKind.EMBLEM, NonDeckKind.CHECKLIST})  # no cost or rules text

# CDAs (CR 604.3) count only when their subject is the object itself, not in "create a token that's all colors".
_ALL_COLORS_RE = re.compile(r"(?:^|[.!]\s+)([^.!\n]+?) is all colors\.")
_COLORLESS_RE = re.compile(r"(?:^|[.!]\s+)([^.!\n]+?) is colorless\.")
_DEVOID_RE = re.compile(r"^devoid\b", re.IGNORECASE)  # CR 702.114a
_CHOOSE_COLOR_RE = re.compile(r"choose a colou?r before the game", re.IGNORECASE)  # CR 903.4b
_NO_IDENTITY_RE = re.compile(r"\bdoesn[\u2019']t affect (?:its|this card[\u2019']s) colou?r identity", re.I)


def _says(regex: re.Pattern[str], phrase: str, line: str, names: tuple[str, ...]) -> bool:
    """Whether `line` says "<this object> <phrase>": its (face) name, its short name, "this card", "~"."""
    if phrase not in line:
        return False
    for m in regex.finditer(line):
        subject = m.group(1).strip()
        words = subject.lower().split()
        if words in (["~"], ["cardname"]) or (len(words) == 2 and words[0] == "this"):
            return True
        # its name, or its short name: the part before a comma or before " of "
        if any(name and subject in (name, name.split(",")[0], name.split(" of ")[0]) for name in names):
            return True
    return False


@dataclass(slots=True)
class _FaceText:
    """What one face's rules text says, reminder text removed (CR 903.4c)."""

    rules: list[Reason] = field(default_factory=list)  # identity evidence of its colored mana symbols
    reminder: dict[Symbol, None] = field(default_factory=dict)  # colored symbols only in reminder text
    removed_by: tuple[CdaKind, str] | None = None  # Devoid / "is colorless", with its line
    all_colors_line: str | None = None  # "is all colors"
    all_colors_identity: bool = True  # False when that CDA "doesn't affect its color identity" (CR 101.1)
    chooses: bool = False  # CR 903.4b
    words: set[str] = field(default_factory=set)  # colors named in words


def _read_text(face: Face, names: tuple[str, ...]) -> _FaceText:
    """Each line's colored mana symbols, the ones only its reminder text holds, its CDAs (the first of each)."""
    facts = _FaceText()
    name = face.name
    for line in face.oracle_text.split("\n"):
        bare = strip_reminder(line)
        if bare is not line and "{" in line:
            hidden = [s for raw in reminder_symbols(line, bare) if (s := classify(raw)).colors]
            facts.reminder.update(dict.fromkeys(hidden))
        if not bare.strip():
            continue
        shown = shown_line(bare)
        for m in SYMBOL_RE.finditer(bare) if "{" in bare else ():
            sym = classify(m.group())
            where = symbol_context(bare, m.start()) if sym.colors else ()  # (place, keyword)
            facts.rules += [
                Reason(c, _IDENTITY, ReasonKind.RULES_TEXT, name, sym.raw, shown, False, sym.kind, *where)
                for c in sym.colors
            ]
        if facts.removed_by is None:
            if _DEVOID_RE.match(bare):
                facts.removed_by = (CdaKind.DEVOID, shown)
            elif _says(_COLORLESS_RE, "colorless", bare, names):
                facts.removed_by = (CdaKind.COLORLESS, shown)
        if facts.all_colors_line is None and _says(_ALL_COLORS_RE, "all colors", bare, names):
            facts.all_colors_line = shown
            facts.all_colors_identity = not ("identity" in bare and _NO_IDENTITY_RE.search(bare))
        facts.chooses = facts.chooses or ("before the game" in bare and bool(_CHOOSE_COLOR_RE.search(bare)))
    if named_colors(face.oracle_text, names):  # rare: then read the words again without the reminder text
        facts.words = named_colors("\n".join(map(strip_reminder, face.oracle_text.split("\n"))), names)
    return facts


def _printed(
    face: Face, syms: list[Symbol], line: str | None, aspect: Aspect
) -> tuple[list[Reason], list[Reason]]:
    """(mana cost, color indicator + "is all colors" `line`) evidence for `aspect` (CR 202.2, 204, 604.3)."""
    name, cost, types = face.name, face.mana_cost, face.type_line
    mana = [
        Reason(c, aspect, ReasonKind.MANA_COST, name, s.raw, cost, False, s.kind)
        for s in syms
        for c in s.colors
    ]
    rest = [Reason(c, aspect, ReasonKind.COLOR_INDICATOR, name, None, types) for c in face.color_indicator]
    if line is not None:
        rest += [Reason(c, aspect, ReasonKind.CDA, name, None, line, cda=CdaKind.ALL_COLORS) for c in WUBRG]
    return mana, rest


def _reasons(face: Face, text: _FaceText) -> tuple[list[Reason], list[Reason]]:
    """A face's (identity, color) evidence; identity adds rules text and basic land types (CR 903.5d)."""
    cost, type_line, line = face.mana_cost, face.type_line, text.all_colors_line
    syms = [s for raw in SYMBOL_RE.findall(cost) if (s := classify(raw)).colors] if "{" in cost else []
    mana, rest = _printed(face, syms, line if text.all_colors_identity else None, _IDENTITY)
    lands = type_line.partition("\u2014")[2].split("//")[0].split() if "Land" in type_line else ()
    identity = mana + text.rules + rest
    identity += [
        Reason(BASIC_LAND_TYPES[t], _IDENTITY, ReasonKind.BASIC_LAND_TYPE, face.name, None, type_line, land=t)
        for t in lands
        if t in BASIC_LAND_TYPES
    ]
    if text.removed_by is not None:
        kind, removing = text.removed_by
        return identity, [Reason("", _COLOR, ReasonKind.CDA, face.name, None, removing, True, cda=kind)]
    mana, rest = _printed(face, syms, line, _COLOR)
    return identity, mana + rest


def _token_colors(card: dict, faces: tuple[Face, ...]) -> tuple[list[Reason], bool]:
    """Evidence for a token's recorded colors (CR 111.3), and whether it records any `colors` list at all."""
    raw_faces = card.get("card_faces")
    raw_faces = [f if isinstance(f, dict) else {} for f in raw_faces] if isinstance(raw_faces, list) else []
    recorded = any(isinstance(obj.get("colors"), list) for obj in (card, *raw_faces))
    face_colors = [indicator(f.get("colors")) for f in raw_faces]
    front = indicator(card.get("colors")) or (face_colors[0] if face_colors else "")
    name = faces[0].name
    out = [Reason(c, _COLOR, ReasonKind.TOKEN_COLOR, name) for c in front]
    for i, colors in enumerate(face_colors or [front]):
        face = faces[i].name if i < len(faces) else name
        out += [Reason(c, _IDENTITY, ReasonKind.TOKEN_COLOR, face) for c in colors]
    # the front's colors explain themselves even when the faces record none
    return out + [Reason(c, _IDENTITY, ReasonKind.TOKEN_COLOR, name) for c in front], recorded


def analyze(card: dict) -> Analysis:
    """Colors, color identity and their evidence; `IdentityError` only when `card` is not a dict."""
    faces = card_faces(card)
    name = card_name(card)
    kind = non_deck_kind(card, faces)
    roles = face_roles(card, faces)
    if kind in _NO_CHARACTERISTICS:
        bare = (
            FaceAnalysis(f.name, "", "", f.mana_cost, f.type_line, r)
            for f, r in zip(faces, roles, strict=True)
        )
        return Analysis(name, "", "", not_deck_card=kind, faces=tuple(bare))
    found: list[Reason] = []
    colors = identity = ""
    words: set[str] = set()
    reminder: dict[Symbol, None] = {}
    parts = []
    chooses = removes = keeps_identity = False
    for f, role in zip(faces, roles, strict=True):
        text = _read_text(f, (f.name, name) if f.name != name else (name,))
        identity_reasons, color_reasons = _reasons(f, text)
        face_identity = wubrg("".join([r.color for r in identity_reasons]))
        face_colors = wubrg("".join([r.color for r in color_reasons]))
        found += identity_reasons
        identity += face_identity
        if role not in _COLORLESS_ROLES:
            found += color_reasons
            colors += face_colors
            removes = removes or text.removed_by is not None
            keeps_identity = keeps_identity or (
                text.removed_by is None and text.all_colors_line is not None and not text.all_colors_identity
            )
        chooses = chooses or text.chooses
        reminder.update(text.reminder)
        words |= text.words
        parts.append(FaceAnalysis(f.name, face_colors, face_identity, f.mana_cost, f.type_line, role))
    unrecorded = False
    if isinstance(layout := card.get("layout"), str) and layout in TOKEN_LAYOUTS:
        token_reasons, recorded = _token_colors(card, faces)
        found += token_reasons
        colors += "".join([r.color for r in token_reasons if r.aspect is _COLOR])
        identity += "".join([r.color for r in token_reasons])
        unrecorded = not recorded and not colors
    reasons: dict[tuple[object, ...], Reason] = {}
    for r in found:  # the first found per color, aspect, kind, face, symbol and line
        reasons.setdefault((r.color, r.aspect, r.kind, r.face, r.symbol, r.text), r)
    notes = tuple(compress(_NOTES, (unrecorded, chooses, removes, keeps_identity)))
    colors, identity, evidence = wubrg(colors), wubrg(identity), tuple(reasons.values())
    return Analysis(
        name, colors, identity, evidence, tuple(parts), chooses, notes, kind, tuple(reminder), wubrg(words)
    )


def with_chosen_color(a: Analysis, color: str) -> Analysis:
    """`a` after choosing `color` before the game (CR 903.4b): it joins identity and colors. Raises
    `IdentityError` for anything but W, U, B, R, G, or for a card that doesn't choose a color."""
    letter = color.upper() if isinstance(color, str) else ""
    if len(letter) != 1 or letter not in WUBRG:
        raise IdentityError(f"a chosen color is one of W, U, B, R, G; got {color!r}")
    if not a.chooses_color:
        raise IdentityError(f"{a.name} doesn\u2019t choose a color before the game")
    face = a.faces[0].name if a.faces else a.name
    added = tuple(Reason(letter, aspect, ReasonKind.CHOSEN_COLOR, face) for aspect in (_COLOR, _IDENTITY))
    keep = tuple(r for r in a.reasons if not (r.removes and r.aspect is _COLOR))
    return replace(
        a, colors=wubrg(a.colors + letter), identity=wubrg(a.identity + letter), reasons=keep + added
    )
