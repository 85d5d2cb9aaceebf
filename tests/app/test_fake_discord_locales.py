"""The fake Discord's rules for localized application commands (`name_localizations`,
`description_localizations` on commands, options and choices), shown rejecting bad syncs over raw HTTP with
Discord's 50035 answer, and accepting what the real bot syncs; plus the client `locale` of the interactions
the fake sends and the guild's `guild_locale`."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.settings import load_settings
from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import running_bot

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

BOT_LOCALES = ("de", "fr", "es-ES", "es-419", "it", "pt-BR", "ja")


@pytest_asyncio.fixture(loop_scope="module")
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as discord:
        yield discord


async def put(fake: FakeDiscord, commands: Any, guild: bool = False) -> tuple[int, Any]:
    """PUT the application's commands (globally, or in the fake's guild) and return Discord's answer."""
    scope = f"/guilds/{fake.guild_id}" if guild else ""
    url = f"{fake.api_base}/applications/{fake.application_id}{scope}/commands"
    async with (
        aiohttp.ClientSession() as http,
        http.put(url, json=commands, headers={"Authorization": f"Bot {fake.token}"}) as resp,
    ):
        return resp.status, await resp.json()


def slash(name: str = "identity", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "Explains a card", "type": 1, **extra}


def option(name: str = "card", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "The card", "type": 3, **extra}


def menu(name: str = "Check this decklist", kind: int = 3, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, **extra}


def at(errors: dict[str, Any], path: str) -> list[str]:
    """The error codes Discord's nested `errors` object gives at `path` ("0.options.1.name_localizations.de")."""
    node: Any = errors
    for key in path.split("."):
        node = node.get(key, {})
    return [e["code"] for e in node.get("_errors", [])]


BAD = "APPLICATION_COMMAND_INVALID_NAME"
LENGTH = "BASE_TYPE_BAD_LENGTH"
SAME_COMMAND = "APPLICATION_COMMANDS_DUPLICATE_NAME"
SAME_OPTION = "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME"


