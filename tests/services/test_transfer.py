"""`copy-db` (services/transfer.py): every game, board profile, seat and the roster copied
into another store on either engine, verified as it arrives; copied again, nothing changes;
a game grown since is brought up to date and one that diverged is refused by name."""
import json
import pathlib

import psycopg

from events.application.export import export_game, import_game
from events.application.table import new_game
from events.domain.event import NewEvent
from events.storage import store
from tests.conftest import app_on

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[2] / "examples").glob("*.json"))


def _points(n: int, client: str) -> NewEvent:
    return NewEvent("points-recorded", 1, {"seat": 0, "points": n}, 0, "dev", client)


def _everything(url: str) -> dict:
    with psycopg.connect(url) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                for t in ("games", "events", "board_profiles", "seat_tokens", "seat_locks", "seat_handovers",
                          "revoked_seat_tokens", "roster_events", "stat_seats")}


def test_copy_db_copies_every_game_profile_and_seat_and_twice_changes_nothing(tmp_path, postgres_url):
    from events.application import boards, seats
    from scoring import GAMES
    app = app_on(str(tmp_path / "t.db"))
    with app.app_context():
        from web.db import get_db
        db = get_db()
        ids = [import_game(db, json.loads(path.read_text()))["id"] for path in EXAMPLES]
        played = app.test_client().post("/api/games", json={  # through the roster too
            "kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]}).get_json()["id"]
        seats.set_lock(db, played, 1, True)
        seats.hand_over(db, played, 1)
        han = GAMES["han"]
        profile = boards.list_profiles(db, han)[0]
        boards.save(db, han, profile["id"], profile["data"])  # a version 2
        exports = {g: export_game(db, g) for g in ids + [played]}
    runner = app.test_cli_runner()
    first = runner.invoke(args=["copy-db", "--to", postgres_url])
    assert first.exit_code == 0, first.output
    assert f"{len(ids) + 1} games copied" in first.output
    target = store.connect(postgres_url)
    for game_id, exported in exports.items():  # the same record, people and all
        copied = export_game(target, game_id)
        assert {**copied, "game": {**copied["game"], "exported_at": ""}} \
            == {**exported, "game": {**exported["game"], "exported_at": ""}}
    before = _everything(postgres_url)
    assert before["seat_locks"] and before["seat_handovers"] and before["revoked_seat_tokens"]
    assert len(before["board_profiles"]) >= 2 and before["roster_events"] and before["stat_seats"]
    again = runner.invoke(args=["copy-db", "--to", postgres_url])
    assert again.exit_code == 0, again.output
    assert "0 games copied" in again.output
    assert _everything(postgres_url) == before


def test_copy_db_brings_a_grown_game_up_to_date_and_refuses_a_diverged_one(tmp_path, postgres_url):
    app = app_on(str(tmp_path / "t.db"))
    runner = app.test_cli_runner()
    with app.app_context():
        from web.db import get_db
        db = get_db()
        grown = new_game(db, "scorepad", [{"name": "A"}, {"name": "B"}], {}, "dev")["id"]
        diverged = new_game(db, "scorepad", [{"name": "A"}, {"name": "B"}], {}, "dev")["id"]
        assert runner.invoke(args=["copy-db", "--to", postgres_url]).exit_code == 0
        store.append(db, grown, _points(3, "later"), 1)
        store.append(db, diverged, _points(3, "here"), 1)
    store.append(store.connect(postgres_url), diverged, _points(4, "there"), 1)
    result = runner.invoke(args=["copy-db", "--to", postgres_url])
    assert result.exit_code == 1
    assert f"game {diverged}" in result.output
    target = store.connect(postgres_url)
    assert store.last_seq(target, grown) == 2 and store.verify_game(target, grown) is None
    assert store.find_by_client_id(target, diverged, "here") is None


def test_copy_db_takes_a_halls_games_home_into_a_fresh_sqlite_file(tmp_path, postgres_url):
    hall = app_on(postgres_url)
    with hall.app_context():
        from web.db import get_db
        db = get_db()
        ids = [import_game(db, json.loads(path.read_text()))["id"] for path in EXAMPLES[:3]]
        exports = {g: export_game(db, g)["events"] for g in ids}
    home = str(tmp_path / "home.db")
    result = hall.test_cli_runner().invoke(args=["copy-db", "--to", home])
    assert result.exit_code == 0, result.output
    db = store.connect(home)
    assert {g: export_game(db, g)["events"] for g in ids} == exports
