"""Final tally mode: the fold step keeps each entered position."""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, clone


def apply(state: dict, move: Move) -> dict:
    state = clone(state)
    APPLY[move.type](state, move)
    return state


def _position(state: dict, move: Move) -> None:
    state["positions"][move.data["seat"]] = dict(move.data)
    state["seqs"][move.data["seat"]] = move.seq


APPLY: dict[str, Callable[[dict, Move], None]] = {"dragon-position-entered": _position}
