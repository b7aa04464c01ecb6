"""Final tally mode: refusals (docs/rules/dragon.md §22), with the numbers involved."""
from __future__ import annotations

from collections import Counter
from typing import Callable

from scoring.base import Move, Problem
from scoring.dragon.data import PERSONS, R_PALACE, R_TALLY, R_TILES, person_name, supply_for


def check(state: dict, move: Move) -> list[Problem]:
    return CHECKS[move.type](state, move)


def _check_position(state: dict, move: Move) -> list[Problem]:
    d = move.data
    if d["seat"] >= state["n"]:
        return [Problem(R_TALLY, f"Nincs {d['seat'] + 1}. játékos ({state['n']} van).",
                        f"There is no player {d['seat'] + 1} ({state['n']} players).")]
    if state["positions"][d["seat"]] is not None:
        return [Problem(R_TALLY, "Ennek a játékosnak a végállása már megvan (javítás: visszavonás).",
                        "This player's position is already entered (undo or void it to correct it).")]
    for i, palace in enumerate(d["palaces"]):
        if len(palace["persons"]) > palace["floors"]:
            return [Problem(R_PALACE, f"A(z) {i + 1}. palota {palace['floors']} szintes, de {len(palace['persons'])} "
                                      "alattvaló lakna benne; szintenként legfeljebb egy.",
                            f"Palace {i + 1} has {palace['floors']} floor(s) but {len(palace['persons'])} persons; "
                            "at most one per floor.")]
        if any(p["age"] not in PERSONS[p["type"]] for p in palace["persons"]):
            return [Problem(R_TILES, "Ilyen korú lapka nincs ebből a típusból.", "That type has no tile of that age.")]
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
                            f"{state['n']} játékosnál csak {supply[kind][age]} {name['hu']} lapka van, itt {count}.",
                            f"With {state['n']} players there are only {supply[kind][age]} {name['en']} tiles; "
                            f"the courts hold {count}.")]
    return []


CHECKS: dict[str, Callable[[dict, Move], list[Problem]]] = {"dragon-position-entered": _check_position}
