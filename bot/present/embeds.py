"""Pure builders for the bot's card replies. No network, no Discord connection.

- `identity_reply` / `identity_embed(analysis, card, ...)`: the /identity answer: the card like a card (name,
  mana cost, type line), its color against its color identity, the lessons it teaches, and one evidence line
  per source (`bot.present.evidence`).
- `fits_reply` / `fits_embed(result, card, commanders, ...)`: the /fits answer. The headline (title) says the
  verdict once: fits, does not fit, fits if you choose a color (CR 903.4b), or this deck can't exist (with
  the reason); the identity comparison follows as information.
- `help_embed()`: the /help answer (lists /identity, /fits, /deckcheck and /help).
- `stale_note(resolved)`: the warning for stale or old card data (None when fresh).
- `embed_problems(embeds)`: Discord's embed limits, checked; `reply_lines(reply)` / `repeated_lines(reply)`:
  the lines a reply shows, and any shown twice (tests, benchmarks and a last guard use them).

Everything that came from outside (card data, user input) is escaped, and every text is cut to Discord's
limits. Every `{X}` goes through `render.symbol` with the emoji map given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from bot.cards.model import STALE_DAYS, Resolved
from bot.identity import is_banned
from bot.identity.model import Analysis, DeckBlocker, FitResult, FitVerdict, NonDeckKind, VerdictCode
from bot.present import evidence, render, words
from bot.present.message import (
    AUTHOR_LIMIT,
    DESCRIPTION_LIMIT,
    EMBEDS_PER_MESSAGE,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    FOOTER_LIMIT,
    TITLE_LIMIT,
    TOTAL_LIMIT,
    Embed,
    Reply,
)
from bot.present.render import Emoji

NAME_WIDTH = 120  # characters of a card name shown in a sentence

SCRYFALL_SEARCH = "https://scryfall.com/search?q="
SCRYFALL_IMAGE = "https://api.scryfall.com/cards/{id}?format=image&version=normal"
FOOTER = "Card data from Scryfall"

MARKS: dict[FitVerdict, str] = {
    FitVerdict.FITS: "\u2705",
    FitVerdict.DOES_NOT_FIT: "\u274c",
    FitVerdict.FITS_IF_CHOSEN: "\U0001f3a8",
    FitVerdict.DECK_CANT_EXIST: "\u26d4",
}
_VERDICT_COLORS: dict[FitVerdict, int] = {
    FitVerdict.FITS: render.FITS_COLOR,
    FitVerdict.DOES_NOT_FIT: render.MISFIT_COLOR,
    FitVerdict.FITS_IF_CHOSEN: render.CONDITIONAL_COLOR,
    FitVerdict.DECK_CANT_EXIST: render.CANT_EXIST_COLOR,
}


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


def stale_note(resolved: Iterable[Resolved | None]) -> str | None:
    """A warning when any answer came from stale cache data or from local data older than 3 days."""
    items = [r for r in resolved if r is not None]
    if any(r.source == "stale" for r in items):
        return "Scryfall could not be reached, so this uses cached card data that may be out of date."
    ages = [r.data_age_days for r in items if r.data_age_days is not None]
    if ages and max(ages) > STALE_DAYS:
        return f"The local card data is {max(ages):.0f} days old; recent changes may be missing."
    return None


def shown(name: str) -> str:
    """A card name in a sentence: escaped, cut, bold."""
    return f"**{render.escape(render.truncate(name, NAME_WIDTH))}**"


def plain(name: str) -> str:
    """A card name where bold would be noise (titles, field lines): escaped and cut."""
    return render.escape(render.truncate(name, NAME_WIDTH))


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
        embed.add_field(name="Warnings", value=value, inline=False)


def _why_field(embed: Embed, name: str, analysis: Analysis, found: Sequence[evidence.Source], emoji: Emoji) -> None:
    lines = evidence.evidence_lines(analysis, found, emoji)
    if lines:
        embed.add_field(name=render.truncate(name, FIELD_NAME_LIMIT),
                        value=render.join_limited(lines, FIELD_VALUE_LIMIT), inline=False)


# ------------------------------------------------------------------------------------------ /identity
def identity_embed(
    analysis: Analysis,
    card: Mapping[str, Any],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
) -> Embed:
    """The /identity answer: the card line, its color against its color identity and why (one line per source
    of color), the lessons it teaches; for objects that are not deck cards, what they are instead."""
    name = analysis.name or card_name(card)
    embed = _base_embed(render.escape(name), card_url(card), render.identity_color(analysis.identity), card)
    lines = [card_line(analysis, emoji)]
    if analysis.not_deck_card is not None:
        lines.extend(_not_deck_lines(analysis, card))
        if analysis.colors or analysis.color_reasons:
            embed.add_field(name="Color", value=render.pips(analysis.colors, emoji), inline=True)
        found = evidence.sources(analysis.color_reasons) if analysis.not_deck_card is NonDeckKind.TOKEN \
            else evidence.identity_sources(analysis)
    else:
        lines.append(words.identity_summary(analysis, shown))
        lines.extend(words.lessons(analysis, emoji))
        lines.append(words.deck_line(analysis))
        if analysis.colors == analysis.identity:
            embed.add_field(name="Color and color identity", value=render.pips(analysis.identity, emoji), inline=True)
        else:
            embed.add_field(name="Color", value=render.pips(analysis.colors, emoji), inline=True)
            embed.add_field(name="Color identity", value=render.pips(analysis.identity, emoji), inline=True)
        found = evidence.identity_sources(analysis)
    embed.description = render.truncate("\n".join(line for line in lines if line), DESCRIPTION_LIMIT)
    if analysis.not_deck_card is not NonDeckKind.TOKEN or analysis.colors:
        _why_field(embed, "Why", analysis, found, emoji)
    warnings: list[str] = []
    if is_banned(card) and analysis.deck_card:
        warnings.append(f"{plain(name)} is banned in Commander.")
    if stale:
        warnings.append(stale)
    _add_warnings(embed, warnings)
    embed.set_footer(text=FOOTER)
    return finish(embed)


def _not_deck_lines(analysis: Analysis, card: Mapping[str, Any]) -> list[str]:
    kind = analysis.not_deck_card
    assert kind is not None
    lines = [words.not_deck_sentence(shown(analysis.name or card_name(card)), kind)]
    if kind is NonDeckKind.TOKEN:
        lines.append(words.token_colors_sentence(analysis))
    elif kind is NonDeckKind.MELD_RESULT:
        parts = [str(p.get("name")) for p in card.get("all_parts") or ()
                 if isinstance(p, Mapping) and p.get("component") == "meld_part" and p.get("name")]
        if parts:
            lines.append(f"Its two halves, {words.names_list(parts, shown)}, are the cards that go in a deck.")
    elif kind in (NonDeckKind.EMBLEM, NonDeckKind.CHECKLIST):
        lines.append("Nothing printed on it gives it a color or a color identity.")
    return lines


def identity_reply(analysis: Analysis, card: Mapping[str, Any], *, emoji: Emoji = None,
                   stale: str | None = None) -> Reply:
    """The /identity reply (one public embed)."""
    return Reply(embeds=[identity_embed(analysis, card, emoji=emoji, stale=stale)])


# ---------------------------------------------------------------------------------------------- /fits
def _leader_names(result: FitResult, commanders: Sequence[Mapping[str, Any]]) -> list[str]:
    return [a.name for a in result.commanders] or [card_name(c) for c in commanders]


def _blocker_reason(result: FitResult, blocker: DeckBlocker, leaders: Sequence[str], name: str) -> str:
    """The short reason for the headline: 'Lightning Bolt can't be your commander'."""
    if blocker is DeckBlocker.COMMANDER_INELIGIBLE:
        problem = next((v for v in result.commander_problems if not words.is_pairing(v) or v.cause), None)
        who = words.ineligible_name(problem) if problem is not None else next(
            (a.name for a in result.commanders if not a.deck_card), leaders[0] if leaders else "The commander")
        return f"{who} can\u2019t be your commander"
    if blocker is DeckBlocker.PAIR_INVALID:
        problem = next((v for v in result.commander_problems if words.is_pairing(v)), None)
        if problem is not None and problem.code is VerdictCode.SAME_CARD:
            return f"{problem.card} can\u2019t be both commanders"
        return f"{words.names_list(leaders)} can\u2019t be commanders together"
    if blocker is DeckBlocker.COMMANDER_BANNED:
        return f"{words.names_list(result.banned_commanders)} {'is' if len(result.banned_commanders) == 1 else 'are'} " \
               f"banned in Commander"
    if blocker is DeckBlocker.CARD_BANNED:
        return f"{name} is banned in Commander"
    kind = result.card.not_deck_card
    what = words.NON_DECK_WORDS[kind] if kind is not None else "not a card"
    return f"{name} is {what}, not a deck card"


