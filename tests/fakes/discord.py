"""A fake Discord for end-to-end tests: REST routes and a gateway websocket on 127.0.0.1.

The real bot (discord.py 2.x) runs against it unchanged; only `DISCORD_API_BASE` points here.

    fake = FakeDiscord()
    api_base = await fake.start()              # "http://127.0.0.1:PORT/api/v10"
    ... start the bot with DISCORD_API_BASE=api_base and DISCORD_TOKEN=fake.token ...
    await fake.wait_ready()                    # IDENTIFY received and READY sent
    reply = await fake.invoke("identity", {"card": "Fires of Undeath"})
    reply.embeds[0]["title"], reply.ephemeral, reply.deferred
    choices = await fake.autocomplete("identity", {"card": "fire"}, focused="card")
    fake.command_syncs                         # [CommandSync(scope="global"|guild_id, commands=[...])]
    fake.violations                            # every broken Discord rule (must stay empty)
    await fake.close()

What it enforces, as Discord does: the token (401 otherwise), the first interaction callback within
3 s, one callback per interaction, callback types valid for the interaction type, message content
<= 2,000 characters, at most 10 embeds and Discord's embed limits, URLs in embeds, at most 25
autocomplete choices with names/values of 1-100 characters, `allowed_mentions` present on every
message and valid, message flags, message components and modals (below), and the shape of synced
application commands with their localizations (`tests.fakes.command_rules`). A violation answers with Discord's error status and body, and is recorded in
`.violations`. A test that asks the fake user to do what Discord's client would not let them do
(use a command where it is not available, pick a value a select does not offer, act on someone
else's ephemeral message...) gets `UserCannotDoThat` (an AssertionError) at once.

Languages: every way of sending an interaction (`invoke`, `autocomplete`, `select`, `click`,
`submit_modal`...) takes `locale=` (the client's language, default "en-US"); `FakeDiscord(guild_locale=...)`
or `fake.guild_locales[guild_id]` sets a guild's `guild_locale` (and `preferred_locale`).

Fault knobs: `gateway_close_code` (close instead of READY), `reject_callbacks = N` (the next N interaction
callbacks answer HTTP 400, recorded in `rejected_callbacks`, not as violations), `drop(shard)` below.

Members' permissions: a member's interactions carry `member.permissions` (a string bitfield: @everyone's
`ALL_PERMISSIONS`, which has neither MANAGE_GUILD nor ADMINISTRATOR, plus their roles'); `fake.grant(user,
MANAGE_GUILD)` gives the fake user a role with it. A command synced with `default_member_permissions` is
hidden (UserCannotDoThat) from members who lack them, as Discord's client hides it.

Attachments: `fake.attachment(filename, data)` serves a file and returns an attachment object; pass
it as an option value (type 11) and the payload gets `resolved.attachments`.

Where a command is used (user installs). Synced commands keep `integration_types` (0 guild install,
1 user install; null means the app's `installation_types`) and `contexts` (0 guild, 1 bot DM,
2 private channel; null means all). `where=` picks the surface, and the fake refuses (raises) when
Discord would not show the command there:

    await fake.invoke("help", where="guild")          # context 0, the bot is a member (default)
    await fake.invoke("help", where="bot_dm")         # context 1, DM channel (type 1), `user`, no guild
    await fake.invoke("help", where="group_dm")       # context 2, group DM channel (type 3)
    await fake.invoke("help", where="private_dm")     # context 2, a DM between the user and a friend
    await fake.invoke("help", where="user_guild")     # context 0 in a guild the bot is not in:
                                                      # owners {"1": user id}, app_permissions limited

Message and user commands:

    msg = fake.message("1 Sol Ring", attachments=[fake.attachment("deck.txt", b"1 Sol Ring")])
    reply = await fake.invoke_message_command("Check this decklist", msg)   # data.type 3, target_id
    reply = await fake.invoke_user_command("Inspect", fake.user("42", "friend"))

Components and modals. Every message the bot creates through an interaction (callbacks, edits,
follow-ups) is kept in `fake.messages` with its current state; a Reply knows its `message_id`.

    reply.components, reply.custom_ids, reply.select_options("pick")
    after = await fake.select(reply, "pick", ["Kumano, Master Yamabushi"])   # type 3 interaction
    after = await fake.click(reply, "more")                                  # a button
    reply.is_modal, reply.modal_inputs                                      # a MODAL callback (type 9)
    after = await fake.submit_modal(reply, {"commander": "Kumano"})          # type 5 interaction

`select`/`click`/`submit_modal` return what the user sees next: UPDATE_MESSAGE (7) is the updated
message, CHANNEL_MESSAGE (4) a new one, DEFERRED_UPDATE (6) the message after the bot's edit of
@original, a MODAL (9) the next modal.

Application emojis: `GET/POST /applications/{id}/emojis`, `GET/PATCH/DELETE .../emojis/{emoji_id}`
(`fake.app_emojis`, `fake.emoji_uploads`). Every custom emoji `<:name:id>` a message shows (in
content, embeds, button or option emoji) is recorded in `fake.emoji_uses`; those the application
does not own land in `fake.unknown_emojis`.

Gateway sessions and shards, as Discord does them:

    fake = FakeDiscord(guild_ids=[g1, g2, g3], recommended_shards=2)
    fake.shard_for_guild(g2)                   # (g2 >> 22) % shard_count, Discord's formula
    await fake.wait_ready(shards=[0, 1])       # every listed shard identified and got READY
    reply = await fake.invoke("help", guild_id=g2)   # dispatched on the shard that owns g2
    await fake.drop(shard=0)                   # close shard 0's socket (code 4000, resumable)
    await fake.wait_resumed()                  # the client sent RESUME (op 6) and got RESUMED
    fake.resumes                               # [{"shard": 0, "seq": ..., "replayed": n, ...}]

Each IDENTIFY (op 2, with `shard: [id, count]` or none = [0, 1]) opens a session that outlives its
socket: events dispatched while the socket is down are kept and replayed, in order and with their
original sequence numbers, after a RESUME (op 6) with that session id, followed by RESUMED. An unknown
session or a bad token gets Invalid Session (op 9) / close 4004. READY lists the shard's guilds as
unavailable; GUILD_CREATE follows for each only when the client asked for the GUILDS intent.

Events by intent, as Discord sends them (`tests.fakes.guilds`):

    fake.load_servers(2000)                    # 2,000 servers of realistic size (before the bot connects)
    await fake.chat(300, per_second=300)       # messages, reactions, typing, voice moves across them
    await fake.send_event("MESSAGE_CREATE", d) # to the sessions whose intents ask for it

A session receives message events only with GUILD_MESSAGES (DIRECT_MESSAGES in DMs), reactions with
*_MESSAGE_REACTIONS, typing with *_MESSAGE_TYPING, voice states with GUILD_VOICE_STATES; without
MESSAGE_CONTENT a message comes without content, embeds, attachments and components.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import copy
import itertools
import json
import re
import secrets
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from tests.fakes.command_rules import LOCALES, form_errors, sync_problems
from tests.fakes.discord_rules import (
    ACTION_ROW,
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    BOT_DM_CONTEXT,
    BUTTON,
    CHANNEL_MESSAGE,
    CHAT_INPUT,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    LABEL,
    MESSAGE_COMMAND,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PRIVATE_CHANNEL_CONTEXT,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_DISPLAY,
    TEXT_INPUT,
    UPDATE_MESSAGE,
    USER_COMMAND,
    USER_INSTALL,
    _allowed_mentions_problems,
    _choice_problems,
    _component_problems,
    _embed_problems,
    _image_info,
    _modal_problems,
)
from tests.fakes.gateway import FakeGateway, GatewaySession
from tests.fakes.server import serve

DEFAULT_TOKEN = "FAKE.bot-token.for-tests"
EPHEMERAL = 64
LOADING = 128
SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2 = 4, 4096, 8192, 32768
CALLBACK_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2


# Permissions
ALL_PERMISSIONS = "2248473465835073"  # the fake guilds' @everyone role, and the bot's permissions there
ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE, USE_EXTERNAL_EMOJIS = 1 << 15, 1 << 14, 1 << 17, 1 << 18
ADMINISTRATOR, MANAGE_GUILD = 1 << 3, 1 << 5  # neither is in ALL_PERMISSIONS: a plain member has neither
EVERY_PERMISSION = (1 << 51) - 1  # what Discord resolves for an administrator or the guild owner
# app_permissions outside guilds where the bot is a member (Discord's documented values)
PRIVATE_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
BOT_DM_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS

# Where the fake user is when they use the app, and the interaction context each one is
Where = Literal["guild", "user_guild", "bot_dm", "group_dm", "private_dm"]
WHERE_CONTEXT: dict[str, int] = {
    "guild": GUILD_CONTEXT,
    "user_guild": GUILD_CONTEXT,
    "bot_dm": BOT_DM_CONTEXT,
    "group_dm": PRIVATE_CHANNEL_CONTEXT,
    "private_dm": PRIVATE_CHANNEL_CONTEXT,
}
MAX_USER_INSTALL_FOLLOWUPS = 5  # follow-ups per interaction when only the user installed the app

# Application emojis
EMOJI_NAME_RE = re.compile(r"^[A-Za-z0-9_]+$")
EMOJI_MAX_BYTES = 256 * 1024
EMOJI_LIMIT = 2000
IMAGE_DATA_RE = re.compile(r"^data:(image/[a-z]+);base64,(.*)$", re.S)
IMAGE_FORMATS = {
    "image/png": "PNG",
    "image/jpeg": "JPEG",
    "image/gif": "GIF",
    "image/webp": "WEBP",
    "image/avif": "AVIF",
}
CUSTOM_EMOJI_RE = re.compile(r"<(a?):([A-Za-z0-9_]{2,32}):(\d{15,21})>")

MESSAGE_FIELDS = ("content", "embeds", "components", "attachments", "poll", "tts", "flags")

_snowflakes = itertools.count((int(time.time() * 1000) - 1420070400000) << 22)


def snowflake() -> str:
    """A new, increasing Discord snowflake (as a string)."""
    return str(next(_snowflakes))


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py decodes JSON only for exactly "application/json" (no charset suffix).
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _form_bytes(value: Any) -> bytes:
    """The bytes of a multipart form field (a string, bytes, or an uploaded file)."""
    if value is None:
        return b""
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    return bytes(value.file.read())


def _error(status: int, code: int, message: str, errors: Any = None) -> web.Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors is not None:
        body["errors"] = errors
    return _json(body, status)


def _field_error(field_name: str, code: str, message: str) -> dict[str, Any]:
    """Discord's nested form-error shape: {field: {"_errors": [{code, message}]}}."""
    return {field_name: {"_errors": [{"code": code, "message": message}]}}


