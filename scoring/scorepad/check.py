"""Generic score pad: refusals, citing docs/rules/scorepad.md §n."""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, Problem, player
from scoring.i18n import msg
from scoring.scorepad.data import MAX_ABS_POINTS, R_END, R_POINTS, R_ROUND, R_ROW


def check(state: dict, move: Move) -> list[Problem]:
    if state["over"]:
        return [Problem(R_END, msg("The game has already ended."))]
    return CHECKS[move.type](state, move)


def _check_points(state: dict, move: Move) -> list[Problem]:
    seat, points = move.data["seat"], move.data["points"]
    problems = []
    if not 0 <= seat < state["n"]:
        problems.append(Problem(R_POINTS, msg("There is no player %(value)s (%(n)s players).", value=seat + 1, n=state['n'])))
    if abs(points) > MAX_ABS_POINTS:
        problems.append(Problem(R_POINTS, msg("Points must be within ±%(MAX_ABS_POINTS)s (got %(points)s).", MAX_ABS_POINTS=MAX_ABS_POINTS, points=points)))
    return problems


def _check_close(state: dict, move: Move) -> list[Problem]:
    if round_has_points(state):
        return []
    return [Problem(R_ROUND, msg("Nothing has been recorded in round %(round)s yet.", round=state['round']))]


def _check_row(state: dict, move: Move) -> list[Problem]:
    """A row fills empty cells only: a cell is changed by voiding its entry and entering
    it again (§5); each player once, each within the limits of §1."""
    r, entries = move.data["round"], move.data["entries"]
    seats = [e["seat"] for e in entries]
    if len(set(seats)) != len(seats):
        return [Problem(R_ROW, msg("Each player appears at most once in a round's row."))]
    problems = []
    for entry in entries:
        problems += _check_points(state, Move(move.seq, "points-recorded", entry))
    if problems:
        return problems
    row = state["rounds"][r - 1] if r <= len(state["rounds"]) else None
    for seat in seats:
        if row and row[seat]:
            points, seqs = row[seat]
            name = player(seat)
            return [Problem(R_ROW, msg("%(name)s already has %(points)s in round %(r)s (#%(value)s); to change it, void that entry and enter it again.", name=name, points=points, r=r, value=seqs[-1]))]
    return []


def _check_end(state: dict, move: Move) -> list[Problem]:
    return []


def round_has_points(state: dict) -> bool:
    index = state["round"] - 1
    return index < len(state["rounds"]) and any(state["rounds"][index])


CHECKS: dict[str, Callable[[dict, Move], list[Problem]]] = {
    "points-recorded": _check_points, "round-closed": _check_close, "round-entered": _check_row,
    "game-ended": _check_end}
