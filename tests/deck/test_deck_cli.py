"""`python -m bot check-deck` against the fake Scryfall: exit codes, reports and request counts. The command
runs in this process (`bot.__main__.main`); one test starts the real process."""

from __future__ import annotations

import asyncio
import io
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.cli import main
from tests.app.test_app import bot_env
from tests.fakes.budget import FastForwardBudget
from tests.fakes.scryfall import FakeScryfall
from tests.shared_data import all_cards

DECKS = Path(__file__).parents[1] / "data" / "decks"
KUMANO_DECK = (DECKS / "kumano-moxfield.txt").read_text(encoding="utf-8")
DOWN_TIMEOUT = "0.05"  # seconds: SCRYFALL_TIMEOUT while the fake Scryfall answers every request with 500


pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def scryfall() -> AsyncIterator[FakeScryfall]:
    """One fake Scryfall for the module: the shared data and The Prismatic Piper (printed after it)."""
    from tests.deck.test_deck_check import PIPER

    async with FakeScryfall([*all_cards(), PIPER]) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module")
async def fake(scryfall: FakeScryfall) -> AsyncIterator[FakeScryfall]:
    scryfall.reset()
    yield scryfall
    scryfall.reset()


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """`python -m bot check-deck ARGS` run in this process (in a thread: it runs its own event loop) with
    the settings in the environment, as a shell would: (exit code, stdout, stderr)."""

    async def run(
        fake: FakeScryfall,
        tmp_path: Path,
        *args: str,
        stdin: bytes | None = None,
        cache: str = "cache.sqlite3",
    ) -> tuple[int, str, str]:
        # Scryfall down: SCRYFALL_TIMEOUT bounds each lookup with its retries, so a short one ends the
        # backoff at once (the client's retry timing is tests/cards' business, not the command's)
        timeout = DOWN_TIMEOUT if fake.mode == "down" else "3"
        for key in list(os.environ):
            if key.startswith(("DISCORD_", "SCRYFALL_", "CACHE_", "BULK_", "DEV_GUILD", "SYNC_COMMANDS")):
                monkeypatch.delenv(key)
        for key, value in {
            "SCRYFALL_API_BASE": fake.base_url,
            "CACHE_PATH": str(tmp_path / cache),
            "BULK_REFRESH_HOURS": "0",
            "SCRYFALL_TIMEOUT": timeout,
        }.items():
            monkeypatch.setenv(key, value)
        monkeypatch.chdir(tmp_path)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin or b"")))
        capsys.readouterr()

        def command() -> int:
            try:
                return main(["check-deck", *args], budget=FastForwardBudget())
            except SystemExit as exit_:  # argparse: --help, bad options
                return exit_.code if isinstance(exit_.code, int) else 1

        code = await asyncio.wait_for(asyncio.to_thread(command), timeout=60)
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.mark.slow
async def test_the_real_command_reads_stdin_and_exits_with_the_report_code(fake, tmp_path):
    """One real `python -m bot check-deck -` process: the entry point, stdin bytes, stdout and the exit code."""
    text = KUMANO_DECK.replace("1 Shock (M20) 8\n", "1 Dismember\n").encode("utf-8")
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "check-deck",
        "-",
        cwd=tmp_path,
        env=bot_env(tmp_path, SCRYFALL_API_BASE=fake.base_url, BULK_REFRESH_HOURS="0", SCRYFALL_TIMEOUT="10"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(text), 60)
    assert proc.returncode == 1, err.decode()
    report = out.decode("utf-8")
    assert "Deck check for Kumano, Master Yamabushi (red)" in report and "NOT LEGAL" in report
    assert "Dismember (line" in report and "{B/P}" in report
    assert err.decode() == ""


def write(tmp_path: Path, text: str | bytes, name: str = "deck.txt") -> str:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return str(path)


