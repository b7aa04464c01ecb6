"""State at any sequence number: a pure fold of a game's events through its rules.

The core events (void, disputes, rescoring) are folded here; every other event is
handed, upcast, to the game module's ``apply``. A void cannot be folded forwards
(it changes the past), so it triggers a full refold without the voided events,
re-checking the later moves and flagging those the rules now refuse.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import islice
from typing import Callable, Iterable, Iterator

from events.domain.core_types import CORE_EVENTS
from events.domain.event import Event
from scoring import rules_for
from scoring.base import GameKind, Move, Problem


@dataclass(frozen=True)
class TableState:
    kind: str
    players: tuple[dict, ...]
    options: dict
    rules_version: int
    seq: int
    game: dict
    game_seqs: tuple[int, ...] = ()          # the game's own moves, in order
    voided: dict = field(default_factory=dict)    # target seq -> {"by", "reason", "undo"}
    flagged: dict = field(default_factory=dict)   # seq -> [problem dicts]
    disputes: dict = field(default_factory=dict)  # dispute seq -> {...}
    paused: int | None = None   # the game-paused event of a break going on
    timer: dict | None = None   # the turn timer in force: {"turn"?: s, "total"?: s}
    photos: dict = field(default_factory=dict)    # photo seq -> its photo-attached payload, seq, seat

    @property
    def rules(self) -> GameKind:
        return rules_for(self.kind, self.rules_version)

    @property
    def is_over(self) -> bool:
        return self.rules.is_over(self.game)

    @cached_property  # a state never changes
    def live_moves(self) -> tuple[int, ...]:
        return tuple(s for s in self.game_seqs if s not in self.voided)

    @cached_property  # asked by every render of the log: from the end, not the whole game
    def last_live_move(self) -> int | None:
        """The move Undo takes back: the last of the game's moves not voided, or None."""
        return next((s for s in reversed(self.game_seqs) if s not in self.voided), None)


def evolve(table: TableState, **changes) -> TableState:
    """``dataclasses.replace`` for the fold's every step, without its per-call field
    checks (a third of a cold 10,000-event history page): the state's fields copied, a
    few changed, the old state's cached ``live_moves`` and ``last_live_move`` left behind."""
    fields = dict(table.__dict__)
    fields.pop("live_moves", None)
    fields.pop("last_live_move", None)
    fields.update(changes)
    new = object.__new__(TableState)
    new.__dict__.update(fields)  # frozen forbids setting attributes, not filling a new one
    return new


def upcast(game: GameKind, event: Event) -> Move:
    spec = game.event_types[event.type]
    data, version = dict(event.data), event.version
    while version < spec.version:
        data = spec.upcasters[version](data)
        version += 1
    return Move(event.seq, event.type, data, event.seat)


def _voids(events: Iterable[Event]) -> dict[int, dict]:
    """Every move voided by these events: target seq -> {"by", "reason", "undo"}. A void
    names its ``target``; a dispute resolved by voiding names the ``dispute`` about it."""
    voided: dict[int, dict] = {}
    payloads: dict[int, dict] = {}
    for e in events:
        payloads[e.seq] = e.data
        spec = CORE_EVENTS.get(e.type)
        if spec is not None and spec.voids(e.data):
            d = e.data
            target = d["target"] if "target" in d else payloads[d["dispute"]]["target"]
            voided[target] = {"by": e.seq, "reason": d["reason"], "undo": d.get("undo", False)}
    return voided


def voided_in(events: Iterable[Event]) -> dict[int, dict]:
    """The moves these events void (all of a game's voids and disputes among them), as
    the fold records them: for a list that reads only those events (web/photos.py)."""
    return _voids(events)


def fold(events: list[Event], upto: int | None = None) -> TableState:
    """The table state after event ``upto`` (default: the last)."""
    if upto is not None:
        events = [e for e in events if e.seq <= upto]
    for table in folds(events):
        pass
    return table


def folds(events: list[Event]) -> Iterator[TableState]:
    """The table after each of ``events`` in turn, as their log now stands: every move the
    log voids is left out from the start (the turn times note whose turn each one left)."""
    created = events[0]
    assert created.type == "game-created", "the first event of a game records its set-up"
    voided = _voids(events)
    # A rescore refolds the whole game with the chosen rules and re-checks every move.
    rescored = [e.data["rules_version"] for e in events
                if e.type in CORE_EVENTS and CORE_EVENTS[e.type].rescores]
    recheck_after = 0 if rescored else min(voided, default=None)
    table = replace(_initial(created, rescored[-1] if rescored else created.data["rules_version"]),
                    voided=voided)
    yield table
    for event in events[1:]:
        table = step(table, event, voided,
                     recheck=recheck_after is not None and event.seq > recheck_after)
        yield table


def _initial(created: Event, rules_version: int) -> TableState:
    d = created.data
    game = rules_for(d["kind"], rules_version)
    return TableState(kind=d["kind"], players=tuple(d["players"]), options=dict(d["options"]),
                      rules_version=rules_version, seq=created.seq,
                      game=game.setup(list(d["players"]), dict(d["options"])))


def step(table: TableState, event: Event, voided: dict, recheck: bool) -> TableState:
    """Fold one event onto ``table`` given the moves ``voided`` so far; ``recheck``: run the
    rules again on each move (after a void or rescore) and flag the ones they now refuse."""
    if event.type in CORE_EVENTS:
        return _core_step(table, event)
    table = evolve(table, seq=event.seq, game_seqs=table.game_seqs + (event.seq,))
    if event.seq in voided:
        return table
    game = table.rules
    move = upcast(game, event)
    if recheck:
        problems = rules_check(table, move)
        if problems:  # flagged, and left out: apply is only defined for legal moves
            return evolve(table, flagged={**table.flagged,
                                           event.seq: [p.as_dict() for p in problems]})
    return evolve(table, game=game.apply(table.game, move))


