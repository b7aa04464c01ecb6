"""Append-only storage of game events, on SQLite (or PostgreSQL through events/storage/pg.py).

Every append runs in one short ``BEGIN IMMEDIATE`` transaction that takes the
write lock first, then checks the sequence number the phone last saw, so two
phones racing for the same game can never both win and nothing is merged silently.
"""
from __future__ import annotations

import fcntl
import json
import os
import random
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

import sqlite_utils

from events.domain.event import Event, NewEvent
from events.domain.hashing import first_broken_link
from events.runtime.greenlets import cooperate, native_sleep, off_the_hub
from events.storage import pg, sql
from events.storage.blobs import store_blobs
from events.storage.log import ENVELOPE, GAMES, StaleSequence, sql_int
from events.storage.migrations import apply_postgres, migrations
from events.storage import statements as S
from events.storage.sql import Statement

GAME_LOCK = Statement("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")  # PostgreSQL's only
ORGANISER_SALT = Statement("SELECT salt FROM organiser_link WHERE id = 1")
SET_ORGANISER_SALT = Statement("INSERT INTO organiser_link (id, salt) VALUES (1, :salt)"
                               " ON CONFLICT (id) DO UPDATE SET salt = excluded.salt")
EVENTS_OF_TYPES = Statement(f"SELECT game_id, {', '.join(ENVELOPE)} FROM events WHERE game_id IN (:game_ids)"
                            " AND type IN (:types) ORDER BY game_id, seq")
INSERT_GAME = Statement("INSERT INTO games (id, kind, created_at, players, last_seq, updated_at, finished, join_code,"
                        " imported_from) VALUES (:id, :kind, :created_at, :players, 0, :created_at, 0, :join_code,"
                        " :imported_from)")
GAME_ROW = Statement("SELECT * FROM games WHERE id = :id")
GAME_ROWS = Statement("SELECT * FROM games WHERE id IN (:ids) ORDER BY id")
# a game is here once its row is: an import's events go in before it (``insert_unlisted``)
GAME_OF_FIRST_HASH = Statement("SELECT e.game_id FROM events e JOIN games g ON g.id = e.game_id"
                               " WHERE e.seq = 1 AND e.hash = :hash ORDER BY e.game_id LIMIT 1")
LIST_GAMES = Statement("SELECT * FROM games WHERE last_seq > 0 AND finished = :finished"
                       " ORDER BY updated_at DESC, id LIMIT :limit OFFSET :offset")
ADD_SEAT_TOKEN = Statement("INSERT INTO seat_tokens (token_hash, game_id, seat, issued_at)"
                           " VALUES (:token_hash, :game_id, :seat, :issued_at)")
SEAT_OF_TOKEN_HASH = Statement("SELECT seat FROM seat_tokens WHERE token_hash = :token_hash AND game_id = :game_id")
GAME_IDS = Statement("SELECT g.id FROM games g WHERE EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id)"
                     " ORDER BY g.id")


@dataclass(frozen=True)
class WithTheEvent:
    """A subscriber to "an event was recorded" whose write commits in the event's own
    transaction, so it can never lag behind the log (the statistics' read model, docs/decisions.md
    "Short writes": a separate write could meet a busy database after the move had committed).
    ``prepare(game_id, event, table, events)`` gets the event, the state after it and a
    function returning the game's whole log, and returns what to write, ``writer(db)``,
    or None. A move prepares inside its transaction; an import prepares before taking the
    write lock (it holds the whole log already) and writes inside it."""

    prepare: object


def with_the_event(db, game_id: str, event, table, events) -> list:
    """The writers of ``db``'s subscribers that commit with ``event`` (see WithTheEvent)."""
    return [w for s in getattr(db, "on_recorded", ()) if isinstance(s, WithTheEvent)
            for w in [s.prepare(game_id, event, table, events)] if w is not None]


def connect(path: str, on_recorded: tuple = ()):
    """Open the store: a SQLite file, or PostgreSQL when ``path`` is a
    ``postgresql://`` URL (events/storage/pg.py; docs/scaling.md). ``on_recorded``: what runs after
    each event recorded through this connection (events/application/table.py:announce); the app's
    connections carry the app's subscribers (app.py:connect), a bare one none."""
    db = pg.connect(path) if pg.is_url(path) else _sqlite(path)
    db.on_recorded = tuple(on_recorded)
    return db


