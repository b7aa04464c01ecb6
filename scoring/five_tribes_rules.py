"""Five Tribes rules: the state, ``check`` (cited refusals) and ``apply`` (pure).

Rule references: "seed 002 §…" (the Hungarian rulebook), "research §1.x"
(/work/shared/research/games-data.md), "GAMES.md Five Tribes", "FT §n"
(docs/rules/five-tribes.md, the rules as implemented).
"""
from __future__ import annotations

from collections import Counter

from scoring.base import Move, Problem, clone
from scoring.five_tribes_data import (BID_COSTS, BID_SPOTS, COLS, DJINNS, FAKIRS, GOODS, PALACES,
                                      PALM_TREES, PAYMENTS, ROWS, START_GOLD, TILES, TRIBES,
                                      camels_per_player, distance, neighbours)
from scoring.five_tribes_score import suit_layers
from scoring.five_tribes_view import pending

CELLS = ROWS * COLS
TURN_EVENTS = ("meeples-moved", "palm-placed", "palace-placed", "goods-bought", "djinn-taken",
               "djinn-used", "goods-sold", "turn-ended")


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
    return _with_pending(state)


def _with_pending(state: dict) -> dict:
    state["pending"] = pending(state, holdings_all(state))
    return state


# ---------------------------------------------------------------- checks

def P(rule: str, hu: str, en: str) -> Problem:
    return Problem(rule, hu, en)


OVER = P("seed 002 A játék vége", "A játék már véget ért.", "The game has already ended.")
SHEET_STARTED = P("FT §8", "Már a pontozólapon fejezitek be: csak pontozólap rögzíthető.",
                  "The game is being finished on the score sheet: only sheet entries now.")
NO_BOARD = P("FT §2", "Előbb rögzítsétek a szultánság lapkáit.", "Lay the sultanate first.")


def check(state: dict, move: Move) -> list[Problem]:
    if state["over"]:
        return [OVER]
    t = move.type
    if t == "sheet-entered":
        return check_sheet(state, move.data)
    if any(state["sheets"]):
        return [SHEET_STARTED]
    if t == "board-laid":
        return _check_board(state, move.data)
    if state["board"] is None:
        return [NO_BOARD]
    if t == "bid-placed":
        return _check_bid(state, move.data)
    if t == "round-ended":
        return _check_round_end(state, move.data)
    if state["phase"] == "bid":
        return [P("seed 002 §1", "Most a sorrendért licitáltok, nem kör van.",
                  "Bidding for turn order is under way, not a turn.")]
    if state["phase"] != "turn":
        return [P("seed 002 Egy forduló vége", "A forduló körei lezajlottak: töltsétek fel a sorokat.",
                  "Every turn of the round is played: refill the displays.")]
    return CHECKS[t](state, state["turn"], move.data)


def _check_board(state, d) -> list[Problem]:
    if state["board"] is not None:
        return [P("FT §2", "A szultánság már le van rakva.", "The sultanate is already laid.")]
    problems = []
    if len(d["tiles"]) != CELLS or Counter(d["tiles"]) != Counter(
            {k: v["count"] for k, v in TILES.items()}):
        problems.append(P("seed 002 tartozékok", "A 30 lapka: 4 nagy piac, 8 kis piac, 6 oázis, 5 falu, "
                          "4+1+1+1 szent hely.", "The 30 tiles: 4 large markets, 8 small markets, 6 oases, "
                          "5 villages, 4+1+1+1 sacred places."))
    if d.get("djinns") or d.get("cards"):
        problems += _check_display(state, [], d.get("djinns", []), [], d.get("cards", []), exact=True)
    order = d.get("bid_order")
    if order is not None and sorted(order) != sorted(state["bid_order"]):
        problems.append(P("seed 002 előkészületek", "A licitsorrend minden jelzőt egyszer tartalmazzon.",
                          "The bid order must hold every turn marker once."))
    return problems


