"""The import's own process (web/import_process.py): the checking on a thread of lower CPU
priority, the writing at the usual one (a lowered writer preempted under SQLite's write lock
would keep every table waiting)."""
from __future__ import annotations

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
    real_verify, real_insert = export._verify, store.insert_verified

    def verify(doc):
        seen["checked"] = _priority()
        return real_verify(doc)

    def insert(*args, **kwargs):
        seen["written"] = _priority()
        return real_insert(*args, **kwargs)

    monkeypatch.setattr(export, "_verify", verify)
    monkeypatch.setattr(store, "insert_verified", insert)
    with open(HAN_EXAMPLE, "rb") as f:
        answer = import_process.answer_of(db, "game", f.read(), {"device": "dev", "organiser": False})
    assert answer["status"] == 303
    (checked_on, checked_at), (written_on, written_at) = seen["checked"], seen["written"]
    assert written_on == threading.get_native_id() and written_at == os.getpriority(os.PRIO_PROCESS, 0)
    assert checked_on != written_on and checked_at == min(19, written_at + import_process.CHECKING_NICER_BY)