def _blocker_sentences(result: FitResult, name: str) -> list[str]:
    """Every reason the deck can't exist, each once, in full (names bold)."""
    out = [words.verdict_sentence(v, shown) for v in result.commander_problems]
    for blocker in result.blockers:
        if blocker is DeckBlocker.COMMANDER_INELIGIBLE and not result.commander_problems:
            for leader in result.commanders:
                if leader.not_deck_card is not None:
                    out.append(words.not_deck_sentence(shown(leader.name), leader.not_deck_card))
        elif blocker is DeckBlocker.COMMANDER_BANNED:
            for banned in result.banned_commanders:
                out.append(f"{shown(banned)} is banned in Commander, so a deck led by it isn\u2019t legal.")
        elif blocker is DeckBlocker.CARD_BANNED:
            out.append(f"{shown(name)} is banned in Commander, so no Commander deck may hold it.")
        elif blocker is DeckBlocker.NOT_A_DECK_CARD and result.card.not_deck_card is not None:
            out.append(words.not_deck_sentence(shown(name), result.card.not_deck_card))
    return list(dict.fromkeys(out))


def headline(result: FitResult, name: str, leaders: Sequence[str]) -> str:
    """The verdict, said once, with its reason when the deck can't exist (plain text, for the title)."""
    mark = MARKS[result.verdict]
    if result.verdict is FitVerdict.DECK_CANT_EXIST and result.blockers:
        return f"{mark} This deck can\u2019t exist: {_blocker_reason(result, result.blockers[0], leaders, name)}"
    if result.verdict is FitVerdict.FITS_IF_CHOSEN:
        return f"{mark} {name} fits if you choose {words.choice_words(result.choice_options)}"
    if result.verdict is FitVerdict.FITS:
        return f"{mark} {name} fits"
    return f"{mark} {name} does not fit"


