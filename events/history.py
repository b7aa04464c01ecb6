"""A game's history: the table state after every event, for replay, the timeline,
the score race and the re-check of an imported file.

States are folded forwards one event at a time; an event that changes the past (a
void, a rescore) triggers a full fold up to it, exactly as ``events.table.load`` does.
"""
from __future__ import annotations

from events.projection import TableState, advance, fold
from events.store import Event


def states(events: list[Event], known: list[TableState] = ()) -> list[TableState]:
    """``states(events)[i]`` is the table after ``events[i]``; ``known`` are the
    states of a prefix of ``events`` already folded, extended from where they end."""
    out = list(known)
    for i in range(len(out), len(events)):
        table = advance(out[-1], events[i]) if out else None
        out.append(table or fold(events[:i + 1]))
    return out


def scores(table: TableState) -> dict[int, int]:
    """Each seat's total at this point."""
    parts = table.rules.score(table.game)
    return {seat: sum(p.points for p in parts.get(seat, [])) for seat in range(len(table.players))}

