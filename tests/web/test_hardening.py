"""Hardening (docs/reliability.md §8): no request can break a page, take the host's seat or
pass off a changed record. One test (or a few) per finding; the form posts run with
CSRF protection on, as the app runs."""
from __future__ import annotations

import copy
import io
import json
import re
import sqlite3

import pytest

from tests.conftest import app_on, become_organiser, csrf_of, run_sql, tamper
from events.application.export import export_game
from events.application.table import new_game, record
from events.domain.hashing import chain_hash
from events.storage import store

ODD_TIME = "9999-12-31T23:59:59-14:00"


@pytest.fixture
def app_config():
    """The app as it runs: CSRF protection on (conftest's ``app``, ``client`` and ``db``)."""
    return {"WTF_CSRF_ENABLED": True}


def _csrf(client, path="/games/new?kind=scorepad") -> str:
    return csrf_of(client.get(path).get_data(as_text=True))


def _played(db, moves=3) -> dict:
    game = new_game(db, "scorepad", [{"name": "Anna"}, {"name": "Béla"}, {"name": "Cili"}], {}, "dev")
    for i in range(1, moves + 1):
        record(db, game["id"], "points-recorded", {"seat": i % 3, "points": i}, i, 0, "dev", f"m{i}")
    return game


def _rechained(doc: dict) -> dict:
    prev = ""
    for env in doc["events"]:
        env["hash"] = prev = chain_hash(prev, env)
    return doc


def _import(client, doc_or_bytes) -> object:
    raw = doc_or_bytes if isinstance(doc_or_bytes, bytes) else json.dumps(doc_or_bytes).encode()
    return client.post("/import", data={"csrf_token": _csrf(client, "/import"),
                                        "file": (io.BytesIO(raw), "game.json")},
                       content_type="multipart/form-data")


def _events(db) -> int:
    return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def _pages(game_id: str) -> list[str]:
    return ["/", f"/games/{game_id}", f"/games/{game_id}/timeline", f"/games/{game_id}/replay",
            f"/games/{game_id}/final", f"/games/{game_id}/export.json", f"/api/games/{game_id}/state"]


# ---- 1. every stored field is validated; nothing stored breaks a page ------------------

@pytest.mark.parametrize("field, value", [("recorded_at", ODD_TIME), ("recorded_at", "yesterday"),
                                          ("recorded_at", "1999-01-01T00:00:00+00:00"),
                                          ("seat", 10**30), ("version", 10**30), ("seat", -1)])
def test_an_import_with_an_out_of_range_field_is_refused_with_a_reason(client, db, field, value):
    doc = export_game(db, _played(db)["id"])
    doc["events"][0][field] = value
    before = _events(db)
    response = _import(client, _rechained(doc))
    assert response.status_code == 422 and 'role="alert"' in response.get_data(as_text=True)
    assert field in response.get_data(as_text=True)
    assert _events(db) == before
    assert client.get("/").status_code == 200


def test_a_stored_time_the_clock_cannot_show_never_breaks_a_page(client, db):
    """Whatever got stored (by an older version, by hand): every page still renders."""
    game = _played(db)
    run_sql(db, "UPDATE games SET updated_at = :at WHERE id = :id", at=ODD_TIME, id=game["id"])
    db.execute("DROP TRIGGER events_no_update")
    run_sql(db, "UPDATE events SET recorded_at = :at WHERE game_id = :id", at=ODD_TIME, id=game["id"])
    for path in _pages(game["id"]):
        assert client.get(path).status_code == 200, path


# ---- 2. the host's seat -------------------------------------------------------------------

def _join_code(game: dict) -> str:
    return game["join_code"]


def test_the_join_page_never_offers_the_hosts_seat(app, client, db):
    game = _played(db)
    page = client.get(f"/games/{game['id']}/join/{game['join_code']}").get_data(as_text=True)
    assert 'name="seat" value="0"' not in page and 'name="seat" value="1"' in page
    guest = app.test_client()
    response = guest.post(f"/games/{game['id']}/join/{game['join_code']}",
                          data={"seat": "0", "csrf_token": _csrf(guest)})
    assert response.status_code == 403 and "seat_" not in response.headers.get("Set-Cookie", "")
    assert guest.get(f"/games/{game['id']}/seats").status_code == 403  # no host powers either


