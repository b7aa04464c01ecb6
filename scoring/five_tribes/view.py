"""What the Five Tribes templates need, derived from the folded facts when a page renders:
the choices the phone form offers next (only legal ones) and the board's labels.
"""
from __future__ import annotations

from collections import Counter
from functools import partial

from scoring.base import Move
from scoring.five_tribes.check import cards_left, djinns_left, in_bag
from scoring.five_tribes.data import (BID_COSTS, CARD_KINDS, CELLS, COLOURS, DJINNS, FAKIRS, GOODS,
                                      PAYMENT_LABELS, PAYMENTS, TILE_INDEX, TILE_NAMES, TILES, TRIBES,
                                      blue_around, can_end, card_label, distance, droppable, dropped, forced,
                                      hand_of, in_reach, indexed, neighbours, some_move_exists, tapped_drops, tile_name, typed_drops,
                                      walk)
from scoring.five_tribes.score import holdings_all
from scoring.i18n import msg

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


def view(state: dict, players: list[dict], options: dict | None = None, last: Move | None = None) -> dict:
    """``last``: the game's newest meeples-moved (GameKind.last_of), whose path the board numbers."""
    phase = state["next"]["step"]
    out = {"kind": phase, "sheet_seats": [s for s in range(state["n"]) if state["sheets"][s] is None],
           "prefill": holdings_all(state) if state["board"] is not None else None, "sheet": SHEET, "ref": REF,
           "cells": _cells(state, last_path(last)) if state["board"] is not None else [], "tracked": state.get("meeples") is not None,
           "tribes": TRIBE_CHOICES, "colours": COLOURS, "tile_key": _tile_key(state["board"])}
    if state["over"]:
        out["kind"] = "over"
    elif any(state["sheets"]):
        out["kind"] = "sheet"
    elif phase == "lay":
        out |= {"tiles": TILE_KINDS, "djinns": list(DJINNS), "cards": CARDS,
                "colour_counts": [{"id": k, "colour": COLOURS[k], "count": v["count"]} for k, v in TRIBES.items()]}
    elif phase == "bid":
        out |= _bid(state)
    elif phase == "turn":
        out |= _turn(state)
    elif phase == "refill":
        out |= _refill(state)
    return out


def _tile_key(board) -> list[dict]:
    """The codes the board's tiles show, each with its kind's name: the kinds laid, in §1's order."""
    laid = {c["type"] for c in board or []}
    return [k for k in TILE_KINDS if k["id"] in laid]


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
                          for i, c in enumerate(state["board"])], "bag": _bag(state)}
    if not turn["moved"]:
        opponents = [s for s in range(state["n"]) if s != seat and "Boaz" not in state["players"][s]["djinns"]]
        return out | {"fakirs": me["fakirs"], "cards": None if state["displays"] else CARDS,
                      "victim_seats": opponents, "iblis": "Iblis" in turn["used"],
                      "kandicha": "Kandicha" in me["djinns"], "all_cards": CARDS,
                      "stuck": state.get("meeples") is not None and not some_move_exists(state["meeples"]),
                      "draft": partial(draft, state) if state.get("meeples") is not None else None}
    compulsory = _compulsory(state, turn)
    sell_now = not compulsory or state["rules_version"] < 2   # §5: selling after the tile action
    return out | {"tile": turn["tile"], "tile_name": tile_name(turn["tile"]),
                  "action": None if turn["action"] or turn.get("sold") else _tile_action(state, turn, me),
                  "sell": [{"id": k, "label": GOODS[k]["label"], "max": n}
                           for k, n in me["goods"].items() if n] if sell_now else [],
                  "compulsory": compulsory}


