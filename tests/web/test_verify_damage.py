"""`verify-db` names every damaged row it meets, whatever the damage, and ends without a
traceback (issue 35 §11): a photo stored as text that is no UTF-8 (or as text at all), an
event or a roster change whose data is not UTF-8 or not JSON — on both engines, as far as
each engine can hold the damage (PostgreSQL's types refuse text that is no UTF-8)."""
from __future__ import annotations

import pytest

from events.storage import store
from tests.conftest import run_sql

app = pytest.fixture(lambda app_on_each_engine: app_on_each_engine)


def _verify(app):
    result = app.test_cli_runner().invoke(args=["verify-db"])
    assert isinstance(result.exception, SystemExit), repr(result.exception)  # no traceback
    return result


def _sqlite_only(db) -> None:
    if store.is_postgres(db):
        pytest.skip("PostgreSQL stores no text that is not UTF-8, nor text in a bytea column")


def _insert_event(db, game: str, seq: int, data_sql: str, params: dict | None = None) -> None:
    params = params or {}
    with db.atomic():
        run_sql(db, "INSERT INTO events (game_id, seq, type, version, data, seat, device, recorded_at, "
                f"client_event_id, hash) VALUES (:game, :seq, 'points-recorded', 1, {data_sql}, 0, 'd', "
                "'2026-01-01T00:00:00+00:00', :cid, 'x')", game=game, seq=seq, cid=f"damage-{seq}", **params)


@pytest.mark.parametrize("stored", ["CAST(X'FFFE00FF' AS TEXT)", "'not an image at all'"])
def test_a_photo_stored_as_text_is_named(app, db, table_of, stored):
    _sqlite_only(db)
    table_of()
    sha = "ab" * 32
    run_sql(db, f"INSERT INTO photo_blobs (sha256, media_type, size, data) VALUES (:sha, 'image/jpeg', 4, {stored})", sha=sha)
    result = _verify(app)
    assert result.exit_code == 1
    assert f"photo {sha}:" in result.output


def test_an_event_whose_data_is_no_utf8_is_named(app, db, table_of):
    _sqlite_only(db)
    table = table_of(moves=[("points-recorded", {"seat": 0, "points": 3})])
    other = table_of()
    _insert_event(db, table.id, 3, "CAST(X'7BFF7D' AS TEXT)")
    result = _verify(app)
    assert result.exit_code == 1
    assert f"game {table.id}: event 3:" in result.output
    assert f"game {other.id}" not in result.output  # the intact game is checked and not named


def test_an_event_whose_data_is_no_json_is_named_on_both_engines(app, db, table_of):
    table = table_of(moves=[("points-recorded", {"seat": 0, "points": 3})])
    _insert_event(db, table.id, 3, ":data", {"data": "{not json"})
    result = _verify(app)
    assert result.exit_code == 1
    assert f"game {table.id}: event 3:" in result.output


def test_a_roster_change_that_is_no_json_is_named_on_both_engines(app, db, table_of):
    table_of()
    with db.atomic():
        last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM roster_events").fetchone()[0]
        run_sql(db, "INSERT INTO roster_events (seq, type, data, device, recorded_at, client_event_id, hash, version)"
                " VALUES (:seq, 'person-added', '{oops', 'd', '2026-01-01T00:00:00+00:00', 'damage', 'x', 2)", seq=last + 1)
    result = _verify(app)
    assert result.exit_code == 1
    assert f"roster: change {last + 1}:" in result.output
