"""Turn times from the log (events/domain/turns.py, issue 28): for each game kind a recorded game
with set ``recorded_at``, an undo inside a turn and a break, checked against numbers
counted by hand (the comments count them). Each game is also fed one event at a time to
the cached timeline, which must agree with the derivation from the whole log."""
import pytest

from bench.common import Player
from events.application.states import GameStates, reader
from events.domain import turns
from events.domain.event import Event
from scoring import GAMES


class Log:
    """A recorded game: events with their ``recorded_at`` seconds after 20:00:00 UTC."""

    def __init__(self, kind: str):
        self.game, player = GAMES[kind], Player(kind)
        self.events: list[Event] = []
        self.demo = iter(self.game.demo()[2])
        self.add(0, "game-created", player.created_data(), seat=None)

    def add(self, at: int, type_: str, data: dict, seat=0) -> int:
        seq = len(self.events) + 1
        version = self.game.event_types[type_].version if type_ in self.game.event_types else 1
        stamp = f"2026-03-14T{20 + at // 3600:02d}:{at % 3600 // 60:02d}:{at % 60:02d}.000+00:00"
        self.events.append(Event(seq, type_, version, data, seat, "phone", stamp, f"c{seq}", f"h{seq}"))
        return seq

    def next(self, at: int, expect: str | None = None) -> int:
        """The demo game's next move, recorded at ``at``."""
        type_, data = next(self.demo)
        assert expect is None or type_ == expect, type_
        return self.add(at, type_, data)

    def undo(self, at: int, target: int) -> int:
        return self.add(at, "event-voided", {"target": target, "reason": "undo", "undo": True})

    def pause(self, at: int, until: int) -> None:
        self.add(at, "game-paused", {})
        self.add(until, "game-resumed", {})

    def clock(self) -> turns.Clock:
        """The derivation from the whole log, checked against the app's cached walk fed
        one event at a time (a void refolds from just before its target)."""
        whole = turns.turn_times(self.events)
        cached, read = GameStates(), reader(self.events)
        for event in self.events:
            cached.extend(read, [event])
            cached.clock(read)   # the kept tally counted on event by event
        kept = cached.clock(read)
        assert _times(kept) == _times(whole)
        assert (kept.counted, kept.paused_seconds, kept.paused, kept.over) == \
            (whole.counted, whole.paused_seconds, whole.paused, whole.over)
        assert (kept.current and kept.current.key) == (whole.current and whole.current.key)
        assert cached.marks == turns.marks_of(self.events)
        return whole


def _times(clock: turns.Clock) -> list:
    return [(t.key, t.seat, t.seconds) for t in clock.turns]


def _by_seat(clock: turns.Clock, players: int) -> dict:
    return {row["seat"]: (row["turns"], row["total"], row["average"]) for row in clock.seats(players)}


def test_five_tribes_a_turn_runs_from_the_end_of_the_previous_one_to_turn_ended():
    log = Log("five-tribes")
    log.next(60, "board-laid")           # laying the Sultanate, the table's: 0 → 60 = 60
    log.next(75, "bid-placed")           # Peti's bid 60 → 75 = 15
    log.next(95, "bid-placed")           # the second player's 75 → 95 = 20
    log.next(100, "bid-placed")          # the third's 95 → 100 = 5
    log.next(130, "meeples-moved")       # Peti's turn from 100 …
    palm = log.next(140, "palm-placed")
    log.undo(150, palm)                  # … an undo inside it …
    log.add(160, "palm-placed", log.events[palm - 1].data)
    log.next(200, "turn-ended")          # … to its end: 100 → 200 = 100
    log.pause(230, 830)                  # second player: 200 → 230, a break of 600 s,
    log.next(860, "meeples-moved")
    djinn = log.next(880, "djinn-taken")
    log.undo(890, djinn)
    log.add(900, "djinn-taken", log.events[djinn - 1].data)
    log.next(920, "djinn-used")
    log.next(950, "turn-ended")          # 830 → 950: 30 + 120 = 150
    log.next(1000, "meeples-moved")      # third player from 950 …
    log.next(1010, "goods-bought")
    log.next(1020, "goods-sold")
    ended = log.next(1030, "turn-ended")
    log.undo(1040, ended)                # an undone end of the turn never ended it
    log.add(1100, "turn-ended", {})      # … to 1100 = 150
    clock = log.clock()
    assert _by_seat(clock, 3) == {0: (2, 115.0, 57.5), 1: (2, 170.0, 85.0), 2: (2, 155.0, 77.5)}
    assert clock.table_seconds() == 60
    assert clock.counted == 500 and clock.paused_seconds == 600     # 1100 − 600
    assert clock.current.key == ("refill", 1) and clock.current.seat is None and clock.current.seconds == 0
    assert [t.seconds for t in clock.longest(2)] == [150, 150]


