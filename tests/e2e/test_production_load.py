"""Load: 1,000 interactions in one burst from 50 users through the real gateway, with USER_RATE 5/10.

Every interaction gets exactly one reply; each user gets 5 real answers and then the friendly ephemeral
cooldown reply; the cooldown replies are counted (metrics and replies agree); p99 latency is printed.
The cooldown's clock is frozen for the burst so the 5-per-user split does not depend on machine speed. How long
the burst may take is measured on the machine in the same run: a warm-up burst from other users gives the
time one interaction takes now, and Discord's 3-second callback deadline (the fake's) and the wait for the
replies scale with it, so a machine busy with other work can't fail the test (issue 25).
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest
from discord import app_commands

from bot.app.tree import refuse_over_cooldown
from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import CARD_NAMES, bot_settings, burst, running_bot, settle, user
from tests.shared_data import card

USERS = 50
PER_USER = 20
RATE, PER = 5, 10.0
COOLDOWN_TEXT = "You're sending commands a little fast"
WARM_UP = 100  # interactions, from users of their own, before the burst
QUIET_BURST = 1.5  # seconds the burst may take for Discord's own 3-second deadline to hold (half of it)


@pytest.mark.slow
async def test_burst_of_1000_interactions_across_50_users(imported_cache):
    cache_path = imported_cache
    async with FakeScryfall([card(n) for n in CARD_NAMES]) as scryfall, FakeDiscord() as fake:
        settings = bot_settings(fake, scryfall, cache_path, user_rate="5/10", bulk_refresh_hours=24)
        async with running_bot(settings, fake) as bot:
            cooldown = bot.tree.cooldown
            assert cooldown is not None
            first_user = SimpleNamespace(user=SimpleNamespace(id=int(user(0)["id"])))
            bucket = cooldown.get_bucket(first_user, 1000.0)
            assert bucket is not None and (bucket.rate, bucket.per) == (RATE, PER)
            bot.tree.clock = lambda: 1000.0  # the same limit, a frozen clock

            # The machine's pace now: the burst needs about (USERS * PER_USER / WARM_UP) times the warm-up.
            warm = [
                ("identity", {"card": CARD_NAMES[i % len(CARD_NAMES)]}, user(1000 + i))
                for i in range(WARM_UP)
            ]
            fake.callback_deadline = float("inf")  # the warm-up measures the pace; any pace will do
            warm_up = await burst(fake, warm, timeout=300)
            await settle(bot)  # the warm-up's metrics are recorded before they are read
            expected = warm_up.seconds * USERS * PER_USER / WARM_UP
            fake.callback_deadline = 3.0 * max(1.0, expected / QUIET_BURST)
            before = {
                (c, o): bot.metrics.value("identity_bot_commands_total", {"command": c, "outcome": o}) or 0
                for c in ("identity", "fits")
                for o in ("ok", "cooldown")
            }

            calls = []
            for i in range(PER_USER):
                for u in range(USERS):  # interleaved, as real traffic would be
                    name = CARD_NAMES[(i + u) % len(CARD_NAMES)]
                    calls.append(
                        ("identity", {"card": name}, user(u))
                        if i % 4
                        else ("fits", {"card": name, "commander": "Kumano"}, user(u))
                    )
            result = await burst(fake, calls, timeout=max(60.0, 4 * expected))
            print(f"\nload: warm-up {warm_up.summary()}; callback deadline {fake.callback_deadline:.1f} s")
            print(f"load: {result.summary()}")

            assert len(calls) == 1000 and len(result.replies) == 1000
            assert fake.violations == []
            for payload in result.payloads:  # exactly one reply each: one callback, at most one message
                record = fake.interactions[payload["id"]]
                assert len(record.callbacks) == 1
                assert len(record.edits) + len(record.followups) <= 1

            cooldowns: Counter[str] = Counter()
            answers: Counter[str] = Counter()
            for payload, reply in zip(result.payloads, result.replies, strict=True):
                uid = payload["member"]["user"]["id"]
                if COOLDOWN_TEXT in reply.content:
                    assert reply.ephemeral and not reply.embeds
                    cooldowns[uid] += 1
                else:
                    assert reply.embeds and not reply.ephemeral, reply.content
                    answers[uid] += 1
            assert len(answers) == USERS
            assert set(answers.values()) == {RATE}
            assert set(cooldowns.values()) == {PER_USER - RATE}
            total_cooldowns = sum(cooldowns.values())
            assert total_cooldowns == USERS * (PER_USER - RATE) == 750
            print(
                f"load: {sum(answers.values())} answers, {total_cooldowns} cooldown replies, "
                f"p99 {result.percentile(99) * 1000:.1f} ms"
            )

            # Autocomplete is never limited: a user in cooldown still gets choices while typing.
            with pytest.raises(app_commands.CommandOnCooldown):  # user 0 is over the limit
                refuse_over_cooldown(cooldown, first_user, 1000.0)
            choices = await fake.autocomplete(
                "identity", {"card": "lightning bo"}, focused="card", user=user(0)
            )
            assert "Lightning Bolt" in [c["name"] for c in choices]

            await settle(bot)
            m = bot.metrics
            assert m.value("identity_bot_cooldowns_total") == total_cooldowns
            commands = sum(
                (m.value("identity_bot_commands_total", {"command": c, "outcome": o}) or 0) - before[c, o]
                for c in ("identity", "fits")
                for o in ("ok", "cooldown")
            )
            assert commands == 1000
            assert m.value("identity_bot_commands_total", {"command": "identity", "outcome": "cooldown"}) > 0
            assert m.value("identity_bot_command_latency_seconds_count", {"command": "identity"}) > 0
            assert m.value("identity_bot_cache_lookups_total", {"result": "hit"}) >= 250
