"""Who may change the roster (docs/people.md §10, issue 25 §1): the organiser, whose link
`make run` prints until it is opened and `flask organiser-link` any time; a seated phone only its own
seat; everyone else reads. Tested like the host's seat: every roster write refused
without the right cookie, with CSRF on, and nothing written."""
from __future__ import annotations

import io
import json
import re

import pytest

from group import roster
from tests.conftest import app_on, become_organiser, csrf_of, new_pad, phones_with_forms

LINK = re.compile(r"https?://\S+/organiser/\S+")


@pytest.fixture
def hall(tmp_path):
    """(app, the organiser's phone, a seated phone (seat 1), a phone with no seat, the game, db):
    every phone with its own cookies and CSRF token."""
    from events.storage import store
    app = app_on(str(tmp_path / "h.db"), WTF_CSRF_ENABLED=True, ORGANISER_MARKER=str(tmp_path / "shown"))
    organiser, seated, stranger = phones_with_forms(app, 3)
    become_organiser(app, organiser)
    game = new_pad(organiser)
    join = organiser.get(f"/games/{game}").get_data(as_text=True)
    import re
    code = re.search(rf"/games/{game}/join/([\w-]+)", join).group(1)
    page = seated.get(f"/games/{game}/join/{code}").get_data(as_text=True)
    answer = seated.post(f"/games/{game}/join/{code}", data={"csrf_token": csrf_of(page), "seat": "1"})
    assert answer.status_code in (302, 303), answer.status_code
    db = store.connect(app.config["DATABASE"])
    yield app, organiser, seated, stranger, game, db
    db.conn.close()


def _writes(game: str, ids: dict) -> list[tuple[str, dict]]:
    bgs = {"players": [{"id": 1, "name": "Cili"}], "games": [{"id": 1, "name": "Han", "bggId": 153625}],
           "plays": [{"uuid": "u1", "gameRefId": 1, "playDate": "2024-01-01 10:00:00",
                      "playerScores": [{"playerRefId": 1, "score": 3}]}]}
    return [("/people", {"name": "Dóra"}),
            (f"/people/{ids['Anna']}/rename", {"name": "Anna K."}),
            ("/people/merge", {"source": ids["Béla"], "into": ids["Anna"]}),
            ("/people/log/1/revert", {}),
            (f"/people/games/{game}/0", {"unlink": "1"}),
            (f"/people/games/{game}/0", {"name": "Kiss Anna"}),
            ("/people/import-bgstats", {"file": (io.BytesIO(json.dumps(bgs).encode()), "b.json")})]


@pytest.mark.parametrize("who", ["seated", "stranger"])
def test_every_roster_write_is_the_organisers(hall, who):
    app, organiser, seated, stranger, game, db = hall
    phone = {"seated": seated, "stranger": stranger}[who]
    ids = {p["name"]: str(p["id"]) for p in roster.load(db).active()}
    before = roster.last_seq(db)
    for path, data in _writes(game, ids):
        answer = phone.post(path, data={"csrf_token": phone.token, **data}, content_type="multipart/form-data")
        assert answer.status_code == 403, path
        assert "Only the organiser" in answer.get_data(as_text=True), path
    assert roster.last_seq(db) == before
    for path, data in _writes(game, ids)[:2]:  # and without the CSRF token, not even the organiser
        assert organiser.post(path, data=data).status_code == 400


def test_the_organiser_may_make_each_and_it_names_who_made_it(hall):
    app, organiser, seated, stranger, game, db = hall
    ids = {p["name"]: str(p["id"]) for p in roster.load(db).active()}
    for path, data in _writes(game, ids)[:1] + _writes(game, ids)[4:]:
        answer = organiser.post(path, data={"csrf_token": organiser.token, **data}, content_type="multipart/form-data")
        assert answer.status_code in (200, 303), (path, answer.get_data(as_text=True)[:300])
    log = roster.read_log(db)
    assert [e.by for e in log[:4]] == [{"role": "game", "game": game}] * 4  # 2 added, 2 linked by its names
    assert all(e.by == roster.ORGANISER for e in log[4:]) and len(log) > 6
    assert "by the organiser" in organiser.get("/people/log").get_data(as_text=True)


