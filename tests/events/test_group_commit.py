"""Group commit (events/storage/group_commit.py): appends that wait for SQLite's write lock
together commit in one transaction, each answered only after it, and each keeps its own
checks — the expected seq, the client id — and its own failure."""
import fcntl
import threading
from contextlib import contextmanager

import pytest

from events.application.table import new_game
from events.domain.event import NewEvent
from events.storage import store
from events.storage.group_commit import Committer
from events.storage.store import StaleSequence


@pytest.fixture
def path(tmp_path):
    path = str(tmp_path / "group.db")
    store.prepare(path)
    return path


def _games(path: str, n: int) -> list[str]:
    db = store.connect(path)
    ids = [new_game(db, "scorepad", [{"name": "A"}, {"name": "B"}], {}, "dev")["id"] for _ in range(n)]
    db.conn.close()
    return ids


def _move(client_id: str, points: int = 1) -> NewEvent:
    return NewEvent("points-recorded", 1, {"seat": 0, "points": points}, 0, "phone", client_id)


@contextmanager
def _write_lock_held(path: str):
    blocker = store.connect(path)
    blocker.execute("BEGIN IMMEDIATE")
    yield
    blocker.execute("COMMIT")
    blocker.conn.close()


def _together(path: str, committer: Committer, taps: list[tuple], held=None) -> list:
    """Each tap ``(game_id, new, expected_seq[, also])`` appended from a thread of its own
    while another connection holds the write lock (or what ``held`` holds), released once
    all of them wait: they meet in one group. Each tap's answer, or the exception it got."""
    answers = [None] * len(taps)

    def tap(i, game_id, new, expected, also=None):
        db = store.connect(path)
        db.committer = committer
        try:
            answers[i] = store.append(db, game_id, new, expected, False, (), also)
        except Exception as err:
            answers[i] = err
        finally:
            db.conn.close()

    threads = [threading.Thread(target=tap, args=(i, *t)) for i, t in enumerate(taps)]
    with held or _write_lock_held(path):
        for t in threads:
            t.start()
        while committer.waiting() < len(taps) and any(t.is_alive() for t in threads):
            threading.Event().wait(0.001)  # until every append is queued behind the held lock
    for t in threads:
        t.join()
    return answers


def test_appends_waiting_together_commit_in_one_transaction_and_each_gets_its_event(path):
    games = _games(path, 6)
    committer = Committer()
    answers = _together(path, committer, [(g, _move(f"tap-{g}"), 1) for g in games])
    assert (committer.commits, committer.appends) == (1, 6)
    db = store.connect(path)
    for game_id, (event, created) in zip(games, answers):
        assert created and event.seq == 2
        assert store.read_events(db, game_id)[-1] == event  # durable: read back from another connection


def test_in_one_group_the_second_move_on_the_same_seq_is_stale_and_a_resubmission_is_the_same_event(path):
    game, other = _games(path, 2)
    committer = Committer()
    answers = _together(path, committer, [(game, _move("first", 1), 1), (game, _move("second", 2), 1),
                                          (other, _move("twice"), 1), (other, _move("twice"), 1)])
    assert committer.commits == 1
    stale = [a for a in answers[:2] if isinstance(a, StaleSequence)]
    stored = [a for a in answers[:2] if not isinstance(a, Exception)]
    assert len(stale) == len(stored) == 1 and stale[0].current_seq == 2
    (one, created_one), (two, created_two) = answers[2:]
    assert one == two and sorted([created_one, created_two]) == [False, True]
    db = store.connect(path)
    assert [e.seq for e in store.read_events(db, game)] == [1, 2]
    assert [e.seq for e in store.read_events(db, other)] == [1, 2]


def test_an_append_that_fails_in_a_group_is_undone_alone(path):
    games = _games(path, 3)

    def fails(db, event):
        raise RuntimeError("the read model refused")

    committer = Committer()
    answers = _together(path, committer, [(games[0], _move("a"), 1, fails), (games[1], _move("b"), 1),
                                          (games[2], _move("c"), 1)])
    assert isinstance(answers[0], RuntimeError) and committer.commits == 1
    db = store.connect(path)
    assert store.last_seq(db, games[0]) == 1 and store.game_row(db, games[0])["last_seq"] == 1
    assert [store.last_seq(db, g) for g in games[1:]] == [2, 2]


def test_a_phones_move_goes_through_the_apps_group_commit(app, client):
    created = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "A"}, {"name": "B"}]})
    game = created.get_json()
    committer = app.extensions["committer"]
    before = (committer.commits, committer.appends)
    moved = client.post(f"/api/games/{game['id']}/events", json={
        "type": "points-recorded", "data": {"seat": 0, "points": 3}, "expected_seq": 1,
        "client_event_id": "api-1"}, headers={"X-Seat-Token": game["seats"][0]["token"]})
    assert moved.status_code == 201, moved.get_json()
    assert (committer.commits - before[0], committer.appends - before[1]) == (1, 1)


def test_a_committer_waits_for_the_other_processes_turn_and_then_commits_all_it_queued(path):
    """The server's workers take turns on a lock file before SQLite's write lock: while
    another process commits (here the test holds the file), nothing is stored and the
    appends queue; then they commit together, and the file is held while they do."""
    games = _games(path, 3)
    turns = store.turns_file(path)
    committer = Committer(turns)
    stored_meanwhile, held_while_committing = [], []

    @contextmanager
    def other_process_commits():
        with open(turns, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            yield
            db = store.connect(path)
            stored_meanwhile.extend(store.last_seq(db, g) for g in games)
            db.conn.close()

    def turn_taken(db, event):
        with open(turns, "a") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                held_while_committing.append(event.seq)

    answers = _together(path, committer, [(g, _move(f"t-{g}"), 1, turn_taken) for g in games],
                        held=other_process_commits())
    assert stored_meanwhile == [1, 1, 1]
    assert (committer.commits, committer.appends) == (1, 3)
    assert [a[0].seq for a in answers] == [2, 2, 2] and held_while_committing == [2, 2, 2]


def test_the_turns_file_lies_beside_a_sqlite_file_only():
    assert store.turns_file("/srv/tables.db") == "/srv/tables.db.write-turns"
    assert store.turns_file(":memory:") is None
    assert store.turns_file("postgresql://localhost/tables") is None
