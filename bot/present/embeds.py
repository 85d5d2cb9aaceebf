"""Pure builders for the bot's embeds and reply texts. No network, no Discord connection.

- `identity_embed(analysis, card, ...)`: the /identity answer.
- `fits_embed(result, card, commanders, ...)`: the /fits answer.
- `help_embed()`: the /help answer (lists /identity, /fits, /deckcheck and /help).
- `identity_summary(analysis, card)`: the /identity description, built from the kinds of reasons present.
- `stale_note(resolved)`: the warning for stale or old card data (None when fresh).
- `embed_problems(embeds)`: Discord's embed limits, checked (used by tests and as a last guard).

Everything that came from outside (card data, user input) is escaped, and every text is cut to
Discord's limits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from bot.cards.model import Resolved
from bot.identity.faces import card_faces, colors_from_front
from bot.identity.model import COLOR_NAMES, WUBRG, Analysis, Aspect, FitResult, Reason, ReasonKind
from bot.identity.symbols import SYMBOL_RE, classify
from bot.present import render
from bot.present.message import (
    DESCRIPTION_LIMIT,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    FOOTER_LIMIT,
    TITLE_LIMIT,
    TOTAL_LIMIT,
    Embed,
)

STALE_DAYS = 3.0
REASONS_PER_COLOR = 4

SCRYFALL_SEARCH = "https://scryfall.com/search?q="
SCRYFALL_IMAGE = "https://api.scryfall.com/cards/{id}?format=image&version=normal"

Emoji = Mapping[str, str] | None


# ---------------------------------------------------------------------------------------- card bits
def card_name(card: Mapping[str, Any]) -> str:
    return str(card.get("name") or "Unknown card")


def card_url(card: Mapping[str, Any]) -> str:
    """The card's Scryfall page; an exact-name search link when the data has no `scryfall_uri`."""
    uri = card.get("scryfall_uri")
    if isinstance(uri, str) and uri.startswith(("https://", "http://")):
        return uri
    return SCRYFALL_SEARCH + quote(f'!"{card_name(card)}"', safe="")


def card_image(card: Mapping[str, Any]) -> str | None:
    """Image of the card, front face for double-faced cards; None when nothing is known."""
    uris = card.get("image_uris")
    if isinstance(uris, Mapping):
        url = uris.get("normal") or uris.get("large") or uris.get("small")
        if isinstance(url, str) and url.startswith("http"):
            return url
    faces = card.get("card_faces")
    if isinstance(faces, list) and faces and isinstance(faces[0], Mapping):
        uris = faces[0].get("image_uris")
        if isinstance(uris, Mapping):
            url = uris.get("normal") or uris.get("large") or uris.get("small")
            if isinstance(url, str) and url.startswith("http"):
                return url
    card_id = card.get("id")
    if isinstance(card_id, str) and card_id and all(c.isalnum() or c == "-" for c in card_id):
        return SCRYFALL_IMAGE.format(id=card_id)  # Scryfall serves the front face image for this
    return None


def is_banned(card: Mapping[str, Any]) -> bool:
    legal = card.get("legalities")
    return isinstance(legal, Mapping) and legal.get("commander") == "banned"


def stale_note(resolved: Iterable[Resolved | None]) -> str | None:
    """A warning when any answer came from stale cache data or from local data older than 3 days."""
    items = [r for r in resolved if r is not None]
    if any(r.source == "stale" for r in items):
        return ("Scryfall could not be reached, so this uses cached card data that may be out of date.")
    ages = [r.data_age_days for r in items if r.data_age_days is not None]
    if ages and max(ages) > STALE_DAYS:
        return f"The local card data is {max(ages):.0f} days old; recent changes may be missing."
    return None


# ------------------------------------------------------------------------------------- evidence text
def symbol_kind(sym: str | None) -> str:
    """'Phyrexian', 'hybrid', 'two-generic hybrid', 'half-mana' or '' for a plain symbol."""
    if not sym:
        return ""
    inner = sym.strip("{}").upper()
    parts = inner.split("/")
    if "P" in parts[1:]:
        return "Phyrexian hybrid" if len(parts) == 3 else "Phyrexian"
    if len(parts) == 2 and parts[0] == "2":
        return "two-generic hybrid"
    if len(parts) == 2 and "C" in parts:
        return "colorless hybrid"
    if len(parts) == 2:
        return "hybrid"
    if inner.startswith("H") and len(inner) == 2:
        return "half-mana"
    return ""


