"""The roster (docs/people.md): people added with games, linked, renamed, merged and
reverted through its own log; bad changes refused with a reason and nothing appended,
with CSRF on as in production."""
from __future__ import annotations

import json

import pytest

from events.storage import store
from group import roster
from tests.conftest import become_organiser, watch_the_write_lock


def _new_game(client, token, names, kind="scorepad"):
    response = client.post("/games/new", data={"csrf_token": token, "kind": kind, "name": names,
                                               "colour": ["red", "blue", "green", "black"][:len(names)]})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def _log_size(db) -> int:
    return roster.last_seq(db)


def test_a_new_game_adds_and_links_people_by_name_ignoring_case(guarded):
    app, client, token, db = guarded
    first = _new_game(client, token, ["Anna", "Béla"])
    second = _new_game(client, token, ["anna", "Cili"])
    people = client.get("/api/people").get_json()["people"]
    assert sorted(p["name"] for p in people) == ["Anna", "Béla", "Cili"]
    now = roster.load(db)
    anna = now.by_name("ANNA")["id"]
    assert now.person_of(first, 0) == anna and now.person_of(second, 0) == anna


def test_the_new_game_form_suggests_the_roster_names(guarded):
    app, client, token, db = guarded
    _new_game(client, token, ["Anna", "Béla"])
    html = client.get("/games/new?kind=han").get_data(as_text=True)
    assert 'list="roster-names"' in html and '<option value="Béla">' in html


def test_the_api_takes_a_person_id_and_refuses_an_unknown_one(guarded):
    app, client, token, db = guarded
    _new_game(client, token, ["Anna", "Béla"])
    anna = roster.load(db).by_name("anna")["id"]
    created = client.post("/api/games", json={"kind": "scorepad",
                                              "players": [{"person": anna}, {"name": "Dóra"}]})
    assert created.status_code == 201
    assert created.get_json()["seats"][0]["player"] == "Anna"
    assert roster.load(db).person_of(created.get_json()["id"], 0) == anna
    before = _log_size(db)
    refused = client.post("/api/games", json={"kind": "scorepad", "players": [{"person": 999}, {"name": "X"}]})
    assert refused.status_code == 422 and "999" in refused.get_json()["problems"][0]["en"]
    assert _log_size(db) == before


def test_a_seat_is_linked_afterwards_unlinked_and_relinked(guarded):
    app, client, token, db = guarded
    game = _new_game(client, token, ["Anna", "Béla"])
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
    game = _new_game(client, token, ["Anna", "Béla"])
    ids = {p["name"]: str(p["id"]) for p in roster.load(db).active()}
    path, data, reason = BAD[case]
    before = _log_size(db)
    response = client.post(path.format(game=game, **ids), data={"csrf_token": token, **data(ids)})
    assert response.status_code == 422
    assert reason in response.get_data(as_text=True)
    assert _log_size(db) == before


def test_invalid_unicode_in_a_name_is_refused(guarded):
    """What a decoder makes of invalid UTF-8 (U+FFFD) in a form; an unpaired surrogate in
    the API's JSON."""
    app, client, token, db = guarded
    before = _log_size(db)
    response = client.post("/people", data={"csrf_token": token, "name": "Anna\ufffd"})
    assert response.status_code == 422 and _log_size(db) == before
    body = b'{"kind": "scorepad", "players": [{"name": "\\udc80x"}, {"name": "B"}]}'
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code in (400, 422) and _log_size(db) == before


@pytest.mark.parametrize("name", ["\u202eevil", "Anna\u2067", "\u200fBéla"])
def test_a_name_with_a_text_direction_control_is_refused(guarded, name):
    """A player named "\u202eevil" showed as "live" and turned every name after it on the
    home page backwards ("avÉ" for "Éva"): direction controls in a name are refused, in a
    new game (form and API) and in the roster."""
    app, client, token, db = guarded
    games, before = db.execute("SELECT COUNT(*) FROM games").fetchone()[0], _log_size(db)
    form = client.post("/games/new", data={"csrf_token": token, "kind": "scorepad", "name": [name, "Cili"],
                                           "colour": ["red", "blue"]})
    body = json.dumps({"kind": "scorepad", "players": [{"name": name}, {"name": "Cili"}]})
    api = client.post("/api/games", data=body, content_type="application/json", query_string={"lang": "en"})
    person = client.post("/people", data={"csrf_token": token, "name": name})
    assert form.status_code == 422 and api.status_code == 422 and person.status_code == 422
    assert "direction" in json.dumps(api.get_json())
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == games and _log_size(db) == before


