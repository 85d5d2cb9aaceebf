"""The bot process: `python -m bot` as a subprocess (token errors, a full run against the fakes,
SIGTERM and SIGINT), plus in-process checks: a bad setting through `bot.cli.main`, intents, extensions and
SYNC_COMMANDS / DEV_GUILD_ID."""

from __future__ import annotations

import asyncio
import os
import pkgutil
import re
import signal
import sqlite3
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import cogs
from bot.cli import main as cli_main
from bot.main import EXTENSIONS
from bot.main import run as run_in_process
from bot.settings import load_settings
from tests.fakes.discord import FakeDiscord
from tests.fakes.scryfall import FakeScryfall
from tests.production_world import running_bot
from tests.shared_data import card

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(60)


def bot_env(tmp_path: Path, **values: str) -> dict[str, str]:
    """A clean environment for `python -m bot` (no inherited bot settings, no .env in the cwd)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            (
                "DISCORD_",
                "SCRYFALL_",
                "CACHE_",
                "BULK_",
                "DEV_GUILD",
                "SYNC_COMMANDS",
                "LOG_",
                "MANA_EMOJI",
                "NEGATIVE_TTL",
                "METRICS_",
                "USER_RATE",
                "SHARD_",
            )
        )
    }
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["CACHE_PATH"] = str(tmp_path / "cache.sqlite3")
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg-data")  # CACHE_PATH's default directory, when a test clears it
    env["MANA_EMOJI_UPLOAD"] = "false"
    env.update(values)
    return env


async def run_bot(tmp_path: Path, *args: str, **values: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=tmp_path,
        env=bot_env(tmp_path, **values),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


# ------------------------------------------------------------------------------------- token errors
async def test_missing_token_exits_2_with_one_line(tmp_path):
    proc = await run_bot(tmp_path)
    _out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 2
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1, lines
    assert "DISCORD_TOKEN" in lines[0] and lines[0].startswith("error:")


def test_invalid_setting_exits_2_with_one_line(clean_env, monkeypatch, capsys):
    """In process: the command line's settings check, before any connection (`bot.cli.main`)."""
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("SCRYFALL_RATE", "5")
    assert cli_main(["run"]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "SCRYFALL_RATE" in lines[0] and lines[0].startswith("error:")
    assert out == ""


async def test_rejected_token_exits_2_and_never_shows_the_token(tmp_path):
    secret = "MTIz.wrong-token.NEVER-PRINT-ME"
    async with FakeDiscord() as fake:
        proc = await run_bot(
            tmp_path,
            DISCORD_TOKEN=secret,
            DISCORD_API_BASE=fake.api_base,
            SCRYFALL_API_BASE="http://127.0.0.1:9",
            BULK_REFRESH_HOURS="0",
            LOG_LEVEL="DEBUG",
        )
        out, err = await asyncio.wait_for(proc.communicate(), 30)
        assert ("GET", "/users/@me") in fake.requests  # it really asked the (fake) Discord
    assert proc.returncode == 2
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1, lines
    assert "rejected the token" in lines[0]
    assert secret not in out.decode() + err.decode()
    assert "NEVER-PRINT-ME" not in out.decode() + err.decode()


# ------------------------------------------------------------------------------ a full process run
async def test_full_run_syncs_to_dev_guild_answers_and_stops_on_sigterm(tmp_path):
    scryfall = FakeScryfall(
        [
            card(n)
            for n in ("Fires of Undeath", "Kumano, Master Yamabushi", "Dismember", "Fire // Ice", "Sol Ring")
        ]
    )
    await scryfall.start()
    fake = FakeDiscord()
    await fake.start()
    proc = await run_bot(
        tmp_path,
        "run",
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.api_base,
        SCRYFALL_API_BASE=scryfall.base_url,
        DEV_GUILD_ID=fake.guild_id,
        BULK_REFRESH_HOURS="0",
        USER_RATE="off",
        LOG_LEVEL="INFO",
    )
    try:
        waiter = asyncio.create_task(fake.wait_ready(timeout=30))
        exited = asyncio.create_task(proc.wait())
        done, _ = await asyncio.wait({waiter, exited}, return_when=asyncio.FIRST_COMPLETED)
        assert waiter in done, await proc.communicate()
        exited.cancel()

        assert [s.scope for s in fake.command_syncs] == [int(fake.guild_id)]  # DEV_GUILD_ID: guild sync only
        assert {"identity", "fits", "help"} <= set(fake.command_syncs[0].names)

        # Scryfall-only mode: the first lookup defers and asks Scryfall ...
        reply = await fake.invoke("identity", {"card": "fires of undeath"})
        assert reply.deferred and not reply.ephemeral
        assert reply.embeds[0]["title"] == "Fires of Undeath"
        assert "{B}{R}" in reply.text()
        asked = scryfall.count()
        assert asked >= 1
        # ... the second is answered directly from the cache
        again = await fake.invoke("identity", {"card": "Fires of Undeath"})
        assert not again.deferred and again.embeds[0]["title"] == "Fires of Undeath"
        assert scryfall.count() == asked

        fits = await fake.invoke("fits", {"card": "Dismember", "commander": "Kumano"})
        assert fits.embeds[0]["title"] == "❌ Dismember does not fit"
        assert "Kumano, Master Yamabushi" in fits.embeds[0]["description"]
        assert fake.violations == []
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), 20)
        await fake.close()
        await scryfall.close()
    assert proc.returncode == 0, err.decode()
    text = out.decode() + err.decode()
    assert fake.token not in text
    assert "Traceback" not in text
    assert "shutdown signal received" in text


