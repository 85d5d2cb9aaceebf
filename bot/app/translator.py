"""Command, option and choice names in the player's language from the catalogs (gettext context "command");
a translation Discord would refuse is left out, so one bad name never rejects the whole sync."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import TranslationContextTypes, locale_str

from bot.present import i18n

# Discord's rule for slash command and option names: \w (letters, digits of every script, `_`), plus the
# Devanagari and Thai blocks whole (their vowel signs are no \w).
SLASH_NAME_RE = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
_NAMES = (Where.command_name, Where.group_name, Where.parameter_name)  # at most 32 characters


def acceptable(text: str, where: Where, *, slash: bool = True) -> bool:
    """Whether Discord accepts `text` as a localization at this place."""
    if where in _NAMES and slash:
        return bool(SLASH_NAME_RE.fullmatch(text)) and text == text.lower()
    return 1 <= len(text) <= (32 if where in _NAMES else 100) and text == text.strip()


class CatalogTranslator(app_commands.Translator):
    """Localizes every command string a catalog translates; English and unknown locales keep the original."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        if (lang := i18n.catalog_locale(locale.value)) == i18n.ENGLISH:
            return None
        message = string.message
        with i18n.using(lang):
            named = context.location in (*_NAMES, Where.choice_name)
            text = i18n.pgettext("command", message) if named else i18n._(message)
        slash = not isinstance(context.data, app_commands.ContextMenu)
        return text if text != message and acceptable(text, context.location, slash=slash) else None
