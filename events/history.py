"""A game's history in one pass: each event's standings and words, the table after the
last one, and states to start the replay from, for the timeline, final sheet, replay
and score race.

The fold goes forwards once. A void (or a dispute resolved by voiding) changes the
past, and refolding the whole game at every void made a game where one move in three
is undone quadratic. The walk keeps the last ``RECENT`` states of the game as it now
stands, so a void refolds only from the state just before its target: an undo costs
the one or two events since, not the whole game. A void reaching further back than
that, and a rescore, fold the game whole (both are rare). Every state the walk yields
equals ``fold(events[:i + 1])`` (tests/test_history.py checks it on random games).

One history per game is cached (``history``), extended as events arrive, and the
cache is bounded in bytes: ``CACHE_BYTES`` of kept states and rows per worker,
measured as their JSON (orjson); the least recently used game goes first.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace

import orjson

from events.core_types import CORE_EVENTS
from events.projection import TableState, advance, changes_the_past, fold, step
from events.store import Event

RECENT = 16            # states of the game as it now stands, kept to refold a void from
SNAPSHOT_EVERY = 64    # a replay starting point every this many events (doubles past the budget)
SNAPSHOT_BYTES = 4 * 2**20    # per game
CACHE_BYTES = 64 * 2**20      # per worker, all games' histories


# ---- the walk -----------------------------------------------------------------------------

def _void_entry(table: TableState, event: Event) -> tuple[int, dict] | None:
    """The move this event voids and how, as ``projection._voids`` records it."""
    spec = CORE_EVENTS.get(event.type)
    if spec is None or not spec.voids(event.data):
        return None
    d = event.data
    target = d["target"] if "target" in d else table.disputes[d["dispute"]]["target"]
    return target, {"by": event.seq, "reason": d["reason"], "undo": d.get("undo", False)}


class Walker:
    """Folds a game's events forwards; ``recent`` holds the last states of the game as
    it stands after the last event, by sequence number. ``read(first, last)`` gives the
    game's events ``first``..``last`` (by sequence number, both included)."""

    def __init__(self, read, table: TableState | None = None,
                 recent: dict[int, TableState] | None = None):
        self.read = read
        self.table = table
        self.recent: dict[int, TableState] = dict(recent or ({table.seq: table} if table else {}))

    def step(self, event: Event) -> TableState:
        if self.table is None:
            table = fold(self.read(1, event.seq - 1) + [event])
        elif changes_the_past(event):
            table = self._refold(event)
        else:
            table = advance(self.table, event)
        self._keep(table)
        return table

    def _keep(self, table: TableState) -> None:
        self.table = table
        self.recent[table.seq] = table
        while len(self.recent) > RECENT:
            del self.recent[next(iter(self.recent))]  # insertion order: the oldest first

    def _refold(self, event: Event) -> TableState:
        voids = _void_entry(self.table, event)
        base = self.recent.get(voids[0] - 1) if voids else None
        if base is None:  # a rescore, or a void further back than the recent states
            self.recent.clear()
            return fold(self.read(1, event.seq - 1) + [event])
        target, how = voids
        voided = {**self.table.voided, target: how}
        for seq in [s for s in self.recent if s >= target]:
            del self.recent[seq]
        table = replace(base, voided=voided)
        for later in self.read(target, event.seq - 1):
            # every move after a voided one is checked again, as the full fold does
            table = replace(step(table, later, voided, recheck=True), voided=voided)
            self.recent[table.seq] = table
        return replace(step(table, event, voided, recheck=True), voided=voided)


def reader(events: list[Event]):
    """``read(first, last)`` over a game's events held in memory, from the first."""
    return lambda first, last: events[first - 1:last]


def walk(events: list[Event], start: int = 0, table: TableState | None = None):
    """Yield (event, table after it) for ``events[start:]``, ``table`` being the table
    after ``events[start - 1]``."""
    walker = Walker(reader(events), table)
    for event in events[start:]:
        yield event, walker.step(event)


def scores(table: TableState) -> dict[int, int]:
    """Each seat's total at this point (the game's ``totals`` where it keeps them)."""
    rules = table.rules
    if rules.totals is not None:
        return rules.totals(table.game)
    parts = rules.score(table.game)
    return {seat: sum(p.points for p in parts.get(seat, [])) for seat in range(len(table.players))}


# ---- one history per game -----------------------------------------------------------------