def _deck_words(result: FitResult) -> str:
    """'**Kumano, Master Yamabushi** is red' / 'together **A** and **B** are white and blue'."""
    names = [a.name for a in result.commanders]
    deck = render.color_words(result.deck_identity)
    if len(names) > 1:
        return f"together {words.names_list(names, shown)} are {deck}"
    return f"{words.names_list(names, shown)} is {deck}"


def _chooser_words(result: FitResult) -> str:
    """Who may still choose a color (CR 903.4b), or ''."""
    open_names = [result.commanders[i].name for i in result.open_choices]
    if not open_names:
        return ""
    verb = "has" if len(open_names) == 1 else "have"
    return f"{words.names_list(open_names, shown)} {verb} you choose a color before the game begins"


def _comparison(result: FitResult, name: str) -> str:
    """The identity comparison as information (no verdict mark)."""
    card = result.card
    if not card.identity:
        return f"As for colors: {shown(name)} has a colorless identity, which fits every deck."
    if not result.outside:
        return (f"As for colors: {possessive_shown(name)} identity ({render.color_words(card.identity)}) is within "
                f"the deck\u2019s ({render.color_words(result.deck_identity)}).")
    return (f"As for colors: {render.color_words(result.outside).capitalize()} would be outside the deck\u2019s "
            f"identity; {_deck_words(result)}.")


def possessive_shown(name: str) -> str:
    """'**Kitchen Finks**\'', '**Dismember**\'s'."""
    cut = render.truncate(name, NAME_WIDTH)
    return shown(cut) + words.possessive(cut)[len(cut):]


