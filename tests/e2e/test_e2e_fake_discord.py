"""The fake Discord itself: it must reject what Discord rejects, or the e2e tests could not fail.

A raw aiohttp client plays the bot here (no discord.py), so each rule is checked in isolation.
"""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from tests.fakes.discord import FakeDiscord

pytestmark = pytest.mark.timeout(30)


@pytest.fixture
async def world():
    fake = FakeDiscord()
    await fake.start()
    session = aiohttp.ClientSession()
    ws = await session.ws_connect(fake.gateway_url)
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    await ws.send_str(json.dumps({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}}))
    ready = json.loads((await ws.receive()).data)
    assert ready["t"] == "READY" and ready["d"]["application"]["id"] == fake.application_id
    guild = json.loads((await ws.receive()).data)
    assert guild["t"] == "GUILD_CREATE"
    await fake.wait_ready()
    yield fake, session, ws
    await ws.close()
    await session.close()
    await fake.close()


async def dispatch(fake, ws, name="identity", options=None, type=2):
    payload = fake.interaction_payload(
        name, options or {"card": "x"}, type=type, focused="card" if type == 4 else None
    )
    await fake.send_interaction(payload)
    event = json.loads((await ws.receive()).data)
    assert event["t"] == "INTERACTION_CREATE" and event["d"]["id"] == payload["id"]
    return payload


async def callback(fake, session, payload, body):
    url = f"{fake.api_base}/interactions/{payload['id']}/{payload['token']}/callback?with_response=1"
    async with session.post(url, json=body) as resp:
        return resp.status, await resp.json()


def message(**data):
    return {"type": 4, "data": {"allowed_mentions": {"parse": []}, **data}}


async def test_one_callback_per_interaction(world):
    fake, session, ws = world
    payload = await dispatch(fake, ws)
    status, body = await callback(fake, session, payload, message(content="hi"))
    assert status == 200 and body["resource"]["message"]["content"] == "hi"
    assert (await fake.wait_for_reply(payload["id"])).content == "hi"
    status, body = await callback(fake, session, payload, message(content="again"))
    assert status == 400 and body["code"] == 40060
    assert fake.violations and "second callback" in fake.violations[0]


async def test_first_callback_within_the_deadline(world):
    fake, session, ws = world
    fake.callback_deadline = 0.05
    payload = await dispatch(fake, ws)
    await asyncio.sleep(0.1)
    status, body = await callback(fake, session, payload, message(content="late"))
    assert status == 404 and body["code"] == 10062
    assert "after" in fake.violations[0]


@pytest.mark.parametrize(
    "data, problem",
    [
        ({"content": "x" * 2001}, "content is 2001"),
        ({"content": ""}, "empty message"),
        ({"embeds": [{"title": "t", "fields": [{"name": "n", "value": "v"}] * 26}]}, "26 embed fields"),
        ({"embeds": [{"title": "t" * 257}]}, "title is 257"),
        ({"embeds": [{"description": "d" * 4097}]}, "description is 4097"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "field value length 1025"),
        ({"embeds": [{"fields": [{"name": "", "value": "v"}]}]}, "field name length 0"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "total 6001"),
        ({"embeds": [{"title": "t", "url": "scryfall.com/x"}]}, "url not well formed"),
        ({"embeds": [{"title": "t", "thumbnail": {"url": "None"}}]}, "thumbnail.url not well formed"),
    ],
)
async def test_message_limits(world, data, problem):
    fake, session, ws = world
    payload = await dispatch(fake, ws)
    status, _ = await callback(fake, session, payload, message(**data))
    assert status == 400
    assert any(problem in v for v in fake.violations), fake.violations
    assert not fake.interactions[payload["id"]].callbacks


async def test_allowed_mentions_required_and_valid(world):
    fake, session, ws = world
    payload = await dispatch(fake, ws)
    status, _ = await callback(fake, session, payload, {"type": 4, "data": {"content": "@everyone"}})
    assert status == 400 and "allowed_mentions missing" in fake.violations[-1]
    status, _ = await callback(
        fake,
        session,
        payload,
        message(content="x", allowed_mentions={"parse": ["users", "everything"], "users": ["1"]}),
    )
    assert status == 400
    assert any("parse invalid" in v for v in fake.violations)
    assert any("both parse users" in v for v in fake.violations)


