"""Final tally mode: the rulebook's final scoring example as a short game."""
from __future__ import annotations


def demo():
    """Ben's final scoring from the rulebook's example (25 points, §20) and a second player."""
    players = [{"name": "Ben", "colour": "blue"}, {"name": "Anna", "colour": "red"}]
    young = lambda kind: {"type": kind, "age": "young"}  # noqa: E731
    ben = {"seat": 0, "score": 80, "yuan": 4, "rice": 1, "fireworks": 2, "track": 40, "palaces": [
        {"floors": 2, "persons": [young("monk"), young("lady")]},
        {"floors": 3, "persons": [{"type": "monk", "age": "old"}, young("tax"), young("craftsman")]},
        {"floors": 2, "persons": [young("healer"), young("farmer")]}]}
    anna = {"seat": 1, "score": 90, "yuan": 2, "rice": 0, "fireworks": 0, "track": 35, "palaces": [
        {"floors": 3, "persons": [young("scholar")]}]}
    return players, {}, [("dragon-position-entered", ben), ("dragon-position-entered", anna)]
