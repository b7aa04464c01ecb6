"""Who may do what (docs/reliability.md §5): unguessable tokens and links, spectators
and other tables cannot write, CSRF on every form post, HTML shown as text, sizes
limited, security headers (join attempts: tests/web/test_ratelimit.py; the host's seat
control: tests/web/test_seats.py)."""
from __future__ import annotations

import hashlib
import re

import pytest

from tests.conftest import run_sql, app_on, bits_of, csrf_of, game_by_api, holding_seat
from events.storage import store

XSS_NAME = '<script>alert("n")</script>'
XSS_NOTE = '<img src=x onerror=alert(1)>'


def _count(db, game_id=None) -> int:
    if game_id is None:
        return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    return store.last_seq(db, game_id)


def _form_routes(app):
    return sorted(r.rule for r in app.url_map.iter_rules()
                  if "POST" in r.methods and not r.rule.startswith("/api/"))


def _fill(rule: str, game: dict, code: str = "x") -> str:
    values = {"game_id": game["id"], "code": code, "kind": "scorepad"}
    return re.sub(r"<(?:[a-z]+:)?(\w+)>", lambda m: values.get(m.group(1), "2"), rule)


# ---- unguessable, constant time, stored hashed -----------------------------------------

def test_seat_tokens_join_codes_and_hand_links_have_at_least_128bits_of(app, client, db):
    games = [game_by_api(client) for _ in range(60)]
    tokens = [s["token"] for g in games for s in g["seats"]]
    codes = [g["join_url"].rsplit("/", 1)[1] for g in games]
    from events.application import seats
    hand_codes = [seats.hand_over(db, games[0]["id"], 1) for _ in range(20)]
    for secret in tokens + codes + hand_codes:
        assert bits_of(secret) >= 128
    assert len(set(tokens)) == len(tokens) and len(set(codes)) == len(codes)
    assert len(set(hand_codes)) == len(hand_codes)


@pytest.mark.parametrize("target", ["//evil.example", "/\t/evil.example", "/\n/evil.example",
                                    "/\\evil.example", "https://evil.example", "/\x7f/evil.example"])
def test_the_language_switch_is_no_open_redirect(client, target):
    location = client.get("/lang/en", query_string={"next": target}).headers["Location"]
    assert location == "/"


def test_only_hashes_of_tokens_are_stored(app, client, db):
    game = game_by_api(client)
    stored = {r[0] for r in run_sql(db, "SELECT token_hash FROM seat_tokens WHERE game_id = :id", id=game["id"])}
    assert stored == {hashlib.sha256(s["token"].encode()).hexdigest() for s in game["seats"]}
    raw = open(app.config["DATABASE"], "rb").read()
    wal = app.config["DATABASE"] + "-wal"
    import os
    raw += open(wal, "rb").read() if os.path.exists(wal) else b""
    assert not any(s["token"].encode() in raw for s in game["seats"])


def test_join_codes_are_compared_in_constant_time(app, client, monkeypatch):
    import secrets as secrets_module
    calls = []
    real = secrets_module.compare_digest
    monkeypatch.setattr(secrets_module, "compare_digest", lambda a, b: calls.append((a, b)) or real(a, b))
    game = game_by_api(client)
    code = game["join_url"].rsplit("/", 1)[1]
    assert client.get(f"/games/{game['id']}/join/{code}").status_code == 200
    wrong = code[:-1] + ("B" if code.endswith("A") else "A")
    assert client.get(f"/games/{game['id']}/join/{wrong}").status_code == 404
    assert (code.encode(), code.encode()) in calls and len(calls) == 2


@pytest.mark.parametrize("lang, words", [("en", "Ask the host to show the QR code"),
                                         ("hu", "mutassa meg újra a QR-kódot")])
def test_a_wrong_join_code_says_what_to_do_and_offers_to_watch(client, lang, words):
    game = game_by_api(client)
    refused = client.get(f"/games/{game['id']}/join/notthecode?lang={lang}")
    page = refused.get_data(as_text=True)
    assert refused.status_code == 404 and words in page
    assert f'href="/games/{game["id"]}"' in page        # the table, read-only, one tap away


# ---- spectators and other tables ----------------------------------------------------------

def test_a_spectator_cannot_write_nor_see_the_join_code(app, client, db):
    game = game_by_api(client)
    code = game["join_url"].rsplit("/", 1)[1]
    stranger = app.test_client()
    page = stranger.get(f"/games/{game['id']}").data.decode()
    assert code not in page and 'id="move-form"' not in page
    assert stranger.get(f"/games/{game['id']}/qr.svg").status_code == 403
    assert stranger.get(f"/games/{game['id']}/seats").status_code == 403
    before = _count(db, game["id"])
    for rule in _form_routes(app):
        if rule in ("/games/new", "/import") or "/join/" in rule or "/boards" in rule \
                or rule.startswith("/people"):
            continue  # these make a new game / seat by a code, or change the server-wide
            # roster (docs/people.md §4: open on the LAN, every change logged and revertible)
        response = stranger.post(_fill(rule, game), data={"expected_seq": "1", "seat": "0",
                                                          "points": "5", "reason": "r", "comment": "c",
                                                          "locked": "1", "outcome": "voided"})
        assert response.status_code in (403, 404, 405), (rule, response.status_code)
    assert stranger.post(f"/api/games/{game['id']}/events", json={
        "type": "game-ended", "data": {}, "expected_seq": 1, "client_event_id": "x"}).status_code == 401
    assert _count(db, game["id"]) == before


# ---- CSRF on every form post --------------------------------------------------------------