def test_a_handed_over_seat_stays_with_the_new_phone(app, db):
    game = _played(db)
    host, lost, new = app.test_client(), app.test_client(), app.test_client()
    host.set_cookie(f"seat_{game['id']}", game["seats"][0]["token"])
    lost.set_cookie(f"seat_{game['id']}", game["seats"][2]["token"])
    handed = host.post(f"/games/{game['id']}/seats/2/hand", data={"csrf_token": _csrf(host)})
    link = re.search(r'data-testid="hand-link">[^<]*(/games/[^<]+)<', handed.get_data(as_text=True)).group(1)
    assert new.post(link, data={"csrf_token": _csrf(new)}).status_code == 303
    rejoin = lost.post(f"/games/{game['id']}/join/{game['join_code']}", data={"seat": "2", "csrf_token": _csrf(lost)})
    assert rejoin.status_code == 403
    assert store.seat_of_token_hash(db, game["id"], "x") is None
    assert run_sql(db, "SELECT COUNT(*) FROM seat_tokens WHERE game_id = :id AND seat = 2",
                   id=game["id"]).fetchone()[0] == 1  # the new phone's only


# ---- 3. lone surrogates, huge digit strings ----------------------------------------------

SURROGATE = b'"\\ud800"'


def test_lone_surrogates_in_api_bodies_are_400_with_a_reason(client, db):
    game = _played(db)
    token = game["seats"][0]["token"]
    bodies = [("/api/games", b'{"kind": "scorepad", "players": [{"name": ' + SURROGATE + b'}, {"name": "B"}]}', {}),
              ("/api/games", b'{"kind": "scorepad", "players": [{"name": "A", "colour": ' + SURROGATE + b'}, {"name": "B"}]}', {}),
              (f"/api/games/{game['id']}/events", b'{"type": "points-recorded", "data": {"seat": 0, "points": 1, '
               b'"note": ' + SURROGATE + b'}, "expected_seq": 4, "client_event_id": "n1"}', {"X-Seat-Token": token}),
              (f"/api/games/{game['id']}/events", b'{"type": "points-recorded", "data": {"seat": 0, "points": 1}, '
               b'"expected_seq": 4, "client_event_id": ' + SURROGATE + b'}', {"X-Seat-Token": token})]
    for path, body, headers in bodies:
        before = _events(db)
        response = client.post(path, data=body, headers={**headers, "Content-Type": "application/json"},
                               query_string={"lang": "en"})
        assert response.status_code == 400 and "not valid Unicode" in response.json["error"], (path, body)
        assert _events(db) == before


@pytest.mark.parametrize("where", ["device", "client_event_id", "name"])
def test_lone_surrogates_in_an_import_are_422_with_a_reason(client, db, where):
    doc = export_game(db, _played(db)["id"])
    if where == "name":
        doc["events"][0]["data"]["players"][0]["name"] = "\ud800"
    else:
        doc["events"][1][where] = "\ud800"
    raw = json.dumps(_rechained_surrogates(doc)).encode()  # json.dumps writes the escape
    before = _events(db)
    response = _import(client, raw)
    assert response.status_code == 422 and "Unicode" in response.get_data(as_text=True)
    assert _events(db) == before


def _rechained_surrogates(doc: dict) -> dict:
    """Hashes cannot be computed over a lone surrogate: the forger leaves them as they are."""
    return doc


def test_verify_names_a_lone_surrogate_instead_of_a_traceback(app, db, tmp_path):
    doc = export_game(db, _played(db)["id"])
    doc["events"][1]["device"] = "\ud800"
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(doc))
    result = app.test_cli_runner().invoke(args=["verify", str(path)])
    assert result.exit_code == 1 and "not valid Unicode" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("kind, profile", [("han", "han-side1"), ("maharaja", "maharaja")])
