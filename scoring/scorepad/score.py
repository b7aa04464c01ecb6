"""Generic score pad: one part per round, naming the events behind it (§2)."""
from __future__ import annotations

from scoring.base import ScorePart
from scoring.i18n import msg


def score(state: dict) -> dict[int, list[ScorePart]]:
    parts: dict[int, list[ScorePart]] = {seat: [] for seat in range(state["n"])}
    for round_no, row in enumerate(state["rounds"], start=1):
        label = _label(round_no)
        for seat, cell in enumerate(row):
            if cell:
                parts[seat].append(_part(round_no, cell, label))
    return parts


def recent_parts(state: dict, n: int) -> dict[int, tuple[int, list[ScorePart]]]:
    """Each seat's count of rounds it has points in and its last ``n`` of score()'s parts,
    found from the last round back: a tap's table page labels a dozen rounds per seat, not
    the thousands of a long game."""
    rounds, recent = state["rounds"], {}
    columns = list(zip(*rounds)) or [()] * state["n"]  # a seat's cells, one per round
    for seat, cells in enumerate(columns):
        shown: list[ScorePart] = []
        round_no = len(cells)
        while round_no and len(shown) < n:
            if cells[round_no - 1]:
                shown.append(_part(round_no, cells[round_no - 1], _label(round_no)))
            round_no -= 1
        recent[seat] = (len(cells) - cells.count(None), shown[::-1])
    return recent


def _part(round_no: int, cell: list, label: dict[str, str]) -> ScorePart:
    """One seat's cell of a round, ``[points, [event seqs]]``, as its part."""
    return ScorePart(f"round-{round_no}", cell[0], tuple(cell[1]), label)


def _label(round_no: int) -> dict[str, str]:
    return msg("Round %(round_no)s", round_no=round_no)


def totals(state: dict) -> dict[int, int]:
    """Each seat's total, kept as the moves come (the history asks after every event)."""
    return dict(enumerate(state["totals"]))


def is_over(state: dict) -> bool:
    return state["over"]
