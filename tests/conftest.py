import os
import re
import tempfile

import pytest

from app import create_app

# The tests' expected times are Budapest's whatever this machine's zone (README: TIMEZONE);
# every app a test makes, and every server it starts, reads it. Their secret key, organiser
# marker and `make run` record stay out of the host's own instance/ (app.py).
os.environ["TIMEZONE"] = "Europe/Budapest"
os.environ["TABLESCRIBE_INSTANCE"] = tempfile.mkdtemp(prefix="tablescribe-tests-")


def app_on(database: str, **config):
    """An app as the tests make one, on ``database`` (a file or a PostgreSQL URL): CSRF off
    unless ``config`` turns it on, a fixed secret key; ``config`` beyond that."""
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": database, "WTF_CSRF_ENABLED": False,
                       **config})


@pytest.fixture
def app_config() -> dict:
    """What a test module's app is configured with beyond the defaults: a module overrides
    this fixture (CSRF on, a shorter keep-alive…) instead of making an app of its own."""
    return {}


@pytest.fixture(scope="session", autouse=True)
def url_builders_compiled_once():
    """Every app a test makes registers the same ~370 routes, and werkzeug compiles two URL
    builders for each (Python source, ``compile``): half of what making an app costs. A
    builder is a function of the rule's text, its parsed parts and its defaults alone (it
    reaches the rule's converters through the rule it is bound to), so each is compiled once
    per test process and bound to every rule of that text, as werkzeug binds its own."""
    from werkzeug.routing.rules import Rule
    real, compiled = Rule._compile_builder, {}

    def once(rule, append_unknown: bool = True):
        key = (rule.rule, tuple(rule._trace), repr(sorted((rule.defaults or {}).items())),
               tuple(sorted((name, type(c).__name__) for name, c in rule._converters.items())), append_unknown)
        if key not in compiled:
            compiled[key] = real(rule, append_unknown)
        return compiled[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Rule, "_compile_builder", once)
        yield


@pytest.fixture(scope="session")
def empty_store(tmp_path_factory):
    """``empty_store(path)``: a fresh SQLite store at ``path``, a copy of one migrated once per
    test process. A test's app starts on it instead of running every migration again (the
    migrations are tested from nothing and from old databases: tests/events/test_migrations.py,
    tests/events/test_pg.py, tests/reliability/test_startup.py)."""
    import sqlite3
    from events.storage import store
    template = str(tmp_path_factory.mktemp("empty-store") / "empty.db")
    store.prepare(template)

    def copy(path: str) -> str:
        source, target = sqlite3.connect(template), sqlite3.connect(path)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        return path

    return copy


@pytest.fixture
def app(tmp_path, request, app_config, empty_store):
    # TABLESCRIBE_TEST_ENGINE=postgresql runs the in-process tests on PostgreSQL instead
    # (docs/scaling.md); tests that open the SQLite file themselves then fail, as they should.
    if os.environ.get("TABLESCRIBE_TEST_ENGINE") == "postgresql":
        database = request.getfixturevalue("postgres_url")
    else:
        database = empty_store(str(tmp_path / "t.db"))
    yield app_on(database, **app_config)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def db(app):
    """The app's store, as a request gets it: recording through it runs the app's
    subscribers (app.py:on_recorded)."""
    from events.storage import store
    conn = store.connect(app.config["DATABASE"], on_recorded=app.extensions["on_recorded"])
    yield conn
    conn.conn.close()


@pytest.fixture
def other_app(app, tmp_path, request):
    """Another server on the app's engine, with its own store: where a game of ``db`` is
    imported (importing a game into the store it is in is refused: it would count twice)."""
    if app.config["DATABASE"].startswith("postgresql://"):
        url = create_database(request.getfixturevalue("postgres_server"))
    else:
        url = str(tmp_path / "other.db")
    return app_on(url, WTF_CSRF_ENABLED=app.config.get("WTF_CSRF_ENABLED", True))


@pytest.fixture
def other_db(other_app):
    from events.storage import store
    conn = store.connect(other_app.config["DATABASE"])
    yield conn
    conn.conn.close()


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def phones_with_forms(app, count: int) -> list:
    """``count`` phones of ``app`` (English), each with its own cookies and ``.token``, the CSRF
    token its forms carry (CSRF on, as in production)."""
    phones = []
    for _ in range(count):
        phone = app.test_client()
        phone.set_cookie("lang", "en")
        phone.token = csrf_of(phone.get("/games/new").get_data(as_text=True))
        phones.append(phone)
    return phones


def new_pad(phone, names=("Anna", "Béla")) -> str:
    """A score pad made on ``phone`` through the new-game form (its seat 0): the game's id."""
    return game_by_form(phone, names, token=phone.token)


def game_by_form(client, names=("Anna", "Béla"), kind: str = "scorepad", token: str | None = None, **fields) -> str:
    """A game of ``kind`` made on ``client`` through the new-game form as a phone fills it
    (its seat 0; ``token``: the form's CSRF token where CSRF is on; ``fields``: more of the
    form, such as ``opt_<option>``): the game's id."""
    data = {"kind": kind, "name": list(names), "colour": ["red", "blue", "green", "black", "yellow"][:len(names)],
            **({"csrf_token": token} if token else {}), **fields}
    created = client.post("/games/new", data=data)
    assert created.status_code == 302, created.get_data(as_text=True)[:2000]
    return created.headers["Location"].rsplit("/", 1)[1]