def _locale(locale: str) -> str:
    """A Discord locale code (what a client sends as `locale`); anything else is a mistake in the test."""
    if locale not in LOCALES:
        raise ValueError(f"{locale!r} is not a Discord locale; one of {sorted(LOCALES)}")
    return locale


class UserCannotDoThat(AssertionError):
    """The test asked the fake user for something Discord's client would not let them do."""


@dataclass
class CommandSync:
    """One PUT of the application's commands: scope is "global" or the guild id (int)."""

    scope: str | int
    commands: list[dict[str, Any]]

    @property
    def names(self) -> list[str]:
        return sorted(c["name"] for c in self.commands)

    def command(self, name: str, type: int | None = None) -> dict[str, Any]:
        """The synced command called `name` (of command type `type`, if given)."""
        return next(
            c for c in self.commands if c["name"] == name and (type is None or c.get("type", 1) == type)
        )


def walk_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a message or modal, depth first (rows, labels, containers, sections)."""
    for c in components or []:
        if not isinstance(c, dict):
            continue
        yield c
        yield from walk_components(c.get("components") or [])
        if isinstance(c.get("component"), dict):
            yield from walk_components([c["component"]])
        if isinstance(c.get("accessory"), dict):
            yield from walk_components([c["accessory"]])


@dataclass
class Reply:
    """What the user finally sees for one interaction."""

    interaction_id: str
    callback_type: int
    data: dict[str, Any]
    ephemeral: bool
    deferred: bool
    latency: float  # seconds from dispatch to the reply (to the first callback for direct replies)
    message_id: str | None = None  # the message shown (None for autocomplete choices and modals)
    user_id: str | None = None  # the user whose action produced this reply

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.data.get("embeds") or []

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.data.get("choices") or []

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.data.get("allowed_mentions")

    @property
    def components(self) -> list[dict[str, Any]]:
        """Top-level components (action rows) of the message, or of the modal."""
        return self.data.get("components") or []

    @property
    def custom_ids(self) -> list[str]:
        """custom_id of every interactive component, in order."""
        return [c["custom_id"] for c in walk_components(self.components) if c.get("custom_id")]

    def component(self, custom_id: str) -> dict[str, Any]:
        """The component with this custom_id (KeyError if there is none)."""
        for c in walk_components(self.components):
            if c.get("custom_id") == custom_id:
                return c
        raise KeyError(custom_id)

    def select_options(self, custom_id: str) -> list[dict[str, Any]]:
        """The options of string select `custom_id`."""
        return list(self.component(custom_id).get("options") or [])

    @property
    def is_modal(self) -> bool:
        return self.callback_type == MODAL

    @property
    def modal_inputs(self) -> list[dict[str, Any]]:
        """The text inputs (and other inputs) of a modal, with their label if in a Label component."""
        inputs: list[dict[str, Any]] = []
        for top in self.components:
            if top.get("type") == LABEL and isinstance(top.get("component"), dict):
                inputs.append(
                    {**top["component"], "label": top.get("label"), "description": top.get("description")}
                )
            elif top.get("type") == ACTION_ROW:
                inputs += [c for c in top.get("components") or [] if c.get("type") == TEXT_INPUT]
        return inputs

    def text(self) -> str:
        """Content plus every text part of every embed and text display, for substring checks."""
        parts = [self.content]
        for e in self.embeds:
            parts += [
                e.get("title") or "",
                e.get("description") or "",
                (e.get("footer") or {}).get("text") or "",
            ]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
        parts += [
            c.get("content") or "" for c in walk_components(self.components) if c.get("type") == TEXT_DISPLAY
        ]
        return "\n".join(parts)


@dataclass
class BotMessage:
    """A message the application created through an interaction token, in its current state."""

    id: str
    interaction_id: str  # the interaction whose token created it
    channel_id: str
    guild_id: str | None
    data: dict[str, Any]  # content, embeds, components, attachments, flags...
    audience: str | None  # ephemeral: the only user who sees it; None for everyone in the channel
    loading: bool = False  # a deferred "thinking…" message not edited yet
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)  # every earlier state, oldest first

    @property
    def ephemeral(self) -> bool:
        return self.audience is not None

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.data.get("components") or []


@dataclass
class EmojiUse:
    """A custom emoji a message showed: `<:name:id>` in text or an `emoji` object on a component."""

    id: str
    name: str
    animated: bool
    where: str  # "interaction <id> <callback|edit|follow-up>"
    known: bool  # the application owns an emoji with this id

    @property
    def markup(self) -> str:
        return f"<{'a' if self.animated else ''}:{self.name}:{self.id}>"


@dataclass
class InteractionRecord:
    id: str
    token: str
    type: int
    payload: dict[str, Any]
    dispatched_at: float
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    callback_at: float | None = None
    edits: list[dict[str, Any]] = field(default_factory=list)  # bodies of PATCH @original
    edit_states: list[dict[str, Any]] = field(default_factory=list)  # the message after each of them
    followups: list[dict[str, Any]] = field(default_factory=list)  # bodies of POST /webhooks/{app}/{token}
    followup_message_ids: list[str] = field(default_factory=list)  # the message each of them made or edited
    deleted: bool = False
    reply_at: float | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    original_message_id: str | None = None  # what @original means for this token
    modal_submitted: bool = False

    @property
    def deferred_ephemeral(self) -> bool:
        if not self.callbacks:
            return False
        return bool(((self.callbacks[0].get("data") or {}).get("flags") or 0) & EPHEMERAL)

    @property
    def user(self) -> dict[str, Any]:
        """The user who triggered the interaction."""
        return (self.payload.get("member") or {}).get("user") or self.payload.get("user") or {}

    @property
    def source_message_id(self) -> str | None:
        """For component interactions (and modals opened from one): the message the component is on."""
        message = self.payload.get("message")
        return str(message["id"]) if isinstance(message, dict) and "id" in message else None

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal this interaction answered with (callback type 9), if any."""
        if self.callbacks and self.callbacks[0].get("type") == MODAL:
            return self.callbacks[0].get("data") or {}
        return None

    @property
    def user_install_only(self) -> bool:
        owners = self.payload.get("authorizing_integration_owners") or {}
        return set(owners) == {str(USER_INSTALL)}