def _sqlite(path: str):
    """On SQLite, WAL lets phones read while one writes; synchronous=FULL makes an
    acknowledged append survive power loss (see docs/reliability.md)."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    into_wal(conn)
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.execute("PRAGMA foreign_keys=ON")
    return sqlite_utils.Database(conn)


IDLE = 8  # idle connections a server process keeps to its SQLite file


class Idle:
    """A server process's idle connections to its SQLite file (``app.extensions``, web/db.py),
    each lent to one request at a time: opening one — the WAL check and three pragmas, and
    closing it after — cost ~0.3 ms of CPU, a tenth of a tap's. A connection comes back as
    it was opened (no transaction open, no statement tracer) or is closed; never one made
    in another process (gunicorn forks its workers). Every read here fetches its rows
    (events/storage/sql.py), so no statement outlives its request: one left open would
    hold the connection's read snapshot, and the next request would read an old one."""

    def __init__(self, size: int = IDLE):
        self.size = size
        self._idle: dict[tuple[str, int], list] = {}
        self._lock = threading.Lock()

    def take(self, path: str) -> sqlite_utils.Database:
        with self._lock:
            free = self._idle.get((path, os.getpid()))
            if free:
                return free.pop()
        return _sqlite(path)

    def give(self, db: sqlite_utils.Database, path: str) -> None:
        """``db``, done with, kept for the next request (or closed, past ``size``)."""
        conn = db.conn
        try:
            if conn.in_transaction:  # a request that failed inside a write
                conn.execute("ROLLBACK")
            conn.set_trace_callback(None)
        except sqlite3.Error:
            conn.close()
            return
        with self._lock:
            free = self._idle.setdefault((path, os.getpid()), [])
            if len(free) < self.size:
                free.append(db)
                return
        conn.close()

    def __len__(self) -> int:
        with self._lock:
            return sum(len(free) for free in self._idle.values())

    def forget(self) -> None:
        """Close every idle connection (a test's app done with its file)."""
        with self._lock:
            idle, self._idle = self._idle, {}
        for key, free in idle.items():
            for db in free if key[1] == os.getpid() else ():
                db.conn.close()


WAL_WITHIN = 10.0  # s: as long as busy_timeout lets a write wait
LOCK_POLL = 0.001  # s between two tries for SQLite's write lock (begin_immediate)


def into_wal(conn, within: float = WAL_WITHIN, sleep=time.sleep) -> None:
    """``PRAGMA journal_mode=WAL``, tried again while the file is locked. Several workers
    opening a fresh file at once all switch it to WAL, and SQLite answers one of them
    "database is locked" at once, without its busy handler (one connection holding a read
    lock while it waits for another's would deadlock); the switch is made once per file,
    so the next try finds it done. Tries apart, so the next ones do not meet again."""
    _while_locked(lambda: conn.execute("PRAGMA journal_mode=WAL"), within, sleep,
                  lambda: 0.005 + random.random() * 0.02)


def begin_immediate(conn, sleep=None) -> None:
    """``BEGIN IMMEDIATE``, tried again every ``LOCK_POLL`` while another connection holds
    SQLite's write lock, for as long as the connection's busy_timeout. SQLite's own busy
    handler sleeps 1, 2, 5, 10, 15, 20, 25 ms… between its tries: a move that met an
    import's 5 ms transaction waited for the lock up to 20 ms longer than it was held,
    and the import could take it again first (docs/decisions.md, "Short writes"). ``sleep``:
    the operating system's (a server worker waits off the hub, on a native thread)."""
    waits = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA busy_timeout=0")
    try:
        _while_locked(lambda: conn.execute("BEGIN IMMEDIATE"), waits / 1000, sleep or native_sleep(),
                      lambda: LOCK_POLL)
    finally:
        conn.execute(f"PRAGMA busy_timeout={int(waits)}")


def _while_locked(statement, within: float, sleep, pause) -> None:
    """``statement()`` tried again after ``sleep(pause())`` while SQLite answers "database is
    locked", for ``within`` seconds; then its error."""
    deadline = time.monotonic() + within
    while True:
        try:
            statement()
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() >= deadline:
                raise
            sleep(pause())


is_postgres = sql.is_postgres


