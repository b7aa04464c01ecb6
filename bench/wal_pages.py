"""Why is the peer's append faster? Is it the schema? Raw inserts of one score pad
row into four tables, side by side, each its own file with the store's durability
(WAL, synchronous=FULL, one BEGIN IMMEDIATE … COMMIT per row):

* ``ours``: the store's schema (events/storage/migrations.py) and its game summary update;
* ``without-rowid``: the same columns keyed ``PRIMARY KEY (game_id, seq) WITHOUT ROWID``
  (no AUTOINCREMENT id, no separate (game_id, seq) index), with the summary update;
* ``without-rowid, no summary``: the same without updating the games row;
* ``peer``: the eventsourcing library's SQLite table (one row, its primary key).

Printed: WAL frames (pages) written per append (checkpoints off while counting) and
the append time (checkpoints on, as in production). ``python -m bench.wal_pages``
"""
from __future__ import annotations

import json
import os
import secrets
import sqlite3
import statistics
import sys
import time

from bench.common import percentile, scratch_dir
from events.storage import store

_COLUMNS = ("game_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, version INTEGER NOT NULL,"
            " data TEXT NOT NULL, seat INTEGER, device TEXT NOT NULL, recorded_at TEXT NOT NULL,"
            " client_event_id TEXT NOT NULL, hash TEXT NOT NULL")
_GAMES = "CREATE TABLE games (id TEXT PRIMARY KEY, last_seq INTEGER, updated_at TEXT)"
VARIANTS = {
    "ours": None,  # the store's own migrations
    "without-rowid": [f"CREATE TABLE events ({_COLUMNS}, PRIMARY KEY (game_id, seq),"
                      " UNIQUE (game_id, client_event_id)) WITHOUT ROWID", _GAMES],
    "without-rowid, no summary": [f"CREATE TABLE events ({_COLUMNS}, PRIMARY KEY (game_id, seq),"
                                  " UNIQUE (game_id, client_event_id)) WITHOUT ROWID"],
    "peer": ["CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER,"
             " topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))"],
}
_SUMMARY = {"ours": True, "without-rowid": True, "without-rowid, no summary": False, "peer": False}
_INSERT = ("INSERT INTO events (game_id, seq, type, version, data, seat, device, recorded_at,"
           " client_event_id, hash) VALUES (?,?,?,?,?,?,?,?,?,?)")


def _open(path: str, variant: str, checkpoints: bool) -> sqlite3.Connection:
    if VARIANTS[variant] is None:
        db = store.connect(path)
        store.migrate(db)
        db.conn.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    if not checkpoints:
        conn.execute("PRAGMA wal_autocheckpoint=0")
    for statement in VARIANTS[variant] or ():
        conn.execute(statement)
    if variant == "ours":
        conn.execute("INSERT INTO games (id, kind, created_at, players, last_seq, updated_at,"
                     " join_code) VALUES ('g0', 'scorepad', '', '[]', 0, '', '')")
    elif _SUMMARY[variant]:
        conn.execute("INSERT INTO games VALUES ('g0', 0, '')")
    return conn


def _append(conn: sqlite3.Connection, variant: str, seq: int) -> None:
    data = json.dumps({"seat": seq % 2, "points": 12, "note": ""})
    conn.execute("BEGIN IMMEDIATE")
    if variant == "peer":
        conn.execute("INSERT INTO stored_events VALUES (?,?,?,?)",
                     ("g0", seq, "bench.peers:Table.Recorded", data.encode() * 2))
    else:
        conn.execute("SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", ["g0"])
        row = ["g0", seq, "points-recorded", 1, data, 0, "dev", "2026-11-26T00:00:00.000+00:00",
               secrets.token_hex(16), secrets.token_hex(32)]
        conn.execute(_INSERT, row)
        if _SUMMARY[variant]:
            conn.execute("UPDATE games SET last_seq = ?, updated_at = ? WHERE id = 'g0'", [seq, "now"])
    conn.execute("COMMIT")


def measure(appends: int = 300) -> dict:
    results = {}
    with scratch_dir() as tmp:
        for checkpoints in (False, True):
            conns = {v: _open(os.path.join(tmp, f"{i}-{checkpoints}.db"), v, checkpoints)
                     for i, v in enumerate(VARIANTS)}
            times = {v: [] for v in VARIANTS}
            for seq in range(1, appends + 1):
                for variant, conn in conns.items():  # interleaved: all see the same contention
                    start = time.perf_counter()
                    _append(conn, variant, seq)
                    times[variant].append((time.perf_counter() - start) * 1000)
            for i, variant in enumerate(VARIANTS):
                entry = results.setdefault(variant, {})
                if checkpoints:
                    entry.update(p50=percentile(times[variant], 50), mean=statistics.fmean(times[variant]))
                else:
                    wal = os.path.getsize(os.path.join(tmp, f"{i}-{checkpoints}.db-wal"))
                    entry["frames_per_append"] = (wal - 32) / (4096 + 24) / appends
                conns[variant].close()
    return results


def render(wal: dict) -> list[str]:
    return ["### The schema's share (bench/wal_pages.py)", "",
            "Raw inserts, interleaved, WAL and synchronous=FULL: pages written per append "
            "(checkpoints off while counting) and the append's time (checkpoints on).", "",
            "| table | WAL pages per append | append p50 ms | mean ms |", "|---|---|---|---|"] + [
        f"| {name} | {r['frames_per_append']:.2f} | {r['p50']:.3f} | {r['mean']:.3f} |"
        for name, r in wal.items()] + [""]


def main() -> int:
    print("\n".join(render(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 300))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
