"""A table loaded once for a page: the folded state (from the app's cache), the recent
events the log shows, the events a page names beside them (the move Undo takes back,
a tap's event and the move it voided, the last move the game's view highlights), the
open disputes, the join code, what the phone's seat token says, the turn clock and
whether the record verifies. Every store read a table page needs beside its state and
its seat happens here, in one place (a warm page: the game's row and its last events);
the templates render the object.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from events.application import seats, trust
from events.application.integrity import Verified
from events.application.states import States, reading
from events.domain.core_types import CORE_EVENTS
from events.domain.event import Event
from events.domain.projection import TableState, last_move, open_disputes
from events.domain.turns import Clock
from events.storage import store
from scoring.base import Move

RECENT = 12  # events in the table page's log; the rest is one tap away in the timeline


@dataclass(frozen=True)
class LoadedTable:
    game_id: str
    table: TableState
    recent: tuple[Event, ...]            # the last RECENT events, oldest first
    events: dict[int, Event] = field(default_factory=dict)  # every event read, by seq
    join_code: str = ""
    revoked_seat: int | None = None      # the seat a hand-over took from this phone's token
    last_move: Move | None = None        # the move the game's view highlights (``last_of``)
    clock: Clock | None = None           # the turn times after the table's event
    unverified: tuple[int, str] | None = None  # (N, why) when the record does not verify from N
    import_mark: dict | None = None      # an imported game that counts nowhere yet (trust.mark)
    words: dict[int, dict] = field(default_factory=dict)  # every event read, in words, by seq

    @property
    def open_disputes(self) -> list[dict]:
        return list(open_disputes(self.table).values())

    @property
    def undo_target(self) -> Event | None:
        """The move the Undo button takes back (the last live move)."""
        last = self.table.last_live_move
        return self.events.get(last) if last is not None else None

    def event(self, seq: int) -> Event | None:
        return self.events.get(seq)

    def text(self, event: Event) -> dict:
        """An event this table read, in words (said from the state before it)."""
        return self.words[event.seq]


def _voided_by(event: Event | None) -> int | None:
    core = CORE_EVENTS.get(event.type) if event else None
    if core is not None and core.voids(event.data) and "target" in event.data:
        return event.data["target"]
    return None


def load_table(db, states: States, game_id: str, table: TableState | None = None,
               token: str | None = None, seated: bool = True, done: int | None = None,
               verified: Verified | None = None) -> LoadedTable:
    """The table ``game_id`` as a page shows it (``table``: the state already loaded for
    this request, else the cache's latest). ``token``: the phone's seat token, to say
    which seat a hand-over took from it when it holds none (``seated`` False); ``done``:
    the event a tap just recorded, named in its acknowledgement with the move it voided;
    ``verified``: the app's verified prefixes, to check the record with what was read."""
    table = table or states.load(db, game_id)
    row = store.game_row(db, game_id)  # before the events: the record's check needs that order
    recent = store.read_events(db, game_id, after=max(0, table.seq - RECENT), upto=table.seq)
    events = {e.seq: e for e in recent}

    def read_missing(*seqs) -> None:
        for seq in sorted({s for s in seqs if s} - set(events)):
            events.update((e.seq, e) for e in store.read_events(db, game_id, after=seq - 1, upto=seq))

    done = done if isinstance(done, int) and 1 < done <= table.seq else None
    read_missing(table.last_live_move, done)
    if done in events:
        read_missing(_voided_by(events[done]))
    revoked = seats.revoked_seat(db, game_id, token) if token and not seated else None
    rules = table.rules
    last = last_move(table, reading(db, game_id, recent), *rules.last_of) \
        if rules.view is not None and rules.last_of is not None else None
    unverified = verified.unverified_with(db, game_id, row, recent) if verified is not None else None
    mark = trust.mark(db, game_id) if row and row["imported_from"] else None  # a game made here: no read
    return LoadedTable(game_id, table, tuple(recent), events, row["join_code"] if row else "", revoked, last,
                       states.clock(db, game_id, table.seq), unverified, mark, states.words(db, game_id, events.values()))
