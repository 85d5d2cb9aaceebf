"""The /identity, /fits and /help replies, and `finish`, the last guard every embed passes (no line repeated,
within Discord's limits). Outside text (card data, user input) is escaped and cut."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from bot.cards.model import STALE_DAYS, Resolved
from bot.cards.quotes import PrintedText
from bot.house.rules import FitHere
from bot.identity import is_banned
from bot.identity.model import Analysis, FitResult, FitVerdict, NonDeckKind
from bot.present import brackets, evidence, fit_words, message, render, second_opinion, words
from bot.present import house as house_words
from bot.present.i18n import N_, _
from bot.present.message import Embed, Reply
from bot.present.render import Emoji
from bot.present.words import NAME_WIDTH, plain, shown

Card = Mapping[str, Any]  # a card object of Scryfall's API
SCRYFALL_IMAGE = "https://api.scryfall.com/cards/{id}?format=image&version=normal"
FOOTER = N_("Card data from Scryfall")
_VERDICT_LOOKS: dict[FitVerdict, tuple[str, int]] = {  # the title's mark, the embed's color
    FitVerdict.FITS: ("\u2705", render.FITS_COLOR),
    FitVerdict.DOES_NOT_FIT: ("\u274c", render.MISFIT_COLOR),
    FitVerdict.FITS_IF_CHOSEN: ("\U0001f3a8", render.CONDITIONAL_COLOR),
    FitVerdict.DECK_CANT_EXIST: ("\u26d4", render.CANT_EXIST_COLOR),
}


def card_name(card: Card) -> str:
    return str(card.get("name") or _("Unknown card"))


def card_url(card: Card) -> str:
    """The card's Scryfall page; an exact-name search link when the data has no `scryfall_uri`."""
    if isinstance(uri := card.get("scryfall_uri"), str) and uri.startswith(("https://", "http://")):
        return uri
    return "https://scryfall.com/search?q=" + quote(f'!"{card_name(card)}"', safe="")


def card_image(card: Card) -> str | None:
    """The front face's image; None when nothing is known."""
    faces = card.get("card_faces")
    for part in (card, *(faces[:1] if isinstance(faces, list) else ())):
        uris = part.get("image_uris") if isinstance(part, Mapping) else None
        uris = uris if isinstance(uris, Mapping) else {}
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
        return _("Scryfall could not be reached, so this uses cached card data that may be out of date.")
    if (ages := [r.data_age_days for r in items if r.data_age_days is not None]) and max(ages) > STALE_DAYS:
        days = f"{max(ages):.0f}"
        return _("The local card data is {days} days old; recent changes may be missing.").format(days=days)
    return None


def typed_line(typed: Sequence[tuple[str, str]]) -> str | None:
    """`You typed: Blitzschlag (Lightning Bolt)` from (what was typed, the card's name) pairs."""
    names = ", ".join(f"{render.echo(t, 80)} ({render.escape(n)})" for t, n in typed)
    return _("You typed: {names}").format(names=names) if typed else None


def card_line(analysis: Analysis, emoji: Emoji = None) -> str:
    """Mana cost and type line, each face's for a card of several parts ("Fire {1}{R} · Instant // Ice …")."""
    parts: list[str] = []
    for face in analysis.faces:
        bits = [render.render_symbols(render.escape(face.mana_cost), emoji)] if face.mana_cost else []
        if face.type_line:
            bits.append(render.escape(face.type_line))
        if len(analysis.faces) > 1:
            bits.insert(0, plain(face.name) + (" " + bits.pop(0) if face.mana_cost else ""))
        if bits:
            parts.append(" \u00b7 ".join(bits))
    return render.truncate(" // ".join(parts), 300)


def _card_embed(title: str, color: int, card: Card, lines: Iterable[str | None]) -> Embed:
    description = render.truncate("\n".join(line for line in lines if line), message.DESCRIPTION_LIMIT)
    title = render.truncate(" ".join(title.split()), message.TITLE_LIMIT)  # a title is one line
    return Embed(title, description, card_url(card), color, thumbnail=card_image(card), footer=_(FOOTER))


def add_list_field(embed: Embed, name: str, lines: Iterable[str], *, mark: str = "") -> None:
    """A field of one line per item (each once), cut to fit; none when there are none."""
    value = render.join_limited((f"{mark}{line}" for line in dict.fromkeys(lines)), message.FIELD_VALUE_LIMIT)
    if value:
        embed.add_field(name=render.truncate(name, message.FIELD_NAME_LIMIT), value=value)


def note_english(embed: Embed, found: Sequence[evidence.Source], printed: PrintedText | None = None) -> None:
    """The footer's note that a quoted card line is English Oracle text (`evidence.english_note`)."""
    if (note := evidence.english_note(found, printed)) and embed.footer:
        embed.footer = f"{embed.footer} \u00b7 {note}"


def add_warnings(embed: Embed, warnings: Iterable[str | None]) -> None:
    add_list_field(embed, _("Warnings"), (w for w in warnings if w), mark="\u26a0\ufe0f ")


