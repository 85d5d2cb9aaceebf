"""Message commands (right-click or long-press a message -> Apps):

- "Check this decklist": the deck check of the list in that message: an attached text file, a public
  Archidekt or Moxfield deck link, or the text itself. When the list names no commander, a form (a modal)
  asks for it (and an optional second commander).
- "Explain card names": one line per `[[Card Name]]` of the message (at most `MENTION_LIMIT`), with the card's
  color identity.

Message commands receive the message they were used on, so no privileged intent is needed. Replies are
public, like the slash commands'; errors are ephemeral, through the tree's error table.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.bot import IdentityBot
from bot.app.decks import check_parsed, deck_check_reply, message_source, read_deck
from bot.app.observe import record
from bot.app.options import CardQuery, card_query_text, read_names_in_players_language
from bot.app.replies import defer_if_slow, send_reply
from bot.app.tree import InputProblem
from bot.cards.model import AmbiguousCard, BadCardName, CardNotFound, ScryfallUnavailable
from bot.cards.names import MAX_INPUT_CHARS, normalize
from bot.deck.parser import ParsedDeck
from bot.deck.sources import FetchedDeck
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
    seen: dict[str, str] = {}
    for match in _MENTION_RE.finditer(text or ""):
        name = " ".join(match.group(1).split())
        key = normalize(name) or name
        if name and key not in seen:
            seen[key] = name
    return list(seen.values())


class CommanderForm(discord.ui.Modal):
    """Asks for the commander of a list that names none; submitting runs the deck check."""

    def __init__(self, cog: MessagesCog, deck: ParsedDeck, fetched: FetchedDeck | None) -> None:
        super().__init__(title=decklinks.commander_modal_title(), timeout=FORM_TIMEOUT)
        self.cog = cog
        self.deck = deck
        self.fetched = fetched
        self.commander: discord.ui.TextInput[CommanderForm] = discord.ui.TextInput(
            label=decklinks.commander_input_label(),
            placeholder=decklinks.commander_input_placeholder(),
            custom_id="commander",
            max_length=MAX_INPUT_CHARS,
            required=True,
        )
        self.partner: discord.ui.TextInput[CommanderForm] = discord.ui.TextInput(
            label=decklinks.partner_input_label(),
            placeholder=decklinks.partner_input_placeholder(),
            custom_id="partner",
            max_length=MAX_INPUT_CHARS,
            required=False,
        )
        self.add_item(self.commander)
        self.add_item(self.partner)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        i18n.set_locale(interaction.locale.value)  # a submitted form is its own interaction (its own task)
        await self.cog.check_with(
            interaction,
            self.deck,
            self.fetched,
            self.commander.value.strip() or None,
            self.partner.value.strip() or None,
        )

    async def on_error(  # type: ignore[override]
        self,
        interaction: discord.Interaction[Any],
        error: Exception,
        /,
    ) -> None:
        await self.cog.bot.tree.answer_error(interaction, error)


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

    # --------------------------------------------------------------------------- Check this decklist
    async def check_decklist(
        self, interaction: discord.Interaction[IdentityBot], message: discord.Message
    ) -> None:
        """Read the message's list (deferring only when that is slow); ask for the commander with a form
        when the list names none, else check it."""
        source = message_source(message)
        deck, fetched = await defer_if_slow(interaction, read_deck(self.bot, source))
        if not deck.commander_entries:
            if interaction.response.is_done():  # deferred for a slow read: a form can no longer be shown
                raise InputProblem(decklinks.no_commander_text(from_message=True))
            await interaction.response.send_modal(CommanderForm(self, deck, fetched))
            return
        await self.check_with(interaction, deck, fetched, None, None)

    async def check_with(
        self,
        interaction: discord.Interaction[Any],
        deck: ParsedDeck,
        fetched: FetchedDeck | None,
        commander: str | None,
        partner: str | None,
    ) -> None:
        """Check `deck` with these commanders for `interaction` (the command, or the submitted form). Errors go
        to the tree's error table; a commander name that needs a pick gets a menu whose pick runs the check
        again with the picked name (`IdentityTree.run_command`, `run_followup` for the form)."""
        options = {
            "commander": CardQuery("commander", commander, True) if commander else None,
            "partner": CardQuery("partner", partner, True) if partner else None,
        }

        async def check(
            again: discord.Interaction[Any], commander: CardQuery | None, partner: CardQuery | None
        ) -> None:
            read_names_in_players_language(again)
            checked = await defer_if_slow(
                again,
                check_parsed(
                    self.bot,
                    deck,
                    fetched,
                    commander.text if commander else None,
                    partner.text if partner else None,
                ),
            )
            await send_reply(again, deck_check_reply(again, self.bot, checked))

        tree = self.bot.tree
        if interaction.type is discord.InteractionType.application_command:
            await tree.run_command(interaction, check, **options)
        else:
            await tree.run_followup(
                interaction,
                CHECK_DECKLIST,
                tree.retry(CHECK_DECKLIST, check, options),
                lambda: check(interaction, **options),
            )

    # --------------------------------------------------------------------------- Explain card names
    async def explain_names(
        self, interaction: discord.Interaction[IdentityBot], message: discord.Message
    ) -> None:
        """One line per `[[Card Name]]` of the message (deferring only when Scryfall must be asked)."""
        names = card_mentions(message.content or "")
        if not names:
            raise InputProblem(choices.no_card_mentions_text())
        shown, left_out = names[:MENTION_LIMIT], max(0, len(names) - MENTION_LIMIT)
        read_names_in_players_language(interaction)
        items = await defer_if_slow(interaction, asyncio.gather(*(self._explain(n) for n in shown)))
        found = [i for i in items if i.card is not None]
        if not found and all(i.problem == "unavailable" for i in items):
            raise ScryfallUnavailable("every name needed Scryfall")
        record(
            interaction,
            Outcome.OK if found else Outcome.NOT_FOUND,
            card=str(found[0].card.get("name")) if found and found[0].card is not None else None,
        )
        await send_reply(interaction, choices.explain_reply(items, left_out=left_out, emoji=self.bot.emoji))

    async def _explain(self, typed: str) -> Explained:
        try:
            found = await self.bot.cards.resolve(card_query_text(typed))
        except BadCardName:
            return Explained(typed, problem="bad_name")
        except AmbiguousCard as exc:
            return Explained(typed, problem="ambiguous", names=exc.candidates)
        except CardNotFound as exc:
            return Explained(typed, problem="not_found", names=exc.suggestions)
        except ScryfallUnavailable:
            return Explained(typed, problem="unavailable")
        try:
            analysis = analyze(found.card)
        except IdentityError:
            return Explained(typed, problem="bad_name")
        return Explained(typed, card=found.card, analysis=analysis, printed=found.printed)


async def setup(bot: IdentityBot) -> None:
    await bot.add_cog(MessagesCog(bot))
