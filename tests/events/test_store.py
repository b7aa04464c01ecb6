"""The append-only store: racing phones, resubmissions, the hash chain, no updates.
Every test but the SQLite file's own (WAL) runs on both engines (issue 19)."""
import sqlite3
import threading

import psycopg
import pytest

from events.domain.event import NewEvent
from events.storage import store
from events.storage.store import StaleSequence
from tests.conftest import run_sql


def _new(n: int, client: str | None = None) -> NewEvent:
    return NewEvent("points-recorded", 1, {"seat": 0, "points": n}, 0, "dev", client or f"c{n}")


@pytest.fixture
def app(app_on_each_engine):
    return app_on_each_engine


@pytest.fixture
def game_id(table_of):
    return table_of(names=("A", "B")).id


def test_database_is_in_wal_mode(tmp_path):
    db = store.connect(str(tmp_path / "t.db"))
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_switching_a_fresh_file_to_wal_waits_out_another_connections_lock(tmp_path):
    """Workers opening a fresh file at once: SQLite may answer the switch to WAL with
    "database is locked" at once, without waiting (tests/reliability/test_startup.py met it).
    A connection with no busy wait stands in for that answer; the switch is tried again
    until the lock is gone, not given up."""
    path = str(tmp_path / "fresh.db")
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    threading.Timer(0.3, holder.execute, ["COMMIT"]).start()
    opener = sqlite3.connect(path, timeout=0, isolation_level=None)
    store.into_wal(opener)
    assert opener.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other = str(tmp_path / "held.db")  # a lock that stays: given up in time, not waited on for ever
    held = sqlite3.connect(other, isolation_level=None)
    held.execute("CREATE TABLE t (x)")
    held.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        store.into_wal(sqlite3.connect(other, timeout=0, isolation_level=None), within=0.2)


def test_the_write_lock_is_tried_every_millisecond_while_another_connection_holds_it(tmp_path):
    """Issue 38 §5: SQLite's own busy handler sleeps 1, 2, 5, 10, 15, 20, 25 ms… between its
    tries, so a move that met an import's short transaction waited up to 20 ms past its end
    (and the import could take the lock again first). The lock is tried every LOCK_POLL, for
    as long as the connection's busy_timeout, which its other statements keep."""
    path = str(tmp_path / "t.db")
    db, holder = store.connect(path), store.connect(path)
    holder.conn.execute("BEGIN IMMEDIATE")
    pauses = []

    def sleep(seconds):
        pauses.append(seconds)
        if len(pauses) == 3:
            holder.conn.execute("COMMIT")

    store.begin_immediate(db.conn, sleep)
    assert db.conn.in_transaction and pauses == [store.LOCK_POLL] * 3
    db.conn.execute("ROLLBACK")
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 10000
    holder.conn.execute("BEGIN IMMEDIATE")  # held for good: given up after busy_timeout, saying so
    db.conn.execute("PRAGMA busy_timeout=20")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        store.begin_immediate(db.conn)
    assert not db.conn.in_transaction and db.execute("PRAGMA busy_timeout").fetchone()[0] == 20


def test_migrations_are_idempotent(db):
    store.migrate(db)
    store.migrate(db)
    assert store.game_ids(db) == []


