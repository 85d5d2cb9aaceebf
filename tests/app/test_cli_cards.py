"""`python -m bot identity` and `fits` (issue 27): the bot's explanation on a terminal, online through the fake
Scryfall over real HTTP and offline after `sync-cards --file`; exit codes in the scheme of `check-deck`; no
local data and no Scryfall says which command fills the data; CACHE_PATH's default is the user's data
directory. The commands run in this process (`bot.cli.main`, Scryfall's pace on a fake clock); one test runs the real
processes."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.cli import main
from tests.app.test_app import bot_env
from tests.fakes.budget import FastForwardBudget
from tests.fakes.scryfall import FakeScryfall
from tests.present.test_embeds import card
from tests.shared_data import all_cards

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIRES = ["Fires of Undeath", "Kitchen Finks", "Kumano, Master Yamabushi", "Lightning Bolt", "Clara Oswald"]
SYNC_HINT = "run `python -m bot sync-cards` to download it"


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def scryfall() -> AsyncIterator[FakeScryfall]:
    """One fake Scryfall for the module: the shared data and Clara Oswald (printed after it)."""
    async with FakeScryfall([*all_cards(), card("Clara Oswald")]) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module")
async def fake(scryfall: FakeScryfall) -> AsyncIterator[FakeScryfall]:
    scryfall.reset()
    yield scryfall
    scryfall.reset()


@pytest.fixture
def cli(clean_env, monkeypatch, capsys):
    """`python -m bot ARGS` in this process (in a thread: it runs its own event loop), no CACHE_PATH (the
    default, in the test's own data directory), Scryfall at `base`: (exit code, stdout, stderr)."""

    async def run(base: str, *args: str, **env: str) -> tuple[int, str, str]:
        for key, value in {"SCRYFALL_API_BASE": base, "SCRYFALL_TIMEOUT": "3", **env}.items():
            monkeypatch.setenv(key, value)
        capsys.readouterr()

        def command() -> int:
            try:
                return main(list(args), budget=FastForwardBudget())
            except SystemExit as exit_:  # argparse: --help, bad options
                return exit_.code if isinstance(exit_.code, int) else 1

        code = await asyncio.wait_for(asyncio.to_thread(command), timeout=60)
        out, err = capsys.readouterr()
        return code, out, err

    return run


def subset_file(tmp_path: Path, names: list[str]) -> str:
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([card(n) for n in names]), encoding="utf-8")
    return str(path)


async def test_identity_online_then_offline_after_sync_cards_file(fake, cli, clean_env):
    """A new user's two commands: online (the fake Scryfall) the Fires of Undeath explanation; with Scryfall
    gone, after `sync-cards --file`, the same text without a request."""
    code, online, err = await cli(fake.base_url, "identity", "Fires of Undeath")
    assert code == 0 and err == "", err
    assert online.startswith("Fires of Undeath\n{2}{R} \u00b7 Instant\n")
    assert "Fires of Undeath is red, but its color identity is black and red" in online
    assert "Color: {R} red\nColor identity: {B}{R} black and red\nWhy\n" in online
    assert "  {B} \u2014 flashback cost: Flashback {5}{B}\n" in online  # markdown taken out
    assert "**" not in online and "\\" not in online
    assert fake.count("/cards/named") == 1
    default = clean_env / "xdg-data" / "identity-bot" / "cache.sqlite3"
    assert default.is_file() and not (clean_env / "data").exists()  # the user's data directory, not the cwd

    offline = "http://127.0.0.1:9"  # nothing listens there
    sync = await cli(offline, "sync-cards", "--file", subset_file(clean_env, FIRES))
    assert sync[0] == 0 and f"into {default}" in sync[1], sync
    fake.requests.clear()
    code, again, err = await cli(offline, "identity", "Fires of Undeath")
    assert (code, again, err) == (0, online, "")
    assert fake.requests == []


async def test_no_local_data_and_no_scryfall_names_the_command_that_fills_it(fake, cli, clean_env):
    fake.mode = "down"
    deck = clean_env / "deck.txt"
    deck.write_text("1 Sol Ring\n", encoding="utf-8")
    for args, code in [
        (("identity", "Fires of Undeath"), 3),
        (("fits", "Lightning Bolt", "--commander", "Kumano"), 3),
        (("check-deck", str(deck), "--commander", "Kumano"), 3),
    ]:
        got, out, err = await cli(fake.base_url, *args, SCRYFALL_TIMEOUT="0.05")
        assert got == code and out == "", (args, err)
        assert err.startswith("error: Scryfall is not answering (") and SYNC_HINT in err, (args, err)
        assert err.count("\n") == 1, err  # one line