def _where(reason: Reason) -> str:
    kind = reason.kind
    if kind is ReasonKind.MANA_COST:
        return "mana cost"
    if kind is ReasonKind.RULES_TEXT:
        return f"rules text ({reason.detail})" if reason.detail and reason.detail != "rules text" else "rules text"
    if kind is ReasonKind.COLOR_INDICATOR:
        return "color indicator"
    if kind is ReasonKind.CDA:
        return "characteristic-defining ability"
    if kind is ReasonKind.BASIC_LAND_TYPE:
        land = (reason.detail or "").removesuffix(" type").strip()
        return f"basic land type {land}" if land else "basic land type"
    if kind is ReasonKind.CHOSEN_COLOR:
        return "color chosen before the game (CR 903.4b)"
    if kind is ReasonKind.TOKEN_COLOR:
        return "color set by the effect that creates it"
    return str(kind)


def _land(reason: Reason) -> str:
    return (reason.detail or "").removesuffix(" type").strip()


def face_roles(card: Mapping[str, Any]) -> dict[str, str]:
    """Face name -> "back face" for the back of a two-sided card (transform, modal DFC, ...), whose
    colors don't count for the card's color but do count for its color identity (CR 903.4d)."""
    as_dict = card if isinstance(card, dict) else dict(card)
    faces = card_faces(as_dict)
    if len(faces) < 2 or not colors_from_front(as_dict, faces):
        return {}
    return {f.name: "back face" for f in faces[1:] if f.name and f.name != faces[0].name}


def reason_line(reason: Reason, emoji: Emoji = None, *, width: int = 180, role: str | None = None) -> str:
    """One evidence line: symbol, where it is, the face, and the line with the symbol in bold.

    e.g. `{B} in the rules text (flashback cost) of *Fires of Undeath*: Flashback {5}**{B}**`,
    `Basic land type Island of *Tropical Island*: it taps for {U} (CR 903.5d): Land — Forest **Island**`.
    `role` ("back face") is said after the face's name.
    """
    face = render.escape(render.truncate(reason.face or "", 150))
    if role:
        face_shown = f"*{face}* (the {role}, CR 903.4d)"
    else:
        face_shown = f"*{face}*"
    if reason.kind is ReasonKind.BASIC_LAND_TYPE:
        land = _land(reason)
        taps = render.symbol(reason.color, emoji) if reason.color else "colored mana"
        type_line = (reason.text or "").strip()
        shown_type = ""
        if type_line:
            shown_type = f" ({render.highlight(render.clip_line(type_line, land or None, width), land or None)})"
        return (f"Basic land type {render.escape(land) or '(unknown)'} on the type line of {face_shown}{shown_type}, "
                f"so it taps for {taps} (CR 903.5d)")
    if reason.kind is ReasonKind.COLOR_INDICATOR:
        color = COLOR_NAMES.get(reason.color, reason.color)
        return f"The {color} color indicator of {face_shown}"
    if reason.kind is ReasonKind.TOKEN_COLOR:
        color = COLOR_NAMES.get(reason.color, reason.color)
        return f"The effect that creates {face_shown} makes it {color} (CR 111.3)"
    lead = render.symbol(reason.symbol, emoji) + " in the " if reason.symbol else "The "
    kind_word = symbol_kind(reason.symbol)
    if kind_word and reason.symbol:
        lead = f"{render.symbol(reason.symbol, emoji)} ({kind_word}) in the "
    line = f"{lead}{_where(reason)} of {face_shown}"
    text = render.without_reminder((reason.text or "").strip(), reason.symbol)
    if text and reason.kind not in (ReasonKind.TOKEN_COLOR, ReasonKind.COLOR_INDICATOR):
        shown = render.highlight(render.clip_line(text, reason.symbol, width), reason.symbol, emoji)
        line += f": {shown}"
    return line


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") and not name.endswith("ss") else f"{name}'s"


