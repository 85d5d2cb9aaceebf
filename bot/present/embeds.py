"""Pure builders for the bot's card replies. No network, no Discord connection.

- `identity_reply` / `identity_embed(analysis, card, ...)`: the /identity answer: the card like a card (name,
  mana cost, type line), its color against its color identity, the lessons it teaches, and one evidence line
  per source (`bot.present.evidence`).
- `fits_reply` / `fits_embed(result, card, commanders, ...)`: the /fits answer. The headline (title) says the
  verdict once: fits, does not fit, fits if you choose a color (CR 903.4b), or this deck can't exist (with
  the reason); the identity comparison follows as information. Its sentences are `bot.present.fit_words`'.
- `help_embed()`: the /help answer (lists /identity, /fits, /deckcheck and /help).
- `stale_note(resolved)`: the warning for stale or old card data (None when fresh).
- `finish(embed)`: the last guard: no line repeated, within Discord's limits.

Everything that came from outside (card data, user input) is escaped, and every text is cut to Discord's
limits. Every `{X}` goes through `render.symbol` with the emoji map given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from bot.cards.model import STALE_DAYS, Resolved
from bot.identity import is_banned
from bot.identity.model import Analysis, FitResult, FitVerdict, NonDeckKind
from bot.present import evidence, fit_words, render, words
from bot.present.i18n import N_, _
from bot.present.message import (
    DESCRIPTION_LIMIT,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    TITLE_LIMIT,
    TOTAL_LIMIT,
    Embed,
    Reply,
)
from bot.present.render import Emoji
from bot.present.words import NAME_WIDTH, plain, shown

SCRYFALL_SEARCH = "https://scryfall.com/search?q="
SCRYFALL_IMAGE = "https://api.scryfall.com/cards/{id}?format=image&version=normal"
FOOTER = N_("Card data from Scryfall")
_VERDICT_COLORS: dict[FitVerdict, int] = {
    FitVerdict.FITS: render.FITS_COLOR,
    FitVerdict.DOES_NOT_FIT: render.MISFIT_COLOR,
    FitVerdict.FITS_IF_CHOSEN: render.CONDITIONAL_COLOR,
    FitVerdict.DECK_CANT_EXIST: render.CANT_EXIST_COLOR,
}


# ---------------------------------------------------------------------------------------- card bits
def card_name(card: Mapping[str, Any]) -> str:
    return str(card.get("name") or _("Unknown card"))


def card_url(card: Mapping[str, Any]) -> str:
    """The card's Scryfall page; an exact-name search link when the data has no `scryfall_uri`."""
    uri = card.get("scryfall_uri")
    if isinstance(uri, str) and uri.startswith(("https://", "http://")):
        return uri
    return SCRYFALL_SEARCH + quote(f'!"{card_name(card)}"', safe="")


def card_image(card: Mapping[str, Any]) -> str | None:
    """Image of the card, front face for double-faced cards; None when nothing is known."""
    faces = card.get("card_faces")
    for part in (card, *(faces[:1] if isinstance(faces, list) else ())):
        uris = part.get("image_uris") if isinstance(part, Mapping) else None
        url = (
            (uris.get("normal") or uris.get("large") or uris.get("small"))
            if isinstance(uris, Mapping)
            else None
        )
        if isinstance(url, str) and url.startswith("http"):
            return url
    card_id = card.get("id")
    if isinstance(card_id, str) and card_id and all(c.isalnum() or c == "-" for c in card_id):
        return SCRYFALL_IMAGE.format(id=card_id)  # Scryfall serves the front face image for this
    return None


def stale_note(resolved: Iterable[Resolved | None]) -> str | None:
    """A warning when any answer came from stale cache data or from local data older than 3 days."""
    items = [r for r in resolved if r is not None]
    if any(r.source == "stale" for r in items):
        return _("Scryfall could not be reached, so this uses cached card data that may be out of date.")
    ages = [r.data_age_days for r in items if r.data_age_days is not None]
    if ages and max(ages) > STALE_DAYS:
        return _("The local card data is {days} days old; recent changes may be missing.").format(
            days=f"{max(ages):.0f}"
        )
    return None


def typed_line(typed: Sequence[tuple[str, str]], *, with_names: bool = True) -> str | None:
    """The names the player typed in another language, beside the cards' English names: `You typed:
    Blitzschlag (Lightning Bolt)` (`typed`: (printed name as typed, English name) pairs; without
    `with_names` only the typed names, when the title already names the card). None when there are none."""
    if not typed:
        return None
    shown_names = [
        render.echo(printed, 80) + (f" ({render.escape(name)})" if with_names else "")
        for printed, name in typed
    ]
    return _("You typed: {names}").format(names=", ".join(shown_names))