def identity_reply(
    analysis: Analysis,
    card: Card,
    *,
    emoji: Emoji = None,
    stale: str | None = None,
    typed: str | None = None,
    printed: PrintedText | None = None,
    house_bracket: int | None = None,
) -> Reply:
    """`typed`: what was typed when not the card's own name; `printed`: its text in the reply's language, to
    quote from; `house_bracket`: the bracket the server plays, if it set one."""
    name = analysis.name or card_name(card)
    kind = analysis.not_deck_card
    said = _("You typed: {names}").format(names=render.echo(typed, 80)) if typed else None
    lines = [said, card_line(analysis, emoji)]
    if kind is not None:
        lines += _not_deck_lines(analysis, card, kind)
    else:
        lines += [words.identity_summary(analysis, shown), *words.lessons(analysis, emoji)]
        lines += [words.deck_line(analysis), *brackets.card_lines(card, shown(name), printed, emoji)]
    doubt = second_opinion.disputed([(card, analysis)])
    embed = _card_embed(render.escape(name), render.identity_color(analysis.identity), card, lines)
    color, identity = render.pips(analysis.colors, emoji), render.pips(analysis.identity, emoji)
    if kind is None and analysis.colors == analysis.identity:
        embed.add_field(name=_("Color and color identity"), value=identity, inline=True)
    elif kind is None:
        embed.add_field(name=_("Color"), value=color, inline=True)
        embed.add_field(name=_("Color identity"), value=identity, inline=True)
    for d in doubt:
        embed.add_field(name=second_opinion.field_name(), value=render.pips(d.theirs, emoji), inline=True)
    if kind is not None and (analysis.colors or analysis.color_reasons):
        embed.add_field(name=_("Color"), value=color, inline=True)
    if kind is not NonDeckKind.TOKEN or analysis.colors:
        reasons = analysis.color_reasons if kind is NonDeckKind.TOKEN else analysis.identity_reasons
        found = evidence.sources(reasons)
        add_list_field(embed, _("Why"), evidence.evidence_lines(analysis, found, emoji, printed=printed))
        note_english(embed, found, printed)
    banned = _("{card} is banned in Commander.").format(card=plain(name))
    doubts = [second_opinion.sentence(d, shown(d.name)) for d in doubt]
    here = brackets.house_lines(card, plain(name), house_bracket) if house_bracket and kind is None else []
    add_warnings(embed, [*doubts, banned if is_banned(card) and analysis.deck_card else "", *here, stale])
    return Reply(embeds=[finish(embed)])


def _not_deck_lines(analysis: Analysis, card: Card, kind: NonDeckKind) -> list[str]:
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
            cards = render.and_list(map(shown, parts))
            lines.append(_("Its two halves, {cards}, are the cards that go in a deck.").format(cards=cards))
    elif kind in (NonDeckKind.EMBLEM, NonDeckKind.CHECKLIST):
        lines.append(_("Nothing printed on it gives it a color or a color identity."))
    return lines


def _commanders_field(embed: Embed, result: FitResult, emoji: Emoji) -> None:
    lines = []
    for i, leader in enumerate(result.commanders):
        text = render.colon(plain(leader.name), render.pips(leader.identity, emoji))
        if i < len(result.chosen) and result.chosen[i]:
            text += _(" (chosen)") if leader.identity != result.chosen[i] else _(" (chosen color)")
        elif i in result.open_choices:
            text += _(" + a color chosen before the game")
        lines.append(text)
    if len(result.commanders) > 1:
        lines.append(_("Together: {colors}").format(colors=render.pips(result.deck_identity, emoji)))
    name = _("Commanders") if len(result.commanders) > 1 else _("Commander")
    embed.add_field(name=name, value=render.join_limited(lines, message.FIELD_VALUE_LIMIT), inline=True)


