"""What the server writes to its log (docs/reliability.md, "Logs"): Python's ``logging``,
one line per request that failed or was refused — its status, route, request id and
reason — and every unexpected exception with its traceback; no secret ever.

The links that carry a secret in their path (a table's join link, a hand-over link, the
organiser's link) and any ``token``, ``code`` or ``csrf_token`` in a query are replaced by
``[redacted]`` in every line, by a filter on this app's logger and on gunicorn's access and
error logs (``RedactingGunicornLogger``, gunicorn.conf.py): `make run` logs each request's
path. A line names a route by its pattern (``/games/<game_id>/join/<code>``), never by the
path a phone sent; headers, cookies and form fields are never logged. Imports nothing
heavy: gunicorn's master loads it before forking."""
from __future__ import annotations

import logging
import re
import secrets
import sys
from http import HTTPStatus

from gunicorn.glogging import Logger as GunicornLogger

LOGGER = "tablescribe"
REDACTED = "[redacted]"

# A secret in a path, also inside another address (a ?next= or a Referer), also percent-encoded.
_SECRET_IN_PATH = re.compile(r"((?:/|%2f)(?:join|hand|organiser)(?:/|%2f))[^/?&#\s\"'<>]+", re.IGNORECASE)
_SECRET_IN_QUERY = re.compile(r"((?:^|[?&;\s])(?:[\w-]*token|code|secret)=)[^&;\s\"']+", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every secret a log line could meet replaced by ``[redacted]``."""
    return _SECRET_IN_QUERY.sub(r"\1" + REDACTED, _SECRET_IN_PATH.sub(r"\1" + REDACTED, text))


class Redacting(logging.Filter):
    """Rewrites a record's message (and its traceback) without the secrets it holds."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            said = record.getMessage()
        except Exception:  # a malformed call (args that do not fit): logged as it came
            said = str(record.msg)
        record.msg, record.args = redact(said), None
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return True


class RedactingGunicornLogger(GunicornLogger):
    """Gunicorn's logger (``logger_class`` in gunicorn.conf.py) with ``Redacting`` on its
    access log (each request's line and Referer) and its error log (the path of a request
    whose handling failed)."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for log in (self.access_log, self.error_log):
            if not any(isinstance(f, Redacting) for f in log.filters):
                log.addFilter(Redacting())


class _Stderr(logging.StreamHandler):
    """The process's standard error as it is when a line is written (a test runner swaps it)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass


def logger() -> logging.Logger:
    return logging.getLogger(LOGGER)


def _set_up() -> logging.Logger:
    log = logger()
    if not any(isinstance(f, Redacting) for f in log.filters):
        log.addFilter(Redacting())
    if not log.handlers:
        handler = _Stderr()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        handler.addFilter(Redacting())
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    return log


# ---- the app's side -------------------------------------------------------------------

def refused_because(reason) -> None:
    """Why this request is refused, for its log line: a text, a ``{lang: text}`` mapping or
    problems (the English is logged)."""
    from flask import g, has_request_context
    if has_request_context() and reason:
        g.log_reason = _english(reason)


def _english(reason) -> str:
    if isinstance(reason, (list, tuple)):
        return "; ".join(_english(r) for r in reason[:5])
    text = getattr(reason, "text", reason)  # a Problem: its texts
    if isinstance(text, dict):
        return str(text.get("en") or next(iter(text.values()), ""))
    return str(text)


def unexpected(error: BaseException) -> None:
    """An exception no handler expected: logged with its traceback and the request's id."""
    from flask import g, has_request_context, request
    where = f"{request.method} {_route()} [{g.get('request_id', '-')}]" if has_request_context() else "outside a request"
    logger().error("unexpected %s in %s", type(error).__name__, where,
                   exc_info=(type(error), error, error.__traceback__))


def _route() -> str:
    from flask import request
    rule = request.url_rule
    return rule.rule if rule is not None else f"{request.path} (no route)"


def _reason(response) -> str:
    from flask import g
    if g.get("log_reason"):
        return g.log_reason
    if response.is_json and not response.is_streamed:
        body = response.get_json(silent=True)
        if isinstance(body, dict) and body.get("problems"):
            return _english(body["problems"])
        if isinstance(body, dict) and body.get("error"):
            return str(body["error"])
    try:
        return HTTPStatus(response.status_code).phrase
    except ValueError:
        return "-"


def init_app(app) -> None:
    from flask import g, request, template_rendered
    log = _set_up()

    @app.before_request
    def _name_the_request() -> None:
        g.request_id = secrets.token_hex(6)

    @app.after_request
    def _log_refusal(response):
        if response.status_code >= 400:
            level = logging.ERROR if response.status_code >= 500 else logging.INFO
            log.log(level, "%s %s %s [%s] %s", response.status_code, request.method, _route(),
                    g.get("request_id", "-"), _reason(response))
        if "request_id" in g:
            response.headers["X-Request-Id"] = g.request_id
        return response

    def _problems_shown(sender, template, context, **extra) -> None:  # a page's refusal, as the phone reads it
        if context.get("problems"):
            refused_because(list(context["problems"]))

    template_rendered.connect(_problems_shown, app, weak=False)
    handle_http_exception = app.handle_http_exception

    def _said_by_http_exception(e):  # abort(…), CSRF and the like: werkzeug's English, its first sentence
        if not g.get("log_reason") and getattr(e, "description", None):
            refused_because(f"{e.name}: {str(e.description).split('. ', 1)[0].rstrip('.')}")
        return handle_http_exception(e)

    app.handle_http_exception = _said_by_http_exception

    def log_exception(exc_info) -> None:  # Flask's own names the path a phone sent: it may hold a secret
        unexpected(exc_info[1])

    app.log_exception = log_exception
