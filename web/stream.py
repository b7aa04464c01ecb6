"""``GET /games/<id>/stream``: the table's live region pushed as server-sent events.

Each message is exactly what a poll of ``/live`` returns after a change (the live
region, and out of band the log and the form's ``expected_seq``), named ``live`` and
carrying the game's sequence number as its id. To a page that takes them (``?regions=1``)
the message after the one it was sent last, when a move of the game, is the regions that move
changed, named ``regions`` (web/partial.py); the page applies them only if it shows the table
they build on, else it fetches the whole region (static/live.js). A phone that reconnects sends the
last id it saw (``Last-Event-ID``, or ``?seq=`` from the page it loaded): if the game
moved on meanwhile, it gets the current region at once (the region is the whole
state, so "what it missed" is the fresh region); an id that is not a number or lies
beyond the end gets the same full refresh. Past the configured number of streams
(``MAX_STREAMS`` for the whole server, counted across its workers) the answer is 503,
and the page keeps polling ``/live`` (static/live.js).
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Callable

from flask import Blueprint, Response, abort, current_app, request

from events.application import seats
from events.application.states import UnknownGame
from events.domain.projection import TableState
from events.storage import store
from web import db as web_db
from web import views
from web.address import is_loopback
from web.seating import seat_cookie
from web.security import device_id

bp = Blueprint("stream", __name__)

KEEPALIVE = 15.0        # seconds: a comment line that finds dead connections and idle proxies
LIFETIME = 30 * 60.0    # seconds: a stream then ends and the phone reconnects (spreads load after restarts)
RETRY_MS = 2000         # the browser's reconnection delay after a stream ends
LOOK_EVERY = 4          # keep-alives between looks at the game when nothing woke the stream:
                        # a safety net only, every move wakes its streams (events/runtime/live.py)
MAX_STREAMS = 2000


def _seen() -> int | None:
    """The last sequence number this phone has: Last-Event-ID, else ?seq=; None if neither
    is a usable number (then the phone gets a full refresh)."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("seq") or ""
    raw = raw.strip()
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        return None
    return int(raw)


def message(seq: int, kind: str, html: str) -> str:
    """One SSE message, named by its kind ("live", "regions"): every line of the fragment as a
    data line."""
    data = "".join(f"data: {line}\n" for line in html.splitlines())
    return f"id: {seq}\nevent: {kind}\n{data}\n"


def _fresh(app, environ: dict, game_id: str, sent: int | None, woken: bool) -> tuple[int, str, str] | None:
    """The game's sequence number and its message (web/views.py ``render_live``: the move's
    regions alone after ``sent`` to a page that takes them, else the live region) when it
    moved past ``sent``, else None.
    Each look runs in a request context of its own, made from the stream request's
    environ (cookies: seat, language, session): nothing is held between messages, no
    context and no database connection (given back when the context ends). A stream
    ``woken`` by a move shares its read of the game and its seats with every stream
    the move woke in this process (events/runtime/live.py ``Hub.look``) and the region with
    every phone of its view (web/rendered.py); a stream opening, or looking once a
    minute in case a wake went astray, reads for itself."""
    hub = app.extensions["live"]
    if woken and sent is not None and hub.newest(game_id) == sent:
        return None  # woken again for a move it sent: nothing to read
    with app.request_context(environ):
        if woken:
            table, seat_of = hub.look(game_id, lambda: _read(game_id))
        elif store.last_seq(web_db.get_db(), game_id) == sent:
            return None
        else:
            table, seat_of = _read(game_id)
        if table.seq == sent:
            return None
        shown = sent if request.args.get(views.REGIONS) else None  # the page checks it shows ``sent``
        return table.seq, *views.render_live(game_id, table, seat_of(request.cookies.get(seat_cookie(game_id))), shown)


