"""Generic score pad: one part per round, naming the events behind it (§2)."""
from __future__ import annotations

from scoring.base import ScorePart
from scoring.i18n import msg


def score(state: dict) -> dict[int, list[ScorePart]]:
    parts: dict[int, list[ScorePart]] = {seat: [] for seat in range(state["n"])}
    for round_no, row in enumerate(state["rounds"], start=1):
        label = msg("Round %(round_no)s", round_no=round_no)
        for seat, total in enumerate(row):
            if total:
                parts[seat].append(ScorePart(f"round-{round_no}", total[0], tuple(total[1]), label))
    return parts


def totals(state: dict) -> dict[int, int]:
    """Each seat's total, kept as the moves come (the history asks after every event)."""
    return dict(enumerate(state["totals"]))


def is_over(state: dict) -> bool:
    return state["over"]