def _check_display(state, djinn_row, new_djinns, card_row, new_cards, exact) -> list[Problem]:
    problems = []
    djinns = djinn_row + new_djinns
    if len(djinns) > 3 or (exact and len(djinns) != 3) or len(set(djinns)) != len(djinns) \
            or any(_djinn_owner(state, dj) is not None for dj in new_djinns):
        problems.append(P("seed 002 előkészületek", "3 különböző, senkinél nem lévő dzsinn legyen felcsapva.",
                          "3 different djinns nobody owns are on display."))
    cards = card_row + new_cards
    if len(cards) > 9 or (exact and len(cards) != 9):
        problems.append(P("seed 002 előkészületek", "9 erőforráskártya van felcsapva.",
                          "9 resource cards are on display."))
    problems += _card_supply(state, Counter(new_cards))
    return problems


def _card_supply(state, extra: Counter, skip_seat: int | None = None) -> list[Problem]:
    """Cards by kind in hands and on display never exceed the 54 cards (research §1.2)."""
    held = Counter(state["card_row"]) + extra
    for seat, h in enumerate(holdings_all(state)):
        if seat != skip_seat:
            held += Counter(h["goods"])
            held["fakir"] += h["fakirs"]
    over = [k for k, n in held.items() if n > (FAKIRS if k == "fakir" else GOODS[k]["count"])]
    if over:
        return [P("research §1.2", f"Ennyi lap nincs a játékban: {', '.join(over)}.",
                  f"There are not that many cards: {', '.join(over)}.")]
    return []


def _check_bid(state, d) -> list[Problem]:
    if state["phase"] != "bid":
        return [P("seed 002 §1", "Most nem licitálás van.", "It is not time to bid.")]
    seat, cost = d["seat"], d["cost"]
    expected = state["bid_order"][len(state["bids"])]
    if seat != expected:
        return [P("seed 002 §1", "A licitsorrend szerint más jön.", "Another player bids next, by the bid order.")]
    problems = []
    taken = [b["cost"] for b in state["bids"]]
    if cost not in BID_SPOTS:
        problems.append(P("research §1.7", "Nincs ilyen hely a sávon.", "There is no such spot on the track."))
    elif cost == 0 and taken.count(0) >= 3:
        problems.append(P("seed 002 §1", "Háromnál több jelző nem lehet a 0-n: legalább 1-et kell licitálni.",
                          "At most three markers on 0: bid at least 1."))
    elif cost and cost in taken:
        problems.append(P("seed 002 §1", "Foglalt helyre nem lehet licitálni.", "That spot is taken."))
    fakirs = d.get("fakirs", 0)
    me = state["players"][seat]
    if fakirs and ("Kumarbi" not in me["djinns"] or fakirs > me["fakirs"]):
        problems.append(P("research §1.5 Kumarbi", "Fakírral csak Kumarbi birtokosa csökkentheti a licitet, "
                          "a nála lévő fakírokkal.", "Only Kumarbi's owner lowers a bid with fakirs they hold."))
    if not problems and me["gold"] < bid_price(cost, fakirs):
        problems.append(_no_gold())
    return problems


def bid_price(cost: int, fakirs: int) -> int:
    """What a bid costs: each fakir discarded with Kumarbi lowers it one spot (research §1.5)."""
    return BID_COSTS[max(0, BID_COSTS.index(cost) - fakirs)] if cost in BID_COSTS else cost


def _no_gold(rule: str = "seed 002 §1") -> Problem:
    return P(rule, "Az arany nem mehet nulla alá.", "Gold can never go below zero.")


def _check_round_end(state, d) -> list[Problem]:
    if state["phase"] != "refill":
        return [P("seed 002 Egy forduló vége", "A forduló csak az utolsó kör után ér véget.",
                  "The round ends only after the last turn.")]
    djinns, cards = d.get("djinns", []), d.get("cards", [])
    if not state["displays"]:
        if djinns or cards:
            return [P("FT §2", "A lapsorokat nem követitek.", "This table does not track the displays.")]
        return []
    return _check_display(state, state["djinn_row"], djinns, state["card_row"], cards, exact=False)


