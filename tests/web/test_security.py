"""Who may do what (docs/reliability.md §5): unguessable tokens and links, spectators
and other tables cannot write, CSRF on every form post, HTML shown as text, sizes
limited, join attempts rate-limited, security headers, and the host's seat control."""
from __future__ import annotations

import base64
import hashlib
import re

import pytest

from app import create_app
from tests.conftest import csrf_of
from events.storage import store
from web.ratelimit import RateLimiter

XSS_NAME = '<script>alert("n")</script>'
XSS_NOTE = '<img src=x onerror=alert(1)>'


def _bits(token: str) -> int:
    return len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8


def _api_game(client, names=("Anna", "Béla", "Cili")):
    created = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": n} for n in names]})
    assert created.status_code == 201
    return created.json


def _seated(app, game, seat=0):
    phone = app.test_client()
    phone.set_cookie(f"seat_{game['id']}", game["seats"][seat]["token"])
    return phone


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

def test_seat_tokens_join_codes_and_hand_links_have_at_least_128_bits(app, client, db):
    games = [_api_game(client) for _ in range(60)]
    tokens = [s["token"] for g in games for s in g["seats"]]
    codes = [g["join_url"].rsplit("/", 1)[1] for g in games]
    from events.application import seats
    hand_codes = [seats.hand_over(db, games[0]["id"], 1) for _ in range(20)]
    for secret in tokens + codes + hand_codes:
        assert _bits(secret) >= 128
    assert len(set(tokens)) == len(tokens) and len(set(codes)) == len(codes)
    assert len(set(hand_codes)) == len(hand_codes)


def test_a_seat_cookie_is_sent_only_to_its_own_games_pages(client):
    """Scoped to /games/<id>: a phone that sat at hundreds of tables must not send every
    seat token with every request (past 8 KB of Cookie header gunicorn refuses it all)."""
    tables = []
    for _ in range(3):
        created = client.post("/games/new", data={"kind": "scorepad", "name": ["Anna", "Béla"]})
        game_id = created.headers["Location"].rsplit("/", 1)[1]
        [seat_cookie] = [c for c in created.headers.getlist("Set-Cookie") if c.startswith(f"seat_{game_id}=")]
        assert f"Path=/games/{game_id};" in seat_cookie and "HttpOnly" in seat_cookie
        tables.append(game_id)
    for game_id in tables:  # every table still knows its phone's seat
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        assert 'id="move-form"' in page and client.get(f"/games/{game_id}/qr.svg").status_code == 200


@pytest.mark.parametrize("target", ["//evil.example", "/\t/evil.example", "/\n/evil.example",
                                    "/\\evil.example", "https://evil.example", "/\x7f/evil.example"])
def test_the_language_switch_is_no_open_redirect(client, target):
    location = client.get("/lang/en", query_string={"next": target}).headers["Location"]
    assert location == "/"


def test_only_hashes_of_tokens_are_stored(app, client, db):
    game = _api_game(client)
    stored = {r[0] for r in db.execute("SELECT token_hash FROM seat_tokens WHERE game_id = ?", [game["id"]])}
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
    game = _api_game(client)
    code = game["join_url"].rsplit("/", 1)[1]
    assert client.get(f"/games/{game['id']}/join/{code}").status_code == 200
    wrong = code[:-1] + ("B" if code.endswith("A") else "A")
    assert client.get(f"/games/{game['id']}/join/{wrong}").status_code == 404
    assert (code.encode(), code.encode()) in calls and len(calls) == 2


@pytest.mark.parametrize("lang, words", [("en", "Ask the host to show the QR code"),
                                         ("hu", "mutassa meg újra a QR-kódot")])
def test_a_wrong_join_code_says_what_to_do_and_offers_to_watch(client, lang, words):
    game = _api_game(client)
    refused = client.get(f"/games/{game['id']}/join/notthecode?lang={lang}")
    page = refused.get_data(as_text=True)
    assert refused.status_code == 404 and words in page
    assert f'href="/games/{game["id"]}"' in page        # the table, read-only, one tap away


# ---- spectators and other tables ----------------------------------------------------------

def test_a_spectator_cannot_write_nor_see_the_join_code(app, client, db):
    game = _api_game(client)
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