def card_line(analysis: Analysis, emoji: Emoji = None) -> str:
    """The card like a card: mana cost and type line; each face's for a card of several parts
    ("Fire {1}{R} · Instant // Ice {1}{U} · Instant")."""
    faces = analysis.faces
    parts: list[str] = []
    for face in faces:
        bits = [render.render_symbols(render.escape(face.mana_cost), emoji)] if face.mana_cost else []
        if face.type_line:
            bits.append(render.escape(face.type_line))
        if len(faces) > 1:
            bits.insert(0, plain(face.name) + (" " + bits.pop(0) if face.mana_cost else ""))
        text = " \u00b7 ".join(bits)
        if text:
            parts.append(text)
    return render.truncate(" // ".join(parts), 300)


def _base_embed(title: str, url: str | None, color: int, card: Mapping[str, Any]) -> Embed:
    embed = Embed(title=render.truncate(title, TITLE_LIMIT), url=url, color=color)
    image = card_image(card)
    if image:
        embed.set_thumbnail(url=image)
    return embed


def _add_warnings(embed: Embed, warnings: Sequence[str]) -> None:
    if warnings:
        value = render.join_limited((f"\u26a0\ufe0f {w}" for w in dict.fromkeys(warnings)), FIELD_VALUE_LIMIT)
        embed.add_field(name=_("Warnings"), value=value, inline=False)


def _why_field(
    embed: Embed, name: str, analysis: Analysis, found: Sequence[evidence.Source], emoji: Emoji
) -> None:
    lines = evidence.evidence_lines(analysis, found, emoji)
    if lines:
        embed.add_field(
            name=render.truncate(name, FIELD_NAME_LIMIT),
            value=render.join_limited(lines, FIELD_VALUE_LIMIT),
            inline=False,
        )


# ------------------------------------------------------------------------------------------ /identity
def identity_embed(
    analysis: Analysis,
    card: Mapping[str, Any],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
    typed: str | None = None,
) -> Embed:
    """The /identity answer: the card line, its color against its color identity and why (one line per source
    of color), the lessons it teaches; for objects that are not deck cards, what they are instead. `typed`:
    the name printed in another language the card was asked by (shown first)."""
    name = analysis.name or card_name(card)
    embed = _base_embed(render.escape(name), card_url(card), render.identity_color(analysis.identity), card)
    lines = [typed_line([(typed, name)], with_names=False) if typed else None, card_line(analysis, emoji)]
    if analysis.not_deck_card is not None:
        lines.extend(_not_deck_lines(analysis, card))
        if analysis.colors or analysis.color_reasons:
            embed.add_field(name=_("Color"), value=render.pips(analysis.colors, emoji), inline=True)
        found = (
            evidence.sources(analysis.color_reasons)
            if analysis.not_deck_card is NonDeckKind.TOKEN
            else evidence.identity_sources(analysis)
        )
    else:
        lines.append(words.identity_summary(analysis, shown))
        lines.extend(words.lessons(analysis, emoji))
        lines.append(words.deck_line(analysis))
        if analysis.colors == analysis.identity:
            embed.add_field(
                name=_("Color and color identity"), value=render.pips(analysis.identity, emoji), inline=True
            )
        else:
            embed.add_field(name=_("Color"), value=render.pips(analysis.colors, emoji), inline=True)
            embed.add_field(
                name=_("Color identity"), value=render.pips(analysis.identity, emoji), inline=True
            )
        found = evidence.identity_sources(analysis)
    embed.description = render.truncate("\n".join(line for line in lines if line), DESCRIPTION_LIMIT)
    if analysis.not_deck_card is not NonDeckKind.TOKEN or analysis.colors:
        _why_field(embed, _("Why"), analysis, found, emoji)
    warnings: list[str] = []
    if is_banned(card) and analysis.deck_card:
        warnings.append(_("{card} is banned in Commander.").format(card=plain(name)))
    if stale:
        warnings.append(stale)
    _add_warnings(embed, warnings)
    embed.set_footer(text=_(FOOTER))
    return finish(embed)


