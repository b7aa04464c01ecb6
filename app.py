"""Tablescribe: the event-sourced scoring assistant for physical board-game tables."""
import gc
import os
import re
import secrets

from flask import Flask, abort, jsonify, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import BadRequest, InternalServerError

from events.application.photos import MAX_UPLOAD_BYTES
from web import templating
from web.i18n import load_catalogs, table_zone

PHOTO_UPLOAD_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024  # one photo and the form's few fields

csrf = CSRFProtect()


def create_app(test_config=None) -> Flask:
    # TABLESCRIBE_INSTANCE: another folder for the database, secret key and config (a test's
    # `make run` keeps out of the host's instance/)
    app = Flask(__name__, instance_relative_config=True,
                instance_path=os.environ.get("TABLESCRIBE_INSTANCE") or None)
    templating.init_app(app)  # before the first read of app.jinja_env
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SECRET_KEY=_instance_secret(app.instance_path),
        DATABASE=os.path.join(app.instance_path, "tablescribe.db"),
        MAX_CONTENT_LENGTH=256 * 1024,  # a move is a few hundred bytes; imports: LARGE_UPLOADS
        WTF_CSRF_TIME_LIMIT=None,       # a game lasts hours; the token lives with the session
        SESSION_COOKIE_SAMESITE="Lax",
        TIMEZONE=table_zone(os.environ.get("TIMEZONE")),  # the host machine's, or TIMEZONE's (README)
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("TIMEZONE"):  # the environment wins over instance/config.py
            app.config["TIMEZONE"] = table_zone(os.environ["TIMEZONE"])
        if os.environ.get("TABLESCRIBE_DATABASE"):
            app.config["DATABASE"] = os.environ["TABLESCRIBE_DATABASE"]
        if os.environ.get("DATABASE_URL"):  # postgresql://… (docs/scaling.md)
            app.config["DATABASE"] = os.environ["DATABASE_URL"]
        if os.environ.get("TABLESCRIBE_MAX_STREAMS", "").isdigit():
            app.config["MAX_STREAMS"] = int(os.environ["TABLESCRIBE_MAX_STREAMS"])
        if os.environ.get("TABLESCRIBE_STREAMS_PER_ADDRESS", "").isdigit():  # a hall behind one NAT
            app.config["STREAMS_PER_ADDRESS"] = int(os.environ["TABLESCRIBE_STREAMS_PER_ADDRESS"])
        if os.environ.get("TIMEZONE") and app.config["TIMEZONE"] != os.environ["TIMEZONE"]:
            app.logger.warning("TIMEZONE=%s is no time zone this machine knows (e.g. Europe/Lisbon): "
                               "the clock is %s's", os.environ["TIMEZONE"], app.config["TIMEZONE"])
    else:
        app.config.from_mapping(test_config)

    from web import api, audit, bgstats, boards, cli, db, i18n, large_bodies, logs, organiser, pages, people, photos, poll, rules, seats, security, spreadsheet, stats, stream, trust
    logs.init_app(app)  # first: every request gets its id before anything may refuse it (web/logs.py)
    from events.runtime.live import Hub
    app.extensions["live"] = Hub()  # this server's streams and their watcher (events/runtime/live.py)
    app.extensions["on_recorded"] = on_recorded(app.extensions["live"])  # every connection of the app carries them (web/db.py)
    db.init_app(app)
    cli.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    _compress(app)
    app.before_request(_allow_large_uploads)  # before CSRF reads the form under the global limit
    app.before_request(_refuse_malformed_forms)  # before CSRF trips over them
    app.before_request(_refuse_nul)  # before any of it reaches a database
    csrf.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(audit.bp)
    app.register_blueprint(seats.bp)
    app.register_blueprint(boards.bp)  # board profiles (events/application/boards.py)
    stream.init_app(app)  # server-sent events of the live region, and who holds how many (web/stream.py)
    app.register_blueprint(people.bp)  # the roster (group/roster.py)
    app.register_blueprint(stats.bp)   # statistics and their JSON (group/plays.py)
    app.register_blueprint(bgstats.bp)  # plays out to BG Stats and CSV, BG Stats exports in
    app.register_blueprint(spreadsheet.bp)  # the plays as a spreadsheet opens them (.xlsx, a CSV per language)
    organiser.init_app(app)  # who may change the roster (web/organiser.py)
    trust.init_app(app)  # this server's signing key, the servers and imported games trusted (web/trust.py)
    app.register_blueprint(rules.bp)   # the rule pages a refusal links to
    app.register_blueprint(photos.bp)  # photos attached to a game or a dispute (events/application/photos.py)
    csrf.exempt(api.bp)  # the API authenticates by header token, which browsers never send by themselves
    _register_errors(app)
    large_bodies.init_app(app)  # a large upload read with the worker's other tables served between its pieces
    poll.init_app(app)  # 204s for unchanged polls before Flask, outermost (docs/performance.md)
    return app


