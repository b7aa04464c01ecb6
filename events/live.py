"""Who is waiting for a game's next event, in this process, and how they are woken.

Every open stream (web/stream.py) holds one ``threading.Event`` here. A move recorded
in this process wakes its game's streams at once (``events.table.record`` calls
``published``). A move recorded by another server worker is seen by one watcher
thread per process that asks SQLite every ``WATCH_INTERVAL`` seconds (50 ms) whether any
other connection committed (``PRAGMA data_version``, answered from memory) and, only
then, reads the last sequence number of the games someone here is waiting for (one
indexed query). So an idle hall costs one tiny query per worker per tick, not one per
phone, and a move in the other worker shows at most one tick later.

On PostgreSQL (events/pg.py) the servers may run on different machines: the watcher
LISTENs instead, and every committed event NOTIFYs its game's id (a trigger,
events/migrations.py), so a move recorded through one server wakes the phones of
every other server as soon as it commits; after a lost connection the watcher
reconnects and wakes every waiting stream once (it may have missed a notification).

Under gunicorn's gevent worker ``threading`` is patched: the events, the lock and the
watcher are greenlets' primitives, and a waiting stream costs a greenlet, no thread.
"""
from __future__ import annotations

import threading
import time

from events import pg, store

WATCH_INTERVAL = 0.05  # seconds between the watcher's looks at SQLite
RECONNECT_INTERVAL = 1.0  # seconds before the PostgreSQL watcher connects again


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, set[threading.Event]] = {}
        self._known: dict[str, int] = {}  # game -> last seq the watcher saw
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
                if not flags:
                    del self._waiting[game_id]
                    self._known.pop(game_id, None)
            self._counted()

    def published(self, game_id: str) -> None:
        """Wake every stream of this game (a move was just recorded)."""
        with self._lock:
            flags = list(self._waiting.get(game_id, ()))
        for flag in flags:
            flag.set()

    def count(self) -> int:
        with self._lock:
            return self.count_locked()

    def count_locked(self) -> int:
        return sum(len(flags) for flags in self._waiting.values())

    # ---- moves recorded by other processes -------------------------------------------

    def _start_watcher(self, database: str) -> None:
        """Called under the lock; one watcher per process (after gunicorn forks)."""
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
                    now = db.execute("PRAGMA data_version").fetchone()[0]
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
                db.execute(f"LISTEN {pg.CHANNEL}")
                self._wake_all()  # moves made while this watcher was not listening
                while self._database == database:
                    for note in db.conn.raw.notifies(timeout=1.0):
                        self.published(note.payload)
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
        for start in range(0, len(games), 500):  # SQLite's limit on bound parameters
            chunk = games[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for game_id, last in db.execute(f"SELECT id, last_seq FROM games WHERE id IN ({marks})",
                                            chunk).fetchall():
                with self._lock:
                    before = self._known.get(game_id)
                    self._known[game_id] = last
                if last != before:  # a first sighting too: a spurious wake costs one read
                    self.published(game_id)


HUB = Hub()


def on_recorded(db, game_id: str, event, table) -> None:
    """A subscriber to "an event was recorded" (app.py:on_recorded): wake this game's
    streams in this process at once (other processes: the watcher)."""
    HUB.published(game_id)