class FakeDiscord(FakeGateway):
    """Discord's REST API and gateway, just enough for a discord.py bot and its application commands."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        application_id: int = 1_100_000_000_000_000_001,
        guild_id: int = 1_100_000_000_000_000_100,
        channel_id: int = 1_100_000_000_000_000_200,
        callback_deadline: float = 3.0,
        heartbeat_interval_ms: int = 41_250,
        require_allowed_mentions: bool = True,
        send_guild_create: bool = True,
        guild_ids: Iterable[int | str] | None = None,
        recommended_shards: int = 1,
        installation_types: Iterable[int] = (GUILD_INSTALL, USER_INSTALL),
        foreign_guild_id: int = 1_100_000_000_000_009_100,
        guild_locale: str = "en-US",
    ) -> None:
        self.token = token
        self.application_id = str(application_id)
        self.bot_user_id = str(application_id)
        self.guild_ids = [str(g) for g in guild_ids] if guild_ids else [str(guild_id)]
        self.guild_id = self.guild_ids[0]
        self.channel_id = str(channel_id)
        self.recommended_shards = recommended_shards
        self.callback_deadline = callback_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.require_allowed_mentions = require_allowed_mentions
        self.send_guild_create = send_guild_create
        # the installation contexts the application supports (its "Installation" settings)
        self.installation_types = sorted(set(installation_types))
        # a guild the bot is not in, where the test user has the app installed to their account
        self.foreign_guild_id = str(foreign_guild_id)
        # each guild's preferred locale (`guild_locale` of its interactions, `preferred_locale` of the guild)
        self.guild_locales = {g: _locale(guild_locale) for g in [*self.guild_ids, self.foreign_guild_id]}
        self.gateway_close_code: int | None = None  # fault knob: answer IDENTIFY by closing with this code
        self.reject_callbacks = 0  # fault knob: answer the next N interaction callbacks with HTTP 400
        self.rejected_callbacks: list[str] = []  # interaction ids whose callback was rejected by that knob

        self.requests: list[tuple[str, str]] = []
        self.unhandled: list[tuple[str, str]] = []
        self.violations: list[str] = []
        self.command_syncs: list[CommandSync] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}  # scope key -> registered commands
        self.identifies: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.interactions: dict[str, InteractionRecord] = {}
        self.files: dict[str, tuple[bytes, str]] = {}
        self.messages: dict[str, BotMessage] = {}  # every message made through an interaction token
        self.app_emojis: dict[str, dict[str, Any]] = {}  # application emoji id -> emoji object
        self.emoji_images: dict[str, bytes] = {}  # application emoji id -> the uploaded image
        self.emoji_uploads: list[dict[str, Any]] = []  # every accepted upload: name, id, format, size...
        self.emoji_limit = EMOJI_LIMIT
        self.emoji_uses: list[EmojiUse] = []
        self.unknown_emojis: list[EmojiUse] = []  # custom emojis shown that the application does not own
        # (guild id, user id) -> permissions a member's roles add to @everyone's (`grant`); a member's
        # interactions carry the sum as `member.permissions`, every bit for an administrator
        self.member_roles: dict[tuple[str, str], int] = {}
        self._private_channels: dict[tuple[str, str], str] = {}
        self._by_token: dict[str, InteractionRecord] = {}  # interaction token -> record (webhook lookups)

        self.identified = asyncio.Event()
        self.ready = asyncio.Event()
        self.gateway_closed = asyncio.Event()
        self._sockets: set[web.WebSocketResponse] = set()
        self.sessions: dict[str, GatewaySession] = {}  # session id -> session
        self.shards: dict[int, GatewaySession] = {}  # shard id -> its current session
        self.shard_count: int | None = None  # from the first IDENTIFY
        self.resumes: list[dict[str, Any]] = []  # every RESUME: shard, session_id, seq, replayed
        self.invalid_sessions = 0  # op 9 sent (RESUME of an unknown session)
        self.server_size: dict[str, int] | None = None  # `load_servers`: realistic servers of this size
        self._guild_payloads: dict[str, dict[str, Any]] = {}
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.api_base = ""
        self.gateway_url = ""

    # ------------------------------------------------------------------------------------ lifecycle
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/gateway", self._gateway)
        app.router.add_get("/files/{key}/{filename}", self._file)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner, self.base_url = await serve(app, host, port)
        self.api_base = f"{self.base_url}/api/v10"
        self.gateway_url = f"ws{self.base_url.removeprefix('http')}/gateway"
        return self.api_base

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------------------------- objects
    @property
    def bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_user_id,
            "username": "Identity Bot",
            "discriminator": "0000",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "flags": 0,
            "public_flags": 0,
            "verified": True,
            "mfa_enabled": False,
            "email": None,
        }

    def user(self, user_id: str = "1100000000000000300", name: str = "tester") -> dict[str, Any]:
        return {
            "id": user_id,
            "username": name,
            "discriminator": "0",
            "global_name": name.title(),
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }

    def channel_of(self, guild_id: str) -> str:
        """The text channel of a guild (the first guild keeps `channel_id`)."""
        return self.channel_id if guild_id == self.guild_id else str(int(guild_id) + 200)

    def _channel(self, guild_id: str | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        return {
            "id": self.channel_of(guild_id),
            "type": 0,
            "guild_id": guild_id,
            "name": "general",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
            "permissions": ALL_PERMISSIONS,
        }

    def _private_channel_id(self, kind: str, user_id: str) -> str:
        key = (kind, user_id)
        if key not in self._private_channels:
            self._private_channels[key] = snowflake()
        return self._private_channels[key]

    def grant(self, user: dict[str, Any], permissions: int, guild_id: int | str | None = None) -> None:
        """Give `user` a role with `permissions` (MANAGE_GUILD, ADMINISTRATOR...) in `guild_id` (default the
        first guild); 0 takes their roles away."""
        self.member_roles[(str(guild_id or self.guild_id), str(user["id"]))] = permissions

    def member_permissions(self, guild_id: str, user: dict[str, Any]) -> str:
        """A member's permissions as Discord resolves them for an interaction: @everyone's plus their roles'
        (all of them for an administrator), as a string bitfield."""
        value = int(ALL_PERMISSIONS) | self.member_roles.get((str(guild_id), str(user["id"])), 0)
        return str(EVERY_PERMISSION if value & ADMINISTRATOR else value)

    def _member(self, user: dict[str, Any], permissions: str = ALL_PERMISSIONS) -> dict[str, Any]:
        return {
            "user": user,
            "roles": [],
            "flags": 0,
            "permissions": permissions,
            "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "nick": None,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "premium_since": None,
        }

    def place(
        self, where: Where = "guild", *, user: dict[str, Any] | None = None, guild_id: int | str | None = None
    ) -> dict[str, Any]:
        """The interaction fields that say where the user is: guild/channel/member or user, context and
        the app's permissions there (not `authorizing_integration_owners`, which depends on the command).

        "guild": a guild the bot is in (default the first); "user_guild": a guild the bot is not in
        (default `foreign_guild_id`); "bot_dm": the DM with the bot; "group_dm": a group DM;
        "private_dm": a DM between the user and a friend."""
        if where not in WHERE_CONTEXT:
            raise ValueError(f"unknown place {where!r}; one of {sorted(WHERE_CONTEXT)}")
        member_user = user or self.user()
        uid = str(member_user["id"])
        fields: dict[str, Any] = {"context": WHERE_CONTEXT[where]}
        if where in ("guild", "user_guild"):
            if where == "guild":
                gid = str(guild_id) if guild_id is not None else self.guild_id
                if gid not in self.guild_ids:
                    raise UserCannotDoThat(f"the bot is not a member of guild {gid} (use where='user_guild')")
                channel = self._channel(gid)
                app_permissions = ALL_PERMISSIONS
            else:
                gid = str(guild_id) if guild_id is not None else self.foreign_guild_id
                if gid in self.guild_ids:
                    raise UserCannotDoThat(f"the bot is a member of guild {gid} (use where='guild')")
                channel = {
                    "id": str(int(gid) + 200),
                    "type": 0,
                    "guild_id": gid,
                    "name": "general",
                    "position": 0,
                    "permission_overwrites": [],
                    "nsfw": False,
                    "parent_id": None,
                    "topic": None,
                    "rate_limit_per_user": 0,
                    "last_message_id": None,
                    "flags": 0,
                    "permissions": ALL_PERMISSIONS,
                }
                # an app without a bot in the guild gets @everyone's permissions, limited to those
                # an interaction response can use
                app_permissions = str(int(ALL_PERMISSIONS) & BOT_DM_APP_PERMISSIONS)
            guild_locale = self.guild_locales.get(gid, "en-US")
            fields |= {
                "guild_id": gid,
                "guild": {"id": gid, "locale": guild_locale, "features": []},
                "guild_locale": guild_locale,
                "channel_id": channel["id"],
                "channel": channel,
                "member": self._member(member_user, self.member_permissions(gid, member_user)),
                "app_permissions": app_permissions,
            }
            return fields
        if where == "bot_dm":
            channel = {
                "id": self._private_channel_id("bot_dm", uid),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [member_user],
            }
            private_permissions = BOT_DM_APP_PERMISSIONS
        elif where == "private_dm":
            friend = self.user(str(int(uid) + 1), "friend")
            channel = {
                "id": self._private_channel_id("private_dm", uid),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [friend],
            }
            private_permissions = PRIVATE_APP_PERMISSIONS
        else:
            friends = [self.user(str(int(uid) + 1), "friend"), self.user(str(int(uid) + 2), "other")]
            channel = {
                "id": self._private_channel_id("group_dm", uid),
                "type": 3,
                "name": "Commander night",
                "icon": None,
                "owner_id": uid,
                "last_message_id": None,
                "flags": 0,
                "recipients": [member_user, *friends],
            }
            private_permissions = PRIVATE_APP_PERMISSIONS
        return fields | {
            "channel_id": channel["id"],
            "channel": channel,
            "user": member_user,
            "app_permissions": str(private_permissions),
        }

    def _place_of(self, payload: dict[str, Any]) -> str:
        """Which `Where` an interaction payload came from."""
        context = payload.get("context", GUILD_CONTEXT)
        if context == BOT_DM_CONTEXT:
            return "bot_dm"
        if context == PRIVATE_CHANNEL_CONTEXT:
            return "group_dm" if (payload.get("channel") or {}).get("type") == 3 else "private_dm"
        return "guild" if str(payload.get("guild_id")) in self.guild_ids else "user_guild"

    def attachment(self, filename: str, data: bytes, content_type: str = "text/plain; charset=utf-8") -> dict:
        """Serve `data` and return an attachment object for an option of type 11 (or a message)."""
        key = secrets.token_hex(8)
        self.files[f"{key}/{filename}"] = (data, content_type)
        url = f"{self.base_url}/files/{key}/{filename}"
        return {
            "id": snowflake(),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
            "ephemeral": True,
        }

    def message(
        self,
        content: str = "",
        *,
        attachments: Iterable[dict[str, Any]] = (),
        embeds: Iterable[dict[str, Any]] = (),
        author: dict[str, Any] | None = None,
        components: Iterable[dict[str, Any]] = (),
    ) -> dict[str, Any]:
        """A message a user posted, as Discord sends it in `resolved.messages` (for message commands).

        Its channel (and guild) are set to where the command is used when it is invoked."""
        return {
            "id": snowflake(),
            "type": 0,
            "channel_id": self.channel_id,
            "author": author or self.user("1100000000000000400", "deckbuilder"),
            "content": content,
            "timestamp": "2026-01-01T00:00:00.000000+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [{k: v for k, v in a.items() if k != "ephemeral"} for a in attachments],
            "embeds": list(embeds),
            "components": list(components),
            "pinned": False,
            "flags": 0,
        }

    def _message_object(self, message: BotMessage) -> dict[str, Any]:
        """The message object Discord returns (and puts in component interactions) for `message`."""
        record = self.interactions.get(message.interaction_id)
        flags = int(message.data.get("flags") or 0) | (EPHEMERAL if message.ephemeral else 0)
        flags |= LOADING if message.loading else 0
        msg_type = 0
        if record is not None and record.type == APPLICATION_COMMAND:
            command_type = (record.payload.get("data") or {}).get("type", CHAT_INPUT)
            msg_type = 20 if command_type == CHAT_INPUT else 23
        msg: dict[str, Any] = {
            "id": message.id,
            "type": msg_type,
            "channel_id": message.channel_id,
            "author": self.bot_user,
            "content": message.data.get("content") or "",
            "timestamp": "2026-01-01T00:00:00.000000+00:00",
            "edited_timestamp": "2026-01-01T00:00:01.000000+00:00" if message.history else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                a for a in message.data.get("attachments") or [] if isinstance(a, dict) and "url" in a
            ],
            "embeds": message.data.get("embeds") or [],
            "pinned": False,
            "flags": flags,
            "components": message.data.get("components") or [],
            "webhook_id": self.application_id,
            "application_id": self.application_id,
        }
        if message.guild_id is not None:
            msg["guild_id"] = message.guild_id
        if record is not None:
            metadata: dict[str, Any] = {
                "id": record.id,
                "type": record.type,
                "user": record.user,
                "authorizing_integration_owners": record.payload.get("authorizing_integration_owners") or {},
            }
            if record.source_message_id is not None:
                metadata["interacted_message_id"] = record.source_message_id
            if message.id != record.original_message_id and record.original_message_id is not None:
                metadata["original_response_message_id"] = record.original_message_id
            msg["interaction_metadata"] = metadata
        return msg

    def _new_message(
        self, record: InteractionRecord, data: dict[str, Any], *, ephemeral: bool, loading: bool = False
    ) -> BotMessage:
        payload = record.payload
        message = BotMessage(
            id=snowflake(),
            interaction_id=record.id,
            channel_id=str(payload.get("channel_id") or self.channel_of(self.guild_id)),
            guild_id=str(payload["guild_id"]) if payload.get("guild_id") else None,
            data={k: copy.deepcopy(data[k]) for k in MESSAGE_FIELDS if k in data},
            audience=str(record.user.get("id")) if ephemeral else None,
            loading=loading,
        )
        message.data["flags"] = int(message.data.get("flags") or 0) & ~EPHEMERAL
        self.messages[message.id] = message
        return message

    @staticmethod
    def _edit_message(message: BotMessage, body: dict[str, Any]) -> None:
        """Apply an edit (PATCH or UPDATE_MESSAGE data): the fields it names replace the old ones."""
        message.history.append(copy.deepcopy(message.data))
        for key in MESSAGE_FIELDS:
            if key not in body:
                continue
            if key == "flags":  # only SUPPRESS_EMBEDS can change on an existing message
                old = int(message.data.get("flags") or 0)
                message.data["flags"] = (old & ~SUPPRESS_EMBEDS) | (int(body["flags"] or 0) & SUPPRESS_EMBEDS)
            elif body[key] is None:
                message.data.pop(key, None)
            else:
                message.data[key] = copy.deepcopy(body[key])
        message.loading = False

    def _state(self, message: BotMessage) -> dict[str, Any]:
        """A copy of what the message shows now, with its flags as Discord reports them."""
        state = copy.deepcopy(message.data)
        state["flags"] = int(state.get("flags") or 0) | (EPHEMERAL if message.ephemeral else 0)
        return state

    # ----------------------------------------------------------------------------- payload builders
    def _find_command(
        self, name: str, command_type: int = CHAT_INPUT, guild_id: str | None = None
    ) -> tuple[dict[str, Any] | None, str | None]:
        """The synced command `name` of `command_type`: the guild's own first, then the global one,
        then one synced to any other guild. Returns (command, guild scope or None for global)."""
        scopes = ([guild_id] if guild_id else []) + ["global"] + [s for s in self.commands if s != "global"]
        for scope in scopes:
            for c in self.commands.get(scope, []):
                if c["name"] == name and c.get("type", CHAT_INPUT) == command_type:
                    return c, (scope if scope != "global" else None)
        return None, None

    def command_contexts(self, command: dict[str, Any]) -> tuple[set[int], set[int]]:
        """(integration_types, contexts) where Discord shows a synced command, with defaults applied."""
        types = command.get("integration_types")
        installs = set(types) if types else set(self.installation_types)
        contexts = command.get("contexts")
        if contexts is None:
            where = {GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT}
            if command.get("dm_permission") is False:
                where.discard(BOT_DM_CONTEXT)
            return installs, where
        return installs, set(contexts)

    def _authorize(
        self,
        name: str,
        command: dict[str, Any] | None,
        scope: str | None,
        where: str,
        fields: dict[str, Any],
        user_install: bool | None,
        command_type: int = CHAT_INPUT,
    ) -> dict[str, str]:
        """The `authorizing_integration_owners` for using `command` at this place, or UserCannotDoThat
        when Discord would not show the command there."""
        uid = str(((fields.get("member") or {}).get("user") or fields.get("user") or {}).get("id"))
        gid = fields.get("guild_id")
        if user_install is None:
            user_install = where != "guild"
        if command is None:
            if where == "guild" and command_type == CHAT_INPUT:  # unsynced slash command (raw-client tests)
                return {str(GUILD_INSTALL): str(gid)}
            raise UserCannotDoThat(f"no synced command {name!r}: Discord shows nothing to use in {where}")
        if scope is not None:  # a guild command exists only in its guild, for the guild install
            if where != "guild" or str(gid) != str(scope):
                raise UserCannotDoThat(
                    f"{name!r} is a command of guild {scope}; it does not exist in {where} "
                    f"{gid or ''}".rstrip()
                )
            return {str(GUILD_INSTALL): str(gid)}
        installs, contexts = self.command_contexts(command)
        if WHERE_CONTEXT[where] not in contexts:
            raise UserCannotDoThat(
                f"{name!r} is not available in {where}: its contexts are {sorted(contexts)}"
            )
        # Discord hides a command (a group with all its subcommands) from members without its
        # default_member_permissions; "0" shows it to administrators only
        needed = int(command.get("default_member_permissions") or -1)
        have = int((fields.get("member") or {}).get("permissions") or 0)
        hidden = needed == 0 or (needed > 0 and have & needed != needed)
        if hidden and "member" in fields and not have & ADMINISTRATOR:
            raise UserCannotDoThat(f"{name!r} is hidden from members without permissions {needed}")
        owners: dict[str, str] = {}
        if where == "guild" and GUILD_INSTALL in installs:
            owners[str(GUILD_INSTALL)] = str(gid)
        if where == "bot_dm" and GUILD_INSTALL in installs:
            owners[str(GUILD_INSTALL)] = "0"
        if user_install and USER_INSTALL in installs and USER_INSTALL in self.installation_types:
            owners[str(USER_INSTALL)] = uid
        if not owners:
            raise UserCannotDoThat(
                f"{name!r} is not available in {where}: its integration_types are {sorted(installs)}"
                + ("" if user_install else " and the user has not installed the app")
            )
        return owners

    def _options(
        self, options: dict[str, Any] | list[dict[str, Any]] | None, focused: str | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        if isinstance(options, list):
            return options, {}
        out: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in (options or {}).items():
            if isinstance(value, dict) and "filename" in value:
                resolved.setdefault("attachments", {})[value["id"]] = value
                opt: dict[str, Any] = {"name": name, "type": 11, "value": value["id"]}
            elif isinstance(value, bool):
                opt = {"name": name, "type": 5, "value": value}
            elif isinstance(value, int):
                opt = {"name": name, "type": 4, "value": value}
            elif isinstance(value, float):
                opt = {"name": name, "type": 10, "value": value}
            else:
                opt = {"name": name, "type": 3, "value": str(value)}
            if name == focused:
                opt["focused"] = True
            out.append(opt)
        return out, resolved

    def _base_payload(
        self, type: int, data: dict[str, Any], fields: dict[str, Any], owners: dict[str, str], locale: str
    ) -> dict[str, Any]:
        return {
            "id": snowflake(),
            "application_id": self.application_id,
            "type": type,
            "data": data,
            **fields,
            "token": "itok_" + secrets.token_urlsafe(24),
            "version": 1,
            "locale": _locale(locale),
            "entitlements": [],
            "authorizing_integration_owners": owners,
            "attachment_size_limit": 26_214_400,
        }

    def _command_payload(
        self,
        name: str,
        command_type: int,
        data: dict[str, Any],
        *,
        type: int,
        user: dict[str, Any] | None,
        guild_id: int | str | None,
        where: Where,
        user_install: bool | None,
        locale: str,
    ) -> dict[str, Any]:
        fields = self.place(where, user=user, guild_id=guild_id)
        command, guild_scope = self._find_command(name, command_type, fields.get("guild_id"))
        owners = self._authorize(name, command, guild_scope, where, fields, user_install, command_type)
        data = {"id": command["id"] if command else snowflake(), "name": name, "type": command_type, **data}
        if guild_scope is not None:
            data["guild_id"] = guild_scope
        return self._base_payload(type, data, fields, owners, locale)

    def interaction_payload(
        self,
        name: str,
        options: dict[str, Any] | list[dict[str, Any]] | None = None,
        *,
        type: int = APPLICATION_COMMAND,
        focused: str | None = None,
        user: dict[str, Any] | None = None,
        guild_id: int | str | None = None,
        where: Where = "guild",
        user_install: bool | None = None,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        """A realistic INTERACTION_CREATE payload for slash command `name` (or its autocomplete),
        used at `where` (default: in guild `guild_id`, default the first guild) by a client in `locale`.

        `user_install`: whether the user installed the app to their account (default: yes everywhere
        but "guild"). Raises UserCannotDoThat where Discord would not offer the synced command."""
        opts, resolved = self._options(options, focused)
        data: dict[str, Any] = {"options": opts}
        if resolved:
            data["resolved"] = resolved
        return self._command_payload(
            name,
            CHAT_INPUT,
            data,
            type=type,
            user=user,
            guild_id=guild_id,
            where=where,
            user_install=user_install,
            locale=locale,
        )

    def message_command_payload(
        self,
        name: str,
        message: dict[str, Any],
        *,
        user: dict[str, Any] | None = None,
        guild_id: int | str | None = None,
        where: Where = "guild",
        user_install: bool | None = None,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        """The payload of message command `name` used on `message` (see `message()`), which is moved to
        the channel where the command is used."""
        fields = self.place(where, user=user, guild_id=guild_id)
        target = {**copy.deepcopy(message), "channel_id": fields["channel_id"]}
        target.pop("guild_id", None)
        if fields.get("guild_id"):
            target["guild_id"] = fields["guild_id"]
        data = {"target_id": target["id"], "resolved": {"messages": {target["id"]: target}}}
        return self._command_payload(
            name,
            MESSAGE_COMMAND,
            data,
            type=APPLICATION_COMMAND,
            user=user,
            guild_id=guild_id,
            where=where,
            user_install=user_install,
            locale=locale,
        )

    def user_command_payload(
        self,
        name: str,
        target: dict[str, Any],
        *,
        user: dict[str, Any] | None = None,
        guild_id: int | str | None = None,
        where: Where = "guild",
        user_install: bool | None = None,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        """The payload of user command `name` used on user `target` (see `user()`)."""
        resolved: dict[str, Any] = {"users": {target["id"]: target}}
        if where in ("guild", "user_guild"):
            member = self._member(target)
            resolved["members"] = {
                target["id"]: {k: v for k, v in member.items() if k not in ("user", "deaf", "mute")}
            }
        data = {"target_id": target["id"], "resolved": resolved}
        return self._command_payload(
            name,
            USER_COMMAND,
            data,
            type=APPLICATION_COMMAND,
            user=user,
            guild_id=guild_id,
            where=where,
            user_install=user_install,
            locale=locale,
        )

    # ------------------------------------------------------------------------------- interactions
    async def send_interaction(self, payload: dict[str, Any]) -> InteractionRecord:
        """Dispatch INTERACTION_CREATE on the session of the shard that owns the payload's guild.

        While that shard's socket is down the event is kept and replayed after the client RESUMEs."""
        guild = payload.get("guild_id")
        shard = self.shard_for_guild(guild) if guild else 0
        if shard not in self.shards:
            raise RuntimeError(f"no bot session for shard {shard} on the fake gateway")
        record = self.register_interaction(payload)
        await self._dispatch("INTERACTION_CREATE", payload, shard=shard)
        return record

    def register_interaction(self, payload: dict[str, Any]) -> InteractionRecord:
        """Expect callbacks for `payload` without dispatching it (for tests that hand the event to the
        client in-process); `send_interaction` uses it before dispatching on the gateway."""
        record = InteractionRecord(
            id=payload["id"],
            token=payload["token"],
            type=payload["type"],
            payload=payload,
            dispatched_at=time.perf_counter(),
        )
        self.interactions[record.id] = record
        self._by_token[record.token] = record
        return record

    async def wait_for_callback(self, interaction_id: str, timeout: float = 10.0) -> dict[str, Any]:  # noqa: ASYNC109
        """The first callback JSON the bot posted for this interaction."""
        record = self.interactions[interaction_id]
        async with asyncio.timeout(timeout):
            while not record.callbacks:
                record.changed.clear()
                await record.changed.wait()
        return record.callbacks[0]

    async def wait_for_reply(self, interaction_id: str, timeout: float = 15.0) -> Reply:  # noqa: ASYNC109
        """What the user sees next: the callback's message (or modal, or choices); for UPDATE_MESSAGE
        the updated message; after a deferral, the first edit of @original or the first follow-up."""
        record = self.interactions[interaction_id]
        callback = await self.wait_for_callback(interaction_id, timeout)
        ctype = int(callback.get("type") or 0)
        user_id = str(record.user.get("id")) if record.user else None
        latency = (record.callback_at or time.perf_counter()) - record.dispatched_at
        if ctype in (CHANNEL_MESSAGE, UPDATE_MESSAGE, MODAL, AUTOCOMPLETE_RESULT):
            data = callback.get("data") or {}
            message_id = record.original_message_id if ctype in (CHANNEL_MESSAGE, UPDATE_MESSAGE) else None
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            if ctype == UPDATE_MESSAGE and record.edit_states:
                data = record.edit_states[0]  # the whole message after the update
                ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
            return Reply(record.id, ctype, data, ephemeral, False, latency, message_id, user_id)
        async with asyncio.timeout(timeout):
            while not record.edits and not record.followups:
                record.changed.clear()
                await record.changed.wait()
        latency = (record.reply_at or time.perf_counter()) - record.dispatched_at
        if record.edits:
            if ctype == DEFERRED_UPDATE:
                data = record.edit_states[0]
                ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
            else:
                data = record.edits[0]
                ephemeral = record.deferred_ephemeral
            message_id = record.original_message_id
        else:
            data = record.followups[0]
            message_id = record.followup_message_ids[0]
            message = self.messages.get(message_id)
            ephemeral = (
                message.ephemeral if message is not None else bool((data.get("flags") or 0) & EPHEMERAL)
            )
        return Reply(record.id, ctype, data, ephemeral, True, latency, message_id, user_id)

    async def invoke(
        self,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        timeout: float = 15.0,  # noqa: ASYNC109
        user: dict[str, Any] | None = None,
        guild_id: int | str | None = None,
        where: Where = "guild",
        user_install: bool | None = None,
        locale: str = "en-US",
    ) -> Reply:
        """Run slash command `name` with `options` at `where` from a client in `locale`; return the reply."""
        payload = self.interaction_payload(
            name, options, user=user, guild_id=guild_id, where=where, user_install=user_install, locale=locale
        )
        await self.send_interaction(payload)
        return await self.wait_for_reply(payload["id"], timeout)

    async def invoke_message_command(
        self,
        name: str,
        message: dict[str, Any],
        *,
        timeout: float = 15.0,  # noqa: ASYNC109
        user: dict[str, Any] | None = None,
        guild_id: int | str | None = None,
        where: Where = "guild",
        user_install: bool | None = None,
        locale: str = "en-US",
    ) -> Reply:
        """Use message command `name` ("Apps" menu of a message) on `message` and return the reply."""
        payload = self.message_command_payload(
            name, message, user=user, guild_id=guild_id, where=where, user_install=user_install, locale=locale
        )
        await self.send_interaction(payload)
        return await self.wait_for_reply(payload["id"], timeout)

    async def invoke_user_command(
        self,
        name: str,
        target: dict[str, Any],
        *,
        timeout: float = 15.0,  # noqa: ASYNC109
        user: dict[str, Any] | None = None,
        guild_id: int | str | None = None,
        where: Where = "guild",
        user_install: bool | None = None,
        locale: str = "en-US",
    ) -> Reply:
        """Use user command `name` ("Apps" menu of a user) on user `target` and return the reply."""
        payload = self.user_command_payload(
            name, target, user=user, guild_id=guild_id, where=where, user_install=user_install, locale=locale
        )
        await self.send_interaction(payload)
        return await self.wait_for_reply(payload["id"], timeout)

    async def autocomplete(
        self,
        name: str,
        options: dict[str, Any],
        focused: str,
        timeout: float = 10.0,  # noqa: ASYNC109
        *,
        user: dict[str, Any] | None = None,
        guild_id: int | str | None = None,
        where: Where = "guild",
        user_install: bool | None = None,
        locale: str = "en-US",
    ) -> list[dict[str, Any]]:
        """Send an autocomplete interaction (option `focused` being typed); return the choices."""
        payload = self.interaction_payload(
            name,
            options,
            type=AUTOCOMPLETE,
            focused=focused,
            user=user,
            guild_id=guild_id,
            where=where,
            user_install=user_install,
            locale=locale,
        )
        await self.send_interaction(payload)
        reply = await self.wait_for_reply(payload["id"], timeout)
        return reply.choices

    # ------------------------------------------------------------------- components and modals
    def _target_message(self, target: Reply | str | dict[str, Any]) -> BotMessage:
        if isinstance(target, Reply):
            if target.message_id is None:
                raise UserCannotDoThat(
                    f"reply to {target.interaction_id} (callback type {target.callback_type}) "
                    "is not a message"
                )
            message_id = target.message_id
        elif isinstance(target, dict):
            message_id = str(target["id"])
        else:
            message_id = str(target)
        message = self.messages.get(message_id)
        if message is None:
            raise UserCannotDoThat(
                f"message {message_id} was not sent by the application through an interaction"
            )
        if message.deleted:
            raise UserCannotDoThat(f"message {message_id} was deleted")
        return message

    def _acting_user(self, message: BotMessage, user: dict[str, Any] | None) -> dict[str, Any]:
        origin = self.interactions[message.interaction_id]
        actor = user or origin.user
        if message.ephemeral and str(actor.get("id")) != message.audience:
            raise UserCannotDoThat(
                f"message {message.id} is ephemeral: only user {message.audience} sees it, "
                f"not {actor.get('id')}"
            )
        if origin.payload.get("context") == BOT_DM_CONTEXT and str(actor.get("id")) != str(
            origin.user.get("id")
        ):
            raise UserCannotDoThat(f"user {actor.get('id')} is not in the DM of message {message.id}")
        return actor

    def _follow_on_payload(
        self,
        type: int,
        data: dict[str, Any],
        origin: InteractionRecord,
        actor: dict[str, Any],
        message: BotMessage | None,
        locale: str,
    ) -> dict[str, Any]:
        """A component or modal-submit interaction at the same place as `origin`, by `actor` in `locale`."""
        p = origin.payload
        fields: dict[str, Any] = {
            k: copy.deepcopy(p[k])
            for k in (
                "guild_id",
                "guild",
                "guild_locale",
                "channel_id",
                "channel",
                "app_permissions",
                "context",
            )
            if k in p
        }
        if "member" in p:  # the actor's own permissions in that guild
            fields["member"] = self._member(actor, self.member_permissions(str(p["guild_id"]), actor))
        else:
            fields["user"] = actor
        owners = dict(p.get("authorizing_integration_owners") or {})
        if str(USER_INSTALL) in owners and str(actor.get("id")) != str(origin.user.get("id")):
            owners[str(USER_INSTALL)] = str(origin.user.get("id"))  # the installing user stays the owner
        payload = self._base_payload(type, data, fields, owners, locale)
        if message is not None:
            payload["message"] = self._message_object(message)
        return payload

    async def select(
        self,
        target: Reply | str | dict[str, Any],
        custom_id: str,
        values: Iterable[str],
        *,
        user: dict[str, Any] | None = None,
        timeout: float = 15.0,  # noqa: ASYNC109
        locale: str = "en-US",
    ) -> Reply:
        """Pick `values` in string select `custom_id` of a message (a Reply, a message id or object) and
        return what the user sees next. Raises UserCannotDoThat for a select or values the message
        does not offer, a disabled select, or someone else's ephemeral message."""
        message = self._target_message(target)
        actor = self._acting_user(message, user)
        component = self._find_component(message, custom_id)
        if component.get("type") not in SELECT_TYPES:
            raise UserCannotDoThat(f"{custom_id!r} on message {message.id} is not a select menu")
        if component.get("type") != STRING_SELECT:
            raise UserCannotDoThat(
                f"{custom_id!r} is a select of type {component['type']}; the fake user "
                "only picks in string selects"
            )
        picked = [str(v) for v in values]
        offered = [str(o.get("value")) for o in component.get("options") or []]
        low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
        if len(set(picked)) != len(picked):
            raise UserCannotDoThat(f"the same value twice in {picked}")
        if unknown := [v for v in picked if v not in offered]:
            raise UserCannotDoThat(f"select {custom_id!r} does not offer {unknown}; it offers {offered}")
        if not low <= len(picked) <= high:
            raise UserCannotDoThat(f"select {custom_id!r} takes {low} to {high} values, not {len(picked)}")
        data = {"custom_id": custom_id, "component_type": STRING_SELECT, "values": picked}
        if component.get("id") is not None:
            data["id"] = component["id"]
        return await self._act(message, actor, data, timeout, locale)

    async def click(
        self,
        target: Reply | str | dict[str, Any],
        custom_id: str,
        *,
        user: dict[str, Any] | None = None,
        timeout: float = 15.0,  # noqa: ASYNC109
        locale: str = "en-US",
    ) -> Reply:
        """Press button `custom_id` of a message and return what the user sees next."""
        message = self._target_message(target)
        actor = self._acting_user(message, user)
        component = self._find_component(message, custom_id)
        if component.get("type") != BUTTON:
            raise UserCannotDoThat(f"{custom_id!r} on message {message.id} is not a button")
        data = {"custom_id": custom_id, "component_type": BUTTON}
        if component.get("id") is not None:
            data["id"] = component["id"]
        return await self._act(message, actor, data, timeout, locale)

    def _find_component(self, message: BotMessage, custom_id: str) -> dict[str, Any]:
        for component in walk_components(message.components):
            if component.get("custom_id") == custom_id:
                if component.get("disabled"):
                    raise UserCannotDoThat(f"{custom_id!r} on message {message.id} is disabled")
                return component
        present = [c.get("custom_id") for c in walk_components(message.components) if c.get("custom_id")]
        raise UserCannotDoThat(f"message {message.id} has no component {custom_id!r} (it has {present})")

    async def _act(
        self,
        message: BotMessage,
        actor: dict[str, Any],
        data: dict[str, Any],
        timeout: float,  # noqa: ASYNC109
        locale: str,
    ) -> Reply:
        origin = self.interactions[message.interaction_id]
        payload = self._follow_on_payload(MESSAGE_COMPONENT, data, origin, actor, message, locale)
        await self.send_interaction(payload)
        return await self.wait_for_reply(payload["id"], timeout)

    async def submit_modal(
        self,
        reply: Reply,
        values: Mapping[str, str | list[str]],
        *,
        user: dict[str, Any] | None = None,
        timeout: float = 15.0,  # noqa: ASYNC109
        locale: str = "en-US",
    ) -> Reply:
        """Fill in and submit the modal `reply` showed (callback type 9): `values` maps each input's
        custom_id to its text (or, for a select in a Label, a list of values). Returns the reply.

        Raises UserCannotDoThat as Discord's client would refuse: another user, a second submission,
        an unknown input, a required input left empty, a length outside min/max, a new line in a
        short input, select values not offered."""
        record = self.interactions.get(reply.interaction_id)
        modal = record.modal if record is not None else None
        if record is None or modal is None:
            raise UserCannotDoThat(f"interaction {reply.interaction_id} did not answer with a modal")
        actor = user or record.user
        if str(actor.get("id")) != str(record.user.get("id")):
            raise UserCannotDoThat(
                f"the modal was shown to user {record.user.get('id')}, not {actor.get('id')}"
            )
        if record.modal_submitted:
            raise UserCannotDoThat(f"the modal of interaction {record.id} was already submitted")
        components = self._modal_answers(modal, values)
        record.modal_submitted = True
        message = self.messages.get(record.source_message_id or "")
        data = {"custom_id": modal.get("custom_id"), "components": components}
        payload = self._follow_on_payload(MODAL_SUBMIT, data, record, actor, message, locale)
        await self.send_interaction(payload)
        return await self.wait_for_reply(payload["id"], timeout)

    @staticmethod
    def _modal_answers(modal: dict[str, Any], values: Mapping[str, str | list[str]]) -> list[dict[str, Any]]:
        """The `data.components` of a modal submit for `values`, checked as Discord's client does."""
        inputs = [c for c in walk_components(modal.get("components") or []) if c.get("custom_id")]
        known = {c["custom_id"] for c in inputs}
        if unknown := sorted(set(values) - known):
            raise UserCannotDoThat(f"the modal has no input {unknown}; it has {sorted(known)}")
        used_ids = {c["id"] for c in walk_components(modal.get("components") or []) if c.get("id")}
        counter = itertools.count(1)

        def next_id(component: dict[str, Any]) -> int:
            if component.get("id"):
                return int(component["id"])
            while (n := next(counter)) in used_ids:
                pass
            return n

        def answer(component: dict[str, Any]) -> dict[str, Any]:
            cid = component["custom_id"]
            if component.get("type") == TEXT_INPUT:
                text = values.get(cid, "")
                if not isinstance(text, str):
                    raise UserCannotDoThat(f"text input {cid!r} takes a string, not {text!r}")
                low, high = int(component.get("min_length") or 0), int(component.get("max_length") or 4000)
                if not text and component.get("required", True):
                    raise UserCannotDoThat(f"text input {cid!r} is required")
                if text and not low <= len(text) <= high:
                    raise UserCannotDoThat(
                        f"text input {cid!r} takes {low}-{high} characters, not {len(text)}"
                    )
                if component.get("style") == 1 and "\n" in text:
                    raise UserCannotDoThat(f"text input {cid!r} is a short (one-line) input")
                return {"type": TEXT_INPUT, "id": next_id(component), "custom_id": cid, "value": text}
            if component.get("type") == STRING_SELECT:
                picked = values.get(cid, [])
                picked = [picked] if isinstance(picked, str) else list(picked)
                offered = [o.get("value") for o in component.get("options") or []]
                if unknown_values := [v for v in picked if v not in offered]:
                    raise UserCannotDoThat(f"select {cid!r} does not offer {unknown_values}")
                required = component.get("required", True)
                low = int(component.get("min_values", 1)) if required else 0
                if not low <= len(picked) <= int(component.get("max_values", 1)):
                    raise UserCannotDoThat(
                        f"select {cid!r} takes {low}-{component.get('max_values', 1)} values"
                    )
                return {"type": STRING_SELECT, "id": next_id(component), "custom_id": cid, "values": picked}
            raise UserCannotDoThat(f"the fake user cannot fill a component of type {component.get('type')}")

        out: list[dict[str, Any]] = []
        for top in modal.get("components") or []:
            if top.get("type") == ACTION_ROW:
                out.append(
                    {
                        "type": ACTION_ROW,
                        "id": next_id(top),
                        "components": [answer(c) for c in top.get("components") or []],
                    }
                )
            elif top.get("type") == LABEL and isinstance(top.get("component"), dict):
                out.append({"type": LABEL, "id": next_id(top), "component": answer(top["component"])})
            elif top.get("type") == TEXT_DISPLAY:
                out.append({"type": TEXT_DISPLAY, "id": next_id(top)})
        return out

    # --------------------------------------------------------------------------------------- REST
    def _violation(self, text: str) -> None:
        self.violations.append(text)

    def _reject(
        self, status: int, code: int, message: str, problems: list[str], prefix: str, errors: Any = None
    ) -> web.Response:
        """Record each problem as a violation and answer with Discord's error."""
        for p in problems:
            self._violation(f"{prefix}: {p}")
        return _error(status, code, message, errors if errors is not None else {"problems": problems})

    def _authorized(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.token}"

    async def _body(self, request: web.Request) -> Any:
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            form = await request.post()
            body = json.loads(_form_bytes(form.get("payload_json")) or b"{}")
            body.setdefault("_files", [k for k in form if k.startswith("files[")])
            # uploaded files by filename (used by the deck-check tests to read the attached report)
            body.setdefault(
                "_file_data",
                {
                    getattr(form[k], "filename", k): _form_bytes(form[k])
                    for k in form
                    if k.startswith("files[")
                },
            )
            return body
        if not request.can_read_body:
            return {}
        text = await request.text()
        return json.loads(text) if text else {}

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        self.requests.append((method, path))
        parts = [p for p in path.split("/") if p]

        # Interaction callbacks and webhooks (no bot token needed, the interaction token authorises)
        if parts[:1] == ["interactions"] and len(parts) == 4 and parts[3] == "callback" and method == "POST":
            return await self._callback(request, parts[1], parts[2])
        if parts[:1] == ["webhooks"] and len(parts) >= 3:
            return await self._webhook(request, method, parts)

        if not self._authorized(request):
            return _error(401, 0, "401: Unauthorized")
        if path == "/users/@me" and method == "GET":
            return _json(self.bot_user)
        if path == "/oauth2/applications/@me" and method == "GET":
            return _json(self._application())
        if path in ("/gateway/bot", "/gateway") and method == "GET":
            body: dict[str, Any] = {"url": self.gateway_url}
            if path == "/gateway/bot":
                body |= {
                    "shards": self.recommended_shards,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 14_400_000,
                        "max_concurrency": 1,
                    },
                }
            return _json(body)
        if (
            parts[:2] == ["applications", self.application_id]
            and len(parts) in (3, 4)
            and parts[2] == "emojis"
        ):
            return await self._emojis(request, method, parts[3] if len(parts) == 4 else None)
        if parts[:2] == ["applications", self.application_id] and parts[-1] == "commands":
            scope: str | int = "global"
            if len(parts) == 5 and parts[2] == "guilds":
                scope = int(parts[3])
            elif len(parts) != 3:
                return self._unhandled(method, path)
            if method == "PUT":
                return await self._sync(request, scope)
            if method == "GET":
                return _json(self.commands.get(str(scope), []))
        return self._unhandled(method, path)

    def _unhandled(self, method: str, path: str) -> web.Response:
        self.unhandled.append((method, path))
        return _error(404, 0, "404: Not Found")

    def _application(self) -> dict[str, Any]:
        owner = self.user()
        return {
            "id": self.application_id,
            "name": "Identity Bot",
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": owner,
            "team": None,
            "flags": 0,
            "tags": [],
            "install_params": None,
            "custom_install_url": None,
            "rpc_origins": [],
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "approximate_guild_count": 1,
            "integration_types_config": {str(t): {} for t in self.installation_types},
            "bot": self.bot_user,
        }

    async def _sync(self, request: web.Request, scope: str | int) -> web.Response:
        commands = await self._body(request)
        if not isinstance(commands, list):
            self._violation(f"command sync body is not a list: {commands!r}")
            return _error(400, 50035, "Invalid Form Body")
        if problems := sync_problems(commands, self.installation_types):
            for path, code, message in problems:
                self._violation(f"command sync: {'.'.join(path) or 'body'}: {code}: {message}")
            return _error(400, 50035, "Invalid Form Body", form_errors(problems))
        registered = []
        for c in commands:
            item = {
                "id": snowflake(),
                "application_id": self.application_id,
                "version": snowflake(),
                "type": c.get("type", CHAT_INPUT),
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                "contexts": None,
                "integration_types": None,
                "name_localizations": None,
                "description_localizations": None,
            } | c
            if item["type"] in (USER_COMMAND, MESSAGE_COMMAND):
                item["description"] = ""  # Discord returns an empty description for context menus
            if not item["integration_types"]:  # defaults to the app's installation contexts
                item["integration_types"] = list(self.installation_types)
            if scope != "global":
                item["guild_id"] = str(scope)
            registered.append(item)
        self.commands[str(scope)] = registered
        self.command_syncs.append(CommandSync(scope=scope, commands=registered))
        return _json(registered)

    # ---------------------------------------------------------------------------- application emojis
    async def _emojis(self, request: web.Request, method: str, emoji_id: str | None) -> web.Response:
        """List/create (no id) or get/modify/delete one application emoji, as Discord documents them."""
        if emoji_id is None:
            if method == "GET":
                return _json({"items": list(self.app_emojis.values())})
            if method == "POST":
                return self._create_emoji(await self._body(request))
            return self._unhandled(method, f"/applications/{self.application_id}/emojis")
        emoji = self.app_emojis.get(emoji_id)
        if emoji is None:
            self._violation(f"{method} of unknown application emoji {emoji_id}")
            return _error(404, 10014, "Unknown Emoji")
        if method == "GET":
            return _json(emoji)
        if method == "PATCH":
            body = await self._body(request)
            if "name" in body:
                problem = self._emoji_name_problem(body.get("name"), ignore=emoji_id)
                if problem is not None:
                    return self._reject(
                        400,
                        50035,
                        "Invalid Form Body",
                        [problem[2]],
                        f"application emoji {emoji_id}",
                        _field_error("name", problem[0], problem[1]),
                    )
                emoji["name"] = body["name"]
            return _json(emoji)
        if method == "DELETE":
            del self.app_emojis[emoji_id]
            self.emoji_images.pop(emoji_id, None)
            return web.Response(status=204)
        return self._unhandled(method, f"/applications/{self.application_id}/emojis/{emoji_id}")

    def _emoji_name_problem(self, name: Any, ignore: str | None = None) -> tuple[str, str, str] | None:
        """(Discord's error code, its message, our description) for a bad emoji name, else None."""
        if not isinstance(name, str):
            return "BASE_TYPE_REQUIRED", "This field is required", f"emoji name missing: {name!r}"
        if not 2 <= len(name) <= 32:
            return (
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 2 and 32 in length.",
                f"emoji name {name!r} is {len(name)} characters (2-32)",
            )
        if not EMOJI_NAME_RE.match(name):
            return (
                "STRING_TYPE_REGEX",
                "String value did not match validation regex.",
                f"emoji name {name!r} has characters other than A-Z, a-z, 0-9 and _",
            )
        if any(e["name"] == name and i != ignore for i, e in self.app_emojis.items()):
            return (
                "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                "Application emoji name already taken",
                f"emoji name {name!r} is already taken",
            )
        return None

    def _create_emoji(self, body: Any) -> web.Response:
        prefix = "application emoji upload"
        if not isinstance(body, dict):
            return self._reject(400, 50035, "Invalid Form Body", ["body is not an object"], prefix)
        name = body.get("name")
        problem = self._emoji_name_problem(name)
        if problem is not None:
            return self._reject(
                400,
                50035,
                "Invalid Form Body",
                [problem[2]],
                prefix,
                _field_error("name", problem[0], problem[1]),
            )
        image = body.get("image")
        match = IMAGE_DATA_RE.match(image) if isinstance(image, str) else None
        if match is None or match.group(1) not in IMAGE_FORMATS:
            declared = match.group(1) if match else str(image)[:40]
            return self._reject(
                400,
                50035,
                "Invalid Form Body",
                [f"{name}: image is not a PNG/JPEG/GIF/WebP/AVIF data URI ({declared!r})"],
                prefix,
                _field_error("image", "IMAGE_INVALID", "Invalid image data"),
            )
        try:
            raw = base64.b64decode(match.group(2), validate=True)
        except (binascii.Error, ValueError):
            return self._reject(
                400,
                50035,
                "Invalid Form Body",
                [f"{name}: image is not valid base64"],
                prefix,
                _field_error("image", "IMAGE_INVALID", "Invalid image data"),
            )
        if len(raw) > EMOJI_MAX_BYTES:
            return self._reject(
                400,
                50035,
                "Invalid Form Body",
                [f"{name}: image is {len(raw)} bytes (max {EMOJI_MAX_BYTES})"],
                prefix,
                _field_error("image", "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb."),
            )
        info = _image_info(raw)
        expected = IMAGE_FORMATS[match.group(1)]
        if info is None or info["format"] != expected:
            found = info["format"] if info else "not an image"
            return self._reject(
                400,
                50035,
                "Invalid Form Body",
                [f"{name}: declared {match.group(1)} but the data is {found}"],
                prefix,
                _field_error("image", "IMAGE_INVALID", "Invalid image data"),
            )
        if len(self.app_emojis) >= self.emoji_limit:
            self._violation(f"{prefix}: {name}: the application already has {len(self.app_emojis)} emojis")
            return _error(400, 30008, f"Maximum number of emojis reached ({self.emoji_limit})")
        emoji = {
            "id": snowflake(),
            "name": name,
            "roles": [],
            "user": self.bot_user,
            "require_colons": True,
            "managed": False,
            "animated": info["animated"],
            "available": True,
        }
        self.app_emojis[emoji["id"]] = emoji
        self.emoji_images[emoji["id"]] = raw
        self.emoji_uploads.append(
            {"id": emoji["id"], "name": name, "content_type": match.group(1), "bytes": len(raw), **info}
        )
        return _json(emoji, 201)

    def _scan_emojis(self, data: dict[str, Any], where: str) -> None:
        """Record every custom emoji the message data shows; unknown ones also in `unknown_emojis`."""
        texts = [data.get("content") or ""]
        for e in data.get("embeds") or []:
            texts += [
                e.get("title") or "",
                e.get("description") or "",
                (e.get("footer") or {}).get("text") or "",
                (e.get("author") or {}).get("name") or "",
            ]
            texts += [str(f.get(k) or "") for f in e.get("fields") or [] for k in ("name", "value")]
        found: list[tuple[str, str, bool]] = []
        for component in walk_components(data.get("components") or []):
            texts += [str(component.get(k) or "") for k in ("content", "label", "placeholder")]
            emojis = [component.get("emoji")] + [o.get("emoji") for o in component.get("options") or []]
            texts += [
                str(o.get(k) or "") for o in component.get("options") or [] for k in ("label", "description")
            ]
            found += [
                (str(e["id"]), str(e.get("name") or ""), bool(e.get("animated")))
                for e in emojis
                if isinstance(e, dict) and e.get("id")
            ]
        for text in texts:
            found += [(m.group(3), m.group(2), bool(m.group(1))) for m in CUSTOM_EMOJI_RE.finditer(text)]
        for emoji_id, name, animated in found:
            use = EmojiUse(
                id=emoji_id, name=name, animated=animated, where=where, known=emoji_id in self.app_emojis
            )
            self.emoji_uses.append(use)
            if not use.known:
                self.unknown_emojis.append(use)

    # ------------------------------------------------------------------------ interaction callbacks
    async def _callback(self, request: web.Request, interaction_id: str, token: str) -> web.Response:
        now = time.perf_counter()
        record = self.interactions.get(interaction_id)
        if record is None or record.token != token:
            self._violation(f"callback for unknown interaction {interaction_id}")
            return _error(404, 10062, "Unknown interaction")
        body = await self._body(request)
        try:
            if self.reject_callbacks > 0:
                self.reject_callbacks -= 1
                self.rejected_callbacks.append(interaction_id)
                return _error(400, 50035, "Invalid Form Body", {"fault": "rejected by the test"})
            if record.callbacks:
                self._violation(f"second callback for interaction {interaction_id}: {body.get('type')}")
                return _error(400, 40060, "Interaction has already been acknowledged.")
            if now - record.dispatched_at > self.callback_deadline:
                self._violation(f"callback for {interaction_id} after {now - record.dispatched_at:.2f}s")
                return _error(404, 10062, "Unknown interaction")
            ctype = body.get("type")
            if ctype not in ALLOWED_CALLBACKS.get(record.type, set()):
                self._violation(f"callback type {ctype} not valid for interaction type {record.type}")
                return _error(400, 50035, "Invalid Form Body", {"type": "invalid callback type"})
            source = self.messages.get(record.source_message_id or "")
            if ctype in (DEFERRED_UPDATE, UPDATE_MESSAGE) and source is None:
                self._violation(
                    f"callback type {ctype} for interaction {interaction_id}, which has no message"
                )
                return _error(400, 50035, "Invalid Form Body", {"type": "no message to update"})
            data = body.get("data") or {}
            prefix = f"interaction {interaction_id}"
            if ctype == AUTOCOMPLETE_RESULT:
                problems = _choice_problems(data.get("choices"))
            elif ctype == CHANNEL_MESSAGE:
                problems = self._message_problems(data, creating=True)
            elif ctype == UPDATE_MESSAGE:
                problems = self._message_problems(data, current=source.data if source else None)
            elif ctype == DEFERRED_CHANNEL_MESSAGE:
                flags = int(data.get("flags") or 0)
                problems = (
                    [f"flags {flags}: a deferred message may only set EPHEMERAL"]
                    if flags & ~EPHEMERAL
                    else []
                )
            elif ctype == MODAL:
                problems = _modal_problems(data)
            else:
                problems = []
            if problems:
                return self._reject(400, 50035, "Invalid Form Body", problems, prefix)
            record.callbacks.append(body)
            record.callback_at = now
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            answer: dict[str, Any] = {
                "interaction": {
                    "id": record.id,
                    "type": record.type,
                    "response_message_id": None,
                    "response_message_loading": ctype == DEFERRED_CHANNEL_MESSAGE,
                    "response_message_ephemeral": ephemeral,
                }
            }
            message: BotMessage | None = None
            if ctype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
                message = self._new_message(
                    record, data, ephemeral=ephemeral, loading=ctype == DEFERRED_CHANNEL_MESSAGE
                )
                if ctype == CHANNEL_MESSAGE:
                    self._scan_emojis(message.data, f"{prefix} callback")
            elif source is not None and ctype in (DEFERRED_UPDATE, UPDATE_MESSAGE):
                message = source
                answer["interaction"]["response_message_ephemeral"] = source.ephemeral
                if ctype == UPDATE_MESSAGE:
                    self._edit_message(source, data)
                    record.edit_states.append(self._state(source))
                    self._scan_emojis(source.data, f"{prefix} update")
            if message is not None:
                record.original_message_id = message.id
                answer["interaction"]["response_message_id"] = message.id
                if ctype != DEFERRED_UPDATE:
                    answer["resource"] = {"type": ctype, "message": self._message_object(message)}
            return _json(answer)
        finally:
            record.changed.set()

    async def _webhook(self, request: web.Request, method: str, parts: list[str]) -> web.Response:
        # /webhooks/{app_id}/{token}[/messages/{id}]
        app_id, token = parts[1], parts[2]
        record = self._by_token.get(token)
        if record is None or self.interactions.get(record.id) is not record:
            record = next((r for r in self.interactions.values() if r.token == token), None)
        if app_id != self.application_id or record is None:
            self._violation(f"webhook call with unknown application/token: {method} /{'/'.join(parts)}")
            return _error(404, 10015, "Unknown Webhook")
        try:
            if not record.callbacks:
                self._violation(f"webhook {method} before any callback for interaction {record.id}")
                return _error(404, 10015, "Unknown Webhook")
            if len(parts) == 3 and method == "POST":
                return await self._followup(request, record)
            if len(parts) == 5 and parts[3] == "messages":
                return await self._webhook_message(request, method, record, parts[4])
            return self._unhandled(method, "/" + "/".join(parts))
        finally:
            record.changed.set()

    async def _followup(self, request: web.Request, record: InteractionRecord) -> web.Response:
        """POST /webhooks/{app}/{token}: a follow-up; right after a deferral it fills the loading message."""
        body = await self._body(request)
        prefix = f"follow-up for {record.id}"
        original = self.messages.get(record.original_message_id or "")
        fills_original = (
            original is not None
            and original.loading
            and not original.deleted
            and record.callbacks[0].get("type") == DEFERRED_CHANNEL_MESSAGE
        )
        problems = self._message_problems(
            body, current=original.data if fills_original and original else None, creating=not fills_original
        )
        if problems:
            return self._reject(400, 50035, "Invalid Form Body", problems, prefix)
        if record.user_install_only and len(record.followups) >= MAX_USER_INSTALL_FOLLOWUPS:
            self._violation(
                f"{prefix}: more than {MAX_USER_INSTALL_FOLLOWUPS} follow-ups for a user-installed app"
            )
            return _error(400, 40094, "This interaction has hit the maximum number of follow up messages")
        if fills_original and original is not None:
            message = original  # Discord edits the loading message; its ephemeral state stays
            self._edit_message(message, body)
        else:
            message = self._new_message(record, body, ephemeral=bool((body.get("flags") or 0) & EPHEMERAL))
        self._scan_emojis(message.data, prefix)
        record.followups.append(body)
        record.followup_message_ids.append(message.id)
        record.reply_at = record.reply_at or time.perf_counter()
        return _json(self._message_object(message))

    async def _webhook_message(
        self, request: web.Request, method: str, record: InteractionRecord, target: str
    ) -> web.Response:
        """GET/PATCH/DELETE /webhooks/{app}/{token}/messages/{@original|id}."""
        message_id = record.original_message_id if target == "@original" else target
        own = {record.original_message_id, *record.followup_message_ids} - {None}
        message = self.messages.get(message_id or "")
        if message is None or message_id not in own:
            if target == "@original" and record.deleted:
                self._violation(f"{method} of deleted original for {record.id}")
            else:
                self._violation(f"{method} of message {target} that interaction {record.id} did not create")
            return _error(404, 10008, "Unknown Message")
        if message.deleted:
            self._violation(
                f"{'edit' if method == 'PATCH' else method} of deleted "
                f"{'original' if target == '@original' else 'message ' + target} for {record.id}"
            )
            return _error(404, 10008, "Unknown Message")
        if method == "GET":
            return _json(self._message_object(message))
        if method == "DELETE":
            message.deleted = True
            if target == "@original" or message.id == record.original_message_id:
                record.deleted = True
            return web.Response(status=204)
        if method != "PATCH":
            return self._unhandled(
                method, f"/webhooks/{self.application_id}/{record.token}/messages/{target}"
            )
        body = await self._body(request)
        problems = self._message_problems(body, current=message.data)
        if problems:
            return self._reject(400, 50035, "Invalid Form Body", problems, f"edit for {record.id}")
        self._edit_message(message, body)
        self._scan_emojis(message.data, f"interaction {record.id} edit")
        if message.id == record.original_message_id:
            record.edits.append(body)
            record.edit_states.append(self._state(message))
            record.reply_at = record.reply_at or time.perf_counter()
        return _json(self._message_object(message))

    def _message_problems(
        self, data: dict[str, Any], *, current: dict[str, Any] | None = None, creating: bool = False
    ) -> list[str]:
        """What Discord would reject in a message body: a new message, or an edit of `current`."""
        problems: list[str] = []
        merged = {**(current or {}), **{k: v for k, v in data.items() if k in MESSAGE_FIELDS}}
        content = data.get("content") or ""
        embeds = data.get("embeds") or []
        flags = int(merged.get("flags") or 0)
        if creating and int(data.get("flags") or 0) & ~CALLBACK_FLAGS:
            problems.append(
                f"flags {data.get('flags')}: only SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, "
                "IS_VOICE_MESSAGE and IS_COMPONENTS_V2 can be set"
            )
        if len(content) > 2000:
            problems.append(f"content is {len(content)} characters (max 2000)")
        if (
            not merged.get("content")
            and not merged.get("embeds")
            and not merged.get("components")
            and not data.get("_files")
            and not merged.get("attachments")
            and not merged.get("poll")
        ):
            problems.append("empty message")
        problems += _embed_problems(embeds)
        if flags & IS_COMPONENTS_V2 and (merged.get("content") or merged.get("embeds")):
            problems.append("a message with IS_COMPONENTS_V2 cannot have content or embeds")
        if "components" in data and data["components"] is not None:
            problems += _component_problems(data["components"], v2=bool(flags & IS_COMPONENTS_V2))
        mentions = data.get("allowed_mentions")
        if mentions is None:
            if self.require_allowed_mentions:
                problems.append("allowed_mentions missing")
        else:
            problems += _allowed_mentions_problems(mentions)
        return problems

    async def _file(self, request: web.Request) -> web.Response:
        key = f"{request.match_info['key']}/{request.match_info['filename']}"
        self.requests.append(("GET", "/files/" + key))
        if key not in self.files:
            return web.Response(status=404, text="not found")
        data, ctype = self.files[key]
        return web.Response(body=data, headers={"Content-Type": ctype})
