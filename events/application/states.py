"""The one cache of a game's folded states, owned by the app (``app.extensions``, see
web/db.py): the table as it stands, the states to replay from and each event's row of
the history pages, kept per game in one byte budget, least recently used first out.

A game's states are one walk forwards through its events (``Walker``). A void (or a
dispute resolved by voiding) changes the past, and refolding the whole game at every
void made a game where one move in three is undone quadratic: the walk keeps the last
``RECENT`` states of the game as it now stands, so a void refolds only from the state
just before its target (an undo costs the one or two events since). A void reaching
further back, and a rescore, fold the game whole (both are rare). Every state the walk
yields equals ``fold(events[:i + 1])`` (tests/events/test_states.py, tests/events/test_snapshots.py).

One snapshot policy: every ``SNAPSHOT_EVERY``-th event keeps the recent states as they
stood then, a starting point for ``state_at`` (the replay slider, the API's ``?at=``);
past ``SNAPSHOT_BYTES`` of snapshots in a game the spacing doubles. One budget:
``BUDGET`` bytes for every game's rows, snapshots and recent states, counted as their
JSON. A cached game is extended by the events appended since, and started afresh when
its last event is no longer the store's (an import under the same id, a restored backup).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace

import orjson

from events.domain import turns
from events.domain.core_types import CORE_EVENTS
from events.domain.event import Event
from events.domain.projection import TableState, advance, changes_the_past, evolve, fold, step, upcast
from events.storage import snapshots, store
from events.storage.log import GAMES
from events.storage.snapshots import Snapshots

RECENT = 16                 # states of the game as it now stands, kept to refold a void from
SNAPSHOT_EVERY = 16         # a replay starting point every this many events (doubles past the budget)
SNAPSHOT_BYTES = 4 * 2**20  # per game
BUDGET = 64 * 2**20         # per server process, every game's states and rows


class UnknownGame(LookupError):
    pass


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
        # oldest first; an OrderedDict drops its oldest in O(1), where a dict's first key is
        # found past every slot deleted before it (quadratic over a long walk)
        self.recent: OrderedDict[int, TableState] = OrderedDict(recent or ({table.seq: table} if table else {}))

    def copy(self) -> "Walker":
        return Walker(self.read, self.table, self.recent)

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
            self.recent.popitem(last=False)

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
        table = evolve(base, voided=voided)
        for later in self.read(target, event.seq - 1):
            # every move after a voided one is checked again, as the full fold does
            table = evolve(step(table, later, voided, recheck=True), voided=voided)
            self.recent[table.seq] = table
        return evolve(step(table, event, voided, recheck=True), voided=voided)


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


def describe(before: TableState, event: Event) -> dict:
    """An event in words, HU/EN, as the rules ``before`` is folded with put it: ``before`` is
    the table the event was folded onto (the one before it), whose state lends the words
    what the move changed — who left a palace, whom a character was taken from. The state
    keeps no words for the log; ``GameStates`` keeps each event's words as its walk
    passes it. The words are the game's presentation (``scoring/<game>/presentation.py``),
    which the fold never loads."""
    core = CORE_EVENTS.get(event.type)
    if core is not None:
        return core.describe(core.label, event.data)
    game = before.rules
    return game.describe(upcast(game, event), list(before.players), before.game, before.options)


# ---- one game -----------------------------------------------------------------------------

@dataclass
class GameStates:
    """A game walked once: the table after its last event, the recent states, replay
    starting points, and what the history pages need of every event — each seat's total
    after it, its words (``describe(table, event)``, as the rules of its time put them),
    who recorded it, its type and seat (the timeline's filters). The events themselves
    stay in the store: a page reads the ones it shows."""
    count: int = 0                 # events covered
    last_hash: str = ""            # the last one's hash: another game file starts afresh
    totals: list[dict] = field(default_factory=list)
    texts: list[dict] = field(default_factory=list)
    whos: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    seats: list[int | None] = field(default_factory=list)
    walker: Walker | None = None
    every: int = field(default_factory=lambda: SNAPSHOT_EVERY)
    snapshots: dict[int, tuple[dict[int, TableState], int]] = field(default_factory=dict)
    snapshot_bytes: int = 0        # the sum of their sizes (the budget asks on every load)
    # the turn times' marks after each event, as the log now stands (events/domain/turns.py), and
    # each event's time; ``marks_stale``: a void refolded the whole game, so the marks are
    # noted afresh from the log when next asked for
    marks: list = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    marks_stale: bool = False
    tally: turns.Tally | None = None   # the clock so far, counted on as events arrive
    row_bytes: int = 0
    state_bytes: int = 0           # one state's size, as last measured
    counted: int = 0               # bytes as last counted in the cache's total
    stored: int = 0                # the event the store's snapshot of these states is at (events/storage/snapshots.py)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def table(self) -> TableState:
        return self.walker.table

    def frozen(self) -> dict:
        """What a stored snapshot keeps of these states (events/storage/snapshots.py): everything
        but the lock and the cache's counts, the walk as its recent states."""
        kept = {name: getattr(self, name) for name in _STORED}
        return {**kept, "recent": list(self.walker.recent.items())}

    @classmethod
    def thawed(cls, payload: dict) -> "GameStates":
        """The states ``frozen`` kept; the walk reads the store once it is extended."""
        recent = OrderedDict(payload["recent"])
        found = cls(**{name: payload[name] for name in _STORED}, stored=payload["count"])
        found.walker = Walker(None, recent[payload["count"]], recent)
        return found

    @property
    def nbytes(self) -> int:
        recent = len(self.walker.recent) * self.state_bytes if self.walker else 0
        return self.row_bytes + recent + self.snapshot_bytes

    def extend(self, read, new: list[Event]) -> None:
        """Walk on through ``new``, the events after the ``count`` covered so far."""
        walker = self.walker or Walker(read)
        walker.read = read
        for event in new:
            before = walker.table
            self._add(walker, event, before, walker.step(event))
        self.walker = walker

    def adopt(self, walker: Walker, event: Event) -> None:
        """``event`` was just appended and ``walker`` (a copy of ours) stepped through it."""
        self._add(walker, event, self.walker.table, walker.table)
        self.walker = walker

    def _add(self, walker: Walker, event: Event, before: TableState | None, table: TableState) -> None:
        """Note ``event``, which took the game from ``before`` (None: nothing before the
        first event) to ``table``: its words are said from the state it was made on."""
        total, text = scores(table), describe(before or table, event)
        who = table.players[event.seat]["name"] if event.seat is not None \
            and 0 <= event.seat < len(table.players) else ""
        self.totals.append(total)
        self.texts.append(text)
        self.whos.append(who)
        self.types.append(event.type)
        self.seats.append(event.seat)
        self._note_turn(walker, event, table)
        self.row_bytes += 24 * len(total) + len(orjson.dumps(text)) + len(who) + 136
        self.count, self.last_hash = event.seq, event.hash
        if not self.state_bytes:
            self.state_bytes = _state_size(table)
        if table.seq % self.every == 0:
            self._snapshot(walker)

    def _note_turn(self, walker: Walker, event: Event, table: TableState) -> None:
        """The turn after ``event``; after a void, again for every state the walk refolded
        (the log now says those moves never happened)."""
        self.marks.append(turns.mark(table))
        self.times.append(turns.epoch(event.recorded_at))
        if not changes_the_past(event):
            return
        self.tally = None  # the marks before this event may change: counted afresh when asked
        refolded = [seq for seq in walker.recent if seq < event.seq]
        self.marks_stale |= not refolded  # folded whole: the marks between are unknown here
        for seq in refolded:
            self.marks[seq - 1] = turns.mark(walker.recent[seq])

    def clock(self, read, at: int | None = None) -> turns.Clock:
        """The turn times after event ``at`` (default: the last), as the log now stands."""
        if self.marks_stale:
            self.marks[:] = turns.marks_of(read(1, self.count))
            self.marks_stale = False
        if at is not None and at < self.count:
            return turns.clock(self.times[:at], self.marks[:at])
        self.tally = self.tally or turns.Tally()
        self.tally.extend(self.times, self.marks)
        return self.tally.finish(self.times, self.marks)

    def _snapshot(self, walker: Walker) -> None:
        """A replay starting point: the recent states as they stood at this event (their
        size estimated from the last one's: neighbours differ by one move)."""
        recent = dict(list(walker.recent.items())[-4:])
        self.state_bytes = _state_size(walker.table)
        replaced = self.snapshots.get(walker.table.seq)
        self.snapshots[walker.table.seq] = (recent, self.state_bytes * len(recent))
        self.snapshot_bytes += self.state_bytes * len(recent) - (replaced[1] if replaced else 0)
        while len(self.snapshots) > 1 and self.snapshot_bytes > SNAPSHOT_BYTES:
            self.every *= 2
            self.snapshots = {seq: kept for seq, kept in self.snapshots.items() if seq % self.every == 0}
            self.snapshot_bytes = sum(size for _, size in self.snapshots.values())

    def words(self, seq: int) -> dict | None:
        """Event ``seq`` in words, as the walk said it (None: not walked yet)."""
        return self.texts[seq - 1] if 0 < seq <= self.count else None

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


_STORED = ("count", "last_hash", "totals", "texts", "whos", "types", "seats", "every", "snapshots",
           "snapshot_bytes", "marks", "times", "marks_stale", "tally", "row_bytes", "state_bytes")


def _state_size(table: TableState) -> int:
    """A kept state's bytes as counted against the budget: its game state as JSON, and
    the sequence numbers and voids every state carries (8 and ~100 bytes each)."""
    return _json_size(table.game) + 8 * len(table.game_seqs) + 100 * (len(table.voided) + len(table.flagged))


def _json_size(state: dict) -> int:
    try:
        return len(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS))  # ~5× the stdlib's speed
    except TypeError:
        return len(orjson.dumps(repr(state)))