def test_one_tables_token_cannot_touch_another_table(app, client, db):
    a, b = _api_game(client), _api_game(client)
    body = {"type": "game-ended", "data": {}, "expected_seq": 1, "client_event_id": "cross"}
    assert client.post(f"/api/games/{b['id']}/events", json=body,
                       headers={"X-Seat-Token": a["seats"][0]["token"]}).status_code == 403
    phone = app.test_client()
    phone.set_cookie(f"seat_{b['id']}", a["seats"][0]["token"])  # a's token under b's cookie
    assert phone.post(f"/games/{b['id']}/moves", data={"expected_seq": "1", "action": "game-ended"}).status_code == 403
    assert phone.get(f"/games/{b['id']}/seats").status_code == 403
    assert _count(db, b["id"]) == 1


# ---- CSRF on every form post --------------------------------------------------------------

@pytest.fixture
def csrf_app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "csrf", "DATABASE": str(tmp_path / "csrf.db")})


def test_every_form_post_needs_the_csrf_token_htmx_included(csrf_app):
    app = csrf_app
    api = app.test_client()
    game = _api_game(api)
    phone = _seated(app, game)
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
    game = _api_game(client, names=(XSS_NAME, "Béla"))
    token = game["seats"][0]["token"]
    for cid, data in (("a", {"seat": 0, "points": 3, "note": XSS_NOTE}),):
        assert client.post(f"/api/games/{game['id']}/events", headers={"X-Seat-Token": token}, json={
            "type": "points-recorded", "data": data, "expected_seq": 1, "client_event_id": cid}).status_code == 201
    phone = _seated(app, game)
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
    game = _api_game(client)
    token = {"X-Seat-Token": game["seats"][0]["token"]}
    url = f"/api/games/{game['id']}/events"
    huge = {"type": "points-recorded", "data": {"seat": 0, "points": 1, "note": "x" * 300_000},
            "expected_seq": 1, "client_event_id": "big"}
    assert client.post(url, json=huge, headers=token).status_code == 413
    phone = _seated(app, game)
    assert phone.post(f"/games/{game['id']}/moves", data={"note": "x" * 300_000}).status_code == 413
    long_note = {**huge, "data": {"seat": 0, "points": 1, "note": "x" * 201}}
    assert client.post(url, json=long_note, headers=token).status_code == 422
    long_id = {**huge, "data": {"seat": 0, "points": 1}, "client_event_id": "x" * 65}
    assert client.post(url, json=long_id, headers=token).status_code == 400
    assert client.post(url, json={**long_id, "client_event_id": "ok"},
                       headers={"X-Seat-Token": "x" * 5000}).status_code == 403
    assert client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "x" * 41}]}).status_code == 422
    assert _count(db, game["id"]) == 1


# ---- join attempts rate-limited -----------------------------------------------------------

def test_join_attempts_are_rate_limited_per_address(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "r", "DATABASE": str(tmp_path / "r.db"),
                      "WTF_CSRF_ENABLED": False, "RATE_LIMITS": {"join": (5, 60.0)}})
    client = app.test_client()
    game = _api_game(client)
    guesses = [client.get(f"/games/{game['id']}/join/guess{i}").status_code for i in range(7)]
    assert guesses == [404] * 5 + [429] * 2
    limited = client.get(game["join_url"].split("127.0.0.1", 1)[-1].split("localhost", 1)[-1])
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert client.get(f"/games/{game['id']}/hand/guess").status_code == 429  # hand-over links too
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.7"  # another phone on the LAN is not blocked
    assert other.get(f"/games/{game['id']}/join/guess").status_code == 404


def test_phones_joining_with_the_right_code_never_spend_the_budget(tmp_path):
    """Only wrong guesses count: a hall of phones behind one address (or a test run) joins
    table after table with the right codes and is never refused."""
    app = create_app({"TESTING": True, "SECRET_KEY": "r", "DATABASE": str(tmp_path / "r.db"),
                      "RATE_LIMITS": {"join": (3, 60.0)}})  # CSRF on, as in production
    client = app.test_client()
    for _ in range(4):
        game = _api_game(client)
        path = game["join_url"].split("127.0.0.1", 1)[-1].split("localhost", 1)[-1]
        pages = [client.get(path) for _ in range(3)]
        assert [page.status_code for page in pages] == [200] * 3
        joined = client.post(path, data={"seat": "1", "csrf_token": csrf_of(pages[-1].get_data(as_text=True))})
        assert joined.status_code == 302
    assert client.get(f"/games/{game['id']}/join/guess").status_code == 404  # guesses still count


