"""In the Year of the Dragon: the score, read from the points the fold wrote down.
Each part names the events it came from: research (the action), festival and
Mongols (the move that set off the month's event), the month's palaces, court ladies
and privileges and the final parts (the move that closed the month), §19–§20."""
from __future__ import annotations

from scoring.base import ScorePart
from scoring.dragon.data import CATEGORIES
from scoring.i18n import msg


def score(state: dict) -> dict[int, list[ScorePart]]:
    parts: dict[int, list[ScorePart]] = {}
    for seat in range(state["n"]):
        mine = [e for e in state["points"] if e["seat"] == seat]
        categories = list(dict.fromkeys(e["cat"] for e in mine))  # in the order first scored
        parts[seat] = [ScorePart(cat, sum(e["pts"] for e in mine if e["cat"] == cat),
                                 tuple(sorted({e["seq"] for e in mine if e["cat"] == cat})),
                                 CATEGORIES[cat]) for cat in categories]
    return parts


def is_over(state: dict) -> bool:
    return state["next"]["step"] == "over"


def tiebreak_words(values: list) -> dict[str, str]:
    """(track, arrival): the space is what the table counts; the arrival orders one space."""
    return msg("person track %(space)s", space=values[0])


def tiebreak(state: dict, seat: int) -> tuple:
    """Further ahead on the person track; on one space the marker on top (§20)."""
    player = state["players"][seat]
    return (player["track"], player["stamp"])
