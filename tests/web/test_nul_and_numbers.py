"""Issue 25 §7: requests that were 500s, now the same clear refusal on both engines, with
CSRF on (docs/reliability.md §4): a NUL character anywhere a request carries text
(PostgreSQL stores no such text, SQLite would), and a 5,000-digit road on the Maharaja
board editor."""
from __future__ import annotations

import json

import pytest

from tests.conftest import become_organiser, guarded_app


@pytest.fixture
def site(database):
    app, client, token = guarded_app(database)
    created = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]})
    assert created.status_code == 201
    return app, client, token, created.get_json()


PATHS = ["/games/%00", "/people/games/%00", "/games/a%00/stream", "/api/games/a%00/events",
         "/api/games/a%00/state", "/boards/han/%00/", "/stats/games/%00", "/games/{id}%00/live"]


@pytest.mark.parametrize("path", PATHS)
def test_a_nul_in_a_path_is_no_such_page(site, path):
    app, client, token, game = site
    assert client.get(path.format(id=game["id"])).status_code == 404


def test_a_nul_anywhere_else_is_refused_saying_why(site):
    app, client, token, game = site
    seat = game["seats"][0]["token"]
    assert client.post("/boards/maharaja/%00/", data={"csrf_token": token, "name_en": "x"}).status_code == 404
    answers = [
        client.post("/people", data={"csrf_token": token, "name": "An\x00na"}),
        client.post("/people", data={"csrf_token": token, "name": "Anna", "client_event_id": "a\x00"}),
        client.get("/stats?kind=a\x00"),
        client.get("/stats/plays?game=a\x00b"),
        client.post(f"/api/games/{game['id']}/events", headers={"X-Seat-Token": seat},
                    json={"type": "round-scored", "data": {}, "expected_seq": 1, "client_event_id": "x\u0000"}),
        client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "A\u0000"}, {"name": "B"}]}),
        client.post("/games/new", data={"csrf_token": token, "kind": "scorepad", "name": ["A\x00", "B"]}),
        client.post("/import", data={"csrf_token": token, "file": (
            __import__("io").BytesIO(json.dumps({"format": "x", "events": [{"a": "\x00"}]}).encode()), "g.json")},
            content_type="multipart/form-data"),
    ]
    for response in answers:
        assert (response.status_code, "NUL character" in response.get_data(as_text=True)) == (400, True), \
            response.request.path


def test_a_refused_nul_writes_nothing(site, database):
    app, client, token, game = site
    from events.storage import store
    from group import roster
    db = store.connect(database)
    before = roster.last_seq(db)
    assert client.post("/people", data={"csrf_token": token, "name": "An\x00na"}).status_code == 400
    assert roster.last_seq(db) == before


def test_a_road_of_5000_digits_is_refused_as_a_bad_line(site):
    app, client, token, game = site
    become_organiser(app, client)
    form = {"csrf_token": token, "name_hu": "T", "name_en": "T", "roads": "S-A: " + "9" * 5000}
    response = client.post("/boards/maharaja/maharaja/", data=form)
    assert response.status_code == 422 and "Line 1" in response.get_data(as_text=True)
    unicode_digits = {**form, "roads": "S-A: \u0661"}  # an Arabic-Indic 1 is no village number here
    assert client.post("/boards/maharaja/maharaja/", data=unicode_digits).status_code == 422


def test_an_upload_is_searched_for_a_nul_escape_without_walking_it_with_the_regex(tmp_path, monkeypatch):
    """Issue 25 §5: the regex that tells ``\\u0000`` from ``\\\\u0000`` walked every uploaded
    file, an 8 MiB import for ~0.3-0.6 s in one piece on the worker that serves the other
    tables. It runs only on a file that holds the escape; such a file is still refused."""
    import io
    import app as app_module
    app, client, token = guarded_app(str(tmp_path / "n.db"))
    walked = []
    real = app_module._NUL_ESCAPE

    class Counted:
        def search(self, raw):
            walked.append(len(raw))
            return real.search(raw)

    monkeypatch.setattr(app_module, "_NUL_ESCAPE", Counted())

    def upload(text: str):
        return client.post("/import", data={"csrf_token": token, "file": (io.BytesIO(text.encode()), "g.json")},
                           content_type="multipart/form-data")

    clean = json.dumps({"format": "tablescribe-export", "events": ["\\\\u0000 is no NUL" * 20000]})
    assert upload(clean).status_code == 422 and walked == [len(clean.encode())]  # the file's own refusal
    walked.clear()
    assert upload(json.dumps({"events": ["x" * 200000]})).status_code == 422 and walked == []
    assert upload('{"events": ["a\\u0000"]}').status_code == 400 and walked
