"""A short Five Tribes game for the contract test: two rounds kept turn by turn, then
finished on the score sheet."""
from __future__ import annotations

# A board as laid at a table (counts as the 30 tiles), used by the demo and the examples.
DEMO_BOARD = (["village", "sacred-6", "oasis", "small-market", "large-market", "village"]
              + ["small-market", "oasis", "sacred-10", "village", "small-market", "oasis"]
              + ["large-market", "small-market", "village", "sacred-6", "oasis", "small-market"]
              + ["sacred-12", "oasis", "small-market", "large-market", "sacred-6", "village"]
              + ["small-market", "sacred-15", "large-market", "oasis", "small-market", "sacred-6"])
DEMO_CARDS = ["fish", "wheat", "pottery", "silk", "spice", "fakir", "ivory", "gold", "jewels"]


def _sheet(seat, **kw) -> dict:
    base = {"seat": seat, "gold": 0, "viziers": 0, "elders": 0, "djinns": [], "palms": 0, "palaces": 0,
            "goods": {}, "fakirs": 0}
    return base | kw


def demo():
    """Two rounds kept turn by turn, then finished on the score sheet at the table."""
    players = [{"name": "Peti", "colour": "red"}, {"name": "Zoli", "colour": "blue"},
               {"name": "Gerda", "colour": "green"}]
    moves = [
        ("board-laid", {"tiles": DEMO_BOARD, "djinns": ["Enki", "Jafaar", "Sloar"], "cards": DEMO_CARDS}),
        ("bid-placed", {"seat": 0, "cost": 3}), ("bid-placed", {"seat": 1, "cost": 1}),
        ("bid-placed", {"seat": 2, "cost": 0}),
        ("meeples-moved", {"tile": "C1", "tribe": "elder", "count": 3, "emptied": True}),
        ("palm-placed", {"tile": "C1"}), ("turn-ended", {}),
        ("meeples-moved", {"tile": "B1", "tribe": "elder", "count": 3}),
        ("djinn-taken", {"djinn": "Enki", "pay": "elders"}),
        ("djinn-used", {"djinn": "Enki", "pay": "elder", "tile": "B2"}), ("turn-ended", {}),
        ("meeples-moved", {"tile": "D1", "tribe": "merchant", "count": 2}),
        ("goods-bought", {"cards": ["pottery"]}),
        ("goods-sold", {"goods": {"fish": 1, "wheat": 1, "pottery": 1}}), ("turn-ended", {}),
        ("round-ended", {"djinns": ["Haurvatat"], "cards": ["fish", "papyrus", "silk"]}),
        ("bid-placed", {"seat": 0, "cost": 0}), ("bid-placed", {"seat": 1, "cost": 0}),
        ("bid-placed", {"seat": 2, "cost": 0}),
        ("meeples-moved", {"tile": "A1", "tribe": "builder", "count": 2, "emptied": True}),
        ("palace-placed", {"tile": "A1"}), ("turn-ended", {}),
        ("meeples-moved", {"tile": "E1", "tribe": "assassin", "count": 2, "victims": [{"seat": 0, "tribe": "elder"}]}),
        ("turn-ended", {}),
        ("sheet-entered", _sheet(0, gold=47, elders=3, palms=1, tiles={"oasis": 1})),
        ("sheet-entered", _sheet(1, gold=49, djinns=["Enki"])),
        ("sheet-entered", _sheet(2, gold=60, palaces=1, tile_vp=5, goods={"silk": 1}, fakirs=1)),
    ]
    return players, {}, moves
