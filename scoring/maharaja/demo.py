"""A short legal Maharaja game for the contract test: two rounds of a 2-player
advanced game (Yogi and action chips) that uses every event type."""
from __future__ import annotations


def demo():
    players = [{"name": "Anna", "colour": "red"}, {"name": "Béla", "colour": "blue"}]
    moves = [("governors-laid", {"order": list("ABCDEFG")}),
             ("character-chosen", {"seat": 0, "character": 7, "paid": 0}),
             ("character-chosen", {"seat": 1, "character": 5, "paid": 0})]
    # Starting houses in character order (Béla, the Builder, first), one per village.
    for i in range(8):
        moves.append(("start-house-placed", {"seat": 1 if i % 2 == 0 else 0, "place": f"v{i + 1}"}))
    moves += [
        # Round 1, city A. Béla: palace/house + character swap.
        ("actions-revealed", {"seat": 1, "actions": ["palace-house", "character"]}),
        ("architect-travelled", {"city": "A", "via": ["v1"]}),
        ("house-built", {"place": "A", "free": True}),
        ("character-swapped", {"character": 7}),
        ("character-picked", {"character": 6}),
        ("palace-built", {"city": "A", "site": "inner"}),
        ("house-built", {"place": "A"}),
        ("turn-ended", {}),
        # Anna, now the Artist: gold + move a house.
        ("actions-revealed", {"seat": 0, "actions": ["gold", "move-house"]}),
        ("gold-taken", {}),
        ("house-moved", {"source": "v2", "place": "v9"}),
        ("architect-travelled", {"city": "B", "via": ["v9"]}),
        ("turn-ended", {}),
        # Round 2, city B. Anna (Artist, 6) before Béla (Yogi, 7).
        ("actions-revealed", {"seat": 0, "actions": ["governor", "quarry"]}),
        ("governor-moved", {"city": "E"}),
        ("quarry-used", {}),
        ("turn-ended", {}),
        ("actions-revealed", {"seat": 1, "actions": ["house", "gold"]}),
        ("chip-used", {"action": "gold"}),
        ("gold-taken", {}),
        ("gold-taken", {}),
        ("turn-ended", {"renounce": True}),
    ]
    return players, {"yogi": True}, moves
