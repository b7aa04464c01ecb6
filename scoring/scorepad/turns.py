"""The score pad's turns (docs/rules/scorepad.md §8): a round, for the table as a whole."""
from __future__ import annotations


def turn(state: dict) -> tuple[tuple, int | None] | None:
    """The round being entered, nobody's in particular; none once the game has ended."""
    return None if state["over"] else (("round", state["round"]), None)
