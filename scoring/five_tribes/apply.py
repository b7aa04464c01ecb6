"""Five Tribes ``apply``: a move's effects on a copy of the state (never validates:
check.py has). Computed here: gold, camels and tile owners, builders' gold, passive
djinns' gold, turn order, game end; rule flow under ``state["next"]``."""
from __future__ import annotations

from scoring.base import Move, clone
from scoring.five_tribes.data import PAYMENTS, blue_around, bid_price, indexed, walk
from scoring.five_tribes.score import sheet_holdings, suit_layers


def apply(state: dict, move: Move) -> dict:
    s = clone(state)
    APPLY[move.type](s, Move(move.seq, move.type, indexed(move.data), move.seat))
    return s


def _note(s, seat, category, seq):
    s["src"][seat].setdefault(category, []).append(seq)


def _gold(s, seat, amount, seq):
    if amount:
        s["players"][seat]["gold"] += amount
        _note(s, seat, "gold", seq)


def _apply_board(s, move):
    d = move.data
    s["board"] = [{"type": t, "owner": None, "owned_at": None, "palms": [], "palaces": []} for t in d["tiles"]]
    s["displays"] = bool(d.get("djinns") or d.get("cards"))
    s["djinn_row"], s["card_row"] = list(d.get("djinns", [])), list(d.get("cards", []))
    if d.get("bid_order"):
        s["bid_order"] = list(d["bid_order"])
    s["meeples"] = [_counted(tile) for tile in d["meeples"]] if "meeples" in d else None   # §13
    _start_round(s)


