"""Large imports are read, checked and written in a process of their own (web/importing.py,
issue 25 §5): the worker that received the file runs none of it, and every guarantee of an
import holds on that path too — each event re-checked, the same game refused the second
time, a refusal naming its event, the organiser's BG Stats import, plays imported once —
on both engines."""
from __future__ import annotations

import json

import pytest

from events.application import export
from events.storage import store
from group import bgstats
from tests.conftest import HAN_EXAMPLE, become_organiser, csrf_of, guarded_app, many_plays, upload


def _never_here(*args, **kwargs):
    raise AssertionError("the file was checked on the worker that serves the tables")


@pytest.fixture
def every_file_in_a_process(database):
    """CSRF on, the organiser's client, on each engine; every file, small ones too, in a process."""
    app, client, _ = guarded_app(database)
    app.config["IMPORT_IN_A_PROCESS_FROM"] = 0
    become_organiser(app, client)
    token = csrf_of(client.get("/games/new").get_data(as_text=True))
    db = store.connect(database, on_recorded=app.extensions["on_recorded"])
    yield app, client, token, db
    db.conn.close()


def test_a_game_file_is_checked_and_written_by_another_process(every_file_in_a_process, monkeypatch):
    app, client, token, db = every_file_in_a_process
    monkeypatch.setattr(export, "_verify", _never_here)
    with open(HAN_EXAMPLE, "rb") as f:
        content = f.read()
    response = upload(client, "/import", content, token)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    game_id = response.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    doc = json.loads(content)
    stored = store.read_events(db, game_id)
    assert [e.hash for e in stored] == [e["hash"] for e in doc["events"]]
    page = client.get(response.headers["Location"])  # the importer holds the host's seat
    assert page.status_code == 200
    # the same game again: refused, with the link to the game here
    again = upload(client, "/import", content, csrf_of(page.get_data(as_text=True)))
    assert again.status_code == 409 and f"/games/{game_id}" in again.get_data(as_text=True)


def test_a_refusal_from_the_other_process_names_its_event_and_rule(every_file_in_a_process, monkeypatch):
    app, client, token, db = every_file_in_a_process
    monkeypatch.setattr(export, "_verify", _never_here)
    with open(HAN_EXAMPLE, encoding="utf-8") as f:
        doc = json.load(f)
    doc["events"][4]["hash"] = "0" * 64
    response = upload(client, "/import", json.dumps(doc).encode(), token)
    assert response.status_code == 422 and "#5" in response.get_data(as_text=True)
    not_json = upload(client, "/import", b"\xff{", token)
    assert not_json.status_code == 422 and "not JSON" in not_json.get_data(as_text=True)
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_a_bgstats_file_is_imported_by_another_process_once(every_file_in_a_process, monkeypatch):
    app, client, token, db = every_file_in_a_process
    monkeypatch.setattr(bgstats, "read_export", _never_here)
    content = json.dumps(many_plays(150)).encode()
    first = upload(client, "/people/import-bgstats", content, token)
    assert first.status_code == 200 and "Imported: 150" in first.get_data(as_text=True)
    again = upload(client, "/people/import-bgstats", content, token)
    assert again.status_code == 200 and "imported before: 150" in again.get_data(as_text=True)
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM stat_seats").fetchone()[0] == 150
    stats = client.get("/stats")  # the worker's caches see the other process's plays
    assert stats.status_code == 200


def test_a_bad_bgstats_file_is_refused_by_the_other_process_saying_why(every_file_in_a_process):
    app, client, token, db = every_file_in_a_process
    doc = many_plays(3)
    doc["plays"][1]["playerScores"][0]["score"] = "--5"
    response = upload(client, "/people/import-bgstats", json.dumps(doc).encode(), token)
    page = response.get_data(as_text=True)  # the broken play refused with its reason, the others in
    assert response.status_code == 200 and "Imported: 2" in page and "play #2" in page and "not a number" in page
    stranger = client.application.test_client()
    stranger.set_cookie("lang", "en")
    refused = upload(stranger, "/people/import-bgstats", json.dumps(many_plays(3)).encode(),
                     csrf_of(stranger.get("/games/new").get_data(as_text=True)))
    assert refused.status_code == 403  # the organiser's, before any process starts
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM stat_seats").fetchone()[0] == 2


def test_a_worker_runs_at_most_its_import_processes_at_once(every_file_in_a_process):
    """A phone posting large files in a loop gets 503 once the worker's import processes
    are all busy, nothing read or written; a slot free again, the file goes in."""
    from web import importing
    app, client, token, db = every_file_in_a_process
    with app.app_context():
        slots = importing._import_slots()
    for _ in range(importing.IMPORTS_AT_ONCE):
        assert slots.acquire(blocking=False)  # every slot taken by imports in flight
    with open(HAN_EXAMPLE, "rb") as f:
        content = f.read()
    games_before = len(store.game_ids(db))
    busy = upload(client, "/import", content, token)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "30"
    assert "try again in a minute" in busy.get_data(as_text=True)
    assert len(store.game_ids(db)) == games_before
    for _ in range(importing.IMPORTS_AT_ONCE):
        slots.release()
    assert upload(client, "/import", content, token).status_code == 303


def test_a_large_upload_refused_for_want_of_a_slot_is_never_read_into_memory(every_file_in_a_process, monkeypatch):
    """The 503 of a busy worker comes before the file is read: werkzeug keeps a large upload
    in a temporary file, and only an import that has its slot reads it (it was read whole,
    up to 64 MiB, only to be refused)."""
    from flask import has_request_context
    from werkzeug.datastructures import FileStorage

    from web import importing
    app, client, token, db = every_file_in_a_process
    reads, delegated = [], FileStorage.__getattr__  # a FileStorage reads through its stream

    def watched(self, name):
        if name == "read" and has_request_context():  # the app's read, not the test client's
            reads.append(self.filename)
        return delegated(self, name)
    monkeypatch.setattr(FileStorage, "__getattr__", watched)
    with app.app_context():
        slots = importing._import_slots()
    for _ in range(importing.IMPORTS_AT_ONCE):
        assert slots.acquire(blocking=False)
    with open(HAN_EXAMPLE, "rb") as f:
        content = f.read()
    for path in ("/import", "/people/import-bgstats"):
        assert upload(client, path, content, token).status_code == 503
    assert reads == []
    for _ in range(importing.IMPORTS_AT_ONCE):
        slots.release()
    assert upload(client, "/import", content, token).status_code == 303
    assert reads == ["x.json"]
