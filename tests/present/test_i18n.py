"""The message catalogs (issue 20): every message the code says (extracted with Babel at test time) and every
command string is translated in every catalog, not fuzzy, with the English placeholders; localized command names
and descriptions keep Discord's rules; the reply locale of one interaction never leaks into another."""

from __future__ import annotations

import asyncio
import re
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from discord import app_commands

import cogs.deck
import cogs.house
import cogs.identity
import cogs.messages
from bot.app.translator import SLASH_NAME_RE, CatalogTranslator
from bot.identity import analyze
from bot.present import embeds, errors, i18n
from tests.shared_data import cards_by_name

ROOT = Path(__file__).parents[2]
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
DISCORD_LOCALES = {locale.value for locale in discord.Locale}


@cache
def code_messages() -> dict[str | tuple[str, ...], str]:
    """Every message `bot/` marks ({msgid or (singular, plural): where}), extracted the way `pybabel extract` does
    (once per process: the tests only read it)."""
    found: dict[str | tuple[str, ...], str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(ROOT / "bot"), method_map=[("**.py", "python")]
    ):
        found.setdefault(message, f"bot/{filename}:{lineno}")
    return found


async def command_strings() -> list[tuple[str, bool]]:
    """Every string discord.py asks the Translator for: (message, is a name) for each command of the cogs."""
    asked: list[tuple[str, bool]] = []

    class Recorder(app_commands.Translator):
        async def translate(
            self,
            string: app_commands.locale_str,
            locale: discord.Locale,
            context: app_commands.TranslationContextTypes,
        ) -> str | None:
            if locale is discord.Locale.german:
                asked.append((string.message, "description" not in context.location.name))
            return None

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    stub: Any = SimpleNamespace()
    commands: list[Any] = [
        *cogs.identity.IdentityCog(stub).__cog_app_commands__,
        *cogs.deck.DeckCog(stub).__cog_app_commands__,
        *cogs.house.HouseCog(stub).__cog_app_commands__,
        *cogs.messages.MessagesCog(stub).menus,
    ]
    for command in commands:
        await command.get_translated_payload(tree, Recorder())
    return list(dict.fromkeys(asked))


def catalog(locale: str) -> Catalog:
    with (ROOT / "bot" / "locales" / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=locale)


