"""Message commands (they receive the message, so need no intent): "Check this decklist" (a form asks for a
commander the list does not name) and "Explain card names" (one line per `[[Card Name]]`)."""

from __future__ import annotations

import asyncio
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.bot import IdentityBot
from bot.app.context import Interaction, record
from bot.app.decks import ReadDeck, check_deck, message_source, read_deck
from bot.app.options import CardQuery, read_names_in_players_language
from bot.app.replies import defer_if_slow, send_reply
from bot.app.tree import InputProblem
from bot.cards.model import AmbiguousCard, BadCardName, CardNotFound, ScryfallUnavailable
from bot.cards.names import MAX_INPUT_CHARS, normalize
from bot.deck.parser import card_query_text
from bot.identity import analyze
from bot.identity.model import IdentityError
from bot.ops.metrics import Outcome
from bot.present import choices, decklinks, i18n
from bot.present.choices import MENTION_LIMIT, Explained

CHECK_DECKLIST = "Check this decklist"
EXPLAIN_NAMES = "Explain card names"
FORM_TIMEOUT = 600.0  # seconds the commander form waits to be submitted

_MENTION_RE = re.compile(rf"\[\[([^\[\]\n]{{1,{MAX_INPUT_CHARS}}})\]\]")


def card_mentions(text: str) -> list[str]:
    """The `[[Card Name]]`s of a text, in order, each once (compared as names are matched)."""
    seen: dict[str, str] = {}  # key -> the name as first written
    for match in _MENTION_RE.finditer(text):
        if name := " ".join(match.group(1).split()):
            seen.setdefault(normalize(name) or name, name)
    return list(seen.values())


class CommanderForm(discord.ui.Modal):
    """Asks for the commander (and an optional partner) of a list that names none; submitting checks it."""

    def __init__(self, bot: IdentityBot, deck: ReadDeck) -> None:
        words = decklinks.commander_form_words()
        super().__init__(title=words.title, timeout=FORM_TIMEOUT)
        self.bot, self.deck = bot, deck
        self.fields: dict[str, discord.ui.TextInput[CommanderForm]] = {
            "commander": discord.ui.TextInput(label=words.label, placeholder=words.placeholder),
            "partner": discord.ui.TextInput(
                label=words.partner_label, placeholder=words.partner_placeholder, required=False
            ),
        }
        for name, field in self.fields.items():
            field.custom_id = name
            field.max_length = MAX_INPUT_CHARS
            self.add_item(field)

    async def on_submit(self, interaction: Interaction, /) -> None:
        i18n.set_locale(interaction.locale.value)  # a submitted form is its own interaction (its own task)
        options = {
            name: CardQuery(name, typed, True) if (typed := field.value.strip()) else None
            for name, field in self.fields.items()
        }
        await self.bot.tree.run_followup(
            interaction, CHECK_DECKLIST, check_deck, {"deck": self.deck, **options}
        )


class MessagesCog(commands.Cog, name="Messages"):
    def __init__(self, bot: IdentityBot) -> None:
        self.bot = bot
        self.menus = [
            app_commands.ContextMenu(name=CHECK_DECKLIST, callback=self.check_decklist),
            app_commands.ContextMenu(name=EXPLAIN_NAMES, callback=self.explain_names),
        ]

    async def cog_load(self) -> None:
        for menu in self.menus:
            self.bot.tree.add_command(menu)

    async def cog_unload(self) -> None:
        for menu in self.menus:
            self.bot.tree.remove_command(menu.name, type=menu.type)

    async def check_decklist(self, interaction: Interaction, message: discord.Message) -> None:
        """Check the message's list, asking for the commander with a form when the list names none."""
        deck = await defer_if_slow(interaction, read_deck(self.bot, await message_source(message)))
        if deck[0].commander_entries:
            await self.bot.tree.run_command(interaction, check_deck, deck=deck, commander=None, partner=None)
        elif interaction.response.is_done():  # deferred for a slow read: a form can no longer be shown
            raise InputProblem(decklinks.no_commander_text(from_message=True))
        else:
            await interaction.response.send_modal(CommanderForm(self.bot, deck))

    async def explain_names(self, interaction: Interaction, message: discord.Message) -> None:
        if not (names := card_mentions(message.content or "")):
            raise InputProblem(choices.no_card_mentions_text())
        shown, left_out = names[:MENTION_LIMIT], max(0, len(names) - MENTION_LIMIT)
        read_names_in_players_language(interaction)
        items = await defer_if_slow(interaction, asyncio.gather(*(self._explain(n) for n in shown)))
        found = [i.card for i in items if i.card is not None]
        if not found and all(i.problem == "unavailable" for i in items):
            raise ScryfallUnavailable("every name needed Scryfall")
        card = str(found[0].get("name")) if found else None
        record(interaction, Outcome.OK if found else Outcome.NOT_FOUND, card=card)
        await send_reply(interaction, choices.explain_reply(items, left_out=left_out, emoji=self.bot.emoji))

    async def _explain(self, typed: str) -> Explained:
        try:
            query = card_query_text(typed)
            found = await self.bot.cards.resolve(query)
            return Explained(typed, card=found.card, analysis=analyze(found.card), printed=found.typed(query))
        except (BadCardName, IdentityError):
            return Explained(typed, problem="bad_name")
        except AmbiguousCard as exc:
            return Explained(typed, problem="ambiguous", names=exc.candidates)
        except CardNotFound as exc:
            return Explained(typed, problem="not_found", names=exc.suggestions)
        except ScryfallUnavailable:
            return Explained(typed, problem="unavailable")


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(MessagesCog(bot))
