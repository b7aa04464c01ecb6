"""Every way an event gets recorded runs the app's subscribers (app.py:on_recorded): the
statistics take a finished game whether a phone, the API, an import, the benchmark or an
example script recorded it (issue 24, item 5: the statistics' hook was a module list the
web blueprint filled, so the benchmark and the scripts silently skipped it)."""
from __future__ import annotations

import ast
import json
import pathlib

import app as tablescribe
from events.application.export import import_game
from events.storage import store
from group import plays
from tests.conftest import app_on, demo_played

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_scripts_and_benchmark_connection_updates_the_statistics(tmp_path):
    """app.connect is how the example scripts and the benchmark open the store, without
    any app or blueprint made in the process."""
    path = str(tmp_path / "script.db")
    store.prepare(path)
    db = tablescribe.connect(path)
    game_id = demo_played(db, linked=False)
    assert {row[0] for row in plays.dump(db)} == {game_id}


def test_an_imported_finished_game_reaches_the_statistics(tmp_path):
    path = str(tmp_path / "import.db")
    store.prepare(path)
    db = tablescribe.connect(path)
    doc = json.loads((ROOT / "examples" / "han-side2-2p.json").read_text(encoding="utf-8"))
    game_id = import_game(db, doc, "cli")["id"]
    assert [row for row in plays.dump(db) if row[0] == game_id]


def test_a_bare_connection_runs_nothing(tmp_path):
    """The subscribers come with the connection, not from a module list some import filled."""
    path = str(tmp_path / "bare.db")
    store.prepare(path)
    app_on(str(tmp_path / "other.db"))  # an app made, its subscribers with it
    db = store.connect(path)
    demo_played(db, linked=False)
    assert plays.dump(db) == []


def test_the_app_subscribes_the_live_push_and_the_statistics_in_one_place(app):
    from events.application import boards
    assert app.extensions["on_recorded"] == (app.extensions["live"].on_recorded, plays.on_recorded,
                                             boards.on_recorded)
    with app.app_context():
        from web.db import get_db
        assert get_db().on_recorded == app.extensions["on_recorded"]


def _callee(func) -> tuple[str | None, str | None]:
    """(owner, name) of a call: ``record(…)`` → (None, "record"), ``store.connect(…)`` →
    ("store", "connect"), ``self.aggregate.record(…)`` → ("…", "record")."""
    if isinstance(func, ast.Attribute):
        return (func.value.id if isinstance(func.value, ast.Name) else "…"), func.attr
    return None, getattr(func, "id", None)


def test_code_that_records_outside_a_request_opens_the_store_with_the_apps_subscribers():
    """A module of bench/ or scripts/ that records (record, import_game) opens the store
    with app.connect, never store.connect, unless it records through a request's get_db."""
    for path in sorted((ROOT / "bench").glob("*.py")) + sorted((ROOT / "scripts").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {_callee(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
        records = {(owner, name) for owner, name in calls if name in {"record", "import_game"}
                   and owner in {None, "table", "export"}}  # the store's, not a peer's aggregate.record
        through_requests = (None, "get_db") in calls
        if records and not through_requests:
            assert ("store", "connect") not in calls, f"{path.relative_to(ROOT)} records on a bare store.connect"
