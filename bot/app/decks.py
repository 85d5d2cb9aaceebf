"""The deck check's work and its list's source: pasted text, a file, a deck site's link, or a
message. What can be refused without the network is refused first, with no deferral."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

import discord

from bot.app.context import App, Interaction, app_of, record_found
from bot.app.house import rules_here
from bot.app.options import CardQuery, read_names_in_players_language
from bot.app.replies import defer_if_slow, send_reply
from bot.app.tree import InputProblem
from bot.deck.parser import MAX_BYTES, DeckInputError, ParsedDeck, decode, parse
from bot.deck.runner import check_decklist, off_loop
from bot.deck.sources import DeckLink, DeckSourceError, FetchedDeck, Site, parse_deck_url
from bot.present import decklinks, errors
from bot.present.deck_report import deck_reply
from bot.present.embeds import stale_note

#: Attachments read as decklists: text files by type or by the extensions deck sites export.
TEXT_SUFFIXES = (".txt", ".text", ".dck", ".dek", ".dec", ".csv", ".md", ".mwdeck", ".cod")
_BLOCK_RE = re.compile(r"```(?:[\w+-]*[ \t]*\n)?(.*?)```", re.DOTALL)
_FENCE_RE = re.compile(r"^[ \t]*```[\w+-]*[ \t]*$|^[ \t]*```|```[ \t]*$", re.MULTILINE)
_LINK_TRIM = "<>()[]{}.,;:!?\"'"
_SPACE_RE = re.compile(r"(\s+)")
_COUNT_RE = re.compile(r"^[ \t]*+(?:[0-9]{1,3}(?:[ \t]*+[xX])?|[xX][0-9]{1,3})[ \t]++\S", re.MULTILINE)
MIN_UNCOUNTED_ENTRIES = 5  # a message of card names without counts reads as a list from this many on


#: Where one decklist comes from: pasted text, an attached file, or a deck link.
DeckSource = str | discord.Attachment | DeckLink


def _checked_size(attachment: discord.Attachment) -> discord.Attachment:
    if attachment.size > MAX_BYTES:
        raise InputProblem(decklinks.deck_source_text("file_too_big", size=attachment.size, limit=MAX_BYTES))
    return attachment


def slash_source(decklist: discord.Attachment | None, pasted: str | None, url: str | None) -> DeckSource:
    """The one list the /deckcheck options give; InputProblem for none, several, too big a file, no link."""
    pasted = pasted if pasted and pasted.strip() else None
    url = url.strip() if url and url.strip() else None
    if not (given := [v for v in (decklist, pasted, url) if v is not None]):
        raise InputProblem(decklinks.deck_source_text("none"))
    if len(given) > 1:
        raise InputProblem(decklinks.deck_source_text("several"))
    if decklist is not None:
        return _checked_size(decklist)
    if url is None:
        return given[0]
    if (link := parse_deck_url(url)) is None:
        raise InputProblem(decklinks.not_a_deck_link_text(url))
    return link


def links_in(text: str) -> tuple[DeckLink | None, DeckSourceError | None, str]:
    """A message's first deck link, the refusal of its first site URL naming no deck, the rest of the text."""
    refused: DeckSourceError | None = None
    found: DeckLink | None = None
    parts = _SPACE_RE.split(text)  # words at even places, the spaces and line breaks between them kept
    for i in range(0, len(parts), 2):
        token = parts[i].strip(_LINK_TRIM)
        if not any(site.value in token.lower() for site in Site):
            continue
        try:
            if (link := parse_deck_url(token)) is None:
                continue
            found = found or link
        except DeckSourceError as exc:
            refused = refused or exc
        parts[i] = ""
    return found, refused, "".join(parts)


def looks_like_a_list(text: str) -> bool:
    """A count-led line, a marked commander, five entries, or a text the parser refuses (to show why)."""
    if not text.strip():
        return False
    if _COUNT_RE.search(text):
        return True
    try:
        parsed = parse(text)
    except DeckInputError:
        return True
    return bool(parsed.commander_entries) or len(parsed.entries) >= MIN_UNCOUNTED_ENTRIES


def without_fences(text: str) -> str:
    """The inside of the text's ```code blocks``` (people wrap lists in them), else the text unfenced."""
    blocks = [m.group(1) for m in _BLOCK_RE.finditer(text)]
    return "\n".join(blocks) if blocks else _FENCE_RE.sub("", text)


async def message_source(message: discord.Message) -> DeckSource:
    """A message's decklist: an attached text file, else a deck link in its text, else its text."""
    for attachment in message.attachments:
        kind = (attachment.content_type or "").split(";")[0].strip().lower()
        if kind.startswith("text/") or attachment.filename.lower().endswith(TEXT_SUFFIXES):
            return _checked_size(attachment)
    link, refused, rest = links_in(message.content)
    if link is not None:
        return link
    if await off_loop(partial(looks_like_a_list, without_fences(rest))):
        return without_fences(message.content)
    if refused is not None:
        raise refused
    raise InputProblem(decklinks.no_decklist_in_message_text())


#: A list read (`read_deck`): the parsed deck, and the fetched deck for a link.
ReadDeck = tuple[ParsedDeck, FetchedDeck | None]


async def read_deck(bot: App, source: DeckSource) -> ReadDeck:
    """The list of `source`; DeckInputError, InputProblem (file unreadable) or DeckSourceError (link)."""
    if isinstance(source, DeckLink):
        fetched = await bot.deck_sites.fetch(source)
        return fetched.deck, fetched
    if isinstance(source, discord.Attachment):
        try:
            data = await source.read()
        except discord.HTTPException as exc:
            raise InputProblem(errors.attachment_unreadable_text()) from exc
        return await off_loop(lambda: parse(decode(data), filename=source.filename)), None
    return await off_loop(partial(parse, source)), None


async def check_deck(
    interaction: Interaction,
    deck: DeckSource | ReadDeck,
    commander: CardQuery | None,
    partner: CardQuery | None,
    chosen: Sequence[str] = (),
) -> None:
    """Read the list (unless read), check it, reply: /deckcheck, the message command, its form, picks."""
    bot = app_of(interaction)
    read_names_in_players_language(interaction)
    if not isinstance(deck, tuple):
        deck = await defer_if_slow(interaction, read_deck(bot, deck))
    parsed, fetched = deck
    names = (commander.text if commander else None, partner.text if partner else None)
    house = await rules_here(interaction)  # read once for the whole list
    check = check_decklist(bot.cards, parsed, *names, chosen=chosen, house=house, combos=bot.combos)
    report, resolved = await defer_if_slow(interaction, check)  # one deferral budget for both steps
    record_found(interaction, resolved, card=" + ".join(report.commanders) or None)
    quoted = {p.card for p in report.problems if p.analysis is not None and p.outside}  # cards with evidence
    quoted |= {f.name for f in report.bracket.flagged}  # and with a bracket guideline's line
    printed = await bot.cards.printed_texts(r.card for r in resolved if r.name in quoted)
    reply = deck_reply(report, emoji=bot.emoji, stale=stale_note(resolved), printed=printed)
    if fetched is not None:
        line = decklinks.deck_from_link_line(fetched.name, fetched.site.label, fetched.url, fetched.owner)
        reply.content = f"{line}\n{reply.content}" if reply.content else line
    await send_reply(interaction, reply)
