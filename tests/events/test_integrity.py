"""Whether a game's record verifies (events/application/integrity.py): a changed payload, a
summary row that disagrees with the chain and events cut off its end are each named by
the first event that no longer verifies; a process verifies each event once and remembers
a broken game; damage that cannot even be read is named, never a traceback."""
import json

import pytest

from events.application import integrity
from events.storage import store
from events.storage.log import GAMES
from tests.conftest import tamper


@pytest.fixture
def game(app, table_of):
    if app.config["DATABASE"].startswith("postgresql://"):
        pytest.skip("tampering drops SQLite's triggers (tests/web/test_verify_damage.py covers PostgreSQL)")
    return table_of(moves=[("points-recorded", {"seat": s % 2, "points": s}) for s in range(1, 5)])


def test_an_intact_record_verifies_whole_and_by_its_prefix(db, game):
    verified = integrity.Verified()
    assert integrity.verify_whole(db, game.id) is None and verified.unverified_from(db, game.id) is None
    game.play("points-recorded", {"seat": 0, "points": 9})
    assert verified.unverified_from(db, game.id) is None  # the new event verified on from the prefix


def test_a_changed_payload_is_named_by_its_event(db, game):
    tamper(db, "UPDATE events SET data = ? WHERE game_id = ? AND seq = 3", [json.dumps({"seat": 1, "points": 99}), game.id])
    assert integrity.verify_whole(db, game.id)[0] == 3
    assert integrity.Verified().unverified_from(db, game.id)[0] == 3


def test_events_cut_off_the_end_are_told_by_the_summary_row(db, game):
    tamper(db, "DELETE FROM events WHERE game_id = ? AND seq >= 4", [game.id])
    seq, why = integrity.verify_whole(db, game.id)
    assert seq == 4 and "the record ends at 3" in why


def test_a_process_remembers_what_it_verified_and_what_it_found_broken(db, game):
    verified = integrity.Verified()
    assert verified.unverified_from(db, game.id) is None
    tamper(db, "UPDATE events SET data = ? WHERE game_id = ? AND seq = 2", [json.dumps({"seat": 0, "points": 50}), game.id])
    assert verified.unverified_from(db, game.id) is None  # verified once: a change behind its back waits for a restart
    verified.forget()
    broken = verified.unverified_from(db, game.id)
    assert broken[0] == 2
    tamper(db, "UPDATE events SET data = ? WHERE game_id = ? AND seq = 2", [json.dumps({"seat": 1, "points": 1}), game.id])
    assert verified.unverified_from(db, game.id) == broken  # remembered as broken


def test_damage_no_row_can_explain_is_named_in_one_line_not_raised():
    def verify():
        raise ValueError("bad\n  bytes")
    assert integrity.guarded(verify, lambda: [1, 2], lambda seq: None) == (0, "it cannot be read (ValueError: bad bytes)")

    def read_one(seq):
        if seq == 2:
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
    seq, why = integrity.guarded(verify, lambda: [1, 2, 3], read_one)
    assert seq == 2 and why.startswith("its stored row cannot be read (UnicodeDecodeError")


def test_the_warning_says_from_which_event_and_why_in_both_languages():
    said = integrity.warning((7, "hash does not match"))
    assert said["from"] == 7 and "from event 7 (hash does not match)" in said["en"] and "7. eseménytől" in said["hu"]



@pytest.mark.parametrize("recorded, changed", [
    ({"points": None}, '{"points": NaN}'),                    # orjson reads no NaN
    ({"points": 2 ** 70}, '{"points": %d}' % (2 ** 70 + 1)),  # the same float to orjson
    ({"points": 1e16}, '{"points": 1e+16, "seat": 0}'),
    ({"name": "Anna"}, '{"name": "Anna\\u0000"}'),
])
def test_a_changed_payload_orjson_reads_otherwise_is_named_by_its_event(db, game, recorded, changed):
    """Intact rows are verified from their stored text by orjson (events/domain/hashing.py:
    first_broken_row); a change it would read as the recorded payload still breaks the chain."""
    with store.write_lock(db):
        seq = GAMES.record(db, game.id, {"type": "note-added", "version": 1, "data": recorded, "seat": None,
                                         "device": "dev", "recorded_at": "2026-11-28T03:00:00Z",
                                         "client_event_id": "odd"})["seq"]
    assert integrity.verify_whole(db, game.id) is None
    tamper(db, "UPDATE events SET data = ? WHERE game_id = ? AND seq = ?", [changed, game.id, seq])
    assert integrity.verify_whole(db, game.id)[0] == seq
    assert integrity.Verified().unverified_from(db, game.id)[0] == seq
