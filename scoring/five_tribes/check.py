"""Five Tribes refusals: ``check`` says which rule a move breaks, in Hungarian and English,
citing docs/rules/five-tribes.md §n. ``apply`` (apply.py) never validates.
"""
from __future__ import annotations

from collections import Counter

from scoring.base import Move, Problem, Text
from scoring.five_tribes.data import (BID_SPOTS, CELLS, COLOURS, DJINNS, FAKIRS, GOODS, PALACES,
                                      PALM_TREES, PAYMENTS, TILES, TRIBES, bid_price, deal, distance,
                                      hand_of, in_reach, indexed, neighbours, rule, some_move_exists,
                                      tile_name, walk)
from scoring.five_tribes.score import djinn_owner, holdings_all, sheet_holdings
from scoring.i18n import joined, msgp
from scoring.i18n import msg


OVER = Problem(rule(10), msg("The game has already ended."))
SHEET_STARTED = Problem(rule(8), msg("The game is being finished on the score sheet: only sheet entries now."))
NO_BOARD = Problem(rule(2), msg("Lay the sultanate first."))
BIDDING = Problem(rule(3), msg("Bidding for turn order is under way, not a turn."))
REFILL = Problem(rule(10), msg("Every turn of the round is played: refill the displays."))


def check(state: dict, move: Move) -> list[Problem]:
    move = Move(move.seq, move.type, indexed(move.data), move.seat)
    return _gate(state, move.type) or CHECKS[move.type](state, move)


def _new_rules(state) -> bool:
    """Rules version 2 (§14): games recorded before keep the checks they were played with."""
    return state["rules_version"] >= 2


def _gate(state, kind) -> list[Problem]:
    """What no move may do whatever it is: play on after the end, beside the score sheet,
    before the sultanate is laid, or a turn's move outside a turn."""
    if state["over"]:
        return [OVER]
    if kind == "sheet-entered":
        return []
    if any(state["sheets"]):
        return [SHEET_STARTED]
    if kind == "board-laid":
        return []
    if state["board"] is None:
        return [NO_BOARD]
    if kind in ("bid-placed", "round-ended"):
        return []
    step = state["next"]["step"]
    if step != "turn":
        return [BIDDING if step == "bid" else REFILL]
    return []


def _check_board(state, move) -> list[Problem]:
    d = move.data
    if state["board"] is not None:
        return [Problem(rule(2), msg("The sultanate is already laid."))]
    problems = []
    laid = Counter(d["tiles"])
    wrong = [k for k, v in TILES.items() if laid[k] != v["count"]]
    if len(d["tiles"]) != CELLS or wrong:
        off = joined(", ", [msg("%(tile)s %(laid)s (not %(count)s)", tile=TILES[k]["label"], laid=laid[k], count=TILES[k]["count"])
                            for k in wrong])
        problems.append(Problem(rule(1), msg("These are not the 30 tiles: %(off)s.", off=off)))
    if d.get("djinns") or d.get("cards"):
        problems += _check_display(state, [], d.get("djinns", []), [], d.get("cards", []), exact=True)
    if "meeples" in d:
        problems += _check_laid_meeples(d)
    elif "seed" in d:
        problems.append(Problem(rule(2), msg("A dealing seed comes with the meeples it dealt.")))
    order = d.get("bid_order")
    if order is not None and sorted(order) != sorted(state["bid_order"]):
        problems.append(Problem(rule(2), msg("The bid order must hold every turn marker once.")))
    return problems


def _check_laid_meeples(d) -> list[Problem]:
    """§2: 3 meeples on each tile, 16 yellow, 20 white, 18 green, 18 blue, 18 red in all;
    a dealt board is exactly the deal of its recorded seed."""
    laid = Counter(t for tile in d["meeples"] for t in tile)
    off = [t for t, v in TRIBES.items() if laid[t] != v["count"]]
    if off:
        said = joined(", ", [(msg("%(colour)s %(laid)s (%(by)s, too many)", colour=COLOURS[t], laid=laid[t], by=f"{laid[t] - TRIBES[t]['count']:+d}")
                              if laid[t] > TRIBES[t]["count"] else
                              msg("%(colour)s %(laid)s (%(by)s, too few)", colour=COLOURS[t], laid=laid[t], by=f"{laid[t] - TRIBES[t]['count']:+d}"))
                             for t in off])
        return [Problem(rule(2), msg("The meeples' colours are off (16 yellow, 20 white, 18 green, 18 blue, 18 red): %(said)s.", said=said))]
    if "seed" in d and deal(d["seed"]) != (list(d["tiles"]), [list(m) for m in d["meeples"]]):
        return [Problem(rule(2), msg("This is not the deal of seed %(seed)s.", seed=d['seed']))]
    return []