async def test_autocomplete_choices(world):
    fake, session, ws = world
    payload = await dispatch(fake, ws, type=4)
    assert payload["data"]["options"][0]["focused"] is True
    too_many = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    status, _ = await callback(fake, session, payload, {"type": 8, "data": {"choices": too_many}})
    assert status == 400 and "26 autocomplete choices" in fake.violations[-1]
    status, _ = await callback(
        fake, session, payload, {"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v"}]}}
    )
    assert status == 400 and "choice name invalid" in fake.violations[-1]
    status, _ = await callback(fake, session, payload, message(content="not a choice list"))
    assert status == 400 and "not valid for interaction type 4" in fake.violations[-1]
    status, _ = await callback(fake, session, payload, {"type": 8, "data": {"choices": too_many[:25]}})
    assert status == 200
    assert len((await fake.wait_for_reply(payload["id"])).choices) == 25


async def test_deferred_reply_and_webhook_rules(world):
    fake, session, ws = world
    payload = await dispatch(fake, ws)
    hook = f"{fake.api_base}/webhooks/{fake.application_id}/{payload['token']}/messages/@original"
    async with session.patch(hook, json={"content": "too early", "allowed_mentions": {"parse": []}}) as resp:
        assert resp.status == 404
    assert "before any callback" in fake.violations[-1]
    status, body = await callback(fake, session, payload, {"type": 5, "data": {"flags": 64}})
    assert status == 200 and body["interaction"]["response_message_loading"] is True
    async with session.patch(hook, json={"content": "done", "allowed_mentions": {"parse": []}}) as resp:
        assert resp.status == 200 and (await resp.json())["content"] == "done"
    reply = await fake.wait_for_reply(payload["id"])
    assert reply.deferred and reply.ephemeral and reply.content == "done"


async def test_rest_needs_the_token_and_commands_are_validated(world):
    fake, session, _ws = world
    async with session.get(f"{fake.api_base}/users/@me", headers={"Authorization": "Bot nope"}) as resp:
        assert resp.status == 401
    auth = {"Authorization": f"Bot {fake.token}"}
    async with session.get(f"{fake.api_base}/users/@me", headers=auth) as resp:
        assert resp.status == 200 and resp.headers["Content-Type"] == "application/json"
    bad = [
        {
            "name": "Bad Name",
            "description": "",
            "type": 1,
            "options": [
                {"name": "b", "description": "x", "type": 3},
                {"name": "a", "description": "x", "type": 3, "required": True},
            ],
        }
    ]
    async with session.put(
        f"{fake.api_base}/applications/{fake.application_id}/commands", json=bad, headers=auth
    ) as resp:
        assert resp.status == 400
    assert any("command name invalid" in v for v in fake.violations)
    assert any("required option a after an optional one" in v for v in fake.violations)
    assert fake.command_syncs == []
    async with session.get(f"{fake.api_base}/channels/1/messages", headers=auth) as resp:
        assert resp.status == 404
    assert fake.unhandled == [("GET", "/channels/1/messages")]


async def test_attachments_are_served_and_resolved(world):
    fake, session, ws = world
    attachment = fake.attachment("deck.txt", b"1 Sol Ring\n")
    payload = await dispatch(fake, ws, "deckcheck", {"commander": "Kumano", "decklist": attachment})
    option = next(o for o in payload["data"]["options"] if o["name"] == "decklist")
    assert option == {"name": "decklist", "type": 11, "value": attachment["id"]}
    assert payload["data"]["resolved"]["attachments"][attachment["id"]]["url"] == attachment["url"]
    async with session.get(attachment["url"]) as resp:
        assert resp.status == 200 and await resp.read() == b"1 Sol Ring\n"


async def test_gateway_heartbeats_and_privileged_intents():
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        ws = await session.ws_connect(fake.gateway_url)
        await ws.receive()  # HELLO
        await ws.send_str(json.dumps({"op": 1, "d": None}))
        assert json.loads((await ws.receive()).data)["op"] == 11
        await ws.send_str(json.dumps({"op": 2, "d": {"token": fake.token, "intents": 1 << 15}}))
        closed = await ws.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4014
        assert not fake.ready.is_set() and "privileged" in fake.violations[0]
        await ws.close()