def test_han_a_turn_is_one_placement_or_exchange():
    log = Log("han")
    log.next(40, "pieces-placed")        # Anita 0 → 40
    placed = log.next(100, "pieces-placed")
    log.undo(110, placed)                # the second player's placement undone …
    log.add(130, "pieces-placed", log.events[placed - 1].data)   # … their turn 40 → 130 = 90
    log.pause(150, 450)                  # the third player: 130 → 150 …
    log.next(470, "card-exchanged")      # … and 450 → 470 = 40
    log.next(520, "pieces-placed")       # Anita again 470 → 520 = 50
    clock = log.clock()
    assert _by_seat(clock, 3) == {0: (2, 90.0, 45.0), 1: (1, 90.0, 90.0), 2: (1, 40.0, 40.0)}
    assert clock.counted == 220 and clock.paused_seconds == 300
    assert clock.current.seat == 1 and clock.current.seconds == 0   # the second player's turn begins


def test_maharaja_a_turn_within_a_round_resumes_after_the_pick_its_swap_asked_for():
    log = Log("maharaja")
    log.next(20, "governors-laid")        # the table's: 20
    log.next(50, "character-chosen")      # Anna 30
    log.next(60, "character-chosen")      # the second player 10
    for at in range(70, 150, 10):         # eight start houses of 10 s, four each
        log.next(at, "start-house-placed")
    log.next(200, "actions-revealed")     # the second player's turn in round 1 from 140 …
    log.next(220, "architect-travelled")
    built = log.next(230, "house-built")
    log.undo(240, built)
    log.add(260, "house-built", log.events[built - 1].data)
    log.next(280, "character-swapped")    # … 140 → 280 = 140; Anna must pick: 280 → 290 …
    log.pause(290, 590)
    log.next(600, "character-picked")     # … and 590 → 600 = 20
    log.next(650, "palace-built")         # the turn goes on: 140 + 600 → 650 = 190
    clock = log.clock()
    assert _by_seat(clock, 2) == {0: (6, 90.0, 15.0), 1: (5, 50.0, 10.0)}
    assert clock.current.key == ("round", 1, 1) and clock.current.seconds == 190
    assert clock.table_seconds() == 20 and clock.counted == 350 and clock.paused_seconds == 300


def test_dragon_each_players_step_of_a_month_and_the_build_it_pays_for_are_one_turn():
    log = Log("dragon")
    log.next(30, "dragon-events-laid")          # the table's: 30
    log.next(90, "dragon-opening-recruited")    # Anna 60
    log.next(100, "dragon-opening-recruited")   # the second player 10
    log.next(120, "dragon-actions-dealt")       # the table's: 20
    chosen = log.next(150, "dragon-action-chosen")
    log.undo(155, chosen)
    log.add(170, "dragon-action-chosen", log.events[chosen - 1].data)
    log.next(200, "dragon-floors-placed")       # Anna's action and build: 120 → 200 = 80
    log.pause(210, 1210)                        # the second player: 200 → 210 …
    log.next(1240, "dragon-money-refilled")     # … and 1210 → 1240 = 40
    clock = log.clock()
    assert _by_seat(clock, 2) == {0: (2, 140.0, 70.0), 1: (2, 50.0, 25.0)}
    assert clock.table_seconds() == 50 and clock.counted == 240 and clock.paused_seconds == 1000
    assert clock.current.seat == 0 and clock.current.key[1] == "person"


