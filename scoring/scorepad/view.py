"""Generic score pad: the paper pad the table page shows, derived when a page renders.

A grid of rounds × players, each cell with its points and the player's running total,
the current totals above it (the scoreboard), and which round the entry form fills:
the first round left empty by a void (to enter it again), else the round being played
(docs/rules/scorepad.md §5). A long game has thousands of rounds: the grid shows the
last ``SHOWN`` and starts their running totals from ``state["totals"]``, so a render
never walks the whole game (docs/performance.md)."""
from __future__ import annotations

SHOWN = 12
# A cell's void buttons: its last entries'. A cell tallied point by point (``points-recorded``,
# the API's and older phones' way) holds one entry per tally; a button for each of hundreds
# made every tap render hundreds of forms (docs/performance.md). The log voids the
# latest moves, the timeline names every entry.
CELL_VOIDS = 3


def _grid(state: dict, first: int) -> list[dict]:
    """The rounds from ``first`` (0-based) on, each cell with its points and the player's
    running total, started from the kept totals (no walk over the rounds before)."""
    shown = state["rounds"][first:]
    running = [total - sum(row[seat][0] for row in shown if row[seat]) for seat, total in enumerate(state["totals"])]
    rows = []
    for number, row in enumerate(shown, start=first + 1):
        cells = []
        for seat, cell in enumerate(row):
            if cell:
                running[seat] += cell[0]
            cells.append({"points": cell[0], "events": cell[1], "total": running[seat]} if cell else None)
        rows.append({"round": number, "cells": cells})
    return rows


def view(state: dict, players: list[dict], options: dict | None = None) -> dict:
    rounds = state["rounds"]
    first = max(0, len(rounds) - SHOWN)
    fill = _round_to_fill(state)
    filled = rounds[fill - 1] if fill <= len(rounds) else [None] * state["n"]
    rows = _grid(state, first)
    for cell in (cell for row in rows for cell in row["cells"] if cell):
        cell["voids"] = cell["events"][-CELL_VOIDS:]
        cell["earlier"] = len(cell["events"]) - len(cell["voids"])
    return {"rows": rows, "hidden": first, "totals": list(state["totals"]), "fill": fill,
            "filled": [cell[0] if cell else None for cell in filled], "playing": state["round"]}


def sheet(state: dict) -> list[dict]:
    """The final sheet as the paper pad: every round once, rounds × players (the parts are
    all rounds, one kind, so a breakdown per player would repeat the same numbers)."""
    return _grid(state, 0)


def _round_to_fill(state: dict) -> int:
    """The first round before the one being played with no entry at all (a void emptied
    it), else the round being played."""
    for number, row in enumerate(state["rounds"][:state["round"] - 1], start=1):
        if not any(row):
            return number
    return state["round"]
