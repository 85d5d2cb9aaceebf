"""Pure builders for the bot's embeds and reply texts. No network, no Discord connection.

- `identity_embed(analysis, card, ...)`: the /identity answer.
- `fits_embed(result, card, commanders, ...)`: the /fits answer.
- `help_embed()`: the /help answer.
- `not_found_text`, `ambiguous_text`, `unavailable_text`, `too_long_text`, `empty_text`, `error_text`:
  ephemeral error replies (plain content).
- `stale_note(resolved)`: the warning for stale or old card data (None when fresh).
- `embed_problems(embeds)`: Discord's embed limits, checked (used by tests and as a last guard).

Everything that came from outside (card data, user input) is escaped, and every text is cut to
Discord's limits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

import discord

from bot import render
from bot.cards import Resolved
from bot.identity.model import COLOR_NAMES, WUBRG, Analysis, Aspect, FitResult, Reason, ReasonKind, Verdict

# Discord limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
TOTAL_LIMIT = 6000
CONTENT_LIMIT = 2000

MAX_INPUT = 200  # longest card name a user may type (real names are at most ~141 characters)
STALE_DAYS = 3.0
REASONS_PER_COLOR = 4
SUGGESTIONS = 5
CANDIDATES = 10

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
        return f"rules text ({reason.detail})" if reason.detail else "rules text"
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


def reason_line(reason: Reason, emoji: Emoji = None, *, width: int = 180) -> str:
    """One evidence line: symbol, where it is, the face, and the line with the symbol in bold.

    e.g. `{B} in the rules text (flashback cost) of *Fires of Undeath*: Flashback {5}**{B}**`
    """
    face = render.escape(render.truncate(reason.face or "", 150))
    lead = render.symbol(reason.symbol, emoji) + " in the " if reason.symbol else "The "
    kind_word = symbol_kind(reason.symbol)
    if kind_word and reason.symbol:
        lead = f"{render.symbol(reason.symbol, emoji)} ({kind_word}) in the "
    line = f"{lead}{_where(reason)} of *{face}*"
    text = render.without_reminder((reason.text or "").strip(), reason.symbol)
    if text and reason.kind not in (ReasonKind.TOKEN_COLOR, ReasonKind.COLOR_INDICATOR):
        shown = render.highlight(render.clip_line(text, reason.symbol, width), reason.symbol, emoji)
        line += f": {shown}"
    return line


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") and not name.endswith("ss") else f"{name}'s"


def evidence_sentence(card: str, reason: Reason, emoji: Emoji = None) -> str:
    """'Dismember's Phyrexian **{B/P}** (mana cost) is black' - short, for the /fits verdict."""
    color = COLOR_NAMES.get(reason.color, reason.color or "colorless")
    owner = render.escape(render.truncate(card, 150))
    on_face = ""
    if reason.face and reason.face != card:
        on_face = f" on {render.escape(render.truncate(reason.face, 150))}"
    if reason.symbol:
        kind_word = symbol_kind(reason.symbol)
        kind_word = f"{kind_word} " if kind_word else ""
        where = _where(reason)
        return f"{_possessive(owner)} {kind_word}**{render.symbol(reason.symbol, emoji)}** ({where}{on_face}) is {color}"
    if reason.kind is ReasonKind.COLOR_INDICATOR:
        return f"{_possessive(owner)} color indicator{on_face} is {color}"
    if reason.kind is ReasonKind.BASIC_LAND_TYPE:
        return f"{_possessive(owner)} {reason.detail or 'basic land type'}{on_face} makes it {color}"
    if reason.kind is ReasonKind.CDA:
        return f"{owner} is all colors ({_where(reason)}{on_face}), so it is {color}"
    return f"{owner} is {color} ({_where(reason)}{on_face})"


def _pick_reasons(reasons: Sequence[Reason]) -> list[Reason]:
    """Distinct reasons (same symbol on the same line counted once), most telling first."""
    seen: set[tuple] = set()
    out: list[Reason] = []
    for r in reasons:
        key = (r.kind, r.face, r.symbol, r.text)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _why_lines(reasons: Sequence[Reason], emoji: Emoji) -> list[str]:
    picked = _pick_reasons(reasons)
    lines = [f"• {reason_line(r, emoji)}" for r in picked[:REASONS_PER_COLOR]]
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