async def test_a_misspelling_is_answered_showing_what_was_typed(fake, cli):
    code, out, err = await cli(fake.base_url, "identity", "Lightnig Bolt")
    assert code == 0, err
    assert out.startswith("Lightning Bolt\nYou typed: Lightnig Bolt\n")
    code, out, _ = await cli(fake.base_url, "identity", "lightning bolt")  # its own name: nothing to say
    assert code == 0 and "You typed" not in out
    code, out, _ = await cli(fake.base_url, "identity", "1 Sol Ring (C21) 263 *F*")  # a decklist line
    assert code == 0 and out.startswith("Sol Ring\n{1} \u00b7 Artifact\n")
    code, out, err = await cli(fake.base_url, "identity", "x" * 100_000)  # hostile: one line, at once
    assert (code, out) == (2, "") and err.count("\n") == 1 and len(err) < 400


async def test_unknown_and_ambiguous_names_exit_2_with_the_names(fake, cli):
    code, out, err = await cli(fake.base_url, "identity", "Zqxwv Nonexistent")
    assert (code, out) == (2, "") and err.startswith("error: 'Zqxwv Nonexistent' is not a card I know"), err
    code, out, err = await cli(fake.base_url, "identity", "path")
    assert (code, out) == (2, "") and err.startswith("error: 'path' matches several cards: "), err
    assert "Path to Exile, " in err and err.endswith("; give more of the name\n")
    code, out, err = await cli(fake.base_url, "fits", "Sol Ring", "--commander", "Zqxwv Nonexistent")
    assert (code, out) == (2, "") and err.startswith("error: --commander 'Zqxwv Nonexistent' is not a card")


async def test_fits_verdicts_and_exit_codes(fake, cli):
    code, out, err = await cli(fake.base_url, "fits", "Kitchen Finks", "--commander", "Kumano")
    assert code == 1, err
    assert out.startswith("\u274c Kitchen Finks does not fit\nYou typed: Kumano (Kumano, Master Yamabushi)\n")
    assert "Commander: Kumano, Master Yamabushi: {R} red" in out
    assert "Outside: white and green\n  {G/W} \u2014 mana cost: {1}{G/W}{G/W}\n" in out
    code, out, _ = await cli(
        fake.base_url, "fits", "Lightning Bolt", "--commander", "Kumano, Master Yamabushi"
    )
    assert code == 0 and out.startswith("\u2705 Lightning Bolt fits\n") and "You typed" not in out
    code, out, _ = await cli(fake.base_url, "fits", "Lightning Bolt", "--commander", "Clara Oswald")
    assert code == 1 and out.startswith("\U0001f3a8 Lightning Bolt fits if you choose red")
    code, out, _ = await cli(
        fake.base_url, "fits", "Lightning Bolt", "--commander", "Clara Oswald", "--color", "red"
    )
    assert code == 0 and out.startswith("\u2705 Lightning Bolt fits")


async def test_fits_bad_colors_exit_2(fake, cli):
    code, out, err = await cli(
        fake.base_url, "fits", "Sol Ring", "--commander", "Kumano", "--color", "purple"
    )
    assert (code, out) == (2, "") and err == (
        "error: 'purple' is not a color; use W, U, B, R, G or white, blue, black, red, green\n"
    )
    code, out, err = await cli(fake.base_url, "fits", "Sol Ring", "--commander", "Kumano", "--color", "R")
    assert (code, out) == (2, "") and err.startswith("error: --color is for a commander that chooses a color")
    code, _, err = await cli(
        fake.base_url, "fits", "Sol Ring", "--commander", "Kumano", "--partner-color", "u"
    )
    assert code == 2 and err.startswith("error: --partner-color is the color your partner chooses")


async def test_locale_words_the_explanation(fake, cli):
    code, out, err = await cli(fake.base_url, "identity", "Fires of Undeath", "--locale", "de")
    assert code == 0, err
    assert "Farbidentität" in out and "Color identity" not in out
    code, out, err = await cli(fake.base_url, "identity", "Blitzschlag", "--locale", "de")  # a German name
    assert code == 0 and out.startswith("Lightning Bolt\n") and "Blitzschlag" in out.splitlines()[1], err
    code, _, err = await cli(fake.base_url, "identity", "Zqxwv", "--locale", "fr")
    assert code == 2 and "n’est pas une carte que je connais" in err and err.startswith("error: ")
    code, _, err = await cli(fake.base_url, "identity", "Sol Ring", "--locale", "xx")
    assert code == 2 and "invalid choice" in err  # argparse's own refusal


async def test_help_lists_the_commands_and_exit_codes(fake, cli):
    code, out, _ = await cli(fake.base_url, "--help")
    assert code == 0 and all(c in out for c in ("identity", "fits", "check-deck", "sync-cards"))
    for command, lines in (
        ("identity", ("0  the card is explained", "2  bad input", "3  Scryfall is unreachable")),
        ("fits", ("0  the card fits", "1  it does not fit", "--partner-color COLOR", "--locale")),
    ):
        code, out, _ = await cli(fake.base_url, command, "--help")
        assert code == 0 and all(line in out for line in lines), out
    assert fake.requests == []


