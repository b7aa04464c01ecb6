"""Forged records never reach the statistics (issue 25 §3, §4; docs/people.md §6, §10): a
finished game whose stored record no longer verifies is left out of every statistic, the
CSV, the JSON and the BG Stats file, and the statistics pages say how many and link to
them; `rebuild-stats` reports them and exits non-zero. The roster's own log is checked
like a game's: `verify-db` and a warning on /people and /stats."""
from __future__ import annotations

import pytest

from group import plays, roster
from tests.conftest import pad_played, tamper


@pytest.fixture
def forged(app, client, db):
    """Two finished games: Anna won the honest one (9 to 5); in the other the stored 5 of
    Béla's first move is changed to 99 behind the app's back."""
    honest = pad_played(db, [9, 5], ["Anna", "Béla"])
    forged = pad_played(db, [7, 5], ["Anna", "Béla"])
    tamper(db, "UPDATE events SET data = ? WHERE game_id = ? AND seq = 3",
            ['{"seat": 1, "points": 99}', forged])
    app.extensions["tablescribe"].forget()  # a server started after the change
    client.set_cookie("lang", "en")
    return honest, forged


def test_a_forged_game_is_left_out_of_every_statistic_and_file(app, client, db, forged):
    honest, forged_id = forged
    body = client.get("/api/stats").get_json()
    assert body["plays"] == 1 and list(body["left_out"]) == [forged_id]
    assert body["left_out"][forged_id]["from"] == 3
    for page in ("/stats", "/people", "/stats/plays", "/stats/games/scorepad"):
        html = client.get(page).get_data(as_text=True)
        assert 'data-testid="left-out"' in html and f'href="/games/{forged_id}/final"' in html, page
    csv = client.get("/plays.csv").get_data(as_text=True)
    assert forged_id not in csv and ",99," not in csv and honest in csv
    assert client.get(f"/games/{forged_id}/play.bgsplay").status_code == 404
    assert client.get(f"/games/{honest}/play.bgsplay").status_code == 200
    people = {p["name"]: p for p in client.get("/api/people").get_json()["people"]}
    assert people["Béla"]["plays"] == 1 and people["Béla"]["wins"] == 0
    assert forged_id not in client.get("/stats/plays").get_data(as_text=True).split('data-testid="left-out"')[1].split("</p>", 1)[1]


def test_the_score_race_leaves_a_forged_game_out(client, forged):
    """The score race drew the forged 99 without a word (issue 25 §3): a record that does
    not verify has no race image, and its final sheet and replay draw none (they warn)."""
    honest, forged_id = forged
    assert client.get(f"/games/{honest}/race.svg").status_code == 200
    assert client.get(f"/games/{forged_id}/race.svg").status_code == 404
    for page in ("final", "replay"):
        assert 'class="race"' in client.get(f"/games/{honest}/{page}").get_data(as_text=True), page
        html = client.get(f"/games/{forged_id}/{page}").get_data(as_text=True)
        assert 'class="race"' not in html and "race-chart" not in html, page


def test_rebuild_stats_leaves_a_forged_game_out_and_exits_non_zero(app, db, forged):
    honest, forged_id = forged
    result = app.test_cli_runner().invoke(args=["rebuild-stats"])
    assert result.exit_code == 1
    assert f"game {forged_id} left out" in result.output and "from event 3" in result.output
    assert {row[0] for row in plays.dump(db)} == {honest}


def test_a_changed_or_cut_roster_is_told_by_verify_db_and_the_pages(app, client, db):
    pad_played(db, [9, 5], ["Anna", "Béla"])
    runner = app.test_cli_runner()
    assert runner.invoke(args=["verify-db"]).exit_code == 0
    tamper(db, "UPDATE roster_events SET data = ? WHERE seq = 1", ['{"name": "Forged Imp"}'])
    app.extensions["tablescribe"].forget()  # a server started after the change
    result = runner.invoke(args=["verify-db"])
    assert result.exit_code == 1 and "roster: change 1" in result.output
    client.set_cookie("lang", "en")
    for page in ("/people", "/stats", "/people/log"):
        html = client.get(page).get_data(as_text=True)
        assert 'data-testid="roster-unverified"' in html and "does not verify from change 1" in html, page


def test_changes_cut_off_the_roster_end_are_told(app, client, db):
    pad_played(db, [9, 5], ["Anna", "Béla"])
    last = roster.last_seq(db)
    tamper(db, "DELETE FROM roster_events WHERE seq = ?", [last])
    app.extensions["tablescribe"].forget()  # a server started after the change
    result = app.test_cli_runner().invoke(args=["verify-db"])
    assert result.exit_code == 1 and f"the summary says the roster has {last} changes" in result.output