async def test_sigint_closes_the_session_and_the_cache_cleanly(tmp_path):
    """Ctrl-C: exit 0, and the SQLite cache was closed properly (its WAL file is folded back and removed)."""
    scryfall = FakeScryfall([card("Sol Ring")])
    await scryfall.start()
    fake = FakeDiscord()
    await fake.start()
    proc = await run_bot(
        tmp_path,
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.api_base,
        SCRYFALL_API_BASE=scryfall.base_url,
        BULK_REFRESH_HOURS="0",
        USER_RATE="off",
    )
    try:
        await fake.wait_ready(timeout=30)
        reply = await fake.invoke("identity", {"card": "Sol Ring"})  # writes the card to the cache
        assert reply.embeds[0]["title"] == "Sol Ring"
        assert (tmp_path / "cache.sqlite3-wal").exists()  # open connection in WAL mode
        proc.send_signal(signal.SIGINT)
        out, err = await asyncio.wait_for(proc.communicate(), 20)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await fake.close()
        await scryfall.close()
    assert proc.returncode == 0, err.decode()
    assert "shutdown signal received" in out.decode()
    assert not (tmp_path / "cache.sqlite3-wal").exists()  # the last connection closed cleanly
    with sqlite3.connect(tmp_path / "cache.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM cards WHERE name = 'Sol Ring'").fetchone() == (1,)


# ------------------------------------------------------------------------------------- in process
async def test_the_bot_asks_for_no_events_and_answers_in_many_servers(tmp_path):
    """Identified with no intents: no GUILD_CREATE, no chat reaches it, nothing about the servers is cached;
    it still answers in any of them, and the servers it is in stay 'unavailable' stubs from READY."""
    async with FakeScryfall([card("Sol Ring")]) as scryfall, FakeDiscord() as fake:
        servers = fake.load_servers(40)
        settings = load_settings(
            discord_token=fake.token,
            discord_api_base=fake.api_base,
            scryfall_api_base=scryfall.base_url,
            cache_path=tmp_path / "c.sqlite3",
            bulk_refresh_hours=0,
            user_rate="off",
        )
        async with running_bot(settings, fake) as bot:
            assert fake.identifies[0]["intents"] == 0
            assert await fake.chat(400) == 0  # messages, reactions, typing, voice: none is sent to the bot
            assert not [f for f in fake.shards[0].sent if f["t"] == "GUILD_CREATE"]
            assert all(g.unavailable and not g.channels and not g.members for g in bot.guilds)
            reply = await fake.invoke("identity", {"card": "Sol Ring"}, guild_id=servers[-1])
            assert reply.embeds and "Sol Ring" in reply.embeds[0]["title"]
            assert not bot.cached_messages and len(bot.users) <= 2  # the bot, and the user who asked


def test_every_cog_is_loaded():
    assert set(EXTENSIONS) == {f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__)}


async def test_sync_commands_false_skips_syncing_and_still_answers(tmp_path):
    async with FakeScryfall([card("Sol Ring")]) as scryfall, FakeDiscord() as fake:
        settings = load_settings(
            discord_token=fake.token,
            discord_api_base=fake.api_base,
            scryfall_api_base=scryfall.base_url,
            cache_path=tmp_path / "c.sqlite3",
            bulk_refresh_hours=0,
            sync_commands=False,
            user_rate="off",
        )
        async with running_bot(settings, fake) as bot:
            assert bot.allowed_mentions is not None and bot.allowed_mentions.to_dict()["parse"] == []
            assert fake.api_base == discord.http.Route.BASE  # the composition root pointed discord.py here
            assert fake.command_syncs == []
            assert not any(method == "PUT" for method, _ in fake.requests)
            reply = await fake.invoke("identity", {"card": "Sol Ring"})
            assert reply.embeds[0]["title"] == "Sol Ring"
        assert bot.is_closed()


