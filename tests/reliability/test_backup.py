"""Nothing lost (docs/reliability.md §6): `flask --app app backup PATH` copies the
live database while phones keep writing; `flask --app app restore PATH` brings it
back; every finished game stays exportable, and the export imports again."""
from __future__ import annotations

import sqlite3
import threading
import time
import uuid

from events.storage import store
from tests.reliability.kit import Phone, Server, assert_store_sound, create_game, flask_cli, record_figures

FIGURES: dict = {}


def _rows(path: str) -> dict[tuple[str, int], tuple]:
    conn = sqlite3.connect(path)
    try:
        return {(r[0], r[1]): r for r in conn.execute(
            "SELECT game_id, seq, type, data, client_event_id, hash FROM events")}
    finally:
        conn.close()


def _write_until(url: str, game: dict, stop: threading.Event, count: list) -> None:
    phone = Phone(url, game["seats"][0]["token"])
    seen = 1
    while not stop.is_set():
        status, body = phone.request("POST", f"/api/games/{game['id']}/events", {
            "type": "points-recorded", "data": {"seat": 0, "points": 1},
            "expected_seq": seen, "client_event_id": uuid.uuid4().hex})
        assert status in (201, 409), body
        seen = body["seq"]
        count.append(status)
    phone.close()


def test_online_backup_under_write_load_then_restore(tmp_path):
    live, backup, restored = (str(tmp_path / n) for n in ("live.db", "backup.db", "restored.db"))
    stop, count = threading.Event(), []
    with Server(live) as server:
        games = [create_game(server.url, "scorepad", [{"name": "A"}, {"name": "B"}]) for _ in range(3)]
        writers = [threading.Thread(target=_write_until, args=(server.url, g, stop, count)) for g in games]
        for w in writers:
            w.start()
        deadline = time.time() + 60
        while len(count) < 60 and time.time() < deadline:  # the phones are well under way
            stop.wait(0.02)
        assert len(count) >= 60, "the phones could not write"
        at_start = len(count)
        result = flask_cli(live, "backup", backup)
        during = len(count) - at_start
        stop.set()
        for w in writers:
            w.join(30)
        assert result.returncode == 0, result.stderr
        assert "Backed up 3 games" in result.stdout
        assert during > 0  # the phones kept writing while the backup ran
        # The backup is a consistent snapshot: each game a prefix of the live game.
        backed, now = _rows(backup), _rows(live)
        assert backed and all(now[key] == row for key, row in backed.items())
        for game in games:
            seqs = sorted(seq for gid, seq in backed if gid == game["id"])
            assert seqs == list(range(1, len(seqs) + 1))
    assert_store_sound(backup)
    # Refuses to overwrite an existing file.
    assert flask_cli(live, "backup", backup).returncode != 0

    # Restore into a fresh database file and into one that already holds other games.
    other = str(tmp_path / "other.db")
    db = store.connect(other)
    store.migrate(db)
    db.conn.close()
    for target in (restored, other):
        result = flask_cli(target, "restore", backup, "--yes")
        assert result.returncode == 0, result.stderr
        assert _rows(target) == backed
        assert_store_sound(target)
    with Server(restored) as server:  # the server runs on the restored file
        phone = Phone(server.url, games[0]["seats"][0]["token"])
        _, state = phone.request("GET", f"/api/games/{games[0]['id']}/state")
        status, _ = phone.request("POST", f"/api/games/{games[0]['id']}/events", {
            "type": "game-ended", "data": {}, "expected_seq": state["seq"], "client_event_id": "end"})
        phone.close()
        assert status == 201
    FIGURES.update(backup_events=len(backed), writes_during_backup=during)
    record_figures("backup", FIGURES)


def test_restore_refuses_a_damaged_backup(tmp_path):
    live, bad = str(tmp_path / "live.db"), str(tmp_path / "bad.db")
    db = store.connect(live)
    store.migrate(db)
    from events.application.table import new_game
    new_game(db, "scorepad", [{"name": "A"}], {}, "dev")
    db.conn.close()
    assert flask_cli(live, "backup", bad).returncode == 0
    conn = sqlite3.connect(bad)  # forge an event behind the chain's back
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET data = '{\"kind\": \"scorepad\"}' WHERE seq = 1")
    conn.commit()
    conn.close()
    before = _rows(live)
    result = flask_cli(live, "restore", bad, "--yes")
    assert result.returncode != 0 and "event 1" in result.stderr
    assert _rows(live) == before
