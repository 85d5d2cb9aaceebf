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
message and valid, and the shape of synced application commands. A violation answers with
Discord's error status and body, and is recorded in `.violations`.

Fault knobs: `gateway_close_code` (close instead of READY), `reject_callbacks = N` (the next N interaction
callbacks answer HTTP 400, recorded in `rejected_callbacks`, not as violations), `drop(shard)` below.

Attachments: `fake.attachment(filename, data)` serves a file and returns an attachment object; pass
it as an option value (type 11) and the payload gets `resolved.attachments`.

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
session or a bad token gets Invalid Session (op 9) / close 4004. READY and GUILD_CREATE list only the
guilds of that shard.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

DEFAULT_TOKEN = "FAKE.bot-token.for-tests"
EPHEMERAL = 64

# Interaction types and callback types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}
COMMAND_NAME_RE = re.compile(r"^[-_\w]{1,32}$")

_snowflakes = itertools.count((int(time.time() * 1000) - 1420070400000) << 22)


def snowflake() -> str:
    return str(next(_snowflakes))


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py decodes JSON only for exactly "application/json" (no charset suffix).
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _error(status: int, code: int, message: str, errors: Any = None) -> web.Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors is not None:
        body["errors"] = errors
    return _json(body, status)


@dataclass
class CommandSync:
    """One PUT of the application's commands: scope is "global" or the guild id (int)."""

    scope: str | int
    commands: list[dict[str, Any]]

    @property
    def names(self) -> list[str]:
        return sorted(c["name"] for c in self.commands)

    def command(self, name: str) -> dict[str, Any]:
        return next(c for c in self.commands if c["name"] == name)