def rules_check(table: TableState, move: Move) -> list[Problem]:
    """The game's refusals of ``move`` on ``table``, naming the players the rules name by
    seat and the places they name by id."""
    return [p.naming(table.players, places(table)) for p in table.rules.check(table.game, move)]


def places(table: TableState) -> dict[str, str] | None:
    """The names the table's board gives the places its rules name by id (``Rules.place_names``)."""
    names = table.rules.place_names
    return names(table.options) if names is not None else None


def _core_step(table: TableState, event: Event) -> TableState:
    fold_step = CORE_EVENTS[event.type].fold
    return evolve(fold_step(table, event) if fold_step else table, seq=event.seq)


def changes_the_past(event: Event) -> bool:
    """A void or a rescore: the states before it must be folded again to follow it."""
    spec = CORE_EVENTS.get(event.type)
    return spec is not None and spec.changes_the_past(event.data)


def advance(table: TableState, event: Event) -> TableState | None:
    """Fold one more event forwards, or None when it changes the past (a void, a rescore)."""
    if changes_the_past(event):
        return None
    return step(table, event, table.voided, recheck=False)


def last_move(table: TableState, read: Callable[[int, int], list[Event]], *types: str) -> Move | None:
    """The newest move folded into ``table`` — neither voided nor refused by a recheck — of
    one of ``types`` (none given: of any), upcast; None when there is none. What a page
    highlights of the last move is derived from it when the page renders, not kept in the
    state. ``read(first, last)`` gives the game's events ``first``..``last`` by sequence
    number: they are read newest first, one, then 8, then 64…, only as far back as needed."""
    applied = (s for s in reversed(table.game_seqs) if s not in table.voided and s not in table.flagged)
    span = 1
    while chunk := list(islice(applied, span)):
        events = {e.seq: e for e in read(chunk[-1], chunk[0])}
        for seq in chunk:
            if not types or events[seq].type in types:
                return upcast(table.rules, events[seq])
        span *= 8
    return None


def open_disputes(table: TableState) -> dict[int, dict]:
    """Disputes still waiting for the table: open, about a move that is not void. A move
    voided while disputed (undo, a void from the log) closes its dispute in effect: there
    is nothing left to keep or void."""
    return {seq: d for seq, d in table.disputes.items()
            if d["status"] == "open" and d["target"] not in table.voided}


def standings(table: TableState) -> list[dict]:
    """Per-player totals, breakdown by category and the events behind each part,
    ranked with shared ranks for ties (once the game is over, the game's tie-break
    first, if it has one)."""
    game = table.rules
    parts = game.score(table.game)
    named = places(table)
    rows = []
    for seat, player in enumerate(table.players):
        mine = parts.get(seat, [])
        breakdown: dict[str, int] = {}
        for part in mine:
            breakdown[part.category] = breakdown.get(part.category, 0) + part.points
        rows.append({**_row(table, seat, sum(breakdown.values())), "breakdown": breakdown,
                     "parts": [p.as_dict(table.players, named) for p in mine],
                     "earlier": {"count": 0, "points": 0}})
    return _ranked(rows)


def scoreboard(table: TableState, last_parts: int) -> list[dict]:
    """The table page's standings: each player's total, rank and last ``last_parts`` parts,
    the earlier ones counted and summed in ``earlier`` (a long score pad game has thousands
    of parts; the final sheet lists them, and the breakdown by category). Every tap redraws
    it, so a game that says its recent parts (``Rules.recent_parts``) is not scored whole."""
    game = table.rules
    if game.recent_parts is not None:
        recent, totals = game.recent_parts(table.game, last_parts), game.totals(table.game)
    else:
        parts = game.score(table.game)
        recent = {seat: (len(mine), mine[-last_parts:]) for seat, mine in parts.items()}
        totals = {seat: sum(p.points for p in mine) for seat, mine in parts.items()}
    named = places(table)
    rows = []
    for seat in range(len(table.players)):
        count, shown = recent.get(seat, (0, []))
        total = totals.get(seat, 0)
        rows.append({**_row(table, seat, total), "parts": [p.as_dict(table.players, named) for p in shown],
                     "earlier": {"count": count - len(shown), "points": total - sum(p.points for p in shown)}})
    return _ranked(rows)


def _row(table: TableState, seat: int, total: int) -> dict:
    """A player's row of the standings, before its parts; its tie-break values only once
    the game is over (during play equal scores share a rank)."""
    game, player = table.rules, table.players[seat]
    breaks_ties = game.tiebreak is not None and game.is_over(table.game)
    return {"seat": seat, "player": player["name"], "colour": player.get("colour"), "score": total,
            "tiebreak": list(game.tiebreak(table.game, seat)) if breaks_ties else []}


def _ranked(rows: list[dict]) -> list[dict]:
    """The rows best first, equal scores (and tie-breaks) sharing a rank."""
    rows.sort(key=lambda r: (-r["score"], [-x for x in r["tiebreak"]], r["seat"]))
    for i, row in enumerate(rows):
        prev = rows[i - 1] if i else None
        tied = prev and (prev["score"], prev["tiebreak"]) == (row["score"], row["tiebreak"])
        row["rank"] = prev["rank"] if tied else i + 1
    return rows
