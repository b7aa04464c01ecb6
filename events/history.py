"""A game's history: the table state after every event, for replay, the timeline,
the score race and the re-check of an imported file.

States are folded forwards one event at a time; an event that changes the past (a
void, a rescore) triggers a full fold up to it, exactly as ``events.table.load`` does.
"""
from __future__ import annotations

from events.projection import TableState, advance, fold, standings
from events.store import Event


def states(events: list[Event]) -> list[TableState]:
    """``states(events)[i]`` is the table after ``events[i]``."""
    out: list[TableState] = []
    for i, event in enumerate(events):
        table = advance(out[-1], event) if out else None
        out.append(table or fold(events[:i + 1]))
    return out


def scores(table: TableState) -> dict[int, int]:
    """Each seat's total at this point."""
    return {row["seat"]: row["score"] for row in standings(table)}


def score_series(history: list[TableState]) -> list[dict[int, int]]:
    """Each seat's total after every event (the score race)."""
    return [scores(table) for table in history]
