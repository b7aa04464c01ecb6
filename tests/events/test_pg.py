"""The store on PostgreSQL shared by several app servers (issue 19, docs/scaling.md):
one schema for both engines, start-up races, two servers racing on one game, a cache
that notices events recorded elsewhere, LISTEN/NOTIFY, and faults (`copy-db`: tests/services/test_transfer.py).
A cluster is started by tests/conftest.py (postgres_server); if it cannot start,
these tests fail."""
import json
import os
import pathlib
import sqlite3
import subprocess
import sys
import threading

import psycopg
import pytest

from events.application.export import export_game, import_game
from events.application.table import new_game
from events.domain.event import NewEvent
from events.runtime import live
from events.storage import sql, migrations, store
from events.storage.sql import Statement
from tests.conftest import app_on

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def _points(n: int, client: str) -> NewEvent:
    return NewEvent("points-recorded", 1, {"seat": 0, "points": n}, 0, "dev", client)


def _columns_sqlite(path: str) -> dict[str, list[str]]:
    conn = sqlite3.connect(path)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                         " AND name NOT LIKE 'sqlite_%' AND name != '_sqlite_migrations'")]
    found = {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in tables}
    conn.close()
    return found


def _columns_postgres(url: str) -> dict[str, list[str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT table_name, column_name FROM information_schema.columns"
                            " WHERE table_schema = 'public' AND table_name != 'tablescribe_migrations'"
                            " ORDER BY table_name, ordinal_position").fetchall()
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(table, []).append(column)
    return found


def test_both_engines_migrate_by_the_same_steps_to_the_same_columns(tmp_path, postgres_url):
    assert [m.name for m in migrations.migrations._migrations] == list(migrations.POSTGRES)
    store.prepare(str(tmp_path / "t.db"))
    store.prepare(postgres_url)
    assert _columns_postgres(postgres_url) == _columns_sqlite(str(tmp_path / "t.db"))


def test_both_engines_hold_the_same_schema(tmp_path, postgres_url):
    """Not only the columns: their types and NOT NULL, every primary key, unique and
    indexed column set, and which tables refuse updates and deletes (migrations.describe)."""
    store.prepare(str(tmp_path / "t.db"))
    store.prepare(postgres_url)
    on_sqlite, on_postgres = store.connect(str(tmp_path / "t.db")), store.connect(postgres_url)
    assert migrations.describe(on_postgres) == migrations.describe(on_sqlite)
    assert migrations.describe(on_sqlite)["events"]["append_only"]


def test_a_migration_is_described_once_and_both_engines_are_built_from_it(tmp_path, postgres_url):
    """A new table, index, column and append-only rule written once (events/storage/schema.py) come
    out the same on both engines: no migration has a hand-written twin."""
    from events.storage.schema import BIGINT, PLAIN_TEXT, TEXT, AddColumns, Column, Index, Step, Table, Unchangeable
    steps = (Table("scratch", (Column("id", TEXT, primary=True), Column("n", BIGINT), Column("note", PLAIN_TEXT, null=True))),
             Index("scratch_n", "scratch", ("n",)), AddColumns("scratch", (Column("more", BIGINT, default="0"),)),
             Unchangeable("scratch", "append-only"))
    store.prepare(str(tmp_path / "t.db"))
    store.prepare(postgres_url)
    on_sqlite, on_postgres = store.connect(str(tmp_path / "t.db")), store.connect(postgres_url)
    for step in steps:
        step.sqlite(on_sqlite)
        for sql in step.postgres():
            on_postgres.conn.raw.execute(sql)
    on_postgres.conn.raw.commit()
    assert migrations.describe(on_postgres)["scratch"] == migrations.describe(on_sqlite)["scratch"] == {
        "columns": {"id": ("TEXT", True), "n": ("INTEGER", True), "note": ("TEXT", False), "more": ("INTEGER", True)},
        "primary": ("id",), "unique": [], "indexed": [("n",)], "append_only": True}
    assert all(isinstance(step, Step) for steps in migrations.MIGRATIONS.values() for step in steps)
    assert list(migrations.POSTGRES) == list(migrations.MIGRATIONS)


def test_a_question_mark_percent_sign_or_colon_in_a_literal_reaches_postgresql_as_written(postgres_url):
    """A statement is rendered for PostgreSQL once, when it is made (events/storage/sql.py):
    only its named parameters outside quotes and comments become placeholders, so a
    literal keeps its '?', '%' and ':name', and a cast's '::' stays a cast."""
    store.prepare(postgres_url)
    db = store.connect(postgres_url)
    said = Statement("SELECT '?', :a, 'it''s 10%?', '%' || :b, ':b', 2::text -- a comment? 100% :c")
    assert tuple(sql.one(db, said, a="a", b="b")) == ("?", "a", "it's 10%?", "%b", ":b", "2")
    assert sql.dicts(db, Statement("SELECT :c AS q WHERE 'x' LIKE '%'"), c="c") == [{"q": "c"}]


def test_servers_starting_together_create_the_schema_once(postgres_url):
    errors = []

    def boot():
        try:
            store.prepare(postgres_url)
        except Exception as err:  # noqa: BLE001 - any failure of a booting server counts
            errors.append(err)

    threads = [threading.Thread(target=boot) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with psycopg.connect(postgres_url) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM tablescribe_migrations")]
    assert sorted(names) == sorted(migrations.POSTGRES)


def test_appends_to_one_game_never_wait_for_another_games_lock(postgres_url):
    """Game A's append lock is held; game B's append goes through meanwhile."""
    store.prepare(postgres_url)
    db = store.connect(postgres_url)
    a = new_game(db, "scorepad", [{"name": "A"}, {"name": "B"}], {}, "dev")["id"]
    b = new_game(db, "scorepad", [{"name": "A"}, {"name": "B"}], {}, "dev")["id"]
    holder = store.connect(postgres_url)
    with store.write_lock(holder):
        store.lock_game(holder, a)
        other = store.connect(postgres_url)
        other.execute("SET lock_timeout = '2s'")
        store.append(other, b, _points(1, "b1"), 1)  # not blocked
        with pytest.raises(psycopg.errors.LockNotAvailable):
            store.append(other, a, _points(1, "a1"), 1)  # A's lock is held
    assert store.last_seq(db, b) == 2 and store.last_seq(db, a) == 1


def test_two_servers_racing_on_one_game_get_one_201_and_one_409(postgres_url):
    first, second = app_on(postgres_url), app_on(postgres_url)
    created = first.test_client().post("/api/games", json={"kind": "scorepad", "players": [
        {"name": "Anna"}, {"name": "Béla"}]})
    game = created.get_json()
    token = game["seats"][0]["token"]
    outcomes = []
    for round_ in range(10):
        seq = 1 + round_
        barrier = threading.Barrier(2)

        def tap(app, client_id):
            client = app.test_client()
            barrier.wait()
            answer = client.post(f"/api/games/{game['id']}/events", headers={"X-Seat-Token": token},
                                 json={"type": "points-recorded", "data": {"seat": 0, "points": 1},
                                       "expected_seq": seq, "client_event_id": client_id})
            outcomes.append(answer.status_code)

        threads = [threading.Thread(target=tap, args=(app, f"{name}-{round_}"))
                   for name, app in (("a", first), ("b", second))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sorted(outcomes) == [201] * 10 + [409] * 10
    db = store.connect(postgres_url)
    assert [e.seq for e in store.read_events(db, game["id"])] == list(range(1, 12))
    assert store.verify_game(db, game["id"]) is None


def test_a_server_checks_moves_against_events_recorded_through_another(postgres_url):
    """Server A's cached board must not be stale after server B recorded a move."""
    a = app_on(postgres_url).test_client()
    game = a.post("/api/games", json={"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]}).get_json()
    auth = {"X-Seat-Token": game["seats"][0]["token"]}
    move = {"type": "points-recorded", "data": {"seat": 0, "points": 5}}
    assert a.post(f"/api/games/{game['id']}/events", headers=auth,
                  json={**move, "expected_seq": 1, "client_event_id": "a1"}).status_code == 201
    # server B (another process: it shares nothing with A but the database)
    other = store.connect(postgres_url)
    store.append(other, game["id"], _points(7, "b1"), 2)
    stale = a.post(f"/api/games/{game['id']}/events", headers=auth,
                   json={**move, "expected_seq": 2, "client_event_id": "a2"})
    assert stale.status_code == 409
    fresh = a.post(f"/api/games/{game['id']}/events", headers=auth,
                   json={**move, "expected_seq": 3, "client_event_id": "a3"})
    assert fresh.status_code == 201
    state = a.get(f"/api/games/{game['id']}/state", headers=auth).get_json()
    assert state["seq"] == 4 and state["standings"][0]["score"] == 17  # 5 + 7 + 5: both servers' moves


@pytest.fixture
def stream(postgres_url):
    """A game on PostgreSQL and a stream of this server waiting for it: (db, game id, its flag),
    once the watcher listens (it wakes every stream once when it starts)."""
    store.prepare(postgres_url)
    db = store.connect(postgres_url)
    game_id = new_game(db, "scorepad", [{"name": "A"}, {"name": "B"}], {}, "dev")["id"]
    hub = live.Hub()
    flag = hub.subscribe(game_id, postgres_url)
    try:
        assert flag.wait(5)
        flag.clear()
        yield db, game_id, flag
    finally:
        hub.unsubscribe(game_id, flag)
        hub._database = None  # the watcher stops


def test_a_move_committed_through_another_server_wakes_this_servers_streams(postgres_url, stream):
    _, game_id, flag = stream
    other = store.connect(postgres_url)
    with pytest.raises(store.StaleSequence):  # a refused append notifies nobody
        store.append(other, game_id, _points(1, "x"), 5)
    assert not flag.wait(0.5)
    store.append(other, game_id, _points(1, "y"), 1)
    assert flag.wait(10)


def test_postgres_unreachable_at_start_names_database_url_without_a_traceback(tmp_path):
    from tests.conftest import free_port
    url = f"postgresql://nobody:secret@127.0.0.1:{free_port()}/tablescribe"
    env = {**os.environ, "DATABASE_URL": url}
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "init-db"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "DATABASE_URL=postgresql://nobody:***@127.0.0.1" in done.stderr
    assert "secret" not in done.stderr and "Traceback" not in done.stderr


def test_a_connection_lost_mid_request_is_a_503_with_retry_and_nothing_written(postgres_url, monkeypatch):
    app = app_on(postgres_url)
    client = app.test_client()
    game = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "A"}, {"name": "B"}]}).get_json()
    auth = {"X-Seat-Token": game["seats"][0]["token"]}
    real_touch = store._touch_summary

    def insert_then_lose_the_connection(db, *args):
        """The event row is inserted; PostgreSQL goes before the summary and the COMMIT."""
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [db.conn.raw.info.backend_pid])
        return real_touch(db, *args)

    monkeypatch.setattr(store, "_touch_summary", insert_then_lose_the_connection)
    answer = client.post(f"/api/games/{game['id']}/events", headers=auth,
                         json={"type": "points-recorded", "data": {"seat": 0, "points": 5},
                               "expected_seq": 1, "client_event_id": "lost"})
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "5"
    db = store.connect(postgres_url)
    assert store.last_seq(db, game["id"]) == 1 and store.find_by_client_id(db, game["id"], "lost") is None
    monkeypatch.undo()  # PostgreSQL is back: the phone's resend is recorded once
    again = client.post(f"/api/games/{game['id']}/events", headers=auth,
                        json={"type": "points-recorded", "data": {"seat": 0, "points": 5},
                              "expected_seq": 1, "client_event_id": "lost"})
    assert again.status_code == 201 and store.last_seq(db, game["id"]) == 2


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_exports_the_same_bytes_from_either_engine(tmp_path, postgres_url, path):
    doc = json.loads(path.read_text())
    exported = []
    for database in (str(tmp_path / "t.db"), postgres_url):
        store.prepare(database)
        db = store.connect(database)
        game_id = import_game(db, doc)["id"]
        exported.append(json.dumps(export_game(db, game_id)["events"], ensure_ascii=False))
    assert exported[0] == exported[1]


