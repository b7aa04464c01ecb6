"""A disputed move examined: the rules run again on the state before it, the score parts
that name it, and the table as it would be without it (the what-if: a void folded in
memory, nothing stored). The dispute page (web/audit.py) renders what ``examine`` finds."""
from __future__ import annotations

from dataclasses import dataclass, field

from events.application.table import check_move
from events.domain.event import Event
from events.domain.projection import TableState, fold, standings, upcast
from scoring.base import Problem


@dataclass(frozen=True)
class Examination:
    check: list[Problem] | None  # the rules on the state before the move: [] = every check passes; None: a core event
    parts: list[dict]            # the score parts (with their categories) that name the move
    whatif: list[dict] | None = None  # the standings without the move; None when it is voided already
    newly_flagged: dict = field(default_factory=dict)  # later moves the rules would refuse without it


def examine(events: list[Event], final: TableState, before: TableState, target: int) -> Examination:
    """``events``: the whole game; ``final``: its table now; ``before``: the table just
    before the disputed move ``target``."""
    found = Examination(recheck(before, events[target - 1]), parts_of(final, target))
    if target in final.voided:
        return found
    fork = what_if_voided(events, target)
    return Examination(found.check, found.parts, standings(fork),
                       {s: f for s, f in fork.flagged.items() if s not in final.flagged})


def what_if_voided(events: list[Event], target: int) -> TableState:
    """The table as it would be without ``target``: a fork folded in memory with a
    void appended; nothing is stored."""
    void = Event(events[-1].seq + 1, "event-voided", 1, {"target": target, "reason": "what-if"},
                 None, "", "", "", "")
    return fold(events + [void])


def recheck(before: TableState, event: Event) -> list[Problem] | None:
    """The rules re-run on the state before the move: [] when every check passes."""
    if event.type in before.rules.event_types:
        return check_move(before, event.type, dict(upcast(before.rules, event).data))
    return None


def parts_of(table: TableState, target: int) -> list[dict]:
    """The score parts (with their categories) that name the disputed move."""
    return [{"player": row["player"], **part} for row in standings(table)
            for part in row["parts"] if target in part["events"]]
