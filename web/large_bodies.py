"""A large request body read with the worker's other connections served between its pieces.

gevent's socket yields to the hub only when a read finds nothing yet. An upload sent over a
fast network is there already, so werkzeug read and parsed all 8 MiB of the largest game
file in one go on the worker's hub: ~0.1-0.2 s in which none of that worker's tables got
an answer (docs/decisions.md, "Short writes"). This WSGI middleware hands the app a request
body of ``COOPERATIVE_FROM`` bytes or more through a reader that gives the other
connections a turn (``greenlets.cooperate``) before each piece it reads; outside gevent
that turn is nothing.
"""
from __future__ import annotations

from events.runtime import greenlets

COOPERATIVE_FROM = 64 * 2**10  # bytes: a form of a few fields is read as before


class _TakingTurns:
    """``stream`` (the server's ``wsgi.input``), another connection's turn before each read."""

    def __init__(self, stream):
        self._stream = stream

    def read(self, *size):
        greenlets.cooperate()
        return self._stream.read(*size)

    def readline(self, *size):
        greenlets.cooperate()
        return self._stream.readline(*size)

    def __iter__(self):
        while line := self.readline():
            yield line


class TakingTurns:
    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        if _length(environ) >= COOPERATIVE_FROM:
            environ["wsgi.input"] = _TakingTurns(environ["wsgi.input"])
        return self.wsgi_app(environ, start_response)


def _length(environ) -> int:
    try:
        return int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def init_app(app) -> None:
    app.wsgi_app = TakingTurns(app.wsgi_app)
