"""Faults: Scryfall down for the whole run, the gateway socket dropped mid-run (RESUME with replay),
Discord rejecting replies, shutdown during a burst, and the bot process SIGKILLed mid-burst."""

from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
from pathlib import Path

import pytest

from tests.app.test_app import run_bot as run_bot_process
from tests.fakes.discord import FakeDiscord
from tests.fakes.fixtures import FakeClock
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import CARD_NAMES, bot_settings, burst, running_bot, settle, user
from tests.shared_data import card

pytestmark = pytest.mark.timeout(90)

UNAVAILABLE = "isn't answering right now"
STALE = "Scryfall could not be reached"


def metric(bot, name: str, **labels: str) -> float:
    return bot.metrics.value(name, labels) or 0.0


# --------------------------------------------------------------------------------- Scryfall down
@pytest.mark.slow
async def test_scryfall_down_for_the_whole_run_serves_stale_cache_and_clear_errors(tmp_path):
    clock = FakeClock()
    async with FakeScryfall([card(n) for n in CARD_NAMES]) as scryfall, FakeDiscord() as fake:
        settings = bot_settings(fake, scryfall, tmp_path / "cache.sqlite3", cache_ttl=60)
        async with running_bot(settings, fake, clock=clock) as bot:
            # Yesterday, Scryfall was up: the cache learnt three cards. Then every entry expired.
            service = bot.cards
            await service.resolve("Fires of Undeath")
            await service.resolve("Dismember")
            await service.resolve_commander("Kumano")
            clock.advance(86_400)
            scryfall.mode = "down"
            before = scryfall.count()
            reply = await fake.invoke("identity", {"card": "Fires of Undeath"})
            assert reply.embeds and reply.embeds[0]["title"] == "Fires of Undeath"
            assert STALE in reply.text() and not reply.ephemeral

            fits = await fake.invoke("fits", {"card": "Dismember", "commander": "Kumano"})
            assert fits.embeds[0]["title"] == "❌ Dismember does not fit"
            assert STALE in fits.text()

            never_seen = await fake.invoke("identity", {"card": "Lightning Bolt"})
            assert never_seen.ephemeral and UNAVAILABLE in never_seen.content
            assert not never_seen.embeds

            choices = await fake.autocomplete("identity", {"card": "light"}, focused="card")
            assert choices == []  # nothing known locally; typing must not break

            assert fake.violations == []
            for record in fake.interactions.values():
                assert len(record.callbacks) == 1
            await settle(bot)
            # Politeness holds while Scryfall is down: each of the 5 lookups tried at most 3 times.
            asked = scryfall.count() - before
            assert 0 < asked <= 3 * 5
            assert metric(bot, "identity_bot_commands_total", command="identity", outcome="stale") == 1
            assert metric(bot, "identity_bot_commands_total", command="fits", outcome="stale") == 1
            assert (
                metric(bot, "identity_bot_commands_total", command="identity", outcome="scryfall_unavailable")
                == 1
            )
            assert metric(bot, "identity_bot_scryfall_requests_total", endpoint="card", status="500") >= 1
            assert metric(bot, "identity_bot_scryfall_retries_total", endpoint="card") >= 1


# ------------------------------------------------------------------------------ gateway dropped
async def test_gateway_drop_mid_run_resumes_replays_and_keeps_answering(imported_cache):
    cache_path = imported_cache
    async with FakeScryfall([]) as scryfall, FakeDiscord() as fake:
        settings = bot_settings(fake, scryfall, cache_path, bulk_refresh_hours=24)
        async with running_bot(settings, fake) as bot:
            first = await fake.invoke("identity", {"card": "Lightning Bolt"})
            assert first.embeds[0]["title"] == "Lightning Bolt"
            session_id = fake.shards[0].session_id

            # The socket closes; three interactions arrive while the bot is away.
            missed = [
                fake.interaction_payload("identity", {"card": name}, user=user(i))
                for i, name in enumerate(("Sol Ring", "Counterspell", "Dismember"))
            ]
            await fake.drop(0, missed=missed)
            resume = await fake.wait_resumed()
            assert resume["session_id"] == session_id  # op 6 RESUME of the same session, not a new IDENTIFY
            assert resume["replayed"] >= len(missed)
            assert len(fake.identifies) == 1
            for payload, name in zip(missed, ("Sol Ring", "Counterspell", "Dismember"), strict=True):
                reply = await fake.wait_for_reply(payload["id"])
                assert reply.embeds[0]["title"] == name

            after = await burst(
                fake, [("identity", {"card": n}, user(10 + i)) for i, n in enumerate(CARD_NAMES)]
            )
            assert [r.embeds[0]["title"] for r in after.replies] == list(CARD_NAMES)
            assert fake.violations == []
            assert all(len(r.callbacks) == 1 for r in fake.interactions.values())
            await settle(bot)
            assert metric(bot, "identity_bot_gateway_reconnects_total", shard="0", kind="resume") == 1
            assert metric(bot, "identity_bot_gateway_connected", shard="0") == 1