# --------------------------------------------------------------------------------------- the embeds
def _base_embed(title: str, url: str | None, color: int) -> discord.Embed:
    return discord.Embed(title=render.truncate(title, TITLE_LIMIT), url=url, color=color)


def _add_warnings(embed: discord.Embed, warnings: Sequence[str]) -> None:
    if warnings:
        value = render.join_limited((f"⚠️ {w}" for w in warnings), FIELD_VALUE_LIMIT)
        embed.add_field(name="Warnings", value=value, inline=False)


def identity_embed(
    analysis: Analysis,
    card: Mapping[str, Any],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
) -> discord.Embed:
    """The /identity answer: color, color identity, and why each identity color is there."""
    name = analysis.name or card_name(card)
    embed = _base_embed(render.escape(name), card_url(card), render.identity_color(analysis.identity))
    image = card_image(card)
    if image:
        embed.set_thumbnail(url=image)

    shown = f"**{render.escape(render.truncate(name, 150))}**"
    if analysis.identity == analysis.colors:
        summary = f"{shown} is {render.color_words(analysis.colors)}, and its color identity is the same."
    else:
        summary = (
            f"{shown} is {render.color_words(analysis.colors)}, but its color identity is "
            f"{render.color_words(analysis.identity)}: color identity also counts mana symbols in the "
            "rules text (reminder text excluded) and every face of the card (CR 903.4)."
        )
    if analysis.identity:
        summary += (f"\nIt can go in a Commander deck whose commander's identity includes "
                    f"{render.color_words(analysis.identity)}.")
    else:
        summary += "\nA colorless identity fits every Commander deck."
    embed.description = render.truncate(summary, DESCRIPTION_LIMIT)

    color_value = f"{render.pips(analysis.colors, emoji)}\n{_color_origin(analysis)}"
    embed.add_field(name="Color", value=render.truncate(color_value, FIELD_VALUE_LIMIT), inline=True)
    embed.add_field(name="Color identity", value=render.truncate(render.pips(analysis.identity, emoji),
                                                                 FIELD_VALUE_LIMIT), inline=True)

    for color in WUBRG:
        if color not in analysis.identity:
            continue
        reasons = analysis.reasons_for(color, Aspect.IDENTITY)
        lines = _why_lines(reasons, emoji) or ["• chosen or set outside the card's text"]
        field_name = f"Why {render.symbol(color, emoji)} {COLOR_NAMES[color]}"
        embed.add_field(name=render.truncate(field_name, FIELD_NAME_LIMIT),
                        value=render.join_limited(lines, FIELD_VALUE_LIMIT), inline=False)

    warnings: list[str] = []
    if is_banned(card):
        warnings.append(f"{render.escape(name)} is banned in Commander.")
    warnings.extend(render.escape(n) for n in analysis.notes)
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
    eligibility: Sequence[Verdict] = (),
    pairing: Verdict | None = None,
    emoji: Emoji = None,
    stale: str | None = None,
) -> discord.Embed:
    """The /fits answer: the verdict first, both identities, and evidence for every outside color."""
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
            text = (f"{mark} **Fits.** {_shown(name)}'s identity ({render.color_words(analysis.identity)}) "
                    f"is within the deck's identity ({deck_words}) {lead}.")
    else:
        sentences: list[str] = []
        for color in result.outside:
            evidence = _pick_reasons(result.evidence.get(color, ()))
            if evidence:
                sentences.append(evidence_sentence(name, evidence[0], emoji))
            else:
                sentences.append(f"{_shown(name)} is {COLOR_NAMES[color]}")
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
        for color in result.outside:
            evidence = result.evidence.get(color, ())
            lines = _why_lines(evidence, emoji) or [f"• {render.escape(name)} is {COLOR_NAMES[color]}"]
            embed.add_field(name=render.truncate(f"Outside: {render.symbol(color, emoji)} {COLOR_NAMES[color]}",
                                                 FIELD_NAME_LIMIT),
                            value=render.join_limited(lines, FIELD_VALUE_LIMIT), inline=False)

    warnings: list[str] = []
    for verdict_ in eligibility:
        if not verdict_.ok:
            warnings.append(f"Not a valid commander: {render.escape(verdict_.reason)}")
    if pairing is not None and not pairing.ok and len(cmd_names) > 1:
        warnings.append(f"These two can't be paired as commanders: {render.escape(pairing.reason)}")
    if is_banned(card):
        warnings.append(f"{_shown(name)} is banned in Commander.")
    for commander in result.commanders:
        if commander.chooses_color:
            warnings.append(
                f"{_shown(commander.name)}'s owner chooses a color before the game (CR 903.4b); "
                "that color joins the deck's identity, so the answer may change."
            )
    warnings.extend(render.escape(w) for w in result.warnings)
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
        "`/fits card:Lightning Bolt commander:Tymna the Weaver partner:Kraum, Ludevic's Opus` - partners"
    ),
}