def game_by_api(client, kind: str = "scorepad", names=("Anna", "Béla", "Cili"), options=None) -> dict:
    """A game made through the app's API by the Flask client ``client``: the API's answer
    (its id, each seat's token, the join link)."""
    body = {"kind": kind, "players": [{"name": n} for n in names], **({"options": options} if options else {})}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.json
    return created.json


def holding_seat(app, game: dict, seat: int = 0, lang: str | None = None):
    """A Flask client holding ``seat`` of the API's ``game``, as the phone that sat there."""
    phone = app.test_client()
    phone.set_cookie(f"seat_{game['id']}", game["seats"][seat]["token"])
    if lang:
        phone.set_cookie("lang", lang)
    return phone


def bits_of(token: str) -> int:
    """How many random bits a URL-safe base64 token carries."""
    import base64
    return len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8


def path_of(url: str) -> str:
    """The path of a link the app printed (a join, hand-over or organiser link): what a
    Flask client opens."""
    return "/" + url.split("://", 1)[-1].split("/", 1)[1]


def become_organiser(app, client) -> None:
    """Open the organiser's link on this client (docs/people.md §9), as `make run` prints it."""
    from web import organiser
    with app.test_request_context():
        path = organiser.link().split("://", 1)[1].split("/", 1)[1]
    assert client.get("/" + path).status_code == 303


def run_sql(db, text: str, **params):
    """A test's own statement, named parameters and all, on either engine
    (events/storage/sql.py renders it as the store's are)."""
    from events.storage.sql import Statement, run
    return run(db, Statement(text), **params)


def tamper(db, sql: str, params=()) -> None:
    """What someone with the SQLite file can do: drop the append-only triggers, change the
    logs (``sql``), and put the triggers back, so nothing looks touched."""
    from events.storage.schema import Unchangeable
    logs = (Unchangeable("events", "append-only"), Unchangeable("roster_events", "append-only", noun="roster events"))
    for log in logs:
        for verb in ("update", "delete"):
            db.execute(f"DROP TRIGGER IF EXISTS {log.table}_no_{verb}")
    db.execute(sql, list(params))
    for log in logs:
        for statement in log.sqlite_statements():
            db.execute(statement)


@pytest.fixture
def hall(tmp_path, database):
    """(app, db, organiser, host, stranger, game): a score pad game of Anna (seat 0, the
    host's phone) and Béla, made on the organiser's phone; every phone with its CSRF token."""
    from events.storage import store
    app = app_on(database, WTF_CSRF_ENABLED=True, ORGANISER_MARKER=str(tmp_path / "shown"),
                 RATE_LIMITS={"join": (5, 60.0)})
    organiser, host, stranger = phones_with_forms(app, 3)
    become_organiser(app, organiser)
    game = new_pad(host)
    db = store.connect(database)
    yield app, db, organiser, host, stranger, game
    db.conn.close()


def watch_the_write_lock(monkeypatch) -> list:
    """``store.write_lock`` patched to note when it is held: the list returned is not empty
    exactly then (what a test finds done under the lock every other table's move waits for)."""
    import contextlib
    from events.storage import store
    held: list[bool] = []
    real_lock = store.write_lock

    @contextlib.contextmanager
    def watched(conn):
        with real_lock(conn):
            held.append(True)
            try:
                yield conn
            finally:
                held.pop()

    monkeypatch.setattr(store, "write_lock", watched)
    return held


def guarded_app(database: str, **config):
    """CSRF on, as in production: (an app on ``database`` with ``config``, an English-speaking
    client, its form token)."""
    app = app_on(database, **{"WTF_CSRF_ENABLED": True, **config})
    client = app.test_client()
    client.set_cookie("lang", "en")
    return app, client, csrf_of(client.get("/games/new").get_data(as_text=True))


@pytest.fixture
def guarded(tmp_path, empty_store):
    """CSRF on, as in production: (app, an English-speaking client, its form token, the store)."""
    from events.storage import store
    app, client, _ = guarded_app(empty_store(str(tmp_path / "g.db")))
    become_organiser(app, client)  # the roster's changes are the organiser's (tests/web/test_organiser.py)
    token = csrf_of(client.get("/games/new").get_data(as_text=True))
    db = store.connect(app.config["DATABASE"], on_recorded=app.extensions["on_recorded"])
    yield app, client, token, db
    db.conn.close()


# ---- games played in the store, their seats linked to the roster --------------------------

def demo_played(db, kind: str = "scorepad", names: list[str] | None = None, linked: bool = True) -> str:
    """The game's demo played to its end in ``db``, each move by the seat in turn, its seats
    linked to the roster by name as the form does unless not ``linked`` (``names``: the
    first seats' names): its id."""
    from events.application.table import new_game, record
    from group import roster
    from scoring import GAMES
    players, options, moves = GAMES[kind].demo()
    if names:
        players = [{**p, "name": names[i]} if i < len(names) else p for i, p in enumerate(players)]
    game = new_game(db, kind, players, options, "dev")
    if linked:
        roster.link_game(db, game["id"], [p["name"] for p in players], "dev")
    for i, (type_, data) in enumerate(moves, start=1):
        record(db, game["id"], type_, data, i, i % len(players), "dev", f"m{i}")
    return game["id"]