def _check_move(state, turn, d) -> list[Problem]:
    if turn["moved"] or turn["no_move"]:
        return [P("seed 002 §2.2", "Ebben a körben már léptetek.", "The meeples have already moved this turn.")]
    seat, me = turn["seat"], state["players"][turn["seat"]]
    tribe, count, fakirs = d["tribe"], d["count"], d.get("fakirs", 0)
    problems = []
    if not 2 <= count <= TRIBES[tribe]["count"]:
        problems.append(P("seed 002 §2.3", "Legalább 2 azonos színű figurát kell felvenni (és legfeljebb "
                          "ahány van).", "At least 2 meeples of one colour are picked up (and no more than exist)."))
    if tribe in ("vizier", "elder"):
        kept = sum(p[tribe + "s"] for p in holdings_all(state)) + count
        if kept > TRIBES[tribe]["count"]:
            problems.append(_meeple_supply(tribe))
    if fakirs and (tribe not in ("builder", "assassin") or fakirs > me["fakirs"]):
        problems.append(P("seed 002 §2.4", "Fakírt csak az építők és orgyilkosok bónuszához, a saját "
                          "lapjaidból dobhatsz.", "Fakirs are discarded only for builders or assassins, from your hand."))
    path = d.get("path", [])
    if path and (path[-1] != d["tile"] or any(distance(a, b) != 1 for a, b in zip(path, path[1:]))):
        problems.append(P("seed 002 §2.2", "Az útvonal szomszédos lapkákon át a célig tart.",
                          "The path steps orthogonally from tile to tile and ends on the move's tile."))
    if tribe == "merchant":
        problems += _check_merchant(state, d, count)
    if tribe == "assassin":
        problems += _check_victims(state, turn, d, count + fakirs)
    elif d.get("victims"):
        problems.append(P("seed 002 §2.4", "Áldozat csak orgyilkosokkal van.", "Only assassins kill."))
    return problems


def _meeple_supply(tribe):
    return P("research §1.3", f"Összesen {TRIBES[tribe]['count']} {TRIBES[tribe]['label']['hu']} van.",
             f"There are only {TRIBES[tribe]['count']} {TRIBES[tribe]['label']['en']} meeples.")


def _check_merchant(state, d, count) -> list[Problem]:
    cards = d.get("cards", [])
    if state["displays"]:
        if cards and cards != state["card_row"][:count]:
            return [P("seed 002 §2.4", "A kereskedők a sor elejéről veszik a lapokat.",
                      "Merchants take the cards from the front of the row.")]
        return []
    if len(cards) > count:
        return [P("seed 002 §2.4", "Annyi lapot vehetsz el, ahány kereskedőt.", "Take as many cards as merchants.")]
    return _card_supply(state, Counter(cards))


def _check_victims(state, turn, d, reach) -> list[Problem]:
    victims = d.get("victims", [])
    seat = turn["seat"]
    if len(victims) > (2 if "Iblis" in turn["used"] else 1):
        return [P("seed 002 §2.4", "Az orgyilkosok EGY figurát ölnek meg (Iblisszel kettőt).",
                  "Assassins kill ONE meeple (two with Iblis).")]
    if len(victims) == 2 and not _same_target(victims):
        return [P("research §1.5 Iblis", "Iblis: 2 figura ugyanazon a lapkán, vagy ugyanannak az ellenfélnek.",
                  "Iblis: 2 meeples on the same tile, or of the same opponent.")]
    problems, lost = [], Counter()
    for v in victims:
        if "tile" in v:
            if distance(v["tile"], d["tile"]) > reach:
                problems.append(P("seed 002 §2.4", "Az áldozat a hatótávon kívül van (átlósan nem számít).",
                                  "The victim is out of reach (no diagonal steps)."))
        elif "seat" in v:
            other = v["seat"]
            if other == seat or not 0 <= other < state["n"] or v["tribe"] not in ("vizier", "elder"):
                problems.append(P("seed 002 §2.4", "Egy ellenfél előtti vezír vagy vén lehet az áldozat.",
                                  "The victim is a vizier or elder in front of an opponent."))
                continue
            lost[(other, v["tribe"])] += 1
            if state["players"][other][v["tribe"] + "s"] < lost[(other, v["tribe"])]:
                problems.append(P("seed 002 §2.4", "Annál a játékosnál nincs ilyen figura.",
                                  "That player has no such meeple."))
            if "Boaz" in state["players"][other]["djinns"]:
                problems.append(P("research §1.5 Boaz", "Boaz védi a vezíreit és véneit.",
                                  "Boaz protects that player's viziers and elders."))
        else:
            problems.append(P("seed 002 §2.4", "Add meg az áldozat lapkáját vagy játékosát.",
                              "Name the victim's tile or player."))
    return problems