def _not_deck_lines(analysis: Analysis, card: Mapping[str, Any]) -> list[str]:
    kind = analysis.not_deck_card
    assert kind is not None
    lines = [words.not_deck_sentence(shown(analysis.name or card_name(card)), kind)]
    if kind is NonDeckKind.TOKEN:
        lines.append(words.token_colors_sentence(analysis))
    elif kind is NonDeckKind.MELD_RESULT:
        parts = [
            str(p.get("name"))
            for p in card.get("all_parts") or ()
            if isinstance(p, Mapping) and p.get("component") == "meld_part" and p.get("name")
        ]
        if parts:
            lines.append(
                _("Its two halves, {cards}, are the cards that go in a deck.").format(
                    cards=words.names_list(parts, shown)
                )
            )
    elif kind in (NonDeckKind.EMBLEM, NonDeckKind.CHECKLIST):
        lines.append(_("Nothing printed on it gives it a color or a color identity."))
    return lines


def identity_reply(
    analysis: Analysis,
    card: Mapping[str, Any],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
    typed: str | None = None,
) -> Reply:
    """The /identity reply (one public embed)."""
    return Reply(embeds=[identity_embed(analysis, card, emoji=emoji, stale=stale, typed=typed)])


# ---------------------------------------------------------------------------------------------- /fits
def _leader_names(result: FitResult, commanders: Sequence[Mapping[str, Any]]) -> list[str]:
    return [a.name for a in result.commanders] or [card_name(c) for c in commanders]


def _identities_fields(embed: Embed, result: FitResult, name: str, emoji: Emoji) -> None:
    embed.add_field(
        name=_("Card"), value=f"{plain(name)}: {render.pips(result.card.identity, emoji)}", inline=True
    )
    lines = []
    for i, leader in enumerate(result.commanders):
        text = f"{plain(leader.name)}: {render.pips(leader.identity, emoji)}"
        if i < len(result.chosen) and result.chosen[i]:
            text += _(" (chosen)") if leader.identity != result.chosen[i] else _(" (chosen color)")
        elif i in result.open_choices:
            text += _(" + a color chosen before the game")
        lines.append(text)
    if len(result.commanders) > 1:
        lines.append(_("Together: {colors}").format(colors=render.pips(result.deck_identity, emoji)))
    embed.add_field(
        name=_("Commanders") if len(result.commanders) > 1 else _("Commander"),
        value=render.join_limited(lines, FIELD_VALUE_LIMIT),
        inline=True,
    )


def fits_embed(
    result: FitResult,
    card: Mapping[str, Any],
    commanders: Sequence[Mapping[str, Any]],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
    typed: Sequence[tuple[str, str]] = (),
) -> Embed:
    """The /fits answer: the headline says the verdict once (with the reason when no legal deck can hold the
    card); then why, both identities, and for colors outside the deck the evidence, one line per source."""
    analysis = result.card
    name = analysis.name or card_name(card)
    leaders = _leader_names(result, commanders)
    title = fit_words.headline(
        result, render.truncate(name, NAME_WIDTH), [render.truncate(n, 80) for n in leaders]
    )
    embed = _base_embed(render.escape(title), card_url(card), _VERDICT_COLORS[result.verdict], card)
    lines = [typed_line(typed), *fit_words.fits_lines(result, name)]
    embed.description = render.truncate("\n".join(line for line in lines if line), DESCRIPTION_LIMIT)
    _identities_fields(embed, result, name, emoji)
    if result.outside:
        found = evidence.identity_sources(analysis, result.outside)
        _why_field(
            embed,
            _("Outside: {colors}").format(colors=render.color_words(result.outside)),
            analysis,
            found,
            emoji,
        )
    warnings = [stale] if stale else []
    _add_warnings(embed, warnings)
    embed.set_footer(text=_(FOOTER))
    return finish(embed)


def fits_reply(
    result: FitResult,
    card: Mapping[str, Any],
    commanders: Sequence[Mapping[str, Any]],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
    typed: Sequence[tuple[str, str]] = (),
) -> Reply:
    """The /fits reply (one public embed); `typed`: see `typed_line`."""
    return Reply(embeds=[fits_embed(result, card, commanders, emoji=emoji, stale=stale, typed=typed)])


