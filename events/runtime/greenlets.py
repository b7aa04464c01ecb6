"""gevent's hub kept free: a call that blocks in C run on a native thread, a long loop giving the worker's other connections a turn; each a plain call outside gevent."""
from __future__ import annotations

import sys


def off_the_hub(call, *args):
    """Run a call that blocks inside SQLite on a native thread when the server runs
    gevent workers (gunicorn.conf.py). Waiting for the other worker's write lock and the
    fsync of COMMIT happen in C and never yield: on the hub they froze every connection
    of the worker, live streams included (bench/live.py measured taps at p95 ~2 s with
    400 tables). The calling greenlet waits; the others run."""
    if _gevent_running() is None:
        return call(*args)
    from gevent import get_hub
    return get_hub().threadpool.apply(call, args)


def native_lock():
    """A lock of the operating system's threads, also in a gevent worker (whose
    ``threading`` is gevent's, meant for greenlets of one thread): what native threads
    running ``off_the_hub`` calls wait on between themselves."""
    monkey = _gevent_running()
    if monkey is None:
        import _thread
        return _thread.allocate_lock()
    return monkey.get_original("_thread", "allocate_lock")()


def native_sleep():
    """``time.sleep`` of the operating system, also in a gevent worker (whose ``time.sleep``
    is gevent's, for the hub's greenlets): how a native thread running an ``off_the_hub``
    call pauses between two tries for SQLite's write lock."""
    monkey = _gevent_running()
    if monkey is None:
        import time
        return time.sleep
    return monkey.get_original("time", "sleep")


def cooperate() -> None:
    """A long computation on a gevent worker's hub (verifying an import of 10,000 events
    takes seconds) calls this every few dozen steps, so the worker's other connections
    (other tables' moves, live streams) are served between them instead of after it.
    Nothing outside gevent."""
    sleep = _gevent_sleep()
    if sleep is not None:
        sleep(0)


def cooperating(items, every: int):
    """``items``, calling ``cooperate`` every ``every`` of them (a long loop over a file's
    10,000 events or plays, or the hashes of a log that grew by as many)."""
    for i, item in enumerate(items):
        if i % every == every - 1:
            cooperate()
        yield item


def _gevent_sleep():
    if _gevent_running() is None:
        return None
    from gevent import sleep
    return sleep


def _gevent_running():
    """gevent's ``monkey`` module when this process runs gevent with ``threading``
    patched (a server worker, gunicorn.conf.py), else None. Looked up, not imported: a
    process that never loaded gevent is not running it, and importing it made the first
    append of a process (a command, a script, the benchmark) ~15 ms slower."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey if monkey is not None and monkey.is_module_patched("threading") else None
