"""In the Year of the Dragon's turns (docs/rules/dragon.md §26): each player's step of a
month (the action and the building it pays for are one); what no player decides (laying
the events) is the table's."""
from __future__ import annotations


def turn(state: dict) -> tuple[tuple, int | None] | None:
    due = state["next"]
    if due["step"] == "over":
        return None
    step = "action" if due["step"] == "build" else due["step"]
    return (state["month"], step, due["seat"], len(due["later"])), due["seat"]
