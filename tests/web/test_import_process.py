"""The import's own process (web/import_process.py): the checking on a thread of lower CPU
priority, the writing at the usual one (a lowered writer preempted under SQLite's write lock
would keep every table waiting)."""
from __future__ import annotations

import json
import os
import threading

from events.application import export
from events.storage import store
from tests.conftest import HAN_EXAMPLE


def _priority() -> tuple[int, int]:
    return threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_the_checking_runs_at_a_lower_priority_than_the_writing(db, monkeypatch):
    from web import import_process
    seen = {}
    real_verify, real_insert = export._verify, store.insert_unlisted

    def verify(doc):
        seen["checked"] = _priority()
        return real_verify(doc)

    def insert(*args, **kwargs):
        seen["written"] = _priority()
        return real_insert(*args, **kwargs)

    monkeypatch.setattr(export, "_verify", verify)
    monkeypatch.setattr(store, "insert_unlisted", insert)
    with open(HAN_EXAMPLE, "rb") as f:
        answer = import_process.answer_of(db, "game", f.read(), {"device": "dev", "organiser": False})
    assert answer["status"] == 303
    (checked_on, checked_at), (written_on, written_at) = seen["checked"], seen["written"]
    assert written_on == threading.get_native_id() and written_at == os.getpriority(os.PRIO_PROCESS, 0)
    assert checked_on != written_on and checked_at == min(19, written_at + import_process.CHECKING_NICER_BY)


def test_a_files_reading_runs_at_the_checkings_priority_and_its_batches_at_the_usual_one(db, monkeypatch):
    """Issue 38 §5: the BG Stats file was parsed and read (~0.5 s for 10,000 plays) and a
    game file parsed (~0.2 s for 8 MiB) at the process's usual priority, beside the workers;
    only the writing needs it (a lowered writer preempted under SQLite's lock keeps every
    table waiting)."""
    from group import bgstats
    from tests.conftest import many_plays
    from web import audit, import_process
    seen = {}
    real_read, real_write, real_parsed = bgstats.read_export, store.short_write, audit._parsed

    def read(doc):
        seen["read"] = _priority()
        return real_read(doc)

    def write(conn):
        seen.setdefault("written", _priority())
        return real_write(conn)

    def parsed(raw):
        seen["parsed"] = _priority()
        return real_parsed(raw)

    monkeypatch.setattr(bgstats, "read_export", read)
    monkeypatch.setattr(store, "short_write", write)
    monkeypatch.setattr(audit, "_parsed", parsed)
    answer = import_process.answer_of(db, "bgstats", json.dumps(many_plays(30)).encode(), {"device": "dev"})
    assert answer["status"] == 200 and answer["result"]["imported"] == 30
    with open(HAN_EXAMPLE, "rb") as f:
        assert import_process.answer_of(db, "game", f.read(), {"device": "dev", "organiser": False})["status"] == 303
    usual = os.getpriority(os.PRIO_PROCESS, 0)
    assert seen["written"] == (threading.get_native_id(), usual)
    for lowered in (seen["read"], seen["parsed"]):
        assert lowered[0] != threading.get_native_id() and lowered[1] == min(19, usual + import_process.CHECKING_NICER_BY)


def test_the_process_runs_its_job_without_the_cyclic_collector(app, monkeypatch, capsys):
    """Issue 38 §5: full collections in the import's process walked everything the job
    holds, 19–99 ms with the GIL held, some under SQLite's write lock; the process runs
    its job with the collector off and answers as before."""
    import gc
    import io
    from tests.conftest import many_plays
    from web import import_process
    request = json.dumps({"database": app.config["DATABASE"], "job": "bgstats", "options": {"device": "dev"}})
    stdin = io.TextIOWrapper(io.BytesIO(request.encode() + b"\n" + json.dumps(many_plays(12)).encode()))
    monkeypatch.setattr("sys.stdin", stdin)
    assert gc.isenabled()
    try:
        assert import_process.main() == 0
        collecting = gc.isenabled()
    finally:
        gc.enable()
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == 200 and answer["result"]["imported"] == 12
    assert not collecting