def test_a_watcher_that_lost_its_connection_listens_again(postgres_url, stream):
    db, game_id, flag = stream
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        killed = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                               " WHERE query LIKE 'LISTEN%'").fetchall()
    assert killed == [(True,)]
    assert flag.wait(10)  # reconnected: every stream woken once (it may have missed a move)
    flag.clear()
    store.append(db, game_id, _points(1, "after"), 1)
    assert flag.wait(10)  # and notified again


def test_the_database_commands_on_postgres(tmp_path, postgres_url):
    """verify-db checks every chain there; backup and restore (SQLite files) point to
    PostgreSQL's own tools instead of failing half-way."""
    app = app_on(postgres_url)
    app.test_client().post("/api/games", json={"kind": "scorepad", "players": [{"name": "A"}, {"name": "B"}]})
    runner = app.test_cli_runner()
    verified = runner.invoke(args=["verify-db"])
    assert verified.exit_code == 0 and "1 games checked, 0 problems" in verified.output
    backup = runner.invoke(args=["backup", str(tmp_path / "b.db")])
    assert backup.exit_code != 0 and "pg_dump" in backup.output
    assert not (tmp_path / "b.db").exists()
    restore_from = tmp_path / "r.db"
    restore_from.write_bytes(b"")
    restore = runner.invoke(args=["restore", str(restore_from), "--yes"])
    assert restore.exit_code != 0 and "pg_restore" in restore.output
