"""Operator commands: an online backup and its restore (docs/reliability.md §6), and
handing a seat to a new phone when the host's own phone is lost (§5)."""
from __future__ import annotations

import os
import sqlite3
import sys

import click
from flask import current_app

from events import store


def _check_copy(path: str) -> tuple[int, list[str]]:
    """(games, problems) of a database file: integrity_check and every hash chain."""
    db = store.connect(path)
    try:
        problems = []
        ok = db.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            problems.append(f"integrity_check: {ok}")
        games = store.game_ids(db)
        for game_id in games:
            broken = store.verify_game(db, game_id)
            if broken:
                problems.append(f"game {game_id}: event {broken[0]}: {broken[1]}")
        return len(games), problems
    finally:
        db.conn.close()


def _copy(source_path: str, target_path: str) -> None:
    """SQLite's online backup API in one step: a consistent snapshot of the source as
    of one read transaction (WAL readers never block the phones' writes)."""
    source = sqlite3.connect(source_path, timeout=30)
    target = sqlite3.connect(target_path, timeout=30)
    try:
        source.execute("PRAGMA busy_timeout=30000")
        source.backup(target)
        target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        target.close()
        source.close()


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
def backup_command(path: str) -> None:
    """Copy the live database to PATH while the server keeps running, then check the copy."""
    if os.path.exists(path):
        raise click.ClickException(f"{path} exists; choose a new file name")
    tmp = f"{path}.partial"
    for leftover in (tmp, tmp + "-wal", tmp + "-shm"):
        if os.path.exists(leftover):
            os.unlink(leftover)
    _copy(current_app.config["DATABASE"], tmp)
    games, problems = _check_copy(tmp)
    if problems:
        click.echo("\n".join(problems), err=True)
        raise click.ClickException("the copy failed its checks; nothing was written")
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.rename(tmp, path)  # the backup appears whole or not at all
    click.echo(f"Backed up {games} games to {path}")


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--yes", is_flag=True, help="Replace the current database without asking.")
def restore_command(path: str, yes: bool) -> None:
    """Replace the database with the backup at PATH (stop the server first)."""
    games, problems = _check_copy(path)
    if problems:
        click.echo("\n".join(problems), err=True)
        raise click.ClickException("the backup failed its checks; nothing was restored")
    target = current_app.config["DATABASE"]
    if not yes:
        click.confirm(f"Replace {target} with {path} ({games} games)?", abort=True)
    _copy(path, target)  # the backup API also rewrites the target's WAL correctly
    click.echo(f"Restored {games} games into {target}")
    sys.stdout.flush()


@click.command("hand-seat")
@click.argument("game_id")
@click.argument("seat", type=int)
def hand_seat_command(game_id: str, seat: int) -> None:
    """Hand SEAT of GAME_ID to a new phone (e.g. the host's lost phone, seat 0): revoke the
    seat's tokens and print a one-time link for the new phone."""
    import json

    from events import seats
    from web.db import get_db
    db = get_db()
    row = store.game_row(db, game_id)
    if row is None:
        raise click.ClickException(f"no game {game_id}")
    if not 0 <= seat < len(json.loads(row["players"])):
        raise click.ClickException(f"game {game_id} has no seat {seat}")
    code = seats.hand_over(db, game_id, seat)
    base = os.environ.get("PUBLIC_URL") or current_app.config.get("PUBLIC_URL") or ""
    click.echo(f"{base.rstrip('/')}/games/{game_id}/hand/{code}")


def init_app(app) -> None:
    for command in (backup_command, restore_command, hand_seat_command):
        app.cli.add_command(command)
