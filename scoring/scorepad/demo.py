"""Generic score pad: a short game for the contract test and the demo."""
from __future__ import annotations


def demo() -> tuple[list[dict], dict, list[tuple[str, dict]]]:
    players = [{"name": "Anna", "colour": "red"}, {"name": "Béla", "colour": "blue"}]
    moves = [("points-recorded", {"seat": 0, "points": 12, "note": "first"}),
             ("points-recorded", {"seat": 1, "points": -3, "note": ""}),
             ("round-closed", {}),
             ("points-recorded", {"seat": 1, "points": 20}),
             ("round-closed", {}),
             ("round-entered", {"round": 3, "entries": [{"seat": 0, "points": 7}, {"seat": 1, "points": -2}]}),
             ("game-ended", {})]
    return players, {}, moves