def test_the_rate_limiter_forgets_old_windows_and_stays_bounded():
    now = [0.0]
    limiter = RateLimiter(3, 60, max_keys=100, clock=lambda: now[0])
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    now[0] = 61
    assert limiter.allow("a")
    for i in range(10_000):
        limiter.allow(f"10.{i // 256}.{i % 256}.1")
    assert len(limiter) == 100


# ---- headers, no inline script ------------------------------------------------------------

def test_security_headers_on_every_kind_of_response(app, client):
    game = _api_game(client)
    phone = _seated(app, game)
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
    game = _api_game(client)
    phone = _seated(app, game)
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


# ---- the host's seat control ----------------------------------------------------------------

def _join(app, game, seat):
    phone = app.test_client()
    url = game["join_url"].split("://", 1)[1].split("/", 1)[1]
    return phone, phone.post("/" + url, data={"seat": str(seat)})


def test_host_locks_a_seat_and_the_join_link_no_longer_opens_it(app, client):
    game = _api_game(client)
    host, guest = _seated(app, game, 0), _seated(app, game, 1)
    assert guest.post(f"/games/{game['id']}/seats/2/lock", data={"locked": "1"}).status_code == 403
    assert host.post(f"/games/{game['id']}/seats/2/lock", data={"locked": "1"}).status_code == 303
    page = app.test_client().get("/" + game["join_url"].split("://", 1)[1].split("/", 1)[1]).data.decode()
    assert 'value="2"' not in page and 'value="1"' in page
    _, refused = _join(app, game, 2)
    assert refused.status_code == 403
    _, joined = _join(app, game, 1)
    assert joined.status_code == 302
    assert host.post(f"/games/{game['id']}/seats/2/lock", data={"locked": "0"}).status_code == 303
    assert _join(app, game, 2)[1].status_code == 302


def test_a_lost_phone_is_replaced_and_the_game_goes_on(app, client, db):
    game = _api_game(client)
    host, lost = _seated(app, game, 0), _seated(app, game, 1)
    page = host.post(f"/games/{game['id']}/seats/1/hand").data.decode()
    link = re.search(r'data-testid="hand-link">([^<]+)<', page).group(1)
    path = "/" + link.split("://", 1)[1].split("/", 1)[1]
    assert _bits(path.rsplit("/", 1)[1]) >= 128
    # The lost phone's token stops working at once, on the forms and on the API.
    assert lost.post(f"/games/{game['id']}/moves", data={
        "expected_seq": "1", "action": "points-recorded", "seat": "1", "points": "2"}).status_code == 403
    assert client.post(f"/api/games/{game['id']}/events", headers={"X-Seat-Token": game["seats"][1]["token"]},
                       json={"type": "game-ended", "data": {}, "expected_seq": 1,
                             "client_event_id": "z"}).status_code == 403
    new_phone = app.test_client()
    shown = new_phone.get(path)  # GET names the seat and uses nothing up
    assert shown.status_code == 200 and 'data-testid="hand-player">Béla<' in shown.data.decode()
    assert new_phone.post(path).status_code == 303
    assert new_phone.post(f"/games/{game['id']}/moves", data={
        "expected_seq": "1", "action": "points-recorded", "seat": "1", "points": "2"}).status_code == 303
    assert _count(db, game["id"]) == 2
    assert app.test_client().post(path).status_code == 404  # the link works once
    assert app.test_client().get(path).status_code == 404
    # A newer hand-over voids older unused links.
    first = re.search(r'data-testid="hand-link">([^<]+)<',
                      host.post(f"/games/{game['id']}/seats/2/hand").data.decode()).group(1)
    host.post(f"/games/{game['id']}/seats/2/hand")
    assert app.test_client().post("/" + first.split("://", 1)[1].split("/", 1)[1]).status_code == 404


def test_the_server_can_hand_the_hosts_own_seat_to_a_new_phone(app, client, db):
    game = _api_game(client)
    with app.app_context():
        result = app.test_cli_runner().invoke(args=["hand-seat", game["id"], "0"])
    assert result.exit_code == 0, result.output
    path = "/" + result.output.strip().split("://", 1)[-1].split("/", 1)[-1] if "://" in result.output \
        else result.output.strip()
    old_host = _seated(app, game, 0)
    assert old_host.get(f"/games/{game['id']}/seats").status_code == 403
    new_host = app.test_client()
    assert new_host.post(path).status_code == 303
    assert new_host.get(f"/games/{game['id']}/seats").status_code == 200
    with app.app_context():
        assert app.test_cli_runner().invoke(args=["hand-seat", game["id"], "9"]).exit_code != 0