def _tile_action(state, turn, me) -> dict | None:
    here = turn["tile"]
    kind = state["board"][here]["type"]
    action = TILES[kind]["action"]
    if action in ("palm", "palace"):
        supply = state["supply"]["palms" if action == "palm" else "palaces"]
        djinn = "Lamia" if action == "palm" else "Hagis"
        targets = [here] + (neighbours(here, diagonal=True) if djinn in turn["used"] else [])
        return {"kind": action, "targets": [{"index": tile_name(t), "name": tile_name(t)} for t in targets]} \
            if supply else None
    if action == "market":
        price, window, limit = (3, 3, 1) if kind == "small-market" else (6, 6, 2)
        if me["gold"] < price:
            return None
        row = state["card_row"][:window] if state["displays"] else list(CARD_KINDS)
        if state["displays"] and state["rules_version"] >= 2:
            limit = min(limit, len(row))   # §5: 2 cards at a large market, 1 only if one is left
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
        if not cost or name == "Kumarbi" or name in turn["used"] or [turn["seat"], name] in state.get("powers_used", []):
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
        return msg("Compulsory: a palm tree on this oasis.")
    if kind == "village" and state["supply"]["palaces"]:
        return msg("Compulsory: a palace on this village.")
    return None


def _refill(state) -> dict:
    if not state["displays"]:
        return {"djinn_slots": 0, "card_slots": 0}
    owned = {d for p in state["players"] for d in p["djinns"]} | set(state["djinn_row"])
    return {"djinn_slots": min(3 - len(state["djinn_row"]), djinns_left(state)),
            "card_slots": min(9 - len(state["card_row"]), cards_left(state)),
            "djinns": [d for d in DJINNS if d not in owned], "cards": CARDS}


TRIBE_CHOICES = [{"id": k, "label": v["label"], "colour": COLOURS[k]} for k, v in TRIBES.items()]


def _bag(state) -> dict | None:
    return in_bag(state) if state.get("meeples") is not None else None


def last_path(move: Move | None) -> list[int]:
    """The tiles a meeples-moved event passed, in order (the tile it ended on, when it
    names no path), as grid indexes."""
    if move is None:
        return []
    d = indexed(move.data)
    return d.get("path") or ([d["tile"]] if "tile" in d else [])


def _cells(state, path: list[int]) -> list[dict]:
    """The board view: each tile's kind, owner, palm trees, palaces, meeples by tribe, and the
    steps of the last move that passed it (``path``)."""
    steps: dict[int, list[int]] = {}
    for i, tile in enumerate(path):
        steps.setdefault(tile, []).append(i)
    meeples = state.get("meeples")
    return [{"index": i, "name": TILE_NAMES[i], "type": c["type"], "owner": c["owner"],
             "palms": len(c["palms"]), "palaces": len(c["palaces"]), "path": steps.get(i, []),
             "meeples": [(t, meeples[i][t]) for t in TRIBES if meeples[i].get(t)] if meeples else None}
            for i, c in enumerate(state["board"])]


# ---------------------------------------------------------------- a move tapped on the board

def draft(state: dict, raw_path: str | None, last: str | None = None, typed=None) -> dict:
    """A move being tapped (the path so far travels in the page's address, so it works without
    a script): the tiles that may be tapped next; once the path is whole, the meeples dropped
    along it as the table taps them one by one (``typed``: the form's ``drops`` so far, a
    tapped ``drop`` added or ``undrop`` taking the last back), completed only where the rules
    leave no choice — the app proposes no order of its own (§4) — and, once every drop is
    known, what the move does and what is left to choose (§4, §13). ``last`` is no longer
    read (pages of earlier versions asked which colour was taken)."""
    meeples = state["meeples"]
    path, refused = _tapped(meeples, raw_path or "")
    out = {"path": [TILE_NAMES[t] for t in path], "query": ".".join(TILE_NAMES[t] for t in path),
           "refused": refused, "refused_why": refused and tap_refusal(meeples, path, refused)}
    if not path:
        return out | {"hand": None, "taps": [TILE_NAMES[t] for t in range(CELLS)
                                              if hand_of(meeples, t) and can_end(meeples, [t])]}
    hand = hand_of(meeples, path[0])
    left = sum(hand.values()) - (len(path) - 1)
    out |= {"hand": [(t, hand[t]) for t in TRIBES if hand.get(t)], "left": left,
            "back": ".".join(TILE_NAMES[t] for t in path[:-1])}
    if left:
        taps = [n for n in _next_steps(path) if can_end(meeples, path + [n])]
        return out | {"taps": [TILE_NAMES[n] for n in taps],
                      "finals": {TILE_NAMES[n]: _final(state, path + [n]) for n in taps} if left == 1 else {}}
    tapped = tapped_drops(meeples, path, typed_drops(typed, len(path) - 1))
    drops, at = dropped(meeples, path, tapped)
    out |= {"taps": [], "tapped": ".".join(tapped), "undo": ".".join(tapped[:-1]) if tapped else None,
            "sequence": [{"tile": TILE_NAMES[tile], "tribe": drops[i] if i < len(drops) else None,
                          "tapped": i in at, "next": i == len(drops)} for i, tile in enumerate(path[1:])]}
    if len(drops) < len(path) - 1:
        return out | {"drops": None, "offer": _offer(state, path, drops, hand)}
    return out | {"drops": drops, "only": not tapped, "outcome": _outcome(state, path, drops)}


