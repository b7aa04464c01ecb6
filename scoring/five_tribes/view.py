"""What the Five Tribes templates need, derived from the folded facts when a page renders:
the choices the phone form offers next (only legal ones) and the board's labels.
"""
from __future__ import annotations

from scoring.five_tribes.score import holdings_all
from scoring.five_tribes.data import (BID_COSTS, CARD_KINDS, DJINNS, FAKIRS, GOODS, PAYMENT_LABELS,
                                      PAYMENTS, TILES, TRIBES, card_label, neighbours, tile_name)

CARDS = [{"id": k, "label": card_label(k)} for k in CARD_KINDS]
TILE_KINDS = [{"id": k, "label": v["label"], "short": v["short"], "vp": v["vp"], "count": v["count"]}
              for k, v in TILES.items()]
REF = {"tiles": {k: {"label": v["label"], "short": v["short"], "vp": v["vp"], "colour": v["colour"]}
                  for k, v in TILES.items()},
       "cards": {k: card_label(k) for k in CARD_KINDS}}
SHEET = {
    "djinns": [{"name": n, "vp": d["vp"]} for n, d in DJINNS.items()],
    "tiles": TILE_KINDS,
    "goods": [{"id": k, "label": v["label"], "max": v["count"]} for k, v in GOODS.items()],
    "fakirs": FAKIRS,
}


def view(state: dict, players: list[dict]) -> dict:
    phase = state["next"]["step"]
    out = {"kind": phase, "sheet_seats": [s for s in range(state["n"]) if state["sheets"][s] is None],
           "prefill": holdings_all(state) if state["board"] is not None else None, "sheet": SHEET, "ref": REF}
    if state["over"]:
        out["kind"] = "over"
    elif any(state["sheets"]):
        out["kind"] = "sheet"
    elif phase == "lay":
        out |= {"tiles": TILE_KINDS, "djinns": list(DJINNS), "cards": CARDS}
    elif phase == "bid":
        out |= _bid(state)
    elif phase == "turn":
        out |= _turn(state)
    elif phase == "refill":
        out |= _refill(state)
    return out


def _bid(state) -> dict:
    seat = state["bid_order"][len(state["bids"])]
    me = state["players"][seat]
    taken = [b["cost"] for b in state["bids"]]
    kumarbi = me["fakirs"] if "Kumarbi" in me["djinns"] else 0
    cheapest = lambda c: BID_COSTS[max(0, BID_COSTS.index(c) - kumarbi)]
    costs = [c for c in BID_COSTS if (c == 0 and taken.count(0) < 3) or (c and c not in taken)]
    return {"seat": seat, "costs": [c for c in costs if cheapest(c) <= me["gold"]], "kumarbi": kumarbi,
            "track": [{"cost": b["cost"], "seat": b["seat"]} for b in state["bids"]]}


def _turn(state) -> dict:
    turn = state["next"]
    seat = turn["seat"]
    me = state["players"][seat]
    out = {"seat": seat, "moved": turn["moved"], "powers": _powers(state, turn, me),
           "tile_names": [{"index": i, "name": tile_name(i), "label": TILES[c["type"]]["label"]}
                          for i, c in enumerate(state["board"])]}
    if not turn["moved"]:
        opponents = [s for s in range(state["n"]) if s != seat and "Boaz" not in state["players"][s]["djinns"]]
        return out | {"tribes": [{"id": k, "label": v["label"]} for k, v in TRIBES.items()],
                      "fakirs": me["fakirs"], "cards": None if state["displays"] else CARDS,
                      "victim_seats": opponents, "iblis": "Iblis" in turn["used"]}
    return out | {"tile": turn["tile"], "tile_name": tile_name(turn["tile"]),
                  "action": None if turn["action"] else _tile_action(state, turn, me),
                  "sell": [{"id": k, "label": GOODS[k]["label"], "max": n} for k, n in me["goods"].items() if n],
                  "compulsory": _compulsory(state, turn)}


def _tile_action(state, turn, me) -> dict | None:
    here = turn["tile"]
    kind = state["board"][here]["type"]
    action = TILES[kind]["action"]
    if action in ("palm", "palace"):
        supply = state["supply"]["palms" if action == "palm" else "palaces"]
        djinn = "Lamia" if action == "palm" else "Hagis"
        targets = [here] + (neighbours(here, diagonal=True) if djinn in turn["used"] else [])
        return {"kind": action, "targets": [{"index": t, "name": tile_name(t)} for t in targets]} if supply else None
    if action == "market":
        price, window, limit = (3, 3, 1) if kind == "small-market" else (6, 6, 2)
        if me["gold"] < price:
            return None
        row = state["card_row"][:window] if state["displays"] else list(CARD_KINDS)
        return {"kind": "market", "price": price, "limit": limit,
                "cards": [{"id": k, "label": card_label(k)} for k in dict.fromkeys(row)]}
    pays = [p for p in ("elders", "elder-fakir") if _affords(me, p)]
    owned = {d for p in state["players"] for d in p["djinns"]}
    choices = state["djinn_row"] if state["displays"] else [d for d in DJINNS if d not in owned]
    if not pays or not choices:
        return None
    return {"kind": "djinn", "djinns": [{"name": d, "vp": DJINNS[d]["vp"]} for d in choices],
            "pays": [{"id": p, "label": PAYMENT_LABELS[p]} for p in pays]}


def _affords(me, pay) -> bool:
    need = PAYMENTS[pay]
    return me["elders"] >= need["elders"] and me["fakirs"] >= need["fakirs"]


NEEDS = {"Anun-Nak": "tile", "Bouraq": "tile", "Enki": "tile", "Leta": "tile", "Utug": "tile",
         "Sloar": "card", "Sibittis": "keep"}


def _powers(state, turn, me) -> list[dict]:
    out = []
    for name in me["djinns"]:
        cost = DJINNS[name]["cost"]
        if not cost or name == "Kumarbi" or name in turn["used"]:
            continue
        pays = [p for p in cost if _affords(me, p)]
        if pays:
            out.append({"name": name, "power": DJINNS[name]["power"], "needs": NEEDS.get(name),
                        "pays": [{"id": p, "label": PAYMENT_LABELS[p]} for p in pays]})
    return out


def _compulsory(state, turn) -> dict | None:
    kind = state["board"][turn["tile"]]["type"]
    if turn["action"]:
        return None
    if kind == "oasis" and state["supply"]["palms"]:
        return {"hu": "Kötelező: pálmafa erre az oázisra.", "en": "Compulsory: a palm tree on this oasis."}
    if kind == "village" and state["supply"]["palaces"]:
        return {"hu": "Kötelező: palota erre a falura.", "en": "Compulsory: a palace on this village."}
    return None


def _refill(state) -> dict:
    if not state["displays"]:
        return {"djinn_slots": 0, "card_slots": 0}
    owned = {d for p in state["players"] for d in p["djinns"]} | set(state["djinn_row"])
    return {"djinn_slots": 3 - len(state["djinn_row"]), "card_slots": 9 - len(state["card_row"]),
            "djinns": [d for d in DJINNS if d not in owned], "cards": CARDS}