async def test_check_deck_refuses_a_misspelt_commander_and_takes_a_partial_one(fake, cli, clean_env):
    deck = clean_env / "deck.txt"
    deck.write_text("1 Lightning Bolt\n98 Mountain\n", encoding="utf-8")
    code, out, err = await cli(fake.base_url, "check-deck", str(deck), "--commander", "Kumamo")
    assert (code, out) == (2, "") and err.startswith("error: commander 'Kumamo' is not a card I know"), err
    # with the local card data, which resolves the slip to Kumano: refused all the same, Kumano suggested
    names = ["Kumano, Master Yamabushi", "Kumano's Pupils", "Lightning Bolt", "Mountain"]
    assert (await cli(fake.base_url, "sync-cards", "--file", subset_file(clean_env, names)))[0] == 0
    code, out, err = await cli(fake.base_url, "check-deck", str(deck), "--commander", "Kumamo")
    assert (code, out) == (2, ""), err
    assert err == "error: commander 'Kumamo' is not a card I know; did you mean Kumano, Master Yamabushi?\n"
    code, out, err = await cli(fake.base_url, "check-deck", str(deck), "--commander", "Kumano")
    assert code == 0 and out.startswith("Deck check for Kumano, Master Yamabushi (red)"), err
    code, out, err = await cli(
        fake.base_url, "check-deck", str(deck), "--commander", "Kumano", "--locale", "de"
    )
    assert code == 0 and "Deck check" not in out and "Kumano, Master Yamabushi" in out, err


@pytest.mark.slow
async def test_the_real_commands_as_a_new_user_types_them(fake, tmp_path):
    """Real processes, nothing configured but HOME: online the explanation; offline, after `sync-cards --file`
    of a few cards of the shared data, the same; the cache in the user's data directory."""
    home = tmp_path / "home"
    home.mkdir()
    env = bot_env(tmp_path, SCRYFALL_API_BASE=fake.base_url, HOME=str(home))
    for key in ("CACHE_PATH", "XDG_DATA_HOME"):
        env.pop(key)

    async def run(*args: str) -> tuple[int | None, str, str]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *args, cwd=tmp_path, env=env, stdout=-1, stderr=-1
        )
        out, err = await asyncio.wait_for(proc.communicate(), 120)
        return proc.returncode, out.decode("utf-8"), err.decode("utf-8")

    code, online, err = await run("identity", "Fires of Undeath")
    assert code == 0 and "Color identity: {B}{R} black and red" in online, err
    env["SCRYFALL_API_BASE"] = "http://127.0.0.1:9"
    code, out, err = await run(
        "sync-cards", "--file", subset_file(tmp_path, ["Fires of Undeath", "Sol Ring"])
    )
    cache = home / ".local" / "share" / "identity-bot" / "cache.sqlite3"
    assert code == 0 and f"into {cache}" in out, err
    assert await run("identity", "Fires of Undeath") == (0, online, "")


@pytest.mark.slow
async def test_run_waits_after_a_configuration_error_until_stopped(tmp_path):
    """`run --wait-on-config-error` (the Docker image's command) with an empty token: the error line, then
    it waits (a restart policy sees no exit) until SIGTERM, then exits 2."""
    env = bot_env(tmp_path, DISCORD_TOKEN="")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", "--wait-on-config-error", cwd=tmp_path, env=env, stderr=-1
    )
    assert proc.stderr is not None
    first = await asyncio.wait_for(proc.stderr.readline(), 60)
    second = await asyncio.wait_for(proc.stderr.readline(), 60)
    assert first.decode().startswith("error: DISCORD_TOKEN is not set")
    assert second.decode().startswith("waiting: the configuration is wrong")
    assert proc.returncode is None  # still there: nothing for a restart policy to restart
    proc.terminate()
    assert await asyncio.wait_for(proc.wait(), 30) == 2
    bad = bot_env(tmp_path, DISCORD_TOKEN="x", LOG_LEVEL="LOUD")  # an invalid setting waits too
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", "--wait-on-config-error", cwd=tmp_path, env=bad, stderr=-1
    )
    assert proc.stderr is not None
    first = await asyncio.wait_for(proc.stderr.readline(), 60)
    assert first.decode().startswith("error: invalid configuration: LOG_LEVEL")
    await asyncio.wait_for(proc.stderr.readline(), 60)
    proc.send_signal(signal.SIGINT)  # (Ctrl-C) ends the wait as well
    assert await asyncio.wait_for(proc.wait(), 30) == 2
