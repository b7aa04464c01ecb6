"""Generic score pad: an empty pad."""
from __future__ import annotations


def setup(players: list[dict], options: dict) -> dict:
    # rounds[r - 1][seat]: that player's [points, [event seqs]] in round r, or None. Kept as
    # the moves come instead of regrouping every entry on every tap (docs/performance.md,
    # change 14): a long game has thousands of rounds.
    # totals[seat]: the running sum, so the history's total after each of 10,000 events
    # costs one lookup, not a pass over every round (events/history.py).
    return {"seats": len(players), "names": [p.get("name", f"#{i + 1}") for i, p in enumerate(players)],
            "round": 1, "rounds": [], "totals": [0] * len(players), "over": False}