def _same_target(victims) -> bool:
    a, b = victims
    return ("tile" in a and a.get("tile") == b.get("tile")) or ("seat" in a and a.get("seat") == b.get("seat"))


def _after_move(turn) -> list[Problem]:
    if not turn["moved"]:
        return [P("seed 002 §2.5", "Előbb lépjetek a figurákkal.", "Move the meeples first.")]
    return []


def _check_palm(state, turn, d) -> list[Problem]:
    return _check_building(state, turn, d, "palm", "Lamia", "palms")


def _check_palace(state, turn, d) -> list[Problem]:
    return _check_building(state, turn, d, "palace", "Hagis", "palaces")


def _check_building(state, turn, d, what, djinn, supply) -> list[Problem]:
    problems = _after_move(turn) or _action_free(state, turn, what)
    if problems:
        return problems
    here = turn["tile"]
    if d["tile"] != here and not (djinn in turn["used"] and distance(d["tile"], here) == 1):
        problems.append(P(f"research §1.5 {djinn}", f"A lapka akciója erre a lapkára tesz (szomszédosra csak {djinn}).",
                          f"The tile action places it on this tile (a neighbour only with {djinn})."))
    if state["supply"][supply] <= 0:
        problems.append(_supply_out(what))
    return problems


def _supply_out(what) -> Problem:
    hu = "pálmafa" if what == "palm" else "palota"
    return P("seed 002 §2.5", f"Elfogyott a {hu}.", f"No {what} is left in the supply.")


def _action_free(state, turn, action) -> list[Problem]:
    if turn["action"]:
        return [P("seed 002 §2.5", "A lapka akciója egyszer hajtható végre.", "The tile action is taken once.")]
    if TILES[state["board"][turn["tile"]]["type"]]["action"] != action:
        return [P("seed 002 §2.5", "Ennek a lapkának más az akciója.", "This tile has another action.")]
    return []


def _check_buy(state, turn, d) -> list[Problem]:
    problems = _after_move(turn) or _action_free(state, turn, "market")
    if problems:
        return problems
    kind = state["board"][turn["tile"]]["type"]
    cards = d["cards"]
    limit, window, price = (1, 3, 3) if kind == "small-market" else (2, 6, 6)
    if not 1 <= len(cards) <= limit:
        problems.append(P("seed 002 §2.5", f"Itt {limit} lapot vehetsz.", f"Here you buy {limit} card(s)."))
    if state["displays"] and Counter(cards) - Counter(state["card_row"][:window]):
        problems.append(P("seed 002 §2.5", f"Az első {window} látható lap közül vehetsz.",
                          f"Buy from the first {window} visible cards."))
    elif not state["displays"]:
        problems += _card_supply(state, Counter(cards))
    if state["players"][turn["seat"]]["gold"] < price:
        problems.append(_no_gold("seed 002 §2.5"))
    return problems


def _check_djinn_taken(state, turn, d) -> list[Problem]:
    problems = _after_move(turn) or _action_free(state, turn, "djinn")
    if problems:
        return problems
    problems += _pay_problems(state["players"][turn["seat"]], d["pay"], ("elders", "elder-fakir"), "seed 002 §2.5")
    return problems + _djinn_free(state, d["djinn"], from_row=True)