@pytest.mark.parametrize(
    "commands, path, code",
    [
        # the tables: an object (or null) keyed by Discord locales only
        ([slash(name_localizations=["de", "identität"])], "0.name_localizations", "DICT_TYPE_CONVERT"),
        ([slash(description_localizations="Erklärt")], "0.description_localizations", "DICT_TYPE_CONVERT"),
        (
            [slash(name_localizations={"de-DE": "identität"})],
            "0.name_localizations.de-DE",
            "ENUM_TYPE_COERCE",
        ),
        ([slash(name_localizations={"en": "identity"})], "0.name_localizations.en", "ENUM_TYPE_COERCE"),
        (
            [slash(description_localizations={"pt": "Explica"})],
            "0.description_localizations.pt",
            "ENUM_TYPE_COERCE",
        ),
        (
            [slash(options=[option(name_localizations={"es": "carta"})])],
            "0.options.0.name_localizations.es",
            "ENUM_TYPE_COERCE",
        ),
        # slash command and option names: letters, digits, - and _, lowercase, 1-32
        ([slash(name_localizations={"de": "Identität"})], "0.name_localizations.de", BAD),
        ([slash(name_localizations={"fr": "identité couleur"})], "0.name_localizations.fr", BAD),
        ([slash(name_localizations={"it": "identità!"})], "0.name_localizations.it", BAD),
        ([slash(name_localizations={"de": ""})], "0.name_localizations.de", BAD),
        ([slash(name_localizations={"de": "x" * 33})], "0.name_localizations.de", BAD),
        ([slash(name_localizations={"ru": "Цвет"})], "0.name_localizations.ru", BAD),
        ([slash(name_localizations={"de": 7})], "0.name_localizations.de", "STRING_TYPE_CONVERT"),
        (
            [slash(options=[option(name_localizations={"pt-BR": "Carta"})])],
            "0.options.0.name_localizations.pt-BR",
            BAD,
        ),
        (
            [slash(options=[option(name_localizations={"ja": "カード 名"})])],
            "0.options.0.name_localizations.ja",
            BAD,
        ),
        # descriptions and choice names: 1-100 characters
        ([slash(description_localizations={"fr": "x" * 101})], "0.description_localizations.fr", LENGTH),
        ([slash(description_localizations={"fr": ""})], "0.description_localizations.fr", LENGTH),
        (
            [slash(options=[option(description_localizations={"ja": "x" * 101})])],
            "0.options.0.description_localizations.ja",
            LENGTH,
        ),
        (
            [
                slash(
                    options=[
                        option(choices=[{"name": "W", "value": "w", "name_localizations": {"de": "w" * 101}}])
                    ]
                )
            ],
            "0.options.0.choices.0.name_localizations.de",
            LENGTH,
        ),
        (
            [
                slash(
                    options=[
                        option(choices=[{"name": "W", "value": "w", "name_localizations": {"xx": "Weiß"}}])
                    ]
                )
            ],
            "0.options.0.choices.0.name_localizations.xx",
            "ENUM_TYPE_COERCE",
        ),
        # context menu names: any 1-32 characters
        ([menu(name_localizations={"de": "x" * 33})], "0.name_localizations.de", LENGTH),
        ([menu(kind=2, name_localizations={"ja": ""})], "0.name_localizations.ja", LENGTH),
        # no two commands of a type, nor two options of a command, share a name in any locale
        (
            [
                slash("identity", name_localizations={"de": "karte"}),
                slash("card", name_localizations={"de": "karte"}),
            ],
            "1.name_localizations.de",
            SAME_COMMAND,
        ),
        ([slash("identity", name_localizations={"de": "fits"}), slash("fits")], "1.name", SAME_COMMAND),
        (
            [
                menu("Inspect", name_localizations={"fr": "Vérifier"}),
                menu("Check", name_localizations={"fr": "Vérifier"}),
            ],
            "1.name_localizations.fr",
            SAME_COMMAND,
        ),
        (
            [
                slash(
                    "fits",
                    options=[option("commander", name_localizations={"es-ES": "card"}), option("card")],
                )
            ],
            "0.options.1.name",
            SAME_OPTION,
        ),
        (
            [
                slash(
                    "fits",
                    options=[
                        option("commander", name_localizations={"fr": "carte"}),
                        option("card", name_localizations={"fr": "carte"}),
                    ],
                )
            ],
            "0.options.1.name_localizations.fr",
            SAME_OPTION,
        ),
        ([slash("fits", options=[option("card"), option("card")])], "0.options.1.name", SAME_OPTION),
        (
            [
                slash(
                    "deck",
                    options=[
                        {
                            "name": "check",
                            "description": "Checks",
                            "type": 1,
                            "options": [option("list", name_localizations={"de": "liste"}), option("liste")],
                        }
                    ],
                )
            ],
            "0.options.0.options.1.name",
            SAME_OPTION,
        ),
    ],
)
async def test_bad_localizations_are_rejected_as_discord_does(
    fake: FakeDiscord, commands: list[dict[str, Any]], path: str, code: str
) -> None:
    for guild in (False, True):
        status, body = await put(fake, commands, guild=guild)
        assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
        assert code in at(body["errors"], path), json.dumps(body["errors"])
    assert fake.command_syncs == [] and fake.commands == {}  # nothing registered
    assert fake.violations and all(v.startswith(f"command sync: {path}: {code}") for v in fake.violations), (
        fake.violations
    )


async def test_good_localizations_are_accepted(fake: FakeDiscord) -> None:
    commands = [
        slash(
            "identity",
            name_localizations={
                "de": "identität",
                "ja": "固有色",
                "hi": "पहचान",
                "th": "สีประจำตัว",
                "ru": "цвет",
                "ko": "색",
                "es-419": "identidad",
                "ar": "هوية",
            },
            description_localizations={"de": "Erklärt die Farbidentität einer Karte", "fr": "x" * 100},
        ),
        slash(
            "fits",
            name_localizations=None,
            description_localizations=None,
            options=[
                option("commander", name_localizations={"es-ES": "comandante", "es-419": "comandante"}),
                option(
                    "card",
                    name_localizations={"es-ES": "carta", "es-419": "carta"},
                    choices=[
                        {
                            "name": "White",
                            "value": "w",
                            "name_localizations": {"de": "Weiß — die Farbe", "ja": "白"},
                        }
                    ],
                ),
            ],
        ),
        menu("Check this decklist", name_localizations={"de": "Diese Deckliste prüfen", "fr": "V" * 32}),
        menu("Inspect", kind=2, name_localizations={"de": "identität"}),  # a user command: another type
        slash("help", name_localizations={"de": "help"}),  # its own English name again is no clash
    ]
    status, body = await put(fake, commands)
    assert status == 200 and fake.violations == [], fake.violations
    assert body[0]["name_localizations"]["hi"] == "पहचान"
    assert fake.command_syncs[-1].command("fits")["name_localizations"] is None