def test_the_default_api_base_is_discords():
    from bot.settings import Settings

    assert Settings(_env_file=None).discord_api_base == "https://discord.com/api/v10"


# ---------------------------------------------------------------------------------------- packaging
def test_env_example_lists_every_setting_and_loads_as_the_defaults(clean_env):
    from bot.settings import Settings

    text = (REPO / ".env.example").read_text()
    names = {
        m.group(1) for m in re.finditer(r"^(?:# )?([A-Z][A-Z0-9_]*)=", text, re.M)
    }  # "# CACHE_PATH=" counts
    assert names == {name.upper() for name in Settings.model_fields}
    (clean_env / ".env").write_text(text.replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=abc\n"))
    loaded = load_settings()
    defaults = Settings(_env_file=None, discord_token="abc")
    assert loaded.model_dump() == defaults.model_dump()


def test_docker_image_is_non_root_with_a_cache_volume_and_no_secrets():
    dockerfile = (REPO / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11-slim" in dockerfile
    assert "\nUSER bot" in dockerfile and 'VOLUME ["/data"]' in dockerfile
    assert "ENV CACHE_PATH=/data/cache.sqlite3" in dockerfile and "HEALTHCHECK" in dockerfile
    instructions = [
        line.strip() for line in dockerfile.splitlines() if line.strip() and not line.startswith("#")
    ]
    copies = [line for line in instructions if line.startswith(("COPY", "ADD"))]
    assert copies and not any(".env" in line or line.startswith("COPY . ") for line in copies)
    assert not any("TOKEN" in line for line in instructions if line.startswith(("ENV", "ARG")))
    ignored = [
        line.strip()
        for line in (REPO / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert ignored[0] == "*"  # an allowlist: only what is re-included reaches the build context
    assert {line[1:] for line in ignored if line.startswith("!")} == {
        "pyproject.toml",
        "README.md",
        "requirements.lock",
        "bot",
        "cogs",
    }
    assert "**/.env" in ignored


async def test_gateway_refusing_the_token_exits_2(tmp_path, capsys):
    async with FakeScryfall([]) as scryfall, FakeDiscord() as fake:
        fake.gateway_close_code = 4004
        settings = load_settings(
            discord_token=fake.token,
            discord_api_base=fake.api_base,
            scryfall_api_base=scryfall.base_url,
            cache_path=tmp_path / "c.sqlite3",
            bulk_refresh_hours=0,
            sync_commands=False,
        )
        code = await asyncio.wait_for(run_in_process(settings), 30)
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "rejected the token" in err[0] and fake.token not in err[0]


async def test_unreachable_discord_is_one_error_line(tmp_path, capsys):
    settings = load_settings(
        discord_token="abc.def.ghi",
        discord_api_base="http://127.0.0.1:9/api/v10",
        scryfall_api_base="http://127.0.0.1:9",
        bulk_refresh_hours=0,
        cache_path=tmp_path / "cache.sqlite3",
    )
    code = await asyncio.wait_for(run_in_process(settings), 30)
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: cannot talk to Discord at http://127.0.0.1:9/api/v10")
    assert "abc.def.ghi" not in err[0]


def test_recent_names_are_per_server_bounded_and_filtered():
    from bot.app.recent import RecentNames

    def at(guild: int) -> Any:  # an interaction in that server
        return SimpleNamespace(guild_id=guild, user=SimpleNamespace(id=99))

    recent = RecentNames(per_scope=3, scopes=2)
    recent.add(at(1), "Fires of Undeath", commander=False)
    recent.add(at(1), "Kumano, Master Yamabushi", commander=True)
    assert recent.matching(at(1), "fire") == ["Fires of Undeath"]
    assert recent.matching(at(1), "master") == ["Kumano, Master Yamabushi"]  # a later word matches too
    assert recent.matching(at(1), "ire") == []  # but not the middle of a word
    assert recent.matching(at(2), "fire") == []  # other servers don't see it
    assert recent.matching(at(1), "", commanders_only=False) == []
    assert recent.matching(at(1), "k", commanders_only=True) == ["Kumano, Master Yamabushi"]
    assert recent.matching(at(1), "f", commanders_only=True) == []
    for name in ("Fire // Ice", "Firebolt", "Fireball"):
        recent.add(at(1), name, commander=False)
    assert recent.matching(at(1), "fire") == ["Fireball", "Firebolt", "Fire // Ice"]  # newest first, 3 kept
    recent.add(at(2), "Sol Ring", commander=False)
    recent.add(at(3), "Sol Ring", commander=False)
    assert recent.matching(at(1), "fire") == []  # the least recently used server was dropped
    assert recent.matching(at(3), "sol") == ["Sol Ring"]
    dm = SimpleNamespace(guild_id=None, user=SimpleNamespace(id=7))  # in DMs, per user
    recent.add(dm, "Sol Ring", commander=False)
    assert recent.matching(dm, "sol") == ["Sol Ring"]
    assert recent.matching(SimpleNamespace(guild_id=None, user=SimpleNamespace(id=8)), "sol") == []


# ---------------------------------------------------------------------- helpers of the Discord layer
def test_card_options_read_pasted_decklist_lines():
    from bot.deck.parser import card_query_text

    assert card_query_text("1 Sol Ring (C21) 263 *F*") == "Sol Ring"
    assert card_query_text("4x Lightning Bolt [M10]") == "Lightning Bolt"
    assert card_query_text("Commander: Kumano") == "Kumano"
    assert card_query_text("Fire // Ice") == "Fire // Ice"
    assert card_query_text("1996 World Champion") == "1996 World Champion"  # a name that starts with a number
    assert card_query_text("B.F.M. (Big Furry Monster)") == "B.F.M. (Big Furry Monster)"
    assert card_query_text("1/2") == "1/2"  # not a card line: kept as typed


async def test_the_option_a_choice_replaces():
    from bot.app.options import CardOption, CardQuery, option_for

    fits = {
        "card": CardQuery("card", "bolt"),
        "commander": CardQuery("commander", "kumano", True),
        "partner": CardQuery("partner", "tymna", True),
        "color": "R",
    }
    assert option_for(fits, "commander", "kumano") == "commander"
    assert option_for(fits, "color", "kumano") is None  # not a card option of this command
    one = {"card": await CardOption().transform(None, "1 Lightning Bolt (M10) 1")}  # type: ignore[arg-type]
    assert one["card"].text == "Lightning Bolt"
    assert option_for(one, None, "Lightning Bolt") == "card"
    assert option_for({"card": CardQuery(None, "bolt")}, None, "something else") == "card"  # the only one
    assert (
        option_for({"card": CardQuery(None, "bolt"), "commander": CardQuery(None, "bolt")}, None, "bolt")
        is None
    )


def test_installation_kinds_follow_the_application():
    from bot.app.tree import IdentityTree

    class App:
        def __init__(self, guild: object, user: object) -> None:
            self.guild_integration_config = guild
            self.user_integration_config = user

    def installs(app: App | None) -> discord.app_commands.AppInstallationType:
        tree = IdentityTree(discord.Client(intents=discord.Intents.none()))
        tree.sync_contexts(app)  # type: ignore[arg-type]
        assert tree.allowed_installs is not None
        return tree.allowed_installs

    both = installs(App(object(), object()))
    assert both.guild and both.user
    guild_only = installs(App(object(), None))
    assert guild_only.guild and not guild_only.user
    user_only = installs(App(None, object()))
    assert user_only.user and not user_only.guild
    unknown = installs(None)
    assert unknown.guild and not unknown.user


def test_what_reads_as_a_decklist_in_a_message():
    from bot.app.decks import looks_like_a_list, without_fences

    assert looks_like_a_list("1 Sol Ring\n1 Lightning Bolt")
    assert looks_like_a_list("Commander: Kumano, Master Yamabushi\nSol Ring")
    assert looks_like_a_list(
        "\n".join(["Sol Ring", "Arcane Signet", "Mind Stone", "Fellwar Stone", "Fire Diamond"])
    )
    assert not looks_like_a_list("good game everyone, see you next week")
    assert not looks_like_a_list("")
    assert without_fences("my list:\n```txt\n1 Sol Ring\n```\nthanks") == "1 Sol Ring\n"
    assert without_fences("```1 Sol Ring```") == "1 Sol Ring"
    assert without_fences("1 Sol Ring\n```") == "1 Sol Ring\n"


def test_card_mentions_in_a_message():
    from cogs.messages import card_mentions

    text = "[[Sol Ring]] or [[sol  ring]]? [[Fire // Ice]], [[ ]] [[Lightning\nBolt]] [[Kumano]]"
    assert card_mentions(text) == ["Sol Ring", "Fire // Ice", "Kumano"]