def demo_events(game) -> list:
    """The events of ``game``'s demo (a scoring module), as a log holds them: its creation,
    then each move by seat 0; nothing stored."""
    from events.domain.event import Event
    players, options, moves = game.demo()
    created = Event(1, "game-created", 1, {"kind": game.kind, "rules_version": game.rules_version,
                                           "players": players, "options": {**game.default_options(), **options}},
                    None, "dev", "t", "c1", "h")
    events = [created]
    for i, (type_, data) in enumerate(moves, start=2):
        events.append(Event(i, type_, game.event_types[type_].version, data, 0, "dev", "t", f"c{i}", "h"))
    return events


def pad_played(db, points: list[int], names: list[str]) -> str:
    """A score pad of ``names`` with ``points`` recorded seat by seat, ended, its seats linked
    by name: its id."""
    from events.application.table import new_game, record
    from group import roster
    game = new_game(db, "scorepad", [{"name": n} for n in names], {}, "dev")
    roster.link_game(db, game["id"], names, "dev")
    seq = 1
    for seat, p in enumerate(points):
        record(db, game["id"], "points-recorded", {"seat": seat, "points": p}, seq, 0, "dev", f"p{seq}")
        seq += 1
    record(db, game["id"], "game-ended", {}, seq, 0, "dev", "end")
    return game["id"]


# A score pad game with a void, a dispute that is kept, one that voids, and a comment.
PAD_WITH_DISPUTES = [
    (0, "points-recorded", {"seat": 0, "points": 12, "note": "first"}),
    (1, "points-recorded", {"seat": 1, "points": 7}),
    (1, "points-recorded", {"seat": 1, "points": 40}),
    (0, "event-voided", {"target": 4, "reason": "typo"}),
    (0, "round-closed", {}),
    (1, "points-recorded", {"seat": 0, "points": 9}),
    (1, "dispute-opened", {"target": 7, "comment": "Anna had 6, not 9"}),
    (0, "dispute-commented", {"dispute": 8, "comment": "I counted 9"}),
    (1, "dispute-resolved", {"dispute": 8, "outcome": "voided", "reason": "recount: 6"}),
    (0, "points-recorded", {"seat": 0, "points": 6, "note": "recount"}),
    (0, "dispute-opened", {"target": 3, "comment": "was it 7?"}),
    (1, "dispute-resolved", {"dispute": 12, "outcome": "kept", "reason": "yes, 7"}),
    (0, "game-ended", {}),
]


def played_pad(db, moves=PAD_WITH_DISPUTES, players=("Anna", "Béla")) -> str:
    """A real game through the one recording path; returns its id."""
    from events.application.table import new_game, record
    game_id = new_game(db, "scorepad", [{"name": n} for n in players], {}, "phone-a")["id"]
    for seq, (seat, type_, data) in enumerate(moves, start=1):
        record(db, game_id, type_, data, seq, seat, f"phone-{seat}", f"c{seq}")
    return game_id


@pytest.fixture
def two_friends(app, db):
    """Anna and Béla: five plays together across three game kinds; Anna wins three."""
    ids = [pad_played(db, [30, 20], ["Anna", "Béla"]),
           pad_played(db, [10, 25], ["Anna", "Béla"]),
           pad_played(db, [40, 12, 5], ["Anna", "Béla", "Cili"])]
    ids.append(demo_played(db, "five-tribes", ["Anna", "Béla"]))
    ids.append(demo_played(db, "han", ["Anna", "Béla", "Cili"]))
    return ids


# ---- games and files a test brings in through the pages, CSRF on ---------------------------

def finished_pad(client, token, title="", bgg="0") -> str:
    """A finished score pad (Anna 12, Béla 30) made through the new-game form and the API:
    its id (``title``, ``bgg``: the game the pad was kept for)."""
    game_id = game_by_form(client, token=token, opt_title=title, opt_bgg_id=bgg)
    seat = client.get_cookie(f"seat_{game_id}", path=f"/games/{game_id}").value
    for i, (type_, data) in enumerate([("points-recorded", {"seat": 0, "points": 12}),
                                       ("points-recorded", {"seat": 1, "points": 30}),
                                       ("game-ended", {})], start=1):
        r = client.post(f"/api/games/{game_id}/events", headers={"X-Seat-Token": seat},
                        json={"type": type_, "data": data, "expected_seq": i, "client_event_id": f"c{i}"})
        assert r.status_code == 201, r.get_json()
    return game_id


def import_example(client, token, path) -> str:
    """A game file imported through the import page and accepted by the organiser (an example
    file is unsigned: it counts once accepted): the game's id."""
    with open(path, "rb") as f:
        response = client.post("/import", data={"csrf_token": token, "file": (f, "game.json")},
                               content_type="multipart/form-data")
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/people/servers/games/{game_id}/accept", data={"csrf_token": token}).status_code == 303
    return game_id


def upload(client, path: str, content: bytes, token: str | None = None, name: str = "x.json"):
    """A file posted to the form at ``path`` as a browser sends it (``token``: the form's
    CSRF token where CSRF is on): the answer."""
    import io
    return client.post(path, data={"file": (io.BytesIO(content), name), **({"csrf_token": token} if token else {})},
                       content_type="multipart/form-data")