def _check_display(state, djinn_row, new_djinns, card_row, new_cards, exact) -> list[Problem]:
    problems = []
    djinns = djinn_row + new_djinns
    if len(djinns) > 3 or (exact and len(djinns) != 3) or len(set(djinns)) != len(djinns) \
            or any(djinn_owner(state, dj) is not None for dj in new_djinns):
        problems.append(Problem(rule(2), msg("3 different djinns nobody owns are on display.")))
    cards = card_row + new_cards
    if len(cards) > 9 or (exact and len(cards) != 9):
        problems.append(Problem(rule(2), msg("9 resource cards are on display.")))
    problems += _card_supply(state, Counter(new_cards))
    return problems


def _card_supply(state, extra: Counter, skip_seat: int | None = None) -> list[Problem]:
    """Cards by kind in hands and on display never exceed the 54 cards (§1)."""
    held = Counter(state["card_row"]) + extra
    for seat, h in enumerate(holdings_all(state)):
        if seat != skip_seat:
            held += Counter(h["goods"])
            held["fakir"] += h["fakirs"]
    over = [k for k, n in held.items() if n > (FAKIRS if k == "fakir" else GOODS[k]["count"])]
    if over:
        return [Problem(rule(1), msg("There are not that many cards: %(value)s.", value=', '.join(over)))]
    return []


def _check_bid(state, move) -> list[Problem]:
    d = move.data
    if state["next"]["step"] != "bid":
        return [Problem(rule(3), msg("It is not time to bid."))]
    seat, cost = d["seat"], d["cost"]
    expected = state["bid_order"][len(state["bids"])]
    if seat != expected:
        return [Problem(rule(3), msg("Another player bids next, by the bid order."))]
    problems = []
    taken = [b["cost"] for b in state["bids"]]
    if cost not in BID_SPOTS:
        problems.append(Problem(rule(3), msg("There is no such spot on the track.")))
    elif cost == 0 and taken.count(0) >= 3:
        problems.append(Problem(rule(3), msg("At most three markers on 0: bid at least 1.")))
    elif cost and cost in taken:
        problems.append(Problem(rule(3), msg("That spot is taken.")))
    fakirs = d.get("fakirs", 0)
    me = state["players"][seat]
    if fakirs and ("Kumarbi" not in me["djinns"] or fakirs > me["fakirs"]):
        problems.append(Problem(rule(6), msg("Only Kumarbi's owner lowers a bid with fakirs they hold.")))
    if not problems and me["gold"] < bid_price(cost, fakirs):
        problems.append(_no_gold())
    return problems


def _no_gold(section: int = 3) -> Problem:
    return Problem(rule(section), msg("Gold can never go below zero."))


def _check_round_end(state, move) -> list[Problem]:
    d = move.data
    if state["next"]["step"] != "refill":
        return [Problem(rule(10), msg("The round ends only after the last turn."))]
    djinns, cards = d.get("djinns", []), d.get("cards", [])
    if not state["displays"]:
        if djinns or cards:
            return [Problem(rule(2), msg("This table does not track the displays."))]
        return []
    problems = _check_display(state, state["djinn_row"], djinns, state["card_row"], cards, exact=False)
    return problems or (_refill_size(state, djinns, cards) if _new_rules(state) else [])


def _refill_size(state, djinns, cards) -> list[Problem]:
    """§10: the rows are refilled to 9 cards and 3 djinns, fewer only when no card is left to draw."""
    want_cards = min(9 - len(state["card_row"]), cards_left(state))
    want_djinns = min(3 - len(state["djinn_row"]), djinns_left(state))
    problems = []
    if len(cards) != want_cards:
        problems.append(Problem(rule(10), msg("The card row is refilled to 9: %(want_cards)s new cards are needed, %(count)s were entered.", want_cards=want_cards, count=len(cards))))
    if len(djinns) != want_djinns:
        problems.append(Problem(rule(10), msg("The djinn row is refilled to 3: %(want_djinns)s new djinns are needed, %(count)s were entered.", want_djinns=want_djinns, count=len(djinns))))
    return problems


