"""Generic score pad: an empty pad."""
from __future__ import annotations

from scoring.base import Problem
from scoring.i18n import msg
from scoring import text
from scoring.scorepad.data import MAX_BGG_ID, R_GAME


def setup(players: list[dict], options: dict) -> dict:
    # rounds[r - 1][seat]: that player's [points, [event seqs]] in round r, or None. Kept as
    # the moves come instead of regrouping every entry on every tap (docs/performance.md,
    # change 14): a long game has thousands of rounds.
    # totals[seat]: the running sum, so the history's total after each of 10,000 events
    # costs one lookup, not a pass over every round (events/application/states.py).
    return {"n": len(players), "round": 1, "rounds": [], "totals": [0] * len(players), "over": False}


def check_setup(players: list[dict], options: dict) -> list[Problem]:
    """The optional game name and BoardGameGeek id (docs/rules/scorepad.md §7)."""
    problems = []
    why = text.why_not(options.get("title", ""), text.TITLE)  # the one text policy (scoring/text.py)
    if why is not None:
        problems.append(Problem(R_GAME, why))
    bgg_id = options.get("bgg_id", 0)
    if not 0 <= bgg_id <= MAX_BGG_ID:
        problems.append(Problem(R_GAME, msg("A BoardGameGeek id is a whole number 0–%(MAX_BGG_ID)s; %(bgg_id)s is not.", MAX_BGG_ID=MAX_BGG_ID, bgg_id=bgg_id)))
    return problems