@pytest.fixture
def scored_pad(table_of) -> dict:
    """A score pad of Anna, Béla and Cili, its first round scored (10, 8, 30 "big") and
    closed: its id and each seat's token."""
    table = table_of(names=("Anna", "Béla", "Cili"), moves=[
        (0, "points-recorded", {"seat": 0, "points": 10}),
        (1, "points-recorded", {"seat": 1, "points": 8}),
        (1, "points-recorded", {"seat": 2, "points": 30, "note": "big"}),
        (2, "round-closed", {})])
    return {"id": table.id, "tokens": table.tokens}


def sit_at(client, game: dict, seat: int = 0):
    """``client`` holding ``seat`` of ``game`` (``scored_pad``'s shape): the client."""
    client.set_cookie(f"seat_{game['id']}", game["tokens"][seat])
    return client


def post_form(client, url: str, **form):
    return client.post(url, data=form)


def attach_photo(phone, game_id, raw: bytes, filename="board.jpg", mimetype="image/jpeg", **fields):
    """A photo posted from ``phone``'s table page, its CSRF token and all: the answer."""
    import io
    page = phone.get(f"/games/{game_id}").get_data(as_text=True)
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)  # a spectator's page has no form
    form = {"csrf_token": token, "about": "game", "caption": "", **fields,
            "photo": (io.BytesIO(raw), filename, mimetype)}
    return phone.post(f"/games/{game_id}/photos", data=form, content_type="multipart/form-data")


def photos_stored(db) -> int:
    return db.execute("SELECT COUNT(*) FROM photo_blobs").fetchone()[0]


def upload_bgstats(client, token, content: bytes):
    """A BG Stats export uploaded on the roster's import page: the page's answer."""
    return upload(client, "/people/import-bgstats", content, token)


