"""The reply's language: gettext catalogs (`bot/locales/`, compiled in memory by Babel) and the running
interaction's locale in a `ContextVar` (one asyncio task per interaction; CLI and tests speak English)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Literal

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"
ENGLISH = "en"
SUPPORTED: tuple[str, ...] = ("de", "es", "fr", "it", "ja", "pt_BR")  # besides English

_locale: ContextVar[str] = ContextVar("reply_locale", default=ENGLISH)
_FILLED = re.compile(r"(?i)(?<![^\W\d_])(de|le|la) (?=\{(\w+)\})|\{(\w+)\}\u30fb")
_VOWEL = re.compile(r"(?i)[aeiouàâäéèêëîïôöùûüœæ]|h(?!antise|âte|aut|éros|ors)")  # h aspiré: no elision
_KATAKANA_END = re.compile(r"[\u30a1-\u30fa\u30fc]$")


def _typeset(locale: str, values: dict[str, Any], m: re.Match[str]) -> str:
    """As cards print it: fr "coût d’équipement" (elision), ja "変異コスト" but "フラッシュバック・コスト"."""
    if m[1] and locale == "fr" and _VOWEL.match(str(values.get(m[2], ""))):
        return m[1][0] + "\u2019"
    if m[3] and locale == "ja" and not _KATAKANA_END.search(str(values.get(m[3], ""))):
        return "{" + m[3] + "}"
    return m[0]


class Text(str):
    """A catalog message whose `format` typesets what it fills in by the reply's language (`_typeset`)."""

    def format(self, /, *args: Any, **kwargs: Any) -> str:
        return _FILLED.sub(partial(_typeset, _locale.get(), kwargs), self).format(*args, **kwargs)


def catalog_locale(discord_locale: str | None) -> str:
    """The catalog for a Discord locale ("pt-BR" -> "pt_BR", "es-419" -> "es"), else English."""
    exact = (discord_locale or "").replace("-", "_")
    base = exact.split("_")[0]
    return exact if exact in SUPPORTED else base if base in SUPPORTED else ENGLISH


def set_locale(discord_locale: str | None) -> None:
    """Reply in this Discord locale for the rest of the current task (one interaction)."""
    _locale.set(catalog_locale(discord_locale))


def current_locale() -> str:
    return _locale.get()


@contextmanager
def using(locale: str | None) -> Iterator[None]:
    """Word replies in this locale (a Discord one, "pt-BR", or a catalog's, "pt_BR") inside the block."""
    token = _locale.set(catalog_locale(locale))
    try:
        yield
    finally:
        _locale.reset(token)


@lru_cache(maxsize=len(SUPPORTED) + 1)
def translations(locale: str) -> NullTranslations:
    """The catalog of a locale, read from its `.po` file once (fuzzy entries left out)."""
    path = LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    if locale == ENGLISH or not path.is_file():
        return NullTranslations()
    compiled = io.BytesIO()
    with path.open("rb") as f:
        write_mo(compiled, read_po(f, locale=locale, domain=DOMAIN, ignore_obsolete=True))
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def _(message: str) -> str:
    return Text(translations(_locale.get()).gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    return Text(translations(_locale.get()).ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """`message` of a given context (command and option names) in the current locale."""
    return Text(translations(_locale.get()).pgettext(context, message))


def option_name(name: str) -> str:
    """A command or option name (`color`, `partner_color`) as the player's Discord client shows it."""
    return pgettext("command", name)


def N_(message: str) -> str:
    return message


_babel = lru_cache(Locale.parse)  # babel's locale data, parsed once (each parse costs a quarter of a reply)


def and_list(items: Iterable[str], style: Literal["standard", "or"] = "standard") -> str:
    """'a, b and c' in the current locale (`style="or"`: 'a, b or c'); English as en_GB: no serial comma."""
    locale = _locale.get()
    return _listed(tuple(items), style, "en_GB" if locale == ENGLISH else locale)


@lru_cache(maxsize=1024)  # the same few color and name lists, over and over
def _listed(items: tuple[str, ...], style: Literal["standard", "or"], locale: str) -> str:
    return str(format_list(list(items), style=style, locale=_babel(locale)))


def number(n: int) -> str:
    """A whole number with the current locale's digit grouping ('65,536', '65.536')."""
    return format_decimal(n, locale=_babel(_locale.get()))
