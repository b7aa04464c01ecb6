"""Final tally mode: points so far + the final scoring of the full game (§20, §22)."""
from __future__ import annotations

from scoring.base import ScorePart
from scoring.dragon.data import CATEGORIES, PERSONS


def final_parts(position: dict) -> dict[str, int]:
    """The final scoring of one position (the arithmetic of scoring/dragon/apply.py:
    final_scoring)."""
    persons = [(p, pal["floors"]) for pal in position["palaces"] for p in pal["persons"]]
    monks = sum(PERSONS["monk"][p["age"]][0] * floors for p, floors in persons if p["type"] == "monk")
    money = position["yuan"] + 2 * position["rice"] + 2 * position["fireworks"]
    return {"earlier": position["score"], "persons": 2 * len(persons), "monks": monks, "money": money // 3}


def score(state: dict) -> dict[int, list[ScorePart]]:
    """Each part names the ``dragon-position-entered`` event of its player."""
    parts = {}
    for seat, position in enumerate(state["positions"]):
        if position is None:
            parts[seat] = []
            continue
        seq = (state["seqs"][seat],)
        parts[seat] = [ScorePart(cat, pts, seq, CATEGORIES[cat]) for cat, pts in final_parts(position).items()]
    return parts


def is_over(state: dict) -> bool:
    return all(p is not None for p in state["positions"])


def tiebreak(state: dict, seat: int) -> tuple:
    """The higher person-track position; markers on one space stay tied (§22)."""
    position = state["positions"][seat]
    return (position["track"] if position else 0,)
