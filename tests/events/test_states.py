"""events/application/states.py: one forward fold of a game's history, with voids refolded from
the state just before their target, equals the full fold at every step; the cached
walk is extended as events arrive and stays within its byte budget (issues 18, 24)."""
import random

import pytest

from bench.common import Player, store_game
from events.application import states as hist
from events.domain.event import Event
from events.domain.event import NewEvent
from events.domain.projection import fold
from events.storage import store
from scoring import GAMES


@pytest.fixture
def db(tmp_path):
    conn = store.connect(str(tmp_path / "hist.db"))
    store.migrate(conn)
    yield conn
    conn.conn.close()


def _event(events: list[Event], type_: str, data: dict, seat=0, version=1) -> None:
    seq = len(events) + 1
    events.append(Event(seq, type_, version, data, seat, "dev", "2026-01-01T00:00:00+00:00",
                        f"c{seq}", f"h{seq}"))


def _last(events: list[Event]) -> tuple[int, str]:
    return events[-1].seq, events[-1].hash


def _random_game(kind: str, length: int, seed: int) -> list[Event]:
    """A game of demo moves with undos, voids far back, disputes resolved both ways."""
    rng, player, events = random.Random(seed), Player(kind), []
    _event(events, "game-created", player.created_data(), seat=None)
    while len(events) < length:
        table = fold(events)
        roll, live = rng.random(), list(table.live_moves)
        if live and roll < 0.25:
            _event(events, "event-voided", {"target": live[-1], "reason": "undo", "undo": True})
        elif live and roll < 0.32:
            _event(events, "event-voided", {"target": rng.choice(live), "reason": "far back"})
        elif live and roll < 0.38:
            _event(events, "dispute-opened", {"target": rng.choice(live), "comment": "?"})
            _event(events, "dispute-resolved", {"dispute": len(events), "reason": "checked",
                                                "outcome": rng.choice(["voided", "kept"])})
        else:
            step = player.next_move(table)
            if step is None:
                break
            type_, data, _ = step
            _event(events, type_, data, version=player.game.event_types[type_].version)
    return events


@pytest.mark.parametrize("kind,seed", [("scorepad", 1), ("scorepad", 2), ("han", 3), ("maharaja", 4)])
def test_every_step_of_the_walk_equals_the_full_fold(kind, seed):
    events = _random_game(kind, 120, seed)
    assert any(e.type == "event-voided" for e in events)
    for event, table in hist.walk(events):
        assert table == fold(events[:event.seq]), event.seq


def test_a_void_refolds_from_just_before_its_target_not_from_the_start(monkeypatch):
    """An undo after a long game costs the events since its target (the quadratic part
    of the old walk, which refolded the whole game at every void)."""
    events = _random_game("scorepad", 40, 5)
    walker = hist.Walker(hist.reader(events))
    for event in events:
        walker.step(event)
    target = walker.table.live_moves[-1]
    _event(events, "event-voided", {"target": target, "reason": "undo", "undo": True})
    full_folds = []
    monkeypatch.setattr(hist, "fold", lambda *a, **k: full_folds.append(a) or fold(*a, **k))
    assert walker.step(events[-1]) == fold(events)
    assert full_folds == []


def test_the_cached_history_is_extended_and_equals_a_fresh_one(db):
    events = _random_game("scorepad", 150, 6)
    game_id, _ = store_game(db, events[:90])
    states = hist.States()
    states.game(db, game_id)
    for e in events[90:]:
        store.append(db, game_id, NewEvent(e.type, e.version, e.data, e.seat, e.device,
                                                 e.client_event_id), e.seq - 1)
    grown = states.game(db, game_id)
    stored = store.read_events(db, game_id)
    fresh = hist.GameStates()
    fresh.extend(hist.reader(stored), stored)
    assert grown.totals == fresh.totals and grown.texts == fresh.texts
    assert grown.table == fresh.table == fold(events)
    assert grown.types == [e.type for e in events] and grown.seats == [e.seat for e in events]
    read = hist.reader(stored)
    for at in (1, 2, 15, 16, 17, 63, 64, 65, 100, 149, 150):
        assert grown.state_at(read, at) == fold(events[:at]), at
        assert states.load(db, game_id, at) == fold(events[:at]), at