def help_embed(emoji: Emoji = None) -> discord.Embed:
    embed = discord.Embed(title="Color identity bot", description=HELP_TEXT["what"], color=render.GOLD)
    embed.add_field(name="Color", value=render.render_symbols(HELP_TEXT["color"], emoji), inline=False)
    embed.add_field(name="Color identity", value=render.render_symbols(HELP_TEXT["identity"], emoji),
                    inline=False)
    embed.add_field(name="Examples", value=HELP_TEXT["examples"], inline=False)
    embed.set_footer(text="Start typing a card name and pick it from the suggestions.")
    return fit_to_limits(embed)


# ------------------------------------------------------------------------------------- error replies
def _option(label: str | None) -> str:
    return f" (for `{label}`)" if label else ""


def not_found_text(query: str, suggestions: Sequence[str], label: str | None = None) -> str:
    text = f"I couldn't find a card named \u201c{render.echo(query)}\u201d{_option(label)}."
    names = [render.escape(render.truncate(s, 150)) for s in list(dict.fromkeys(suggestions))[:SUGGESTIONS]]
    if names:
        text += "\nDid you mean: " + ", ".join(f"**{n}**" for n in names) + "?"
    else:
        text += "\nCheck the spelling, or start typing and pick a name from the suggestions."
    return render.truncate(text, CONTENT_LIMIT)


def ambiguous_text(query: str, candidates: Sequence[str], label: str | None = None) -> str:
    text = f"\u201c{render.echo(query)}\u201d{_option(label)} matches several cards"
    names = [render.escape(render.truncate(c, 150)) for c in list(dict.fromkeys(candidates))[:CANDIDATES]]
    if names:
        text += ": " + ", ".join(f"**{n}**" for n in names)
        if len(candidates) > CANDIDATES:
            text += f" and {len(candidates) - CANDIDATES} more"
    text += ". Please type more of the name."
    return render.truncate(text, CONTENT_LIMIT)


def unavailable_text(retry_after: float | None = None) -> str:
    wait = "in a minute"
    if retry_after and retry_after > 0:
        wait = f"in about {max(1, round(retry_after))} seconds" if retry_after < 90 else "in a few minutes"
    return (f"Scryfall (where my card data comes from) isn't answering right now, so I can't look that "
            f"card up. Please try again {wait}.")


def too_long_text(length: int, label: str | None = None) -> str:
    return (f"That card name{_option(label)} is {length:,} characters long; card names are at most "
            f"{MAX_INPUT} characters. Please check it and try again.")


def empty_text(label: str | None = None) -> str:
    return f"Please give a card name{_option(label)}."


def error_text() -> str:
    return "Sorry, something went wrong on my side while answering. Please try again."


# ----------------------------------------------------------------------------------- limits checking
def embed_problems(embeds: Sequence[discord.Embed | Mapping[str, Any]]) -> list[str]:
    """Every way `embeds` break Discord's limits (empty list = fine). Accepts Embeds or their dicts."""
    problems: list[str] = []
    total = 0
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    for e in embeds:
        d = e.to_dict() if isinstance(e, discord.Embed) else e
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


def fit_to_limits(embed: discord.Embed) -> discord.Embed:
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