def _fits_lines(result: FitResult, name: str) -> list[str]:
    card = result.card
    verdict = result.verdict
    if verdict is FitVerdict.DECK_CANT_EXIST:
        lines = _blocker_sentences(result, name)
        if card.deck_card:
            lines.append(_comparison(result, name))
        return lines
    if verdict is FitVerdict.FITS:
        if not card.identity:
            return [f"{shown(name)} has a colorless identity, which fits every Commander deck (CR 903.5c)."]
        picked = [(i, c) for i, c in enumerate(result.chosen) if c]
        if len(result.commanders) == 1 and picked:
            tail = ", the color chosen for it before the game (CR 903.4b)" if \
                result.commanders[0].identity == picked[0][1] else \
                f", with {render.color_name(picked[0][1])} chosen for it before the game (CR 903.4b)"
        elif picked:
            chosen = [f"{render.color_name(c)} chosen for {shown(result.commanders[i].name)}" for i, c in picked]
            tail = f", with {render.and_list(chosen)} before the game (CR 903.4b)"
        else:
            tail = " (CR 903.5c)"
        return [f"{possessive_shown(name)} color identity ({render.color_words(card.identity)}) is within the "
                f"deck\u2019s: {_deck_words(result)}{tail}."]
    if verdict is FitVerdict.FITS_IF_CHOSEN:
        return [f"{_chooser_words(result)}, and that color joins the deck\u2019s color identity (CR 903.4b). "
                f"{shown(name)} needs {render.color_words(result.outside)}; {_deck_words(result)} without it.",
                _option_hint(result)]
    lines = [f"{render.color_words(result.outside).capitalize()} {'is' if len(result.outside) == 1 else 'are'} "
             f"outside the deck\u2019s color identity: {_deck_words(result)} (CR 903.5c)."]
    open_choices = result.open_choices
    if open_choices:
        n = len(open_choices)
        lines.append(f"{_chooser_words(result)} (CR 903.4b), but {'that' if n == 1 else 'those'} "
                     f"{'one color' if n == 1 else f'{n} colors'} can\u2019t cover "
                     f"{render.color_words(result.outside)}.")
    return lines


def _option_hint(result: FitResult) -> str:
    if len(result.commanders) == 2 and len(result.open_choices) == 2:
        return "Say which with `color:` (for the commander) and `partner_color:` (for the partner)."
    if result.open_choices and result.open_choices[0] == 1:
        return "Say which with `partner_color:`."
    return "Say which with `color:`."


def _identities_fields(embed: Embed, result: FitResult, name: str, emoji: Emoji) -> None:
    embed.add_field(name="Card", value=f"{plain(name)}: {render.pips(result.card.identity, emoji)}", inline=True)
    lines = []
    for i, leader in enumerate(result.commanders):
        text = f"{plain(leader.name)}: {render.pips(leader.identity, emoji)}"
        if i < len(result.chosen) and result.chosen[i]:
            text += " (chosen)" if leader.identity != result.chosen[i] else " (chosen color)"
        elif i in result.open_choices:
            text += " + a color chosen before the game"
        lines.append(text)
    if len(result.commanders) > 1:
        lines.append(f"Together: {render.pips(result.deck_identity, emoji)}")
    embed.add_field(name="Commanders" if len(result.commanders) > 1 else "Commander",
                    value=render.join_limited(lines, FIELD_VALUE_LIMIT), inline=True)


def fits_embed(
    result: FitResult,
    card: Mapping[str, Any],
    commanders: Sequence[Mapping[str, Any]],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
) -> Embed:
    """The /fits answer: the headline says the verdict once (with the reason when no legal deck can hold the
    card); then why, both identities, and for colors outside the deck the evidence, one line per source."""
    analysis = result.card
    name = analysis.name or card_name(card)
    leaders = _leader_names(result, commanders)
    title = headline(result, render.truncate(name, NAME_WIDTH), [render.truncate(n, 80) for n in leaders])
    embed = _base_embed(render.escape(title), card_url(card), _VERDICT_COLORS[result.verdict], card)
    embed.description = render.truncate("\n".join(_fits_lines(result, name)), DESCRIPTION_LIMIT)
    _identities_fields(embed, result, name, emoji)
    if result.outside:
        found = evidence.identity_sources(analysis, result.outside)
        _why_field(embed, f"Outside: {render.color_words(result.outside)}", analysis, found, emoji)
    warnings = [stale] if stale else []
    _add_warnings(embed, warnings)
    embed.set_footer(text=FOOTER)
    return finish(embed)