def test_a_history_of_another_file_with_the_same_id_starts_afresh(db, tmp_path):
    first = _random_game("scorepad", 30, 7)
    game_id, _ = store_game(db, first)
    states = hist.States()
    states.game(db, game_id)
    other = _random_game("scorepad", 30, 8)
    db.conn.close()
    (tmp_path / "hist.db").unlink()  # a restored backup where the game is another file
    db2 = store.connect(str(tmp_path / "hist.db"))
    store.migrate(db2)
    store.insert_game(db2, game_id, "scorepad", other[0].data["players"], "j", [None] * len(other[0].data["players"]))
    with store.write_lock(db2):
        store.insert_events(db2, game_id, [NewEvent(e.type, e.version, e.data, e.seat, e.device,
                                                          e.client_event_id) for e in other], False)
    assert states.load(db2, game_id) == fold(other)
    db2.conn.close()


def test_the_cache_is_bounded_in_bytes(db):
    states = hist.States(budget=150_000)
    for n in range(20):
        events = _random_game("scorepad", 60, n)
        game_id, _ = store_game(db, events)
        states.game(db, game_id)
    assert 0 < states.nbytes() <= 150_000
    assert states.nbytes() == sum(g.nbytes for g in states._games.values())
    assert 1 < len(states) < 20


@pytest.mark.parametrize("kind", ["scorepad", "han"])
def test_a_games_own_totals_equal_the_sum_of_its_score_parts(kind):
    events = _random_game(kind, 80, 9)
    for _, table in hist.walk(events):
        parts = table.rules.score(table.game)
        assert table.rules.totals(table.game) == {
            seat: sum(p.points for p in parts.get(seat, [])) for seat in range(len(table.players))}


@pytest.mark.parametrize("kind", sorted(k for k, g in GAMES.items() if g.recent_parts is not None))
def test_a_games_recent_parts_are_the_last_of_its_score_parts(kind):
    """``recent_parts`` (the table page's, read from the end of the state) says what
    score() says: each seat's count of parts and its last ones, through voids and gaps."""
    events = _random_game(kind, 120, 4)
    for _, table in hist.walk(events):
        parts = table.rules.score(table.game)
        for n in (1, 2, 12):
            assert table.rules.recent_parts(table.game, n) == {
                seat: (len(parts[seat]), parts[seat][-n:]) for seat in range(len(table.players))}


def test_a_recorded_han_move_is_scored_once(db, monkeypatch):
    """A tap folds the move (Han's ``apply`` notes each seat's total, for its point cards)
    and the history keeps each event's totals: from the state, not by scoring again."""
    import importlib
    from events.application.table import record
    han_score = importlib.import_module("scoring.han.score")  # the package's ``score`` is the function
    player = Player("han")
    events = [Event(1, "game-created", 1, player.created_data(), None, "dev",
                    "2026-01-01T00:00:00+00:00", "c1", "")]
    game_id, _ = store_game(db, events)
    states = hist.States()
    scored = []
    real = han_score.score_parts
    monkeypatch.setattr(han_score, "score_parts", lambda *a: scored.append(a) or real(*a))
    for n in range(2, 8):
        type_, data, _ = player.next_move(states.load(db, game_id))
        scored.clear()
        record(db, game_id, type_, data, n - 1, 0, "dev", f"m{n}", states=states)
        assert len(scored) == 1, f"move {n} ({type_}) was scored {len(scored)} times"
    assert states.load(db, game_id).game["totals"] == han_score.totals(fold(store.read_events(db, game_id)).game)


def test_a_game_with_nothing_new_is_loaded_without_reading_its_events(db, monkeypatch):
    """A tap loads its game three times (the route, ``record``, the answer); while nothing
    was appended, each is one look at the last row, not its payload decoded again."""
    events = _random_game("han", 30, 3)
    game_id, _ = store_game(db, events)
    states = hist.States()
    states.load(db, game_id)
    reads = []
    real = store.read_events
    monkeypatch.setattr(store, "read_events", lambda *a, **k: reads.append(a) or real(*a, **k))
    assert states.load(db, game_id).seq == 30 and reads == []
    # a move appended elsewhere (another worker, another server) is still found and folded
    store.append(db, game_id, NewEvent("event-voided", 1, {"target": max(states.load(db, game_id).live_moves),
                                                                 "reason": "undo", "undo": True},
                                             0, "dev", "elsewhere"), expected_seq=30)
    assert states.load(db, game_id).seq == 31 and len(reads) == 1
    assert states.load(db, game_id).game == fold(real(db, game_id)).game
