"""events/application/table.py: starting a game, and the writes a table page makes (undo, void)."""
import pytest

from events.application.table import NOTHING_TO_UNDO, REASON_NEEDED, Refused, new_game, undo, void
from events.storage import store


def test_undo_takes_back_the_last_live_move(table_of, db):
    table = table_of(moves=[("points-recorded", {"seat": 0, "points": 4}), ("points-recorded", {"seat": 1, "points": 2})])
    from events.application.table import load
    event = undo(db, table.id, load(db, table.id), 3, 0, "dev", "u1")
    assert (event.type, event.data) == ("event-voided", {"target": 3, "reason": "undo", "undo": True})
    again = undo(db, table.id, load(db, table.id), 4, 0, "dev", "u2")
    assert again.data["target"] == 2  # the move before it, now the last live one


def test_undo_with_no_move_and_a_void_without_a_reason_are_refused(table_of, db):
    table = table_of()
    from events.application.table import load
    with pytest.raises(Refused) as refused:
        undo(db, table.id, load(db, table.id), 1, 0, "dev", "u1")
    assert refused.value.problems == [NOTHING_TO_UNDO]
    table.play("points-recorded", {"seat": 0, "points": 4})
    with pytest.raises(Refused) as refused:
        void(db, table.id, 2, "  ", 2, 0, "dev", "v1")
    assert refused.value.problems == [REASON_NEEDED]
    assert store.last_seq(db, table.id) == 2


def test_a_refused_timer_starts_no_game(db):
    with pytest.raises(Refused):
        new_game(db, "scorepad", [{"name": "Anna"}, {"name": "Béla"}], {}, "dev", timer={"turn": -5, "total": 0})
    assert store.game_ids(db) == []


def test_a_photo_losing_every_race_is_refused_as_stale(table_of, db, monkeypatch):
    """A photo is tried at the game's current number three times; a table that moves on
    each time gets the stale refusal, never a 500."""
    from events.application import table as recording
    table = table_of()
    tried = []

    def always_stale(db_, game_id, type_, data, expected, *args, **kwargs):
        tried.append(expected)
        raise recording.StaleSequence(expected + 1)
    monkeypatch.setattr(recording, "record", always_stale)
    with pytest.raises(Refused) as refused:
        recording.attach_photo(db, table.id, {}, 0, "dev", "p1", ())
    assert refused.value.problems == [recording.STALE] and tried == [1, 1, 1]