def test_lone_surrogates_in_a_board_import_are_422(app, client, kind, profile):
    become_organiser(app, client)
    exported = client.get(f"/boards/{kind}/{profile}/1.json")
    if exported.status_code != 200:
        pytest.skip(f"{kind} ships no profile {profile}")
    text = exported.get_data(as_text=True)
    odd = re.sub(r'("name(?:_hu|_en)?": )"[^"]*"', r'\1"\\ud800"', text, count=1)
    assert odd != text
    response = client.post(f"/boards/{kind}/import", data={"csrf_token": _csrf(client, f"/boards/{kind}/"),
                                                          "document": odd, "profile_id": "odd"})
    assert response.status_code == 422 and "Unicode" in response.get_data(as_text=True)


@pytest.mark.parametrize("field", ["area_0_sites", "roads"])
def test_huge_digit_strings_in_the_board_editor_are_refused_not_500(app, client, field):
    become_organiser(app, client)
    response = client.post("/boards/han/han-side1/", data={"csrf_token": _csrf(client, "/boards/han/"),
                                                          field: "9" * 5000})
    assert 400 <= response.status_code < 500


@pytest.mark.parametrize("field", ["points", "expected_seq", "seat"])
def test_huge_digit_strings_in_a_move_form_are_refused_not_500(app, db, field):
    game = _played(db)
    phone = app.test_client()
    phone.set_cookie(f"seat_{game['id']}", game["seats"][0]["token"])
    form = {"csrf_token": _csrf(phone), "action": "points-recorded", "seat": "0", "sign": "+", "points": "5",
            "expected_seq": "4", "client_event_id": "huge", field: "9" * 5000}
    before = _events(db)
    response = phone.post(f"/games/{game['id']}/moves", data=form)
    assert 400 <= response.status_code < 500 and _events(db) == before


def test_huge_digit_strings_in_the_api_state_query_are_400(client, db):
    game = _played(db)
    assert client.get(f"/api/games/{game['id']}/state", query_string={"at": "9" * 5000}).status_code == 400


# ---- 4. the import limit with CSRF on -------------------------------------------------------

def test_a_10000_event_game_imports_with_csrf_on(client, db):
    from bench.common import grow
    _, events, _ = grow("scorepad", 10_000)
    doc = {"format": "tablescribe-export", "format_version": 1,
           "game": {"id": "big", "kind": "scorepad", "exported_at": events[-1].recorded_at},
           "events": [e.envelope() for e in events]}
    raw = json.dumps(doc, ensure_ascii=False, indent=1).encode()
    assert len(raw) > 2 * 2**20  # far past the 256 KiB that CSRF's form read allowed
    response = _import(client, raw)
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    assert _events(db) == 10_000


# ---- 5. cut-off and changed records ---------------------------------------------------------

def test_verify_db_notices_events_cut_off_the_end(app, db):
    game = _played(db)
    assert app.test_cli_runner().invoke(args=["verify-db"]).exit_code == 0
    tamper(db, "DELETE FROM events WHERE game_id = ? AND seq = 4", [game["id"]])
    result = app.test_cli_runner().invoke(args=["verify-db"])
    assert result.exit_code == 1 and f"game {game['id']}: event 4" in result.output


@pytest.mark.parametrize("change", ["payload", "cut"])
def test_every_page_and_export_of_a_changed_record_says_it_does_not_verify(app, client, db, change):
    game = _played(db)
    if change == "payload":
        tamper(db, "UPDATE events SET data = ? WHERE game_id = ? AND seq = 2",
                [json.dumps({"seat": 1, "points": 99}), game["id"]])
        first_bad = 2
    else:
        tamper(db, "DELETE FROM events WHERE game_id = ? AND seq >= 3", [game["id"]])
        first_bad = 3
    app.extensions["tablescribe"].forget()  # a server started after the change
    for path in _pages(game["id"])[1:]:
        response = client.get(path, headers={"Accept-Language": "en"})
        assert f"does not verify from event {first_bad}" in response.get_data(as_text=True), path
    assert client.get(f"/api/games/{game['id']}/events").json["unverified"]["from"] == first_bad


def test_an_intact_record_carries_no_warning(client, db):
    game = _played(db)
    for path in _pages(game["id"]):
        assert "does not verify" not in client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "unverified" not in client.get(f"/games/{game['id']}/export.json").json


# ---- 6. a reused client_event_id --------------------------------------------------------------