def evidence_sentence(card: str, reason: Reason, emoji: Emoji = None, *, colors: str | None = None,
                      role: str | None = None, same_kind: Sequence[Reason] = ()) -> str:
    """'Dismember's Phyrexian **{B/P}** (mana cost) is black' - short, for the /fits verdict.

    `colors`: every outside color this same evidence explains ("GW" for a hybrid {G/W}); default its own.
    `role`: "back face" when the reason sits on the back of a two-sided card (CR 903.4d).
    `same_kind`: more basic-land-type reasons of the same face, named together ("Forest and Island").
    """
    color = render.color_words(colors) if colors else COLOR_NAMES.get(reason.color, reason.color or "colorless")
    owner = render.escape(render.truncate(card, 150))
    on_face = ""
    if reason.face and reason.face != card:
        face = render.escape(render.truncate(reason.face, 150))
        on_face = f" on its back face, {face}," if role == "back face" else f" on {face}"
    if reason.symbol:
        kind_word = symbol_kind(reason.symbol)
        kind_word = f"{kind_word} " if kind_word else ""
        if reason.kind is ReasonKind.RULES_TEXT and reason.detail and reason.detail != "rules text":
            where = f"{render.escape(reason.detail)} in the rules text"  # "(flashback cost in the rules text)"
        else:
            where = _where(reason)
        return f"{_possessive(owner)} {kind_word}**{render.symbol(reason.symbol, emoji)}** ({where}{on_face}) is {color}"
    if reason.kind is ReasonKind.COLOR_INDICATOR:
        return f"{_possessive(owner)} color indicator{on_face} is {color}"
    if reason.kind is ReasonKind.BASIC_LAND_TYPE:
        lands = [r for r in (reason, *same_kind) if r.kind is ReasonKind.BASIC_LAND_TYPE]
        names = _and(list(dict.fromkeys(render.escape(_land(r)) or "basic land" for r in lands)))
        taps = _and(list(dict.fromkeys(render.symbol(r.color, emoji) for r in lands)), "or")
        plural = len(lands) > 1
        return (f"{_possessive(owner)} basic land type{'s' if plural else ''} {names}{on_face} "
                f"make{'' if plural else 's'} its identity {color} (it taps for {taps}, CR 903.5d)")
    if reason.kind is ReasonKind.CDA:
        text = render.escape(render.clip_line((reason.text or "").strip(), None, 120))
        return f"\u201c{text}\u201d ({_where(reason)}{on_face}) makes its identity {color}"
    return f"{owner} is {color} ({_where(reason)}{on_face})"


def distinct_reasons(reasons: Sequence[Reason]) -> list[Reason]:
    """The reasons in order with repeats dropped (the same symbol on the same line of a face counts once)."""
    seen: set[tuple] = set()
    out: list[Reason] = []
    for r in reasons:
        key = (r.kind, r.face, r.symbol, r.text)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _why_lines(reasons: Sequence[Reason], emoji: Emoji, roles: Mapping[str, str] | None = None) -> list[str]:
    picked = distinct_reasons(reasons)
    roles = roles or {}
    lines = [f"• {reason_line(r, emoji, role=roles.get(r.face))}" for r in picked[:REASONS_PER_COLOR]]
    if len(picked) > REASONS_PER_COLOR:
        lines.append(f"…and {len(picked) - REASONS_PER_COLOR} more")
    return lines


def _color_origin(analysis: Analysis) -> str:
    """A short phrase saying where the card's color comes from."""
    if any(r.removes for r in analysis.color_reasons):
        removing = next(r for r in analysis.color_reasons if r.removes)
        if removing.detail == "Devoid":
            return "colorless because of Devoid"
        line = render.clip_line(render.without_reminder(removing.text or "its ability"), None, 120)
        return f"colorless because of \u201c{render.escape(line)}\u201d"
    kinds: list[str] = []
    for r in analysis.color_reasons:
        word = {
            ReasonKind.MANA_COST: "mana cost",
            ReasonKind.COLOR_INDICATOR: "color indicator",
            ReasonKind.CDA: "characteristic-defining ability",
            ReasonKind.TOKEN_COLOR: "the effect that creates it",
        }.get(r.kind, _where(r))
        if word not in kinds:
            kinds.append(word)
    if not kinds:
        return "no colored mana cost or color indicator"
    return "from its " + " and ".join(kinds) if kinds[0] != "the effect that creates it" else "set by " + kinds[0]


