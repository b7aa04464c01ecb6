"""What the server logs (issue 35 §6, §12; docs/reliability.md "Logs"): one line per failed
or refused request (status, route, request id, reason), every unexpected exception with its
traceback, and never a secret — seat tokens, the organiser's link, join codes, CSRF tokens —
neither in the app's log nor in gunicorn's access log as `make run` writes it."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from app import create_app
from events.storage import store
from tests.conftest import app_on, become_organiser, csrf_of, free_port, new_pad, phones_with_forms, ROOT, stop_server


@pytest.fixture
def logged(database, caplog):
    app = app_on(database, WTF_CSRF_ENABLED=True, PROPAGATE_EXCEPTIONS=False)

    @app.get("/boom/<code>")
    def boom(code):  # an exception no handler expects, on a path holding a code
        raise ZeroDivisionError("no table here")

    caplog.set_level(logging.INFO, logger="tablescribe")
    return app, caplog


def _lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "tablescribe"]


def test_a_refused_request_is_one_line_with_status_route_id_and_reason(logged):
    app, caplog = logged
    phone, = phones_with_forms(app, 1)
    game = new_pad(phone)
    answer = phone.post(f"/games/{game}/moves", data={"csrf_token": phone.token, "type": "points-recorded",
                                                      "seat": "7", "points": "5", "expected_seq": "1",
                                                      "client_event_id": "x1"})
    assert answer.status_code == 422
    lines = [r.getMessage() for r in _lines(caplog)]
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith("422 POST /games/<game_id>/moves ")
    assert f"[{answer.headers['X-Request-Id']}]" in line
    assert len(line.split("] ", 1)[1]) > 5  # the reason, in English


def test_an_api_refusal_and_a_404_are_logged_with_their_reasons(logged):
    app, caplog = logged
    client = app.test_client()
    assert client.get("/api/games/nosuchgame/state").status_code == 404
    assert client.get("/no/such/page").status_code == 404
    lines = [r.getMessage() for r in _lines(caplog)]
    assert lines[0].startswith("404 GET /api/games/<game_id>/state ") and "no such game" in lines[0]
    assert lines[1].startswith("404 GET /no/such/page (no route) ") and "Not Found" in lines[1]


def test_an_unexpected_exception_is_logged_with_its_traceback_and_no_secret(logged):
    app, caplog = logged
    answer = app.test_client().get("/boom/s3cr3t-c0de")
    assert answer.status_code == 500
    errors = [r for r in _lines(caplog) if r.levelno >= logging.ERROR]
    assert any(r.exc_info and "ZeroDivisionError" in (r.exc_text or "") for r in errors)
    assert any(answer.headers["X-Request-Id"] in r.getMessage() for r in errors)
    assert "s3cr3t-c0de" not in caplog.text


def test_no_secret_reaches_the_apps_log(logged):
    app, caplog = logged
    organiser, host, stranger = phones_with_forms(app, 3)
    become_organiser(app, organiser)
    game = new_pad(host)
    db = store.connect(app.config["DATABASE"])
    code = store.game_row(db, game)["join_code"]
    db.conn.close()
    with app.test_request_context():
        from web import organiser as organiser_module
        secret = organiser_module.secret()
    stranger.get(f"/games/{game}/join/{code}")
    stranger.post(f"/games/{game}/join/{code}", data={"csrf_token": stranger.token, "seat": "0"})  # the host's: 403
    stranger.post(f"/games/{game}/join/{code}", data={"csrf_token": stranger.token, "seat": "9"})  # 422
    stranger.get(f"/games/{game}/join/{code}x")  # a wrong code
    stranger.get(f"/organiser/{secret}x")
    stranger.get(f"/lang/en?next=/games/{game}/join/{code}")
    stranger.get(f"/games/{game}/hand/{code}")
    stranger.post("/people", data={"csrf_token": stranger.token, "name": "Mallory"})  # not the organiser: 403
    seat_token = host.get_cookie(f"seat_{game}", path=f"/games/{game}").value
    app.test_client().get(f"/api/games/{game}/state", headers={"Authorization": f"Bearer {seat_token}x"})
    app.test_client().get(f"/boom/{code}?token={seat_token}")
    written = caplog.text + "".join(r.exc_text or "" for r in caplog.records)
    assert len(_lines(caplog)) >= 6
    for secret_text in (code, secret, seat_token, organiser.token, stranger.token):
        assert secret_text not in written


def test_make_runs_access_log_holds_no_secret(tmp_path):
    """gunicorn as `make run` starts it (gunicorn.conf.py, --access-logfile), its access
    and error logs in files: a join link, the organiser's link and a hand-over link opened."""
    database = str(tmp_path / "run.db")
    app = create_app({"TESTING": True, "DATABASE": database})  # not app_on: the instance's secret key, as the server's
    host, = phones_with_forms(app, 1)
    game = new_pad(host)
    db = store.connect(database)
    code = store.game_row(db, game)["join_code"]
    db.conn.close()
    with app.test_request_context():
        from web import organiser as organiser_module
        secret = organiser_module.secret()
    port, access, errors = free_port(), tmp_path / "access.log", tmp_path / "error.log"
    server = subprocess.Popen(
        [os.path.join(os.path.dirname(sys.executable), "gunicorn"), "-c", "gunicorn.conf.py", "--bind",
         f"127.0.0.1:{port}", "--workers", "1", "--access-logfile", str(access), "--error-logfile", str(errors),
         "app:create_app()"], cwd=ROOT, env={**os.environ, "TABLESCRIBE_DATABASE": database},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for(base, server)
        for path in (f"/games/{game}/join/{code}", f"/organiser/{secret}", f"/games/{game}/hand/{code}",
                     f"/lang/en?next=%2Fgames%2F{game}%2Fjoin%2F{code}"):
            try:
                urllib.request.urlopen(urllib.request.Request(base + path, headers={"Referer": base + path}), timeout=10)
            except urllib.error.HTTPError:
                pass
    finally:
        stop_server(server)
    logged = access.read_text() + errors.read_text()
    assert f"/games/{game}/join/" in logged  # the requests were logged
    for secret_text in (code, secret):
        assert secret_text not in logged


def _wait_for(base: str, server) -> None:
    import time
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            return
        except OSError:
            assert server.poll() is None, "the server ended"
            time.sleep(0.1)
    raise AssertionError("the server did not start")