def _counted(tribes: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for tribe in tribes:
        out[tribe] = out.get(tribe, 0) + 1
    return out


def _start_round(s):
    s["round"], s["bids"] = s["round"] + 1, []
    s["powers_used"] = []   # §6: a paid power once per round, [seat, djinn] pairs
    _next_bid(s)


def _next_bid(s):
    s["next"] = {"step": "bid", "seat": s["bid_order"][len(s["bids"])]}


def _apply_bid(s, move):
    seq, d = move.seq, move.data
    paid = bid_price(d["cost"], d.get("fakirs", 0))
    me = s["players"][d["seat"]]
    if d.get("fakirs"):
        me["fakirs"] -= d["fakirs"]
        _note(s, d["seat"], "goods", seq)
    _gold(s, d["seat"], -paid, seq)
    s["bids"].append({"seat": d["seat"], "cost": d["cost"], "paid": paid, "seq": seq})
    if len(s["bids"]) == len(s["bid_order"]):
        ranked = sorted(enumerate(s["bids"]), key=lambda ib: (-ib[1]["cost"], -ib[0]))
        s["turn_order"] = [b["seat"] for _, b in ranked]   # §3: a later 0-bid plays first
        s["track"] = [{"seat": b["seat"], "cost": b["cost"]} for _, b in ranked]   # the board's turn order track
        s["bid_order"] = list(s["turn_order"])              # §3: markers return in turn order
        s["turn_index"] = 0
        _start_turn(s)
    else:
        _next_bid(s)


def _start_turn(s):
    s["next"] = {"step": "turn", "seat": s["turn_order"][s["turn_index"]], "moved": False, "tile": None,
                 "tribe": None, "action": False, "used": [], "builder_gold": 0}


def _own_tile(s, seat, tile, seq):
    cell = s["board"][tile]
    me = s["players"][seat]
    if cell["owner"] is None and me["camels_left"] > 0:   # §4: a camel marks the owner
        cell["owner"], cell["owned_at"] = seat, seq
        me["camels_left"] -= 1
        if me["camels_left"] == 0:
            s["last_camel"] = True


def _add_cards(s, seat, cards, seq):
    me = s["players"][seat]
    for kind in cards:
        if kind == "fakir":
            me["fakirs"] += 1
        else:
            me["goods"][kind] = me["goods"].get(kind, 0) + 1
    if cards:
        _note(s, seat, "goods", seq)


def _take_from_row(s, cards):
    for kind in cards:
        if kind in s["card_row"]:
            s["card_row"].remove(kind)


def _passive_owner(s, name):
    for seat, p in enumerate(s["players"]):
        if name in p["djinns"]:
            return seat
    return None


def _bonus(s, djinn, actor, seq, times=1):
    """Ba'al, Marid, Monkir, Nekir: +1 gold to the owner for their own act, +2 for an opponent's."""
    owner = _passive_owner(s, djinn)
    if owner is not None and times:
        _gold(s, owner, times * (1 if owner == actor else 2), seq)


def _resolved(s, d) -> dict:
    """The move's tile, tribe, count, emptied and the tiles dropped on: computed from the
    meeples when the app tracks them (§13), else as the table entered them (§4)."""
    if s.get("meeples") is not None and "drops" in d:
        done = walk(s["meeples"], d["path"], d["drops"])
        s["meeples"] = done["meeples"]
        return done | {"dropped": d["path"][1:], "path": d["path"]}
    return {"tile": d["tile"], "tribe": d["tribe"], "count": d["count"], "emptied": d.get("emptied", False),
            "dropped": d.get("path", []), "path": d.get("path", [])}


def _apply_move(s, move):
    seq, d = move.seq, move.data
    turn = s["next"]
    done = _resolved(s, d)
    seat, tile, tribe, count = turn["seat"], done["tile"], done["tribe"], done["count"]
    me = s["players"][seat]
    turn.update(moved=True, tile=tile, tribe=tribe, count=count)
    marid = _passive_owner(s, "Marid")
    if marid is not None:
        _bonus(s, "Marid", seat, seq, sum(1 for t in done["dropped"] if s["board"][t]["owner"] == marid))
    if done["emptied"]:
        _own_tile(s, seat, tile, seq)
    fakirs = d.get("fakirs", 0)
    if fakirs:
        me["fakirs"] -= fakirs
        _note(s, seat, "goods", seq)
    if tribe in ("vizier", "elder"):
        me[tribe + "s"] += count
        _note(s, seat, tribe + "s", seq)
    elif tribe == "merchant":
        cards = s["card_row"][:count] if s["displays"] else d.get("cards", [])
        _take_from_row(s, cards)
        _add_cards(s, seat, cards, seq)
    elif tribe == "builder":
        gold = blue_around(s["board"], tile) * (count + fakirs) * (2 if "Echidna" in turn["used"] else 1)
        turn["builder_gold"] = gold
        _gold(s, seat, gold, seq)
    elif tribe == "assassin":
        _apply_victims(s, seat, d.get("victims", []), seq)


def _apply_victims(s, seat, victims, seq):
    me = s["players"][seat]
    kandicha = "Kandicha" in me["djinns"]
    for v in victims:
        if "seat" in v:
            s["players"][v["seat"]][v["tribe"] + "s"] -= 1
            _note(s, v["seat"], v["tribe"] + "s", seq)
        if "tile" in v and s.get("meeples") is not None:
            on = s["meeples"][v["tile"]]
            on[v["tribe"]] -= 1
            if not on[v["tribe"]]:
                del on[v["tribe"]]
            v = v | {"emptied": not any(on.values())}   # §13: the app sees the tile emptied
        if kandicha and v["tribe"] in ("vizier", "elder"):
            me[v["tribe"] + "s"] += 1
            _note(s, seat, v["tribe"] + "s", seq)
        elif kandicha and v["tribe"] == "builder" and "tile" in v:
            echidna = 2 if "Echidna" in s["next"]["used"] else 1   # §6 Kandicha: doubled by Echidna
            _gold(s, seat, blue_around(s["board"], v["tile"]) * echidna, seq)
        elif kandicha and v["tribe"] == "merchant" and v.get("card"):
            _add_cards(s, seat, [v["card"]], seq)
        if "tile" in v and v.get("emptied"):
            _own_tile(s, seat, v["tile"], seq)   # §4: a tile emptied by the kill is taken
    _bonus(s, "Nekir", seat, seq, len(victims))   # §6: per meeple killed


def _place(s, seq, tile, what):
    key = "palms" if what == "palm" else "palaces"
    s["board"][tile][key].append(seq)
    s["supply"][key] -= 1
    if what == "palace":
        _bonus(s, "Monkir", s["next"]["seat"], seq)


def _apply_palm(s, move):
    seq, d = move.seq, move.data
    _place(s, seq, d["tile"], "palm")
    s["next"]["action"] = True


def _apply_palace(s, move):
    seq, d = move.seq, move.data
    _place(s, seq, d["tile"], "palace")
    s["next"]["action"] = True


def _apply_buy(s, move):
    seq, d = move.seq, move.data
    seat = s["next"]["seat"]
    price = 3 if s["board"][s["next"]["tile"]]["type"] == "small-market" else 6
    _gold(s, seat, -price, seq)
    _take_from_row(s, d["cards"])
    _add_cards(s, seat, d["cards"], seq)
    s["next"]["action"] = True


def _pay(s, seat, pay, seq):
    me = s["players"][seat]
    need = PAYMENTS[pay]
    me["elders"] -= need["elders"]
    me["fakirs"] -= need["fakirs"]
    if need["elders"]:
        _note(s, seat, "elders", seq)
    if need["fakirs"]:
        _note(s, seat, "goods", seq)


def _gain_djinn(s, seat, name, seq):
    s["players"][seat]["djinns"].append(name)
    _note(s, seat, "djinns", seq)
    if name in s["djinn_row"]:
        s["djinn_row"].remove(name)
    _bonus(s, "Ba'al", seat, seq)


def _apply_djinn_taken(s, move):
    seq, d = move.seq, move.data
    seat = s["next"]["seat"]
    _pay(s, seat, d["pay"], seq)
    _gain_djinn(s, seat, d["djinn"], seq)
    s["next"]["action"] = True


def _apply_djinn_used(s, move):
    seq, d = move.seq, move.data
    turn = s["next"]
    seat, name = turn["seat"], d["djinn"]
    _pay(s, seat, d["pay"], seq)
    turn["used"].append(name)
    s["powers_used"].append([seat, name])
    if name == "Bouraq":
        _place(s, seq, d["tile"], "palace")
    elif name == "Enki":
        _place(s, seq, d["tile"], "palm")
    elif name == "Echidna" and turn["builder_gold"]:
        _gold(s, seat, turn["builder_gold"], seq)   # used after the builders: their gold once more
    elif name in ("Leta", "Utug"):
        _own_tile(s, seat, d["tile"], seq)
    elif name == "Anun-Nak" and s.get("meeples") is not None:
        s["meeples"][d["tile"]] = _counted(d["meeples"])   # §13: 3 meeples from the bag
    elif name == "Sibittis":
        _gain_djinn(s, seat, d["keep"], seq)
    elif name == "Sloar":
        _add_cards(s, seat, [d["card"]], seq)


def _apply_sale(s, move):
    seq, d = move.seq, move.data
    seat = s["next"]["seat"]
    me = s["players"][seat]
    for kind, n in d["goods"].items():
        me["goods"][kind] = me["goods"].get(kind, 0) - n
        if not me["goods"][kind]:
            del me["goods"][kind]
    _note(s, seat, "goods", seq)
    _gold(s, seat, sum(suit_layers(d["goods"])), seq)
    s["next"]["sold"] = True   # §5: selling comes after the tile action


def _apply_turn_end(s, move):
    d = move.data
    if d.get("no_move"):
        s["no_moves"] = True
    s["turn_index"] += 1
    if s["turn_index"] < len(s["turn_order"]):
        _start_turn(s)
    else:
        s["next"] = {"step": "refill"}


def _apply_round_end(s, move):
    d = move.data
    s["djinn_row"] += d.get("djinns", [])
    s["card_row"] += d.get("cards", [])
    if s["last_camel"] or s["no_moves"]:   # §10: the round is finished, then scoring
        s["next"], s["over"] = {"step": "over"}, True
    else:
        _start_round(s)


def _apply_sheet(s, move):
    seq, d = move.seq, move.data
    s["sheets"][d["seat"]] = {"seq": seq, "holdings": sheet_holdings(d), "data": dict(d)}
    if all(s["sheets"]):
        s["next"], s["over"] = {"step": "over"}, True


APPLY = {"board-laid": _apply_board, "bid-placed": _apply_bid, "meeples-moved": _apply_move,
         "palm-placed": _apply_palm, "palace-placed": _apply_palace, "goods-bought": _apply_buy,
         "djinn-taken": _apply_djinn_taken, "djinn-used": _apply_djinn_used, "goods-sold": _apply_sale,
         "turn-ended": _apply_turn_end, "round-ended": _apply_round_end, "sheet-entered": _apply_sheet}

