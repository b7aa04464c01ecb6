"""In the Year of the Dragon: a short legal game for the contract test and the demo."""
from __future__ import annotations

from scoring.dragon.data import WILD


def demo() -> tuple[list[dict], dict, list[tuple[str, dict]]]:
    """Two players through months 1–3: a build, a refill, a shared group, a privilege,
    a "?" card, and a contagion in which both players choose whom to release."""
    players = [{"name": "Anna", "colour": "red"}, {"name": "Béla", "colour": "blue"}]
    row = ["contagion", "tribute", "drought", "festival", "mongols",
           "contagion", "tribute", "drought", "festival", "mongols"]
    deal = {"groups": [["taxes", "build", "harvest", "fireworks"], ["parade", "research", "privilege"]]}
    moves = [
        ("dragon-events-laid", {"row": row}),
        ("dragon-opening-recruited", {"seat": 0, "persons": [{"type": "monk", "palace": 0},
                                                             {"type": "healer", "palace": 1}]}),
        ("dragon-opening-recruited", {"seat": 1, "persons": [{"type": "lady", "palace": 0},
                                                             {"type": "tax", "palace": 1}]}),
        # month 1: Anna (track 10) before Béla (4)
        ("dragon-actions-dealt", deal),
        ("dragon-action-chosen", {"seat": 0, "group": 0, "action": "build"}),
        ("dragon-floors-placed", {"seat": 0, "add": [1, 0], "new": []}),
        ("dragon-money-refilled", {"seat": 1}),
        ("dragon-person-recruited", {"seat": 0, "card": "scholar",
                                     "person": {"type": "scholar", "age": "young"}, "palace": 0}),
        ("dragon-person-recruited", {"seat": 1, "card": "healer",
                                     "person": {"type": "healer", "age": "young"}, "palace": 0}),
        # month 2
        ("dragon-actions-dealt", deal),
        ("dragon-action-chosen", {"seat": 0, "group": 1, "action": "privilege", "privilege": "small"}),
        ("dragon-action-chosen", {"seat": 1, "group": 1, "action": "research"}),
        ("dragon-person-recruited", {"seat": 0, "card": WILD,
                                     "person": {"type": "farmer", "age": "old"}, "palace": 0}),
        ("dragon-person-recruited", {"seat": 1, "card": "pyro",
                                     "person": {"type": "pyro", "age": "young"}, "palace": 1}),
        # month 3: contagion, 3 − 1 mortar = 2 persons each
        ("dragon-actions-dealt", deal),
        ("dragon-action-chosen", {"seat": 0, "group": 0, "action": "taxes"}),
        ("dragon-action-chosen", {"seat": 1, "group": 1, "action": "parade"}),
        ("dragon-person-recruited", {"seat": 0, "card": "warrior",
                                     "person": {"type": "warrior", "age": "young"}, "palace": 1}),
        ("dragon-person-recruited", {"seat": 1, "card": "craftsman",
                                     "person": {"type": "craftsman", "age": "young"},
                                     "palace": 0, "replace": 0}),
        ("dragon-persons-released", {"seat": 0, "persons": [[0, 2], [1, 1]]}),
        ("dragon-persons-released", {"seat": 1, "persons": [[0, 0], [1, 1]]}),
    ]
    return players, {}, moves