def trace(db, seen: Callable[[str], None]) -> None:
    """Tell ``seen(sql)`` every statement ``db`` runs from now on, on either engine: how a
    page's reads are counted (the app's ``trace_statements``, web/db.py)."""
    if is_postgres(db):
        db.conn.seen = seen
    else:
        db.conn.set_trace_callback(seen)


@contextmanager
def write_lock(db):
    """One short write transaction that takes SQLite's write lock first (BEGIN
    IMMEDIATE): whatever it reads cannot change before it commits; all or nothing.
    On PostgreSQL a plain transaction: what must not interleave takes ``lock_game``."""
    if is_postgres(db):
        with db.atomic():
            yield db
        return
    conn = db.conn
    begin_immediate(conn)
    try:
        yield db
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextmanager
def short_write(db):
    """``write_lock`` for a long job writing in many short transactions from a gevent
    worker's hub (a BG Stats import): waiting for the lock and for the commit's fsync run
    off the hub, the transaction's own work on it, so the worker's other connections wait
    for neither and its threads do not compete with them for the GIL while they run."""
    if is_postgres(db):
        with write_lock(db):
            yield db
        return
    conn = db.conn
    off_the_hub(begin_immediate, conn)
    try:
        yield db
        off_the_hub(conn.execute, "COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def turns_file(path: str) -> str | None:
    """The lock file beside a SQLite database the server's processes take turns on to
    commit (events/storage/group_commit.py); None for PostgreSQL or a database in memory."""
    if pg.is_url(path) or path == ":memory:" or path.startswith("file:"):
        return None
    return f"{path}.write-turns"


@contextmanager
def unsynced(db):
    """A long job's many transactions (an import) committed without an fsync each
    (``synchronous=NORMAL``: in WAL still all or nothing, and kept through a kill -9, which
    loses nothing the operating system was given), then made durable at once before the job
    answers: a checkpoint syncs the WAL, every frame of it (the workers' moves stay
    ``FULL``: each fsync of theirs covers the import's frames before it too). An fsync under
    the write lock was 2-8 ms of each BG Stats batch's hold and ~40 ms of a 10,000-event
    game's, every other table's move waiting (docs/decisions.md, "Short writes"). On
    PostgreSQL each commit is its own, as before."""
    if is_postgres(db):
        yield db
        return
    db.conn.execute("PRAGMA synchronous=NORMAL")
    try:
        yield db
    finally:
        db.conn.execute("PRAGMA synchronous=FULL")
        off_the_hub(sql.run, db, S.SYNC_WAL)  # what was committed is durable, also of a job cut short


def lock_game(db, key: str) -> None:
    """Inside ``write_lock``: appends to one game (``key``) take turns, other games' do
    not wait. SQLite's write lock already serialises every write; PostgreSQL takes a
    lock on the key until the transaction ends."""
    if is_postgres(db):
        sql.run(db, GAME_LOCK, key=key)


def prepare(path: str) -> None:
    """Create or migrate the store at ``path`` at start-up, one process at a time: the
    server's workers (and `flask init-db`) starting together on a fresh file take turns
    on a lock file beside it, so one creates the schema and the others find it done.
    The lock holds for any engine a later version may use, not only SQLite's own.
    PostgreSQL's servers may run on other machines: they take turns on a lock in the
    database instead (migrations.apply_postgres)."""
    if pg.is_url(path):
        db = connect(path)
        try:
            migrate(db)
        finally:
            db.conn.close()
        return
    with open(f"{path}.startup-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        db = connect(path)
        try:
            migrate(db)
        finally:
            db.conn.close()


def migrate(db: sqlite_utils.Database) -> None:
    """Apply pending migrations under the write lock, so gunicorn workers booting
    together on a fresh file migrate one after the other (tests/reliability/test_startup.py)."""
    if is_postgres(db):
        apply_postgres(db)
        return
    with write_lock(db):
        migrations.apply(db)


def organiser_salt(db) -> str:
    """The salt of the organiser's link (web/organiser.py): "" until a new link was made."""
    return sql.value(db, ORGANISER_SALT, "")


def set_organiser_salt(db, salt: str) -> None:
    with db.atomic():
        sql.run(db, SET_ORGANISER_SALT, salt=salt)


def integrity_check(db) -> str:
    """SQLite's check of its own file ("ok"); PostgreSQL keeps its own pages: "ok"."""
    return "ok" if is_postgres(db) else sql.value(db, S.INTEGRITY_CHECK)


def database_key(db) -> str:
    """What names the database ``db`` is open on (caches keyed by it): its URL, its file."""
    if is_postgres(db):
        return db.url
    return sql.one(db, S.DATABASE_LIST)[2] or str(id(db))


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def read_events(db, game_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
    return GAMES.read(db, game_id, after, upto)


def events_of_types(db, game_ids: list[str], types: tuple[str, ...]) -> dict[str, list[Event]]:
    """The events of these types in these games, by game, in order (one query)."""
    if not game_ids:
        return {}
    found: dict[str, list[Event]] = {}
    for row in sql.run(db, EVENTS_OF_TYPES, game_ids=list(game_ids), types=list(types)).fetchall():
        found.setdefault(row[0], []).append(GAMES.made(row[1:]))
    return found


def last_seq(db, game_id: str) -> int:
    return GAMES.head(db, game_id)[0]


def last_event_ref(db, game_id: str) -> tuple[int, str] | None:
    """The game's last event's sequence number and hash, or None for no such game."""
    seq, hash_ = GAMES.head(db, game_id)
    return (seq, hash_) if seq else None


def find_by_client_id(db, game_id: str, client_event_id: str) -> Event | None:
    return GAMES.by_client_id(db, game_id, client_event_id)


def append(db, game_id: str, new: NewEvent, expected_seq: int,
           finished: bool | None = None, blobs=(), also=None) -> tuple[Event, bool]:
    """Append one event after ``expected_seq``. Returns (event, created); a
    resubmitted client event id returns the original event and created=False.
    ``blobs``: a photo's bytes the event names (events/application/photos.py), stored in the
    same transaction: the event and its image, or neither. ``also(db, event)``: what
    else commits with the event (a read model that must never lag: events/application/table.py)."""
    if is_postgres(db):  # psycopg waits cooperatively under gevent
        return _append(db, game_id, new, expected_seq, finished, blobs, also)
    committer = getattr(db, "committer", None)  # the app's group commit (events/storage/group_commit.py)
    if committer is not None:
        return off_the_hub(committer.append, db, game_id, new, expected_seq, finished, blobs, also)
    return off_the_hub(_append, db, game_id, new, expected_seq, finished, blobs, also)


def writing(db, call, *args):
    """A write of several statements (an import's transaction) run as ``append`` runs
    its own: on SQLite off the hub, on PostgreSQL as it is (psycopg waits cooperatively)."""
    return call(*args) if is_postgres(db) else off_the_hub(call, *args)


def _append(db, game_id: str, new: NewEvent, expected_seq: int,
            finished: bool | None, blobs=(), also=None) -> tuple[Event, bool]:
    with write_lock(db):
        return append_inside(db, game_id, new, expected_seq, finished, blobs, also)


def append_inside(db, game_id: str, new: NewEvent, expected_seq: int,
                  finished: bool | None, blobs=(), also=None) -> tuple[Event, bool]:
    """``append``'s work inside a write transaction already open (its own, or a group's)."""
    lock_game(db, game_id)
    existing = find_by_client_id(db, game_id, new.client_event_id)
    if existing:
        return existing, False
    event = _insert(db, game_id, new, expected_seq)
    if blobs:
        store_blobs(db, blobs)
    _touch_summary(db, game_id, event, finished)
    if also is not None:
        also(db, event)
    return event, True


def insert_events(db, game_id: str, news: list[NewEvent], finished: bool) -> list[Event]:
    """A whole new game's events, in order, inside the caller's ``write_lock`` (a
    benchmark's game: hashed here, one by one)."""
    lock_game(db, game_id)
    stored = [_insert(db, game_id, new, expected_seq=i) for i, new in enumerate(news)]
    _touch_summary(db, game_id, stored[-1], finished)
    return stored


def verified_rows(game_id: str, events: list[Event]) -> list[list]:
    """The rows ``insert_unlisted`` writes, made before the write lock is taken: serialising
    a 10,000-event game's payloads took ~0.1 s of the ~0.19 s the lock was held (docs/decisions.md, "Short writes")."""
    return [GAMES.row(e.envelope()) for e in events]


IMPORT_CHUNK = 500  # an imported game's events per transaction: a few ms under the write lock each


def insert_unlisted(db, game_id: str, rows: list[list]) -> None:
    """Some of an imported game's events, hashed and checked already (events/application/export.py),
    as ``verified_rows`` made them, inside the caller's ``write_lock``, under a game id with no
    row in ``games`` yet: a game is here once its row is (every listing starts from ``games``;
    ``game_of_first_hash`` and ``game_ids`` join it), so an import cut off between two of its
    transactions leaves rows nothing lists, and tried again it makes a new game. One prepared
    batch of ``IMPORT_CHUNK``: Han at 10,000 events held the write lock ~80 ms in one
    transaction, every other table's move waiting (docs/decisions.md, "Short writes")."""
    lock_game(db, game_id)
    GAMES.insert_rows(db, game_id, rows)


def list_imported(db, game_id: str, last: Event, finished: bool) -> None:
    """The game whose events ``insert_unlisted`` wrote, listed: its row (``insert_game``, in
    the same transaction) names its last event."""
    _touch_summary(db, game_id, last, finished)


def leave_the_lock(db, held_since: float) -> None:
    """Between two transactions of a long job (an import): SQLite's write lock stays free as
    long as the last one held it (since ``held_since``, ``time.perf_counter``), so a move waiting
    for it, trying every millisecond (``begin_immediate``), gets it in the gap; PostgreSQL
    queues its waiters, so there the worker only serves its other connections."""
    if is_postgres(db):
        cooperate()
    else:
        time.sleep(min(0.1, max(0.002, time.perf_counter() - held_since)))  # cooperative under gevent


def _insert(db, game_id: str, new: NewEvent, expected_seq: int) -> Event:
    return Event(**GAMES.insert(db, game_id, {
        "type": new.type, "version": new.version, "data": new.data, "seat": new.seat, "device": new.device,
        "recorded_at": new.recorded_at or now(), "client_event_id": new.client_event_id}, expected_seq))


def _touch_summary(db, game_id: str, event: Event, finished: bool | None) -> None:
    also = {"updated_at": event.recorded_at} | ({} if finished is None else {"finished": int(finished)})
    GAMES.touch(db, game_id, event.seq, event.hash, **also)


def insert_game(db, game_id: str, kind: str, players: list[dict], join_code: str,
                token_hashes: list[str | None], imported_from: str | None = None) -> None:
    """The game's summary row and seat tokens; the caller appends event 1 next."""
    stamp = now()
    with db.atomic():
        sql.run(db, INSERT_GAME, id=game_id, kind=kind, created_at=stamp,
                players=json.dumps(players, ensure_ascii=False), join_code=join_code, imported_from=imported_from)
        for seat, token_hash in enumerate(token_hashes):
            if token_hash:  # None: a seat nobody holds yet (it is joined by QR code)
                add_seat_token(db, game_id, seat, token_hash)


def game_row(db, game_id: str) -> dict | None:
    rows = sql.dicts(db, GAME_ROW, id=game_id)
    return rows[0] if rows else None


def game_rows(db, game_ids: list[str]) -> list[dict]:
    """The rows of these games that are here, in one read."""
    if not game_ids:
        return []
    return sql.dicts(db, GAME_ROWS, ids=list(game_ids))


def game_of_first_hash(db, first_hash: str) -> str | None:
    """The game here whose event 1 has this hash (the same game, imported or not), if any."""
    return sql.value(db, GAME_OF_FIRST_HASH, hash=first_hash)


def list_games(db, finished: bool, limit: int = 50, offset: int = 0) -> list[dict]:
    """Running or finished games, the most recently played first, one page at a time
    (abandoned games never end: they must not push the finished ones off the list)."""
    return sql.dicts(db, LIST_GAMES, finished=int(finished), limit=limit, offset=sql_int(offset))


def add_seat_token(db, game_id: str, seat: int, token_hash: str) -> None:
    sql.run(db, ADD_SEAT_TOKEN, token_hash=token_hash, game_id=game_id, seat=seat, issued_at=now())


def seat_of_token_hash(db, game_id: str, token_hash: str) -> int | None:
    return sql.value(db, SEAT_OF_TOKEN_HASH, token_hash=token_hash, game_id=game_id)


def verify_game(db, game_id: str) -> tuple[int, str] | None:
    """The first event whose chain link is broken, or None when intact."""
    return first_broken_link(e.envelope() for e in read_events(db, game_id))


def event_seqs(db, game_id: str) -> list[int]:
    return GAMES.seqs(db, game_id)


def game_ids(db) -> list[str]:
    return sql.column(db, GAME_IDS)