@dataclass
class Reply:
    """What the user finally sees for one interaction."""

    interaction_id: str
    callback_type: int
    data: dict[str, Any]
    ephemeral: bool
    deferred: bool
    latency: float  # seconds from dispatch to the reply (to the first callback for direct replies)

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

    def text(self) -> str:
        """Content plus every text part of every embed, for substring checks."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
        return "\n".join(parts)


@dataclass
class InteractionRecord:
    id: str
    token: str
    type: int
    payload: dict[str, Any]
    dispatched_at: float
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    callback_at: float | None = None
    edits: list[dict[str, Any]] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    reply_at: float | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def deferred_ephemeral(self) -> bool:
        if not self.callbacks:
            return False
        return bool(((self.callbacks[0].get("data") or {}).get("flags") or 0) & EPHEMERAL)


@dataclass
class GatewaySession:
    """One gateway session (one shard of one client). It outlives its socket, so RESUME can replay."""

    session_id: str
    shard_id: int
    shard_count: int
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    sent: list[dict[str, Any]] = field(default_factory=list)  # every dispatched event, for replay
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed


MAX_REPLAY = 10_000  # events kept per session for RESUME (Discord keeps a bounded backlog too)


class FakeDiscord:
    """Discord's REST API and gateway, just enough for a discord.py bot and its slash commands."""

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

        self.identified = asyncio.Event()
        self.ready = asyncio.Event()
        self.gateway_closed = asyncio.Event()
        self._sockets: set[web.WebSocketResponse] = set()
        self.sessions: dict[str, GatewaySession] = {}  # session id -> session
        self.shards: dict[int, GatewaySession] = {}  # shard id -> its current session
        self.shard_count: int | None = None  # from the first IDENTIFY
        self.resumes: list[dict[str, Any]] = []  # every RESUME: shard, session_id, seq, replayed
        self.invalid_sessions = 0  # op 9 sent (RESUME of an unknown session)
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
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        sock = site._server.sockets[0]  # type: ignore[union-attr]
        port = sock.getsockname()[1]
        self.base_url = f"http://{host}:{port}"
        self.api_base = f"{self.base_url}/api/v10"
        self.gateway_url = f"ws://{host}:{port}/gateway"
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

    async def wait_ready(self, timeout: float = 15.0, *, shards: Iterable[int] | None = None) -> None:  # noqa: ASYNC109
        """Wait until the bot has identified on the gateway and READY was sent (on every shard listed)."""
        await asyncio.wait_for(self.ready.wait(), timeout)
        if shards is not None:
            wanted = set(shards)
            async with asyncio.timeout(timeout):
                while not all(s in self.shards and self.shards[s].connected for s in wanted):  # noqa: ASYNC110
                    await asyncio.sleep(0.01)

    async def wait_resumed(self, count: int = 1, timeout: float = 15.0) -> dict[str, Any]:  # noqa: ASYNC109
        """Wait until `count` RESUMEs have succeeded; returns the last one."""
        async with asyncio.timeout(timeout):
            while sum(1 for r in self.resumes if r["ok"]) < count:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        return [r for r in self.resumes if r["ok"]][-1]

    def shard_for_guild(self, guild_id: int | str) -> int:
        """Discord's formula: the shard that receives a guild's events."""
        return (int(guild_id) >> 22) % (self.shard_count or 1)

    def guilds_of_shard(self, shard_id: int, shard_count: int) -> list[str]:
        return [g for g in self.guild_ids if (int(g) >> 22) % shard_count == shard_id]

    def connected_shards(self) -> list[int]:
        return sorted(i for i, s in self.shards.items() if s.connected)

    async def drop(self, shard: int = 0, code: int = 4000,
                   missed: Iterable[dict[str, Any]] = ()) -> list[InteractionRecord]:
        """Close shard `shard`'s gateway socket (4000 "unknown error": the client may RESUME).

        `missed`: interaction payloads dispatched after the socket is detached and before it closes, so
        they can reach the client only through a RESUME's replay. Returns their records."""
        session = self.shards.get(shard)
        if session is None or session.ws is None:
            raise RuntimeError(f"shard {shard} is not connected")
        ws, session.ws = session.ws, None
        self.gateway_closed.set()
        records = [await self.send_interaction(p) for p in missed]
        await ws.close(code=code, message=b"dropped by the test")
        return records

    # ------------------------------------------------------------------------------------- objects
    @property
    def bot_user(self) -> dict[str, Any]:
        return {"id": self.bot_user_id, "username": "Identity Bot", "discriminator": "0000", "global_name": None,
                "avatar": None, "bot": True, "flags": 0, "public_flags": 0, "verified": True,
                "mfa_enabled": False, "email": None}

    def user(self, user_id: str = "1100000000000000300", name: str = "tester") -> dict[str, Any]:
        return {"id": user_id, "username": name, "discriminator": "0", "global_name": name.title(),
                "avatar": None, "public_flags": 0, "flags": 0}

    def channel_of(self, guild_id: str) -> str:
        """The text channel of a guild (the first guild keeps `channel_id`)."""
        return self.channel_id if guild_id == self.guild_id else str(int(guild_id) + 200)

    def _guild(self, guild_id: str | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        channel_id = self.channel_of(guild_id)
        everyone = {"id": guild_id, "name": "@everyone", "permissions": "2248473465835073", "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        channel = {"id": channel_id, "type": 0, "guild_id": guild_id, "name": "general", "position": 0,
                   "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                   "rate_limit_per_user": 0, "last_message_id": None, "flags": 0}
        return {
            "id": guild_id, "name": f"Test Guild {guild_id[-4:]}", "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": "1100000000000000300", "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [everyone], "emojis": [], "stickers": [], "features": [], "mfa_level": 0,
            "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "vanity_url_code": None, "description": None, "banner": None,
            "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
            "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "joined_at": "2026-01-01T00:00:00.000000+00:00", "large": False, "unavailable": False,
            "member_count": 2, "voice_states": [], "members": [], "channels": [channel], "threads": [],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [], "max_members": 500000,
        }

    def _channel(self, guild_id: str | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        return {"id": self.channel_of(guild_id), "type": 0, "guild_id": guild_id, "name": "general", "position": 0,
                "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                "rate_limit_per_user": 0, "last_message_id": None, "flags": 0, "permissions": "2248473465835073"}

    def _message(self, data: dict[str, Any], interaction: InteractionRecord | None, *,
                 message_id: str | None = None, loading: bool = False) -> dict[str, Any]:
        flags = int(data.get("flags") or 0) | (128 if loading else 0)
        guild_id = str((interaction.payload.get("guild_id") if interaction else None) or self.guild_id)
        msg: dict[str, Any] = {
            "id": message_id or snowflake(), "type": 20, "channel_id": self.channel_of(guild_id),
            "guild_id": guild_id, "author": self.bot_user, "content": data.get("content") or "",
            "timestamp": "2026-01-01T00:00:00.000000+00:00", "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": data.get("embeds") or [], "pinned": False, "flags": flags,
            "components": data.get("components") or [], "webhook_id": self.application_id,
            "application_id": self.application_id,
        }
        if interaction is not None:
            user = (interaction.payload.get("member") or {}).get("user") or interaction.payload.get("user")
            msg["interaction_metadata"] = {"id": interaction.id, "type": interaction.type, "user": user,
                                           "authorizing_integration_owners": {}}
        return msg

    def attachment(self, filename: str, data: bytes, content_type: str = "text/plain; charset=utf-8") -> dict:
        """Serve `data` and return an attachment object for an option of type 11."""
        key = secrets.token_hex(8)
        self.files[f"{key}/{filename}"] = (data, content_type)
        url = f"{self.base_url}/files/{key}/{filename}"
        return {"id": snowflake(), "filename": filename, "size": len(data), "url": url, "proxy_url": url,
                "content_type": content_type, "ephemeral": True}

    # ----------------------------------------------------------------------------- payload builders
    def _find_command(self, name: str) -> tuple[dict[str, Any] | None, str | None]:
        for scope, commands in self.commands.items():
            for c in commands:
                if c["name"] == name:
                    return c, (scope if scope != "global" else None)
        return None, None

    def _options(self, options: dict[str, Any] | list[dict[str, Any]] | None,
                 focused: str | None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
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

    def interaction_payload(
        self,
        name: str,
        options: dict[str, Any] | list[dict[str, Any]] | None = None,
        *,
        type: int = APPLICATION_COMMAND,
        focused: str | None = None,
        user: dict[str, Any] | None = None,
        guild_id: int | str | None = None,
    ) -> dict[str, Any]:
        """A realistic INTERACTION_CREATE payload for slash command `name` (or its autocomplete),
        used in guild `guild_id` (default: the first guild)."""
        gid = str(guild_id) if guild_id is not None else self.guild_id
        command, guild_scope = self._find_command(name)
        opts, resolved = self._options(options, focused)
        data: dict[str, Any] = {"id": command["id"] if command else snowflake(), "name": name, "type": 1,
                                "options": opts}
        if resolved:
            data["resolved"] = resolved
        if guild_scope is not None:
            data["guild_id"] = guild_scope
        member_user = user or self.user()
        return {
            "id": snowflake(),
            "application_id": self.application_id,
            "type": type,
            "data": data,
            "guild_id": gid,
            "guild": {"id": gid, "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "channel_id": self.channel_of(gid),
            "channel": self._channel(gid),
            "member": {"user": member_user, "roles": [], "flags": 0, "permissions": "2248473465835073",
                       "joined_at": "2026-01-01T00:00:00.000000+00:00", "nick": None, "avatar": None,
                       "deaf": False, "mute": False, "pending": False, "premium_since": None},
            "token": "itok_" + secrets.token_urlsafe(24),
            "version": 1,
            "locale": "en-US",
            "app_permissions": "2248473465835073",
            "entitlements": [],
            "authorizing_integration_owners": {"0": gid},
            "context": 0,
            "attachment_size_limit": 26_214_400,
        }

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
        record = InteractionRecord(id=payload["id"], token=payload["token"], type=payload["type"],
                                   payload=payload, dispatched_at=time.perf_counter())
        self.interactions[record.id] = record
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
        """The message the user finally sees: the callback's message, or after a deferral the first
        edit of @original or the first follow-up."""
        record = self.interactions[interaction_id]
        callback = await self.wait_for_callback(interaction_id, timeout)
        ctype = callback.get("type")
        if ctype != DEFERRED_CHANNEL_MESSAGE:
            data = callback.get("data") or {}
            return Reply(record.id, ctype, data, bool((data.get("flags") or 0) & EPHEMERAL), False,
                         (record.callback_at or time.perf_counter()) - record.dispatched_at)
        async with asyncio.timeout(timeout):
            while not record.edits and not record.followups:
                record.changed.clear()
                await record.changed.wait()
        if record.edits:
            data = record.edits[0]
            ephemeral = record.deferred_ephemeral
        else:
            data = record.followups[0]
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
        return Reply(record.id, ctype, data, ephemeral, True,
                     (record.reply_at or time.perf_counter()) - record.dispatched_at)

    async def invoke(self, name: str, options: dict[str, Any] | None = None, *, timeout: float = 15.0,  # noqa: ASYNC109
                     user: dict[str, Any] | None = None, guild_id: int | str | None = None) -> Reply:
        """Run slash command `name` with `options` and return the reply."""
        payload = self.interaction_payload(name, options, user=user, guild_id=guild_id)
        await self.send_interaction(payload)
        return await self.wait_for_reply(payload["id"], timeout)

    async def autocomplete(self, name: str, options: dict[str, Any], focused: str,
                           timeout: float = 10.0, *, user: dict[str, Any] | None = None,  # noqa: ASYNC109
                           guild_id: int | str | None = None) -> list[dict[str, Any]]:
        """Send an autocomplete interaction (option `focused` being typed); return the choices."""
        payload = self.interaction_payload(name, options, type=AUTOCOMPLETE, focused=focused, user=user,
                                           guild_id=guild_id)
        await self.send_interaction(payload)
        reply = await self.wait_for_reply(payload["id"], timeout)
        return reply.choices

    # --------------------------------------------------------------------------------------- REST
    def _violation(self, text: str) -> None:
        self.violations.append(text)

    def _authorized(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.token}"

    async def _body(self, request: web.Request) -> dict[str, Any]:
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            form = await request.post()
            raw = form.get("payload_json")
            body = json.loads(raw if isinstance(raw, str) else (raw.file.read() if raw is not None else b"{}"))
            body.setdefault("_files", [k for k in form.keys() if k.startswith("files[")])
            # uploaded files by filename (used by the deck-check tests to read the attached report)
            body.setdefault("_file_data", {
                getattr(form[k], "filename", k): form[k].file.read() if hasattr(form[k], "file") else b""
                for k in form.keys() if k.startswith("files[")})
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
                body |= {"shards": self.recommended_shards, "session_start_limit": {"total": 1000, "remaining": 999,
                                                               "reset_after": 14_400_000, "max_concurrency": 1}}
            return _json(body)
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
        return {"id": self.application_id, "name": "Identity Bot", "icon": None, "description": "",
                "summary": "", "type": None, "hook": True, "bot_public": True, "bot_require_code_grant": False,
                "verify_key": "0" * 64, "owner": owner, "team": None, "flags": 0, "tags": [],
                "install_params": None, "custom_install_url": None, "rpc_origins": [],
                "interactions_endpoint_url": None, "redirect_uris": [], "approximate_guild_count": 1,
                "bot": self.bot_user}

    async def _sync(self, request: web.Request, scope: str | int) -> web.Response:
        commands = await self._body(request)
        if not isinstance(commands, list):
            self._violation(f"command sync body is not a list: {commands!r}")
            return _error(400, 50035, "Invalid Form Body")
        problems = [p for c in commands for p in _command_problems(c)]
        names = [c.get("name") for c in commands]
        if len(names) != len(set(names)):
            problems.append(f"duplicate command names {names}")
        if len(commands) > 100:
            problems.append("more than 100 commands")
        if problems:
            for p in problems:
                self._violation(f"command sync: {p}")
            return _error(400, 50035, "Invalid Form Body", {"problems": problems})
        registered = []
        for c in commands:
            item = {"id": snowflake(), "application_id": self.application_id, "version": snowflake(),
                    "type": c.get("type", 1), "default_member_permissions": None, "dm_permission": True,
                    "nsfw": False, "contexts": None, "integration_types": [0],
                    "name_localizations": None, "description_localizations": None} | c
            if scope != "global":
                item["guild_id"] = str(scope)
            registered.append(item)
        self.commands[str(scope)] = registered
        self.command_syncs.append(CommandSync(scope=scope, commands=registered))
        return _json(registered)

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
            data = body.get("data") or {}
            if ctype == AUTOCOMPLETE_RESULT:
                problems = _choice_problems(data.get("choices"))
            elif ctype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
                problems = self._message_problems(data)
            else:
                problems = []
            if problems:
                for p in problems:
                    self._violation(f"interaction {interaction_id}: {p}")
                return _error(400, 50035, "Invalid Form Body", {"problems": problems})
            record.callbacks.append(body)
            record.callback_at = now
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            answer: dict[str, Any] = {"interaction": {
                "id": record.id, "type": record.type, "response_message_id": None,
                "response_message_loading": ctype == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": ephemeral}}
            if ctype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
                message = self._message(data, record, message_id=record.id,
                                        loading=ctype == DEFERRED_CHANNEL_MESSAGE)
                answer["interaction"]["response_message_id"] = message["id"]
                answer["resource"] = {"type": ctype, "message": message}
            return _json(answer)
        finally:
            record.changed.set()

    async def _webhook(self, request: web.Request, method: str, parts: list[str]) -> web.Response:
        # /webhooks/{app_id}/{token}[/messages/{id}]
        app_id, token = parts[1], parts[2]
        record = next((r for r in self.interactions.values() if r.token == token), None)
        if app_id != self.application_id or record is None:
            self._violation(f"webhook call with unknown application/token: {method} /{'/'.join(parts)}")
            return _error(404, 10015, "Unknown Webhook")
        try:
            if not record.callbacks:
                self._violation(f"webhook {method} before any callback for interaction {record.id}")
                return _error(404, 10015, "Unknown Webhook")
            if len(parts) == 3 and method == "POST":
                body = await self._body(request)
                problems = self._message_problems(body)
                if problems:
                    for p in problems:
                        self._violation(f"follow-up for {record.id}: {p}")
                    return _error(400, 50035, "Invalid Form Body", {"problems": problems})
                record.followups.append(body)
                record.reply_at = record.reply_at or time.perf_counter()
                return _json(self._message(body, record))
            if len(parts) == 5 and parts[3] == "messages":
                target = parts[4]
                if method == "PATCH":
                    body = await self._body(request)
                    problems = self._message_problems(body)
                    if problems:
                        for p in problems:
                            self._violation(f"edit for {record.id}: {p}")
                        return _error(400, 50035, "Invalid Form Body", {"problems": problems})
                    if target == "@original":
                        if record.deleted:
                            self._violation(f"edit of deleted original for {record.id}")
                            return _error(404, 10008, "Unknown Message")
                        record.edits.append(body)
                        record.reply_at = record.reply_at or time.perf_counter()
                    return _json(self._message(body, record, message_id=record.id))
                if method == "DELETE":
                    if target == "@original":
                        record.deleted = True
                    return web.Response(status=204)
                if method == "GET":
                    data = record.edits[-1] if record.edits else (record.callbacks[0].get("data") or {})
                    return _json(self._message(data, record, message_id=record.id))
            return self._unhandled(method, "/" + "/".join(parts))
        finally:
            record.changed.set()

    def _message_problems(self, data: dict[str, Any]) -> list[str]:
        problems: list[str] = []
        content = data.get("content") or ""
        embeds = data.get("embeds") or []
        if len(content) > 2000:
            problems.append(f"content is {len(content)} characters (max 2000)")
        if not content and not embeds and not data.get("components") and not data.get("_files") \
                and not data.get("attachments") and not data.get("poll"):
            problems.append("empty message")
        problems += _embed_problems(embeds)
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

    # ------------------------------------------------------------------------------------ gateway
    async def _dispatch(self, event: str, data: dict[str, Any], *, shard: int = 0,
                        session: GatewaySession | None = None) -> None:
        """Send a DISPATCH (op 0) on a session; kept for replay, sent now only if its socket is up."""
        session = session or self.shards.get(shard)
        if session is None:
            raise RuntimeError(f"no session for shard {shard}")
        async with session.lock:
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.sent.append(frame)
            if len(session.sent) > MAX_REPLAY:
                del session.sent[: len(session.sent) - MAX_REPLAY]
            if session.connected:
                try:
                    await session.ws.send_str(json.dumps(frame))  # type: ignore[union-attr]
                except (ConnectionResetError, RuntimeError):
                    pass  # the socket died under us; the event waits for a RESUME

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        self.requests.append(("WS", "/gateway?" + request.query_string))
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                                      "s": None, "t": None}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.BINARY:
                        self._violation("binary frame from client")
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                if op == 1:  # heartbeat
                    self.heartbeats += 1
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:  # identify
                    await self._identify(ws, payload.get("d") or {})
                elif op == 6:  # resume
                    await self._resume(ws, payload.get("d") or {})
        finally:
            self._sockets.discard(ws)
            for session in self.sessions.values():
                if session.ws is ws:
                    session.ws = None
                    self.gateway_closed.set()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append({k: v for k, v in data.items() if k != "token"})
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if self.gateway_close_code is not None:
            await ws.close(code=self.gateway_close_code, message=b"fault injected by the test")
            return
        intents = int(data.get("intents") or 0)
        privileged = intents & ((1 << 1) | (1 << 8) | (1 << 15))  # members, presences, message content
        if privileged:
            self._violation(f"privileged intents requested: {privileged}")
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard") or [0, 1]
        try:
            shard_id, shard_count = int(shard[0]), int(shard[1])
        except (TypeError, ValueError, IndexError):
            shard_id, shard_count = -1, 0
        if shard_count < 1 or not 0 <= shard_id < shard_count or (
                self.shard_count is not None and self.shard_count != shard_count and self.shards):
            self._violation(f"invalid shard {shard!r} (shard count so far: {self.shard_count})")
            await ws.close(code=4010, message=b"Invalid shard.")
            return
        self.shard_count = shard_count
        old = self.shards.get(shard_id)
        if old is not None and old.connected and old.ws is not ws:
            await old.ws.close(code=4000, message=b"superseded by a new session")  # type: ignore[union-attr]
        session = GatewaySession(session_id=secrets.token_hex(16), shard_id=shard_id, shard_count=shard_count,
                                 ws=ws)
        self.sessions[session.session_id] = session
        self.shards[shard_id] = session
        self.gateway_closed.clear()
        self.identified.set()
        guilds = self.guilds_of_shard(shard_id, shard_count)
        ready = {
            "v": 10, "user": self.bot_user, "guilds": [{"id": g, "unavailable": True} for g in guilds],
            "session_id": session.session_id, "resume_gateway_url": self.gateway_url,
            "shard": [shard_id, shard_count],
            "application": {"id": self.application_id, "flags": 0}, "private_channels": [],
            "relationships": [], "presences": [], "user_settings": {}, "geo_ordered_rtc_regions": [],
            "auth": {}, "session_type": "normal",
        }
        await self._dispatch("READY", ready, session=session)
        if self.send_guild_create:
            for g in guilds:
                await self._dispatch("GUILD_CREATE", self._guild(g), session=session)
        self.ready.set()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        """RESUME (op 6): replay every event after `seq` on the new socket, then RESUMED."""
        session = self.sessions.get(str(data.get("session_id")))
        record: dict[str, Any] = {"session_id": data.get("session_id"), "seq": data.get("seq"), "ok": False,
                                  "shard": session.shard_id if session else None, "replayed": 0}
        self.resumes.append(record)
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if session is None or self.shards.get(session.shard_id) is not session:
            self.invalid_sessions += 1
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return
        seq = data.get("seq")
        if not isinstance(seq, int) or seq > session.seq:
            self._violation(f"RESUME with sequence {seq!r}; the session is at {session.seq}")
            self.invalid_sessions += 1
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return
        if session.connected and session.ws is not ws:
            await session.ws.close(code=4000, message=b"resumed elsewhere")  # type: ignore[union-attr]
        async with session.lock:
            missed = [frame for frame in session.sent if frame["s"] > seq]
            if session.sent and missed and missed[0]["s"] != seq + 1:
                self.invalid_sessions += 1  # the backlog no longer reaches back that far
                await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
                return
            session.ws = ws
            for frame in missed:
                await ws.send_str(json.dumps(frame))
        record.update(ok=True, replayed=len(missed))
        self.gateway_closed.clear()
        await self._dispatch("RESUMED", {}, session=session)


# ------------------------------------------------------------------------------------ validation
def _embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for e in embeds:
        title, desc = e.get("title") or "", e.get("description") or ""
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        fields = e.get("fields") or []
        for label, text, limit in (("title", title, 256), ("description", desc, 4096), ("footer", footer, 2048),
                                   ("author", author, 256)):
            if len(text) > limit:
                problems.append(f"embed {label} is {len(text)} characters (max {limit})")
        if len(fields) > 25:
            problems.append(f"{len(fields)} embed fields (max 25)")
        for f in fields:
            name, value = str(f.get("name") or ""), str(f.get("value") or "")
            if not name.strip() or len(name) > 256:
                problems.append(f"embed field name length {len(name)} (1-256)")
            if not value.strip() or len(value) > 1024:
                problems.append(f"embed field value length {len(value)} (1-1024)")
            total += len(name) + len(value)
        total += len(title) + len(desc) + len(footer) + len(author)
        if e.get("url") is not None and not str(e["url"]).startswith(("http://", "https://")):
            problems.append(f"embed url not well formed: {e['url']!r}")
        for key in ("thumbnail", "image"):
            url = (e.get(key) or {}).get("url")
            if url is not None and not str(url).startswith(("http://", "https://", "attachment://")):
                problems.append(f"embed {key}.url not well formed: {url!r}")
        if "color" in e and e["color"] is not None and not 0 <= int(e["color"]) <= 0xFFFFFF:
            problems.append(f"embed color out of range: {e['color']}")
    if total > 6000:
        problems.append(f"embeds total {total} characters (max 6000)")
    return problems


def _allowed_mentions_problems(mentions: Any) -> list[str]:
    if not isinstance(mentions, dict):
        return ["allowed_mentions is not an object"]
    problems = []
    parse = mentions.get("parse", [])
    if not isinstance(parse, list) or any(p not in ("users", "roles", "everyone") for p in parse):
        problems.append(f"allowed_mentions.parse invalid: {parse!r}")
    for kind in ("users", "roles"):
        ids = mentions.get(kind)
        if ids is not None:
            if kind in parse:
                problems.append(f"allowed_mentions has both parse {kind} and {kind} list")
            if len(ids) > 100:
                problems.append(f"allowed_mentions.{kind} has more than 100 ids")
    return problems


def _choice_problems(choices: Any) -> list[str]:
    if not isinstance(choices, list):
        return ["autocomplete choices missing"]
    problems = []
    if len(choices) > 25:
        problems.append(f"{len(choices)} autocomplete choices (max 25)")
    for c in choices:
        name, value = c.get("name"), c.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(f"choice name invalid: {name!r}")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"choice value longer than 100: {value!r}")
    return problems


def _command_problems(command: dict[str, Any]) -> list[str]:
    problems = []
    name = command.get("name", "")
    if not COMMAND_NAME_RE.match(name) or name != name.lower():
        problems.append(f"command name invalid: {name!r}")
    if command.get("type", 1) == 1 and not 1 <= len(command.get("description") or "") <= 100:
        problems.append(f"/{name} description length must be 1-100")
    options = command.get("options") or []
    if len(options) > 25:
        problems.append(f"/{name} has more than 25 options")
    seen_optional = False
    for opt in options:
        oname = opt.get("name", "")
        if not COMMAND_NAME_RE.match(oname) or oname != oname.lower():
            problems.append(f"/{name} option name invalid: {oname!r}")
        if not 1 <= len(opt.get("description") or "") <= 100:
            problems.append(f"/{name} option {oname} description length must be 1-100")
        if opt.get("required"):
            if seen_optional:
                problems.append(f"/{name}: required option {oname} after an optional one")
        else:
            seen_optional = True
        if opt.get("autocomplete") and opt.get("type") not in (3, 4, 10):
            problems.append(f"/{name} option {oname}: autocomplete on type {opt.get('type')}")
        if opt.get("autocomplete") and opt.get("choices"):
            problems.append(f"/{name} option {oname}: autocomplete together with choices")
    return problems
