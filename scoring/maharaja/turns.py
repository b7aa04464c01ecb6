"""Maharaja's turns (docs/rules/maharaja.md §20): a player's turn within a round (revealing
the character, then the actions), resumed after a pick its character swap asked of
another player; each set-up step and pick is its player's, a step nobody in particular
takes (laying the governors, the character auction) the table's."""
from __future__ import annotations


def turn(state: dict) -> tuple[tuple, int | None] | None:
    due = state["next"]
    if due is None:
        return None
    seat, step = due["seat"], due["step"]
    if step in ("reveal", "actions"):
        return ("round", state["round"], seat), seat
    if step == "pick-character":  # within the turn whose character swap made it (one a turn)
        return ("pick", (state["turn"] or {}).get("seq", state["round"]), seat), seat
    if step == "start-house":
        return (step, state["start_houses"]), seat
    return (step, seat), seat
