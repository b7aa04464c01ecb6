"""The one recorder of every append-only, hash-chained log: the games' (``GAMES``, one log
per game in ``events``) and the roster's (``ROSTER``, one log in ``roster_events``).

A ``Log`` describes where a log is stored — its table, the column naming one log among
the table's, its summary row — and does, once for every log, what each of them needs:
an append with its chain hash and its summary row in the caller's transaction, reading,
catching a cache up with what was appended since it was folded, and verification (the
chain, then the summary row against it, so events cut off the end are noticed as surely
as a changed payload), with each log's verified prefix kept in a ``Verified`` its owner
holds. The stored rows and hashes are those every earlier release wrote.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Callable

from events.domain.event import Event
from events.domain.hashing import GENESIS, chain_hash, first_broken_link
from events.runtime.greenlets import cooperate

VERIFY_CHUNK = 256  # events read and hashed between two turns of the worker's other connections
_READ = object()  # a summary row not given: read it
ENVELOPE = ("seq", "type", "version", "data", "seat", "device", "recorded_at", "client_event_id", "hash")


@dataclass(frozen=True)
class Log:
    """Where one kind of log is stored. ``key``: the column naming one log among the
    table's rows (a game's id), or None for a table holding one log; ``stored``: the
    envelope's fields the table has, in its columns' order; ``summary``/``summary_key``:
    the row kept with every append (``last_seq``, ``last_hash``); ``cut``/``differs``:
    what a summary that disagrees with the chain is said to show."""

    table: str
    key: str | None
    stored: tuple[str, ...]
    summary: str
    summary_key: str
    cut: str
    differs: str

    def _where(self, extra: str = "") -> str:
        parts = ([f"{self.key} = ?"] if self.key else []) + ([extra] if extra else [])
        return f" WHERE {' AND '.join(parts)}" if parts else ""

    @staticmethod
    def _keyed(key, *params) -> list:
        return ([key] if key is not None else []) + list(params)

    # ---- reading -----------------------------------------------------------------

    def head(self, db, key=None) -> tuple[int, str]:
        """The log's last (seq, hash): (0, GENESIS) while it is empty."""
        row = db.execute(f"SELECT seq, hash FROM {self.table}{self._where()} ORDER BY seq DESC LIMIT 1",
                         self._keyed(key)).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def read(self, db, key=None, after: int = 0, upto: int | None = None, make: Callable = Event) -> list:
        """The events after ``after`` (to ``upto``), in order, each ``make(**envelope)``."""
        sql = f"SELECT {', '.join(self.stored)} FROM {self.table}{self._where('seq > ?')}"
        params = self._keyed(key, sql_int(after))
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(sql_int(upto))
        return [self.made(row, make) for row in db.execute(sql + " ORDER BY seq", params).fetchall()]

    def stored_rows(self, db, key=None, after: int = 0) -> list:
        """The rows after ``after`` exactly as stored (``stored``'s order): a copy to another store."""
        return db.execute(f"SELECT {', '.join(self.stored)} FROM {self.table}{self._where('seq > ?')} ORDER BY seq",
                          self._keyed(key, sql_int(after))).fetchall()

    def made(self, row, make: Callable = Event):
        """One stored row (in ``stored``'s order) as an event."""
        envelope = {"seat": None, **dict(zip(self.stored, row))}
        envelope["data"] = json.loads(envelope["data"])
        return make(**envelope)

    def seqs(self, db, key=None) -> list[int]:
        return [r[0] for r in db.execute(f"SELECT seq FROM {self.table}{self._where()} ORDER BY seq",
                                         self._keyed(key))]

    def hash_at(self, db, key, seq: int) -> str | None:
        row = db.execute(f"SELECT hash FROM {self.table}{self._where('seq = ?')}",
                         self._keyed(key, sql_int(seq))).fetchone()
        return row[0] if row else None

    def by_client_id(self, db, key, client_event_id: str, make: Callable = Event):
        """The event recorded with this client event id, or None."""
        row = db.execute(f"SELECT {', '.join(self.stored)} FROM {self.table}{self._where('client_event_id = ?')}",
                         self._keyed(key, client_event_id)).fetchone()
        return self.made(row, make) if row else None

    def catch_up(self, db, key, seq: int, hash_: str, make: Callable = Event) -> tuple[bool, list]:
        """What a cache folded up to event ``seq`` (its ``hash_``) must fold next: (False, [])
        when that is still the log's last event; (False, the events after it) when the log
        went on from it; (True, the whole log) when it is no longer the log's (a write
        rolled back, a copy restored) or the cache is empty: fold afresh."""
        if not seq:
            return True, self.read(db, key, make=make)
        if self.head(db, key) == (seq, hash_):
            return False, []  # one look at the last row, no payload decoded
        events = self.read(db, key, after=seq - 1, make=make)  # from the last folded on: is it still there?
        if events and events[0].seq == seq and events[0].hash == hash_:
            return False, events[1:]
        return True, self.read(db, key, make=make)

    # ---- appending (inside the caller's write transaction) --------------------------

    def insert(self, db, key, envelope: dict, expected_seq: int | None = None) -> dict:
        """Append ``envelope`` (every field but seq and hash) after the log's last event:
        its seq and chain hash added, returned. ``expected_seq``: the last seq the writer
        saw; another raises ``StaleSequence`` (someone else recorded first)."""
        current, prev = self.head(db, key)
        if expected_seq is not None and expected_seq != current:
            raise StaleSequence(current)
        envelope = {"seq": current + 1, **envelope}
        envelope["hash"] = chain_hash(prev, envelope)
        self.insert_rows(db, key, [self.row(envelope)])
        return envelope

    def row(self, envelope: dict) -> list:
        """The stored row of an event (its payload as JSON), in ``stored``'s order."""
        return [json.dumps(envelope[f], ensure_ascii=False) if f == "data" else envelope[f]
                for f in self.stored]

    def insert_rows(self, db, key, rows: list[list]) -> None:
        """Rows ``row`` made, hashed and checked already (an import), as one prepared batch."""
        columns = ([self.key] if self.key else []) + list(self.stored)
        sql = f"INSERT INTO {self.table} ({', '.join(columns)}) VALUES ({','.join('?' * len(columns))})"
        rows = [self._keyed(key, *r) for r in rows]
        if len(rows) == 1:
            db.execute(sql, rows[0])
        else:
            db.conn.executemany(sql, rows)

    def touch(self, db, key, seq: int, hash_: str, **also) -> None:
        """The summary row names the log's last event (and ``also``'s columns), in the
        append's own transaction: a log cut off its end is told by it."""
        sets = ", ".join(f"{c} = ?" for c in ("last_seq", "last_hash", *also))
        db.execute(f"UPDATE {self.summary} SET {sets} WHERE {self.summary_key} = ?",
                   [seq, hash_, *also.values(), self._summary_id(key)])

    def record(self, db, key, envelope: dict, expected_seq: int | None = None, **also) -> dict:
        """``insert`` then ``touch``: one event and its summary row."""
        stored = self.insert(db, key, envelope, expected_seq)
        self.touch(db, key, stored["seq"], stored["hash"], **also)
        return stored

    # ---- verifying -------------------------------------------------------------------

    def _summary_id(self, key):
        return key if self.key else 1

    def summary_row(self, db, key=None) -> tuple[int, str | None] | None:
        row = db.execute(f"SELECT last_seq, last_hash FROM {self.summary} WHERE {self.summary_key} = ?",
                         [self._summary_id(key)]).fetchone()
        return (row[0], row[1]) if row else None

    def first_break(self, db, key, summary, seq: int = 0, prev: str = GENESIS,
                    events: list | None = None, extra=None) -> tuple[tuple[int, str] | None, tuple[int, str]]:
        """(broken, (seq, hash) verified): the chain after the verified prefix (``seq``,
        ``prev``) — ``events`` if the caller read them, else read a chunk at a time — then
        ``summary`` (read before the events: appends only add events, so a chain shorter
        than it says, or another hash at its last seq, is a log changed behind the app's
        back). ``extra(events)``: what else must hold of each chunk (a game's photos)."""
        chunks = [events] if events is not None else self._chunks(db, key, seq)
        broken = None
        for chunk in chunks:
            broken = first_broken_link((e.envelope() for e in chunk), prev, seq + 1) or (extra and extra(chunk))
            if broken:
                return broken, (seq, prev)
            if chunk:
                seq, prev = chunk[-1].seq, chunk[-1].hash
        return self._against_summary(db, key, summary, seq, prev), (seq, prev)

    def _chunks(self, db, key, seq: int):
        """After a BG Stats import of 10,000 plays, reading and hashing the roster's log took
        ~0.5 s of the worker: its other connections are served between chunks."""
        while True:
            chunk = self.read(db, key, after=seq, upto=seq + VERIFY_CHUNK)
            yield chunk
            if len(chunk) < VERIFY_CHUNK:  # a full chunk holds seq + 1 … seq + VERIFY_CHUNK
                return
            seq = chunk[-1].seq
            cooperate()

    def _against_summary(self, db, key, summary, seq: int, prev: str) -> tuple[int, str] | None:
        if summary is None or not summary[1]:
            return None  # a log being created, or a row from before summaries kept the hash
        last_seq, last_hash = summary
        if seq < last_seq:
            return seq + 1, self.cut.format(said=last_seq, ends=seq)
        found = prev if last_seq == seq else self.hash_at(db, key, last_seq)
        return (last_seq, self.differs) if found != last_hash else None


