"""The roster (group/roster.py, docs/people.md): people added with games, linked, renamed,
merged and reverted through its own append-only, chained log, carried by exports and
imports (its pages and their refusals: tests/web/test_people.py), with CSRF on."""
from __future__ import annotations

import json

import pytest

from group import roster
from tests.conftest import become_organiser, game_by_form, watch_the_write_lock


def _log_size(db) -> int:
    return roster.last_seq(db)


def test_a_new_game_adds_and_links_people_by_name_ignoring_case(guarded):
    app, client, token, db = guarded
    first = game_by_form(client, ["Anna", "Béla"], token=token)
    second = game_by_form(client, ["anna", "Cili"], token=token)
    people = client.get("/api/people").get_json()["people"]
    assert sorted(p["name"] for p in people) == ["Anna", "Béla", "Cili"]
    now = roster.load(db)
    anna = now.by_name("ANNA")["id"]
    assert now.person_of(first, 0) == anna and now.person_of(second, 0) == anna


def test_the_api_takes_a_person_id_and_refuses_an_unknown_one(guarded):
    app, client, token, db = guarded
    game_by_form(client, ["Anna", "Béla"], token=token)
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


def test_merge_moves_the_plays_and_a_revert_brings_them_back(guarded):
    app, client, token, db = guarded
    game = game_by_form(client, ["Anna", "Anna K."], token=token)
    other = game_by_form(client, ["Anna K.", "Béla"], token=token)
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
    game = game_by_form(client, ["Anna", "Béla"], token=token)
    added = next(e.seq for e in roster.read_log(db) if e.type == "person-added")
    before = _log_size(db)
    response = client.post(f"/people/log/{added}/revert", data={"csrf_token": token})
    assert response.status_code == 422 and "a later change depends on it" in response.get_data(as_text=True)
    assert _log_size(db) == before


def test_the_roster_log_is_append_only_and_chained(guarded):
    app, client, token, db = guarded
    game_by_form(client, ["Anna", "Béla"], token=token)
    import sqlite3
    with pytest.raises(sqlite3.DatabaseError):
        db.execute("UPDATE roster_events SET data = '{}' WHERE seq = 1")
    from events.domain.hashing import first_broken_link
    assert first_broken_link(e.envelope() for e in roster.read_log(db)) is None


def test_export_and_import_carry_who_sat_where(guarded, other_app, other_db):
    import io
    import json
    app, client, token, db = guarded
    game = game_by_form(client, ["Anna", "Béla"], token=token)
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
    game = game_by_form(client, ["Anna", "Béla"], token=token)
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
    game = game_by_form(client, ["Anna", "Béla"], token=token)
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
    game = game_by_form(client, ["Anna", "Béla"], token=token)
    doc = client.get(f"/games/{game}/export.json").get_json()
    doc["events"] = doc["events"][:1]
    doc["events"][0]["data"]["players"] = doc["events"][0]["data"]["players"][:1]
    response = client.post("/import", data={"csrf_token": token, "file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                           content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "event <strong>#1" in page.replace("esemény", "event")
    assert "people" not in page.split("<main", 1)[1].split("</main>", 1)[0]


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
