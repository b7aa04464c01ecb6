"""The production server's settings, shared by `make run`, the tests' live server and
the load benchmark (each passes its own --bind; command-line flags win over this file).

gevent workers: every connection is a greenlet, so thousands of mostly idle live
streams (web/stream.py) and slow or idle clients cost memory, not threads; a client
that sends its header a line a second holds only its own greenlet. SQLite's calls do
not yield to other greenlets: appends (the write lock's wait, the fsync) run on gevent's
thread pool, SQLite's lock keeps one writer at a time and WAL lets everyone else read
(docs/architecture.md, "Live updates").
"""
import os as _os
import signal as _signal
import subprocess as _subprocess
import sys as _sys
import time as _time
from multiprocessing import RawArray as _shared_array

import gevent as _gevent  # the master imports it anyway: it loads the worker class
from gunicorn.workers import ggevent as _ggevent



class _FairServer(_ggevent.StreamServer):
    """gevent's server, stepping back once (_STEP_BACK_S) before it accepts while its worker
    holds more connections than a sibling, so the sibling takes the connection. Every
    worker is woken for each new connection and the first to accept wins: one worker
    took all 16 of the sustained-appends benchmark's kept-alive phones while the other
    idled. It accepts after the step back whatever the counts say: a sibling that is busy
    or gone only delays a connection by a few ms, never refuses it."""
    slot = 0
    _stepped_back = False

    def _do_read(self):
        if not self._stepped_back and _busier_than_a_sibling(self.slot):
            self._stepped_back = True
            self.stop_accepting()
            self._timer = self.loop.timer(_STEP_BACK_S)  # as gevent's own retry after an error
            self._timer.start(self._start_accepting_if_started)
            return
        self._stepped_back = False
        super()._do_read()


class _GeventWorker(_ggevent.GeventWorker):
    """gunicorn's gevent worker, stopped by Ctrl-C on `make run` without a traceback. The
    terminal sends SIGINT to the whole process group: the workers leave it to the master,
    which sends them SIGQUIT. gunicorn quits from a greenlet that calls sys.exit after a
    short sleep; when the worker's main loop had ended first (a second signal, a worker
    still booting), that greenlet ran at interpreter exit and printed "SystemExit"
    tracebacks. The quit is thrown into the main greenlet instead, as a plain worker does."""

    def init_signals(self):
        super().init_signals()
        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)

    def run(self):
        _FairServer.slot = self.stream_slot
        _ggevent.StreamServer = _FairServer  # the name gunicorn's run() makes its server by, in this worker alone
        super().run()

    def handle(self, listener, client, addr):
        _connections[self.stream_slot] += 1
        try:
            super().handle(listener, client, addr)
        finally:
            _connections[self.stream_slot] -= 1

    def handle_quit(self, sig, frame):
        _gevent.spawn(self._quit_now, _gevent.get_hub().parent)

    def _quit_now(self, main):
        self.alive = False
        self.cfg.worker_int(self)
        main.throw(SystemExit(0))


workers = 2
worker_class = _GeventWorker  # "gevent", quitting quietly
worker_connections = 3000   # per worker: live streams (2,000 for the server, MAX_STREAMS) and requests

# Each worker's count of open live streams, in memory this master shares with the
# workers it forks: the stream limit is the server's, however the workers split the
# phones (events/runtime/live.py). A slot per worker; a replaced worker takes the dead one's.
_stream_counts = _shared_array("q", 64)

# Which workers have booted (a slot each, as above): a worker starts accepting only once its
# siblings have booted too, or _READY_WITHIN has passed. The first worker to boot had taken
# every connection opened meanwhile — each phone reconnecting after a restart, and with
# keep-alive for good — while the others, still compiling their templates, stayed idle
# (bench/load.py's sustained appends: one worker at one core, the other at none).
_booted = _shared_array("b", 64)
# Each worker's open connections (a slot each, as above), for _FairServer.
_connections = _shared_array("q", 64)
_STEP_BACK_S = 0.005
_READY_WITHIN = 10.0  # s: well inside gunicorn's timeout; a worker slower than that is not waited for

# Every line of the access and error logs without the secrets some paths carry (a join,
# hand-over or organiser link): web/logs.py, docs/reliability.md "Logs".
logger_class = "web.logs.RedactingGunicornLogger"

timeout = 60
graceful_timeout = 5        # a restart closes streams; phones reconnect by themselves
keepalive = 5


def pre_fork(server, worker):
    taken = {getattr(w, "stream_slot", None) for w in server.WORKERS.values()}
    worker.stream_slot = min(set(range(len(_stream_counts))) - taken)


def post_worker_init(worker):
    # after gevent patched the worker and the app was loaded (post_fork is too early:
    # importing the app before gevent patches threading would give it real locks)
    from app import worker_ready
    worker.wsgi.extensions["live"].share(_stream_counts, worker.stream_slot)  # the app's hub
    worker_ready(worker.wsgi)
    _ready_together(worker)


def _busier_than_a_sibling(slot):
    """More open connections in this worker than in another booted one, by more than one."""
    others = [_connections[i] for i in range(len(_booted)) if _booted[i] and i != slot]
    return bool(others) and _connections[slot] > min(others) + 1


def _ready_together(worker):
    """Mark this worker booted, then wait (at most _READY_WITHIN) until as many are as the
    server runs. A replacement for a dead worker finds its slot already marked: it waits
    for nobody."""
    _connections[worker.stream_slot] = 0  # a dead worker's count, whose slot this one took
    _booted[worker.stream_slot] = 1
    deadline = _time.monotonic() + _READY_WITHIN
    while sum(_booted) < worker.cfg.workers and _time.monotonic() < deadline:
        _time.sleep(0.01)


def when_ready(server):
    """`make run` (TABLESCRIBE_ANNOUNCE=1): the address, its QR code and the organiser's link
    once the port is bound, by a process of their own (the master imports no app:
    scripts/announce.py). Never before: a port already taken printed them, then failed."""
    if _os.environ.get("TABLESCRIBE_ANNOUNCE"):
        host, port = server.LISTENERS[0].sock.getsockname()[:2]
        _subprocess.Popen([_sys.executable, "-m", "scripts.announce", host, str(port)])
