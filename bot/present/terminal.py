"""The bot's replies as text for a terminal (`python -m bot identity` and `fits`), and the words of those
commands' errors. A reply is the one the bot sends to Discord, its markdown taken out (or bold on a terminal
that shows it)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.present import render
from bot.present.i18n import _
from bot.present.message import Embed, Reply

_MARKUP_RE = re.compile(r"\\(.)|\*\*|@\u200b", re.DOTALL)  # an escaped character, bold, a defused mention
BOLD, RESET = "\x1b[1m", "\x1b[0m"
INDENT = "  "


def plain_text(text: str, *, bold: bool = False) -> str:
    """Discord markdown as a terminal shows it: escapes undone, `**bold**` as ANSI bold (`bold`) or plain."""
    opened = False

    def one(match: re.Match[str]) -> str:
        nonlocal opened
        if match.group(1) is not None:
            return match.group(1)
        if match.group(0) == "**":
            opened = not opened
            return (BOLD if opened else RESET) if bold else ""
        return "@"

    out = _MARKUP_RE.sub(one, text)
    return out + RESET if bold and opened else out


def _embed_lines(embed: Embed, bold: bool) -> list[str]:
    out = [plain_text(embed.title, bold=bold)] if embed.title else []
    if embed.description:
        out += plain_text(embed.description, bold=bold).split("\n")
    if embed.fields:
        out.append("")
    for field in embed.fields:  # inline fields (short, side by side on Discord) on one line each
        name, lines = plain_text(field.name, bold=bold), plain_text(field.value, bold=bold).split("\n")
        if field.inline and len(lines) == 1:
            out.append(render.colon(name, lines[0]))
        else:
            out += [name, *(INDENT + line for line in lines)]
    if footer := [part for part in (embed.footer, embed.url) if part]:
        out += ["", " \u00b7 ".join(footer)]
    return out


def reply_text(reply: Reply, *, bold: bool = False) -> str:
    """The reply as lines of text, its embeds one after the other; `bold` for ANSI bold (a terminal)."""
    blocks = [plain_text(reply.content, bold=bold).split("\n")] if reply.content else []
    blocks += [_embed_lines(embed, bold) for embed in reply.embeds]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def _typed(query: str) -> str:
    return repr(" ".join(query.split())[: render.MAX_ECHO])


def not_a_card_text(query: str, suggestions: Sequence[str], option: str | None = None) -> str:
    """`'Lightnig Boltx' is not a card I know; did you mean Lightning Bolt?` (`option`: `--commander`)."""
    text = _("{option} {query} is not a card I know") if option else _("{query} is not a card I know")
    text = text.format(option=option, query=_typed(query))
    if suggestions:
        text += _("; did you mean {names}?").format(names=", ".join(suggestions))
    return text


def several_cards_text(query: str, candidates: Sequence[str], option: str | None = None) -> str:
    """`'path' matches several cards: Path to Exile, ...; give more of the name`."""
    text = _("{option} {query} matches several cards") if option else _("{query} matches several cards")
    text = text.format(option=option, query=_typed(query))
    return (render.colon(text, ", ".join(candidates)) if candidates else text) + _("; give more of the name")


def unavailable_text(reason: str, *, local_data: bool) -> str:
    """Scryfall unreachable, the local data without an answer: try later, or fill the local data first."""
    if local_data:
        text = _(
            "Scryfall is not answering ({reason}) and the local card data could not answer either; try again "
            "in a minute"
        )
    else:
        text = _(
            "Scryfall is not answering ({reason}) and there is no local card data to answer from: run "
            "`python -m bot sync-cards` to download it (or `python -m bot sync-cards --file FILE` to import a "
            "file you have), then try again"
        )
    return text.format(reason=reason)


def chosen_color_text(flag: str, commander: str | None) -> str:
    """A chosen color (`--color`, `--partner-color`) given to a commander that chooses none."""
    text = _(
        "{option} is for a commander that chooses a color before the game begins (CR 903.4b), such as The "
        "Prismatic Piper or Clara Oswald; {card} doesn\u2019t choose one"
    )
    if commander is None:
        text = _("{option} is the color your partner chooses before the game; give {partner} too")
    return text.format(option=flag, partner="--partner", card=commander)