def _djinn_free(state, name, from_row) -> list[Problem]:
    if _djinn_owner(state, name) is not None:
        return [P("FT §7", "Ez a dzsinn már valakié.", "Somebody already owns this djinn.")]
    if from_row and state["displays"] and name not in state["djinn_row"]:
        return [P("seed 002 §2.5", "A felcsapott dzsinnek közül választhatsz.", "Choose one of the djinns on display.")]
    if not from_row and name in state["djinn_row"]:
        return [P("research §1.5 Sibittis", "A húzott dzsinn nem a felcsapottak közül való.",
                  "The drawn djinn is not one of those on display.")]
    return []


def _pay_problems(me, pay, allowed, rule) -> list[Problem]:
    if pay not in allowed:
        return [P(rule, "Ezzel nem lehet fizetni.", "That is not a valid payment.")]
    need = PAYMENTS[pay]
    if me["elders"] < need["elders"] or me["fakirs"] < need["fakirs"]:
        return [P(rule, "Nincs elég véned vagy fakírod a fizetéshez.", "Not enough elders or fakirs to pay.")]
    return []


def _check_djinn_used(state, turn, d) -> list[Problem]:
    name, seat = d["djinn"], turn["seat"]
    me = state["players"][seat]
    cost = DJINNS[name]["cost"]
    if name not in me["djinns"]:
        return [P("seed 002 §2.5", "Csak a saját dzsinned képességét használhatod, a saját körödben.",
                  "Only the owner uses a djinn's power, on their own turn.")]
    if not cost or name == "Kumarbi":
        return [P("research §1.5", "Ennek a dzsinnek nincs megidézhető képessége (magától hat).",
                  "This djinn has no power to call: it works by itself.")]
    if name in turn["used"]:
        return [P("seed 002 §2.5", "Egy fizetős képesség körönként egyszer használható.",
                  "A paid power is used once per turn.")]
    problems = _pay_problems(me, d["pay"], cost, "research §1.5")
    return problems + DJINN_CHECKS.get(name, lambda s, t, d: [])(state, turn, d)


def _tile_arg(d) -> list[Problem]:
    if "tile" not in d:
        return [P("research §1.5", "Add meg a lapkát.", "Name the tile.")]
    return []


def _djinn_place(tile_type, supply, what):
    def check_(state, turn, d):
        problems = _tile_arg(d)
        if problems:
            return problems
        if state["board"][d["tile"]]["type"] != tile_type:
            problems.append(P("research §1.5", "Nem megfelelő lapka.", "Not the right kind of tile."))
        if state["supply"][supply] <= 0:
            problems.append(_supply_out(what))
        return problems
    return check_


def _djinn_claim(with_meeples: bool):
    def check_(state, turn, d):
        problems = _tile_arg(d)
        if problems:
            return problems
        cell = state["board"][d["tile"]]
        if cell["owner"] is not None or cell["palms"] or cell["palaces"]:
            problems.append(P("research §1.5", "A lapkán nem lehet teve, pálmafa vagy palota.",
                              "The tile must have no camel, palm tree or palace."))
        if with_meeples and state["players"][turn["seat"]]["camels_left"] <= 0:
            problems.append(P("seed 002 §2.3", "Nincs több tevéd.", "You have no camel left."))
        return problems
    return check_


def _check_sibittis(state, turn, d):
    if "keep" not in d:
        return [P("research §1.5 Sibittis", "Add meg a megtartott dzsinnt.", "Name the djinn kept.")]
    return _djinn_free(state, d["keep"], from_row=False)


def _check_sloar(state, turn, d):
    if "card" not in d:
        return [P("research §1.5 Sloar", "Add meg a húzott lapot.", "Name the card drawn.")]
    return _card_supply(state, Counter([d["card"]]))


DJINN_CHECKS = {
    "Bouraq": _djinn_place("village", "palaces", "palace"),
    "Enki": _djinn_place("oasis", "palms", "palm"),
    "Anun-Nak": _djinn_claim(False), "Leta": _djinn_claim(True), "Utug": _djinn_claim(True),
    "Sibittis": _check_sibittis, "Sloar": _check_sloar,
}


