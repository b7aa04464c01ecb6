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

import orjson

from events.domain.event import Event
from events.domain.hashing import GENESIS, chain_hash, first_broken_link, first_broken_row
from events.runtime.greenlets import cooperate, cooperating
from events.storage import sql
from events.storage.sql import Statement

VERIFY_CHUNK = 256  # events read and hashed between two turns of the worker's other connections
PARSE_CHUNK = 32  # payloads parsed between two (~0.1 ms with orjson)
# The summary's columns an append may set beside the last event: the games' (its time,
# whether it ended; a copy sets both), the roster's none.
TOUCHED = ((), ("updated_at",), ("updated_at", "finished"))
_READ = object()  # a summary row not given: read it
ENVELOPE = ("seq", "type", "version", "data", "seat", "device", "recorded_at", "client_event_id", "hash")


# Where an integer may be past 64 bits: 19 digits together. Looked for in the text with its
# digits made "0" and everything else " " (a byte table: ~0.6 µs a payload, a regular
# expression took ~6 µs, more than orjson's parse).
_DIGITS_ONLY = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
_LONG_NUMBER = b"0" * 19


def payload(text: str):
    """A stored payload's value, as ``json.loads`` reads it: parsed by orjson (~8× the
    standard library's speed: a worker catching up on 10,000 roster events spent 0.14 s of
    its 0.2 s in ``json.loads``), else by the standard library: where orjson would read a
    number otherwise (an integer past 64 bits, which it makes a float) or refuses the text."""
    if _LONG_NUMBER not in text.encode("utf-8", "surrogatepass").translate(_DIGITS_ONLY):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


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

    def __post_init__(self) -> None:
        """Each statement of this log, written once here from the log's description."""
        columns = ", ".join(self.stored)
        table, where = self.table, self._where
        statements = {
            "head": f"SELECT seq, hash FROM {table}{where()} ORDER BY seq DESC LIMIT 1",
            "read": f"SELECT {columns} FROM {table}{where('seq > :after')} ORDER BY seq",
            "read_upto": f"SELECT {columns} FROM {table}{where('seq > :after', 'seq <= :upto')} ORDER BY seq",
            "seqs": f"SELECT seq FROM {table}{where()} ORDER BY seq",
            "hash_at": f"SELECT hash FROM {table}{where('seq = :seq')}",
            "by_client_id": f"SELECT {columns} FROM {table}{where('client_event_id = :client_event_id')}",
            "insert": f"INSERT INTO {table} ({', '.join(self._columns())})"
                      f" VALUES ({', '.join(':' + c for c in self._columns())})",
            "summary_row": f"SELECT last_seq, last_hash FROM {self.summary} WHERE {self.summary_key} = :key",
        }
        for also in TOUCHED:
            sets = ", ".join(f"{c} = :{c}" for c in ("last_seq", "last_hash", *also))
            statements[also] = f"UPDATE {self.summary} SET {sets} WHERE {self.summary_key} = :key"
        object.__setattr__(self, "statements", {name: Statement(text) for name, text in statements.items()})

    def _where(self, *conditions: str) -> str:
        parts = ([f"{self.key} = :key"] if self.key else []) + list(conditions)
        return f" WHERE {' AND '.join(parts)}" if parts else ""

    def _columns(self) -> list[str]:
        return ([self.key] if self.key else []) + list(self.stored)

    # ---- reading -----------------------------------------------------------------

    def head(self, db, key=None) -> tuple[int, str]:
        """The log's last (seq, hash): (0, GENESIS) while it is empty."""
        row = sql.one(db, self.statements["head"], key=key)
        return (row[0], row[1]) if row else (0, GENESIS)

    def read(self, db, key=None, after: int = 0, upto: int | None = None, make: Callable = Event) -> list:
        """The events after ``after`` (to ``upto``), in order, each ``make(**envelope)``."""
        if upto is None:
            rows = sql.run(db, self.statements["read"], key=key, after=sql_int(after))
        else:
            rows = sql.run(db, self.statements["read_upto"], key=key, after=sql_int(after), upto=sql_int(upto))
        return [self.made(row, make) for row in rows.fetchall()]

    def stored_rows(self, db, key=None, after: int = 0) -> list:
        """The rows after ``after`` exactly as stored (``stored``'s order): a copy to another store."""
        return sql.run(db, self.statements["read"], key=key, after=sql_int(after)).fetchall()

    def made(self, row, make: Callable = Event):
        """One stored row (in ``stored``'s order) as an event."""
        envelope = {"seat": None, **dict(zip(self.stored, row))}
        envelope["data"] = payload(envelope["data"])
        return make(**envelope)

    def seqs(self, db, key=None) -> list[int]:
        return sql.column(db, self.statements["seqs"], key=key)

    def hash_at(self, db, key, seq: int) -> str | None:
        return sql.value(db, self.statements["hash_at"], key=key, seq=sql_int(seq))

    def by_client_id(self, db, key, client_event_id: str, make: Callable = Event):
        """The event recorded with this client event id, or None."""
        row = sql.one(db, self.statements["by_client_id"], key=key, client_event_id=client_event_id)
        return self.made(row, make) if row else None

    def catch_up(self, db, key, seq: int, hash_: str, make: Callable = Event) -> tuple[bool, list]:
        """What a cache folded up to event ``seq`` (its ``hash_``) must fold next: (False, [])
        when that is still the log's last event; (False, the events after it) when the log
        went on from it; (True, the whole log) when it is no longer the log's (a write
        rolled back, a copy restored) or the cache is empty: fold afresh."""
        if not seq:
            return True, self.read_cooperating(db, key, make=make)
        if self.head(db, key) == (seq, hash_):
            return False, []  # one look at the last row, no payload decoded
        events = self.read_cooperating(db, key, after=seq - 1, make=make)  # from the last folded on: is it still there?
        if events and events[0].seq == seq and events[0].hash == hash_:
            return False, events[1:]
        return True, self.read_cooperating(db, key, make=make)

    def read_cooperating(self, db, key=None, after: int = 0, make: Callable = Event) -> list:
        """``read``, ``VERIFY_CHUNK`` events at a time with the worker's other connections
        served between two: a cache catching up on a log that grew by thousands of events
        elsewhere (the roster after a BG Stats import in another process: 10,000 payloads,
        ~0.2 s) held every table of the worker that read it first."""
        events: list = []
        while True:
            rows = sql.run(db, self.statements["read_upto"], key=key, after=sql_int(after),
                           upto=sql_int(after + VERIFY_CHUNK)).fetchall()
            # the payloads parsed a few dozen at a time: a move needs several turns of the hub
            events += [self.made(row, make) for row in cooperating(rows, PARSE_CHUNK)]
            if len(rows) < VERIFY_CHUNK:
                return events
            after = events[-1].seq
            cooperate()

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

    def insert_rows(self, db, key, rows: list) -> None:
        """Rows ``row`` made, hashed and checked already (an import, a copy), as one prepared batch."""
        named = [{**dict(zip(self.stored, row)), **({self.key: key} if self.key else {})} for row in rows]
        if len(named) == 1:
            sql.run(db, self.statements["insert"], **named[0])
        else:
            sql.run_many(db, self.statements["insert"], named)

    def touch(self, db, key, seq: int, hash_: str, **also) -> None:
        """The summary row names the log's last event (and ``also``'s columns, one of
        ``TOUCHED``), in the append's own transaction: a log cut off its end is told by it."""
        sql.run(db, self.statements[tuple(also)], last_seq=seq, last_hash=hash_, key=self._summary_id(key), **also)

    def record(self, db, key, envelope: dict, expected_seq: int | None = None, **also) -> dict:
        """``insert`` then ``touch``: one event and its summary row."""
        stored = self.insert(db, key, envelope, expected_seq)
        self.touch(db, key, stored["seq"], stored["hash"], **also)
        return stored

    # ---- verifying -------------------------------------------------------------------

    def _summary_id(self, key):
        return key if self.key else 1

    def summary_row(self, db, key=None) -> tuple[int, str | None] | None:
        row = sql.one(db, self.statements["summary_row"], key=self._summary_id(key))
        return (row[0], row[1]) if row else None

    def first_break(self, db, key, summary, seq: int = 0, prev: str = GENESIS,
                    events: list | None = None, extra: "Extra | None" = None) -> tuple[tuple[int, str] | None, tuple[int, str]]:
        """(broken, (seq, hash) verified): the chain after the verified prefix (``seq``,
        ``prev``) — ``events`` if the caller read them, else read a chunk of stored rows at
        a time — then ``summary`` (read before the events: appends only add events, so a
        chain shorter than it says, or another hash at its last seq, is a log changed
        behind the app's back). ``extra``: what else must hold of each chunk's events of
        its types (a game's photos)."""
        chunks = [events] if events is not None else self._chunks(db, key, seq)
        broken = None
        for chunk in chunks:
            broken = self._broken_link(chunk, prev, seq + 1) or (extra and extra.check(self._of_types(chunk, extra.types)))
            if broken:
                return broken, (seq, prev)
            if chunk:
                seq, prev = self._last(chunk)
        return self._against_summary(db, key, summary, seq, prev), (seq, prev)

    def _broken_link(self, chunk, prev: str, expected: int) -> tuple[int, str] | None:
        if isinstance(chunk, Stored):
            return first_broken_row(self.stored, chunk, prev, expected)
        return first_broken_link((e.envelope() for e in chunk), prev, expected)

    def _of_types(self, chunk, types: tuple[str, ...]) -> list:
        """The chunk's events of ``types``, made only of the stored rows that are."""
        if isinstance(chunk, Stored):
            type_at = self.stored.index("type")
            return [self.made(row) for row in chunk if row[type_at] in types]
        return [e for e in chunk if e.type in types]

    def _last(self, chunk) -> tuple[int, str]:
        if isinstance(chunk, Stored):
            return chunk[-1][self.stored.index("seq")], chunk[-1][self.stored.index("hash")]
        return chunk[-1].seq, chunk[-1].hash

    def _chunks(self, db, key, seq: int):
        """After a BG Stats import of 10,000 plays, reading and hashing the roster's log took
        ~0.5 s of the worker: its other connections are served between chunks."""
        while True:
            chunk = Stored(sql.run(db, self.statements["read_upto"], key=key, after=sql_int(seq),
                                   upto=sql_int(seq + VERIFY_CHUNK)).fetchall())
            yield chunk
            if len(chunk) < VERIFY_CHUNK:  # a full chunk holds seq + 1 … seq + VERIFY_CHUNK
                return
            seq = self._last(chunk)[0]
            cooperate()

    def _against_summary(self, db, key, summary, seq: int, prev: str) -> tuple[int, str] | None:
        if summary is None or not summary[1]:
            return None  # a log being created, or a row from before summaries kept the hash
        last_seq, last_hash = summary
        if seq < last_seq:
            return seq + 1, self.cut.format(said=last_seq, ends=seq)
        found = prev if last_seq == seq else self.hash_at(db, key, last_seq)
        return (last_seq, self.differs) if found != last_hash else None


class Stored(list):
    """A chunk of a log's rows exactly as stored (``Log.stored``'s order), verified without
    making an event of each (events/domain/hashing.py:first_broken_row)."""


@dataclass(frozen=True)
class Extra:
    """What else must hold of a log's events of ``types``: ``check(events)`` gives (seq,
    why) of the first that fails, else None (a game's photos: events/application/integrity.py)."""

    types: tuple[str, ...]
    check: Callable


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
