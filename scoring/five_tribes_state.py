"""Five Tribes state: set-up, each player's holdings (from the books or the score sheet),
the events behind them, and the pending choices for the phone form."""
from __future__ import annotations

from scoring.five_tribes_data import PALACES, PALM_TREES, START_GOLD, TILES, camels_per_player
from scoring.five_tribes_view import pending


def setup(players: list[dict], options: dict) -> dict:
    n = len(players)
    markers = list(range(n)) * (2 if n == 2 else 1)  # seed 002 set-up: 2 players, 2 markers each
    state = {
        "n": n, "camels": camels_per_player(n), "phase": "setup", "round": 0,
        "board": None, "displays": False, "djinn_row": [], "card_row": [],
        "players": [{"gold": START_GOLD, "viziers": 0, "elders": 0, "djinns": [], "goods": {},
                     "fakirs": 0, "camels_left": camels_per_player(n)} for _ in range(n)],
        "src": [{} for _ in range(n)],
        "bid_order": markers, "bids": [], "turn_order": [], "turn_index": 0, "turn": None,
        "supply": {"palms": PALM_TREES, "palaces": PALACES},
        "last_camel": False, "no_moves": False, "sheets": [None] * n, "over": False,
    }
    return with_pending(state)


def with_pending(state: dict) -> dict:
    state["pending"] = pending(state, holdings_all(state))
    return state



def sheet_holdings(d, state) -> dict:
    tiles = d.get("tiles", {})
    return {"gold": d["gold"], "viziers": d["viziers"], "elders": d["elders"], "djinns": list(d["djinns"]),
            "palms": d["palms"], "palaces": d["palaces"],
            "tile_vp": d.get("tile_vp", 0) + sum(TILES[k]["vp"] * n for k, n in tiles.items()),
            "goods": {k: n for k, n in d["goods"].items() if n}, "fakirs": d["fakirs"]}


def tracked_holdings(state, seat) -> dict:
    p = state["players"][seat]
    if state["board"] is None:   # score-sheet-only game: nothing until the sheet is in
        return {"gold": 0, "viziers": 0, "elders": 0, "djinns": [], "palms": 0, "palaces": 0,
                "tile_vp": 0, "goods": {}, "fakirs": 0}
    mine = [c for c in state["board"] if c["owner"] == seat]
    return {"gold": p["gold"], "viziers": p["viziers"], "elders": p["elders"], "djinns": list(p["djinns"]),
            "palms": sum(len(c["palms"]) for c in mine), "palaces": sum(len(c["palaces"]) for c in mine),
            "tile_vp": sum(TILES[c["type"]]["vp"] for c in mine), "goods": dict(p["goods"]),
            "fakirs": p["fakirs"]}


def holdings_all(state) -> list[dict]:
    return [state["sheets"][s]["holdings"] if state["sheets"][s] else tracked_holdings(state, s)
            for s in range(state["n"])]


def sources(state, seat) -> dict[str, list[int]]:
    """The events behind each score category of a seat."""
    sheet = state["sheets"][seat]
    if sheet:
        return {c: [sheet["seq"]] for c in ("gold", "viziers", "vizier-bonus", "elders", "djinns",
                                             "palms", "palaces", "tiles", "goods")}
    src = {k: list(v) for k, v in state["src"][seat].items()}
    src["vizier-bonus"] = src.get("viziers", [])
    for c in state["board"] or []:
        if c["owner"] == seat:
            src.setdefault("tiles", []).append(c["owned_at"])
            src.setdefault("palms", []).extend(c["palms"])
            src.setdefault("palaces", []).extend(c["palaces"])
    return src


def djinn_owner(state, name):
    for seat, h in enumerate(holdings_all(state)):
        if name in h["djinns"]:
            return seat
    return None

