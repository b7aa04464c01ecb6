"""In the Year of the Dragon: the table before the event row is laid (§5)."""
from __future__ import annotations

from scoring.dragon.data import CARDS, RULES_VERSION, START_PALACES, START_YUAN, supply_for


def setup(players: list[dict], options: dict, rules_version: int = RULES_VERSION) -> dict:
    """The facts of a fresh game. ``next`` is the rule flow: the step the rules ask for
    now, whose decision it is (None: the table's) and who follows in this step (§7).
    ``rules_version``: the version the game is scored by (§24)."""
    n = len(players)
    return {
        "n": n, "rules_version": rules_version,
        "large_privilege": options.get("large_privilege", 6),
        "month": 0, "next": {"step": "lay-events", "seat": None, "later": []},
        "row": ["peace", "peace"], "supply": supply_for(n), "pairs": [],
        "groups": [], "dragons": [], "stamp": 0,
        "players": [{"yuan": START_YUAN, "rice": 0, "fireworks": 0, "small": 0, "large": 0,
                     "palaces": [{"floors": f, "persons": []} for f in START_PALACES],
                     "cards": list(CARDS), "track": 0, "stamp": 0} for _ in range(n)],
        "points": [], "report": [], "notes": [], "final": None,
    }


def setup_v1(players: list[dict], options: dict) -> dict:
    """A game pinned to rules version 1 (§24)."""
    return setup(players, options, rules_version=1)