def _check_sale(state, turn, d) -> list[Problem]:
    problems = _after_move(turn)
    me = state["players"][turn["seat"]]
    if not any(d["goods"].values()):
        problems.append(P("seed 002 §2.6", "Legalább egy árut adj el.", "Sell at least one good."))
    if any(n > me["goods"].get(k, 0) for k, n in d["goods"].items()):
        problems.append(P("seed 002 §2.6", "Csak a nálad lévő árukat adhatod el (fakírt nem).",
                          "Sell only goods you hold (never fakirs)."))
    return problems


def _check_turn_end(state, turn, d) -> list[Problem]:
    if d.get("no_move"):
        if turn["moved"]:
            return [P("seed 002 A játék vége", "Léptél, így nem mondhatod, hogy nincs lépés.",
                      "You moved, so there was a legal move.")]
        return []
    if not turn["moved"]:
        return [P("seed 002 §2.2", "Lépj a figurákkal, vagy jelezd, hogy nincs szabályos lépés.",
                  "Move the meeples, or declare that no legal move remains.")]
    kind = state["board"][turn["tile"]]["type"]
    for tile_type, supply, hu, en in (("oasis", "palms", "pálmafát", "palm tree"),
                                      ("village", "palaces", "palotát", "palace")):
        if kind == tile_type and not turn["action"] and state["supply"][supply] > 0:
            return [P("seed 002 §2.5", f"Kötelező: tegyél egy {hu} erre a lapkára.",
                      f"Compulsory: place a {en} on this tile.")]
    return []


CHECKS = {"meeples-moved": _check_move, "palm-placed": _check_palm, "palace-placed": _check_palace,
          "goods-bought": _check_buy, "djinn-taken": _check_djinn_taken, "djinn-used": _check_djinn_used,
          "goods-sold": _check_sale, "turn-ended": _check_turn_end}


# ---------------------------------------------------------------- sheets

def check_sheet(state, d) -> list[Problem]:
    seat = d["seat"]
    if not 0 <= seat < state["n"]:
        return [P("FT §8", "Nincs ilyen játékos.", "There is no such player.")]
    if state["sheets"][seat] is not None:
        return [P("FT §8", "Ennek a játékosnak már van pontozólapja; javításhoz érvénytelenítsd.",
                  "This player's sheet is in; void it to correct it.")]
    problems = []
    if len(set(d["djinns"])) != len(d["djinns"]):
        problems.append(P("FT §7", "Egy dzsinn csak egyszer szerepelhet.", "A djinn is listed once."))
    others = [h for i, h in enumerate(holdings_all(state)) if i != seat]
    mine = sheet_holdings(d, state)
    owned = {dj for h in others for dj in h["djinns"]}
    if owned & set(d["djinns"]):
        problems.append(P("FT §7", f"Már másé: {', '.join(sorted(owned & set(d['djinns'])))}.",
                          f"Already owned by another player: {', '.join(sorted(owned & set(d['djinns'])))}."))
    everyone = others + [mine]
    for key, limit, rule in (("viziers", TRIBES["vizier"]["count"], "research §1.3"),
                             ("elders", TRIBES["elder"]["count"], "research §1.3"),
                             ("palms", PALM_TREES, "seed 002 tartozékok"),
                             ("palaces", PALACES, "seed 002 tartozékok")):
        if sum(h[key] for h in everyone) > limit:
            problems.append(P(rule, f"Összesen legfeljebb {limit} lehet ({key}).",
                              f"There are only {limit} in the game ({key})."))
    problems += _card_supply(state, Counter(d["goods"]) + Counter({"fakir": d["fakirs"]}), skip_seat=seat)
    tiles = d.get("tiles", {})
    if tiles and d.get("tile_vp"):
        problems.append(P("FT §8", "A lapkák pontját vagy a lapkákat add meg, ne mindkettőt.",
                          "Enter the tiles' VP or the tiles, not both."))
    if sum(tiles.values()) > state["camels"]:
        problems.append(P("seed 002 előkészületek", f"Legfeljebb {state['camels']} lapkád lehet (tevék).",
                          f"At most {state['camels']} tiles (camels)."))
    used = Counter()
    for s in state["sheets"]:
        if s:
            used += Counter(s.get("tiles", {}))
    if any(used[k] + n > TILES[k]["count"] for k, n in tiles.items()):
        problems.append(P("research §1.4", "Ennyi ilyen lapka nincs a 30 között.",
                          "There are not that many tiles of this kind among the 30."))
    return problems


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


