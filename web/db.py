"""The per-request store connection and the database commands."""
import sys

import click
from flask import current_app, g

from events import store


def get_db():
    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.conn.close()


@click.command("init-db")
def init_db_command() -> None:
    """Create or migrate the database (idempotent: never drops anything)."""
    store.migrate(get_db())
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


@click.command("verify-db")
def verify_db_command() -> None:
    """Check every game's hash chain; exit non-zero naming the first broken event."""
    db = get_db()
    bad = 0
    for game_id in store.game_ids(db):
        broken = store.verify_game(db, game_id)
        if broken:
            bad += 1
            click.echo(f"game {game_id}: event {broken[0]}: {broken[1]}", err=True)
    ok = db.execute("PRAGMA integrity_check").fetchone()[0]
    if ok != "ok":
        click.echo(f"integrity_check: {ok}", err=True)
        bad += 1
    click.echo(f"{len(store.game_ids(db))} games checked, {bad} problems")
    sys.exit(1 if bad else 0)


def init_app(app) -> None:
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    app.cli.add_command(verify_db_command)
    with app.app_context():
        store.migrate(get_db())
