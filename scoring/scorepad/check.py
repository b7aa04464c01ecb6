"""Generic score pad: refusals, citing docs/rules/scorepad.md §n."""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, Problem
from scoring.scorepad.data import MAX_ABS_POINTS, R_END, R_POINTS, R_ROUND


def check(state: dict, move: Move) -> list[Problem]:
    if state["over"]:
        return [Problem(R_END, "A játék már véget ért.", "The game has already ended.")]
    return CHECKS[move.type](state, move)


def _check_points(state: dict, move: Move) -> list[Problem]:
    seat, points = move.data["seat"], move.data["points"]
    problems = []
    if not 0 <= seat < state["seats"]:
        problems.append(Problem(R_POINTS, f"Nincs {seat + 1}. játékos ({state['seats']} van).",
                                f"There is no player {seat + 1} ({state['seats']} players)."))
    if abs(points) > MAX_ABS_POINTS:
        problems.append(Problem(R_POINTS, f"A pont legfeljebb ±{MAX_ABS_POINTS} lehet (most {points}).",
                                f"Points must be within ±{MAX_ABS_POINTS} (got {points})."))
    return problems


def _check_close(state: dict, move: Move) -> list[Problem]:
    if round_has_points(state):
        return []
    return [Problem(R_ROUND, f"A(z) {state['round']}. körben még nincs beírt pont.",
                    f"Nothing has been recorded in round {state['round']} yet.")]


def _check_end(state: dict, move: Move) -> list[Problem]:
    return []


def round_has_points(state: dict) -> bool:
    index = state["round"] - 1
    return index < len(state["rounds"]) and any(state["rounds"][index])


CHECKS: dict[str, Callable[[dict, Move], list[Problem]]] = {
    "points-recorded": _check_points, "round-closed": _check_close, "game-ended": _check_end}