def fits_reply(
    result: FitResult,
    card: Card,
    commanders: Sequence[Card],
    *,
    emoji: Emoji = None,
    stale: str | None = None,
    typed: Sequence[tuple[str, str]] = (),
    house: FitHere | None = None,
    printed: PrintedText | None = None,
) -> Reply:
    """`house`: the server's rules on it: what they ban is ⛔ (told apart from the official list, which decides
    when it bans too), a Game Changer its bracket limits a warning; `printed`: as for /identity."""
    here = house or FitHere()
    analysis = result.card
    name = analysis.name or card_name(card)
    leaders = [a.name for a in result.commanders] or [card_name(c) for c in commanders]
    cut = [render.truncate(n, 80) for n in leaders]
    mark, color = _VERDICT_LOOKS[result.verdict]
    verdict = fit_words.headline(result, render.truncate(name, NAME_WIDTH), cut)
    if here.banned and result.verdict is not FitVerdict.DECK_CANT_EXIST:
        mark, color = _VERDICT_LOOKS[FitVerdict.DECK_CANT_EXIST]
        verdict = house_words.fits_house_headline(here.banned, name)
    title = f"{mark} {verdict}"
    banned_here = house_words.fits_house_lines(here.banned, name, officially_banned=is_banned(card))
    lines = [typed_line(typed), *banned_here]
    if doubts := second_opinion.fit_pairs_disputed(result, card, commanders):
        on_colors = result.verdict is not FitVerdict.DECK_CANT_EXIST and not here.banned  # else ⛔ stays
        if on_colors:
            title, color = second_opinion.fits_title(render.truncate(name, NAME_WIDTH)), second_opinion.COLOR
        lines += second_opinion.fits_lines(result, card, commanders, doubts, verdict if on_colors else None)
    lines += fit_words.fits_lines(result, name)
    for c, n in [(card, name), *((c, a.name) for c, a in zip(commanders, result.commanders, strict=False))]:
        lines += brackets.card_lines(c, shown(n), printed if c is card else None, emoji)
    embed = _card_embed(render.escape(title), color, card, lines)
    pips = render.pips(analysis.identity, emoji)
    embed.add_field(name=_("Card"), value=render.colon(plain(name), pips), inline=True)
    _commanders_field(embed, result, emoji)
    if result.outside:
        found = evidence.sources(analysis.identity_reasons, result.outside)
        outside = _("Outside: {colors}").format(colors=render.color_words(result.outside))
        add_list_field(embed, outside, evidence.evidence_lines(analysis, found, emoji, printed=printed))
        note_english(embed, found, printed)
    bracket = brackets.house_lines(card, plain(name), here.bracket) if here.bracket is not None else []
    add_warnings(embed, [*bracket, stale])
    return Reply(embeds=[finish(embed)])


HELP_WHAT = N_(
    "I explain a Magic: The Gathering card's **color** and its Commander **color identity**, "
    "and whether a card can go in a deck led by a given commander. Card data comes from Scryfall."
)
HELP_COMMANDS = N_(
    "`/identity card` - a card's color and color identity, and why\n`/fits card commander [partner] [color] "
    "[partner_color]` - whether a card fits a deck led by that commander (or pair): fits, does not fit, fits "
    "if you choose a color, or this deck can't exist (a commander that can't lead, a pair that can't be "
    "paired, a banned card); `color`: the color a commander such as The Prismatic Piper chose before the "
    "game\n`/deckcheck [commander] [partner] [decklist] [list] [url]` - check a whole deck (a file, a pasted "
    "list or a link to a public Archidekt or Moxfield deck): color identity, size, singleton, banned cards, "
    "unknown names and the deck's bracket\n`/help` - this message\nA message's Apps menu (right-click or "
    "hold): **Check this decklist** (list, file or link), **Explain card names** ([[card names]])"
)
HELP_HOUSE = N_(
    "`/house ban card`, `/house unban card` - ban a card here, or allow it again; `/house bracket level` - "
    "the bracket played here, 1 to 5; `/house show`, `/house clear` - list or remove the rules (changes need "
    "Manage Server). /fits and /deckcheck here then flag house bans and Game Changers over the "
    "bracket.\nBrackets 1 to 5 rate a Commander deck's power: 1 and 2 allow no Game Changer (the Commander "
    "Format Panel's list of the strongest cards), 3 up to three. A deck check gives the deck's bracket from "
    "its Game Changers, mass land denial, extra turns and two-card combos (Commander Spellbook)."
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


def help_reply(emoji: Emoji = None) -> Reply:
    embed = Embed(title=_("Color identity bot"), description=_(HELP_WHAT), color=render.GOLD)
    embed.add_field(name=_("Commands"), value=_(HELP_COMMANDS))
    embed.add_field(name=_("House rules and brackets"), value=_(HELP_HOUSE))
    embed.add_field(name=_("Color"), value=render.render_symbols(_(HELP_COLOR), emoji))
    embed.add_field(name=_("Color identity"), value=render.render_symbols(_(HELP_IDENTITY), emoji))
    embed.add_field(name=_("Examples"), value=_(HELP_EXAMPLES))
    embed.footer = _("Start typing a card name and pick it from the suggestions.")
    return Reply(embeds=[finish(embed)], ephemeral=True)


def finish(embed: Embed) -> Embed:
    """Leave out lines shown earlier, then drop trailing fields (noting it) to fit in 6,000 characters."""
    seen = {line.strip() for line in f"{embed.title or ''}\n{embed.description or ''}".split("\n")}
    for f in list(embed.fields):
        kept = []
        for line in f.value.split("\n"):
            if not line.strip() or line.strip() not in seen:
                seen.add(line.strip())
                kept.append(line)
        f.value = "\n".join(kept)
        if not f.value.strip():
            embed.fields.remove(f)
    note = _("Some details were left out to fit Discord's limits.")
    while len(embed) > message.TOTAL_LIMIT and len(embed.fields) > 1:
        del embed.fields[-1]
        if len(embed) + len(note) + 10 <= message.TOTAL_LIMIT:
            embed.add_field(name="…", value=note)
            break
    if len(embed) > message.TOTAL_LIMIT and embed.description:
        over = len(embed) - message.TOTAL_LIMIT
        embed.description = render.truncate(embed.description, max(1, len(embed.description) - over))
    return embed