def _djinn_owner(state, name):
    for seat, h in enumerate(holdings_all(state)):
        if name in h["djinns"]:
            return seat
    return None


# ---------------------------------------------------------------- apply

def apply(state: dict, move: Move) -> dict:
    s = clone(state)
    APPLY[move.type](s, move.seq, move.data)
    return _with_pending(s)


def _note(s, seat, category, seq):
    s["src"][seat].setdefault(category, []).append(seq)


def _gold(s, seat, amount, seq):
    if amount:
        s["players"][seat]["gold"] += amount
        _note(s, seat, "gold", seq)


def _apply_board(s, seq, d):
    s["board"] = [{"type": t, "owner": None, "owned_at": None, "palms": [], "palaces": []} for t in d["tiles"]]
    s["displays"] = bool(d.get("djinns") or d.get("cards"))
    s["djinn_row"], s["card_row"] = list(d.get("djinns", [])), list(d.get("cards", []))
    if d.get("bid_order"):
        s["bid_order"] = list(d["bid_order"])
    _start_round(s)


def _start_round(s):
    s["phase"], s["round"], s["bids"], s["turn"] = "bid", s["round"] + 1, [], None


def _apply_bid(s, seq, d):
    paid = bid_price(d["cost"], d.get("fakirs", 0))
    me = s["players"][d["seat"]]
    if d.get("fakirs"):
        me["fakirs"] -= d["fakirs"]
        _note(s, d["seat"], "goods", seq)
    _gold(s, d["seat"], -paid, seq)
    s["bids"].append({"seat": d["seat"], "cost": d["cost"], "paid": paid, "seq": seq})
    if len(s["bids"]) == len(s["bid_order"]):
        ranked = sorted(enumerate(s["bids"]), key=lambda ib: (-ib[1]["cost"], -ib[0]))
        s["turn_order"] = [b["seat"] for _, b in ranked]   # seed 002 §1: a later 0-bid plays first
        s["bid_order"] = list(s["turn_order"])              # seed 002 §2.1: markers return in turn order
        s["phase"], s["turn_index"] = "turn", 0
        _start_turn(s)


def _start_turn(s):
    s["turn"] = {"seat": s["turn_order"][s["turn_index"]], "moved": False, "no_move": False, "tile": None,
                 "tribe": None, "action": False, "used": [], "builder_gold": 0}


def _own_tile(s, seat, tile, seq):
    cell = s["board"][tile]
    me = s["players"][seat]
    if cell["owner"] is None and me["camels_left"] > 0:   # seed 002 §2.3: a camel marks the owner
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


def _blue_around(s, tile) -> int:
    """seed 002 §2.4 builders: blue tiles around the tile, the tile itself included."""
    return sum(1 for i in [tile] + neighbours(tile, diagonal=True) if TILES[s["board"][i]["type"]]["colour"] == "blue")


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


def _apply_move(s, seq, d):
    turn = s["turn"]
    seat, tile, tribe, count = turn["seat"], d["tile"], d["tribe"], d["count"]
    me = s["players"][seat]
    turn.update(moved=True, tile=tile, tribe=tribe)
    marid = _passive_owner(s, "Marid")
    if marid is not None:
        _bonus(s, "Marid", seat, seq, sum(1 for t in d.get("path", []) if s["board"][t]["owner"] == marid))
    if d.get("emptied"):
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
        gold = _blue_around(s, tile) * (count + fakirs) * (2 if "Echidna" in turn["used"] else 1)
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
        if kandicha and v["tribe"] in ("vizier", "elder"):
            me[v["tribe"] + "s"] += 1
            _note(s, seat, v["tribe"] + "s", seq)
        elif kandicha and v["tribe"] == "builder" and "tile" in v:
            _gold(s, seat, _blue_around(s, v["tile"]), seq)
        elif kandicha and v["tribe"] == "merchant" and v.get("card"):
            _add_cards(s, seat, [v["card"]], seq)
        if "tile" in v and v.get("emptied"):
            _own_tile(s, seat, v["tile"], seq)   # seed 002 §2.4 FONTOS: an emptied tile is taken
    if victims:
        _bonus(s, "Nekir", seat, seq)