def test_a_change_without_the_csrf_token_is_refused(guarded):
    app, client, token, db = guarded
    assert client.post("/people", data={"name": "Ernő"}).status_code == 400
    assert _log_size(db) == 0


def test_merge_moves_the_plays_and_a_revert_brings_them_back(guarded):
    app, client, token, db = guarded
    game = _new_game(client, token, ["Anna", "Anna K."])
    other = _new_game(client, token, ["Anna K.", "Béla"])
    ids = {p["name"]: p["id"] for p in roster.load(db).active()}
    # one person cannot sit at two seats of a game: merging keeps both seats of `game`
    # but stats see them as one person; merge the second game's Anna K. instead
    response = client.post("/people/merge", data={"csrf_token": token, "source": ids["Anna K."],
                                                  "into": ids["Anna"]})
    assert response.status_code == 303
    now = roster.load(db)
    assert now.person_of(other, 0) == ids["Anna"]
    assert "Anna K." not in [p["name"] for p in now.active()]
    merge_seq = now.seq
    assert client.post(f"/people/log/{merge_seq}/revert", data={"csrf_token": token}).status_code == 303
    assert roster.load(db).person_of(other, 0) == ids["Anna K."]
    again = client.post(f"/people/log/{merge_seq}/revert", data={"csrf_token": token})
    assert again.status_code == 422 and "already reverted" in again.get_data(as_text=True)


def test_a_revert_a_later_change_depends_on_is_refused(guarded):
    app, client, token, db = guarded
    game = _new_game(client, token, ["Anna", "Béla"])
    added = next(e.seq for e in roster.read_log(db) if e.type == "person-added")
    before = _log_size(db)
    response = client.post(f"/people/log/{added}/revert", data={"csrf_token": token})
    assert response.status_code == 422 and "a later change depends on it" in response.get_data(as_text=True)
    assert _log_size(db) == before


def test_the_roster_log_is_append_only_and_chained(guarded):
    app, client, token, db = guarded
    _new_game(client, token, ["Anna", "Béla"])
    import sqlite3
    with pytest.raises(sqlite3.DatabaseError):
        db.execute("UPDATE roster_events SET data = '{}' WHERE seq = 1")
    from events.domain.hashing import first_broken_link
    assert first_broken_link(e.envelope() for e in roster.read_log(db)) is None