class StaleSequence(Exception):
    """The writer's view is out of date: someone else recorded first."""

    def __init__(self, current_seq: int):
        super().__init__(f"stale: the game is at event {current_seq}")
        self.current_seq = current_seq


def sql_int(n: int) -> int:
    """A bound the engines can take (a 64-bit integer); sequence numbers are far below it."""
    return max(-(2**63), min(n, 2**63 - 1))


GAMES = Log("events", "game_id", ENVELOPE, "games", "id",
            cut="the summary says the game has {said} events; the record ends at {ends}",
            differs="the summary's last hash differs from the record's")
ROSTER = Log("roster_events", None, ("seq", "type", "data", "device", "recorded_at", "client_event_id", "hash",
                                     "version"), "roster_summary", "id",
             cut="the summary says the roster has {said} changes; its log ends at {ends}",
             differs="the summary's last hash differs from the log's")


class Verified:
    """Each log's verified prefix (its last verified seq and hash) and the logs found
    broken, in this server process; each owner keeps one (the app's: web/db.py), so each
    event is verified once per process, when it is first read."""

    MAX_LOGS = 5000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._verified: dict[str, tuple[int, str]] = {}  # log -> (last verified seq, its hash)
        self._broken: dict[str, tuple[int, str]] = {}    # log -> (first bad seq, why)

    def known(self, name: str) -> tuple[tuple[int, str] | None, tuple[int, str]]:
        """(broken, verified prefix) as this process knows them."""
        with self._lock:
            return self._broken.get(name), self._verified.get(name, (0, GENESIS))

    def check(self, db, log: Log, key, name: str, summary=_READ, events=None, extra=None, whole: bool = False):
        """(N, why) if the log ``name`` (``key`` in ``log``) does not verify from event N,
        else None: what was appended since its verified prefix (``events`` when the
        caller read them already, from after the prefix on) checked, and the ``summary``
        row (read here when not given; read before the events). ``whole``: all of it
        again, as verify-db does."""
        broken, (seq, prev) = self.known(name) if not whole else (None, (0, GENESIS))
        if broken:
            return broken
        summary = log.summary_row(db, key) if summary is _READ else summary
        if events is None and seq and summary == (seq, prev):
            events = []  # the summary names the verified prefix's last event: nothing after it to read
        broken, prefix = log.first_break(db, key, summary, seq, prev, events, extra)
        with self._lock:
            if len(self._verified) >= self.MAX_LOGS:
                self._verified.clear()
            if broken:
                self._broken[name] = broken
            else:
                self._verified[name] = prefix
        return broken

    def forget(self) -> None:
        with self._lock:
            self._verified.clear()
            self._broken.clear()
