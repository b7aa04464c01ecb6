"""A game's history: the table state after every event, for replay, the timeline
and the score race.

States are folded forwards one event at a time; an event that changes the past (a
void, a rescore) triggers a full fold up to it, exactly as ``events.table.load`` does.
A long game's states do not all fit in memory, so they are walked, not kept.
"""
from __future__ import annotations

from events.projection import TableState, advance, fold
from events.store import Event


def walk(events: list[Event], start: int = 0, table: TableState | None = None):
    """Yield (event, table after it) for ``events[start:]``, ``table`` being the
    table after ``events[start - 1]``; only one state is alive at a time."""
    for i in range(start, len(events)):
        table = (advance(table, events[i]) if table else None) or fold(events[:i + 1])
        yield events[i], table


def scores(table: TableState) -> dict[int, int]:
    """Each seat's total at this point."""
    parts = table.rules.score(table.game)
    return {seat: sum(p.points for p in parts.get(seat, [])) for seat in range(len(table.players))}

