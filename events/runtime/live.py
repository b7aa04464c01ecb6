"""Who is waiting for a game's next event, in this process, and how they are woken.

Every open stream (web/stream.py) holds one ``threading.Event`` here. The app owns its
hub (``create_app``: ``app.extensions["live"]``), so two apps in one process are two
servers. A move recorded through the app wakes its game's streams at once
(``events.application.table.record`` announces it to ``Hub.on_recorded``). A move recorded by
another server worker is seen by one watcher thread per hub that asks SQLite every
``WATCH_INTERVAL`` seconds (50 ms) whether any other connection committed (``PRAGMA
data_version``, answered from memory) and, only then, reads the last sequence number
of the games someone here is waiting for (one indexed query). So an idle hall costs one
tiny query per worker per tick, not one per phone, and a move in the other worker shows
at most one tick later.

On PostgreSQL (events/storage/pg.py) the servers may run on different machines: the watcher
LISTENs instead, and every committed event NOTIFYs its game's id (a trigger,
events/storage/migrations.py), so a move recorded through one server wakes the phones of
every other server as soon as it commits; after a lost connection the watcher
reconnects and wakes every waiting stream once (it may have missed a notification).

The hub keeps the newest sequence number it was told of for each game it has streams
of, so a move is announced once per process: the notification of a move this process
recorded (PostgreSQL tells every listener, its own recorder too), and the watcher's
look after a move of its own worker, wake nobody again; a stream that already sent that
move looks no further (web/stream.py). The streams woken together share one look at
the game (``look``): it is read once for all of them, not once per phone.

Under gunicorn's gevent worker ``threading`` is patched: the events, the lock and the
watcher are greenlets' primitives, and a waiting stream costs a greenlet, no thread.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from events.storage import pg, sql, store
from events.storage import statements as S

WATCH_INTERVAL = 0.05  # seconds between the watcher's looks at SQLite
RECONNECT_INTERVAL = 1.0  # seconds before the PostgreSQL watcher connects again


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, set[threading.Event]] = {}
        self._newest: dict[str, int] = {}  # game -> the newest seq announced (games with streams)
        self._wakes: dict[str, int] = {}   # game -> how many times its streams were woken
        self._looks: dict[str, tuple[int, Look]] = {}  # game -> (wake it was made for, the look)
        self._watcher: threading.Thread | None = None
        self._database: str | None = None
        self._slots = None   # every worker's count of open streams, shared (gunicorn.conf.py)
        self._slot = 0

    def share(self, slots, slot: int) -> None:
        """Count this worker's streams in ``slots[slot]``, memory the server's master
        shares with every worker, so the limit holds for the server, not per worker."""
        self._slots, self._slot = slots, slot
        slots[slot] = 0

    def server_count(self) -> int:
        """Streams open in every worker of this server (in this process alone outside
        gunicorn)."""
        if self._slots is None:
            return self.count()
        return sum(self._slots)

    def _counted(self) -> None:
        if self._slots is not None:
            self._slots[self._slot] = self.count_locked()

    def subscribe(self, game_id: str, database: str) -> threading.Event:
        """A wake-up flag for this game's next event (``database``: where the watcher
        looks for moves recorded by other processes)."""
        with self._lock:
            flag = threading.Event()
            self._waiting.setdefault(game_id, set()).add(flag)
            self._counted()
            self._start_watcher(database)
            return flag

    def unsubscribe(self, game_id: str, flag: threading.Event) -> None:
        with self._lock:
            flags = self._waiting.get(game_id)
            if flags is not None:
                flags.discard(flag)
                if not flags:  # no one here waits for it: what was known of it goes
                    del self._waiting[game_id]
                    for known in (self._newest, self._wakes, self._looks):
                        known.pop(game_id, None)
            self._counted()

    def published(self, game_id: str, seq: int | None = None) -> None:
        """Wake every stream of this game: event ``seq`` was committed (None: something
        may have been, the streams look). A move already announced wakes nobody again."""
        with self._lock:
            flags = self._waiting.get(game_id)
            if not flags:
                return
            if seq is not None:
                if seq <= self._newest.get(game_id, 0):
                    return
                self._newest[game_id] = seq
            else:
                self._newest.pop(game_id, None)
            self._wakes[game_id] = self._wakes.get(game_id, 0) + 1
            flags = list(flags)
        for flag in flags:
            flag.set()

    def on_recorded(self, db, game_id: str, event, table) -> None:
        """A subscriber to "an event was recorded" (app.py:on_recorded): wake this game's
        streams in this process at once (other processes: their watchers)."""
        self.published(game_id, event.seq)

    def newest(self, game_id: str) -> int | None:
        """The newest sequence number announced for this game, None if not known here."""
        with self._lock:
            return self._newest.get(game_id)

    def look(self, game_id: str, read: Callable[[], object]):
        """What ``read()`` finds of the game, read once for every stream woken by the same
        announcement (the first to ask reads, the others wait for it and share it); a
        later announcement makes the next look read again."""
        with self._lock:
            wake = self._wakes.get(game_id, 0)
            made = self._looks.get(game_id)
            if made is None or made[0] != wake or made[1].failed:
                made = (wake, Look())
                if game_id in self._waiting:
                    self._looks[game_id] = made
                mine = True
            else:
                mine = False
        return made[1].read(read) if mine else made[1].result(read)

    def count(self) -> int:
        with self._lock:
            return self.count_locked()

    def count_locked(self) -> int:
        return sum(len(flags) for flags in self._waiting.values())

    # ---- moves recorded by other processes -------------------------------------------

    def _start_watcher(self, database: str) -> None:
        """Called under the lock; one watcher per hub (after gunicorn forks)."""
        if self._watcher is not None and self._watcher.is_alive() and self._database == database:
            return
        self._database = database
        self._watcher = threading.Thread(target=self._watch, args=(database,), daemon=True,
                                         name="tablescribe-live-watcher")
        self._watcher.start()

    def _watch(self, database: str) -> None:
        if pg.is_url(database):
            self._listen(database)
            return
        db = store.connect(database)
        try:
            version = None
            while self._database == database:
                with self._lock:
                    games = list(self._waiting)
                if games:
                    now = sql.value(db, S.DATA_VERSION)
                    if now != version:
                        version = now
                        self._wake_changed(db, games)
                time.sleep(WATCH_INTERVAL)
        finally:
            db.conn.close()

    def _listen(self, database: str) -> None:
        from psycopg import Error as PostgresError
        while self._database == database:
            try:
                db = store.connect(database)
            except pg.Unreachable:
                time.sleep(RECONNECT_INTERVAL)
                continue
            try:
                pg.listen(db)
                self._wake_all()  # moves made while this watcher was not listening
                while self._database == database:
                    # the notifications of one packet at once, then one read of their games
                    notes = db.conn.raw.notifies(timeout=1.0, stop_after=1)
                    notified = {note.payload for note in notes}
                    with self._lock:
                        games = [game_id for game_id in notified if game_id in self._waiting]
                    if games:
                        self._wake_changed(db, games)
            except PostgresError:  # the connection went: connect again
                time.sleep(RECONNECT_INTERVAL)
            finally:
                db.conn.close()

    def _wake_all(self) -> None:
        with self._lock:
            games = list(self._waiting)
        for game_id in games:
            self.published(game_id)

    def _wake_changed(self, db, games: list[str]) -> None:
        """Wake the streams of the games whose last event is newer than announced here."""
        for start in range(0, len(games), 500):  # SQLite's limit on bound parameters
            chunk = games[start:start + 500]
            for game_id, last in sql.run(db, S.LAST_SEQS, game_ids=chunk).fetchall():
                self.published(game_id, last)


class Look:
    """One read shared by the streams woken together (``Hub.look``)."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._value = None
        self.failed = False

    def read(self, read: Callable[[], object]):
        try:
            self._value = read()
            return self._value
        except BaseException:
            self.failed = True
            raise
        finally:
            self._done.set()

    def result(self, read: Callable[[], object]):
        """The value the first reader found; read again if it failed or took too long."""
        if self._done.wait(5.0) and not self.failed:
            return self._value
        return read()