# ------------------------------------------------------------------------- the bot's real commands
@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def synced(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[FakeDiscord]:
    """The real bot, started against the fake with command sync on (global commands)."""
    scryfall = FakeScryfall()
    await scryfall.start()
    discord = FakeDiscord()
    api_base = await discord.start()
    settings = load_settings(
        discord_token=discord.token,
        discord_api_base=api_base,
        scryfall_api_base=scryfall.base_url,
        cache_path=tmp_path_factory.mktemp("fake-locales") / "cache.sqlite3",
        bulk_refresh_hours=0,
        sync_commands=True,
        dev_guild_id=None,
        scryfall_timeout=3.0,
        user_rate="off",
        mana_emoji="",
        mana_emoji_upload=False,
    )
    async with running_bot(settings, discord):
        yield discord
    await discord.close()
    await scryfall.close()


def localized(items: list[dict[str, Any]]) -> set[str]:
    """Every locale any command, option or choice of `items` is localized in (names or descriptions)."""
    seen: set[str] = set()
    for item in items:
        for key in ("name_localizations", "description_localizations"):
            seen |= set(item.get(key) or {})
        seen |= localized(item.get("options") or []) | localized(item.get("choices") or [])
    return seen


async def test_the_bots_localized_commands_keep_discords_rules(synced: FakeDiscord) -> None:
    assert synced.violations == [] and synced.command_syncs
    for sync in synced.command_syncs:
        assert set(BOT_LOCALES) <= localized(sync.commands), sync.scope
        assert {1, 3} <= {c["type"] for c in sync.commands}  # slash and message commands both localized
        for command in sync.commands:
            assert set(BOT_LOCALES) <= set(command["name_localizations"] or {}), command["name"]
            if command["type"] == 1:
                assert set(BOT_LOCALES) <= set(command["description_localizations"] or {}), command["name"]
                assert set(BOT_LOCALES) <= localized(command.get("options") or []) or not command.get(
                    "options"
                )


async def test_interactions_carry_the_clients_locale_and_the_guilds(synced: FakeDiscord) -> None:
    payload = synced.interaction_payload("help", locale="ja")
    assert payload["locale"] == "ja" and payload["guild_locale"] == "en-US"
    synced.guild_locales[synced.guild_id] = "pt-BR"
    try:
        payload = synced.interaction_payload("help", locale="de")
        assert (payload["locale"], payload["guild_locale"], payload["guild"]["locale"]) == (
            "de",
            "pt-BR",
            "pt-BR",
        )
        assert "guild_locale" not in synced.interaction_payload("help", where="bot_dm", locale="fr")
    finally:
        synced.guild_locales[synced.guild_id] = "en-US"
    with pytest.raises(ValueError, match="not a Discord locale"):
        synced.interaction_payload("help", locale="de-DE")
    reply = await synced.invoke("help", locale="de")
    assert synced.interactions[reply.interaction_id].payload["locale"] == "de"
    await synced.autocomplete("identity", {"card": "fire"}, focused="card", locale="it")
    assert [r.payload["locale"] for r in synced.interactions.values() if r.type == 4] == ["it"]
    assert synced.violations == []


async def test_guild_locale_is_the_guilds_preferred_locale() -> None:
    with pytest.raises(ValueError, match="not a Discord locale"):
        FakeDiscord(guild_locale="french")
    async with (
        FakeDiscord(guild_locale="fr") as discord,
        aiohttp.ClientSession() as http,
        http.ws_connect(discord.gateway_url) as ws,
    ):
        await ws.receive()  # HELLO
        await ws.send_str(
            json.dumps({"op": 2, "d": {"token": discord.token, "intents": 1, "properties": {}}})
        )
        events = [json.loads((await ws.receive()).data) for _ in range(2)]  # READY, GUILD_CREATE
        assert events[1]["t"] == "GUILD_CREATE" and events[1]["d"]["preferred_locale"] == "fr"
