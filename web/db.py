"""The per-request store connection; the schema is migrated when the app starts."""
import sys

from flask import current_app, g

from events import pg, store


BOOT_FAILED = 3  # gunicorn's "worker failed to boot": the server stops instead of retrying


def get_db():
    if "db" not in g:
        database = current_app.config["DATABASE"]
        g.db = pg.pooled(database) if pg.is_url(database) else store.connect(database)
    return g.db


def close_db(exc=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.conn.close()


def init_app(app) -> None:
    app.teardown_appcontext(close_db)
    try:
        store.prepare(app.config["DATABASE"])
    except pg.Unreachable as err:  # a message naming DATABASE_URL, not a traceback
        print(err, file=sys.stderr, flush=True)
        raise SystemExit(BOOT_FAILED) from None