# What is sent compressed (flask-compress: zstd, brotli or gzip, as the phone accepts): pages,
# their live regions, JSON, CSS, scripts, SVG and manifests. Not the live stream
# (text/event-stream: each message must leave at once), photos or spreadsheets (compressed
# already). A response's conditional answer (ETag, 304) stays the route's own business.
COMPRESSED = ["text/html", "text/css", "text/javascript", "application/javascript", "application/json",
              "image/svg+xml", "application/manifest+json", "text/csv", "text/plain"]


def _compress(app) -> None:
    from flask_compress import Compress
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_EVALUATE_CONDITIONAL_REQUEST", False)
    # files sent from disk (static/) are compressed as they stream: gzip too, for every phone
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["zstd", "br", "gzip", "deflate"])
    Compress(app)


def on_recorded(hub=None) -> tuple:
    """What follows "an event was recorded", in this order, whichever way it was recorded
    (a phone, the API, an import, the command line, the benchmark, the example scripts):
    the game's streams of the app's ``hub`` (none outside the app: other processes' watchers
    see the event) are woken once the event is committed (called with
    db, game_id, event, state after it: events/application/table.py:announce); the statistics' read model
    takes a finished game (or a changed past) and a board profile the facts a table entered
    (Han's alliances) in the event's own transaction (events/storage/store.py:WithTheEvent)."""
    from events.application import boards
    from events.runtime import live
    from group import plays
    return ((hub or live.Hub()).on_recorded, plays.on_recorded, boards.on_recorded)


def connect(database: str):
    """The store as the app records into it, for code that runs without a request (the
    benchmark, the example scripts): the connection carries ``on_recorded()``."""
    from events.storage import store
    return store.connect(database, on_recorded=on_recorded())


# Routes that take a whole game: the largest game the benchmark builds (Han at 10,000
# events) exports 16.7 MiB (docs/reliability.md §4).
# A game with its photos adds at most MAX_PHOTOS × ~1.1 MB as base64 (docs/photos.md).
LARGE_UPLOADS = {"audit.import_page": 64 * 2**20,
                 "bgstats.import_page": 8 * 2**20,  # a group's whole BG Stats history (docs/people.md §8)
                 "photos.upload": PHOTO_UPLOAD_LIMIT}


def _allow_large_uploads() -> None:
    limit = LARGE_UPLOADS.get(request.endpoint)
    if limit is not None:
        request.max_content_length = limit


def _refuse_malformed_forms() -> None:
    """A multipart part whose name breaks its header (a CR in it) is parsed with no name,
    and CSRF's form walk then fails on it (a 500 found by tests/web/test_fuzz_http.py)."""
    if request.method == "POST" and any(not isinstance(key, str) for key in request.form):
        abort(400)


class HoldsNul(BadRequest):
    """A text with a NUL character (U+0000): PostgreSQL stores no such text and SQLite
    would; refused at the door, so every route answers the same on both engines."""


# JSON's way of writing one: \u0000 after an even number of backslashes (an escaped
# backslash followed by "u0000" is a text without a NUL)
_NUL_ESCAPE = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)


def _holds_nul(raw: bytes) -> bool:
    return b"\x00" in raw or _escapes_nul(raw)


def _escapes_nul(raw: bytes) -> bool:
    """JSON text writing a NUL. The regex is run only where one may be: walking an 8 MiB
    import it held the worker's hub for ~0.3-0.6 s in one piece (docs/decisions.md, "Short writes"), while a
    plain search for the escape, which every match contains, runs at memory speed."""
    return (b"\\u0000" in raw or b"\\U0000" in raw) and _NUL_ESCAPE.search(raw) is not None


def _refuse_nul() -> None:
    """A NUL anywhere a request carries text: the path (404: no page or game has such a
    name), its query, form fields, an uploaded file's JSON, a JSON body (400, saying why)."""
    if "\x00" in request.path:
        request.view_args = {}  # the error page looks up no game by such an id either
        abort(404)
    fields = [*request.args.items(multi=True)]
    if request.method == "POST":
        if request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
            fields += request.form.items(multi=True)
            for upload in request.files.values():
                # a raw NUL byte is no JSON: the import says the file is not JSON
                if _escapes_nul(upload.stream.read()):
                    raise HoldsNul()
                upload.stream.seek(0)
        elif _holds_nul(request.get_data(cache=True)):
            raise HoldsNul()
    if any("\x00" in key or "\x00" in value for key, value in fields):
        raise HoldsNul()


