"""The fake Discord's gateway: sessions and shards, READY and GUILD_CREATE, RESUME and its replay, and events
sent by intent (`tests.fakes.guilds`). `FakeGateway` is the part of `tests.fakes.discord.FakeDiscord` that
speaks the websocket; the REST side, the interactions and the rules live there."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.fakes.guilds import PERMISSIONS, PRIVILEGED, Intent, chat_event, delivered, realistic_guild

if TYPE_CHECKING:
    from tests.fakes.discord import InteractionRecord


@dataclass
class GatewaySession:
    """One gateway session (one shard of one client). It outlives its socket, so RESUME can replay."""

    session_id: str
    shard_id: int
    shard_count: int
    seq: int = 0
    intents: int = 0  # what the client IDENTIFYed with: which events it is sent (`tests.fakes.guilds`)
    ws: web.WebSocketResponse | None = None
    sent: list[dict[str, Any]] = field(default_factory=list)  # every dispatched event, for replay
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed


MAX_REPLAY = 10_000  # events kept per session for RESUME (Discord keeps a bounded backlog too)


class FakeGateway:
    """Discord's gateway for `FakeDiscord` (which sets up the state these methods use in its constructor)."""

    token: str
    application_id: str
    bot_user_id: str
    guild_id: str
    guild_ids: list[str]
    guild_locales: dict[str, str]  # guild id -> its preferred locale (default en-US)
    heartbeat_interval_ms: int
    send_guild_create: bool
    gateway_close_code: int | None
    gateway_url: str
    server_size: dict[str, int] | None
    _guild_payloads: dict[str, dict[str, Any]]
    requests: list[tuple[str, str]]
    identifies: list[dict[str, Any]]
    heartbeats: int
    identified: asyncio.Event
    ready: asyncio.Event
    gateway_closed: asyncio.Event
    _sockets: set[web.WebSocketResponse]
    sessions: dict[str, GatewaySession]
    shards: dict[int, GatewaySession]
    shard_count: int | None
    resumes: list[dict[str, Any]]
    invalid_sessions: int

    if TYPE_CHECKING:  # FakeDiscord's

        @property
        def bot_user(self) -> dict[str, Any]: ...
        def _violation(self, text: str) -> None: ...
        async def send_interaction(self, payload: dict[str, Any]) -> InteractionRecord: ...
        def channel_of(self, guild_id: str) -> str: ...

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

    async def drop(
        self, shard: int = 0, code: int = 4000, missed: Iterable[dict[str, Any]] = ()
    ) -> list[InteractionRecord]:
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

    def load_servers(self, count: int, **size: int) -> list[str]:
        """Put the bot in `count` servers of realistic size (`tests.fakes.guilds.realistic_guild`; `size`:
        channels, roles, in_voice), as GUILD_CREATE carries them to a bot. Call it before the bot connects."""
        first = int(self.guild_id)
        self.guild_ids = [self.guild_id] + [str(first + (i << 22) + i) for i in range(1, count)]
        self.server_size = size
        self._guild_payloads.clear()
        return self.guild_ids

    async def send_event(self, event: str, data: dict[str, Any]) -> int:
        """Dispatch a gateway event the way Discord does: on the shard of its guild (shard 0 for a DM), to
        every session whose intents ask for it, without message content unless MESSAGE_CONTENT is granted
        (`tests.fakes.guilds.delivered`). Returns how many sessions it was sent to."""
        guild_id = data.get("guild_id") or (data.get("id") if event == "GUILD_CREATE" else None)
        shard = self.shard_for_guild(guild_id) if guild_id else 0
        sent = 0
        for session in [s for s in self.shards.values() if s.shard_id == shard]:
            shown = delivered(event, data, session.intents, self.bot_user_id)
            if shown is not None:
                await self._dispatch(event, shown, session=session)
                sent += 1
        return sent

    async def chat(self, events: int, *, per_second: float | None = None, start: int = 0) -> int:
        """Play `events` events of the servers' chat (messages, reactions, typing, voice moves; round robin
        over the servers), at `per_second` (None: as fast as they can be sent). Returns how many were
        delivered to a session."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        delivered_count = 0
        for n in range(start, start + events):
            guild = self._guild(self.guild_ids[n % len(self.guild_ids)])
            delivered_count += await self.send_event(*chat_event(guild, n // len(self.guild_ids)))
            if per_second:
                due = began + (n - start + 1) / per_second
                if due > loop.time():
                    await asyncio.sleep(due - loop.time())
        return delivered_count

    def _guild(self, guild_id: str | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        if self.server_size is not None:
            if guild_id not in self._guild_payloads:
                self._guild_payloads[guild_id] = realistic_guild(guild_id, self.bot_user, **self.server_size)
            return self._guild_payloads[guild_id] | {
                "preferred_locale": self.guild_locales.get(guild_id, "en-US")
            }
        channel_id = self.channel_of(guild_id)
        everyone = {
            "id": guild_id,
            "name": "@everyone",
            "permissions": PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        channel = {
            "id": channel_id,
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
        }
        return {
            "id": guild_id,
            "name": f"Test Guild {guild_id[-4:]}",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": "1100000000000000300",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.guild_locales.get(guild_id, "en-US"),
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "large": False,
            "unavailable": False,
            "member_count": 2,
            "voice_states": [],
            "members": [],
            "channels": [channel],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "max_members": 500000,
        }

    async def _dispatch(
        self, event: str, data: dict[str, Any], *, shard: int = 0, session: GatewaySession | None = None
    ) -> None:
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
                # the socket may die under us; the event then waits for a RESUME
                with contextlib.suppress(ConnectionResetError, RuntimeError):
                    await session.ws.send_str(json.dumps(frame))  # type: ignore[union-attr]

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        self.requests.append(("WS", "/gateway?" + request.query_string))
        await ws.send_str(
            json.dumps(
                {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None}
            )
        )
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
        privileged = intents & PRIVILEGED
        if privileged:
            self._violation(f"privileged intents requested: {privileged}")
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard") or [0, 1]
        try:
            shard_id, shard_count = int(shard[0]), int(shard[1])
        except (TypeError, ValueError, IndexError):
            shard_id, shard_count = -1, 0
        if (
            shard_count < 1
            or not 0 <= shard_id < shard_count
            or (self.shard_count is not None and self.shard_count != shard_count and self.shards)
        ):
            self._violation(f"invalid shard {shard!r} (shard count so far: {self.shard_count})")
            await ws.close(code=4010, message=b"Invalid shard.")
            return
        self.shard_count = shard_count
        old = self.shards.get(shard_id)
        if old is not None and old.connected and old.ws is not ws:
            await old.ws.close(code=4000, message=b"superseded by a new session")  # type: ignore[union-attr]
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            shard_id=shard_id,
            shard_count=shard_count,
            intents=intents,
            ws=ws,
        )
        self.sessions[session.session_id] = session
        self.shards[shard_id] = session
        self.gateway_closed.clear()
        self.identified.set()
        guilds = self.guilds_of_shard(shard_id, shard_count)
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": g, "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "shard": [shard_id, shard_count],
            "application": {"id": self.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "session_type": "normal",
        }
        await self._dispatch("READY", ready, session=session)
        if self.send_guild_create and intents & Intent.GUILDS:  # Discord sends GUILD_CREATE only with GUILDS
            for g in guilds:
                await self._dispatch("GUILD_CREATE", self._guild(g), session=session)
        self.ready.set()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        """RESUME (op 6): replay every event after `seq` on the new socket, then RESUMED."""
        session = self.sessions.get(str(data.get("session_id")))
        record: dict[str, Any] = {
            "session_id": data.get("session_id"),
            "seq": data.get("seq"),
            "ok": False,
            "shard": session.shard_id if session else None,
            "replayed": 0,
        }
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