def bgstats_export(**changes) -> dict:
    """A small BG Stats export (Anna beat Béla at Five Tribes), with ``changes`` made to it:
    ``plays__0__durationMin=5`` sets that field."""
    doc = {"about": "", "userInfo": {},
           "players": [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Béla"}],
           "locations": [{"id": 1, "name": "Home"}],
           "games": [{"id": 7, "name": "Five Tribes", "bggId": 157354, "highestWins": True}],
           "plays": [{"uuid": "p1", "gameRefId": 7, "locationRefId": 1, "playDate": "2024-03-01 19:30:00",
                      "durationMin": 90, "playerScores": [
                          {"playerRefId": 1, "score": "151", "winner": True, "rank": 1, "seatOrder": 1, "startPlayer": True},
                          {"playerRefId": 2, "score": "140", "winner": False, "rank": 2, "seatOrder": 2}]}]}
    for path, value in changes.items():
        target = doc
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        target[keys[-1]] = value
    return doc


def many_plays(n: int) -> dict:
    """A BG Stats export of ``n`` plays of three people, each play its own."""
    doc = bgstats_export()
    doc["players"].append({"id": 3, "name": "Cili"})
    doc["plays"] = [dict(doc["plays"][0], uuid=f"p{k}", playerScores=[
        dict(s, playerRefId=(k + i) % 3 + 1) for i, s in enumerate(doc["plays"][0]["playerScores"])])
        for k in range(n)]
    return doc


# ---- a real server and real Chromium at a phone viewport ------------------------

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHONE = {"width": 390, "height": 844}
HAN_EXAMPLE = os.path.join(ROOT, "examples", "han-side1-3p.json")  # a finished game of Han, three seats
EXAMPLES = sorted(os.path.join(ROOT, "examples", name) for name in os.listdir(os.path.join(ROOT, "examples"))
                  if name.endswith(".json"))  # the shipped example games


def example_moves(path: str) -> tuple:
    """A shipped example game to play again: (its kind, players, options, and moves, each
    (type, data upcast to today's rules, seat))."""
    from events.domain.event import Event
    from events.domain.projection import upcast
    from scoring import rules_for
    with open(path) as f:
        events = [Event(**e) for e in json.load(f)["events"]]
    data = events[0].data
    rules = rules_for(data["kind"], data["rules_version"])
    moves = [(e.type, dict(upcast(rules, e).data) if e.type in rules.event_types else e.data, e.seat)
             for e in events[1:]]
    return data["kind"], data["players"], data["options"], moves
ARTIFACTS = os.path.join(ROOT, "test-artifacts")
# Phones reach the table by a name on the LAN over plain http, which is not a secure context
# (127.0.0.1 is: crypto.randomUUID, the Wake Lock API… exist there and on no phone at a table).
# Chromium maps the name to this machine (--host-resolver-rules), and so does the test's own
# resolver (``lan_resolver``), as the LAN's DNS would.
LAN_NAME = "table.lan"


def lan_url(port: int) -> str:
    """A test server's base URL as a phone on the LAN opens it."""
    return f"http://{LAN_NAME}:{port}"


def loopback_url(base: str) -> str:
    """``base`` on 127.0.0.1, a secure context: only for what needs one (the Wake Lock API)."""
    return base.replace(f"//{LAN_NAME}:", "//127.0.0.1:")


@pytest.fixture(scope="session")
def lan_resolver():
    """The test process resolves LAN_NAME to 127.0.0.1 as Chromium does (its API calls to a
    live server go to the address the phones open)."""
    real = socket.getaddrinfo

    def resolve(host, *args, **kwargs):
        return real("127.0.0.1" if host == LAN_NAME else host, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket, "getaddrinfo", resolve)
        yield LAN_NAME


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_path: str, port: int, workers: int = 1, threads: int = 8,
                 bind: str = "127.0.0.1", public_url: bool = True) -> subprocess.Popen:
    """The production WSGI server (gunicorn) on 127.0.0.1, as `make run` starts it, its
    PUBLIC_URL the LAN name phones open (``bind``: another address; ``public_url=False``:
    the server finds the phones' address)."""
    env = {**os.environ, "TABLESCRIBE_DATABASE": db_path, "PUBLIC_URL": lan_url(port)}
    if not public_url:
        env.pop("PUBLIC_URL")
    # The server's log goes to a file, never a pipe: the app logs every refused request,
    # and a pipe nobody reads fills up (64 KiB) and stops the server mid-test.
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [os.path.join(os.path.dirname(sys.executable), "gunicorn"), "-c", "gunicorn.conf.py",
         "--bind", f"{bind}:{port}",
         "--workers", str(workers), "--threads", str(threads), "--timeout", "60",
         "app:create_app()"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    proc.log = log
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return proc
        except OSError:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(log.read().decode(errors="replace"))
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def stop_server(proc: subprocess.Popen) -> None:
    """Stop a test's gunicorn once the test is done with it: SIGQUIT, gunicorn's quick
    shutdown. SIGTERM's graceful one waits up to graceful_timeout (5 s, gunicorn.conf.py)
    for open connections — a phone's live stream, a browser's idle keep-alive — and that
    wait, at the end of every module with a live server, is nothing a test looks at (the
    tests of a restart stop their server with SIGTERM, as an operator would)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGQUIT)
        proc.wait(10)


def organiser_link(base: str) -> str:
    """The organiser's link of the live server at ``base``, printed by the CLI command the
    README names (`flask --app app organiser-link`), as the organiser reads it off the terminal."""
    port = urllib.parse.urlsplit(base).port
    database = {"TABLESCRIBE_DATABASE": SERVED[base]} if base in SERVED else {}  # its salt (web/organiser.py)
    printed = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "organiser-link",
                              "--host", "127.0.0.1", "--port", str(port)], cwd=ROOT, check=True,
                             capture_output=True, text=True, timeout=60,
                             env={**os.environ, "PUBLIC_URL": base, **database}).stdout
    return re.search(r"https?://\S+/organiser/\S+", printed).group(0)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory, lan_resolver):
    """Base URL of a real gunicorn serving a fresh database on 127.0.0.1, as phones on the
    LAN open it (``lan_url``)."""
    db_path = str(tmp_path_factory.mktemp("live") / "live.db")
    port = free_port()
    proc = start_server(db_path, port)
    SERVED[lan_url(port)] = db_path
    yield lan_url(port)
    stop_server(proc)
    SERVED.pop(lan_url(port), None)


SERVED: dict[str, str] = {}  # a live server's base URL -> its database


@pytest.fixture(scope="session")
def browser(lan_resolver):
    from playwright.sync_api import sync_playwright
    executable = shutil.which("chromium")
    if not executable:
        pytest.fail("Debian's chromium is missing: `make test` installs it (apt-get install chromium)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run",
            f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"])
        yield b
        b.close()


# axe-core (npm, pinned in package.json, installed by `make setup`, never committed) checks
# every page a browser test loads: WCAG 2.1 A/AA and axe's best practices.
AXE = os.path.join(ROOT, "node_modules", "axe-core", "axe.min.js")
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
# Injected before the page's own scripts (by the browser, so the page's CSP does not apply):
# once a page has loaded and settled, axe checks it once per kind of page and phone (game
# ids left out) and reports on the console, which the fixture reads.
AXE_ON_LOAD = r"""
window.addEventListener("load", () => setTimeout(() => {
  const kind = location.pathname.replace(/\/games\/[^/]+/, "/games/_").replace(/\/people\/\d+/, "/people/_");
  const seen = JSON.parse(sessionStorage.getItem("axe-seen") || "[]");
  if (seen.includes(kind) || !window.axe) return;
  sessionStorage.setItem("axe-seen", JSON.stringify(seen.concat([kind])));
  axe.run(document, {runOnly: {type: "tag", values: %s}}).then(result => console.log("axe-result " + JSON.stringify(
    {url: location.pathname + location.search, violations: result.violations.map(v => ({id: v.id, help: v.help,
      nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))})));
}, 300));
""" % json.dumps(AXE_TAGS)


def axe_check(page) -> list[dict]:
    """axe's violations on the page as it is now (after any swaps)."""
    # page.evaluate waits for its promise without end: on a page where axe never answers
    # (a full-size image opened by the test) the check gives up after 10 s instead of hanging
    result = page.evaluate("tags => Promise.race([axe.run(document, {runOnly: {type: 'tag', values: tags}}),"
                           " new Promise((_, no) => setTimeout(() => no(new Error('axe gave no answer in 10 s')), 10000))])",
                           AXE_TAGS)
    return [{"url": page.url, "id": v["id"], "help": v["help"],
             "nodes": [" ".join(n["target"]) for n in v["nodes"][:3]]} for v in result["violations"]]


def _page_kind(url: str) -> str:
    """A page's address without the game or person it shows: checked once per phone."""
    path = urllib.parse.urlsplit(url).path
    return re.sub(r"/people/\d+", "/people/_", re.sub(r"/games/[^/]+", "/games/_", path))


def _remember_document(page, response) -> None:
    """The content type of the document the page shows now (its last main-frame navigation)."""
    if response.request.is_navigation_request() and response.frame == page.main_frame:
        page.document_type = response.headers.get("content-type", "")


def _is_html_page(page) -> bool:
    """Only an HTML page is checked by axe: a photo opened full size is served in a sandbox
    without scripts (docs/photos.md), where an evaluate would wait for ever."""
    return getattr(page, "document_type", "text/html").startswith("text/html")


@pytest.fixture
def new_phone(browser):
    """Make a phone: a fresh browser context (own cookies) at 390 × 844. Every page it loads
    is checked by axe-core, and the test fails on any violation."""
    if not os.path.exists(AXE):
        pytest.fail("axe-core is missing: `make setup` installs it from npm (package.json)")
    contexts, pages, found = [], [], []

    def read_console(message):
        if message.text.startswith("axe-result "):
            report = json.loads(message.text[len("axe-result "):])
            found.extend({"url": report["url"], **v} for v in report["violations"])

    def make(locale: str = "en-GB"):
        context = browser.new_context(viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
        context.add_init_script(path=AXE)
        context.add_init_script(AXE_ON_LOAD)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("console", read_console)
        page.on("response", lambda response: _remember_document(page, response))
        go = page.goto

        def goto(url, **options):  # each kind of page a test opens is checked as it opens
            response = go(url, **options)
            if not _is_html_page(page):
                return response
            kind = _page_kind(page.url)
            fresh = page.evaluate("""kind => { const seen = JSON.parse(sessionStorage.getItem("axe-seen") || "[]");
              if (seen.includes(kind)) return false;
              sessionStorage.setItem("axe-seen", JSON.stringify(seen.concat([kind]))); return true; }""", kind)
            if fresh:
                found.extend(axe_check(page))
            return response
        page.goto = goto
        pages.append(page)
        return page

    yield make
    for page in pages:
        if not page.is_closed() and _is_html_page(page):
            try:
                found.extend(axe_check(page))
            except Exception:  # a page mid-navigation or closed by the test: its loads were checked
                pass
    for context in contexts:
        context.close()
    unique = {(_page_kind(urllib.parse.urljoin("http://x", v["url"])), v["id"]): v for v in found}
    assert not unique, "axe-core found accessibility problems:\n" + "\n".join(
        f"{v['url']}: {v['id']} – {v['help']} ({', '.join(v['nodes'])})" for v in unique.values())


def screenshot(page, name: str) -> str:
    os.makedirs(ARTIFACTS, exist_ok=True)
    path = os.path.join(ARTIFACTS, f"{name}.png")
    page.screenshot(path=path, full_page=True)
    return path


def api(base: str, path: str, body: dict, token: str | None = None) -> dict:
    """POST JSON to the live server's API (docs/api.md), with a seat token when given."""
    headers = {"Content-Type": "application/json", **({"X-Seat-Token": token} if token else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    return json.loads(urllib.request.urlopen(request, timeout=10).read())


def cut_selects(page, selector: str = "select", chosen_only: bool = False) -> list[str]:
    """The selects on ``page`` (matching ``selector``) with an option too wide for the box:
    the text drawn in the select's own font, against its width less padding and the arrow
    (20 px). Each as "name: 'text' width/room px"; every option unless ``chosen_only``."""
    return page.evaluate("""([selector, chosenOnly]) => {
        const ctx = document.createElement('canvas').getContext('2d');
        return [...document.querySelectorAll(selector)].filter(s => s.getClientRects().length).flatMap(s => {
            const css = getComputedStyle(s);
            ctx.font = css.font;
            const room = s.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 20;
            const options = chosenOnly ? [s.options[s.selectedIndex]].filter(Boolean) : [...s.options];
            const widest = options.map(o => [o.text.trim(), ctx.measureText(o.text.trim()).width])
                                  .sort((a, b) => b[1] - a[1])[0];
            return widest && widest[1] > room
                ? [`${s.name}: '${widest[0]}' ${Math.round(widest[1])}/${Math.round(room)} px`] : [];
        });
    }""", [selector, chosen_only])


# ---- a throwaway PostgreSQL cluster (issue 19: the store on PostgreSQL) ---------------
# `make test` installs Debian's postgresql when initdb is missing. Tests that need it
# FAIL when it cannot start: a skipped engine would pass unnoticed.

import glob
import tempfile
import uuid


class NoPostgres(RuntimeError):
    pass


def _postgres_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    raise NoPostgres(f"PostgreSQL's {name} is missing: `make test` installs it (apt-get install postgresql)")


def _as_unprivileged(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: a root test run starts it as nobody."""
    return ["runuser", "-u", "nobody", "--", *cmd] if os.geteuid() == 0 else cmd


def start_postgres(durable: bool = False):
    """A fresh cluster in a temporary folder on a free port: (postgresql://…, stop).
    The tests' cluster skips fsync (it is thrown away); `make bench` asks for a
    ``durable`` one, fsync at every commit like the SQLite store's synchronous=FULL."""
    home = tempfile.mkdtemp(prefix="tablescribe-pg-")
    data, log = os.path.join(home, "data"), os.path.join(home, "log")
    if os.geteuid() == 0:
        shutil.chown(home, "nobody")
    os.chmod(home, 0o700)
    port = free_port()
    run = lambda cmd: subprocess.run(_as_unprivileged(cmd), capture_output=True, text=True)
    init = run([_postgres_bin("initdb"), "-D", data, "-U", "tablescribe", "--auth=trust",
                "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
    if init.returncode:
        raise NoPostgres(f"initdb failed: {init.stderr}")
    options = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={home}"
               " -c max_connections=300")
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    start = run([_postgres_bin("pg_ctl"), "-D", data, "-o", options, "-l", log, "-w", "-t", "30", "start"])
    if start.returncode:
        raise NoPostgres(f"PostgreSQL did not start: {start.stderr}"
                         + (open(log).read() if os.path.exists(log) else ""))

    def stop() -> None:
        run([_postgres_bin("pg_ctl"), "-D", data, "-m", "immediate", "stop"])
        shutil.rmtree(home, ignore_errors=True)

    return f"postgresql://tablescribe@127.0.0.1:{port}", stop


def create_database(server: str) -> str:
    """A fresh, empty database of the cluster at ``server``; its URL."""
    import psycopg
    name = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"{server}/{name}"


@pytest.fixture(scope="session")
def postgres_server():
    """postgresql://…/ of a fresh cluster on a free port, for this test session; the
    tests that need it FAIL (never skip) when it cannot start."""
    try:
        url, stop = start_postgres()
    except NoPostgres as err:
        pytest.fail(str(err))
    try:
        yield url
    finally:
        stop()


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty database of the session's cluster for one test."""
    url = create_database(postgres_server)
    yield url
    close_pools_of_apps_used()  # the apps' connections to it go with the test


_apps_used: set = set()


@pytest.fixture(autouse=True)
def _apps_of_the_test():
    """Every app a test pushed a context of (each owns its PostgreSQL pools: web/db.py)."""
    from flask import appcontext_pushed
    _apps_used.clear()

    def seen(app, **_):
        _apps_used.add(app)
    appcontext_pushed.connect(seen)
    yield
    appcontext_pushed.disconnect(seen)
    _apps_used.clear()


def close_pools_of_apps_used() -> None:
    for app in list(_apps_used):
        pools = app.extensions.get("pg_pools")
        if pools is not None:
            pools.close()
        idle = app.extensions.get("sqlite_idle")  # its SQLite connections kept between requests
        if idle is not None:
            idle.forget()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path, empty_store):
    """Where a test's store lives, once per engine (a file, or a PostgreSQL URL)."""
    if request.param == "sqlite":
        return empty_store(str(tmp_path / "t.db"))
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def app_on_each_engine(database):
    """The app on each engine: a test module runs on both with
    ``app = pytest.fixture(lambda app_on_each_engine: app_on_each_engine)``."""
    return app_on(database)


# ---- shared factories: a table of a kind with seated phones (issue 24, item 8) --------

class Table:
    """A game in the store and its seat tokens (``new_game`` hands out one per seat):
    ``play`` records a move as seat ``seat`` at the game's current sequence number,
    ``phone`` is a Flask client holding a seat, as a phone that joined would."""

    def __init__(self, app, db, created: dict):
        self.app, self.db = app, db
        self.id, self.tokens = created["id"], [s["token"] for s in created["seats"]]

    def play(self, type_: str, data: dict, seat: int = 0):
        from events.storage import store
        from events.application.table import record
        seq = store.last_seq(self.db, self.id)
        return record(self.db, self.id, type_, data, seq, seat, f"phone-{seat}", f"{self.id}-{seq + 1}")[0]

    def phone(self, seat: int = 0, lang: str = "en"):
        client = self.app.test_client()
        client.set_cookie(f"seat_{self.id}", self.tokens[seat])
        client.set_cookie("lang", lang)
        return client


def expected_seq(client, url: str) -> int:
    """The sequence number the table page at ``url`` shows its move form at."""
    return int(re.search(rb'id="expected-seq" value="(\d+)"', client.get(url).data).group(1))


def post_move(client, url: str, seq: int | None = None, **fields):
    """Post the move form of the table at ``url`` as a phone does: at ``seq`` (default: the
    number the page shows), with a submission id of its own for that number."""
    seq = expected_seq(client, url) if seq is None else seq
    return client.post(f"{url}/moves", data={"expected_seq": str(seq), "client_event_id": f"c{seq}", **fields})


@pytest.fixture
def seated(client):
    """The table page of a score pad (Anna, Béla) made through the new-game form by ``client``,
    which holds seat 0."""
    response = client.post("/games/new", data={"kind": "scorepad", "name": ["Anna", "Béla"],
                                                "colour": ["red", "blue"]})
    assert response.status_code == 302
    return response.headers["Location"]


@pytest.fixture
def table_of(app, db):
    """``table_of(kind="scorepad", names=("Anna", "Béla"), moves=(), options=None)``: a new
    game of ``kind`` with every seat's token, ``moves`` ([(type, data)] or [(seat, type, data)])
    recorded through the app's store; ``demo=True`` plays the game's own demo instead."""
    from events.application.table import new_game
    from scoring import GAMES

    def make(kind: str = "scorepad", names=("Anna", "Béla"), moves=(), options=None, demo: bool = False) -> Table:
        players = [{"name": n} for n in names]
        if demo:
            players, options, moves = GAMES[kind].demo()
        table = Table(app, db, new_game(db, kind, players, options or {}, "phone-0"))
        for move in moves:
            seat, type_, data = move if len(move) == 3 else (0, *move)
            table.play(type_, data, seat)
        return table

    return make


def api_game(base: str, kind: str = "scorepad", players=None, options=None, moves=()) -> dict:
    """A game made through the live server's API (the kind's demo players and options
    unless given) with ``moves`` ([(type, data)]) recorded from seat 0: the API's answer."""
    from scoring import GAMES
    if players is None:
        players, demo_options, _ = GAMES[kind].demo()
        options = demo_options if options is None else options
    created = api(base, "/api/games", {"kind": kind, "players": players, "options": options or {}})
    for seq, (type_, data) in enumerate(moves, start=1):
        api(base, f"/api/games/{created['id']}/events",
            {"type": type_, "data": data, "expected_seq": seq, "client_event_id": f"api-{seq}"},
            created["seats"][0]["token"])
    return created


def sit(phone, created: dict, seat: int = 0, host: str = LAN_NAME) -> None:
    """Seat a browser phone with the API's token (the join link is rate-limited per address),
    for the table at ``host``."""
    phone.context.add_cookies([{"name": f"seat_{created['id']}", "value": created["seats"][seat]["token"],
                                "domain": host, "path": f"/games/{created['id']}"}])


def fill_new_game(host, base: str, names=("Anna", "Béla"), kind: str | None = None) -> None:
    """The host's phone opens the new-game form in English (the score pad unless ``kind``)
    and names the players ``names``."""
    start = "/games/new" + (f"%3Fkind%3D{kind}" if kind else "")
    host.goto(f"{base}/lang/en?next={start}")
    for i, name in enumerate(names, start=1):
        host.get_by_label(f"Player {i}", exact=True).fill(name)


def start_game(host, base: str, names=("Anna", "Béla"), kind: str | None = None) -> str:
    """The host's phone starts a game through the new-game form (``fill_new_game``): the
    table's join link."""
    fill_new_game(host, base, names, kind)
    host.get_by_role("button", name="Start the game").click()
    return host.get_by_test_id("join-link").get_attribute("href")


def join(phone, base: str, join_url: str, name: str, lang: str = "en") -> None:
    """A phone opens the join link in ``lang`` and takes ``name``'s seat."""
    phone.goto(f"{base}/lang/{lang}?next=/")
    phone.goto(join_url)
    phone.get_by_role("button", name=name, exact=True).click()


@pytest.fixture
def phones_at_a_table(live_server, new_phone):
    """``phones_at_a_table(names=("Anna", "Béla"), guests={"Béla": "en"}, watchers=0, base=live_server)``:
    the host's phone (seat 0, English) starts a score pad through the new-game form, each guest
    joins on a phone of its own by the join link in its language, and ``watchers`` phones open
    the table unseated; once every phone's stream is open: [host, *guests, *watchers]."""
    from playwright.sync_api import expect

    def make(names=("Anna", "Béla"), guests=None, watchers: int = 0, base: str = live_server) -> list:
        host = new_phone()
        join_url = start_game(host, base, names)
        phones = [host]
        for name, lang in (guests if guests is not None else {"Béla": "en"}).items():
            phones.append(new_phone("hu-HU" if lang == "hu" else "en-GB"))
            join(phones[-1], base, join_url, name, lang)
            expect(phones[-1].get_by_test_id("pad-save")).to_be_visible()
        for _ in range(watchers):
            phones.append(new_phone())
            phones[-1].goto(f"{base}/lang/en?next=/")
            phones[-1].goto(host.url.split("?")[0])
        for phone in phones:  # every stream open before anyone records
            expect(phone.locator("html[data-live=open]")).to_have_count(1)
        return phones

    return make


@pytest.fixture
def seated_phone(live_server, new_phone):
    """``seated_phone(kind="scorepad", lang="en", seat=0, moves=0, game=None)``: a phone at
    390 × 844 holding ``seat`` of ``game`` (or of a new game of ``kind`` made through the API
    with its demo's first ``moves`` moves), on the table page in ``lang``: (page, game)."""
    from scoring import GAMES

    def make(kind: str = "scorepad", lang: str = "en", seat: int = 0, moves: int = 0, game: dict | None = None):
        created = game or api_game(live_server, kind, moves=GAMES[kind].demo()[2][:moves])
        page = new_phone()
        sit(page, created, seat)
        page.goto(f"{live_server}/lang/{lang}?next=/games/{created['id']}")
        return page, created

    return make


def replay_cli(path, at: int | None = None) -> dict:
    """What `flask --app app replay PATH [--at N]` prints, as a user runs it (its database
    a throwaway one, so the checkout's stays as it was)."""
    import tempfile
    flask = os.path.join(os.path.dirname(sys.executable), "flask")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "TABLESCRIBE_DATABASE": os.path.join(tmp, "replay.db")}
        done = subprocess.run([flask, "--app", "app", "replay", str(path), *(["--at", str(at)] if at else [])],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def commits_unsynced_then_syncs_once(seen: list[str]) -> bool:
    """Every COMMIT of ``seen`` (statements, ``store.trace``) made at synchronous=NORMAL, the WAL synced after the last."""
    commits = [i for i, s in enumerate(seen) if s == "COMMIT"]
    normal, full = seen.index("PRAGMA synchronous=NORMAL"), seen.index("PRAGMA synchronous=FULL")
    return bool(commits) and normal < commits[0] and commits[-1] < full < seen.index("PRAGMA wal_checkpoint(PASSIVE)")