def fits_reply(result: FitResult, card: Mapping[str, Any], commanders: Sequence[Mapping[str, Any]], *,
               emoji: Emoji = None, stale: str | None = None) -> Reply:
    """The /fits reply (one public embed)."""
    return Reply(embeds=[fits_embed(result, card, commanders, emoji=emoji, stale=stale)])


HELP_TEXT = {
    "what": (
        "I explain a Magic: The Gathering card's **color** and its Commander **color identity**, "
        "and whether a card can go in a deck led by a given commander. Card data comes from Scryfall."
    ),
    "commands": (
        "`/identity card` - a card's color and color identity, and why\n"
        "`/fits card commander [partner] [color] [partner_color]` - whether a card fits a deck led by that "
        "commander (or pair): fits, does not fit, fits if you choose a color, or this deck can't exist (a "
        "commander that can't lead, a pair that can't be paired, a banned card); `color` is the color a "
        "commander such as The Prismatic Piper chose before the game\n"
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
        "`/fits card:Lightning Bolt commander:The Prismatic Piper color:red` - a color chosen before the game\n"
        "`/deckcheck commander:Kumano, Master Yamabushi list:1 Sol Ring; 1 Lightning Bolt; ...` - a whole deck"
    ),
}


def help_embed(emoji: Emoji = None) -> Embed:
    """The /help answer."""
    embed = Embed(title="Color identity bot", description=HELP_TEXT["what"], color=render.GOLD)
    embed.add_field(name="Commands", value=HELP_TEXT["commands"], inline=False)
    embed.add_field(name="Color", value=render.render_symbols(HELP_TEXT["color"], emoji), inline=False)
    embed.add_field(name="Color identity", value=render.render_symbols(HELP_TEXT["identity"], emoji),
                    inline=False)
    embed.add_field(name="Examples", value=HELP_TEXT["examples"], inline=False)
    embed.set_footer(text="Start typing a card name and pick it from the suggestions.")
    return finish(embed)


def help_reply(emoji: Emoji = None) -> Reply:
    """The /help reply (only the user who asked sees it)."""
    return Reply(embeds=[help_embed(emoji)], ephemeral=True)


# ----------------------------------------------------------------------------------- limits checking
def embed_problems(embeds: Sequence[Embed | Mapping[str, Any]]) -> list[str]:
    """Every way `embeds` break Discord's limits (empty list = fine). Accepts Embeds or their dicts."""
    problems: list[str] = []
    total = 0
    if len(embeds) > EMBEDS_PER_MESSAGE:
        problems.append(f"{len(embeds)} embeds (max {EMBEDS_PER_MESSAGE})")
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
        if len(author) > AUTHOR_LIMIT:
            problems.append(f"author {len(author)} > {AUTHOR_LIMIT}")
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


def reply_lines(reply: Reply | Embed | Sequence[Embed]) -> list[str]:
    """Every non-empty line a reply shows: its content, then each embed's title, description, field names
    and values, and footer."""
    if isinstance(reply, Reply):
        embeds, content = reply.embeds, reply.content or ""
    elif isinstance(reply, Embed):
        embeds, content = [reply], ""
    else:
        embeds, content = list(reply), ""
    texts = [content]
    for e in embeds:
        texts.extend([e.title or "", e.description or ""])
        for f in e.fields:
            texts.extend([f.name, f.value])
        texts.append(e.footer or "")
    return [line.strip() for text in texts for line in text.split("\n") if line.strip()]


def repeated_lines(reply: Reply | Embed | Sequence[Embed]) -> list[str]:
    """The lines a reply shows more than once (should always be empty)."""
    seen: set[str] = set()
    out: list[str] = []
    for line in reply_lines(reply):
        if line in seen and line not in out:
            out.append(line)
        seen.add(line)
    return out


def reply_length(reply: Reply | Embed | Sequence[Embed]) -> int:
    """Characters of text a reply shows (content plus what Discord counts of its embeds)."""
    if isinstance(reply, Reply):
        return len(reply.content or "") + sum(len(e) for e in reply.embeds)
    if isinstance(reply, Embed):
        return len(reply)
    return sum(len(e) for e in reply)


def _drop_repeats(embed: Embed) -> None:
    """Last guard: a line already shown earlier in the embed is left out of later fields."""
    seen = {line.strip() for text in (embed.title or "", embed.description or "") for line in text.split("\n")}
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
