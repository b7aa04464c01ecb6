"""The process a large import runs in (web/importing.py): one request line on stdin (the
database, the job's name, its options), then the upload's bytes; the job's answer as JSON
on stdout. It opens the store as the app does (``app.connect``: the statistics commit with
the imported game, as on the worker), so its writes are the app's own."""
from __future__ import annotations

import gc
import json
import os
import sqlite3
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from app import connect
from web.importing import job


CHECKING_NICER_BY = 10  # the checking thread's nice value above the process's: the workers get the CPU first


def _lower_priority() -> None:
    """Lower this thread's CPU priority (Linux keeps a nice value per thread); elsewhere the
    checking runs at the process's priority."""
    try:
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me) + CHECKING_NICER_BY))
    except (AttributeError, OSError):
        pass


def collect_nothing() -> None:
    """Python's cyclic collector off for the job: what the job holds (the file read, the
    roster it extends, the rows it makes) lives until the process ends, and each full
    collection walked all of it with the GIL held — 19–99 ms at a time, four or five times
    in each of the largest imports, some under SQLite's write lock with every table's move
    waiting for it (docs/decisions.md, "Short writes"). Reference counting still frees what
    the job drops; the cycles it leaves are few (0–42 objects per full collection,
    measured), and the process ends with its job."""
    gc.disable()


def main() -> int:
    collect_nothing()
    request = json.loads(sys.stdin.buffer.readline())
    raw = sys.stdin.buffer.read()
    db = connect(request["database"])
    try:
        answer = answer_of(db, request["job"], raw, request["options"])
    finally:
        db.conn.close()
    sys.stdout.write(json.dumps(answer, ensure_ascii=False))
    return 0


def answer_of(db, name: str, raw: bytes, options: dict) -> dict:
    """The job's answer; SQLite's lock not had in time is ``{"busy": why}`` (the worker
    answers 503, as for a move)."""
    # The checking (Han at 10,000 events: 4-6 s of CPU) runs on a thread of lower priority,
    # so that it takes the CPU the server's workers leave; the writes stay on this thread at
    # the usual priority: a lowered writer preempted while it holds SQLite's write lock would
    # keep every table's moves waiting for it.
    checking = ThreadPoolExecutor(1, initializer=_lower_priority)
    try:
        return job(name)(db, raw, options, None, aside=lambda work: checking.submit(work).result())
    except sqlite3.OperationalError as err:
        if "locked" not in str(err) and "busy" not in str(err):
            raise
        return {"busy": str(err)}
    finally:
        checking.shutdown()


if __name__ == "__main__":
    sys.exit(main())
