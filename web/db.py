"""The per-request store connection (PostgreSQL's from its pool, SQLite's kept open between
requests), and the caches the app owns: the schema is migrated and the caches made when the
app starts (``init_app``). Every cache of the
app lives in ``app.extensions["tablescribe"]`` (``Caches``), none in a module: an app
made for a test starts empty, and two apps in one process share nothing."""
import sys
from dataclasses import dataclass, field

from flask import current_app, g

from events.application.integrity import Verified
from events.application.states import BUDGET, States
from events.storage import pg, store
from events.storage.group_commit import Committer
from events.storage.snapshots import Snapshots
from group.plays import Plays
from group.roster import Rosters
from web.links import Links, use_in_templates
from web.partial import Seen
from web.rendered import Rendered


@dataclass
class Caches:
    """What a server process keeps between requests, all derived from the store."""
    states: States = field(default_factory=States)        # folded states and history rows
    verified: Verified = field(default_factory=Verified)  # each game's verified prefix
    rendered: Rendered = field(default_factory=Rendered)  # live regions, once per move and view
    seen: Seen = field(default_factory=Seen)              # each view's last table, region by region
    roster: Rosters = field(default_factory=Rosters)      # the roster, folded
    plays: Plays = field(default_factory=Plays)           # the statistics' plays with their people
    links: Links = field(default_factory=Links)  # the templates' links, built once

    def forget(self) -> None:
        for cache in vars(self).values():
            cache.forget()


def caches() -> Caches:
    return current_app.extensions["tablescribe"]


def get_states() -> States:
    return caches().states


BOOT_FAILED = 3  # gunicorn's "worker failed to boot": the server stops instead of retrying


def get_db():
    if "db" not in g:
        database = current_app.config["DATABASE"]
        g.db = current_app.extensions["pg_pools"].pooled(database) if pg.is_url(database) \
            else current_app.extensions["sqlite_idle"].take(database)
        g.db.on_recorded = current_app.extensions["on_recorded"]  # app.py:on_recorded
        g.db.committer = current_app.extensions["committer"]  # group commit (events/storage/group_commit.py)
        if current_app.extensions.get("trace_statements"):  # a test counting a page's reads
            store.trace(g.db, current_app.extensions["trace_statements"])
    return g.db


def close_db(exc=None) -> None:
    """The request's connection back to its pool: PostgreSQL's (``close`` gives it back),
    or the process's idle SQLite connections — unless the request failed (``exc``), when a
    cursor its traceback still holds could keep the connection on an old snapshot."""
    db = g.pop("db", None)
    if db is None:
        return
    if store.is_postgres(db) or exc is not None:
        db.conn.close()
    else:
        current_app.extensions["sqlite_idle"].give(db, current_app.config["DATABASE"])


def init_app(app) -> None:
    # the states' snapshots in the store, signed with the app's key (events/storage/snapshots.py)
    stored = Snapshots(app.config["SECRET_KEY"]) if app.config.get("STATE_SNAPSHOTS", True) else None
    app.extensions["tablescribe"] = Caches(States(app.config.get("STATES_BUDGET", BUDGET), stored))
    use_in_templates(app, app.extensions["tablescribe"].links)
    # appends waiting together commit together, on SQLite, the workers taking turns
    app.extensions["committer"] = Committer(store.turns_file(app.config["DATABASE"]))
    app.extensions["pg_pools"] = pg.Pools()  # PostgreSQL's connections, per process (events/storage/pg.py)
    app.extensions["sqlite_idle"] = store.Idle()  # SQLite's, kept open between requests
    app.teardown_appcontext(close_db)
    try:
        store.prepare(app.config["DATABASE"])
    except pg.Unreachable as err:  # a message naming DATABASE_URL, not a traceback
        print(err, file=sys.stderr, flush=True)
        raise SystemExit(BOOT_FAILED) from None