def _offer(state, path, drops, hand) -> list[dict]:
    """The meeples that may be dropped next, each with how many are still in hand and whether
    its tap records the move (every drop then known, and nothing left to choose)."""
    meeples = state["meeples"]
    held = Counter(hand) - Counter(drops)
    out = []
    for tribe in droppable(meeples, path, drops):
        whole = forced(meeples, path, drops + [tribe])
        done = len(whole) == len(path) - 1 and not _outcome(state, path, whole)["choices"]
        out.append({"tribe": tribe, "held": held[tribe], "records": done})
    return out


def _tapped(meeples, raw: str) -> tuple[list[int], str | None]:
    """The tapped tiles, as far as each was a legal tap, and the first one that was not (a
    stale or edited address is cut short there and the page says so)."""
    path: list[int] = []
    for word in raw.replace(",", ".").split(".")[:91]:
        tile = TILE_INDEX.get(word.strip().upper())
        ok = tile is not None and (hand_of(meeples, tile) if not path else tile in _next_steps(path))
        if not ok or not can_end(meeples, path + [tile]):
            return path, (word.strip().upper()[:3] or None)
        path.append(tile)
    return path, None


def tap_refusal(meeples, path: list[int], word: str) -> dict[str, str]:
    """Why the tile ``word`` may not be tapped after ``path`` (§4), in the player's words: the
    board shows it when such a tile is tapped, instead of doing nothing."""
    tile = TILE_INDEX.get(word)
    if tile is None:
        return msg("%(word)s: there is no such tile on the board.", word=word)
    if not path:
        if not hand_of(meeples, tile):
            return msg("%(word)s: there are no meeples on it to pick up.", word=word)
        return msg("%(word)s: no move from here can end legally (the last meeple must land where one of its colour stands).", word=word)
    here = TILE_NAMES[path[-1]]
    if sum(hand_of(meeples, path[0]).values()) == len(path) - 1:
        return msg("%(word)s: the path is complete – record the move or step back.", word=word)
    if tile == path[-1]:
        return msg("%(word)s: you are already there – tap the next tile.", word=word)
    if len(path) > 1 and tile == path[-2]:
        return msg("%(word)s: you just came from there – no stepping straight back.", word=word)
    if tile in neighbours(path[-1], diagonal=True) and tile not in neighbours(path[-1], diagonal=False):
        return msg("%(word)s is diagonal from %(here)s – steps go only up, down, left or right.", word=word, here=here)
    if tile not in neighbours(path[-1], diagonal=False):
        return msg("%(word)s is not next to %(here)s – one tile a step.", word=word, here=here)
    return msg("%(word)s: from there the move cannot end legally (the last meeple must land where one of its colour stands).", word=word)


def _next_steps(path) -> list[int]:
    """§4: a step goes to a tile beside (not diagonally), never straight back."""
    before = path[-2] if len(path) > 1 else None
    return [n for n in neighbours(path[-1], diagonal=False) if n != before]


def _final(state, path) -> dict | None:
    """The last tap records the move at once when nothing is left to choose: the rules leave
    one order of drops, and a tribe whose action needs no choice."""
    drops = forced(state["meeples"], path, [])
    if len(drops) < len(path) - 1:
        return None
    outcome = _outcome(state, path, drops)
    return {"drops": " ".join(drops)} if not outcome["choices"] else None


