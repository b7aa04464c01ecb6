"""Five Tribes final scoring: one player's holdings → the official categories.

Both ways of keeping a game (turn by turn, or the score sheet) end in the same
holdings dict, so both give the same breakdown:
``{"gold", "viziers", "elders", "djinns": [names], "palms", "palaces", "tile_vp",
"goods": {kind: n}, "fakirs"}``. Rules: docs/rules/five-tribes.md §9; the holdings of a
game kept turn by turn come from the books (``tracked_holdings``), of a sheet from the
sheet (``sheet_holdings``, §8).
"""
from __future__ import annotations

from itertools import combinations_with_replacement

from scoring.base import ScorePart, Text
from scoring.five_tribes.data import DJINNS, GOODS, SUIT_VALUES, TILES
from scoring.i18n import msg

CATEGORIES = {
    "gold": msg("Gold"),
    "viziers": msg("Viziers"),
    "vizier-bonus": msg("Vizier majority"),
    "elders": msg("Elders"),
    "djinns": msg("Djinns"),
    "palms": msg("Palm trees"),
    "palaces": msg("Palaces"),
    "tiles": msg("Tiles"),
    "goods": msg("Merchandise sets"),
}


def suit_layers(goods: dict[str, int]) -> list[int]:
    """Layer the cards: suit k holds every kind held at least k times (docs/rules/five-tribes.md
    §9); returns the value of each suit, largest first."""
    counts = [n for n in goods.values() if n > 0]
    layers = []
    for k in range(1, max(counts, default=0) + 1):
        layers.append(SUIT_VALUES[sum(1 for n in counts if n >= k)])
    return layers


def best_with_wilds(goods: dict[str, int], wilds: int) -> tuple[dict[str, int], list[int]]:
    """Al-Amin: each pair of fakirs is one wild good of the owner's choice (docs/rules/five-tribes.md §9);
    the app picks the kinds that score most (every placement is tried)."""
    best_goods, best = dict(goods), suit_layers(goods)
    for picks in combinations_with_replacement(GOODS, wilds):
        trial = dict(goods)
        for kind in picks:
            trial[kind] = trial.get(kind, 0) + 1
        layers = suit_layers(trial)
        if sum(layers) > sum(best):
            best_goods, best = trial, layers
    return best_goods, best


def holdings_parts(seat: int, all_holdings: list[dict], src: dict[str, list[int]]) -> list[ScorePart]:
    """The score parts of ``seat``; ``src`` names the events behind each category."""
    h = all_holdings[seat]
    djinns = set(h["djinns"])

    def part(category, points, label):
        return ScorePart(category, points, tuple(sorted(set(src.get(category, ())))), label)

    vizier_vp = 3 if "Jafaar" in djinns else 1
    elder_vp = 4 if "Shamhat" in djinns else 2
    palm_vp = 5 if "Haurvatat" in djinns else 3
    fewer = sum(1 for i, o in enumerate(all_holdings) if i != seat and o["viziers"] < h["viziers"])
    parts = [
        part("gold", h["gold"], msg("Gold: %(gold)s", gold=h['gold'])),
        part("viziers", h["viziers"] * vizier_vp, _times(msg("Viziers"), h["viziers"], vizier_vp,
                                                          "Jafaar" if vizier_vp == 3 else "")),
        part("vizier-bonus", 10 * fewer, msg("Vizier majority: 10 × %(fewer)s opponent(s) with fewer viziers", fewer=fewer)),
        part("elders", h["elders"] * elder_vp, _times(msg("Elders"), h["elders"], elder_vp,
                                                      "Shamhat" if elder_vp == 4 else "")),
        part("djinns", sum(DJINNS[d]["vp"] for d in h["djinns"]), _djinn_label(h["djinns"])),
        part("palms", h["palms"] * palm_vp, _times(msg("Palm trees"), h["palms"], palm_vp,
                                                   "Haurvatat" if palm_vp == 5 else "")),
        part("palaces", h["palaces"] * 5, _times(msg("Palaces"), h["palaces"], 5, "")),
        part("tiles", h["tile_vp"], msg("Tiles: %(tile_vp)s VP", tile_vp=h['tile_vp'])),
    ]
    wilds = h["fakirs"] // 2 if "Al-Amin" in djinns else 0
    _, layers = best_with_wilds(h["goods"], wilds)
    sums = " + ".join(str(v) for v in layers) or "0"
    said = (msg("Merchandise sets: %(sums)s (Al-Amin: %(wilds)s wild)", sums=sums, wilds=wilds) if wilds
            else msg("Merchandise sets: %(sums)s", sums=sums))
    parts.append(part("goods", sum(layers), said))
    return parts


def _times(what: Text, n: int, each: int, djinn: str) -> dict:
    why = f" ({djinn})" if djinn else ""
    return msg("%(what)s: %(n)s × %(each)s%(why)s", what=what, n=n, each=each, why=why)


def _djinn_label(names: list[str]) -> dict:
    listed = ", ".join(f"{d} {DJINNS[d]['vp']}" for d in names) or "–"
    return msg("Djinns: %(listed)s", listed=listed)


def score(state: dict) -> dict[int, list[ScorePart]]:
    everyone = holdings_all(state)
    return {seat: holdings_parts(seat, everyone, sources(state, seat)) for seat in range(state["n"])}


def is_over(state: dict) -> bool:
    return state["over"]


# ---------------------------------------------------------------- holdings

def sheet_holdings(d) -> dict:
    """A score sheet's figures as holdings (§8)."""
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
