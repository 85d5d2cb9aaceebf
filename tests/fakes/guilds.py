"""Servers of realistic size and a chat stream for the fake Discord, delivered by intent the way Discord does.

- `Intent`: the gateway intent bits a client IDENTIFYs with.
- `realistic_guild`: a GUILD_CREATE payload as a bot receives it: its channels (categories, text, voice, with
  permission overwrites), roles, emojis, stickers, a few threads, the voice states, and as members only the
  bot itself and the people in voice (without the presences intent Discord sends no other members).
- `chat_event`: the n-th event of a server's chat: a message, a reaction, someone typing, someone moving
  between voice channels.
- `delivered`: what a session identified with `intents` receives of one event: nothing when no intent asks
  for it; a message without its content, embeds, attachments and components without MESSAGE_CONTENT
  (unless it mentions the bot or is in a DM with it).
"""

from __future__ import annotations

import enum
import random
from typing import Any

PERMISSIONS = "2248473465835073"
JOINED = "2026-01-01T00:00:00.000000+00:00"


class Intent(enum.IntFlag):
    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_MODERATION = 1 << 2
    GUILD_EXPRESSIONS = 1 << 3
    GUILD_INTEGRATIONS = 1 << 4
    GUILD_WEBHOOKS = 1 << 5
    GUILD_INVITES = 1 << 6
    GUILD_VOICE_STATES = 1 << 7
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    GUILD_MESSAGE_REACTIONS = 1 << 10
    GUILD_MESSAGE_TYPING = 1 << 11
    DIRECT_MESSAGES = 1 << 12
    DIRECT_MESSAGE_REACTIONS = 1 << 13
    DIRECT_MESSAGE_TYPING = 1 << 14
    MESSAGE_CONTENT = 1 << 15


PRIVILEGED = Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT

#: Which intent brings an event, in a server and in a DM (None: that event has no DM form).
EVENT_INTENTS: dict[str, tuple[Intent, Intent | None]] = {
    "GUILD_CREATE": (Intent.GUILDS, None),
    "MESSAGE_CREATE": (Intent.GUILD_MESSAGES, Intent.DIRECT_MESSAGES),
    "MESSAGE_UPDATE": (Intent.GUILD_MESSAGES, Intent.DIRECT_MESSAGES),
    "MESSAGE_DELETE": (Intent.GUILD_MESSAGES, Intent.DIRECT_MESSAGES),
    "MESSAGE_REACTION_ADD": (Intent.GUILD_MESSAGE_REACTIONS, Intent.DIRECT_MESSAGE_REACTIONS),
    "TYPING_START": (Intent.GUILD_MESSAGE_TYPING, Intent.DIRECT_MESSAGE_TYPING),
    "VOICE_STATE_UPDATE": (Intent.GUILD_VOICE_STATES, None),
}
_CONTENT_FIELDS = {"content": "", "embeds": [], "attachments": [], "components": []}


def delivered(event: str, data: dict[str, Any], intents: int, bot_id: str) -> dict[str, Any] | None:
    """`data` as a session identified with `intents` receives it, or None when it receives nothing. Events
    not in `EVENT_INTENTS` (READY, INTERACTION_CREATE, ...) reach every session."""
    wanted = EVENT_INTENTS.get(event)
    if wanted is None:
        return data
    in_guild, in_dm = wanted
    need = in_guild if data.get("guild_id") or event == "GUILD_CREATE" else in_dm
    if need is None or not intents & need:
        return None
    if event.startswith("MESSAGE_") and "content" in data and not intents & Intent.MESSAGE_CONTENT:
        to_bot = "guild_id" not in data or any(u.get("id") == bot_id for u in data.get("mentions", []))
        if not to_bot:
            return data | _CONTENT_FIELDS
    return data


def _user(user_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": name.title(),
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "bot": False,
    }


def _member(user: dict[str, Any], roles: list[str]) -> dict[str, Any]:
    return {
        "user": user,
        "roles": roles,
        "flags": 0,
        "joined_at": JOINED,
        "nick": None,
        "avatar": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "premium_since": None,
    }


