"""Words for where a decklist comes from: deck links (`bot.deck.sources.DeckSourceError` codes), the options of
/deckcheck, the "Check this decklist" message command and its commander modal. No discord.py here."""

from __future__ import annotations

from typing import NamedTuple

from bot.deck.sources import Site
from bot.present import render
from bot.present.errors import wait_words
from bot.present.i18n import N_, _, and_list, number, option_name

FORM_LABEL_LIMIT = 45

_LINK_ERRORS = {
    "malformed_url": N_(
        "That {site} link doesn't point at a deck. Open the deck on {site} and copy the address from "
        "your browser (it looks like {example})."
    ),
    "private": N_(
        "That {site} deck is private, so I can't read it. Make it public (or unlisted) on {site}, {paste}."
    ),
    "not_found": N_(
        "I couldn't find that deck on {site}. Check the link; a deleted deck, or a private one "
        "{site} hides completely, looks like this too."
    ),
    "not_a_deck": N_("{site} answered, but not with a deck I can read. Please try again later, {paste}."),
    "too_large": N_(
        "That {site} deck is too large for me to read. Please paste the list with `{list}:` (or attach "
        "it as a file with `{decklist}:`)."
    ),
    "rate_limited": N_("{site} asked me to slow down. Please try again {when}, {paste}."),
    "busy": N_("I'm reading many deck links right now. Please try again {when}, {paste}."),
    "unavailable": N_(
        "{site} isn't answering right now (or took too long). Please try again {when}, {paste}."
    ),
    "refused": N_(
        "{site} refused an automatic read (its anti-bot protection). Export the list there ({export}) and "
        "paste it with `{list}:` (or attach it as a file with `{decklist}:`)."
    ),
    "archetype": N_(
        "That {site} link is an archetype, a summary of many decks, not a deck. Open one of its decks and "
        "use that deck's link, {paste}."
    ),
}
# Per site: a deck link as players paste it, and where the site exports a list (the site's own menu words).
_EXAMPLES = {
    "Archidekt": ("https://archidekt.com/decks/123456", "Export → Text"), "Moxfield": ("https://www.moxfield.com/decks/…", "More → Export"),
    "TappedOut": ("https://tappedout.net/mtg-decks/…/", "Export → CSV"), "MTGGoldfish": ("https://www.mtggoldfish.com/deck/1234567", "Download → Arena"),
    "Deckstats": ("https://deckstats.net/decks/12345/678901-…", "Export → Arena"), "Scryfall": ("https://scryfall.com/@…/decks/…", "Export → Download as CSV"),
    "Aetherhub": ("https://aetherhub.com/Deck/…", "Export → MTGA"), "EDHREC": ("https://edhrec.com/average-decks/…", "Export → Text"),
    "TCGplayer": ("https://infinite.tcgplayer.com/magic-the-gathering/deck/…/123456", "Export → Arena"),
}  # fmt: skip


def _sites() -> str:
    return and_list((site.label for site in Site), style="or")


def deck_link_error_text(code: str, site: str | None = None, retry_after: int | None = None) -> str:
    """Why a deck link could not be read (`code`: a `DeckSourceErrorCode` value), and what to do."""
    opts = {"list": option_name("list"), "decklist": option_name("decklist")}
    paste = _("or paste the list with `{list}:` (or attach it as a file with `{decklist}:`)").format(**opts)
    example, export = _EXAMPLES.get(site or "", _EXAMPLES["Moxfield"])
    when = wait_words(retry_after, _("in a few seconds") if code == "busy" else None, about=False)
    text = _(_LINK_ERRORS.get(code, _LINK_ERRORS["unavailable"]))
    site = site or _("The deck site")
    return text.format(site=site, paste=paste, example=example, export=export, when=when, **opts)


def not_a_deck_link_text(text: str) -> str:
    return _(
        "\u201c{text}\u201d isn't a deck link I can read. `{url}:` takes the address of a public {sites} "
        "deck, e.g. https://archidekt.com/decks/123456 or https://www.moxfield.com/decks/<id>."
    ).format(text=render.echo(text, 80), url=option_name("url"), sites=_sites())


def deck_source_text(problem: str, *, size: int = 0, limit: int = 0) -> str:
    """`problem`: "none", "several" or "file_too_big"."""
    options = {"decklist": option_name("decklist"), "list": option_name("list"), "url": option_name("url")}
    if problem == "several":
        return _(
            "Please give the decklist one way only: a file (`{decklist}:`), pasted text (`{list}:`) or a deck "
            "link (`{url}:`)."
        ).format(**options)
    if problem == "file_too_big":
        return _(
            "That file is {size} bytes; a decklist file can be at most {limit} KB. "
            "Please upload just the list."
        ).format(size=number(size), limit=limit // 1024)
    return _(
        "Please give the decklist: attach it as a text file (`{decklist}:`), paste it (`{list}:`) or give a "
        "public {sites} deck link (`{url}:`). Exports from Moxfield, Archidekt, Arena or MTGO work as they "
        "are."
    ).format(sites=_sites(), **options)


def no_commander_text(*, from_message: bool = False) -> str:
    marks = _("a `Commander` section, a `Commander: Name` line or `*CMDR*` after the card")
    text = _(
        "That list doesn't say who its commander is: give it with `{commander}:`, or mark it in the list "
        "({marks})."
    )
    if from_message:
        text = _(
            "That list doesn't say who its commander is. Mark it in the list ({marks}), or use "
            "`/{command}` with `{commander}:`."
        )
    return text.format(marks=marks, command=option_name("deckcheck"), commander=option_name("commander"))


def deck_from_link_line(name: str | None, site: str, url: str, owner: str | None = None) -> str:
    """The reply's first line: the deck, its owner and site; an EDHREC average deck says it is one."""
    title = " ".join((name or "").split())
    title = render.escape(render.truncate(title, 100)) if title else _("A deck")
    owner = render.escape(render.truncate(" ".join(owner.split()), 60)) if owner else None
    line = _("**{title}** by {owner} on {site}: <{url}>") if owner else _("**{title}** on {site}: <{url}>")
    if site == Site.EDHREC.label:
        line = _("**{title}**: EDHREC's average list, not a player's deck: <{url}>")
    return line.format(title=title, owner=owner, site=site, url=url)


def no_decklist_in_message_text() -> str:
    return _(
        'I found no decklist in that message. "{menu}" reads a list posted as text (one card per line), '
        "an attached text file, or a public {sites} deck link."
    ).format(menu=option_name("Check this decklist"), sites=_sites())


class CommanderFormWords(NamedTuple):
    title: str
    label: str
    placeholder: str
    partner_label: str
    partner_placeholder: str


def commander_form_words() -> CommanderFormWords:
    """Title and inputs of the commander modal; Discord caps titles and input labels at 45 characters."""
    return CommanderFormWords(
        render.truncate(_("Who is the commander?"), FORM_LABEL_LIMIT),
        render.truncate(_("Commander"), FORM_LABEL_LIMIT),
        _("e.g. Kumano, Master Yamabushi (a part of the name works)"),
        render.truncate(_("Second commander (optional)"), FORM_LABEL_LIMIT),
        _("Partner, Background, Doctor's companion..."),
    )