def _outcome(state, path, drops) -> dict | None:
    """What the move does (§4): the tribe and how many, the tile emptied and the camel, and the
    tribe's action: viziers and elders kept, the merchants' cards, the builders' gold, the
    assassins' possible victims."""
    if not drops:
        return None
    seat = state["next"]["seat"]
    me = state["players"][seat]
    done = walk(state["meeples"], path, drops)
    end, tribe, count = done["tile"], done["tribe"], done["count"]
    cell = state["board"][end]
    out = {"tile": TILE_NAMES[end], "tribe": tribe, "count": count, "emptied": done["emptied"],
           "camel": done["emptied"] and cell["owner"] is None and me["camels_left"] > 0,
           "choices": False, "fakirs": me["fakirs"]}
    if tribe == "merchant":
        out["cards"] = [card_label(k) for k in state["card_row"][:count]] if state["displays"] else None
        out["choices"] = not state["displays"]
    elif tribe == "builder":
        double = 2 if "Echidna" in state["next"]["used"] else 1
        out["blue"] = blue_around(state["board"], end)
        out["gold"] = out["blue"] * count * double
        out["choices"] = me["fakirs"] > 0
    elif tribe == "assassin":
        out["victims"] = _victims(state, seat, done["meeples"], end, count + me["fakirs"], count)
        out["choices"] = bool(out["victims"])
    return out


def _victims(state, seat, meeples, end, reach, count) -> list[dict]:
    """§4: a meeple within reach (fakirs lengthen it) or a vizier or elder in front of an opponent
    who does not own Boaz."""
    out = [{"value": f"tile:{TILE_NAMES[t]}:{tribe}", "tile": TILE_NAMES[t], "tribe": tribe,
            "colour": COLOURS[tribe], "fakirs": max(0, distance(t, end) - count)}
           for t, tribe in in_reach(meeples, end, reach)]
    for other, p in enumerate(state["players"]):
        if other != seat and "Boaz" not in p["djinns"]:
            out += [{"value": f"seat:{other}:{tribe}", "seat": other, "tribe": tribe, "colour": COLOURS[tribe],
                     "fakirs": 0} for tribe in ("vizier", "elder") if p[tribe + "s"]]
    return out


def board_parts(state: dict, view: dict, players: list[dict], seat: int | None = None, draft=None) -> list[dict]:
    """The sultanate by its parts (``Presentation.board_parts``; templates/games/five-tribes/_board_part.html):
    the heading with the move being tapped, each tile, the keys and supply, the turn order
    track, the displays, the players' mats, the score sheets in. ``draft``: the move this
    phone is tapping (``view["draft"]``), none tapped yet unless given; whether the board
    is drawn for one (its tiles links) is the frame's, a part with no id."""
    if draft is None and seat is not None and view.get("draft"):
        draft = view["draft"](None, None, {})
    shown = draft["path"] if draft and draft["path"] else []
    step = state["next"]
    frame = {"id": None, "board": state["board"] is not None, "tapping": draft is not None}
    cells = [{"id": f"ft-cell-{c['name']}", "is": "cell", "c": c,
              "here": step["step"] == "turn" and step.get("tile") == c["index"],
              "tap": bool(draft and c["name"] in draft["taps"]),
              "final": (draft.get("finals") or {}).get(c["name"]) if draft else None,
              "steps": [i for i, p in enumerate(shown) if p == c["name"]], "shown": bool(shown),
              "query": draft["query"] if draft else None} for c in view.get("cells") or []]
    bag = view.get("bag")
    return [frame, {"id": "ft-head", "is": "head", "round": state.get("round"), "draft": draft}, *cells,
            {"id": "ft-keys", "is": "keys", "tile_key": view.get("tile_key"), "tracked": view.get("tracked"),
             "bag": sum(bag.values()) if bag else None, "supply": state["supply"]},
            {"id": "ft-track", "is": "track", "bids": state["bids"], "track": state.get("track"), "step": step["step"],
             "turn_index": state.get("turn_index"), "turn_order": state.get("turn_order")},
            {"id": "ft-display", "is": "display", "displays": state["displays"], "djinns": state["djinn_row"],
             "cards": state["card_row"]},
            {"id": "ft-players", "is": "players", "players": state["players"]},
            {"id": "ft-sheets", "is": "sheets", "sheets": [bool(s) for s in state["sheets"]]}]
