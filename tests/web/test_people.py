"""The roster's pages (web/people.py, docs/people.md) with CSRF on, as in production: the
new-game form offers the roster's names, a seat linked, unlinked and relinked; every bad
change refused with a reason and nothing appended; the log paged newest first; a reused
form id with another change a 409."""
from __future__ import annotations

import json

import pytest

from group import roster
from tests.conftest import game_by_form
from web import people as people_pages


def test_the_new_game_form_suggests_the_roster_names(guarded):
    app, client, token, db = guarded
    game_by_form(client, ["Anna", "Béla"], token=token)
    html = client.get("/games/new?kind=han").get_data(as_text=True)
    assert 'list="roster-names"' in html and '<option value="Béla">' in html


def test_a_seat_is_linked_afterwards_unlinked_and_relinked(guarded):
    app, client, token, db = guarded
    game = game_by_form(client, ["Anna", "Béla"], token=token)
    client.post(f"/people/games/{game}/1", data={"csrf_token": token, "unlink": "1"})
    assert roster.load(db).person_of(game, 1) is None
    response = client.post(f"/people/games/{game}/1", data={"csrf_token": token, "name": "Béla Kiss"})
    assert response.status_code == 303
    now = roster.load(db)
    assert now.people[now.person_of(game, 1)]["name"] == "Béla Kiss"


BAD = {
    "merge into himself": ("/people/merge", lambda ids: {"source": ids["Anna"], "into": ids["Anna"]},
                           "merged into himself"),
    "rename to an existing name": ("/people/{Anna}/rename", lambda ids: {"name": "BÉLA"},
                                   "already a person called Béla"),
    "one seat linked to two people": ("/people/games/{game}/0", lambda ids: {"person": ids["Béla"]},
                                      "already linked to Anna"),
    "an unknown person": ("/people/merge", lambda ids: {"source": "77", "into": ids["Anna"]},
                          "no person 77"),
    "a name that is only spaces": ("/people", lambda ids: {"name": "   "}, "Name: it is empty."),
    "a name with a control character": ("/people", lambda ids: {"name": "An\x07na"}, "invisible character (U+0007)"),
    "a seat the game does not have": ("/people/games/{game}/9", lambda ids: {"person": ids["Anna"]},
                                      "no seat 9"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_roster_changes_are_refused_with_a_reason_and_nothing_changes(guarded, case):
    app, client, token, db = guarded
    game = game_by_form(client, ["Anna", "Béla"], token=token)
    ids = {p["name"]: str(p["id"]) for p in roster.load(db).active()}
    path, data, reason = BAD[case]
    before = roster.last_seq(db)
    response = client.post(path.format(game=game, **ids), data={"csrf_token": token, **data(ids)})
    assert response.status_code == 422
    assert reason in response.get_data(as_text=True)
    assert roster.last_seq(db) == before


def test_invalid_unicode_in_a_name_is_refused(guarded):
    """What a decoder makes of invalid UTF-8 (U+FFFD) in a form; an unpaired surrogate in
    the API's JSON."""
    app, client, token, db = guarded
    before = roster.last_seq(db)
    response = client.post("/people", data={"csrf_token": token, "name": "Anna\ufffd"})
    assert response.status_code == 422 and roster.last_seq(db) == before
    body = b'{"kind": "scorepad", "players": [{"name": "\\udc80x"}, {"name": "B"}]}'
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code in (400, 422) and roster.last_seq(db) == before


@pytest.mark.parametrize("name", ["\u202eevil", "Anna\u2067", "\u200fBéla"])
def test_a_name_with_a_text_direction_control_is_refused(guarded, name):
    """A player named "\u202eevil" showed as "live" and turned every name after it on the
    home page backwards ("avÉ" for "Éva"): direction controls in a name are refused, in a
    new game (form and API) and in the roster."""
    app, client, token, db = guarded
    games, before = db.execute("SELECT COUNT(*) FROM games").fetchone()[0], roster.last_seq(db)
    form = client.post("/games/new", data={"csrf_token": token, "kind": "scorepad", "name": [name, "Cili"],
                                           "colour": ["red", "blue"]})
    body = json.dumps({"kind": "scorepad", "players": [{"name": name}, {"name": "Cili"}]})
    api = client.post("/api/games", data=body, content_type="application/json", query_string={"lang": "en"})
    person = client.post("/people", data={"csrf_token": token, "name": name})
    assert form.status_code == 422 and api.status_code == 422 and person.status_code == 422
    assert "direction" in json.dumps(api.get_json())
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == games and roster.last_seq(db) == before


def test_a_change_without_the_csrf_token_is_refused(guarded):
    app, client, token, db = guarded
    assert client.post("/people", data={"name": "Ernő"}).status_code == 400
    assert roster.last_seq(db) == 0


def test_the_roster_log_pages_the_newest_first(guarded, monkeypatch):
    app, client, token, db = guarded
    monkeypatch.setattr(people_pages, "LOG_PAGE", 3)
    game_by_form(client, ["Anna", "Béla"], token=token)  # 4 changes: two people, two seats
    first = client.get("/people/log").get_data(as_text=True)
    assert 'roster-event-4"' in first and 'roster-event-1"' not in first and "page=1" in first
    older = client.get("/people/log?page=1").get_data(as_text=True)
    assert 'roster-event-1"' in older and 'roster-event-2"' not in older
    assert client.get("/people/log?page=99999999999999999999").status_code == 200


def test_a_reused_form_id_with_another_change_is_409_and_writes_nothing(guarded):
    """The back button brings back an old form with its client_event_id (issue 25 §6)."""
    app, client, token, db = guarded
    form = {"csrf_token": token, "client_event_id": "f" * 32}
    assert client.post("/people", data={**form, "name": "Anna"}).status_code == 303
    assert client.post("/people", data={**form, "name": "Anna"}).status_code == 303  # the same again: once
    size = roster.last_seq(db)
    refused = client.post("/people", data={**form, "name": "Béla"})
    assert refused.status_code == 409 and "already sent with another change" in refused.get_data(as_text=True)
    anna = roster.load(db).by_name("Anna")["id"]
    renamed = client.post(f"/people/{anna}/rename", data={**form, "name": "Anna K."})
    assert renamed.status_code == 409
    assert roster.last_seq(db) == size and roster.load(db).by_name("Béla") is None
