"""Han's turns (docs/rules/han.md §9): a turn is one player's placement (or card exchange);
the final scoring is the table's. Every turn draws at least one card, so the cards drawn
so far tell one turn of a player from their next."""
from __future__ import annotations


def turn(state: dict) -> tuple[tuple, int | None] | None:
    step = state["next"]["step"]
    if step == "play":
        return ("play", state["next"]["seat"], state["deck"]["drawn"]), state["next"]["seat"]
    return None if step == "over" else (("final",), None)
