"""Five Tribes set-up: the state before the sultanate is laid (docs/rules/five-tribes.md §2).

The state holds facts only; what must happen next lives under ``state["next"]``:
``{"step": "lay" | "bid" | "turn" | "refill" | "over", "seat": …}``, and during a turn
the turn's own facts (the tile the move ended on, the tribe, whether the tile action
was taken, the djinn powers used).
"""
from __future__ import annotations

from scoring.five_tribes.data import PALACES, PALM_TREES, START_GOLD, camels_per_player


def setup(players: list[dict], options: dict) -> dict:
    n = len(players)
    markers = list(range(n)) * (2 if n == 2 else 1)  # §3: with 2 players, 2 markers each
    return {
        "n": n, "camels": camels_per_player(n), "next": {"step": "lay"}, "round": 0,
        "board": None, "displays": False, "djinn_row": [], "card_row": [],
        "players": [{"gold": START_GOLD, "viziers": 0, "elders": 0, "djinns": [], "goods": {},
                     "fakirs": 0, "camels_left": camels_per_player(n)} for _ in range(n)],
        "src": [{} for _ in range(n)],
        "bid_order": markers, "bids": [], "turn_order": [], "turn_index": 0,
        "supply": {"palms": PALM_TREES, "palaces": PALACES},
        "last_camel": False, "no_moves": False, "sheets": [None] * n, "over": False,
        "meeples": None, "powers_used": [], "rules_version": 2,
    }


def setup_v1(players: list[dict], options: dict) -> dict:
    """Games recorded under rules version 1 keep its checks (docs/rules/five-tribes.md §14)."""
    return setup(players, options) | {"rules_version": 1}
