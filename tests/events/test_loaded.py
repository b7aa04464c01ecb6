"""A table loaded once for a page (events/application/loaded.py): the last RECENT events
for the log, the move Undo takes back and the move a tap voided read beside them when they
are older, the join code, which seat a hand-over took from a phone, and whether the
record verifies — from one place."""
import pytest

from events.application import seats
from events.application.integrity import Verified
from events.application.loaded import RECENT, load_table
from events.application.states import States
from tests.conftest import tamper


def _points(n: int) -> list:
    return [("points-recorded", {"seat": i % 2, "points": i}) for i in range(1, n + 1)]


def test_the_log_holds_the_recent_events_and_undo_takes_back_the_last_live_move(db, table_of):
    game = table_of(moves=_points(RECENT + 3))
    loaded = load_table(db, States(), game.id)
    assert [e.seq for e in loaded.recent] == list(range(5, RECENT + 5))
    assert loaded.undo_target.seq == RECENT + 4 and loaded.join_code
    assert all(loaded.text(e) for e in loaded.recent)  # every event read is said in words


def test_the_move_undo_takes_back_and_what_a_tap_voided_are_read_when_older(db, table_of):
    game = table_of(moves=_points(3))
    game.play("event-voided", {"target": 4, "reason": "wrong"})
    for i in range(RECENT):  # a break, ended, and again: no moves, but events of the log
        game.play("game-paused" if i % 2 == 0 else "game-resumed", {})
    tap = game.play("event-voided", {"target": 3, "reason": "also wrong"}).seq
    loaded = load_table(db, States(), game.id, done=tap)
    assert 3 in loaded.events and loaded.undo_target.seq == 2  # older than the log shows
    assert loaded.event(3).type == "points-recorded" and 4 not in {e.seq for e in loaded.recent}


def test_a_phone_whose_seat_was_handed_over_is_told_which(db, table_of):
    game = table_of()
    seats.hand_over(db, game.id, 1)
    assert load_table(db, States(), game.id, token=game.tokens[1], seated=False).revoked_seat == 1
    assert load_table(db, States(), game.id, token=game.tokens[1], seated=True).revoked_seat is None


def test_a_record_that_does_not_verify_is_said_from_its_first_bad_event(app, db, table_of):
    if app.config["DATABASE"].startswith("postgresql://"):
        pytest.skip("tampering drops SQLite's triggers")
    game = table_of(moves=_points(3))
    assert load_table(db, States(), game.id, verified=Verified()).unverified is None
    tamper(db, "UPDATE events SET data = ? WHERE game_id = ? AND seq = 3", ['{"seat": 0, "points": 50}', game.id])
    assert load_table(db, States(), game.id, verified=Verified()).unverified[0] == 3
