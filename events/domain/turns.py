"""Turn times: a pure function of a game's log (docs/events.md, "Time at the table").

Each game says whose turn its state is in (``GameKind.turn``: a key naming the turn and
its seat, or None for the whole table). The game is folded once as the log now stands
(voided moves never happened), and after every event the turn, the break and the timer
in force are noted: a ``Mark``. The wall-clock between two events belongs to the turn
the game was in after the first of them, unless a break was going on. So an undo, a
voided move or a dispute keeps the time it took inside the turn it happened in, and an
undone end of a turn never ended it. Nothing here reads a clock: the running turn's
time since the last event is added by whoever shows it (static/clock.js on the phones).

``clock(times, marks)`` is the derivation; ``marks_of(events)`` folds a log for its marks.
The app keeps each game's marks beside its states (events/application/states.py ``GameStates``), noted
as the walk goes and again for the states a void refolds.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import NamedTuple

from events.domain.event import Event
from events.domain.projection import TableState, folds


class Mark(NamedTuple):
    """The game after one event: whose turn, whether a break is on, the timer in force."""
    key: tuple | None          # None: nobody's turn (the game is over, or has no turns)
    seat: int | None
    paused: bool
    timer: dict | None
    over: bool


def mark(table: TableState) -> Mark:
    rules = table.rules
    now = rules.turn(table.game) if rules.turn is not None else None
    key, seat = now if now is not None else (None, None)
    return Mark(key, seat, table.paused is not None, table.timer, rules.is_over(table.game))


def epoch(recorded_at: str) -> float:
    """An event's ``recorded_at`` (UTC ISO 8601) as seconds since the epoch."""
    return datetime.fromisoformat(recorded_at).timestamp()


@dataclass
class Turn:
    key: tuple
    seat: int | None
    first: int                # the event after which it began
    last: int                 # the last event recorded in it
    seconds: float = 0.0      # counted: breaks left out
    limit: int | None = None  # the turn timer in force when it ended (the running one: now), seconds
    timed_from: float = 0.0   # its seconds when that timer was set: one set mid-turn counts from then

    @property
    def timed(self) -> float:
        """Seconds the turn timer has counted (from the turn's start, or from when it was set)."""
        return self.seconds - self.timed_from

    @property
    def over(self) -> float:
        """Seconds beyond the turn timer (0 within it, or with no timer)."""
        return max(0.0, self.timed - self.limit) if self.limit else 0.0

    def time_by(self, limit: int | None) -> None:
        """The turn timer in force from here on: a new one counts this turn from now."""
        if limit != self.limit:
            self.limit, self.timed_from = limit, self.seconds


@dataclass
class Clock:
    """The game's time as the log has it, up to its last event."""
    turns: list[Turn] = field(default_factory=list)
    started: float = 0.0       # event 1
    last: float = 0.0          # the last event
    counted: float = 0.0       # seconds of play: breaks left out
    paused_seconds: float = 0.0
    current: Turn | None = None   # the turn the game is in after its last event
    paused: bool = False
    paused_at: float | None = None   # when the break going on began
    timer: dict | None = None
    over: bool = False

    @property
    def done(self) -> list[Turn]:
        """The turns that have ended (all but the one going on)."""
        return [t for t in self.turns if t is not self.current]

    def seats(self, players: int) -> list[dict]:
        """Each seat's ended turns: count, total, average and longest seconds, turns over
        the timer; and the time left on a chess clock (``timer.total``), the running turn
        taken off too."""
        rows = [{"seat": s, "turns": 0, "total": 0.0, "longest": 0.0, "over": 0} for s in range(players)]
        for turn in self.done:
            if turn.seat is None or not 0 <= turn.seat < players:
                continue
            row = rows[turn.seat]
            row["turns"] += 1
            row["total"] += turn.seconds
            row["longest"] = max(row["longest"], turn.seconds)
            row["over"] += turn.over > 0
        total = (self.timer or {}).get("total")
        running = self.current
        for row in rows:
            row["average"] = row["total"] / row["turns"] if row["turns"] else 0.0
            spent = row["total"] + (running.seconds if running and running.seat == row["seat"] else 0.0)
            row["left"] = total - spent if total else None
        return rows

    def table_seconds(self) -> float:
        """Time in ended turns nobody in particular takes (the score pad's rounds, set-up steps)."""
        return sum(t.seconds for t in self.done if t.seat is None)

    def longest(self, n: int = 5) -> list[Turn]:
        return sorted((t for t in self.done if t.seat is not None), key=lambda t: -t.seconds)[:n]



def clock(times: list[float], marks: list[Mark]) -> Clock:
    """The turns of a game from its events' times and the ``marks`` after each (event
    ``i + 1`` at ``times[i]``): the time between two events goes to the turn after the
    first, unless a break was on; the game's time runs from event 1 until it is over,
    breaks left out."""
    tally = Tally()
    tally.extend(times, marks)
    return tally.finish(times, marks)


class Tally:
    """``clock`` kept as events arrive: each new event adds its interval, so a page of a
    long game does not count every turn again (the app keeps one per game: events/application/states.py)."""

    def __init__(self):
        self.result = Clock()
        self.by_key: dict[tuple, Turn] = {}
        self.upto = 1   # the intervals before event ``upto`` + 1 are counted

    def extend(self, times: list[float], marks: list[Mark]) -> None:
        result = self.result
        if times:
            result.started = times[0]
        for i in range(self.upto, len(times)):
            before = marks[i - 1]
            if marks[i].paused and not before.paused:
                result.paused_at = times[i]
            spent = max(0.0, times[i] - times[i - 1])  # a clock set back never makes time negative
            if before.over:
                continue
            if before.paused:
                result.paused_seconds += spent
                continue
            result.counted += spent
            turn = _turn_for(result, self.by_key, before, i)
            if turn is not None:
                turn.last = i + 1
                turn.time_by((before.timer or {}).get("turn"))
                turn.seconds += spent
        self.upto = max(self.upto, len(times))

    def finish(self, times: list[float], marks: list[Mark]) -> Clock:
        """The clock after the last of ``times`` (its list of turns a copy: later events
        add to the tally, not to a clock already handed out)."""
        if not times:
            return Clock()
        result, after = self.result, marks[-1]
        current = _turn_for(result, self.by_key, after, len(times))
        if current is not None:
            current.time_by((after.timer or {}).get("turn"))
        return replace(result, turns=list(result.turns), last=times[-1], current=current,
                       paused=after.paused, paused_at=result.paused_at if after.paused else None,
                       timer=after.timer, over=after.over)


def _turn_for(result: Clock, by_key: dict, now: Mark, seq: int) -> Turn | None:
    """The turn ``now`` names: the one of that key, resumed (Maharaja's turn after the pick
    its swap asked for), or a new one. A game's keys name each turn once."""
    if now.key is None:
        return None
    turn = by_key.get(now.key)
    if turn is None:
        turn = by_key[now.key] = Turn(now.key, now.seat, first=seq, last=seq)
        result.turns.append(turn)
    return turn


# ---- the marks of a log ----------------------------------------------------------------

def marks_of(events: list[Event]) -> list[Mark]:
    """The mark after every event, the game folded as its log now stands."""
    return [mark(table) for table in folds(events)]


def times_of(events: list[Event]) -> list[float]:
    return [epoch(e.recorded_at) for e in events]


def turn_times(events: list[Event]) -> Clock:
    """A game's clock from its whole log: the pure derivation, without any cache."""
    return clock(times_of(events), marks_of(events))