def names(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_every_message_the_code_says_is_translated_with_its_placeholders(locale: str) -> None:
    po = catalog(locale)
    problems = []
    for msgid, where in code_messages().items():
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        entry = po.get(key)
        if (
            entry is None
            or entry.fuzzy
            or not entry.string
            or not all(entry.string if isinstance(entry.string, tuple) else [entry.string])
        ):
            problems.append(f"{where}: untranslated {key!r}")
            continue
        english = set().union(*(names(m) for m in msgid)) if isinstance(msgid, tuple) else names(msgid)
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if isinstance(msgid, tuple) != isinstance(entry.string, tuple):
            problems.append(f"{where}: {key!r} plural forms differ from the code's")
        elif set().union(*(names(f) for f in forms)) != english or any(names(f) - english for f in forms):
            problems.append(f"{where}: {key!r} placeholders {english} vs {[names(f) for f in forms]}")
    assert problems == []


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
async def test_every_command_string_is_translated(locale: str) -> None:
    po = catalog(locale)
    missing = []
    for text, is_name in await command_strings():
        entry = po.get(text, context="command") if is_name else po.get(text)
        if entry is None or entry.fuzzy or not entry.string:
            missing.append(text)
    assert missing == []


def test_a_catalog_that_lacks_a_message_fails_the_check() -> None:
    """The check above can fail: a message the code says that no catalog has is reported."""
    po = catalog("de")
    assert po.get("This message is not in any catalog") is None
    assert "{card} fits" in code_messages()


async def test_localized_command_names_and_descriptions_keep_discords_rules() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    stub: Any = SimpleNamespace()
    payloads = [
        await c.get_translated_payload(tree, CatalogTranslator())
        for c in [
            *cogs.identity.IdentityCog(stub).__cog_app_commands__,
            *cogs.deck.DeckCog(stub).__cog_app_commands__,
            *cogs.house.HouseCog(stub).__cog_app_commands__,
            *cogs.messages.MessagesCog(stub).menus,
        ]
    ]
    problems: list[str] = []
    seen: set[str] = set()

    def check(what: str, localized: dict[str, str] | None, *, name: bool, slash: bool, limit: int) -> None:
        for locale, text in (localized or {}).items():
            seen.add(locale)
            if locale not in DISCORD_LOCALES:
                problems.append(f"{what}: unknown locale {locale}")
            if name and slash and not (SLASH_NAME_RE.fullmatch(text) and text == text.lower()):
                problems.append(f"{what} [{locale}]: {text!r} is not a valid name")
            if not 1 <= len(text) <= limit:
                problems.append(f"{what} [{locale}]: {len(text)} characters")

    for p in payloads:
        slash = p.get("type", 1) == 1
        check(p["name"], p.get("name_localizations"), name=True, slash=slash, limit=32)
        check(p["name"], p.get("description_localizations"), name=False, slash=slash, limit=100)
        for option in p.get("options", []):
            check(
                f"{p['name']} {option['name']}",
                option.get("name_localizations"),
                name=True,
                slash=True,
                limit=32,
            )
            check(
                f"{p['name']} {option['name']}",
                option.get("description_localizations"),
                name=False,
                slash=True,
                limit=100,
            )
            for choice in option.get("choices", []):
                check(
                    f"choice {choice['name']}",
                    choice.get("name_localizations"),
                    name=False,
                    slash=True,
                    limit=100,
                )
    for (
        locale
    ) in seen:  # Discord refuses two commands (of one type), or two options of a command, named alike
        for group in [[p for p in payloads if p.get("type", 1) == kind] for kind in (1, 3)] + [
            p.get("options", []) for p in payloads
        ]:
            localized = [(item.get("name_localizations") or {}).get(locale, item["name"]) for item in group]
            if len(set(localized)) != len(localized):
                problems.append(f"[{locale}] names repeat: {localized}")
    assert problems == []
    assert {"de", "fr", "es-ES", "es-419", "it", "pt-BR", "ja"} <= seen
    identity = next(p for p in payloads if p["name"] == "identity")
    assert (
        identity["name_localizations"]["de"] == "identität" and "en-US" not in identity["name_localizations"]
    )


def test_discord_locales_map_to_catalogs() -> None:
    assert [
        i18n.catalog_locale(x)
        for x in (
            "de",
            "fr",
            "es-ES",
            "es-419",
            "it",
            "pt-BR",
            "ja",
            "en-US",
            "en-GB",
            "ko",
            "zh-CN",
            "pt",
            None,
        )
    ] == ["de", "fr", "es", "es", "it", "pt_BR", "ja", "en", "en", "en", "en", "en", "en"]


def test_the_cli_and_anything_without_a_locale_speaks_english() -> None:
    assert errors.error_text().startswith("Sorry")


async def test_concurrent_interactions_keep_their_own_locale() -> None:
    """Each interaction runs in its own task (discord.py's tree does); a locale set in one never reaches another,
    even when they interleave: both set theirs, then both word their reply."""
    card = cards_by_name()["Fires of Undeath"]
    both_set = asyncio.Barrier(2)

    async def interaction(locale: str) -> str:
        i18n.set_locale(locale)
        await both_set.wait()
        return embeds.identity_reply(analyze(card), card).embeds[0].description or ""

    german, japanese = await asyncio.gather(
        asyncio.create_task(interaction("de")), asyncio.create_task(interaction("ja"))
    )
    assert "Farbidentität" in german and "固有色" not in german
    assert "固有色" in japanese and "Farbidentität" not in japanese
    assert errors.error_text().startswith("Sorry")  # the test's own task kept English


@pytest.mark.parametrize("locale", [i18n.ENGLISH, *i18n.SUPPORTED])
def test_help_names_every_command_and_what_the_bot_judges(locale: str) -> None:
    """/help names every slash command, each /house subcommand, /deckcheck's three ways in (file, list, link),
    both message commands, Game Changers and brackets, in the player's language (the names the client shows)."""
    stub: Any = SimpleNamespace()
    slash = [
        *cogs.identity.IdentityCog(stub).__cog_app_commands__,
        *cogs.deck.DeckCog(stub).__cog_app_commands__,
        *cogs.house.HouseCog(stub).__cog_app_commands__,
    ]
    with i18n.using(locale):
        shown = "\n".join(f.value for f in embeds.help_reply().embeds[0].fields)
        wanted = [f"/{i18n.option_name(c.name)}" for c in slash]
        wanted += [
            f"/{i18n.option_name(g.name)} {i18n.option_name(c.name)}"
            for g in slash
            if isinstance(g, app_commands.Group)
            for c in g.commands
        ]
        wanted += [i18n.pgettext("command", m.name) for m in cogs.messages.MessagesCog(stub).menus]
        wanted += [i18n.option_name(o) for o in ("decklist", "list", "url")]
        wanted += ["Archidekt", "Moxfield", "Spellbook", i18n.option_name("bracket").split()[0]]
    assert [w for w in wanted if w not in shown] == []
    assert "Game Changer" in shown or "ゲームチェンジャー" in shown
    assert len(wanted) >= 15