async def test_legal_deck_exit_0_in_two_requests_then_zero_when_warm(fake, tmp_path, run_cli):
    path = write(tmp_path, KUMANO_DECK.replace("\n", "\r\n"))
    code, out, err = await run_cli(fake, tmp_path, path, "--commander", "kumano, master yamabushi")
    assert code == 0, (out, err)
    assert "Deck check for Kumano, Master Yamabushi (red)" in out
    assert "LEGAL." in out and "Cards: 100" in out
    # 77 distinct names: two /cards/collection batches (75 + 2), nothing else
    assert [(r.method, r.path) for r in fake.requests] == [("POST", "/cards/collection")] * 2
    assert sorted(len(r.json["identifiers"]) for r in fake.requests) == [3, 75]
    fake.requests.clear()
    code, out2, _ = await run_cli(fake, tmp_path, path, "--commander", "Kumano, Master Yamabushi")
    assert code == 0 and out2 == out
    assert fake.requests == []  # warm: the cache answers every name


async def test_problems_exit_1_same_report(fake, tmp_path, run_cli):
    text = KUMANO_DECK.replace("1 Shock (M20) 8\n", "1 Dismember\n1 Sol Ring\n")
    code, out, err = await run_cli(
        fake, tmp_path, write(tmp_path, text), "--commander", "Kumano, Master Yamabushi"
    )
    assert code == 1, err
    assert "NOT LEGAL" in out
    assert "Dismember (line" in out and "{B/P}" in out
    assert "Sol Ring: 2 copies" in out
    assert "101 cards" in out


async def test_unknown_card_costs_one_fuzzy_retry(fake, tmp_path, run_cli):
    text = KUMANO_DECK.replace("1 Shock (M20) 8\n", "1 Qwxzzy Frobnicator\n")
    code, out, _ = await run_cli(fake, tmp_path, write(tmp_path, text), "--commander", "Kumano")
    assert code == 1
    assert "no card named 'Qwxzzy Frobnicator'" in out
    paths = [r.path for r in fake.requests]
    assert paths.count("/cards/collection") == 2
    assert paths.count("/cards/named") == 1  # the one fuzzy retry for the name the collection missed


async def test_partner_and_stdin(fake, tmp_path, run_cli):
    text = (DECKS / "partners-tappedout.txt").read_bytes()
    code, out, err = await run_cli(
        fake, tmp_path, "-", "--commander", "Thrasios", "--partner", "Tymna", stdin=text
    )
    assert code == 1, err
    assert "Thrasios, Triton Hero + Tymna the Weaver" in out
    assert "  - Fire // Ice (line " in out and "): red\n      {R} \u2014 Fire, mana cost: {1}{R}\n" in out
    assert "Tropical Island" not in out  # green-blue land in a WUBG deck: fine


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "cannot read"),
        ("too-long", "limit is 300"),
        ("binary", "not a text decklist"),
        ("unknown-commander", "commander 'Zqxwv Nonexistent'"),
    ],
)
async def test_bad_input_exit_2(fake, tmp_path, setup, message, run_cli):
    commander = "Kumano"
    if setup == "missing":
        path = str(tmp_path / "nope.txt")
    elif setup == "too-long":
        path = write(tmp_path, "\n".join(f"1 Card {i}" for i in range(400)))
    elif setup == "binary":
        path = write(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "deck.png")
    else:
        path = write(tmp_path, "1 Sol Ring\n")
        commander = "Zqxwv Nonexistent"
    code, out, err = await run_cli(fake, tmp_path, path, "--commander", commander)
    assert code == 2, (out, err)
    assert message in err
    assert out == ""
    if setup != "unknown-commander":
        assert fake.requests == []


async def test_missing_commander_option_is_exit_2(fake, tmp_path, run_cli):
    code, _, err = await run_cli(fake, tmp_path, write(tmp_path, "1 Sol Ring\n"))
    assert code == 2 and "--commander" in err


async def test_scryfall_down_exit_3(fake, tmp_path, run_cli):
    fake.mode = "down"
    code, out, err = await run_cli(fake, tmp_path, write(tmp_path, KUMANO_DECK), "--commander", "Kumano")
    assert code == 3, (out, err)
    assert "Scryfall" in err and out == ""


async def test_help_describes_every_option(fake, tmp_path, run_cli):
    code, out, _ = await run_cli(fake, tmp_path, "--help")
    assert code == 0
    flat = " ".join(out.split())
    for option in ("file", "--commander NAME", "--partner NAME", "--color COLOR"):
        assert option in out
    assert "Optional when the list marks its commander(s)" in flat and "CR 903.4b" in flat
    assert "Repeat once per such commander" in flat
    assert "exit codes:" in out
    for code_line in (
        "0  the deck is legal",
        "1  problems found",
        "2  bad input",
        "3  some names could not be",
    ):
        assert code_line in out
    assert fake.requests == []


