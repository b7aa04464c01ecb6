"""Every command-line command, in one place (``flask --app app <command>``):

- the database: ``init-db``, ``verify-db``, ``backup PATH``, ``restore PATH`` (SQLite),
  ``copy-db --to URL`` (into PostgreSQL: docs/scaling.md);
- a game: ``export GAME_ID``, ``hand-seat GAME_ID SEAT`` (the host's lost phone);
- the plays: ``rebuild-stats`` (the statistics' read model), ``export-plays FILE``;
- an exported file: ``replay FILE [--at N]``, ``verify FILE``.
"""
from __future__ import annotations

import json
import os
import sys
import time
from urllib.parse import urlsplit

import click
from flask import current_app
from flask.cli import with_appcontext

from events.application import backup, integrity, photos, seats
from events.application.export import BadExport, as_text, replay, verify
from events.storage import pg, store
from group import plays, roster
from services import transfer
from web import address, organiser
from web.bgstats import play_rows
from web.db import caches, get_db
from web.trust import signed
from web.views import hand_url


# ---- the database ---------------------------------------------------------------------

@click.command("init-db")
@with_appcontext  # `flask` and test runners alike
def init_db_command() -> None:
    """Create or migrate the database (idempotent: never drops anything); the app made this
    server's signing key in the instance folder if it had none (web/trust.py)."""
    store.prepare(current_app.config["DATABASE"])
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


@click.command("verify-db")
@with_appcontext
def verify_db_command() -> None:
    """Check every game's hash chain, its summary (last event and hash) and its photos'
    stored images, and the roster's; exit non-zero naming the first event that does not verify."""
    db = get_db()
    bad = 0
    for game_id in store.game_ids(db):
        broken = integrity.damage_in_game(db, game_id)
        if broken:
            bad += 1
            click.echo(f"game {game_id}: event {broken[0]}: {broken[1]}", err=True)
    roster_broken = integrity.guarded(lambda: roster.unverified_from(db, whole=True), lambda: roster.seqs(db),
                                      lambda seq: roster.read_log(db, after=seq - 1, upto=seq))
    if roster_broken:
        bad += 1
        click.echo(f"roster: change {roster_broken[0]}: {roster_broken[1]}", err=True)
    for sha, why in photos.bad_blobs(db):  # every stored image, even one no event names any more
        bad += 1
        click.echo(f"photo {sha}: {why}", err=True)
    ok = store.integrity_check(db)
    if ok != "ok":
        click.echo(f"integrity_check: {ok}", err=True)
        bad += 1
    click.echo(f"the roster's {roster.last_seq(db)} changes checked")
    click.echo(f"{len(store.game_ids(db))} games checked, {bad} problems")
    sys.exit(1 if bad else 0)


def _sqlite_only(instead: str) -> None:
    if pg.is_url(current_app.config["DATABASE"]):
        raise click.ClickException(f"this copies a SQLite file; on PostgreSQL use {instead} "
                                   "(docs/scaling.md)")


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
@with_appcontext
def backup_command(path: str) -> None:
    """Copy the live database to PATH while the server keeps running, then check the copy."""
    _sqlite_only("pg_dump")
    if os.path.exists(path):
        raise click.ClickException(f"{path} exists; choose a new file name")
    tmp = f"{path}.partial"
    for leftover in (tmp, tmp + "-wal", tmp + "-shm"):
        if os.path.exists(leftover):
            os.unlink(leftover)
    backup.copy(current_app.config["DATABASE"], tmp)
    games, problems = backup.check_copy(tmp)
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
@with_appcontext
def restore_command(path: str, yes: bool) -> None:
    """Replace the database with the backup at PATH (stop the server first)."""
    _sqlite_only("pg_restore")
    games, problems = backup.check_copy(path)
    if problems:
        click.echo("\n".join(problems), err=True)
        raise click.ClickException("the backup failed its checks; nothing was restored")
    target = current_app.config["DATABASE"]
    if not yes:
        click.confirm(f"Replace {target} with {path} ({games} games)?", abort=True)
    backup.copy(path, target)  # the backup API also rewrites the target's WAL correctly
    click.echo(f"Restored {games} games into {target}")
    sys.stdout.flush()


@click.command("copy-db")
@click.option("--to", "target", required=True, metavar="URL",
              help="The store to copy into, e.g. postgresql://user@host/tablescribe.")
@with_appcontext
def copy_db_command(target: str) -> None:
    """Copy every game, board profile and seat into the store at URL, verifying each
    game's chain as it arrives (docs/scaling.md). Running it again changes nothing."""
    source = current_app.config["DATABASE"]
    if target == source:
        raise click.ClickException("the target is the database this app uses")
    try:
        store.prepare(target)
        into = store.connect(target)
    except pg.Unreachable as err:
        raise click.ClickException(str(err)) from None
    try:
        report = transfer.copy_all(get_db(), into)
    finally:
        into.conn.close()
    shown = pg.redacted(target) if pg.is_url(target) else target
    click.echo(f"{len(report.copied)} games copied ({report.events} events), "
               f"{len(report.unchanged)} already there, {report.profiles} board profile versions "
               f"copied into {shown}; every copied chain verified")
    if report.problems:
        click.echo("\n".join(report.problems), err=True)
        sys.exit(1)


# ---- a game ---------------------------------------------------------------------------

@click.command("export")
@click.argument("game_id")
@with_appcontext
def export_command(game_id: str) -> None:
    """Write a game's export (docs/export-format.md) to standard output."""
    try:
        doc = signed(roster.export_with_links(get_db(), game_id))  # who sat where (docs/people.md)
    except LookupError:
        click.echo(f"no such game: {game_id}", err=True)
        sys.exit(1)
    click.echo(as_text(doc), nl=False)


