"""`python -m bot house export [FILE] [--db PATH]` and `python -m bot house import FILE [--db PATH]`: the house
rules of every server as JSON (`bot.house.backup`), to stdout or a file written whole (a temporary file
renamed over it). A running bot sees an import at its next command."""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.house.backup import HouseFileError, export_rules, import_rules
from bot.settings import Settings

EXIT_OK, EXIT_ERROR = 0, 1


def add_parser(commands: Any) -> None:
    """The `house` command, on `commands` (the subparsers of `python -m bot`)."""
    house = commands.add_parser(
        "house",
        help="back up or restore the servers' house rules (/house) as JSON",
        description="Export every server's house rules (/house ban, /house bracket) to JSON, or import "
        "such a file. An import replaces the rules of the servers it lists, all or nothing.",
    )
    house.set_defaults(handler=run)
    actions = house.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = actions.add_parser("export", help="write the house rules as JSON (to stdout without FILE)")
    export.add_argument("file", nargs="?", type=Path, help="the JSON file to write (- for stdout)")
    importing = actions.add_parser("import", help="read house rules from a JSON export")
    importing.add_argument("file", type=Path, help="the JSON file to read (- for stdin)")
    for action in (export, importing):
        action.add_argument("--db", type=Path, help="the cache file holding the rules (default: CACHE_PATH)")


def _write_whole(path: Path, text: str) -> None:
    """Write `text` to `path` so that it holds the old or the new content, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace, settings: Settings) -> int:
    db: Path = args.db or settings.cache_path
    try:
        if args.action == "export":
            text = json.dumps(export_rules(db), ensure_ascii=False, indent=2) + "\n"
            if str(args.file or "-") == "-":
                sys.stdout.write(text)
            else:
                _write_whole(args.file, text)
                print(f"exported the house rules of {db} to {args.file}", file=sys.stderr)
            return EXIT_OK
        raw = sys.stdin.read() if str(args.file) == "-" else args.file.read_text(encoding="utf-8")
        servers = import_rules(db, json.loads(raw))
    except (OSError, sqlite3.Error, ValueError) as exc:  # HouseFileError and bad JSON are ValueErrors
        what = f"not valid JSON ({exc})" if isinstance(exc, json.JSONDecodeError) else exc
        kind = "house rules file" if isinstance(exc, HouseFileError | json.JSONDecodeError) else "house rules"
        print(f"error: house {args.action} failed ({kind}): {what}; nothing was changed", file=sys.stderr)
        return EXIT_ERROR
    bans = sum(r.ban_count for r in servers.values())
    print(f"imported the house rules of {len(servers)} server(s), {bans} ban(s), into {db}", file=sys.stderr)
    return EXIT_OK
