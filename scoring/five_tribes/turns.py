"""Five Tribes' turns (docs/rules/five-tribes.md §15): a bid, and a turn from the end of the
previous one to its ``turn-ended``; laying the Sultanate and refilling are the table's."""
from __future__ import annotations


def turn(state: dict) -> tuple[tuple, int | None] | None:
    step, seat = state["next"]["step"], state["next"].get("seat")
    if step == "bid":
        return ("bid", state["round"], len(state["bids"])), seat
    if step == "turn":
        return ("turn", state["round"], state["turn_index"]), seat
    return None if step == "over" else ((step, state["round"]), None)