def realistic_guild(
    guild_id: str,
    bot_user: dict[str, Any],
    *,
    channels: int = 40,
    roles: int = 25,
    in_voice: int = 3,
    seed: int | None = None,
) -> dict[str, Any]:
    """A GUILD_CREATE payload for a server of ordinary size (ids derived from `guild_id`)."""
    rng = random.Random(seed if seed is not None else int(guild_id))
    base = int(guild_id)
    role_list: list[dict[str, Any]] = [
        {
            "id": guild_id,
            "name": "@everyone",
            "permissions": PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }
    ]
    role_list += [
        {
            "id": str(base + 1000 + i),
            "name": f"role {i}",
            "permissions": str(rng.getrandbits(40)),
            "position": i + 1,
            "color": rng.getrandbits(24),
            "hoist": i < 3,
            "managed": False,
            "mentionable": i % 4 == 0,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }
        for i in range(roles - 1)
    ]
    chans: list[dict[str, Any]] = []
    category = None
    for i in range(channels):
        kind = 4 if i % 8 == 0 else (2 if i % 8 == 7 else 0)  # a category, then text channels, one voice
        cid = str(base + 200 + i)
        overwrites = [
            {
                "id": role_list[rng.randrange(len(role_list))]["id"],
                "type": 0,
                "allow": str(rng.getrandbits(20)),
                "deny": str(rng.getrandbits(20)),
            }
            for _ in range(rng.randrange(4))
        ]
        channel = {
            "id": cid,
            "type": kind,
            "guild_id": guild_id,
            "name": f"channel-{i}",
            "position": i,
            "permission_overwrites": overwrites,
            "nsfw": False,
            "parent_id": None if kind == 4 else category,
            "flags": 0,
        }
        if kind == 0:
            channel |= {
                "topic": "talk about cards " * rng.randrange(4),
                "rate_limit_per_user": 0,
                "last_message_id": str(base + 900_000 + i),
            }
        elif kind == 2:
            channel |= {"bitrate": 64000, "user_limit": 0, "rtc_region": None}
        else:
            category = cid
        chans.append(channel)
    voice_ids = [c["id"] for c in chans if c["type"] == 2] or [chans[0]["id"]]
    voice_users = [_user(base + 50_000 + i, f"player{i}") for i in range(in_voice)]
    voice_states = [
        {
            "user_id": u["id"],
            "channel_id": voice_ids[i % len(voice_ids)],
            "session_id": f"s{i}",
            "deaf": False,
            "mute": False,
            "self_deaf": False,
            "self_mute": i % 2 == 0,
            "self_video": False,
            "suppress": False,
            "request_to_speak_timestamp": None,
        }
        for i, u in enumerate(voice_users)
    ]
    members = [_member(bot_user, [role_list[1]["id"]] if len(role_list) > 1 else [])]
    members += [_member(u, [role_list[rng.randrange(len(role_list))]["id"]]) for u in voice_users]
    emojis = [
        {
            "id": str(base + 3000 + i),
            "name": f"emoji{i}",
            "roles": [],
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        for i in range(rng.randrange(5, 30))
    ]
    threads = [
        {
            "id": str(base + 4000 + i),
            "type": 11,
            "guild_id": guild_id,
            "parent_id": chans[1]["id"],
            "name": f"thread {i}",
            "owner_id": voice_users[0]["id"] if voice_users else bot_user["id"],
            "last_message_id": None,
            "message_count": 3,
            "member_count": 2,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": JOINED,
                "locked": False,
            },
        }
        for i in range(rng.randrange(3))
    ]
    return {
        "id": guild_id,
        "name": f"Server {guild_id[-5:]}",
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(base + 50_000),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 1,
        "default_message_notifications": 1,
        "explicit_content_filter": 2,
        "roles": role_list,
        "emojis": emojis,
        "stickers": [],
        "features": ["COMMUNITY", "NEWS"] if rng.random() < 0.2 else [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": chans[1]["id"],
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": rng.randrange(3),
        "premium_subscription_count": rng.randrange(20),
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": JOINED,
        "large": False,
        "unavailable": False,
        "member_count": rng.randrange(30, 3000),
        "voice_states": voice_states,
        "members": members,
        "channels": chans,
        "threads": threads,
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "max_members": 500000,
    }


def chat_event(guild: dict[str, Any], n: int) -> tuple[str, dict[str, Any]]:
    """The `n`-th event of `guild`'s chat: mostly messages, then reactions, typing and voice moves."""
    text = [c for c in guild["channels"] if c["type"] == 0]
    channel = text[n % len(text)]
    author = _user(int(guild["id"]) + 60_000 + n % 97, f"chatter{n % 97}")
    message_id = str(int(guild["id"]) + 10_000_000 + n)
    kind = n % 10
    if kind < 6:
        return "MESSAGE_CREATE", {
            "id": message_id,
            "channel_id": channel["id"],
            "guild_id": guild["id"],
            "author": author,
            "member": {"roles": [], "joined_at": JOINED, "deaf": False, "mute": False, "flags": 0},
            "content": f"has anyone tried [[Sol Ring]] in a deck with {n} lands? " * (1 + n % 3),
            "timestamp": JOINED,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
            "components": [],
        }
    if kind < 8:
        return "MESSAGE_REACTION_ADD", {
            "user_id": author["id"],
            "channel_id": channel["id"],
            "message_id": message_id,
            "guild_id": guild["id"],
            "emoji": {"id": None, "name": "👍"},
            "burst": False,
            "type": 0,
        }
    if kind == 8:
        return "TYPING_START", {
            "channel_id": channel["id"],
            "guild_id": guild["id"],
            "user_id": author["id"],
            "timestamp": 1_767_225_600 + n,
        }
    voice = [c for c in guild["channels"] if c["type"] == 2] or text
    return "VOICE_STATE_UPDATE", {
        "guild_id": guild["id"],
        "channel_id": voice[n % len(voice)]["id"],
        "user_id": author["id"],
        "session_id": f"v{n}",
        "deaf": False,
        "mute": False,
        "self_deaf": False,
        "self_mute": False,
        "self_video": False,
        "suppress": False,
        "request_to_speak_timestamp": None,
    }