def test_a_reused_client_event_id_with_another_move_is_409(client, db):
    game = _played(db)
    url, headers = f"/api/games/{game['id']}/events", {"X-Seat-Token": game["seats"][0]["token"]}
    move = {"type": "points-recorded", "data": {"seat": 0, "points": 5}, "expected_seq": 4, "client_event_id": "k"}
    first = client.post(url, json=move, headers=headers)
    assert first.status_code == 201
    assert client.post(url, json=move, headers=headers).json == first.json  # the same move: idempotent
    for other in ({"data": {"seat": 0, "points": 6}}, {"type": "round-closed", "data": {}}):
        reused = client.post(url, json={**move, **other}, headers=headers, query_string={"lang": "en"})
        assert reused.status_code == 409 and reused.json["seq"] == 5 and reused.json["problems"]
    other_seat = {"X-Seat-Token": game["seats"][1]["token"]}
    assert client.post(url, json=move, headers=other_seat).status_code == 409
    assert store.last_seq(db, game["id"]) == 5


def test_a_reused_form_id_with_another_move_is_409(app, db):
    game = _played(db)
    phone = app.test_client()
    phone.set_cookie(f"seat_{game['id']}", game["seats"][0]["token"])
    form = {"csrf_token": _csrf(phone), "action": "points-recorded", "seat": "0", "sign": "+", "points": "5",
            "expected_seq": "4", "client_event_id": "f1"}
    assert phone.post(f"/games/{game['id']}/moves", data=form).status_code == 303
    assert phone.post(f"/games/{game['id']}/moves", data=form).status_code == 303  # a double tap
    refused = phone.post(f"/games/{game['id']}/moves", data={**form, "points": "7", "expected_seq": "5"})
    assert refused.status_code == 409 and store.last_seq(db, game["id"]) == 5


def test_form_ids_undo_included_are_unpredictable(app, db):
    game = _played(db)
    phone = app.test_client()
    phone.set_cookie(f"seat_{game['id']}", game["seats"][0]["token"])
    ids = []
    for _ in range(2):
        page = phone.get(f"/games/{game['id']}").get_data(as_text=True)
        ids.append(re.findall(r'name="client_event_id" value="([^"]+)"', page))
    assert ids[0] and all(a != b for a, b in zip(*ids))
    assert not any(game["id"] in value or value.startswith(("undo-", "void-")) for value in ids[0])


# ---- 8. colours, format versions, JSON errors ------------------------------------------------

@pytest.mark.parametrize("colour", ["red hidden", "x" * 20_000, "RED", "rgb(0,0,0)"])
def test_only_the_palettes_colours_are_taken(client, db, colour):
    response = client.post("/api/games", json={"kind": "scorepad", "players": [
        {"name": "A", "colour": colour}, {"name": "B", "colour": "blue"}]})
    assert response.status_code == 422 and _events(db) == 0


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_format_version_is_an_integer(client, db, version):
    doc = export_game(db, _played(db)["id"])
    doc["format_version"] = version
    before = _events(db)
    assert _import(client, doc).status_code == 422 and _events(db) == before


def test_a_500_under_api_is_json(tmp_path, monkeypatch):
    app = app_on(str(tmp_path / "e.db"), WTF_CSRF_ENABLED=True, PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()
    game = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "A"}, {"name": "B"}]}).json

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("web.api.get_states", broken)
    response = client.get(f"/api/games/{game['id']}/state")
    assert response.status_code == 500 and response.is_json and response.json["error"]


# ---- 10. game ids ------------------------------------------------------------------------------

def test_game_ids_suit_every_command_line_url_and_file_name(client, db):
    ids = [client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "A"}, {"name": "B"}]}).json["id"]
           for _ in range(100)]
    assert all(re.fullmatch(r"[a-z][a-z0-9]{9}", game_id) for game_id in ids), ids


def test_the_cli_takes_a_game_id_after_a_double_dash(app, db):
    game = _played(db)
    result = app.test_cli_runner().invoke(args=["export", "--", game["id"]])
    assert result.exit_code == 0 and json.loads(result.output)["game"]["id"] == game["id"]


# ---- found by the fuzz test with CSRF on ------------------------------------------------------