def test_scorepad_a_round_is_the_tables_turn_and_the_game_ends_its_clock():
    log = Log("scorepad")
    log.add(30, "points-recorded", {"seat": 0, "points": 5, "note": ""})
    wrong = log.add(50, "points-recorded", {"seat": 1, "points": 3, "note": ""})
    log.undo(55, wrong)
    log.add(70, "points-recorded", {"seat": 1, "points": 4, "note": ""})
    log.add(80, "round-closed", {})           # round 1: 0 → 80
    log.pause(100, 700)                       # round 2: 80 → 100 …
    log.add(720, "points-recorded", {"seat": 0, "points": 1, "note": ""})
    log.add(730, "round-closed", {})          # … and 700 → 730 = 50
    log.add(760, "game-ended", {})            # round 3: 30
    log.add(900, "dispute-opened", {"target": 2, "comment": "?"})   # after the end: not counted
    clock = log.clock()
    assert _times(clock) == [(("round", 1), None, 80), (("round", 2), None, 50), (("round", 3), None, 30)]
    assert clock.over and clock.current is None
    assert clock.counted == 160 and clock.paused_seconds == 600
    assert _by_seat(clock, 2) == {0: (0, 0.0, 0.0), 1: (0, 0.0, 0.0)}


def test_a_void_far_back_moves_the_time_of_every_turn_since_as_the_log_now_reads():
    """Voiding round 1's closing after 20 more entries: the walk folds the game whole, and
    the cached marks are noted afresh (rounds 2 and 3 were never closed: one round)."""
    log = Log("scorepad")
    log.add(10, "points-recorded", {"seat": 0, "points": 1, "note": ""})
    closed = log.add(20, "round-closed", {})
    for at in range(30, 230, 10):
        log.add(at, "points-recorded", {"seat": 1, "points": 1, "note": ""})
    log.add(240, "event-voided", {"target": closed, "reason": "closed too early"})
    clock = log.clock()
    assert _times(clock) == [(("round", 1), None, 240)]


def test_dragon_tally_has_no_turns_only_the_time_it_took():
    log = Log("dragon-tally")
    log.next(100, "dragon-position-entered")
    log.pause(110, 200)
    log.next(230, "dragon-position-entered")
    clock = log.clock()
    assert clock.turns == [] and clock.over
    assert clock.counted == 140 and clock.paused_seconds == 90


def test_the_turn_timer_counts_turns_over_it_and_the_chess_clock_what_is_left():
    log = Log("han")
    log.add(0, "timer-set", {"turn": 30, "total": 120})
    log.next(40, "pieces-placed")        # Anita 40 s: 10 over
    log.next(60, "pieces-placed")        # 20 s: within
    log.next(100, "card-exchanged")      # 40 s: over
    log.next(110, "pieces-placed")       # Anita 10 s
    clock = log.clock()
    rows = {r["seat"]: r for r in clock.seats(3)}
    assert [rows[s]["over"] for s in range(3)] == [1, 0, 1]
    assert [rows[s]["left"] for s in range(3)] == [70, 100, 80]
    assert clock.done[0].over == 10 and clock.current.limit == 30


def test_a_turn_timer_set_mid_turn_counts_that_turn_from_when_it_was_set():
    """Issue 39 §11: a 0:20 timer set 64 s into a turn said "Time is up · +0:44" at once."""
    log = Log("han")
    log.add(64, "timer-set", {"turn": 20})
    clock = log.clock()
    assert clock.current.seconds == 64 and clock.current.timed == 0 and clock.current.over == 0
    log.next(74, "pieces-placed")        # Anita: 74 s, 10 of them timed: within
    log.add(80, "timer-set", {"turn": 30})
    log.next(130, "pieces-placed")       # the next seat: 56 s, 50 since the new timer: 20 over
    clock = log.clock()
    assert [t.over for t in clock.done] == [0, 20]


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_game_with_turns_names_each_turn_once(kind):
    """A game's keys name each turn once, so a turn resumed is the same turn (Maharaja)
    and two turns of one player are never one: over its whole demo game."""
    log = Log(kind)
    for at, (type_, data) in enumerate(log.demo, start=1):
        log.add(at * 10, type_, data)
    clock = log.clock()
    keys = [t.key for t in clock.turns]
    assert len(keys) == len(set(keys))
    if log.game.turn is not None:  # every second of play is some turn's
        assert sum(t.seconds for t in clock.turns) == clock.counted > 0
