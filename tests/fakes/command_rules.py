"""Discord's rules for application commands the fake Discord enforces on a sync (PUT .../commands): names,
descriptions, options, installation and interaction contexts, and localizations (`name_localizations`,
`description_localizations`), as Discord's OpenAPI spec and docs state them. `sync_problems` returns each
problem with its place in the body; `form_errors` nests them as Discord's 50035 answer does."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import regex

from tests.fakes.discord_rules import (
    BOT_DM_CONTEXT,
    CHAT_INPUT,
    COMMAND_LIMITS,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    MESSAGE_COMMAND,
    PRIVATE_CHANNEL_CONTEXT,
    USER_COMMAND,
    USER_INSTALL,
)

# Discord's locales: the `AvailableLocalesEnum` of its OpenAPI spec (discord/discord-api-spec), which is the
# documented Locale table plus "ar" and "he"; `name_localizations`/`description_localizations` are keyed by them.
LOCALES = frozenset(
    {
        "ar",
        "bg",
        "cs",
        "da",
        "de",
        "el",
        "en-GB",
        "en-US",
        "es-419",
        "es-ES",
        "fi",
        "fr",
        "he",
        "hi",
        "hr",
        "hu",
        "id",
        "it",
        "ja",
        "ko",
        "lt",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "ru",
        "sv-SE",
        "th",
        "tr",
        "uk",
        "vi",
        "zh-CN",
        "zh-TW",
    }
)
# Discord's rule for slash command and option names (and their localizations), as its docs write it
SLASH_NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
Path = tuple[str, ...]
FormProblem = tuple[Path, str, str]  # where in the body (Discord's nested error keys), error code, message


def _command_problems(
    command: dict[str, Any], installation_types: Iterable[int] = (GUILD_INSTALL, USER_INSTALL)
) -> list[str]:
    """What Discord rejects in one command of a bulk overwrite (PUT .../commands)."""
    problems: list[str] = []
    name = command.get("name", "")
    ctype = command.get("type", CHAT_INPUT)
    if ctype not in (CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND):
        problems.append(f"{name!r}: command type {ctype!r} not supported (1 slash, 2 user, 3 message)")
    if ctype == CHAT_INPUT:
        if not isinstance(name, str) or not SLASH_NAME.match(name) or name != name.lower():
            problems.append(f"command name invalid: {name!r}")
        if not 1 <= len(command.get("description") or "") <= 100:
            problems.append(f"/{name} description length must be 1-100")
    else:  # context menu commands: any case and spaces, no description, no options
        if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.strip():
            problems.append(f"context menu command name invalid: {name!r} (1-32 characters)")
        if command.get("description"):
            problems.append(f"{name!r}: a user or message command cannot have a description")
        if command.get("options"):
            problems.append(f"{name!r}: a user or message command cannot have options")
    problems += _context_problems(command, set(installation_types))
    options = command.get("options") or []
    if len(options) > 25:
        problems.append(f"/{name} has more than 25 options")
    return problems + (_option_problems(name, options) if ctype == CHAT_INPUT else [])


def _option_problems(command: str, options: list[dict[str, Any]]) -> list[str]:
    """A slash command's options: names, descriptions, required ones first, autocomplete where allowed."""
    problems: list[str] = []
    seen_optional = False
    for opt in options:
        oname = opt.get("name", "")
        if not isinstance(oname, str) or not SLASH_NAME.match(oname) or oname != oname.lower():
            problems.append(f"/{command} option name invalid: {oname!r}")
        if not 1 <= len(opt.get("description") or "") <= 100:
            problems.append(f"/{command} option {oname} description length must be 1-100")
        if opt.get("required") and seen_optional:
            problems.append(f"/{command}: required option {oname} after an optional one")
        seen_optional = seen_optional or not opt.get("required")
        if opt.get("autocomplete") and opt.get("type") not in (3, 4, 10):
            problems.append(f"/{command} option {oname}: autocomplete on type {opt.get('type')}")
        if opt.get("autocomplete") and opt.get("choices"):
            problems.append(f"/{command} option {oname}: autocomplete together with choices")
    return problems


def _context_problems(command: dict[str, Any], installation_types: set[int]) -> list[str]:
    """`integration_types` (installation contexts) and `contexts` (interaction contexts) of a command."""
    problems: list[str] = []
    name = command.get("name")
    for key, allowed in (
        ("integration_types", {GUILD_INSTALL, USER_INSTALL}),
        ("contexts", {GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT}),
    ):
        values = command.get(key)
        if values is None:
            continue
        if not isinstance(values, list) or not values:
            problems.append(f"{name!r}: {key} must be a non-empty list, not {values!r}")
            continue
        if any(not isinstance(v, int) or isinstance(v, bool) or v not in allowed for v in values):
            problems.append(f"{name!r}: {key} {values!r} has values outside {sorted(allowed)}")
        if len(set(values)) != len(values):
            problems.append(f"{name!r}: {key} {values!r} repeats a value")
        if key == "integration_types" and (
            unsupported := {v for v in values if v in allowed} - installation_types
        ):
            problems.append(
                f"{name!r}: integration_types {sorted(unsupported)} not enabled for the application "
                f"(it supports {sorted(installation_types)})"
            )
    return problems


