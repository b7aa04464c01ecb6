"""gunicorn.conf.py: the production server's settings, and the GC tuning each worker
applies (docs/performance.md, change 8)."""
import gc
import os
import runpy
from types import SimpleNamespace

import pytest
from gunicorn.config import KNOWN_SETTINGS

from web.i18n import LANGS


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_name_in_the_config_is_a_gunicorn_setting():
    config = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    known = {s.name for s in KNOWN_SETTINGS}
    ours = {k for k in config if not k.startswith("_")}
    assert ours <= known, ours - known  # a misspelt hook would silently never run
    assert {"workers", "worker_class", "worker_connections", "post_worker_init"} <= ours


def test_connections_are_greenlets_not_threads():
    """Thousands of idle live streams and slow clients need a worker that holds a
    connection without a thread (issue 18, issue 16 item 7)."""
    config = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    from gunicorn.workers.ggevent import GeventWorker
    assert issubclass(config["worker_class"], GeventWorker)  # gunicorn's "gevent", quitting quietly on Ctrl-C
    assert config["worker_connections"] >= 1000


def test_a_worker_compiles_its_templates_loads_its_catalogs_freezes_start_up_objects_and_collects_less_often(app):
    config = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    before = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)  # Python's defaults (bench.run.main, run by another test, tunes too)
    try:
        hub = app.extensions["live"]  # the app gunicorn loaded is the worker's wsgi
        config["post_worker_init"](worker=SimpleNamespace(stream_slot=0, wsgi=app, cfg=SimpleNamespace(workers=1)))
        assert hub.server_count() == 0 and hub._slots is not None  # its streams counted for the server
        pages = {n for n in app.jinja_env.list_templates() if n.endswith(".html")}
        assert pages and pages <= {name for _, name in app.jinja_env.cache.keys()}  # compiled before serving
        catalogs = app.extensions["babel"].instance.domain_instance.cache
        assert set(LANGS) <= {lang for lang, _ in catalogs}  # read before serving, every language
        assert gc.get_threshold()[0] > 700
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_each_worker_gets_its_own_stream_count_slot():
    """pre_fork (in the master) gives every worker a slot no live worker holds; a worker
    that replaces a dead one takes its slot."""
    from types import SimpleNamespace
    config = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    server = SimpleNamespace(WORKERS={})
    for pid in (101, 102):
        worker = SimpleNamespace()
        config["pre_fork"](server, worker)
        server.WORKERS[pid] = worker
    assert sorted(w.stream_slot for w in server.WORKERS.values()) == [0, 1]
    del server.WORKERS[101]
    replacement = SimpleNamespace()
    config["pre_fork"](server, replacement)
    assert replacement.stream_slot == 0


def test_the_benchmarks_cold_process_prepares_as_a_worker_does(app):
    """bench/history_pages.py's cold figures are a restarted worker's: its process runs the
    worker's own preparation (app.worker_ready, which post_worker_init runs), not a part of it."""
    from bench import history_pages
    config = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    assert "worker_ready(app)" in history_pages._COLD
    assert "worker_ready" in config["post_worker_init"].__code__.co_names


def _sleep_in_the_config(config: dict, monkeypatch, sleep) -> None:
    """``sleep`` for the config's own waits alone: patching ``time.sleep`` itself made every
    thread of the test process that sleeps (earlier tests' servers and watchers) spin, and
    the test took a minute in the suite instead of half a second."""
    real = config["_ready_together"].__globals__["_time"]  # the config's module, not runpy's copy
    monkeypatch.setitem(config["_ready_together"].__globals__, "_time",
                        SimpleNamespace(monotonic=real.monotonic, sleep=sleep))


def test_a_worker_starts_accepting_only_once_its_siblings_have_booted(app, monkeypatch):
    """The first worker to boot took every connection opened meanwhile (a restart's
    reconnecting phones, kept alive) while the other still compiled its templates: it
    waits for them instead, here for the sibling that boots while it waits."""
    config = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    waits = []

    def sibling_boots_meanwhile(seconds):
        waits.append(seconds)
        config["_booted"][1] = 1

    _sleep_in_the_config(config, monkeypatch, sibling_boots_meanwhile)
    import app as app_module
    monkeypatch.setattr(app_module, "tune_gc", lambda: None)  # its freeze would outlive the test
    config["post_worker_init"](worker=SimpleNamespace(stream_slot=0, wsgi=app, cfg=SimpleNamespace(workers=2)))
    assert waits and list(config["_booted"][:2]) == [1, 1]


def test_a_replacement_worker_waits_for_nobody(monkeypatch):
    """A worker replacing a dead one takes its slot (pre_fork), already marked booted."""
    config = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    config["_booted"][0] = config["_booted"][1] = 1
    _sleep_in_the_config(config, monkeypatch, lambda seconds: pytest.fail("waited"))
    config["_ready_together"](SimpleNamespace(stream_slot=1, cfg=SimpleNamespace(workers=2)))


def test_a_worker_holding_more_connections_than_a_sibling_steps_back_before_accepting():
    """Every worker is woken for each new connection and the first to accept wins: one had
    taken every kept-alive phone while the other idled. The busier one lets the other go
    first; a lone worker, or one no busier, accepts at once."""
    config = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    busier = config["_busier_than_a_sibling"]
    config["_booted"][0] = 1
    config["_connections"][0] = 9
    assert not busier(0)  # alone
    config["_booted"][1] = 1
    config["_connections"][1] = 2
    assert busier(0) and not busier(1)
    config["_connections"][1] = 8
    assert not busier(0)  # one apart is even enough


def test_the_workers_server_accepts_by_turns_and_counts_its_connections():
    config = runpy.run_path(os.path.join(ROOT, "gunicorn.conf.py"))
    from gunicorn.workers import ggevent
    assert issubclass(config["_FairServer"], ggevent.StreamServer)
    assert "_do_read" in vars(ggevent.StreamServer.__mro__[1])  # the gevent method it steps in front of
    worker = config["_GeventWorker"].__new__(config["_GeventWorker"])
    worker.stream_slot = 3
    seen = []
    original = ggevent.GeventWorker.handle
    try:
        ggevent.GeventWorker.handle = lambda self, *args: seen.append(config["_connections"][3])
        worker.handle(None, None, None)
    finally:
        ggevent.GeventWorker.handle = original
    assert seen == [1] and config["_connections"][3] == 0
