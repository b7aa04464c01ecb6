"""The production server's settings, shared by `make run`, the tests' live server and
the load benchmark (each passes its own --bind; command-line flags win over this file).

gevent workers: every connection is a greenlet, so thousands of mostly idle live
streams (web/stream.py) and slow or idle clients cost memory, not threads; a client
that sends its header a line a second holds only its own greenlet. SQLite's calls do
not yield to other greenlets, so inside a worker a write transaction runs to its
COMMIT untouched; across the two workers SQLite's lock keeps one writer and WAL lets
everyone else read (docs/architecture.md, "Live updates").
"""
workers = 2
worker_class = "gevent"
worker_connections = 2000   # per worker: 1,000 live streams (STREAMS_PER_WORKER) and room for requests
timeout = 60
graceful_timeout = 5        # a restart closes streams; phones reconnect by themselves
keepalive = 5


def post_worker_init(worker):
    from app import tune_gc
    tune_gc()
