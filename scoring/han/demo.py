"""Han: invented example boards (for the contract demo, tests and example games) and
the demo game. These layouts are NOT the printed Han board, whose topology is
published nowhere (docs/rules/han.md §6); they are labelled as invented wherever shown.
"""
from __future__ import annotations

from scoring.han import boards
from scoring.i18n import hu_and_en, msg

_SIDE1 = [("vej", "Vej", "red", 4), ("csi", "Csi", "yellow", 2), ("csin", "Csin", "yellow", 4),
          ("lu", "Lu", "orange", 3), ("csao", "Csao", "orange", 4), ("csou", "Csou", "violet", 6),
          ("su", "Su", "green", 4), ("x8", "X8", "green", 3), ("x9", "X9", "red", 3)]
_BORDERS = [("vej", "su"), ("csin", "su"), ("lu", "csou"), ("csao", "x8"), ("csin", "x9"), ("x8", "x9")]
_HARBOURS = ["lu", "lu", "csao", "x8", "x9", "csou", "su"]
_ALLIANCES = [("vej", "su"), ("vej", "csi"), ("vej", "csin"), ("csin", "su"), ("csi", "lu"),
              ("lu", "csao"), ("csao", "csou"), ("csou", "su"), ("su", "x8"), ("x8", "x9"),
              ("x9", "vej"), ("csi", "csou"), ("csin", "x9"), ("lu", "x8"), ("csao", "x9")]
_SIDE2 = [(f"d{i}", f"D{i}", colour, 3) for i, colour in enumerate(
    ["violet", "yellow", "yellow", "orange", "orange", "green", "green", "red", "red"], start=1)]
_ALLIANCES2 = [(f"d{a}", f"d{b}") for a, b in ((1, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7), (6, 8), (7, 9),
                                               (8, 9), (1, 9), (2, 6), (3, 7), (4, 8), (5, 9), (1, 5))]


def example_profile(side: int = 1) -> dict:
    """A complete, INVENTED board layout (the facts the rulebook tells kept, docs/rules/han.md §6: Vej red, Csi/Csin yellow,
    Lu/Csao orange, Csou violet, alliances 3 and 4)."""
    data = boards.blank(side)
    data["name"] = hu_and_en(msg("Invented example board (side %(side)s, not the printed map)", side=side))
    data["source"] = "invented for tests and example games"
    areas, alliances = (_SIDE1, _ALLIANCES) if side == 1 else (_SIDE2, _ALLIANCES2)
    data["areas"] = [{"id": i, "name": n, "colour": c, "sites": s} for i, n, c, s in areas]
    data["alliances"] = [{"n": n, "areas": list(p)} for n, p in enumerate(alliances, start=1)]
    if side == 1:
        data["border_sites"] = [{"areas": list(p)} for p in _BORDERS]
        data["harbours"] = [{"area": a} for a in _HARBOURS]
    return data


def pinned(data: dict, profile_id: str = "han-example", version: int = 1) -> dict:
    return {"id": profile_id, "version": version, "data": data}


PLAYERS = [{"name": "Anita", "colour": "red"}, {"name": "Márk", "colour": "purple"},
           {"name": "Éva", "colour": "blue"}]


def demo():
    """Every event type once at least, each move legal: a 3-player side-1 game with
    fortresses on a board whose Csou site count and alliance 15 are unknown."""
    data = example_profile(1)
    data["areas"][5]["sites"] = None          # csou: the table confirms when it is full
    data["alliances"][14]["areas"] = [None, None]  # alliance 15: entered at the end
    options = {"board": pinned(data, "han-demo"), "fortress": True}
    moves = [
        ("pieces-placed", {"seat": 0, "cards": ["red"], "pieces": [{"type": "pagoda", "area": "vej", "site": "ordinary"}]}),
        ("pieces-placed", {"seat": 1, "cards": ["red", "green", "green"], "pieces": [
            {"type": "pagoda", "area": "vej", "site": "ordinary"}, {"type": "envoy", "area": "vej"}]}),
        ("card-exchanged", {"seat": 2}),
        ("pieces-placed", {"seat": 0, "cards": ["yellow"], "pieces": [{"type": "fortress", "area": "csi", "site": "ordinary"}]}),
        # a fortress alone leaves Csi empty: one piece there (docs/rules/han.md §2.5)
        ("pieces-placed", {"seat": 1, "cards": ["yellow"], "pieces": [
            {"type": "pagoda", "area": "csi", "site": "fortress"}]}),
        ("pieces-placed", {"seat": 2, "cards": ["violet"], "pieces": [{"type": "pagoda", "area": "csou", "site": "ordinary"}]}),
        ("province-scored", {"area": "csou"}),
        ("draw-pile-ran-out", {"confirmed": True}),  # far from the 30 cards the app expects
        ("pieces-placed", {"seat": 0, "cards": ["orange"], "pieces": [{"type": "pagoda", "area": "lu", "site": "harbour"}]}),
        ("pieces-placed", {"seat": 1, "cards": ["red", "green"], "pieces": [
            {"type": "pagoda", "area": "vej", "site": "border", "with": "su"}]}),
        ("game-ended", {"confirmed": True, "reason": "demo: the table stops here"}),
        ("final-position-entered", _demo_tally()),
        ("alliances-entered", {"alliances": [{"n": 15, "areas": ["csao", "x9"]}]}),
        ("road-chains-entered", {"chains": [{"seat": 1, "length": 4, "fortified": True}]}),
    ]
    return PLAYERS, options, moves


def _demo_tally() -> dict:
    """The end position after the demo's moves plus what the table did not record."""
    ids = [a[0] for a in _SIDE1]
    areas = {i: {"pagodas": [0, 0, 0], "envoys": [0, 0, 0]} for i in ids}
    areas["vej"] = {"pagodas": [1, 3, 0], "envoys": [0, 1, 1]}
    areas["csi"] = {"pagodas": [0, 1, 0], "envoys": [0, 0, 0]}
    areas["csou"] = {"pagodas": [0, 0, 1], "envoys": [0, 0, 0]}
    areas["lu"] = {"pagodas": [1, 0, 0], "envoys": [1, 0, 0]}
    areas["su"] = {"pagodas": [0, 1, 2], "envoys": [0, 0, 1]}
    return {"areas": areas, "harbours": [1, 0, 0], "border_pagodas": [0, 1, 0],
            "fortresses": [{"seat": 1, "area": "csi", "site": "ordinary"}]}