# ------------------------------------------------------------------------------ the /identity summary
_RULES_PLACES = {
    "activated ability cost": "an activated ability's cost",
    "mana ability": "a mana ability",
    "mana it adds": "the mana it adds",
    "cost it asks for": "a cost it asks for",
    "cost change": "its cost-changing text",
    "granted ability's cost": "the cost of an ability it grants",
    "granted mana ability": "a mana ability it grants",
    "granted ability": "an ability it grants",
}
SUMMARY_CLAUSES = 4


def _and(items: Sequence[str], word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _group_key(r: Reason) -> tuple:
    if r.kind is ReasonKind.RULES_TEXT:
        return (r.kind, r.face, r.detail)
    if r.kind is ReasonKind.CDA:
        return (r.kind, r.face, r.text)
    return (r.kind, r.face)


def _clause(kind: ReasonKind, face: str, group: list[Reason], colors: str, name: str,
            roles: Mapping[str, str], emoji: Emoji, still: bool) -> str:
    """One clause of the summary saying where `colors` of the identity come from (`group`: same kind, face)."""
    words = render.color_words(colors)
    face_shown = render.escape(render.truncate(face, 100))
    back = roles.get(face) == "back face"
    other_part = bool(face) and face != name and not back
    symbols = list(dict.fromkeys(r.symbol for r in group if r.symbol))
    syms = _and([" ".join(filter(None, (symbol_kind(x), render.symbol(x, emoji)))) for x in symbols])
    verb = ("still " if still else "") + ("add" if len(symbols) > 1 else "adds")
    if kind is ReasonKind.MANA_COST:
        if back:
            return f"its back face, {face_shown}, has {syms} in its mana cost, which {verb} {words} (CR 903.4d)"
        place = f"{face_shown}'s mana cost" if other_part else "its mana cost"
        return f"the {syms} in {place} {verb} {words}"
    if kind is ReasonKind.RULES_TEXT:
        detail = group[0].detail or ""
        place = "" if detail in ("", "rules text") else _RULES_PLACES.get(detail, f"its {render.escape(detail)}")
        if back:
            owner = f"the rules text of its back face, {face_shown},"
        elif other_part:
            owner = f"{face_shown}'s rules text"
        else:
            owner = "the rules text"
        where = f"{place} in {owner}" if place else owner
        cr = "CR 903.4d" if back else "CR 903.4"
        return f"the {syms} in {where} {verb} {words} ({cr})"
    if kind is ReasonKind.COLOR_INDICATOR:
        if back:
            return f"the back face, {face_shown}, has a {words} color indicator (CR 903.4d)"
        if other_part:
            return f"{face_shown} has a {words} color indicator"
        return f"its color indicator is {words}"
    if kind is ReasonKind.BASIC_LAND_TYPE:
        lands = list(dict.fromkeys(_land(r) for r in group if _land(r)))
        land_colors = list(dict.fromkeys(r.color for r in group))
        owner = f"{face_shown}'s" if back or other_part else "its"
        plural = len(lands) > 1
        taps = _and([render.symbol(c, emoji) for c in land_colors], "or")
        return (f"{owner} basic land type{'s' if plural else ''} {render.escape(_and(lands))} "
                f"give{'' if plural else 's'} it {render.color_words_in_order(land_colors)} identity (CR 903.5d) "
                f"\u2014 it taps for {taps}")
    if kind is ReasonKind.CDA:
        text = render.escape(render.clip_line((group[0].text or "").strip(), None, 120))
        return f"\u201c{text}\u201d makes it {'all colors' if len(colors) == 5 else words} (CR 604.3)"
    if kind is ReasonKind.CHOSEN_COLOR:
        return f"the color chosen for it before the game is {words} (CR 903.4b)"
    if kind is ReasonKind.TOKEN_COLOR:
        return f"the effect that creates it makes it {words}"
    return f"its {kind.value} makes it {words}"


def _identity_clauses(analysis: Analysis, wanted: str, roles: Mapping[str, str], emoji: Emoji,
                      *, still: bool = False) -> list[str]:
    """Clauses explaining the identity colors in `wanted`, one per kind of reason and face, fewest first:
    a group is used only when it explains a color that earlier groups didn't."""
    groups: dict[tuple, list[Reason]] = {}
    for r in analysis.identity_reasons:
        if r.color and r.color in wanted:
            groups.setdefault(_group_key(r), []).append(r)
    covered: set[str] = set()
    clauses: list[str] = []
    for key, group in groups.items():
        colors = {r.color for r in group}
        if colors <= covered:
            continue
        covered |= colors
        ordered = "".join(c for c in WUBRG if c in colors)
        clauses.append(_clause(key[0], key[1], group, ordered, analysis.name, roles, emoji, still))
        if len(clauses) == SUMMARY_CLAUSES:
            break
    return clauses


_PARENS = re.compile(r"\(([^()]*)\)")


def _reminder_only_symbols(card: Mapping[str, Any], identity: str) -> list[str]:
    """Colored mana symbols that appear only in reminder text and add a color the identity lacks (CR 903.4c)."""
    out: list[str] = []
    as_dict = card if isinstance(card, dict) else dict(card)
    for face in card_faces(as_dict):
        for inner in _PARENS.findall(face.oracle_text or ""):
            for raw in SYMBOL_RE.findall(inner):
                sym = classify(raw)
                if sym.colors and not set(sym.colors) <= set(identity) and raw not in out:
                    out.append(raw)
    return out[:3]


def identity_summary(analysis: Analysis, card: Mapping[str, Any], emoji: Emoji = None) -> str:
    """The /identity description: color vs identity, and why, built from the kinds of reasons present."""
    name = analysis.name or card_name(card)
    shown = _shown(name)
    roles = face_roles(card)
    colors, ident = analysis.colors, analysis.identity
    removing = next((r for r in analysis.color_reasons if r.removes), None)
    if removing is None:
        color_part = f"{shown} is {render.color_words(colors)}"
    elif removing.detail == "Devoid":
        color_part = f"{shown} is colorless because of Devoid"
    else:
        text = render.escape(render.clip_line(render.without_reminder((removing.text or "").strip()), None, 120))
        color_part = f"{shown} is colorless by its own text (\u201c{text}\u201d)"
    if ident == colors:
        if not ident:
            summary = (f"{color_part}, and so is its color identity: it has no colored mana symbol in its mana cost "
                       "or rules text, no color indicator and no basic land type that taps for colored mana.")
        else:
            clauses = _identity_clauses(analysis, ident, roles, emoji)
            summary = f"{color_part}, and its color identity is the same"
            summary += (": " + "; ".join(clauses) + ".") if clauses else "."
    else:
        extra = "".join(c for c in ident if c not in colors)
        clauses = _identity_clauses(analysis, extra, roles, emoji, still=removing is not None)
        summary = f"{color_part}, but its color identity is {render.color_words(ident)}"
        if removing is not None:
            clauses.insert(0, "that changes its color only, not its color identity (CR 604.3)")
        summary += (": " + "; ".join(clauses) + ".") if clauses else "."
    hidden = _reminder_only_symbols(card, ident)
    if hidden:
        syms = _and([render.symbol(x, emoji) for x in hidden])
        verb = "don\u2019t" if len(hidden) > 1 else "doesn\u2019t"
        summary += f"\nThe {syms} in its reminder text {verb} count: reminder text is ignored (CR 903.4c)."
    if ident:
        summary += (f"\nIt can go in a Commander deck whose commander's identity includes "
                    f"{render.color_words(ident)}.")
    else:
        summary += "\nA colorless identity fits every Commander deck."
    return summary


# --------------------------------------------------------------------------------------- the embeds
def _base_embed(title: str, url: str | None, color: int) -> Embed:
    return Embed(title=render.truncate(title, TITLE_LIMIT), url=url, color=color)


def _add_warnings(embed: Embed, warnings: Sequence[str]) -> None:
    if warnings:
        value = render.join_limited((f"⚠️ {w}" for w in warnings), FIELD_VALUE_LIMIT)
        embed.add_field(name="Warnings", value=value, inline=False)


def identity_embed(
    analysis: Analysis,
    card: Mapping[str, Any],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
) -> Embed:
    """The /identity answer: color, color identity, and why each identity color is there."""
    name = analysis.name or card_name(card)
    embed = _base_embed(render.escape(name), card_url(card), render.identity_color(analysis.identity))
    roles = face_roles(card)
    image = card_image(card)
    if image:
        embed.set_thumbnail(url=image)

    embed.description = render.truncate(identity_summary(analysis, card, emoji), DESCRIPTION_LIMIT)

    color_value = f"{render.pips(analysis.colors, emoji)}\n{_color_origin(analysis)}"
    embed.add_field(name="Color", value=render.truncate(color_value, FIELD_VALUE_LIMIT), inline=True)
    embed.add_field(name="Color identity", value=render.truncate(render.pips(analysis.identity, emoji),
                                                                 FIELD_VALUE_LIMIT), inline=True)

    for color in WUBRG:
        if color not in analysis.identity:
            continue
        reasons = analysis.reasons_for(color, Aspect.IDENTITY)
        lines = _why_lines(reasons, emoji, roles) or ["• chosen or set outside the card's text"]
        field_name = f"Why {render.symbol(color, emoji)} {COLOR_NAMES[color]}"
        embed.add_field(name=render.truncate(field_name, FIELD_NAME_LIMIT),
                        value=render.join_limited(lines, FIELD_VALUE_LIMIT), inline=False)

    warnings: list[str] = []
    if is_banned(card):
        warnings.append(f"{render.escape(name)} is banned in Commander.")
    if any(r.removes for r in analysis.color_reasons):  # the summary already says Devoid changes color only
        notes = [n for n in analysis.notes if "changes its color, not its color identity" not in n]
    else:
        notes = list(analysis.notes)
    warnings.extend(render.escape(n) for n in notes)
    if stale:
        warnings.append(stale)
    _add_warnings(embed, warnings)
    embed.set_footer(text="Card data from Scryfall")
    return fit_to_limits(embed)


def fits_embed(
    result: FitResult,
    card: Mapping[str, Any],
    commanders: Sequence[Mapping[str, Any]],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
) -> Embed:
    """The /fits answer: the verdict first, both identities, and evidence for every outside color.

    Warnings come from one place, `result.warnings` (from `check_fit`: a commander that can't be a
    commander, a pair that can't lead a deck together, a banned commander, a commander that chooses a color
    under CR 903.4b), plus this card's own ban and the stale-data note; each is shown once.
    """
    analysis = result.card
    name = analysis.name or card_name(card)
    cmd_names = [a.name for a in result.commanders] or [card_name(c) for c in commanders]
    mark = "✅" if result.fits else "❌"
    verdict = "fits" if result.fits else "does not fit"
    title = f"{mark} {render.escape(render.truncate(name, 150))} {verdict}"
    embed = _base_embed(title, card_url(card), render.FITS_COLOR if result.fits else render.MISFIT_COLOR)
    image = card_image(card)
    if image:
        embed.set_thumbnail(url=image)

    shown_cmds = " and ".join(f"**{render.escape(render.truncate(n, 150))}**" for n in cmd_names)
    lead = "led by " + shown_cmds
    deck_words = render.color_words(result.deck_identity)
    if result.fits:
        if not analysis.identity:
            text = (f"{mark} **Fits.** {_shown(name)} has a colorless identity, which fits every deck, "
                    f"including one {lead}.")
        else:
            text = (f"{mark} **Fits.** **{_possessive(render.escape(render.truncate(name, 150)))}** identity "
                    f"({render.color_words(analysis.identity)}) "
                    f"is within the deck's identity ({deck_words}) {lead}.")
    else:
        roles = face_roles(card)
        # one sentence per piece of evidence, naming every outside color it explains ({G/W}: white and green)
        firsts: dict[tuple, tuple[list[Reason], list[str]]] = {}
        unexplained: list[str] = []
        for color in result.outside:
            evidence = distinct_reasons(result.evidence.get(color, ()))
            if evidence:
                r = evidence[0]
                key = (r.kind, r.face) if r.kind is ReasonKind.BASIC_LAND_TYPE else (r.kind, r.face, r.symbol, r.text)
                group, colors = firsts.setdefault(key, ([], []))
                group.append(r)
                colors.append(color)
            else:
                unexplained.append(color)
        sentences = [evidence_sentence(name, rs[0], emoji, colors="".join(cs), role=roles.get(rs[0].face),
                                       same_kind=rs[1:])
                     for rs, cs in firsts.values()]
        if unexplained:
            sentences.append(f"{_shown(name)} is {render.color_words(''.join(unexplained))}")
        if len(cmd_names) > 1:
            deck = f"together {shown_cmds} are {render.mono_words(result.deck_identity)}"
        else:
            deck = f"{shown_cmds} is {render.mono_words(result.deck_identity)}"
        text = f"{mark} **Does not fit.** " + "; ".join([*sentences, deck]) + "."
    embed.description = render.truncate(text, DESCRIPTION_LIMIT)

    embed.add_field(name="Card identity", value=render.pips(analysis.identity, emoji), inline=True)
    if len(result.commanders) > 1:
        parts = [f"{render.escape(render.truncate(a.name, 80))}: {render.pips(a.identity, emoji)}"
                 for a in result.commanders]
        parts.append(f"Together: {render.pips(result.deck_identity, emoji)}")
        embed.add_field(name="Deck identity (both commanders)",
                        value=render.join_limited(parts, FIELD_VALUE_LIMIT), inline=True)
    else:
        embed.add_field(name="Commander identity", value=render.pips(result.deck_identity, emoji), inline=True)

    if not result.fits:
        roles = face_roles(card)
        for color in result.outside:
            lines = _why_lines(result.evidence.get(color, ()), emoji, roles) or [f"• {render.escape(name)} is {COLOR_NAMES[color]}"]
            embed.add_field(name=render.truncate(f"Outside: {render.symbol(color, emoji)} {COLOR_NAMES[color]}",
                                                 FIELD_NAME_LIMIT),
                            value=render.join_limited(lines, FIELD_VALUE_LIMIT), inline=False)

    warnings = [render.escape(w) for w in result.warnings]
    banned_leaders = {card_name(c) for c in commanders if is_banned(c)}
    if is_banned(card) and card_name(card) not in banned_leaders:  # a banned commander is warned about above
        warnings.append(f"{_shown(name)} is banned in Commander.")
    if stale:
        warnings.append(stale)
    _add_warnings(embed, list(dict.fromkeys(warnings)))
    embed.set_footer(text="Card data from Scryfall · CR 903.5c: a card fits when its identity is within "
                          "the commander's")
    return fit_to_limits(embed)


def _shown(name: str) -> str:
    return f"**{render.escape(render.truncate(name, 150))}**"


HELP_TEXT = {
    "what": (
        "I explain a Magic: The Gathering card's **color** and its Commander **color identity**, "
        "and whether a card can go in a deck led by a given commander. Card data comes from Scryfall."
    ),
    "commands": (
        "`/identity card` - a card's color and color identity, and why\n"
        "`/fits card commander [partner]` - whether a card fits a deck led by that commander (or pair)\n"
        "`/deckcheck commander [partner] [decklist] [list]` - check a whole decklist (upload a text file or "
        "paste it): color identity, deck size, singleton, banned cards, unknown names\n"
        "`/help` - this message"
    ),
    "color": (
        "A card's color comes from the mana symbols in its **mana cost**, its **color indicator**, and "
        "abilities that set its color such as Devoid or \u201cis all colors\u201d (CR 202.2, 204, 604.3). "
        "Hybrid {W/U} is both colors; Phyrexian {B/P} is black. Lands have no mana cost, so most are "
        "colorless. Words like \u201ca red creature\u201d never give color."
    ),
    "identity": (
        "A card's color identity is its color plus every mana symbol in its **rules text**, on **all "
        "its faces** (the back of a double-faced card too); reminder text in parentheses doesn't count "
        "(CR 903.4). A card fits a Commander deck when its identity is within the commander's identity, "
        "or the union of both commanders' identities with Partner or Background (CR 903.5c). "
        "Fires of Undeath is red, but its flashback cost {5}{B} makes its identity black and red."
    ),
    "examples": (
        "`/identity card:Fires of Undeath` - red, identity black and red\n"
        "`/fits card:Dismember commander:Kumano, Master Yamabushi` - does not fit ({B/P} is black)\n"
        "`/fits card:Sol Ring commander:Atraxa, Praetors' Voice` - fits (colorless)\n"
        "`/fits card:Lightning Bolt commander:Tymna the Weaver partner:Kraum, Ludevic's Opus` - partners\n"
        "`/deckcheck commander:Kumano, Master Yamabushi list:1 Sol Ring; 1 Lightning Bolt; ...` - a whole deck"
    ),
}


def help_embed(emoji: Emoji = None) -> Embed:
    embed = Embed(title="Color identity bot", description=HELP_TEXT["what"], color=render.GOLD)
    embed.add_field(name="Commands", value=HELP_TEXT["commands"], inline=False)
    embed.add_field(name="Color", value=render.render_symbols(HELP_TEXT["color"], emoji), inline=False)
    embed.add_field(name="Color identity", value=render.render_symbols(HELP_TEXT["identity"], emoji),
                    inline=False)
    embed.add_field(name="Examples", value=HELP_TEXT["examples"], inline=False)
    embed.set_footer(text="Start typing a card name and pick it from the suggestions.")
    return fit_to_limits(embed)


# ----------------------------------------------------------------------------------- limits checking
def embed_problems(embeds: Sequence[Embed | Mapping[str, Any]]) -> list[str]:
    """Every way `embeds` break Discord's limits (empty list = fine). Accepts Embeds or their dicts."""
    problems: list[str] = []
    total = 0
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    for e in embeds:
        d = e.to_dict() if isinstance(e, Embed) else e
        title = d.get("title") or ""
        desc = d.get("description") or ""
        fields = d.get("fields") or []
        footer = (d.get("footer") or {}).get("text") or ""
        author = (d.get("author") or {}).get("name") or ""
        if len(title) > TITLE_LIMIT:
            problems.append(f"title {len(title)} > {TITLE_LIMIT}")
        if len(desc) > DESCRIPTION_LIMIT:
            problems.append(f"description {len(desc)} > {DESCRIPTION_LIMIT}")
        if len(fields) > FIELD_LIMIT:
            problems.append(f"{len(fields)} fields > {FIELD_LIMIT}")
        if len(footer) > FOOTER_LIMIT:
            problems.append(f"footer {len(footer)} > {FOOTER_LIMIT}")
        if len(author) > 256:
            problems.append(f"author {len(author)} > 256")
        total += len(title) + len(desc) + len(footer) + len(author)
        for f in fields:
            name, value = str(f.get("name") or ""), str(f.get("value") or "")
            if not name.strip() or len(name) > FIELD_NAME_LIMIT:
                problems.append(f"field name length {len(name)}")
            if not value.strip() or len(value) > FIELD_VALUE_LIMIT:
                problems.append(f"field value length {len(value)}")
            total += len(name) + len(value)
        for key in ("url",):
            url = d.get(key)
            if url is not None and not str(url).startswith(("http://", "https://")):
                problems.append(f"{key} is not a URL: {url!r}")
        for key in ("thumbnail", "image"):
            url = (d.get(key) or {}).get("url")
            if url is not None and not str(url).startswith(("http://", "https://", "attachment://")):
                problems.append(f"{key}.url is not a URL: {url!r}")
    if total > TOTAL_LIMIT:
        problems.append(f"embeds total {total} > {TOTAL_LIMIT}")
    return problems


def fit_to_limits(embed: Embed) -> Embed:
    """Last guard: drop trailing fields (noting it) until the embed's total size is within 6,000."""
    while len(embed) > TOTAL_LIMIT and len(embed.fields) > 1:
        embed.remove_field(len(embed.fields) - 1)
        note = "Some details were left out to fit Discord's limits."
        if len(embed) + len(note) + 10 <= TOTAL_LIMIT:
            embed.add_field(name="…", value=note, inline=False)
            if len(embed) <= TOTAL_LIMIT:
                break
            embed.remove_field(len(embed.fields) - 1)
    if len(embed) > TOTAL_LIMIT and embed.description:
        over = len(embed) - TOTAL_LIMIT
        embed.description = render.truncate(embed.description, max(1, len(embed.description) - over))
    return embed