# ------------------------------------------------------------------------- replies Discord rejects
async def test_rejected_reply_is_logged_once_counted_and_not_retried(tmp_path, caplog):
    async with FakeScryfall([]) as scryfall, FakeDiscord() as fake:
        settings = bot_settings(fake, scryfall, tmp_path / "cache.sqlite3")
        async with running_bot(settings, fake) as bot:
            caplog.set_level(logging.INFO)
            fake.reject_callbacks = 1000  # Discord refuses everything for a while
            payload = fake.interaction_payload("help", {})
            await fake.send_interaction(payload)
            async with asyncio.timeout(10):
                while metric(bot, "identity_bot_commands_total", command="help", outcome="rejected") < 1:  # noqa: ASYNC110
                    await asyncio.sleep(0.02)
            await asyncio.sleep(0.3)  # would a retry loop send more?
            attempts = [i for i in fake.rejected_callbacks if i == payload["id"]]
            assert len(attempts) == 2  # the reply, then one plain error text; no more
            assert metric(bot, "identity_bot_discord_reply_errors_total", status="400") == 2
            rejected_lines = [r for r in caplog.records if "rejected the reply" in r.getMessage()]
            assert len(rejected_lines) == 1 and rejected_lines[0].levelno == logging.WARNING

            fake.reject_callbacks = 0
            reply = await fake.invoke("help", {})
            assert reply.embeds and reply.ephemeral
            assert fake.violations == []


# ---------------------------------------------------------------------------- shutdown in a burst
async def test_shutdown_during_a_burst_loses_no_cache_writes(tmp_path):
    names = CARD_NAMES[:4]  # Scryfall allows ~2 named lookups a second: all four fit in the timeout
    cache_path = tmp_path / "cache.sqlite3"
    async with FakeScryfall([card(n) for n in names]) as scryfall, FakeDiscord() as fake:
        scryfall.delay = 0.2
        settings = bot_settings(fake, scryfall, cache_path)  # Scryfall-only: every name is fetched
        async with running_bot(settings, fake) as bot:
            payloads = [
                fake.interaction_payload("identity", {"card": n}, user=user(i))
                for i, n in enumerate(names * 3)
            ]
            for p in payloads:
                await fake.send_interaction(p)
            for p in payloads:  # every interaction deferred: all are in flight
                await fake.wait_for_callback(p["id"])
            assert len(bot.inflight) > 0
            await bot.close()  # SIGTERM in production
        for p, name in zip(payloads, names * 3, strict=True):
            reply = await fake.wait_for_reply(p["id"], timeout=1)
            assert reply.embeds[0]["title"] == name
    con = sqlite3.connect(cache_path)
    try:
        stored = {row[0] for row in con.execute("SELECT name FROM cards")}
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    assert set(names) <= stored


# ------------------------------------------------------------------------------ SIGKILL mid-burst
async def _wait_new_session(fake: FakeDiscord, old: str | None, proc: asyncio.subprocess.Process) -> None:
    async with asyncio.timeout(30):
        while True:
            session = fake.shards.get(0)
            if session is not None and session.session_id != old and session.connected:
                return
            if proc.returncode is not None:
                raise AssertionError(f"the bot exited: {(await proc.communicate())[1].decode()[-2000:]}")
            await asyncio.sleep(0.05)


def _integrity(path: Path) -> tuple[str, int]:
    con = sqlite3.connect(path)
    try:
        return con.execute("PRAGMA integrity_check").fetchone()[0], con.execute(
            "SELECT count(*) FROM cards"
        ).fetchone()[0]
    finally:
        con.close()


@pytest.mark.slow
async def test_sigkill_mid_burst_then_restart_the_cache_opens_answers_and_is_intact(tmp_path):
    names = list(CARD_NAMES)
    env = {"USER_RATE": "off", "BULK_REFRESH_HOURS": "0", "LOG_LEVEL": "WARNING"}
    async with FakeScryfall([card(n) for n in names]) as scryfall, FakeDiscord() as fake:
        env |= {
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "SCRYFALL_API_BASE": scryfall.base_url,
        }
        proc = await run_bot_process(tmp_path, "run", **env)
        try:
            await _wait_new_session(fake, None, proc)
            old_session = fake.shards[0].session_id
            async with asyncio.timeout(15):  # commands synced: the payloads carry their ids
                while "global" not in fake.commands:  # noqa: ASYNC110
                    await asyncio.sleep(0.05)
            payloads = [
                fake.interaction_payload("identity", {"card": n}, user=user(i))
                for i, n in enumerate(names * 4)
            ]
            for p in payloads:
                await fake.send_interaction(p)
            answered: set[str] = set()
            async with asyncio.timeout(30):  # kill once a few lookups were answered (and written)
                while len(answered) < 3:
                    for p, n in zip(payloads, names * 4, strict=True):
                        if fake.interactions[p["id"]].edits:
                            answered.add(n)
                    await asyncio.sleep(0.01)
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            assert proc.returncode == -signal.SIGKILL
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()

        cache_path = tmp_path / "cache.sqlite3"
        status, _ = await asyncio.to_thread(_integrity, cache_path)
        assert status == "ok"

        proc = await run_bot_process(tmp_path, "run", **env)
        try:
            await _wait_new_session(fake, old_session, proc)
            asked = scryfall.count()
            for name in sorted(answered):  # answered before the kill: answered from the cache now
                reply = await fake.invoke("identity", {"card": name})
                assert reply.embeds[0]["title"] == name and not reply.deferred
            assert scryfall.count() == asked
            fresh = next(n for n in names if n not in answered)
            reply = await fake.invoke("identity", {"card": fresh})
            assert reply.embeds[0]["title"] == fresh
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
            out, err = await asyncio.wait_for(proc.communicate(), 20)
        assert proc.returncode == 0, err.decode()[-2000:]
        assert fake.token not in out.decode() + err.decode()
    status, count = await asyncio.to_thread(_integrity, cache_path)
    assert status == "ok" and count >= len(answered) + 1