HELP_WHAT = N_(
    "I explain a Magic: The Gathering card's **color** and its Commander **color identity**, "
    "and whether a card can go in a deck led by a given commander. Card data comes from Scryfall."
)
HELP_COMMANDS = N_(
    "`/identity card` - a card's color and color identity, and why\n"
    "`/fits card commander [partner] [color] [partner_color]` - whether a card fits a deck led by that "
    "commander (or pair): fits, does not fit, fits if you choose a color, or this deck can't exist (a "
    "commander that can't lead, a pair that can't be paired, a banned card); `color` is the color a "
    "commander such as The Prismatic Piper chose before the game\n"
    "`/deckcheck commander [partner] [decklist] [list]` - check a whole decklist (upload a text file or "
    "paste it): color identity, deck size, singleton, banned cards, unknown names\n"
    "`/help` - this message"
)
HELP_COLOR = N_(
    "A card's color comes from the mana symbols in its **mana cost**, its **color indicator**, and "
    "abilities that set its color such as Devoid or \u201cis all colors\u201d (CR 202.2, 204, 604.3). "
    "Hybrid {W/U} is both colors; Phyrexian {B/P} is black. Lands have no mana cost, so most are "
    "colorless. Words like \u201ca red creature\u201d never give color."
)
HELP_IDENTITY = N_(
    "A card's color identity is its color plus every mana symbol in its **rules text**, on **all "
    "its faces** (the back of a double-faced card too); reminder text in parentheses doesn't count "
    "(CR 903.4). A card fits a Commander deck when its identity is within the commander's identity, "
    "or the union of both commanders' identities with Partner or Background (CR 903.5c). "
    "Fires of Undeath is red, but its flashback cost {5}{B} makes its identity black and red."
)
HELP_EXAMPLES = N_(
    "`/identity card:Fires of Undeath` - red, identity black and red\n"
    "`/fits card:Dismember commander:Kumano, Master Yamabushi` - does not fit ({B/P} is black)\n"
    "`/fits card:Sol Ring commander:Atraxa, Praetors' Voice` - fits (colorless)\n"
    "`/fits card:Lightning Bolt commander:Tymna the Weaver partner:Kraum, Ludevic's Opus` - partners\n"
    "`/fits card:Lightning Bolt commander:The Prismatic Piper color:red` - a color chosen before the game\n"
    "`/deckcheck commander:Kumano, Master Yamabushi list:1 Sol Ring; 1 Lightning Bolt; ...` - a whole deck"
)


def help_embed(emoji: Emoji = None) -> Embed:
    """The /help answer."""
    embed = Embed(title=_("Color identity bot"), description=_(HELP_WHAT), color=render.GOLD)
    embed.add_field(name=_("Commands"), value=_(HELP_COMMANDS), inline=False)
    embed.add_field(name=_("Color"), value=render.render_symbols(_(HELP_COLOR), emoji), inline=False)
    embed.add_field(
        name=_("Color identity"), value=render.render_symbols(_(HELP_IDENTITY), emoji), inline=False
    )
    embed.add_field(name=_("Examples"), value=_(HELP_EXAMPLES), inline=False)
    embed.set_footer(text=_("Start typing a card name and pick it from the suggestions."))
    return finish(embed)


def help_reply(emoji: Emoji = None) -> Reply:
    """The /help reply (only the user who asked sees it)."""
    return Reply(embeds=[help_embed(emoji)], ephemeral=True)


# ------------------------------------------------------------------------------------------- limits
def _drop_repeats(embed: Embed) -> None:
    """Last guard: a line already shown earlier in the embed is left out of later fields."""
    seen = {
        line.strip() for text in (embed.title or "", embed.description or "") for line in text.split("\n")
    }
    for f in list(embed.fields):
        kept = []
        for line in f.value.split("\n"):
            if line.strip() and line.strip() in seen:
                continue
            seen.add(line.strip())
            kept.append(line)
        f.value = "\n".join(kept)
        if not f.value.strip():
            embed.fields.remove(f)


def finish(embed: Embed) -> Embed:
    """No repeated line, then within Discord's limits."""
    _drop_repeats(embed)
    return fit_to_limits(embed)


def fit_to_limits(embed: Embed) -> Embed:
    """Last guard: drop trailing fields (noting it) until the embed's total size is within 6,000."""
    while len(embed) > TOTAL_LIMIT and len(embed.fields) > 1:
        embed.remove_field(len(embed.fields) - 1)
        note = _("Some details were left out to fit Discord's limits.")
        if len(embed) + len(note) + 10 <= TOTAL_LIMIT:
            embed.add_field(name="…", value=note, inline=False)
            if len(embed) <= TOTAL_LIMIT:
                break
            embed.remove_field(len(embed.fields) - 1)
    if len(embed) > TOTAL_LIMIT and embed.description:
        over = len(embed) - TOTAL_LIMIT
        embed.description = render.truncate(embed.description, max(1, len(embed.description) - over))
    return embed
