"""Crashes (docs/reliability.md §3): kill -9 the server (master and workers at once)
while phones write, again and again, and once in the middle of an import. After every
restart `PRAGMA integrity_check` is ok, `flask --app app verify-db` passes and every
event whose append was acknowledged to a phone is present."""
from __future__ import annotations

import http.client
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid

import pytest

from events.storage import store
from tests.reliability.kit import Phone, ROOT, Server, assert_store_sound, create_game, record_figures

# 8 kills per engine in `make test` (each kill a fresh chance to lose an acknowledged append);
# 100 behind the `slow` marker (`make test-slow`).
KILLS = int(os.environ.get("CRASH_KILLS", "8"))
WRITERS = 4
FIGURES: dict = {}


def _writer(url: str, game: dict, seat: int, acked: dict, lock: threading.Lock, stop: threading.Event):
    """Record moves until the server dies; remember only appends the phone was told of."""
    phone = Phone(url, game["seats"][seat]["token"], timeout=5)
    seen = None
    try:
        while not stop.is_set():
            if seen is None:
                status, state = phone.request("GET", f"/api/games/{game['id']}/state")
                seen = state["seq"]
            cid = uuid.uuid4().hex
            status, body = phone.request("POST", f"/api/games/{game['id']}/events", {
                "type": "points-recorded", "data": {"seat": seat, "points": 1},
                "expected_seq": seen, "client_event_id": cid})
            if status == 201:
                with lock:
                    acked[cid] = (game["id"], body["seq"])
                seen = body["seq"]
            elif status == 409:
                seen = body["seq"]
            else:
                raise AssertionError(f"{status}: {body}")
    except (OSError, ValueError, http.client.HTTPException):
        pass  # the server died under us: whatever was in flight is unacknowledged
    finally:
        phone.close()


def _stored(db_path: str) -> dict[str, tuple[str, int]]:
    db = store.connect(db_path)
    try:
        return {cid: (game, seq) for game, seq, cid in
                db.execute("SELECT game_id, seq, client_event_id FROM events").fetchall()}
    finally:
        db.conn.close()


def test_kill_9_under_write_load_loses_no_acknowledged_event(database):
    """On SQLite and on PostgreSQL (issue 19)."""
    _kill_rounds(database, KILLS)


@pytest.mark.slow
def test_slow_kill_9_a_hundred_times(tmp_path):
    _kill_rounds(str(tmp_path / "crash.db"), 100)


def _kill_rounds(db_path: str, kills: int) -> None:
    rng = random.Random(8)
    acked: dict[str, tuple[str, int]] = {}
    lock = threading.Lock()
    server = Server(db_path).start()
    try:  # the server stops however the test ends (a failed set-up left it running)
        games = [create_game(server.url, "scorepad", [{"name": "A"}, {"name": "B"}]) for _ in range(2)]
        for kill in range(kills):
            if server.proc is None:
                server.start()
            stop = threading.Event()
            writers = [threading.Thread(target=_writer, args=(server.url, games[i % 2], i % 2,
                                                              acked, lock, stop))
                       for i in range(WRITERS)]
            for w in writers:
                w.start()
            time.sleep(rng.uniform(0.15, 0.5))  # a short write burst, then the plug is pulled
            server.kill9()
            stop.set()
            for w in writers:
                w.join(15)
                assert not w.is_alive()
            assert_store_sound(db_path, subprocess_cli=(kill == kills - 1))
            stored = _stored(db_path)
            missing = [cid for cid in acked if stored.get(cid) != acked[cid]]
            assert not missing, f"kill {kill + 1}: acknowledged events lost: {missing[:5]}"
        server.start()  # and it comes back up on the same file
        assert Phone(server.url).request("GET", f"/api/games/{games[0]['id']}/state")[0] == 200
    finally:
        server.stop()
    assert len(acked) > kills  # there really was write load (on average more than one per burst)
    FIGURES["kills"] = kills
    FIGURES["acknowledged"] = len(acked)
    FIGURES["stored"] = len(_stored(db_path))
    if not db_path.startswith("postgresql://"):  # the figures docs/reliability.md cites
        record_figures(f"crash ({kills} kills)", FIGURES)