def _place(s, seq, tile, what):
    key = "palms" if what == "palm" else "palaces"
    s["board"][tile][key].append(seq)
    s["supply"][key] -= 1
    if what == "palace":
        _bonus(s, "Monkir", s["turn"]["seat"], seq)


def _apply_palm(s, seq, d):
    _place(s, seq, d["tile"], "palm")
    s["turn"]["action"] = True


def _apply_palace(s, seq, d):
    _place(s, seq, d["tile"], "palace")
    s["turn"]["action"] = True


def _apply_buy(s, seq, d):
    seat = s["turn"]["seat"]
    price = 3 if s["board"][s["turn"]["tile"]]["type"] == "small-market" else 6
    _gold(s, seat, -price, seq)
    _take_from_row(s, d["cards"])
    _add_cards(s, seat, d["cards"], seq)
    s["turn"]["action"] = True


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


def _apply_djinn_taken(s, seq, d):
    seat = s["turn"]["seat"]
    _pay(s, seat, d["pay"], seq)
    _gain_djinn(s, seat, d["djinn"], seq)
    s["turn"]["action"] = True


def _apply_djinn_used(s, seq, d):
    turn = s["turn"]
    seat, name = turn["seat"], d["djinn"]
    _pay(s, seat, d["pay"], seq)
    turn["used"].append(name)
    if name == "Bouraq":
        _place(s, seq, d["tile"], "palace")
    elif name == "Enki":
        _place(s, seq, d["tile"], "palm")
    elif name == "Echidna" and turn["builder_gold"]:
        _gold(s, seat, turn["builder_gold"], seq)   # used after the builders: their gold once more
    elif name in ("Leta", "Utug"):
        _own_tile(s, seat, d["tile"], seq)
    elif name == "Sibittis":
        _gain_djinn(s, seat, d["keep"], seq)
    elif name == "Sloar":
        _add_cards(s, seat, [d["card"]], seq)


def _apply_sale(s, seq, d):
    seat = s["turn"]["seat"]
    me = s["players"][seat]
    for kind, n in d["goods"].items():
        me["goods"][kind] = me["goods"].get(kind, 0) - n
        if not me["goods"][kind]:
            del me["goods"][kind]
    _note(s, seat, "goods", seq)
    _gold(s, seat, sum(suit_layers(d["goods"])), seq)


def _apply_turn_end(s, seq, d):
    if d.get("no_move"):
        s["no_moves"] = True
    s["turn_index"] += 1
    if s["turn_index"] < len(s["turn_order"]):
        _start_turn(s)
    else:
        s["phase"], s["turn"] = "refill", None


def _apply_round_end(s, seq, d):
    s["djinn_row"] += d.get("djinns", [])
    s["card_row"] += d.get("cards", [])
    if s["last_camel"] or s["no_moves"]:   # seed 002 A játék vége: the round is finished, then scoring
        s["phase"], s["over"] = "over", True
    else:
        _start_round(s)


def _apply_sheet(s, seq, d):
    s["sheets"][d["seat"]] = {"seq": seq, "holdings": sheet_holdings(d, s), "data": dict(d)}
    if all(s["sheets"]):
        s["phase"], s["over"] = "over", True


APPLY = {"board-laid": _apply_board, "bid-placed": _apply_bid, "meeples-moved": _apply_move,
         "palm-placed": _apply_palm, "palace-placed": _apply_palace, "goods-bought": _apply_buy,
         "djinn-taken": _apply_djinn_taken, "djinn-used": _apply_djinn_used, "goods-sold": _apply_sale,
         "turn-ended": _apply_turn_end, "round-ended": _apply_round_end, "sheet-entered": _apply_sheet}
