"""The app owns every cache (issue 24 §2; web/db.py ``Caches``): serving tables — moves,
the table page, its live region, the history pages, the API's states at any seq, the
statistics and the roster — leaves every module's globals as they were, and what was
kept sits in ``app.extensions["tablescribe"]``. An app made for a test starts empty."""
import functools
import importlib
import pkgutil

import pytest

from tests.conftest import app_on


PACKAGES = ("events", "group", "scoring", "web")

# Memos of pure functions of the code (a compiled JSON Schema per event type and rules
# version): the same for every app and every database, never of what is stored.
CODE_MEMOS = {"events.application.table._validator"}


def _modules():
    import app as app_module
    found = [app_module]
    for name in PACKAGES:
        package = importlib.import_module(name)
        found.append(package)
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            found.append(importlib.import_module(info.name))
    return found


def _fingerprint(value):
    if isinstance(value, dict):
        return "dict", tuple((id(k), id(v)) for k, v in value.items())
    if isinstance(value, (list, set, frozenset, tuple)):
        return type(value).__name__, tuple(sorted(id(v) for v in value))
    if isinstance(value, functools._lru_cache_wrapper):
        return "memo", value.cache_info().currsize
    return None


def _module_state() -> dict:
    state = {}
    for module in _modules():
        for name, value in vars(module).items():
            mark = _fingerprint(value)
            ours = not callable(value) or getattr(value, "__module__", "") == module.__name__
            if mark is not None and ours and not name.startswith("__"):
                state[f"{module.__name__}.{name}"] = mark
    return state


def _serve_a_few_tables(app) -> None:
    client = app.test_client()
    game = client.post("/api/games", json={"kind": "scorepad", "players": [{"name": "Anna"}, {"name": "Béla"}]}).json
    game_id, token = game["id"], game["seats"][0]["token"]
    client.set_cookie(f"seat_{game_id}", token)
    for seq in range(1, 9):
        answer = client.post(f"/games/{game_id}/moves", headers={"HX-Request": "true"}, data={
            "action": "points-recorded", "seat": str(seq % 2), "sign": "+", "points": str(seq),
            "expected_seq": str(seq), "client_event_id": f"m{seq}"})
        assert answer.status_code == 200
    assert client.post(f"/games/{game_id}/undo", headers={"HX-Request": "true"},
                       data={"expected_seq": "9", "client_event_id": "u"}).status_code == 200
    for path in ("", "/live?seq=1", "/timeline", "/final", "/replay?at=4", "/race.svg"):
        assert client.get(f"/games/{game_id}{path}").status_code == 200, path
    assert client.get(f"/api/games/{game_id}/state?at=3").status_code == 200
    assert client.get(f"/games/{game_id}/export.json").status_code == 200
    for path in ("/stats", "/people", "/api/stats", "/api/people", "/"):
        assert client.get(path).status_code == 200, path
    return game_id


def test_serving_tables_changes_no_modules_globals_and_the_app_keeps_what_it_caches(tmp_path):
    app = app_on(str(tmp_path / "c.db"))
    _serve_a_few_tables(app)  # every module imported, every template compiled
    before = _module_state()
    other = app_on(str(tmp_path / "d.db"))
    _serve_a_few_tables(other)
    after = _module_state()
    changed = sorted(name for name in set(before) | set(after)
                     if before.get(name) != after.get(name) and name not in CODE_MEMOS)
    assert changed == [], f"module-level state changed while serving: {changed}"
    caches = other.extensions["tablescribe"]
    assert len(caches.states) == 1 and caches.states.nbytes() > 0
    assert len(caches.rendered) > 0
    assert app.extensions["tablescribe"] is not caches


@pytest.mark.parametrize("name", sorted(CODE_MEMOS))
def test_the_allowed_memos_are_of_code_alone(name):
    module, _, function = name.rpartition(".")
    memo = getattr(importlib.import_module(module), function)
    assert isinstance(memo, functools._lru_cache_wrapper)


def test_requests_after_the_first_open_no_new_connection_to_the_sqlite_file(tmp_path, monkeypatch):
    """Opening a connection (the WAL check, three pragmas, and closing it) was a tenth of
    a tap's CPU: the app keeps its connections between requests."""
    from events.storage import store
    app = app_on(str(tmp_path / "c.db"))
    _serve_a_few_tables(app)
    opened = []
    real = store._sqlite
    monkeypatch.setattr(store, "_sqlite", lambda path: opened.append(path) or real(path))
    _serve_a_few_tables(app)
    assert opened == []
    assert 1 <= len(app.extensions["sqlite_idle"]) <= store.IDLE


def test_a_kept_connection_reads_what_another_process_wrote_since(tmp_path):
    """Guard: no request leaves a statement open on a kept connection (it would hold an
    old read snapshot for the next request)."""
    from events.domain.event import NewEvent
    from events.storage import store
    path = str(tmp_path / "c.db")
    app = app_on(path)
    game_id = _serve_a_few_tables(app)
    client = app.test_client()
    before = client.get(f"/api/games/{game_id}/state").json["seq"]
    other = store.connect(path)  # as another worker would
    store.append(other, game_id, NewEvent("points-recorded", 1, {"seat": 0, "points": 3}, 0, "dev", "elsewhere"),
                 expected_seq=before)
    other.conn.close()
    assert client.get(f"/api/games/{game_id}/state").json["seq"] == before + 1