def cards_left(state) -> int:
    """Cards that can still be drawn: the 54 less those on display and in hands (§10; the
    discards are shuffled back when the pile runs out)."""
    held = sum(sum(h["goods"].values()) + h["fakirs"] for h in holdings_all(state))
    return sum(v["count"] for v in GOODS.values()) + FAKIRS - len(state["card_row"]) - held


def djinns_left(state) -> int:
    owned = sum(len(h["djinns"]) for h in holdings_all(state))
    return len(DJINNS) - owned - len(state["djinn_row"])


def _check_move(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    if turn["moved"]:
        return [Problem(rule(4), msg("The meeples have already moved this turn."))]
    if state.get("meeples") is not None:
        problems = _check_path(state["meeples"], d)
        if problems:
            return problems
        done = walk(state["meeples"], d["path"], d["drops"])
        problems = _check_claims(d, done)
        if problems:
            return problems
        d = d | {k: done[k] for k in ("tile", "tribe", "count", "emptied")}
        return _check_tribe(state, turn, d, done["meeples"])
    missing = [k for k in ("tile", "tribe", "count") if k not in d]
    if missing or "drops" in d:
        return [Problem(rule(13), msg("This game does not track the meeples: give the tile, the tribe and how many were taken (missing: %(value)s).", value=', '.join(missing) or '–'))]
    return _check_tribe(state, turn, d, None)


def _check_path(meeples, d) -> list[Problem]:
    """§4: the path from the start tile, one meeple dropped on each tile after it, never
    diagonally, never straight back, the last meeple's tribe already on the end tile."""
    path, drops = d.get("path", []), d.get("drops")
    if drops is None or len(path) < 2:
        return [_path_problem(msg("Tap the start tile, then each step (2 tiles at least)."))]
    start, hand = tile_name(path[0]), hand_of(meeples, path[0])
    picked = sum(hand.values())
    if not picked:
        return [_path_problem(msg("%(start)s is empty: a move starts on a tile with meeples.", start=start))]
    if len(path) - 1 != picked or len(drops) != picked:
        return [_path_problem(msg("%(start)s holds %(picked)s meeples, so the path takes %(picked)s steps (it has %(value)s steps and %(count)s meeples dropped).", start=start, picked=picked, value=len(path) - 1, count=len(drops)))]
    return _step_problems(path) or drop_problems(meeples, path, drops, hand)


def _path_problem(message: Text) -> Problem:
    return Problem(rule(4), message)


def _step_problems(path) -> list[Problem]:
    for i, (a, b) in enumerate(zip(path, path[1:])):
        if distance(a, b) != 1:
            return [_path_problem(msg("%(value)s → %(value2)s: a step goes to a tile beside, never diagonally.", value=tile_name(a), value2=tile_name(b)))]
        if i and b == path[i - 1]:
            return [_path_problem(msg("%(value)s → %(value2)s: never straight back to the tile just left.", value=tile_name(a), value2=tile_name(b)))]
    return []


def drop_problems(meeples, path, drops, hand) -> list[Problem]:
    """§4: the meeples dropped are those picked up, and the last one lands where its tribe stands."""
    if Counter(drops) != Counter(hand):
        return [_path_problem(msg("The meeples dropped (%(dropped)s) are not those picked up (%(picked)s).", dropped=_tribes(Counter(drops)), picked=_tribes(Counter(hand))))]
    if walk(meeples, path, drops)["count"] < 2:
        last, end = COLOURS[drops[-1]], tile_name(path[-1])
        return [_path_problem(msg("The last meeple (%(last)s) goes on %(end)s, where no %(last)s meeple stands.", last=last, end=end))]
    return []


def _tribes(counts) -> dict[str, str]:
    """Meeples counted by colour, in every language: "2 yellow, 1 red"."""
    return joined(", ", [joined(" ", [n, COLOURS[t]]) for t, n in sorted(counts.items())])


def _check_claims(d, done) -> list[Problem]:
    """§13: what the app computes from the meeples may be sent along, but must agree."""
    wrong = [k for k in ("tile", "tribe", "count", "emptied") if k in d and d[k] != done[k]]
    if not wrong:
        return []
    said = joined(", ", [msg("%(field)s %(done)s (%(given)s given)", field=k, done=_shown(k, done[k]), given=_shown(k, d[k]))
                         for k in wrong])
    return [Problem(rule(13), msg("By the meeples the move gives otherwise: %(said)s.", said=said))]


def _shown(key, value) -> str:
    return tile_name(value) if key == "tile" else str(value).lower()


def _check_tribe(state, turn, d, meeples_after) -> list[Problem]:
    seat, me = turn["seat"], state["players"][turn["seat"]]
    tribe, count, fakirs = d["tribe"], d["count"], d.get("fakirs", 0)
    problems = []
    if not 2 <= count <= TRIBES[tribe]["count"]:
        problems.append(Problem(rule(4), msg("At least 2 meeples of one colour are picked up (and no more than exist).")))
    if tribe in ("vizier", "elder"):
        kept = sum(p[tribe + "s"] for p in holdings_all(state)) + count
        if kept > TRIBES[tribe]["count"]:
            problems.append(_meeple_supply(tribe))
    if fakirs and (tribe not in ("builder", "assassin") or fakirs > me["fakirs"]):
        problems.append(Problem(rule(4), msg("Fakirs are discarded only for builders or assassins, from your hand.")))
    path = d.get("path", []) if meeples_after is None else []
    if path and (path[-1] != d["tile"] or any(distance(a, b) != 1 for a, b in zip(path, path[1:]))):
        problems.append(Problem(rule(4), msg("The path steps orthogonally from tile to tile and ends on the move's tile.")))
    elif path and _new_rules(state):
        problems += _step_problems(path)
    if tribe == "merchant":
        problems += _check_merchant(state, d, count)
    elif d.get("cards"):
        problems.append(Problem(rule(4), msg("Only merchants take cards.")))
    if tribe == "assassin":
        problems += _check_victims(state, turn, d, count + fakirs, meeples_after)
    elif d.get("victims"):
        problems.append(Problem(rule(4), msg("Only assassins kill.")))
    return problems


def _meeple_supply(tribe):
    return Problem(rule(1), msg("There are only %(count)s %(label)s meeples.", count=TRIBES[tribe]['count'], label=TRIBES[tribe]['label']))


def _check_merchant(state, d, count) -> list[Problem]:
    cards = d.get("cards", [])
    if state["displays"]:
        if cards and cards != state["card_row"][:count]:
            return [Problem(rule(4), msg("Merchants take the cards from the front of the row."))]
        return []
    if len(cards) > count:
        return [Problem(rule(4), msg("Take as many cards as merchants."))]
    return _card_supply(state, Counter(cards))


def _check_victims(state, turn, d, reach, meeples_after) -> list[Problem]:
    victims = d.get("victims", [])
    seat = turn["seat"]
    if len(victims) > (2 if "Iblis" in turn["used"] else 1):
        return [Problem(rule(4), msg("Assassins kill ONE meeple (two with Iblis)."))]
    if len(victims) == 2 and not _same_target(victims):
        return [Problem(rule(6), msg("Iblis: 2 meeples on the same tile, or of the same opponent."))]
    problems, lost = [], Counter()
    for v in victims:
        if ("tile" in v) == ("seat" in v):
            problems.append(Problem(rule(4), msg("The victim is either on a tile or in front of a player.")))
        elif "tile" in v:
            steps = distance(v["tile"], d["tile"])
            if steps > reach:
                problems.append(Problem(rule(4), msg("The victim (%(value)s) is %(steps)s steps away, the reach is %(reach)s (no diagonal steps).", value=tile_name(v['tile']), steps=steps, reach=reach)))
            elif meeples_after is not None:
                lost[(v["tile"], v["tribe"])] += 1
                if meeples_after[v["tile"]].get(v["tribe"], 0) < lost[(v["tile"], v["tribe"])]:
                    colour = COLOURS[v["tribe"]]
                    problems.append(Problem(rule(4), msg("No %(colour)s meeple (enough) on %(value)s.", colour=colour, value=tile_name(v['tile']))))
        elif "seat" in v:
            other = v["seat"]
            if other == seat or not 0 <= other < state["n"] or v["tribe"] not in ("vizier", "elder"):
                problems.append(Problem(rule(4), msg("The victim is a vizier or elder in front of an opponent.")))
                continue
            lost[(other, v["tribe"])] += 1
            if state["players"][other][v["tribe"] + "s"] < lost[(other, v["tribe"])]:
                problems.append(Problem(rule(4), msg("That player has no such meeple.")))
            if "Boaz" in state["players"][other]["djinns"]:
                problems.append(Problem(rule(6), msg("Boaz protects that player's viziers and elders.")))
    return problems


def _same_target(victims) -> bool:
    a, b = victims
    return ("tile" in a and a.get("tile") == b.get("tile")) or ("seat" in a and a.get("seat") == b.get("seat"))


def _after_move(turn) -> list[Problem]:
    if not turn["moved"]:
        return [Problem(rule(5), msg("Move the meeples first."))]
    return []


def _check_palm(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    return _check_building(state, turn, d, "palm", "Lamia", "palms")


def _check_palace(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    return _check_building(state, turn, d, "palace", "Hagis", "palaces")


def _check_building(state, turn, d, what, djinn, supply) -> list[Problem]:
    problems = _after_move(turn) or _action_free(state, turn, what)
    if problems:
        return problems
    here = turn["tile"]
    if d["tile"] != here and not (djinn in turn["used"] and d["tile"] in neighbours(here, diagonal=True)):
        problems.append(Problem(rule(6), msg("The tile action places it on this tile (a neighbour only with %(djinn)s).", djinn=djinn)))
    if state["supply"][supply] <= 0:
        problems.append(_supply_out(what))
    return problems


def _supply_out(what) -> Problem:
    return Problem(rule(5), msg("No palm tree is left in the supply.") if what == "palm"
                   else msg("No palace is left in the supply."))


def _action_free(state, turn, action) -> list[Problem]:
    if turn["action"]:
        return [Problem(rule(5), msg("The tile action is taken once."))]
    if turn.get("sold"):
        return [Problem(rule(5), msg("After a sale no tile action is left: selling goods is the turn's last action."))]
    if TILES[state["board"][turn["tile"]]["type"]]["action"] != action:
        return [Problem(rule(5), msg("This tile has another action."))]
    return []


def _check_buy(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    problems = _after_move(turn) or _action_free(state, turn, "market")
    if problems:
        return problems
    kind = state["board"][turn["tile"]]["type"]
    cards = d["cards"]
    limit, window, price = (1, 3, 3) if kind == "small-market" else (2, 6, 6)
    shown = len(state["card_row"][:window])
    if state["displays"] and _new_rules(state) and len(cards) != min(limit, shown):
        problems.append(Problem(rule(5), msg("Here %(value)s card(s) are taken from the first %(window)s (%(shown)s shown), not %(count)s.", value=min(limit, shown), window=window, shown=shown, count=len(cards))))
    elif not 1 <= len(cards) <= limit:
        problems.append(Problem(rule(5), msg("Here you buy %(limit)s card(s).", limit=limit)))
    if state["displays"] and Counter(cards) - Counter(state["card_row"][:window]):
        problems.append(Problem(rule(5), msg("Buy from the first %(window)s visible cards.", window=window)))
    elif not state["displays"]:
        problems += _card_supply(state, Counter(cards))
    gold = state["players"][turn["seat"]]["gold"]
    if gold < price:
        problems.append(Problem(rule(5), msg("The purchase costs %(price)s gold; there is %(gold)s.", price=price, gold=gold)))
    return problems


def _check_djinn_taken(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    problems = _after_move(turn) or _action_free(state, turn, "djinn")
    if problems:
        return problems
    problems += _pay_problems(state["players"][turn["seat"]], d["pay"], ("elders", "elder-fakir"), rule(5))
    return problems + _djinn_free(state, d["djinn"], from_row=True)


def _djinn_free(state, name, from_row) -> list[Problem]:
    if djinn_owner(state, name) is not None:
        return [Problem(rule(7), msg("Somebody already owns this djinn."))]
    if from_row and state["displays"] and name not in state["djinn_row"]:
        return [Problem(rule(5), msg("Choose one of the djinns on display."))]
    if not from_row and name in state["djinn_row"]:
        return [Problem(rule(6), msg("The drawn djinn is not one of those on display."))]
    return []


def _pay_problems(me, pay, allowed, cite: str) -> list[Problem]:
    if pay not in allowed:
        return [Problem(cite, msg("That is not a valid payment."))]
    need = PAYMENTS[pay]
    if me["elders"] < need["elders"] or me["fakirs"] < need["fakirs"]:
        return [Problem(cite, msg("Not enough elders or fakirs to pay."))]
    return []


def _check_djinn_used(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    name, seat = d["djinn"], turn["seat"]
    me = state["players"][seat]
    cost = DJINNS[name]["cost"]
    if name not in me["djinns"]:
        return [Problem(rule(5), msg("Only the owner uses a djinn's power, on their own turn."))]
    if not cost or name == "Kumarbi":
        return [Problem(rule(6), msg("This djinn has no power to call: it works by itself."))]
    if _new_rules(state) and [seat, name] in state.get("powers_used", []):
        return [Problem(rule(6), msg("%(name)s's power was already used this round: once per round (with 2 players, across both of your turns).", name=name))]
    if name in turn["used"]:
        return [Problem(rule(5), msg("A paid power is used once per turn."))]
    problems = _pay_problems(me, d["pay"], cost, rule(6))
    return problems + DJINN_CHECKS.get(name, _no_argument)(state, move)


def _no_argument(state, move) -> list[Problem]:
    return []


def _tile_arg(d) -> list[Problem]:
    if "tile" not in d:
        return [Problem(rule(6), msg("Name the tile."))]
    return []


def _djinn_place(tile_type, supply, what):
    def check_(state, move):
        d = move.data
        problems = _tile_arg(d)
        if problems:
            return problems
        if state["board"][d["tile"]]["type"] != tile_type:
            problems.append(Problem(rule(6), msg("Not the right kind of tile.")))
        if state["supply"][supply] <= 0:
            problems.append(_supply_out(what))
        return problems
    return check_


def _djinn_claim(takes_camel: bool, empty: bool):
    """Anun-Nak, Leta, Utug: a tile with no camel, palm tree or palace; Anun-Nak's and Leta's
    without meeples too (checked when the app tracks the meeples, §13)."""
    def check_(state, move):
        turn, d = state["next"], move.data
        problems = _tile_arg(d)
        if problems:
            return problems
        cell = state["board"][d["tile"]]
        if cell["owner"] is not None or cell["palms"] or cell["palaces"]:
            problems.append(Problem(rule(6), msg("The tile must have no camel, palm tree or palace.")))
        if takes_camel and state["players"][turn["seat"]]["camels_left"] <= 0:
            problems.append(Problem(rule(4), msg("You have no camel left.")))
        if empty and state.get("meeples") is not None:
            problems += _empty_tile(state["meeples"], d["tile"])
        return problems
    return check_


def _empty_tile(meeples, tile) -> list[Problem]:
    standing = sum(meeples[tile].values())
    if standing:
        return [Problem(rule(6), msg("%(value)s is not empty: %(standing)s meeples stand on it.", value=tile_name(tile), standing=standing))]
    return []


def _check_anun_nak(state, move):
    problems = _djinn_claim(False, empty=True)(state, move)
    if state.get("meeples") is None or problems:
        return problems
    drawn = move.data.get("meeples")
    if drawn is None:
        return [Problem(rule(13), msg("Anun-Nak: give the colours of the 3 meeples drawn from the bag."))]
    bag = in_bag(state)
    short = [t for t, n in Counter(drawn).items() if n > bag.get(t, 0)]
    if short:
        left = Counter({t: bag.get(t, 0) for t in short})
        return [Problem(rule(13), msg("The bag does not hold that many: %(left)s", left=_tribes(left)))]
    return []


def in_bag(state) -> dict[str, int]:
    """§13: the meeples in the bag: all 90 less those on the tiles and the viziers and elders kept."""
    out = {t: v["count"] - sum(m.get(t, 0) for m in state["meeples"]) for t, v in TRIBES.items()}
    for p in state["players"]:
        out["vizier"] -= p["viziers"]
        out["elder"] -= p["elders"]
    return out


def _check_sibittis(state, move):
    d = move.data
    if "keep" not in d:
        return [Problem(rule(6), msg("Name the djinn kept."))]
    return _djinn_free(state, d["keep"], from_row=False)


def _check_sloar(state, move):
    d = move.data
    if "card" not in d:
        return [Problem(rule(6), msg("Name the card drawn."))]
    return _card_supply(state, Counter([d["card"]]))


DJINN_CHECKS = {
    "Bouraq": _djinn_place("village", "palaces", "palace"),
    "Enki": _djinn_place("oasis", "palms", "palm"),
    "Anun-Nak": _check_anun_nak, "Leta": _djinn_claim(True, empty=True), "Utug": _djinn_claim(True, empty=False),
    "Sibittis": _check_sibittis, "Sloar": _check_sloar,
}


def _check_sale(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    problems = _after_move(turn) or (_tile_action_pending(state, turn) if _new_rules(state) else [])
    me = state["players"][turn["seat"]]
    if not any(d["goods"].values()):
        problems.append(Problem(rule(5), msg("Sell at least one good.")))
    if any(n > me["goods"].get(k, 0) for k, n in d["goods"].items()):
        problems.append(Problem(rule(5), msg("Sell only goods you hold (never fakirs).")))
    return problems


def _check_turn_end(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    if d.get("no_move"):
        if turn["moved"]:
            return [Problem(rule(10), msg("You moved, so there was a legal move."))]
        if state.get("meeples") is not None and some_move_exists(state["meeples"]):
            return [Problem(rule(10), msg("A legal move is left on the board: the meeples must move."))]
        return []
    if not turn["moved"]:
        return [Problem(rule(4), msg("Move the meeples, or declare that no legal move remains."))]
    return _tile_action_pending(state, turn)


def _tile_action_pending(state, turn) -> list[Problem]:
    """§5: the oasis' palm tree and the village's palace are compulsory while the supply lasts;
    the turn cannot end, nor goods be sold, before."""
    kind = state["board"][turn["tile"]]["type"]
    for tile_type, supply, said in (("oasis", "palms", msg("Compulsory: place a palm tree on this tile (%(tile)s).", tile=tile_name(turn["tile"]))),
                                    ("village", "palaces", msg("Compulsory: place a palace on this tile (%(tile)s).", tile=tile_name(turn["tile"])))):
        if kind == tile_type and not turn["action"] and state["supply"][supply] > 0:
            return [Problem(rule(5), said)]
    return []



# ---------------------------------------------------------------- sheets

SUPPLY_WORDS = {"viziers": msgp("supply", "viziers"), "elders": msgp("supply", "elders"),
                "palms": msgp("supply", "palm trees"), "palaces": msgp("supply", "palaces")}


def check_sheet(state, move) -> list[Problem]:
    d = move.data
    seat = d["seat"]
    if not 0 <= seat < state["n"]:
        return [Problem(rule(8), msg("There is no such player."))]
    if state["sheets"][seat] is not None:
        return [Problem(rule(8), msg("This player's sheet is in; void it to correct it."))]
    problems = []
    if len(set(d["djinns"])) != len(d["djinns"]):
        problems.append(Problem(rule(7), msg("A djinn is listed once.")))
    others = [h for i, h in enumerate(holdings_all(state)) if i != seat]
    mine = sheet_holdings(d)
    owned = {dj for h in others for dj in h["djinns"]}
    if owned & set(d["djinns"]):
        problems.append(Problem(rule(7), msg("Already owned by another player: %(value)s.", value=', '.join(sorted(owned & set(d['djinns']))))))
    everyone = others + [mine]
    for key, limit, section in (("viziers", TRIBES["vizier"]["count"], 1),
                             ("elders", TRIBES["elder"]["count"], 1),
                             ("palms", PALM_TREES, 1),
                             ("palaces", PALACES, 1)):
        if sum(h[key] for h in everyone) > limit:
            problems.append(Problem(rule(section), msg("There are only %(limit)s %(what)s in the game.", limit=limit, what=SUPPLY_WORDS[key])))
    problems += _card_supply(state, Counter(d["goods"]) + Counter({"fakir": d["fakirs"]}), skip_seat=seat)
    tiles = d.get("tiles", {})
    if tiles and d.get("tile_vp"):
        problems.append(Problem(rule(8), msg("Enter the tiles' VP or the tiles, not both.")))
    if sum(tiles.values()) > state["camels"]:
        problems.append(Problem(rule(2), msg("At most %(camels)s tiles (camels).", camels=state['camels'])))
    used = Counter()
    for s in state["sheets"]:
        if s:
            used += Counter(s.get("tiles", {}))
    if any(used[k] + n > TILES[k]["count"] for k, n in tiles.items()):
        problems.append(Problem(rule(1), msg("There are not that many tiles of this kind among the 30.")))
    return problems




CHECKS = {"board-laid": _check_board, "bid-placed": _check_bid, "round-ended": _check_round_end,
          "meeples-moved": _check_move, "palm-placed": _check_palm, "palace-placed": _check_palace,
          "goods-bought": _check_buy, "djinn-taken": _check_djinn_taken, "djinn-used": _check_djinn_used,
          "goods-sold": _check_sale, "turn-ended": _check_turn_end, "sheet-entered": check_sheet}