def worker_ready(app: Flask) -> None:
    """What a server worker does once before it serves (gunicorn.conf.py's post_worker_init;
    the benchmarks' cold process does the same, bench/history_pages.py): its templates
    compiled and its catalogs loaded, so the first page a restarted worker serves does not
    pay for them on a phone's time, then its GC tuned (last: it freezes what lives as
    long as the worker)."""
    compile_templates(app)
    load_catalogs(app)
    tune_gc()


def compile_templates(app: Flask) -> int:
    """Every template compiled into the app's Jinja cache (a cold history page at 10,000
    events spent about a third of its CPU there; docs/decisions.md). Returns how many."""
    names = [n for n in app.jinja_env.list_templates() if n.endswith(".html")]
    for name in names:
        app.jinja_env.get_template(name)
    return len(names)


def tune_gc() -> None:
    """Called once per server worker after the app is loaded (``worker_ready``).

    The objects alive at start-up (modules, templates, the app) never die, yet every
    full collection walks them; and Python's default (a young collection per 700
    allocations) lets a tap that allocates a large game state trigger a full one
    mid-request: 20–30 ms pauses, the p95 of a tap at 1,000 events
    (docs/performance.md, change 8). Freezing the start-up objects and collecting
    the young generation less often removes those pauses; reference counting still
    frees almost everything at once (the fold makes no cycles).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def _instance_secret(instance_path: str) -> str:
    """One secret per installation, kept in instance/, shared by every worker."""
    path = os.path.join(instance_path, "secret_key")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "w") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(tmp, path)  # atomic: the first worker's secret wins, complete
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    with open(path) as f:
        return f.read().strip()


def _register_errors(app: Flask) -> None:
    def wants_json() -> bool:
        return request.path.startswith("/api/")

    def error(status: int, message: str):
        if wants_json():  # every API answer is JSON, in the client's language, errors too
            return jsonify({"error": message}), status
        return render_template("error.html", status=status, message=message), status

    app.register_error_handler(CSRFError, lambda e: error(
        400, gettext("The form expired; reload the page and try again.")))
    app.register_error_handler(404, lambda e: error(404, gettext("Not found.")))
    app.register_error_handler(405, lambda e: (*error(405, gettext("Method not allowed.")),
                                               {"Allow": ", ".join(sorted(e.valid_methods or ()))}))
    app.register_error_handler(413, lambda e: error(413, gettext("The request is too large.")))
    app.register_error_handler(400, lambda e: error(400, gettext("Bad request.")))
    app.register_error_handler(429, lambda e: (*error(
        429, gettext("Too many attempts; wait a minute and try again.")), {"Retry-After": str(e.retry_after or 60)}))
    from web.importing import TooManyImports
    app.register_error_handler(TooManyImports, lambda e: (*error(
        503, gettext("Other large files are being imported just now; try again in a minute.")), {"Retry-After": "30"}))
    from web.decoding import TooManyPhotos
    app.register_error_handler(TooManyPhotos, lambda e: (*error(
        503, gettext("Other photos are being read just now; send yours again in a few seconds.")), {"Retry-After": "5"}))
    app.register_error_handler(HoldsNul, lambda e: error(
        400, gettext("The request holds a NUL character (U+0000), which no text here may contain.")))
    # A JSON body nested deeper than the parser can recurse (found by tests/web/test_fuzz_http.py).
    app.register_error_handler(RecursionError, lambda e: error(
        400, gettext("The data is nested too deeply.")))
    from events.storage import pg
    if pg.is_url(app.config["DATABASE"]):
        # PostgreSQL went away mid-request: its transaction rolled back, nothing was
        # half-written; the phone may simply send again (docs/scaling.md).
        for lost in pg.lost_connection_errors():
            app.register_error_handler(lost, lambda e: (*error(
                503, gettext("The database cannot be reached just now; try again in a few seconds.")),
                {"Retry-After": "5"}))
    def busy(e):
        """SQLite's write lock not had within busy_timeout (a long write elsewhere): nothing
        was written; the phone is told to send again shortly, never a 500."""
        if "locked" not in str(e) and "busy" not in str(e):
            from web.logs import unexpected
            unexpected(e)
            return error(500, gettext("Something went wrong on the server; try again."))
        return (*error(503, gettext("The server is busy writing; your move was not recorded yet, send it again in a moment.")),
                {"Retry-After": "2"})
    import sqlite3
    app.register_error_handler(sqlite3.OperationalError, busy)
    app.register_error_handler(InternalServerError, lambda e: error(
        500, gettext("Something went wrong on the server; try again.")))