def _localized_text_problem(text: Any, kind: str) -> tuple[str, str] | None:
    """(code, message) when `text` is not acceptable as a localized name or description of this `kind`:
    "slash" (slash command or option name), "menu" (user/message command name), "text" (description or
    choice name, 1-100 characters)."""
    if not isinstance(text, str):
        return "STRING_TYPE_CONVERT", f"Could not interpret {text!r} as string."
    if kind == "slash":
        if not SLASH_NAME.match(text) or text != text.lower():
            return "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {text!r}"
        return None
    high = 32 if kind == "menu" else 100
    if not 1 <= len(text) <= high:
        return "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {high} in length: {text!r} is {len(text)}."
    return None


def _localization_problems(item: dict[str, Any], path: Path, name_kind: str) -> list[FormProblem]:
    """`name_localizations` and `description_localizations` of one command, option or choice: an object
    (or null) keyed by Discord locales, each value acceptable for its place."""
    problems: list[FormProblem] = []
    for key, kind in (("name_localizations", name_kind), ("description_localizations", "text")):
        table = item.get(key)
        if table is None:
            continue
        if not isinstance(table, dict):
            problems.append(
                ((*path, key), "DICT_TYPE_CONVERT", f"Only dictionaries may be used here, not {table!r}.")
            )
            continue
        for locale, text in table.items():
            if locale not in LOCALES:
                problems.append(
                    (
                        (*path, key, locale),
                        "ENUM_TYPE_COERCE",
                        f"Value {locale!r} is not a valid enum value (a Discord locale).",
                    )
                )
            elif (problem := _localized_text_problem(text, kind)) is not None:
                problems.append(((*path, key, locale), *problem))
    return problems


def _name_clashes(items: list[dict[str, Any]], path: Path, code: str) -> list[FormProblem]:
    """Two items of `items` with the same name in some locale (a localized name, or the default name where
    an item has no localization for that locale)."""
    tables = [t if isinstance(t := item.get("name_localizations"), dict) else {} for item in items]
    problems: list[FormProblem] = []
    for locale in [None, *sorted({str(loc) for table in tables for loc in table})]:
        seen: dict[Any, int] = {}
        for i, (item, table) in enumerate(zip(items, tables, strict=True)):
            name = table.get(locale, item.get("name")) if locale else item.get("name")
            if name in seen:
                where = (
                    (*path, str(i), "name")
                    if locale is None or locale not in table
                    else (*path, str(i), "name_localizations", locale)
                )
                problems.append(
                    (
                        where,
                        code,
                        f"{name!r} is also the name of item {seen[name]}{f' in {locale}' if locale else ''}.",
                    )
                )
            seen.setdefault(name, i)
    return problems


def _option_localization_problems(options: list[dict[str, Any]], path: Path) -> list[FormProblem]:
    """Localizations of a slash command's options (and their choices and sub-options), and no two options of
    one command or subcommand named alike in any locale."""
    problems = _name_clashes(options, (*path, "options"), "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME")
    for i, option in enumerate(options):
        where = (*path, "options", str(i))
        problems += _localization_problems(option, where, "slash")
        for j, choice in enumerate(option.get("choices") or []):
            problems += _localization_problems(choice, (*where, "choices", str(j)), "text")
        problems += _option_localization_problems(option.get("options") or [], where)
    return problems


def sync_problems(commands: list[dict[str, Any]], installation_types: Iterable[int]) -> list[FormProblem]:
    """Everything Discord rejects in a bulk overwrite of application commands (PUT .../commands), each with
    its place in the body."""
    problems: list[FormProblem] = []
    by_type: dict[Any, list[int]] = {}
    for i, command in enumerate(commands):
        ctype = command.get("type", CHAT_INPUT)
        by_type.setdefault(ctype, []).append(i)
        problems += [
            ((str(i),), "APPLICATION_COMMAND_INVALID", p)
            for p in _command_problems(command, installation_types)
        ]
        problems += _localization_problems(command, (str(i),), "slash" if ctype == CHAT_INPUT else "menu")
        if ctype == CHAT_INPUT:
            problems += _option_localization_problems(command.get("options") or [], (str(i),))
    for ctype, indexes in by_type.items():
        if len(indexes) > COMMAND_LIMITS.get(ctype, 0):
            problems.append(
                (
                    (),
                    "APPLICATION_COMMANDS_TOO_MANY",
                    f"{len(indexes)} commands of type {ctype} (max {COMMAND_LIMITS.get(ctype, 0)})",
                )
            )
        clashes = _name_clashes([commands[i] for i in indexes], (), "APPLICATION_COMMANDS_DUPLICATE_NAME")
        problems += [
            ((str(indexes[int(where[0])]), *where[1:]), code, f"(type {ctype}) {message}")
            for where, code, message in clashes
        ]
    return problems


def form_errors(problems: Iterable[FormProblem]) -> dict[str, Any]:
    """Discord's nested `errors` object of a 50035 Invalid Form Body answer: keys down to the field, then
    `_errors: [{code, message}]`."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for key in path:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return errors