# ---- every game: the app's cache -------------------------------------------------------------

class States:
    """Every game's ``GameStates`` in one byte budget; the app keeps one (web/db.py)."""

    def __init__(self, budget: int = BUDGET, stored: Snapshots | None = None):
        self.budget = budget
        self.stored = stored  # the store's snapshots (events/storage/snapshots.py); None: kept in memory only
        self._games: OrderedDict[str, GameStates] = OrderedDict()
        self._lock = threading.Lock()
        self._total = 0  # the sum of every kept game's ``counted``

    def game(self, db, game_id: str) -> GameStates:
        """The game walked up to its last stored event: the cached walk, extended by the
        events appended since (one read), or walked afresh. Raises UnknownGame."""
        with self._lock:
            cached = self._games.get(game_id)
            if cached is not None:
                self._games.move_to_end(game_id)
        cached = cached or GameStates()
        with cached.lock:
            found = self._bring_up_to_date(db, game_id, cached)
            row = self._to_store(db, game_id, found)
        if row is not None and not self.stored.save(db, row):
            found.stored = 0  # tried again at the next load
        self._keep(game_id, found)
        return found

    def _to_store(self, db, game_id: str, found: GameStates) -> list | None:
        """The snapshot row to store if the stored one is ``snapshots.EVERY`` events behind
        (made under the game's lock, written after it); never inside another write."""
        if self.stored is None or found.count - found.stored < snapshots.EVERY or db.conn.in_transaction:
            return None
        found.stored = found.count
        return self.stored.pack(game_id, found.frozen(), found.table.rules_version)

    def _bring_up_to_date(self, db, game_id: str, cached: GameStates) -> GameStates:
        if not cached.count and self.stored is not None:
            payload = self.stored.restore(db, game_id)
            cached = GameStates.thawed(payload) if payload else cached
        # nothing new (every tap asks thrice), the events since, or the game afresh (the recorder's catch_up)
        afresh, new = GAMES.catch_up(db, game_id, cached.count, cached.last_hash)
        if afresh:
            cached = GameStates()
            if not new:
                raise UnknownGame(game_id)
        if new:
            cached.extend(reading(db, game_id, new), new)
        return cached

    def clock(self, db, game_id: str, at: int | None = None) -> turns.Clock:
        """The game's turn times after its last event, or after event ``at``: a walk that
        covers ``at`` already (the page's table was loaded from it) is not looked at again."""
        found = self._covering(game_id, at) or self.game(db, game_id)
        with found.lock:
            return found.clock(reading(db, game_id), at)

    def _covering(self, game_id: str, at: int | None) -> GameStates | None:
        if at is None:
            return None
        with self._lock:
            cached = self._games.get(game_id)
        return cached if cached is not None and cached.count >= at else None

    def newest(self, game_id: str, seq: int) -> TableState | None:
        """The table after event ``seq`` when that is the newest event this process knows of
        the game (a tap's own, just recorded here), without a look at the store; else None."""
        with self._lock:
            cached = self._games.get(game_id)
        if cached is None:
            return None
        with cached.lock:
            return cached.table if cached.count == seq and cached.walker is not None else None

    def load(self, db, game_id: str, at: int | None = None) -> TableState:
        """The table after its last event, or after event ``at``. Raises UnknownGame."""
        if at is not None and at < 1:
            raise UnknownGame(game_id)
        found = self.game(db, game_id)
        if at is None or at >= found.count:
            return found.table
        with found.lock:
            return found.state_at(reading(db, game_id), at)

    def words(self, db, game_id: str, events) -> dict[int, dict]:
        """Each of ``events`` (the game's, as stored) in words, by seq: as the cached walk
        said it when it passed the event, else said now from the table before it."""
        with self._lock:
            cached = self._games.get(game_id)
        said = {}
        for event in events:
            found = cached.words(event.seq) if cached is not None else None
            if found is None:
                before = self.load(db, game_id, event.seq - 1) if event.seq > 1 else None
                found = describe(before, event)  # the first event is the core's, said without a table
            said[event.seq] = found
        return said

    def after(self, db, game_id: str, table: TableState, pending: Event) -> tuple[TableState, Walker | None]:
        """The table after ``pending``, an event about to be appended after ``table``, and
        the walk that reached it (for ``recorded``); nothing cached changes yet."""
        with self._lock:
            cached = self._games.get(game_id)
        if cached is None or cached.walker is None or cached.table is not table:
            return folded_after(db, game_id, table, pending), None
        with cached.lock:
            walker = cached.walker.copy()
        walker.read = reading(db, game_id)
        return walker.step(pending), walker

    def recorded(self, game_id: str, event: Event, walker: Walker | None) -> None:
        """``event`` was appended, and ``walker`` (from ``after``) holds the state after it:
        the next load need not fold it again."""
        with self._lock:
            cached = self._games.get(game_id)
        if walker is None or cached is None:
            return
        with cached.lock:
            if cached.count == event.seq - 1:
                cached.adopt(walker, event)
        self._keep(game_id, cached)

    def _keep(self, game_id: str, found: GameStates) -> None:
        with self._lock:
            before = self._games.get(game_id)
            if before is not None and before is not found:
                self._total -= before.counted
                before.counted = 0
            self._games[game_id] = found
            self._games.move_to_end(game_id)
            nbytes = found.nbytes
            self._total += nbytes - found.counted
            found.counted = nbytes
            while len(self._games) > 1 and self._total > self.budget:
                _, gone = self._games.popitem(last=False)
                self._total -= gone.counted
                gone.counted = 0

    def nbytes(self) -> int:
        """The bytes counted against the budget (kept games as last counted)."""
        with self._lock:
            return self._total

    def __len__(self) -> int:
        return len(self._games)

    def forget(self) -> None:
        with self._lock:
            self._games.clear()
            self._total = 0


def reading(db, game_id: str, known: list[Event] = ()):
    """``read(first, last)`` for a game, answered from ``known`` events (a contiguous run
    just read) where it can, else from the store."""
    first_known = known[0].seq if known else None

    def read(first: int, last: int) -> list[Event]:
        if first_known is not None and first >= first_known and last <= known[-1].seq:
            return list(known[first - first_known:last - first_known + 1])
        return store.read_events(db, game_id, after=first - 1, upto=last)
    return read


def folded_after(db, game_id: str, table: TableState, pending: Event) -> TableState:
    """The table after ``pending``, an event about to be appended after ``table``,
    without the cache (a void refolds the whole game)."""
    return advance(table, pending) or fold(store.read_events(db, game_id) + [pending])


def uncached(db, game_id: str, at: int | None = None) -> TableState:
    """The table (after event ``at``) folded from the store, for callers without the
    app's cache (commands, scripts). Raises UnknownGame."""
    events = store.read_events(db, game_id, upto=at)
    if not events:
        raise UnknownGame(game_id)
    return fold(events)