def test_export_and_import_carry_who_sat_where(guarded, other_app, other_db):
    import io
    import json
    app, client, token, db = guarded
    game = _new_game(client, token, ["Anna", "Béla"])
    client.post(f"/people/games/{game}/1", data={"csrf_token": token, "unlink": "1"})
    client.post(f"/people/games/{game}/1", data={"csrf_token": token, "name": "Kiss Béla"})
    doc = client.get(f"/games/{game}/export.json").get_json()
    assert doc["people"] == [{"seat": 0, "name": "Anna"}, {"seat": 1, "name": "Kiss Béla"}]
    organiser = other_app.test_client()
    become_organiser(other_app, organiser)
    response = organiser.post("/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                              content_type="multipart/form-data")
    assert response.status_code == 303
    copy = response.headers["Location"].rsplit("/", 1)[1]
    there = roster.load(other_db)
    assert {s: there.people[p]["name"] for s, p in there.seats_of(copy).items()} == {0: "Anna", 1: "Kiss Béla"}
    assert all(e.by == roster.ORGANISER for e in roster.read_log(other_db))


def test_the_unhashed_people_block_cannot_relink_seats(guarded, other_app, other_db):
    """Issue 25 §2: the export's people block is not covered by the chain. Anyone but the
    organiser importing a game gets its seats linked by the names the game recorded."""
    import io
    import json
    app, client, token, db = guarded
    game = _new_game(client, token, ["Anna", "Béla"])
    doc = client.get(f"/games/{game}/export.json").get_json()
    doc["people"] = [{"seat": 0, "name": "Béla"}, {"seat": 1, "name": "Anna"}]  # the winner's seat to Béla
    response = other_app.test_client().post("/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                                            content_type="multipart/form-data")
    assert response.status_code == 303
    copy = response.headers["Location"].rsplit("/", 1)[1]
    there = roster.load(other_db)
    assert {s: there.people[p]["name"] for s, p in there.seats_of(copy).items()} == {0: "Anna", 1: "Béla"}
    assert {json.dumps(e.by) for e in roster.read_log(other_db)} == {json.dumps({"role": "game", "game": copy})}


@pytest.mark.parametrize("people", ["x", [{"seat": 5, "name": "A"}], [{"seat": 0, "name": ""}],
                                    [{"seat": 0, "name": "A"}, {"seat": 0, "name": "B"}]])
def test_an_import_with_a_malformed_people_block_is_refused(guarded, people):
    import io
    import json
    app, client, token, db = guarded
    game = _new_game(client, token, ["Anna", "Béla"])
    doc = {**client.get(f"/games/{game}/export.json").get_json(), "people": people}
    games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    response = client.post("/import", data={"csrf_token": token, "file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422 and "people" in response.get_data(as_text=True)
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == games


def test_an_import_whose_events_are_wrong_says_so_not_that_its_people_block_is(guarded):
    """A file cut to one player (or with no events) kept its people block of two seats: the
    refusal blamed the people block ("malformed: seats the game has") instead of the events."""
    import io
    import json
    app, client, token, db = guarded
    game = _new_game(client, token, ["Anna", "Béla"])
    doc = client.get(f"/games/{game}/export.json").get_json()
    doc["events"] = doc["events"][:1]
    doc["events"][0]["data"]["players"] = doc["events"][0]["data"]["players"][:1]
    response = client.post("/import", data={"csrf_token": token, "file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                           content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "event <strong>#1" in page.replace("esemény", "event")
    assert "people" not in page.split("<main", 1)[1].split("</main>", 1)[0]


def test_the_roster_log_pages_the_newest_first(guarded, monkeypatch):
    from web import people as people_pages
    app, client, token, db = guarded
    monkeypatch.setattr(people_pages, "LOG_PAGE", 3)
    _new_game(client, token, ["Anna", "Béla"])  # 4 changes: two people, two seats
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
    size = _log_size(db)
    refused = client.post("/people", data={**form, "name": "Béla"})
    assert refused.status_code == 409 and "already sent with another change" in refused.get_data(as_text=True)
    anna = roster.load(db).by_name("Anna")["id"]
    renamed = client.post(f"/people/{anna}/rename", data={**form, "name": "Anna K."})
    assert renamed.status_code == 409
    assert _log_size(db) == size and roster.load(db).by_name("Béla") is None


def test_a_copy_of_the_roster_shares_the_seats_it_does_not_change():
    """Issue 25 §5: every batch of a BG Stats import copied each game's seats of the cached
    roster (10,000 plays: ~5 ms a copy, three copies a batch, under the write lock). A copy
    shares them, and a change to a copy leaves the original as it was."""
    from group.roster import _apply, _copy, fold
    events = [roster.RosterEvent(1, "person-added", {"name": "Anna"}, "d", "2026-01-01T00:00:00+00:00", "c1", "h1", 1),
              roster.RosterEvent(2, "person-added", {"name": "Béla"}, "d", "2026-01-01T00:00:00+00:00", "c2", "h2", 1),
              roster.RosterEvent(3, "seat-linked", {"game": "g", "seat": 0, "person": 1}, "d",
                                 "2026-01-01T00:00:00+00:00", "c3", "h3", 1)]
    cached = fold(events, checked=False)
    copy = _copy(cached)
    assert copy.links["g"] is cached.links["g"]
    _apply(copy, 4, "seat-linked", {"game": "g", "seat": 1, "person": 2}, "2026-01-01T00:00:00+00:00")
    _apply(copy, 5, "seat-unlinked", {"game": "g", "seat": 0}, "2026-01-01T00:00:00+00:00")
    assert cached.links["g"] == {0: 1} and copy.links["g"] == {1: 2}


def test_linking_a_new_games_seats_folds_no_roster_under_the_write_lock(db, monkeypatch):
    """Issue 25 §5: every new game links its seats to the roster, and that folded the roster's
    whole log again for each seat under the write lock: once a group had imported its BG Stats
    history (10,000 plays), each new game held every table's moves for seconds. The roster is
    folded before the lock; under it only the events written there are read."""
    roster.append(db, [("person-added", {"name": f"Person {i}"}) for i in range(200)], "dev", by=roster.ORGANISER)
    from events.application.table import new_game
    game = new_game(db, "scorepad", [{"name": "Anna"}, {"name": "Person 3"}, {"name": "Cili"}], {}, "dev")
    read_under_lock = []
    real_read = roster.read_log

    def counted(conn, after=0, upto=None):
        found = real_read(conn, after, upto)
        if held:
            read_under_lock.append(len(found))
        return found

    monkeypatch.setattr(roster, "read_log", counted)
    held = watch_the_write_lock(monkeypatch)
    written = roster.link_game(db, game["id"], ["Anna", "Person 3", "Cili"], "dev")
    assert [e.type for e in written].count("seat-linked") == 3
    assert sum(read_under_lock) <= len(written), f"{sum(read_under_lock)} roster events read under the lock"
