"""Generic score pad: the fold step.

A new state that shares the earlier rounds with the old one (they are never changed):
a deep copy per move made a 10,000-event game's append cost 13 ms (docs/performance.md,
change 11). The old state stays as it was. So these handlers return the new state
instead of mutating a clone, the one exception to the games' handler style, for speed.
"""
from __future__ import annotations

from typing import Callable

from scoring.base import Move


def apply(state: dict, move: Move) -> dict:
    return APPLY[move.type](state, move)


def _points(state: dict, move: Move) -> dict:
    seat, points = move.data["seat"], move.data["points"]
    totals = list(state["totals"])
    totals[seat] += points
    return {**state, "rounds": _with_points(state, seat, points, move.seq), "totals": totals}


def _close(state: dict, move: Move) -> dict:
    return {**state, "round": state["round"] + 1}


def _row(state: dict, move: Move) -> dict:
    """A round's row: each entry fills its cell; entering the round being played (or a
    later one) closes it, so the pad moves on to the next round (§5)."""
    r = move.data["round"]
    rounds = list(state["rounds"])
    while len(rounds) < r:
        rounds.append([None] * state["n"])
    row = list(rounds[r - 1])
    totals = list(state["totals"])
    for entry in move.data["entries"]:
        row[entry["seat"]] = [entry["points"], [move.seq]]
        totals[entry["seat"]] += entry["points"]
    rounds[r - 1] = row
    return {**state, "rounds": rounds, "totals": totals, "round": max(state["round"], r + 1)}


def _end(state: dict, move: Move) -> dict:
    return {**state, "over": True}


def _with_points(state: dict, seat: int, points: int, seq: int) -> list:
    """The rounds with ``points`` added to the seat's cell of the round being played."""
    rounds, index = list(state["rounds"]), state["round"] - 1
    while len(rounds) <= index:
        rounds.append([None] * state["n"])
    row = list(rounds[index])
    earlier = row[seat]
    row[seat] = [earlier[0] + points, earlier[1] + [seq]] if earlier else [points, [seq]]
    rounds[index] = row
    return rounds


APPLY: dict[str, Callable[[dict, Move], dict]] = {
    "points-recorded": _points, "round-closed": _close, "round-entered": _row, "game-ended": _end}