@pytest.fixture
def csrf_app(tmp_path):
    return app_on(str(tmp_path / "csrf.db"), WTF_CSRF_ENABLED=True)


def test_every_form_post_needs_the_csrf_token_htmx_included(csrf_app):
    app = csrf_app
    api = app.test_client()
    game = game_by_api(api)
    phone = holding_seat(app, game)
    db = store.connect(app.config["DATABASE"])
    routes = _form_routes(app)
    assert len(routes) >= 8
    for rule in routes:
        for headers in ({}, {"HX-Request": "true"}):
            response = phone.post(_fill(rule, game, game["join_url"].rsplit("/", 1)[1]),
                                  data={"expected_seq": "1", "action": "game-ended", "seat": "1"},
                                  headers=headers)
            assert response.status_code == 400, (rule, headers, response.status_code)
    assert _count(db, game["id"]) == 1 and _count(db) == 1
    # With the page's token, as htmx sends it in the X-CSRFToken header, the post works.
    page = phone.get(f"/games/{game['id']}").data.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    response = phone.post(f"/games/{game['id']}/moves", headers={"HX-Request": "true", "X-CSRFToken": token},
                          data={"expected_seq": "1", "action": "points-recorded", "seat": "1", "points": "4"})
    assert response.status_code == 200 and _count(db, game["id"]) == 2
    response = phone.post(f"/games/{game['id']}/moves", data={
        "csrf_token": csrf_of(page), "expected_seq": "2", "action": "game-ended"})
    assert response.status_code == 303 and _count(db, game["id"]) == 3
    db.conn.close()


# ---- HTML shown as text -------------------------------------------------------------------

def test_names_and_notes_with_html_are_shown_as_text(app, client, db):
    game = game_by_api(client, names=(XSS_NAME, "Béla"))
    token = game["seats"][0]["token"]
    for cid, data in (("a", {"seat": 0, "points": 3, "note": XSS_NOTE}),):
        assert client.post(f"/api/games/{game['id']}/events", headers={"X-Seat-Token": token}, json={
            "type": "points-recorded", "data": data, "expected_seq": 1, "client_event_id": cid}).status_code == 201
    phone = holding_seat(app, game)
    pages = [r.rule for r in app.url_map.iter_rules() if "GET" in r.methods and "<game_id>" in r.rule
             and set(r.arguments) == {"game_id"} and not r.rule.endswith("/stream")]  # never ends
    shown = 0
    for rule in pages + ["/"]:
        response = phone.get(_fill(rule, game))
        if response.mimetype != "text/html":  # e.g. the live stream, which never ends by itself
            response.close()
            continue
        body = response.data.decode(errors="replace")
        assert XSS_NAME not in body and XSS_NOTE not in body, rule
        shown += "&lt;script&gt;" in body
    assert shown >= 2  # the name really is on the pages, escaped


# ---- sizes ------------------------------------------------------------------------------

def test_request_body_and_field_sizes_are_limited(app, client, db):
    game = game_by_api(client)
    token = {"X-Seat-Token": game["seats"][0]["token"]}
    url = f"/api/games/{game['id']}/events"
    huge = {"type": "points-recorded", "data": {"seat": 0, "points": 1, "note": "x" * 300_000},
            "expected_seq": 1, "client_event_id": "big"}
    assert client.post(url, json=huge, headers=token).status_code == 413
    phone = holding_seat(app, game)
    assert phone.post(f"/games/{game['id']}/moves", data={"note": "x" * 300_000}).status_code == 413
    long_note = {**huge, "data": {"seat": 0, "points": 1, "note": "x" * 201}}
    assert client.post(url, json=long_note, headers=token).status_code == 422
    long_id = {**huge, "data": {"seat": 0, "points": 1}, "client_event_id": "x" * 65}
    assert client.post(url, json=long_id, headers=token).status_code == 400
    assert client.post(url, json={**long_id, "client_event_id": "ok"},
                       headers={"X-Seat-Token": "x" * 5000}).status_code == 403
    assert client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "x" * 41}]}).status_code == 422
    assert _count(db, game["id"]) == 1


# ---- headers, no inline script ------------------------------------------------------------

def test_security_headers_on_every_kind_of_response(app, client):
    game = game_by_api(client)
    phone = holding_seat(app, game)
    urls = ["/", "/games/new", f"/games/{game['id']}", f"/games/{game['id']}/qr.svg",
            f"/api/games/{game['id']}/state", "/api/games/nope/state", "/nope", "/static/app.css",
            f"/games/{game['id']}/seats"]
    for url in urls:
        response = phone.get(url)
        csp = response.headers.get("Content-Security-Policy", "")
        script = re.search(r"script-src ([^;]+)", csp).group(1)
        assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, url
        assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp, url
        assert response.headers["X-Content-Type-Options"] == "nosniff", url
        assert response.headers["X-Frame-Options"] == "DENY", url


def test_no_page_has_inline_script_or_event_handlers(app, client):
    game = game_by_api(client)
    phone = holding_seat(app, game)
    pages = [_fill(r.rule, game) for r in app.url_map.iter_rules()
             if "GET" in r.methods and set(r.arguments) <= {"game_id"} and not r.rule.startswith("/api/")]
    checked = 0
    for url in pages:
        response = phone.get(url)
        if response.mimetype != "text/html":
            continue
        html = response.data.decode()
        checked += 1
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert not re.search(r"\son[a-z]+\s*=", html, re.I), url
        assert not re.search(r"\sstyle\s*=", html, re.I), url
        assert "javascript:" not in html.lower(), url
    assert checked >= 4