def test_racing_threads_lose_nothing_and_duplicate_nothing(app, game_id):
    path = app.config["DATABASE"]
    wins, stale = [], []

    def phone(name: str):
        conn = store.connect(path)
        for i in range(40):
            while True:
                seen = store.last_seq(conn, game_id)
                try:
                    event, _ = store.append(conn, game_id, _new(i, f"{name}-{i}"), seen)
                    wins.append(event.seq)
                    break
                except StaleSequence:
                    stale.append(name)
        conn.conn.close()

    threads = [threading.Thread(target=phone, args=(f"p{n}",)) for n in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    conn = store.connect(path)
    seqs = [e.seq for e in store.read_events(conn, game_id)]
    assert seqs == list(range(1, 202))  # event 1 is the set-up
    assert sorted(wins) == list(range(2, 202))
    assert store.verify_game(conn, game_id) is None


def test_stale_expected_seq_is_refused_and_appends_nothing(db, game_id):
    store.append(db, game_id, _new(1), 1)
    with pytest.raises(StaleSequence) as refused:
        store.append(db, game_id, _new(2), 1)
    assert refused.value.current_seq == 2
    assert store.last_seq(db, game_id) == 2


def test_resubmitted_client_event_id_returns_the_original(db, game_id):
    first, created = store.append(db, game_id, _new(1, "same"), 1)
    again, created_again = store.append(db, game_id, _new(99, "same"), 1)
    assert created and not created_again
    assert again == first
    assert store.last_seq(db, game_id) == 2


REFUSED = (sqlite3.IntegrityError, psycopg.errors.RaiseException)


def test_the_database_refuses_updates_and_deletes(db, game_id):
    with pytest.raises(REFUSED, match="append-only"):
        db.execute("UPDATE events SET data = '{}' WHERE seq = 1")
    with pytest.raises(REFUSED, match="append-only"):
        db.execute("DELETE FROM events")
    if store.is_postgres(db):
        with pytest.raises(REFUSED, match="append-only"):
            db.execute("TRUNCATE events")
    assert store.last_seq(db, game_id) == 1


def test_a_row_edited_behind_our_back_breaks_the_chain_at_that_event(app, db, game_id):
    for i in range(1, 4):
        store.append(db, game_id, _new(i), i)
    assert store.verify_game(db, game_id) is None
    if store.is_postgres(db):
        db.execute("DROP TRIGGER events_no_change ON events")
    else:
        db.execute("DROP TRIGGER events_no_update")
    run_sql(db, "UPDATE events SET data = :data WHERE game_id = :id AND seq = 3",
            data='{"seat": 0, "points": 1000}', id=game_id)
    broken = store.verify_game(db, game_id)
    assert broken is not None and broken[0] == 3


def test_each_event_records_seat_device_time_and_chain(db, game_id):
    event, _ = store.append(db, game_id, _new(5), 1)
    first = store.read_events(db, game_id)[0]
    assert (event.seat, event.device, event.client_event_id) == (0, "dev", "c5")
    assert event.recorded_at.endswith("+00:00")
    assert event.hash != first.hash and len(event.hash) == 64


_APPEND_IN_A_FRESH_PROCESS = """
import sys, threading
{patch}
from events.domain.event import NewEvent
from events.runtime import greenlets
from events.storage import store
db = store.connect(sys.argv[1])
store.migrate(db)
store.insert_game(db, "g1", "scorepad", [{{"name": "A", "colour": ""}}], "code", [None])
hub = threading.get_ident()
ran_on = greenlets.off_the_hub(threading.get_ident)
store.append(db, "g1", NewEvent("game-created", 1, {{}}, None, "dev", "c1"), expected_seq=0)
greenlets.cooperate()
print("gevent" in sys.modules, ran_on != hub)
"""


@pytest.mark.parametrize("patch, expected", [
    ("", "False False"),  # a command or script: gevent is neither imported nor used
    ("from gevent import monkey; monkey.patch_all()", "True True"),  # a server worker: off the hub
])
def test_an_append_runs_off_the_hub_only_where_gevent_runs(tmp_path, patch, expected):
    """Outside a gevent worker an append never imports gevent (it made a process's first
    append ~15 ms slower); in one it still waits for the lock and fsync on a native thread."""
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", _APPEND_IN_A_FRESH_PROCESS.format(patch=patch),
                          str(tmp_path / "t.db")], cwd=root, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-2] == expected


def test_an_idle_connection_comes_back_without_its_transaction_or_tracer(tmp_path):
    path = str(tmp_path / "t.db")
    store.prepare(path)
    idle = store.Idle(size=1)
    db = idle.take(path)
    seen = []
    store.trace(db, seen.append)
    db.conn.execute("BEGIN IMMEDIATE")  # a request that failed inside a write
    idle.give(db, path)
    again = idle.take(path)
    assert again is db and not again.conn.in_transaction
    again.execute("SELECT 1")
    assert seen == ["BEGIN IMMEDIATE", "ROLLBACK"]  # and nothing after it was given back
    other = store.connect(path)  # the write lock was given up with the transaction
    store.begin_immediate(other.conn)
    other.conn.execute("COMMIT")


def test_idle_connections_past_the_size_are_closed_and_never_lent_to_another_process(tmp_path, monkeypatch):
    path = str(tmp_path / "t.db")
    store.prepare(path)
    idle = store.Idle(size=1)
    first, second = idle.take(path), idle.take(path)
    assert first is not second
    idle.give(first, path)
    idle.give(second, path)
    assert len(idle) == 1
    with pytest.raises(sqlite3.ProgrammingError):
        second.execute("SELECT 1")
    monkeypatch.setattr(store.os, "getpid", lambda: -1)  # a forked worker
    assert idle.take(path) is not first
