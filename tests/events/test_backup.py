"""Copies of the database (events/application/backup.py): a copy taken while the store is
open holds every game as it was, passes the checks, and a copy whose record was changed
behind the app's back names the game and the event that no longer verify."""
import sqlite3

import pytest

from events.application import backup
from events.storage import store
from tests.conftest import pad_played, tamper


@pytest.fixture
def source(app, db):
    if app.config["DATABASE"].startswith("postgresql://"):
        pytest.skip("SQLite's online backup: PostgreSQL is copied by copy-db (tests/services/test_transfer.py)")
    return [pad_played(db, [9, 5], ["Anna", "Béla"]), pad_played(db, [3, 4], ["Anna", "Cili"])]


def test_a_copy_of_an_open_store_holds_every_game_and_passes_the_checks(app, db, source, tmp_path):
    target = str(tmp_path / "copy.db")
    backup.copy(app.config["DATABASE"], target)
    assert backup.check_copy(target) == (2, [])
    copied = store.connect(target)
    assert [store.last_seq(copied, g) for g in source] == [store.last_seq(db, g) for g in source]


def test_a_copy_whose_record_was_changed_names_the_game_and_the_event(app, db, source, tmp_path):
    target = str(tmp_path / "copy.db")
    backup.copy(app.config["DATABASE"], target)
    copied = store.connect(target)
    tamper(copied, "UPDATE events SET data = ? WHERE game_id = ? AND seq = 2", ['{"seat": 0, "points": 99}', source[1]])
    copied.conn.commit() if copied.conn.in_transaction else None
    games, problems = backup.check_copy(target)
    assert games == 2 and len(problems) == 1 and problems[0].startswith(f"game {source[1]}: event 2: ")


def test_a_file_that_is_no_database_is_not_copied_silently(tmp_path):
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database at all" * 100)
    with pytest.raises(sqlite3.DatabaseError):
        backup.copy(str(broken), str(tmp_path / "copy.db"))