def test_a_multipart_field_name_that_breaks_its_header_is_400_not_500(client, db):
    """Werkzeug parses such a part with no name, and CSRF's walk of the form failed on it."""
    game = _played(db)
    for path in ("/import", f"/games/{game['id']}/moves", "/boards/han/han-side1/"):
        response = client.post(path, data={"\r": "0", "file": (io.BytesIO(b""), "g.json")})
        assert response.status_code == 400, path


# ---- issue 15, items 10–11: what refusals say -------------------------------------------------

@pytest.mark.parametrize("rule, link", [
    ("form", None),
    ("docs/rules/han.md §2.5", {"url": "/rules/han#s2-5", "ref": "2.5"}),
    ("docs/rules/han.md §2.3–2.4", {"url": "/rules/han#s2-3", "ref": "2.3"}),
    ("core §3", {"url": "/rules/core#s3", "ref": "3"})])
def test_a_refusal_shows_no_internal_tag_and_links_its_rule(app, rule, link):
    """Issue 26, item 4: the reason alone, and the rule as a link to its section (no file name)."""
    from web.i18n import problem_text
    from web.rules import rule_link
    with app.test_request_context("/?lang=en"):
        assert problem_text({"rule": rule, "hu": "Pont: egész számot adj meg.",
                             "en": "Points: enter a whole number."}) == "Points: enter a whole number."
        assert rule_link(rule) == link


def test_api_errors_follow_the_clients_language_and_problems_keep_both(client, db):
    game = _played(db)
    url = f"/api/games/{game['id']}/events"
    assert client.get("/api/games/nope/state", headers={"Accept-Language": "hu"}).json["error"] == "nincs ilyen játék"
    assert client.get("/api/games/nope/state", headers={"Accept-Language": "en"}).json["error"] == "no such game"
    assert client.get("/api/games/nope/state?lang=en", headers={"Accept-Language": "hu"}).json["error"] == "no such game"
    assert client.get("/api/nothing-here", headers={"Accept-Language": "hu"}).json["error"] == "Nincs ilyen oldal."
    refused = client.post(url, headers={"X-Seat-Token": game["seats"][0]["token"], "Accept-Language": "hu"}, json={
        "type": "points-recorded", "data": {"seat": 9, "points": 1}, "expected_seq": 4, "client_event_id": "r"})
    assert refused.status_code == 422 and refused.json["error"] == "a szabályok nem engedik ezt a lépést"
    assert all(p["hu"] and p["en"] for p in refused.json["problems"])


@pytest.mark.parametrize("raw, low, high, en", [
    ("99999999999", None, None, "Points: too large a number (11 digits; at most 9)."),
    ("-12345678901", None, None, "Points: too large a number (11 digits; at most 9)."),
    ("99999999999", 0, 500, "Points: at most 500 is allowed (got 99999999999)."),
    ("12a", None, None, "Points: enter a whole number.")])
def test_a_number_too_long_to_read_is_called_too_large_not_no_whole_number(raw, low, high, en):
    """'99999999999' in a score field was answered 'enter a whole number': it is one."""
    from scoring.base import FormError, text
    from scoring.forms import form_int
    with pytest.raises(FormError) as refused:
        form_int({"p": raw}, "p", text("Pont", "Points"), low=low, high=high)
    assert refused.value.problems[0].en == en


def test_a_write_that_cannot_get_the_lock_is_503_with_retry_after(tmp_path, monkeypatch):
    """Issue 25 §5: a long import held SQLite's write lock and moves elsewhere got 500
    'database is locked'; now 503 with Retry-After, nothing written, and the same move sent
    again is recorded."""
    app = app_on(str(tmp_path / "l.db"), WTF_CSRF_ENABLED=True, PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()
    game = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "A"}, {"name": "B"}]}).json
    move = {"type": "points-recorded", "data": {"seat": 0, "points": 3}, "expected_seq": 1, "client_event_id": "m1"}
    real = store.append

    def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store, "append", locked)
    headers = {"X-Seat-Token": game["seats"][0]["token"]}
    response = client.post(f"/api/games/{game['id']}/events", json=move, headers=headers)
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"
    assert "küldd el újra" in response.json["error"]  # in the phone's language (Hungarian first)
    monkeypatch.setattr(store, "append", real)
    assert client.post(f"/api/games/{game['id']}/events", json=move, headers=headers).status_code == 201