def test_a_seated_phone_links_its_own_seat_and_no_other(hall):
    app, organiser, seated, stranger, game, db = hall
    page = seated.get(f"/people/games/{game}").get_data(as_text=True)
    assert f'action="/games/{game}/me"' in page and f'action="/people/games/{game}/1"' not in page
    answer = seated.post(f"/games/{game}/me", data={"csrf_token": seated.token, "name": "Kiss Béla"})
    assert answer.status_code == 303
    now = roster.load(db)
    assert now.people[now.person_of(game, 1)]["name"] == "Kiss Béla"
    assert now.people[now.person_of(game, 0)]["name"] == "Anna"  # seat 0 untouched
    assert roster.read_log(db)[-1].by == {"role": "seat", "game": game, "seat": 1}
    refused = stranger.post(f"/games/{game}/me", data={"csrf_token": stranger.token, "name": "Anna"})
    assert refused.status_code == 403 and "Only your own seat" in refused.get_data(as_text=True)
    assert roster.load(db).person_of(game, 1) == now.person_of(game, 1)


def test_the_organisers_link_opens_only_with_its_code(hall):
    app, organiser, seated, stranger, game, db = hall
    assert stranger.get("/organiser/" + "0" * 64).status_code == 404
    assert 'name="name"' not in stranger.get("/people").get_data(as_text=True)
    assert 'name="name"' in organiser.get("/people").get_data(as_text=True)


def test_the_cli_prints_the_link_and_make_run_until_it_is_opened(tmp_path):
    app = app_on(str(tmp_path / "h.db"), WTF_CSRF_ENABLED=True, ORGANISER_MARKER=str(tmp_path / "opened"))
    runner = app.test_cli_runner()
    first = runner.invoke(args=["organiser-link", "--until-opened", "--host", "192.168.1.20", "--port", "5000"])
    assert "http://192.168.1.20:5000/organiser/" in first.output
    again = runner.invoke(args=["organiser-link", "--until-opened", "--host", "192.168.1.20", "--port", "5000"])
    assert again.output == first.output  # printed, not yet opened: every start prints it
    become_organiser(app, app.test_client())
    assert runner.invoke(args=["organiser-link", "--until-opened"]).output == ""
    anytime = runner.invoke(args=["organiser-link", "--host", "192.168.1.20"])
    assert first.output.split()[-1] == anytime.output.split()[-1]
    renewed = runner.invoke(args=["new-organiser-link", "--host", "192.168.1.20"]).output
    again = runner.invoke(args=["organiser-link", "--until-opened", "--host", "192.168.1.20"]).output
    assert LINK.search(renewed).group(0) in again  # a new link: printed again until it is opened


def test_renaming_and_merging_say_what_was_done_and_the_log_names_games_as_players_know_them(hall):
    """Issue 39 §11: a rename or a merge gave no word back; the roster's log named a game by
    its id ("ov4066witj 3. hely")."""
    app, organiser, seated, stranger, game, db = hall
    ids = {p["name"]: p["id"] for p in roster.load(db).active()}
    renamed = organiser.post(f"/people/{ids['Anna']}/rename", data={"csrf_token": organiser.token, "name": "Anna K."},
                             follow_redirects=True).get_data(as_text=True)
    assert 'data-testid="roster-done"' in renamed and "Renamed to Anna K." in renamed
    merged = organiser.post("/people/merge", data={"csrf_token": organiser.token, "source": ids["Béla"],
                                                   "into": ids["Anna"]}, follow_redirects=True).get_data(as_text=True)
    assert "Merged: Béla’s plays are Anna K.’s now." in merged
    log = organiser.get("/people/log").get_data(as_text=True)
    assert "Generic score pad · " in log and f">{game}<" not in log
