"""Snapshots that survive a restart (events/storage/snapshots.py): a worker starting afresh folds
a long game on from the stored states instead of from event 1, on both engines; what it
restores equals the full fold; a snapshot of other code, another key or another record
is not used, and is replaced by the states folded afresh. The events stay as they were."""
import pytest

from bench.common import grow, store_game
from events.application import states as tables
from events.application.table import record
from events.domain.projection import fold
from events.storage import store
from events.storage.snapshots import EVERY, Snapshots, code_version
from tests.conftest import app_on, run_sql


@pytest.fixture
def db(database):
    conn = store.connect(database)
    store.migrate(conn)
    yield conn
    conn.conn.close()


@pytest.fixture
def steps(monkeypatch):
    """Every event a walk steps through (a fold from event 1 steps through all of them)."""
    seen = []
    original = tables.Walker.step
    monkeypatch.setattr(tables.Walker, "step", lambda self, event: seen.append(event.seq) or original(self, event))
    return seen


def _long_game(db, size: int = 3 * EVERY) -> tuple[str, list]:
    _, events, _ = grow("scorepad", size)
    game_id, _ = store_game(db, events)
    return game_id, store.read_events(db, game_id)


def _worker(key: str = "secret", code: str | None = None) -> tables.States:
    """A server process's states, as one that has just started."""
    return tables.States(stored=Snapshots(key, code))


def _stored(db, game_id: str) -> tuple:
    return run_sql(db, "SELECT seq, hash, code_version FROM state_snapshots WHERE game_id = :id", id=game_id).fetchone()


def test_a_restarted_worker_folds_on_from_the_stored_snapshot(db, steps):
    game_id, events = _long_game(db)
    first = _worker().game(db, game_id)  # the worker before the restart: folds from event 1, stores
    assert steps[0] == 1 and tuple(_stored(db, game_id)) == (len(events), events[-1].hash, code_version())

    steps.clear()
    restarted = _worker()
    assert restarted.load(db, game_id) == fold(events) and steps == []
    found = restarted.game(db, game_id)
    assert (found.totals, found.texts, found.whos, found.marks) == (first.totals, first.texts, first.whos, first.marks)
    middle = len(events) // 2
    assert restarted.load(db, game_id, at=middle) == fold(events, upto=middle)


def test_moves_after_the_snapshot_are_walked_on_and_the_snapshot_follows_the_game(db, steps):
    game_id, _ = _long_game(db)
    _worker().game(db, game_id)
    worker = _worker()
    for n in range(3):
        seq = worker.load(db, game_id).seq
        record(db, game_id, "points-recorded", {"seat": 0, "points": n}, seq, 0, "phone", f"after-{n}", states=worker)
    events = store.read_events(db, game_id)
    steps.clear()
    assert _worker().load(db, game_id) == fold(events)
    assert steps == [e.seq for e in events[-3:]]  # the three moves after the stored snapshot, no more


def test_a_snapshot_of_other_code_is_stale_and_replaced_by_the_game_folded_afresh(db, steps):
    game_id, events = _long_game(db)
    _worker(code="rules of yesterday").game(db, game_id)
    assert _stored(db, game_id)[2] == "rules of yesterday"
    steps.clear()
    assert _worker().load(db, game_id) == fold(events)
    assert steps[0] == 1  # folded from event 1, not from yesterday's states
    assert _stored(db, game_id)[2] == code_version()
    steps.clear()
    _worker().load(db, game_id)
    assert steps == []


def test_a_snapshot_not_signed_with_this_key_or_changed_in_the_store_is_not_used(db, steps):
    game_id, events = _long_game(db)
    _worker(key="another server's key").game(db, game_id)
    steps.clear()
    assert _worker().load(db, game_id) == fold(events) and steps[0] == 1
    run_sql(db, "UPDATE state_snapshots SET seq = seq - 1 WHERE game_id = :id", id=game_id)  # signed for its seq
    steps.clear()
    assert _worker().load(db, game_id) == fold(events) and steps[0] == 1
    assert [e.hash for e in store.read_events(db, game_id)] == [e.hash for e in events]  # the events untouched


def test_a_snapshot_of_another_record_under_the_same_id_is_not_used(db, steps):
    """The store's event at the snapshot's seq must still have its hash: a game whose
    events are not the ones folded (here: a store where the game is another one) folds afresh."""
    game_id, _ = _long_game(db)
    _worker().game(db, game_id)
    row = run_sql(db, "SELECT seq, hash, rules_version, code_version, mac, data, made_at FROM state_snapshots"
                  " WHERE game_id = :id", id=game_id).fetchone()
    other_id, other = _long_game(db)
    names = ("seq", "hash", "rules_version", "code_version", "mac", "data", "made_at")
    run_sql(db, "INSERT INTO state_snapshots (game_id, seq, hash, rules_version, code_version, mac, data, made_at)"
            " VALUES (:game_id, :seq, :hash, :rules_version, :code_version, :mac, :data, :made_at)",
            game_id=other_id, **dict(zip(names, row)))
    steps.clear()
    assert _worker().load(db, other_id) == fold(other) and steps[0] == 1


def test_a_short_game_is_not_stored(db):
    _, events, _ = grow("scorepad", EVERY // 2)
    game_id, _ = store_game(db, events)
    _worker().game(db, game_id)
    assert _stored(db, game_id) is None


def test_the_history_pages_of_a_restarted_server_walk_no_event_again(tmp_path, steps):
    """The app stores its snapshots with its secret key: a second app on the same store
    (a restarted server) shows the timeline and the table without walking the game."""
    database = str(tmp_path / "t.db")
    first = app_on(database)
    db = store.connect(database)
    game_id, events = _long_game(db)
    before = first.test_client().get(f"/games/{game_id}/timeline")
    assert before.status_code == 200 and steps[0] == 1
    steps.clear()
    restarted = app_on(database).test_client()
    after = restarted.get(f"/games/{game_id}/timeline")
    assert after.status_code == 200 and restarted.get(f"/games/{game_id}").status_code == 200
    assert steps == []
    assert after.data.split(b"</head>")[1].split(b">", 1)[1] == before.data.split(b"</head>")[1].split(b">", 1)[1]
    db.conn.close()
