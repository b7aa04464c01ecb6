"""The cached and snapshotted states (events/application/states.py) always equal the full fold:
for every registered game, at every sequence number asked in any order, across an
undo (a void changes the past) and a dispute, and when the snapshots thin out."""
import json
import random

import pytest

from events.application import states as tables
from events.application.table import Refused, new_game, record
from events.domain.projection import fold
from events.storage import store
from scoring import GAMES

STATES = tables.States()


def load(db, game_id, at=None):
    return STATES.load(db, game_id, at)


def forget_cache():
    STATES.forget()


@pytest.fixture
def db(tmp_path):
    conn = store.connect(str(tmp_path / "snap.db"))
    store.migrate(conn)
    forget_cache()
    yield conn
    forget_cache()
    conn.conn.close()


def _play_with_an_undo(db, kind: str) -> str:
    """The game's demo recorded through ``record``, with an undo of the last move
    halfway and a dispute; moves the rules refuse after the undo are skipped."""
    game = GAMES[kind]
    players, options, moves = game.demo()
    game_id = new_game(db, kind, players, options, "dev")["id"]
    half = len(moves) // 2
    n = 0

    def rec(type_, data):
        nonlocal n
        n += 1
        try:
            record(db, game_id, type_, data, load(db, game_id).seq, 0, "dev", f"c{n}", states=STATES)
        except Refused:
            pass

    for i, (type_, data) in enumerate(moves):
        if i == half:
            live = load(db, game_id).live_moves
            rec("event-voided", {"target": live[-1], "reason": "undo", "undo": True})
            rec("dispute-opened", {"target": live[0], "comment": "really?"})
        rec(type_, data)
    return game_id


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_state_at_every_seq_equals_the_full_fold(db, kind, monkeypatch):
    game_id = _play_with_an_undo(db, kind)
    events = store.read_events(db, game_id)
    assert any(e.type == "event-voided" for e in events)
    budget = 3 * len(json.dumps(fold(events).game))
    monkeypatch.setattr(tables, "SNAPSHOT_EVERY", 1)
    monkeypatch.setattr(tables, "SNAPSHOT_BYTES", budget)  # thin out often
    forget_cache()
    seqs = list(range(1, len(events) + 1)) * 2
    random.Random(kind).shuffle(seqs)
    for seq in seqs:
        assert load(db, game_id, at=seq) == fold(events, upto=seq), (kind, seq)
    found = STATES.game(db, game_id)
    every, kept = found.every, found.snapshots
    assert kept and all(s % every == 0 for s in kept)
    assert len(kept) == 1 or sum(size for _, size in kept.values()) <= budget


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_cached_latest_state_equals_the_full_fold(db, kind):
    game_id = _play_with_an_undo(db, kind)
    events = store.read_events(db, game_id)
    assert load(db, game_id) == fold(events)  # what record remembered, extended
    forget_cache()
    assert load(db, game_id) == fold(events)


def test_an_unknown_game_or_seq_before_the_first_is_refused(db):
    with pytest.raises(tables.UnknownGame):
        load(db, "nope", at=3)
    game_id = new_game(db, "scorepad", [{"name": "A"}], {}, "dev")["id"]
    with pytest.raises(tables.UnknownGame):
        load(db, game_id, at=0)
    assert load(db, game_id, at=99).seq == 1  # past the end: the latest state, as fold does


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_workers_first_fold_keeps_snapshots_that_equal_the_full_fold(db, kind, monkeypatch):
    game = GAMES[kind]
    players, options, moves = game.demo()
    game_id = new_game(db, kind, players, options, "dev")["id"]
    for n, (type_, data) in enumerate(moves):
        record(db, game_id, type_, data, load(db, game_id).seq, 0, "dev", f"c{n}", states=STATES)
    events = store.read_events(db, game_id)
    monkeypatch.setattr(tables, "SNAPSHOT_EVERY", 2)
    forget_cache()  # a worker that has not seen this game
    assert load(db, game_id) == fold(events)
    kept = STATES.game(db, game_id).snapshots
    assert kept, "the first full fold laid no snapshot"
    for seq, (recent, _) in kept.items():
        assert recent[seq] == fold(events, upto=seq), (kind, seq)


def test_a_game_whose_past_changed_is_walked_with_its_voids_refolded_from_recent_states(db, monkeypatch):
    game_id = _play_with_an_undo(db, "scorepad")
    forget_cache()
    full_folds = []
    monkeypatch.setattr(tables, "fold", lambda *a, **k: full_folds.append(a) or fold(*a, **k))
    assert load(db, game_id) == fold(store.read_events(db, game_id))
    assert len(full_folds) == 1  # the first event's; the undo refolded from the state before its target