def _served_at(command):
    """--host and --port: where the server phones open listens. Unless given (or HOST and
    PORT are set), where `make run` last served (instance/serving.json), else 0.0.0.0:5000."""
    command = click.option("--port", envvar="PORT", help="The port the server listens on "
                           "(default: `make run`'s last PORT, else 5000).")(command)
    return click.option("--host", envvar="HOST", help="The address the server listens on "
                        "(default: `make run`'s last HOST, else 0.0.0.0).")(command)


def _phone_base(host: str | None, port: str | None) -> str:
    served = address.last_served(current_app.instance_path)
    return address.server_url(host or served[0], str(port or served[1]))


@click.command("hand-seat")
@click.argument("game_id")
@click.argument("seat", type=int)
@_served_at
@with_appcontext
def hand_seat_command(game_id: str, seat: int, host: str | None, port: str | None) -> None:
    """Hand SEAT of GAME_ID to a new phone (e.g. the host's lost phone, seat 0): revoke the
    seat's tokens and print a one-time link for the new phone, on the address phones open
    (PUBLIC_URL, else this machine's LAN address: web/address.py)."""
    db = get_db()
    row = store.game_row(db, game_id)
    if row is None:
        raise click.ClickException(f"no game {game_id}")
    if not 0 <= seat < len(json.loads(row["players"])):
        raise click.ClickException(f"game {game_id} has no seat {seat}")
    code = seats.hand_over(db, game_id, seat)
    base = _phone_base(host, port)
    with current_app.test_request_context(base_url=base):  # the link as the pages build it
        click.echo(hand_url(game_id, code))
    if address.is_loopback(urlsplit(base).hostname or ""):
        click.echo(f"Phones cannot open {urlsplit(base).hostname}: it is each phone itself. Run the server "
                   "on every interface (`make run`, HOST=0.0.0.0) or set the address phones reach, "
                   "e.g. PUBLIC_URL=http://192.168.1.20:5000 (README).", err=True)


@click.command("organiser-link")
@click.option("--until-opened", is_flag=True,
              help="Print nothing once a phone has opened it (as `make run` does at every start).")
@_served_at
@with_appcontext
def organiser_link_command(until_opened: bool, host: str | None, port: str | None) -> None:
    """Print the organiser's link (docs/people.md §10): the phone that opens it may change
    the roster and import BG Stats files. Keep it to yourself."""
    if not (until_opened and organiser.was_opened()):
        print_organiser_link(host, port, organiser.link)


@click.command("new-organiser-link")
@_served_at
@with_appcontext
def new_organiser_link_command(host: str | None, port: str | None) -> None:
    """Make a new organiser's link and print it (docs/people.md §10): the old link, and the
    organiser's cookie on every phone that opened it, stop working at once, on every
    server of this database; seats, games and forms are untouched."""
    organiser.renew(get_db())
    print_organiser_link(host, port, organiser.link)
    click.echo("The old organiser's link no longer works; open this one on the organiser's phone.")


def print_organiser_link(host: str | None, port: str | None, link) -> None:
    with current_app.test_request_context(base_url=_phone_base(host, port)):
        click.echo(f"\nThe organiser's link (open it on the organiser's phone only; "
                   f"`flask --app app organiser-link` prints it again):\n{link()}\n")


@click.command("rebuild-stats")
@with_appcontext
def rebuild_stats_command() -> None:
    """Write the statistics' read model again from the games' and the roster's logs."""
    started = time.perf_counter()
    count, left_out = plays.rebuild_checked(get_db(), caches().plays)
    click.echo(f"statistics rebuilt from {count} finished plays in {time.perf_counter() - started:.1f} s")
    for game_id, (seq, why) in left_out.items():
        click.echo(f"game {game_id} left out: its record does not verify from event {seq} ({why})", err=True)
    if left_out:
        click.echo(f"{len(left_out)} games left out of the statistics; `flask --app app verify-db` names "
                   "every problem", err=True)
        sys.exit(1)


@click.command("export-plays")
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def export_plays_command(path: str) -> None:
    """Write every finished play (one row per person, as /plays.csv) to FILE as JSON."""
    categories, rows = play_rows(get_db())
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"format": "tablescribe-plays", "format_version": 1, "categories": categories,
                   "plays": rows}, f, ensure_ascii=False, indent=1)
    click.echo(f"{len(rows)} rows written to {path}")


# ---- an exported file -----------------------------------------------------------------

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
@with_appcontext
def replay_command(path: str, at: int | None) -> None:
    """Verify an exported game and print its standings (after event N) as JSON."""
    try:
        result = replay(_read(path), at)
    except BadExport as err:
        _refuse(err)
    click.echo(json.dumps(result, ensure_ascii=False, indent=2))


@click.command("verify")
@click.argument("path", metavar="FILE")
@with_appcontext
def verify_command(path: str) -> None:
    """Check an exported game's hash chain and re-check every event by its rules."""
    try:
        events = verify(_read(path))
    except BadExport as err:
        _refuse(err)
    shown = len(photos.attached(events))
    click.echo(f"ok: {len(events)} events, chain intact, every event passes its rules"
               + (f", {shown} photos match their digests" if shown else ""))


COMMANDS = (init_db_command, verify_db_command, backup_command, restore_command, copy_db_command,
            export_command, hand_seat_command, organiser_link_command, new_organiser_link_command, rebuild_stats_command, export_plays_command,
            replay_command, verify_command)


def init_app(app) -> None:
    for command in COMMANDS:
        app.cli.add_command(command)
