"""Generic score pad: an empty pad."""
from __future__ import annotations

from scoring.base import Problem
from scoring.i18n import msg
from scoring.scorepad.data import MAX_BGG_ID, MAX_TITLE, R_GAME


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
    title = options.get("title", "")
    if len(title) > MAX_TITLE or any(ord(c) < 32 for c in title):
        problems.append(Problem(R_GAME, msg("The game name is at most %(MAX_TITLE)s characters without control characters (it has %(count)s).", MAX_TITLE=MAX_TITLE, count=len(title))))
    bgg_id = options.get("bgg_id", 0)
    if not 0 <= bgg_id <= MAX_BGG_ID:
        problems.append(Problem(R_GAME, msg("A BoardGameGeek id is a whole number 0–%(MAX_BGG_ID)s; %(bgg_id)s is not.", MAX_BGG_ID=MAX_BGG_ID, bgg_id=bgg_id)))
    return problems
