"""Polls that find nothing new, answered before Flask.

A phone that cannot hold the table's event stream (web/stream.py: over the server's
limit, or a network that cuts it) polls its live region instead (``/live`` every 1.5 s),
and almost every poll finds the game where it was: the
route answers 204 when ``?seq=`` equals the game's last sequence number. That
answer needs one indexed SQLite read, yet going through Flask (request context,
session, a new SQLite connection, hooks) cost ~3 ms of CPU per poll, which is what
limited a hall of phones (docs/performance.md). This WSGI middleware gives the
same 204 with one read on a connection kept per thread (per greenlet under gevent
workers), and hands everything else,
including every poll that has something new, to the app unchanged.
"""
from __future__ import annotations

import re
import threading
from urllib.parse import parse_qs

from events.storage import pg, store
from web.security import SECURITY_HEADERS

# The routes whose answer is "204 while ?seq= is the game's last sequence number":
# web/pages.py live().
POLLED = re.compile(r"^/games/([^/]+)/live$")
HEADERS = [("Content-Type", "text/html; charset=utf-8"), *SECURITY_HEADERS]


class UnchangedPolls:
    def __init__(self, wsgi_app, database: str, pools: pg.Pools):
        self.wsgi_app = wsgi_app
        self.database = database
        self.pools = pools
        self.local = threading.local()

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET":
            match = POLLED.match(environ.get("PATH_INFO", ""))
            if match:
                seen = _seq(environ.get("QUERY_STRING", ""))
                if seen is not None and seen > 0 and seen == self._last_seq(match.group(1)):
                    start_response("204 NO CONTENT", list(HEADERS))
                    return []
        return self.wsgi_app(environ, start_response)

    def _last_seq(self, game_id: str) -> int:
        if pg.is_url(self.database):  # a pooled connection, given back at once
            try:
                db = self.pools.pooled(self.database)
            except pg.Unreachable:
                return -1  # not known: Flask answers (its 503)
            try:
                return store.last_seq(db, game_id)
            finally:
                db.conn.close()
        db = getattr(self.local, "db", None)
        if db is None:
            db = self.local.db = store.connect(self.database)
        return store.last_seq(db, game_id)


def _seq(query: str) -> int | None:
    """``?seq=`` as the routes read it (``request.args.get("seq", type=int)``)."""
    values = parse_qs(query, keep_blank_values=True).get("seq")
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None


def init_app(app) -> None:
    app.wsgi_app = UnchangedPolls(app.wsgi_app, app.config["DATABASE"], app.extensions["pg_pools"])
