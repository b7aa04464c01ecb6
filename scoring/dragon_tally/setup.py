"""Final tally mode: nobody's position is entered yet."""
from __future__ import annotations


def setup(players: list[dict], options: dict) -> dict:
    return {"n": len(players), "positions": [None] * len(players), "seqs": [None] * len(players)}
