"""Group commit on SQLite: appends that wait for the write lock together commit together,
in one transaction and one fsync, and each is answered only once that commit is durable.

One server process keeps one ``Committer`` (the app's, web/db.py; ``store.append`` uses the
connection's). An append joins the queue; if no append of the process is committing, it
leads: it takes SQLite's write lock (``BEGIN IMMEDIATE``), then every append queued by
then, runs each inside a savepoint of its own — the same checks as alone: the client id
looked up, the expected seq compared under the lock, the event, its blobs, its summary row
and what commits with it — and commits once. An append the checks refuse (someone else
recorded first, a reused id) or that fails is rolled back to its savepoint alone and gets
its own exception; the others commit. Every caller waits for the commit (or its failure)
before it hears anything, so a kill -9 before the COMMIT loses only appends nobody was
told were stored. After its commit the leader hands the lead to the first append queued
meanwhile, which commits the next group with its own connection.

The server's processes (gunicorn's workers) take turns on a lock file beside the database
(``turns``) before they ask for SQLite's write lock. SQLite makes a writer that finds the
lock taken sleep 1, 2, 5, 10… ms and try again: a worker waiting for the other's commit
woke late, or both slept while the lock stood free (sustained appends with two workers:
p99 280 ms, the slowest 0.8 s). The lock file's next leader wakes the moment the other's
commit is done, with every append its worker queued meanwhile in its group. Other writers
(an import, the command line) do not take turns: SQLite's own lock still decides.

PostgreSQL is left out: appends to different games already commit side by side there
(an advisory lock per game), each with its own commit.
"""
from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from dataclasses import dataclass, field

from events.runtime.greenlets import native_lock
from events.storage import store


@dataclass
class _Waiting:
    """One append in the queue. ``off_the_hub`` runs appends on native threads, so they
    wait on a lock of the operating system's (held until the append is answered, or
    woken to lead), not on gevent's ``threading``."""
    args: tuple
    lead: bool = False      # woken to commit the next group, not with an answer
    result: object = None
    error: BaseException | None = None
    _held: object = field(default_factory=native_lock)

    def __post_init__(self) -> None:
        self._held.acquire()

    def wait(self) -> None:
        self._held.acquire()

    def wake(self) -> None:
        self._held.release()

    def answer(self):
        if self.error is not None:
            raise self.error
        return self.result


class Committer:
    """One process's group commit: ``append(db, *args)`` as ``store.append`` takes its
    arguments after ``db``; ``commits`` and ``appends`` count what it did. ``turns``: the
    lock file the server's processes take turns on (``store.turns_file``); None: no other
    process's committer to wait for."""

    def __init__(self, turns: str | None = None) -> None:
        self._turns = _Turns(turns)
        self._lock = native_lock()
        self._queue: list[_Waiting] = []
        self._leading = False
        self.commits = 0
        self.appends = 0

    def waiting(self) -> int:
        with self._lock:
            return len(self._queue)

    def append(self, db, *args):
        me = _Waiting(args)
        with self._lock:
            self._queue.append(me)
            lead, self._leading = not self._leading, True
        if not lead:
            me.wait()
            if not me.lead:
                return me.answer()
        self._commit_group(db)
        return me.answer()

    def _take(self) -> list[_Waiting]:
        with self._lock:
            group, self._queue = self._queue, []
        return group

    def _commit_group(self, db) -> None:
        """Commit every append queued once the write lock is ours (the leader's among
        them). If the transaction fails whole (the lock not had in time, the COMMIT
        refused), each of them gets that failure: none of them is stored."""
        group: list[_Waiting] = []
        try:
            with self._turns.mine(), store.write_lock(db):
                group = self._take()  # everything queued while the lock was awaited joins
                for waiting in group:
                    _one(db, waiting)
            self.commits, self.appends = self.commits + 1, self.appends + len(group)
        except BaseException as err:
            group = group or self._take()
            for waiting in group:
                waiting.result, waiting.error = None, err
        finally:
            self._hand_over(group)

    def _hand_over(self, group: list[_Waiting]) -> None:
        with self._lock:
            following = self._queue[0] if self._queue else None
            if following is None:
                self._leading = False
            else:
                following.lead = True
        for waiting in group:  # each holds its lock till now (the leader too: released unawaited)
            waiting.wake()
        if following is not None:
            following.wake()


def _one(db, waiting: _Waiting) -> None:
    """One append inside the group's transaction, undone alone if it fails."""
    db.execute("SAVEPOINT one_append")
    try:
        waiting.result = store.append_inside(db, *waiting.args)
    except Exception as err:
        db.execute("ROLLBACK TO one_append")
        waiting.error = err
    finally:
        db.execute("RELEASE one_append")


class _Turns:
    """A lock file the committers of the server's processes take turns on (``flock``).
    Opened once per process: a forked worker must not share its parent's open file,
    whose lock would be the parent's too."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._file = None
        self._pid = None

    @contextmanager
    def mine(self):
        if self.path is None:
            yield
            return
        if self._pid != os.getpid():  # only a leader gets here, one at a time
            self._file, self._pid = open(self.path, "a"), os.getpid()
        fcntl.flock(self._file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._file, fcntl.LOCK_UN)
