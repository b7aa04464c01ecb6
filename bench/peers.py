"""The two references every append is measured against, side by side:

* the floor: raw ``sqlite3`` inserts of the very rows the store wrote, one
  transaction each, with the store's schema and durability settings (WAL,
  ``synchronous=FULL``, ``BEGIN IMMEDIATE``);
* the peer: the ``eventsourcing`` library with its SQLite persistence, one aggregate
  per game whose command method checks the same game rules and whose event applies
  them (so both sides run the same domain code and differ only in the machinery).
"""
from __future__ import annotations

import functools
import os
import sqlite3

from events.storage import store
from scoring import GAMES
from scoring.base import Move

_INSERT = ("INSERT INTO events (game_id, seq, type, version, data, seat, device, recorded_at,"
           " client_event_id, hash) VALUES (?,?,?,?,?,?,?,?,?,?)")


def row_of(game_id: str, event) -> tuple:
    import json
    return (game_id, event.seq, event.type, event.version, json.dumps(event.data, ensure_ascii=False),
            event.seat, event.device, event.recorded_at, event.client_event_id, event.hash)


class Floor:
    """Raw sqlite3: the cheapest durable append of the same row."""

    def __init__(self, path: str):
        schema = store.connect(path)  # the same tables, indexes and triggers
        store.migrate(schema)
        schema.conn.close()
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")

    def settings(self) -> dict:
        return {"journal_mode": self.conn.execute("PRAGMA journal_mode").fetchone()[0],
                "synchronous": self.conn.execute("PRAGMA synchronous").fetchone()[0]}

    def preload(self, rows: list[tuple]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.executemany(_INSERT, rows)
        self.conn.execute("COMMIT")

    def append(self, row: tuple) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(_INSERT, row)
        self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()


@functools.lru_cache(maxsize=None)
def _peer_classes():
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Table(Aggregate):
        @event("Created")
        def __init__(self, kind: str, players: list, options: dict):
            self.kind = kind
            self.seq = 1
            self.state = GAMES[kind].setup(list(players), dict(options))

        def record(self, type_: str, data: dict, seat: int) -> None:
            problems = GAMES[self.kind].check(self.state, Move(self.seq + 1, type_, data, seat))
            if problems:
                raise ValueError(problems)
            self.recorded(type_, data, seat)

        @event("Recorded")
        def recorded(self, type_: str, data: dict, seat: int) -> None:
            self.seq += 1
            self.state = GAMES[self.kind].apply(self.state, Move(self.seq, type_, data, seat))

    class Tables(Application):
        pass

    return Table, Tables


class Peer:
    """One eventsourcing application on its own SQLite file."""

    def __init__(self, path: str):
        Table, Tables = _peer_classes()
        self.Table = Table
        self.app = Tables(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path})
        self.path = path
        self.aggregate = None

    def settings(self) -> dict:
        conn = sqlite3.connect(self.path)
        try:
            # The library sets no synchronous pragma: its connections get SQLite's default.
            return {"journal_mode": conn.execute("PRAGMA journal_mode").fetchone()[0],
                    "synchronous": conn.execute("PRAGMA synchronous").fetchone()[0]}
        finally:
            conn.close()

    def preload(self, events) -> None:
        """The same game as one aggregate, saved in chunks (set-up, not measured)."""
        created = events[0].data
        self.aggregate = self.Table(created["kind"], created["players"], created["options"])
        for i, e in enumerate(events[1:], start=1):
            self.aggregate.record(e.type, e.data, e.seat)
            if i % 500 == 0:
                self.app.save(self.aggregate)
        self.app.save(self.aggregate)

    def append(self, type_: str, data: dict, seat: int) -> None:
        self.aggregate.record(type_, data, seat)
        self.app.save(self.aggregate)

    def rebuild(self):
        return self.app.repository.get(self.aggregate.id)

    def close(self) -> None:
        self.app.close()


def same_durability(floor: Floor, ours_path: str) -> bool:
    conn = store.connect(ours_path)
    try:
        ours = (conn.execute("PRAGMA journal_mode").fetchone()[0],
                conn.execute("PRAGMA synchronous").fetchone()[0])
    finally:
        conn.conn.close()
    floor_settings = floor.settings()
    return ours == (floor_settings["journal_mode"], floor_settings["synchronous"]) and \
        os.path.exists(ours_path)
