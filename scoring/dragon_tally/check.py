"""Final tally mode: refusals (docs/rules/dragon.md §22), with the numbers involved."""
from __future__ import annotations

from collections import Counter
from typing import Callable

from scoring.base import Move, Problem
from scoring.dragon.data import PERSONS, R_PALACE, R_TALLY, R_TILES, person_name, supply_for
from scoring.i18n import msg


def check(state: dict, move: Move) -> list[Problem]:
    return CHECKS[move.type](state, move)


def _check_position(state: dict, move: Move) -> list[Problem]:
    d = move.data
    if d["seat"] >= state["n"]:
        return [Problem(R_TALLY, msg("There is no player %(value)s (%(n)s players).", value=d['seat'] + 1, n=state['n']))]
    if state["positions"][d["seat"]] is not None:
        return [Problem(R_TALLY, msg("This player's position is already entered (undo or void it to correct it)."))]
    for i, palace in enumerate(d["palaces"]):
        if len(palace["persons"]) > palace["floors"]:
            return [Problem(R_PALACE, msg("Palace %(value)s has %(floors)s floor(s) but %(count)s persons; at most one per floor.", value=i + 1, floors=palace['floors'], count=len(palace['persons'])))]
        if any(p["age"] not in PERSONS[p["type"]] for p in palace["persons"]):
            return [Problem(R_TILES, msg("That type has no tile of that age."))]
    return _check_supply(state, d)


def _check_supply(state: dict, d: dict) -> list[Problem]:
    """All courts together hold no more tiles of a kind than the game had (§3)."""
    held = Counter((p["type"], p["age"]) for position in state["positions"] + [d] if position
                   for palace in position["palaces"] for p in palace["persons"])
    supply = supply_for(state["n"])
    for (kind, age), count in sorted(held.items()):
        if count > supply[kind][age]:
            name = person_name({"type": kind, "age": age})
            return [Problem(R_TILES,
                            msg("With %(n)s players there are only %(value)s %(name)s tiles; the courts hold %(count)s.", n=state['n'], value=supply[kind][age], name=name, count=count))]
    return []


CHECKS: dict[str, Callable[[dict, Move], list[Problem]]] = {"dragon-position-entered": _check_position}