def _read(game_id: str) -> tuple[TableState, Callable[[str | None], int | None]]:
    """The table as it stands and the seat each phone's token opens."""
    db = web_db.get_db()
    return web_db.get_states().load(db, game_id), seats.seats_by_token(db, game_id)


# One phone (its device cookie) and one address may hold only so many streams, so that one
# of them cannot take every live connection (docs/architecture.md "The limit"). Counted per
# server process; many phones may share an address behind a NAT or a proxy, hence its room.
STREAMS_PER_PHONE = 6
STREAMS_PER_ADDRESS = 250
class HeldStreams:
    """The streams each phone and each address holds open in this server (its app owns
    one: ``app.extensions["held_streams"]``, so two apps in one process count apart)."""

    def __init__(self):
        self.held: Counter = Counter()  # ("phone", device) / ("address", ip) -> open streams
        self.lock = threading.Lock()

    def reserve(self, keys: list[tuple[str, str]], limits: dict[str, int]) -> bool:
        """Count one stream for each key, unless one of them is at its limit."""
        with self.lock:
            if any(self.held[key] >= limits[key[0]] for key in keys):
                return False
            for key in keys:
                self.held[key] += 1
            return True

    def release(self, keys: list[tuple[str, str]]) -> None:
        with self.lock:
            for key in keys:
                self.held[key] -= 1
                if self.held[key] <= 0:
                    del self.held[key]


def init_app(app) -> None:
    app.extensions["held_streams"] = HeldStreams()
    app.register_blueprint(bp)


def _busy() -> Response:
    return Response("Too many live connections; this phone checks for moves every few seconds "
                    "instead.\nTúl sok élő kapcsolat; ez a telefon pár másodpercenként "
                    "kérdez rá a lépésekre.\n", status=503, mimetype="text/plain",
                    headers={"Retry-After": "30"})


@bp.get("/games/<game_id>/stream")
def stream(game_id: str):
    if store.last_seq(web_db.get_db(), game_id) == 0:
        abort(404)
    if current_app.extensions["live"].server_count() >= current_app.config.get("MAX_STREAMS", MAX_STREAMS):
        return _busy()
    keys = [("phone", device_id())]
    if not is_loopback(request.remote_addr or ""):  # this machine: a proxy in front, the load tests
        keys.append(("address", request.remote_addr or ""))
    limits = {"phone": current_app.config.get("STREAMS_PER_PHONE", STREAMS_PER_PHONE),
              "address": current_app.config.get("STREAMS_PER_ADDRESS", STREAMS_PER_ADDRESS)}
    held = current_app.extensions["held_streams"]
    if not held.reserve(keys, limits):
        return _busy()
    app = current_app._get_current_object()
    response = Response(_messages(app, dict(request.environ), game_id, _seen()),
                        mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.call_on_close(lambda: held.release(keys))  # the server closes every response it began
    return response


def _messages(app, environ: dict, game_id: str, sent: int | None):
    # subscribed only once the server iterates: a phone gone before that leaks nothing
    hub = app.extensions["live"]
    flag = hub.subscribe(game_id, app.config["DATABASE"])
    keepalive = app.config.get("STREAM_KEEPALIVE", KEEPALIVE)
    deadline = time.monotonic() + LIFETIME
    quiet, woken = 0, False  # keep-alives since the last look; whether a move woke it
    try:
        yield f"retry: {RETRY_MS}\n\n"
        while time.monotonic() < deadline:
            if quiet == 0 or quiet >= LOOK_EVERY:
                flag.clear()  # before reading: a move recorded from here on sets it again
                try:
                    fresh = _fresh(app, environ, game_id, sent, woken)
                except UnknownGame:
                    return
                quiet = 0
                if fresh is not None:
                    sent = fresh[0]
                    yield message(*fresh)
            woken = flag.wait(keepalive)
            if woken:
                quiet = 0
            else:
                quiet += 1
                yield ": keep-alive\n\n"
    finally:
        hub.unsubscribe(game_id, flag)
