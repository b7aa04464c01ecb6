"""Command-line audit: `flask --app app replay FILE [--at N]`, `verify FILE`,
`export GAME_ID` (`verify-db` lives with the database in web/db.py)."""
from __future__ import annotations

import json
import sys

import click

from events.export import BadExport, export_game, replay, verify
from web.db import get_db


def _read(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError, RecursionError) as err:  # unreadable, bad UTF-8 or JSON, huge numbers
        raise BadExport(0, f"cannot read {path}: {err}") from None


def _refuse(err: BadExport):
    click.echo(f"refused: {err}", err=True)
    sys.exit(1)


@click.command("replay")
@click.argument("path", metavar="FILE")
@click.option("--at", type=int, default=None, help="Stop after this event number.")
def replay_command(path: str, at: int | None) -> None:
    """Verify an exported game and print its standings (after event N) as JSON."""
    try:
        result = replay(_read(path), at)
    except BadExport as err:
        _refuse(err)
    click.echo(json.dumps(result, ensure_ascii=False, indent=2))


@click.command("verify")
@click.argument("path", metavar="FILE")
def verify_command(path: str) -> None:
    """Check an exported game's hash chain and re-check every event by its rules."""
    try:
        events = verify(_read(path))
    except BadExport as err:
        _refuse(err)
    click.echo(f"ok: {len(events)} events, chain intact, every event passes its rules")


@click.command("export")
@click.argument("game_id")
def export_command(game_id: str) -> None:
    """Write a game's export (docs/export-format.md) to standard output."""
    try:
        doc = export_game(get_db(), game_id)
    except LookupError:
        click.echo(f"no such game: {game_id}", err=True)
        sys.exit(1)
    click.echo(json.dumps(doc, ensure_ascii=False, indent=1))


def init_app(app) -> None:
    for command in (replay_command, verify_command, export_command):
        app.cli.add_command(command)
