"""The audit commands, run for real: `flask --app app replay|verify|export|verify-db`."""
import json
import os
import subprocess
import sys

import pytest

from events.application.export import export_game
from events.storage import store
from tests.conftest import played_pad, run_sql

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FLASK = os.path.join(os.path.dirname(sys.executable), "flask")


def flask(db_path, *args) -> subprocess.CompletedProcess:
    env = {**os.environ, "TABLESCRIBE_DATABASE": str(db_path)}
    return subprocess.run([FLASK, "--app", "app", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def exported(tmp_path):
    db_path = tmp_path / "cli.db"
    db = store.connect(str(db_path))
    store.migrate(db)
    game_id = played_pad(db)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export_game(db, game_id), ensure_ascii=False), encoding="utf-8")
    db.conn.close()
    return db_path, game_id, path


def test_replay_prints_the_standings_at_the_step_asked(exported):
    db_path, _, path = exported
    at_3 = flask(db_path, "replay", str(path), "--at", "3")
    assert at_3.returncode == 0, at_3.stderr
    result = json.loads(at_3.stdout)
    assert result["game"] == "scorepad" and result["seq"] == 3 and result["finished"] is False
    assert [(r["player"], r["score"], r["rank"]) for r in result["standings"]] == [("Anna", 12, 1), ("Béla", 7, 2)]
    last = json.loads(flask(db_path, "replay", str(path)).stdout)
    assert last["finished"] is True and last["seq"] == 14
    assert last["standings"][0]["breakdown"] == {"round-1": 12, "round-2": 6}


def test_verify_accepts_an_intact_file_and_names_the_first_bad_event(exported, tmp_path):
    db_path, _, path = exported
    ok = flask(db_path, "verify", str(path))
    assert ok.returncode == 0 and "14 events" in ok.stdout
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["events"][5]["data"]["seat"] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    refused = flask(db_path, "verify", str(bad))
    assert refused.returncode != 0 and "event 6:" in refused.stderr
    replayed = flask(db_path, "replay", str(bad))
    assert replayed.returncode != 0 and "event 6:" in replayed.stderr and not replayed.stdout
    bad.write_text("{not json", encoding="utf-8")
    junk = flask(db_path, "verify", str(bad))
    assert junk.returncode != 0 and "cannot read" in junk.stderr


def test_export_writes_the_game_to_stdout_and_verify_db_checks_the_chain(exported):
    db_path, game_id, path = exported
    result = flask(db_path, "export", game_id)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["events"] == json.loads(path.read_text(encoding="utf-8"))["events"]
    missing = flask(db_path, "export", "no-such-game")
    assert missing.returncode != 0 and "no such game" in missing.stderr
    checked = flask(db_path, "verify-db")
    assert checked.returncode == 0 and "0 problems" in checked.stdout


def test_verify_db_names_a_row_changed_behind_the_apps_back(exported):
    db_path, game_id, _ = exported
    db = store.connect(str(db_path))
    db.execute("DROP TRIGGER events_no_update")  # what only someone with the file could do
    run_sql(db, "UPDATE events SET data = :data WHERE game_id = :game_id AND seq = 4",
            data='{"seat": 1, "points": 41}', game_id=game_id)
    db.conn.close()
    result = flask(db_path, "verify-db")
    assert result.returncode != 0 and f"game {game_id}: event 4:" in result.stderr