@dataclass
class History:
    """What the audit pages need of every event, computed once: each seat's total after
    it, its words (``describe(table, event)``, as the rules of its time put them), who
    recorded it, its type and seat (the timeline's filters); the table after the last
    event; replay starting points. The events themselves stay in SQLite: a page reads
    the ones it shows."""
    count: int = 0                 # events covered
    last_hash: str = ""            # the last one's hash: a different game file starts afresh
    totals: list[dict] = field(default_factory=list)
    texts: list[dict] = field(default_factory=list)
    whos: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    seats: list[int | None] = field(default_factory=list)
    walker: Walker | None = None   # the table after the last event, and the recent states
    every: int = SNAPSHOT_EVERY
    snapshots: dict[int, tuple[dict[int, TableState], int]] = field(default_factory=dict)
    row_bytes: int = 0

    @property
    def table(self) -> TableState:
        return self.walker.table

    @property
    def nbytes(self) -> int:
        return self.row_bytes + sum(size for _, size in self.snapshots.values())

    def extend(self, read, new: list[Event], describe) -> None:
        """Walk on through ``new``, the events after the ``count`` covered so far."""
        walker = self.walker or Walker(read)
        walker.read = read
        for event in new:
            table = walker.step(event)
            total, text = scores(table), describe(table, event)
            who = table.players[event.seat]["name"] if event.seat is not None \
                and 0 <= event.seat < len(table.players) else ""
            self.totals.append(total)
            self.texts.append(text)
            self.whos.append(who)
            self.types.append(event.type)
            self.seats.append(event.seat)
            self.row_bytes += 24 * len(total) + len(orjson.dumps(text)) + len(who) + 72
            if table.seq % self.every == 0:
                self._snapshot(walker)
        self.walker, self.count, self.last_hash = walker, new[-1].seq, new[-1].hash

    def _snapshot(self, walker: Walker) -> None:
        """A replay starting point: the recent states as they stood at this event."""
        recent = dict(list(walker.recent.items())[-4:])
        size = sum(_state_size(t) for t in recent.values())
        self.snapshots[walker.table.seq] = (recent, size)
        while len(self.snapshots) > 1 and sum(s for _, s in self.snapshots.values()) > SNAPSHOT_BYTES:
            self.every *= 2
            self.snapshots = {seq: kept for seq, kept in self.snapshots.items() if seq % self.every == 0}

    def state_at(self, read, at: int) -> TableState:
        """The table after event ``at``, folded on from the nearest snapshot before it."""
        if at == self.count:
            return self.table
        base = max((seq for seq in self.snapshots if seq <= at), default=0)
        recent = self.snapshots[base][0] if base else {}
        walker = Walker(read, recent.get(base), recent)
        table = walker.table
        for event in read(base + 1, at):
            table = walker.step(event)
        return table


def _state_size(table: TableState) -> int:
    """A kept state's bytes as counted against the budgets: its game state as JSON, and
    the sequence numbers and voids every state carries (8 and ~100 bytes each)."""
    return _json_size(table.game) + 8 * len(table.game_seqs) + 100 * (len(table.voided) + len(table.flagged))


def _json_size(state: dict) -> int:
    try:
        return len(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS))
    except TypeError:
        return len(orjson.dumps(repr(state)))


_cache: OrderedDict[str, History] = OrderedDict()
_lock = threading.Lock()


def history(game_id: str, last: tuple[int, str], read, describe) -> History:
    """The game's history up to its ``last`` event (sequence number, hash), from the
    cache, extended by the events since, or walked afresh. ``read(first, last)`` gives
    the game's events by sequence number."""
    with _lock:
        cached = _cache.pop(game_id, None)
    if cached is None or not _still_there(cached, last, read):
        cached = History()
    if cached.count < last[0]:
        cached.extend(read, read(cached.count + 1, last[0]), describe)
    with _lock:
        _cache[game_id] = cached
        while len(_cache) > 1 and sum(h.nbytes for h in _cache.values()) > CACHE_BYTES:
            _cache.popitem(last=False)
    return cached


def _still_there(cached: History, last: tuple[int, str], read) -> bool:
    """The cached history's last event is still the game's event of that number (an
    import of another file under the same id, or a restored backup, starts afresh)."""
    if cached.count > last[0]:
        return False
    if cached.count == last[0]:
        return cached.last_hash == last[1]
    return [e.hash for e in read(cached.count, cached.count)] == [cached.last_hash]


def cached_bytes() -> int:
    with _lock:
        return sum(h.nbytes for h in _cache.values())


def forget() -> None:
    with _lock:
        _cache.clear()