async def test_commander_taken_from_the_list_and_one_line_file(fake, tmp_path, run_cli):
    code, out, err = await run_cli(fake, tmp_path, write(tmp_path, KUMANO_DECK))
    assert code == 0, (out, err)
    assert "Deck check for Kumano, Master Yamabushi (red)" in out
    assert "Commander taken from the list: Kumano, Master Yamabushi" in out
    one_line = " ".join(KUMANO_DECK.split("\n"))
    code, out2, err = await run_cli(fake, tmp_path, write(tmp_path, one_line, "one-line.txt"))
    assert code == 0, (out2, err)
    assert "LEGAL." in out2 and "Cards: 100" in out2 and "pasted on one line" in out2


def _warm_then_down(fake: FakeScryfall) -> None:
    fake.requests.clear()
    fake.mode = "down"


async def test_unreachable_names_exit_3_with_the_report_and_1_when_problems_were_found(
    fake, tmp_path, run_cli
):
    # the first run (Scryfall up) caches every name of the deck
    path = write(tmp_path, KUMANO_DECK)
    code, _, _ = await run_cli(fake, tmp_path, path)
    assert code == 0
    _warm_then_down(fake)
    # two names the cache has never seen: they can't be checked, nothing else is wrong -> 3, report on stdout
    text = KUMANO_DECK.replace("1 Shock (M20) 8\n", "1 Fiery Temper\n").replace(
        "1x Sword of Fire and Ice\n", "1 Rolling Earthquake\n"
    )
    code, out, err = await run_cli(fake, tmp_path, write(tmp_path, text, "new.txt"))
    assert code == 3, (out, err)
    assert "NOT FULLY CHECKED. 2 cards could not be checked; nothing else is wrong" in out
    assert "Couldn't check (2)" in out
    assert "Fiery Temper (line" in out and "Rolling Earthquake (line" in out
    assert "warning: 2 names could not be checked" in err
    # a real problem among the names that could be checked wins: 1
    text = text.replace("1 Fire Diamond\n", "1 Sol Ring\n")
    code, out, err = await run_cli(fake, tmp_path, write(tmp_path, text, "dupe.txt"))
    assert code == 1, (out, err)
    assert "NOT LEGAL." in out and "Sol Ring: 2 copies" in out and "Couldn't check (2)" in out


async def test_mistyped_commander_with_scryfall_down_is_exit_2_with_local_suggestions(
    fake, tmp_path, run_cli
):
    import json
    import time

    from bot.cards.bulk import import_file
    from tests.shared_data import card

    subset = [card(n) for n in ("Kumano, Master Yamabushi", "Kumano's Pupils", "Sol Ring", "Mountain")]
    (tmp_path / "cards.json").write_text(json.dumps(subset), encoding="utf-8")
    import_file(tmp_path / "cards.json", tmp_path / "cache.sqlite3", updated_at=time.time())
    fake.mode = "down"
    code, out, err = await run_cli(
        fake, tmp_path, write(tmp_path, "1 Sol Ring\n98 Mountain\n"), "--commander", "Kumamo Yamabashi"
    )
    assert code == 2, (out, err)
    assert "commander 'Kumamo Yamabashi' is not a card I know; did you mean Kumano, Master Yamabushi?" in err
    assert out == ""


PIPER_DECK = "Commander\n1 The Prismatic Piper\nDeck\n1 Counterspell\n1 Sol Ring\n97 Wastes\n"


@pytest.mark.parametrize(
    ("colors", "code", "expected"),
    [
        (["--color", "blue"], 0, "The Prismatic Piper: chosen color blue (CR 903.4b)"),
        ([], 1, "Counterspell (line 4)"),
        (["--color", "purple"], 2, "'purple' is not a color"),
        (["--color", "u", "--color", "r"], 2, "2 chosen colors were given, but only 1"),
    ],
)
async def test_color_option(fake, tmp_path, colors, code, expected, run_cli):
    got, out, err = await run_cli(fake, tmp_path, write(tmp_path, PIPER_DECK), *colors)
    assert got == code, (out, err)
    assert expected in (out if code < 2 else err)