IMPORTER = """
import json, sys
from events.application.export import import_game
from events.storage import store
db = store.connect(sys.argv[1])
store.IMPORT_CHUNK = int(sys.argv[3])  # several transactions per game, as a large file has
insert = store.insert_unlisted

def told(db, game_id, rows):  # each transaction of events said once it is in
    insert(db, game_id, rows)
    print("events", game_id, flush=True)

store.insert_unlisted = told
for doc in json.load(open(sys.argv[2])):  # each a game of another server: one import each
    created = import_game(db, doc, "importer")
    print("game", created["id"], flush=True)
"""


def test_kill_9_in_the_middle_of_imports_leaves_whole_games_or_none(tmp_path):
    """After kill -9 an imported game is listed whole or not at all: its events go in by a
    few per transaction and its row last (docs/decisions.md, "Short writes"), so the import
    cut off leaves events under an id nothing lists, and its file imports whole again."""
    from events.application.export import export_game, import_game
    from events.application.table import new_game, record
    db_path, doc_path = str(tmp_path / "import.db"), str(tmp_path / "games.json")
    store.prepare(db_path)
    source = store.connect(str(tmp_path / "source.db"))
    store.migrate(source)
    # the games to import are only written to be exported: their file needs no fsync per
    # move (the import it is killed in keeps synchronous=FULL)
    source.conn.execute("PRAGMA synchronous=OFF")
    docs = []
    for _ in range(8):  # the kill comes in the third: the rest make sure it is not the last
        game = new_game(source, "scorepad", [{"name": "A"}, {"name": "B"}], {}, "dev")
        for i in range(300):
            record(source, game["id"], "points-recorded", {"seat": i % 2, "points": i}, i + 1, 0, "dev", f"c{i}")
        docs.append(export_game(source, game["id"]))
    import json
    with open(doc_path, "w") as f:
        json.dump(docs, f)
    source.conn.close()
    size = 301
    chunk = 50
    proc = subprocess.Popen([sys.executable, "-c", IMPORTER, db_path, doc_path, str(chunk)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    done, cut_at = [], 0
    while len(done) < 2 or cut_at < 2:  # two games imported, two transactions of the third in
        word, game_id = proc.stdout.readline().split()
        if word == "game":
            done.append(game_id)
        elif len(done) == 2:
            cut_at += 1
    time.sleep(random.Random(3).uniform(0, 0.005))  # in its third transaction, or the pause after it
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)
    proc.stdout.close()
    assert_store_sound(db_path)
    conn = sqlite3.connect(db_path)
    counts = dict(conn.execute("SELECT game_id, COUNT(*) FROM events GROUP BY game_id"))
    summaries = dict(conn.execute("SELECT id, last_seq FROM games"))
    conn.close()
    assert set(done) <= set(summaries)
    assert len(summaries) < len(docs), "the importer had finished before the kill: nothing was cut"
    assert all(counts.get(gid) == size and last == size for gid, last in summaries.items())  # listed: whole
    cut = {gid: n for gid, n in counts.items() if gid not in summaries}
    assert len(cut) == 1 and all(n % chunk == 0 and 2 * chunk <= n < size for n in cut.values())  # whole transactions
    db = store.connect(db_path)
    assert store.game_ids(db) == sorted(summaries)  # the cut import is no game
    again = import_game(db, docs[len(summaries)], "importer")["id"]  # its file, imported again
    assert export_game(db, again)["events"] == docs[len(summaries)]["events"]
    db.conn.close()
    record_figures("crash: kill -9 mid-import", {"imports acknowledged before the kill": len(done),
                                                 "games listed": len(summaries), "events per game": size,
                                                 "partial games listed": 0,
                                                 "events left unlisted by the cut import": sum(cut.values())})
