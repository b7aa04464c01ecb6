"""Five Tribes refusals: ``check`` says which rule a move breaks, in Hungarian and English,
citing docs/rules/five-tribes.md §n. ``apply`` (apply.py) never validates.
"""
from __future__ import annotations

from collections import Counter

from scoring.base import Move, Problem
from scoring.five_tribes.data import (BID_SPOTS, CELLS, COLOURS, DJINNS, FAKIRS, GOODS, PALACES,
                                      PALM_TREES, PAYMENTS, TILES, TRIBES, bid_price, deal, distance,
                                      hand_of, in_reach, indexed, neighbours, rule, some_move_exists,
                                      tile_name, walk)
from scoring.five_tribes.score import djinn_owner, holdings_all, sheet_holdings


OVER = Problem(rule(10), "A játék már véget ért.", "The game has already ended.")
SHEET_STARTED = Problem(rule(8), "Már a pontozólapon fejezitek be: csak pontozólap rögzíthető.",
                        "The game is being finished on the score sheet: only sheet entries now.")
NO_BOARD = Problem(rule(2), "Előbb rögzítsétek a szultánság lapkáit.", "Lay the sultanate first.")
BIDDING = Problem(rule(3), "Most a sorrendért licitáltok, nem kör van.",
                  "Bidding for turn order is under way, not a turn.")
REFILL = Problem(rule(10), "A forduló körei lezajlottak: töltsétek fel a sorokat.",
                 "Every turn of the round is played: refill the displays.")


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
        return [Problem(rule(2), "A szultánság már le van rakva.", "The sultanate is already laid.")]
    problems = []
    laid = Counter(d["tiles"])
    wrong = [k for k, v in TILES.items() if laid[k] != v["count"]]
    if len(d["tiles"]) != CELLS or wrong:
        hu = ", ".join(f"{TILES[k]['label']['hu']} {laid[k]} (nem {TILES[k]['count']})" for k in wrong)
        en = ", ".join(f"{TILES[k]['label']['en']} {laid[k]} (not {TILES[k]['count']})" for k in wrong)
        problems.append(Problem(rule(1), f"A 30 lapka nem ez: {hu}.", f"These are not the 30 tiles: {en}."))
    if d.get("djinns") or d.get("cards"):
        problems += _check_display(state, [], d.get("djinns", []), [], d.get("cards", []), exact=True)
    if "meeples" in d:
        problems += _check_laid_meeples(d)
    elif "seed" in d:
        problems.append(Problem(rule(2), "A kiosztás magja a figurákkal együtt jár.",
                                "A dealing seed comes with the meeples it dealt."))
    order = d.get("bid_order")
    if order is not None and sorted(order) != sorted(state["bid_order"]):
        problems.append(Problem(rule(2), "A licitsorrend minden jelzőt egyszer tartalmazzon.",
                                "The bid order must hold every turn marker once."))
    return problems


def _check_laid_meeples(d) -> list[Problem]:
    """§2: 3 meeples on each tile, 16 yellow, 20 white, 18 green, 18 blue, 18 red in all;
    a dealt board is exactly the deal of its recorded seed."""
    laid = Counter(t for tile in d["meeples"] for t in tile)
    off = [t for t, v in TRIBES.items() if laid[t] != v["count"]]
    if off:
        def said(lang, more, fewer):
            return ", ".join(f"{COLOURS[t][lang]} {laid[t]} ({laid[t] - TRIBES[t]['count']:+d}, "
                             f"{more if laid[t] > TRIBES[t]['count'] else fewer})" for t in off)
        return [Problem(rule(2), f"A figurák színei nem stimmelnek (16 sárga, 20 fehér, 18 zöld, 18 kék, "
                                 f"18 piros kell): {said('hu', 'túl sok', 'túl kevés')}.",
                        f"The meeples' colours are off (16 yellow, 20 white, 18 green, 18 blue, 18 red): "
                        f"{said('en', 'too many', 'too few')}.")]
    if "seed" in d and deal(d["seed"]) != (list(d["tiles"]), [list(m) for m in d["meeples"]]):
        return [Problem(rule(2), f"Ez nem a(z) {d['seed']} mag kiosztása.",
                        f"This is not the deal of seed {d['seed']}.")]
    return []


def _check_display(state, djinn_row, new_djinns, card_row, new_cards, exact) -> list[Problem]:
    problems = []
    djinns = djinn_row + new_djinns
    if len(djinns) > 3 or (exact and len(djinns) != 3) or len(set(djinns)) != len(djinns) \
            or any(djinn_owner(state, dj) is not None for dj in new_djinns):
        problems.append(Problem(rule(2), "3 különböző, senkinél nem lévő dzsinn legyen felcsapva.",
                                "3 different djinns nobody owns are on display."))
    cards = card_row + new_cards
    if len(cards) > 9 or (exact and len(cards) != 9):
        problems.append(Problem(rule(2), "9 erőforráskártya van felcsapva.",
                                "9 resource cards are on display."))
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
        return [Problem(rule(1), f"Ennyi lap nincs a játékban: {', '.join(over)}.",
                        f"There are not that many cards: {', '.join(over)}.")]
    return []


def _check_bid(state, move) -> list[Problem]:
    d = move.data
    if state["next"]["step"] != "bid":
        return [Problem(rule(3), "Most nem licitálás van.", "It is not time to bid.")]
    seat, cost = d["seat"], d["cost"]
    expected = state["bid_order"][len(state["bids"])]
    if seat != expected:
        return [Problem(rule(3), "A licitsorrend szerint más jön.", "Another player bids next, by the bid order.")]
    problems = []
    taken = [b["cost"] for b in state["bids"]]
    if cost not in BID_SPOTS:
        problems.append(Problem(rule(3), "Nincs ilyen hely a sávon.", "There is no such spot on the track."))
    elif cost == 0 and taken.count(0) >= 3:
        problems.append(Problem(rule(3), "Háromnál több jelző nem lehet a 0-n: legalább 1-et kell licitálni.",
                                "At most three markers on 0: bid at least 1."))
    elif cost and cost in taken:
        problems.append(Problem(rule(3), "Foglalt helyre nem lehet licitálni.", "That spot is taken."))
    fakirs = d.get("fakirs", 0)
    me = state["players"][seat]
    if fakirs and ("Kumarbi" not in me["djinns"] or fakirs > me["fakirs"]):
        problems.append(Problem(rule(6), "Fakírral csak Kumarbi birtokosa csökkentheti a licitet, "
                                "a nála lévő fakírokkal.", "Only Kumarbi's owner lowers a bid with fakirs they hold."))
    if not problems and me["gold"] < bid_price(cost, fakirs):
        problems.append(_no_gold())
    return problems


def _no_gold(section: int = 3) -> Problem:
    return Problem(rule(section), "Az arany nem mehet nulla alá.", "Gold can never go below zero.")


def _check_round_end(state, move) -> list[Problem]:
    d = move.data
    if state["next"]["step"] != "refill":
        return [Problem(rule(10), "A forduló csak az utolsó kör után ér véget.",
                        "The round ends only after the last turn.")]
    djinns, cards = d.get("djinns", []), d.get("cards", [])
    if not state["displays"]:
        if djinns or cards:
            return [Problem(rule(2), "A lapsorokat nem követitek.", "This table does not track the displays.")]
        return []
    problems = _check_display(state, state["djinn_row"], djinns, state["card_row"], cards, exact=False)
    return problems or (_refill_size(state, djinns, cards) if _new_rules(state) else [])


def _refill_size(state, djinns, cards) -> list[Problem]:
    """§10: the rows are refilled to 9 cards and 3 djinns, fewer only when no card is left to draw."""
    want_cards = min(9 - len(state["card_row"]), cards_left(state))
    want_djinns = min(3 - len(state["djinn_row"]), djinns_left(state))
    problems = []
    if len(cards) != want_cards:
        problems.append(Problem(rule(10), f"A kártyasort 9 lapra kell feltölteni: {want_cards} új lap kell, "
                                          f"{len(cards)} van megadva.",
                                f"The card row is refilled to 9: {want_cards} new cards are needed, "
                                f"{len(cards)} were entered."))
    if len(djinns) != want_djinns:
        problems.append(Problem(rule(10), f"A dzsinnsort 3 lapra kell feltölteni: {want_djinns} új dzsinn kell, "
                                          f"{len(djinns)} van megadva.",
                                f"The djinn row is refilled to 3: {want_djinns} new djinns are needed, "
                                f"{len(djinns)} were entered."))
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
        return [Problem(rule(4), "Ebben a körben már léptetek.", "The meeples have already moved this turn.")]
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
        return [Problem(rule(13), f"A figurákat nem követitek: add meg, hol ért véget a lépés, melyik színt és "
                                  f"hány figurát vettél fel (hiányzik: {', '.join(missing) or '–'}).",
                        f"This game does not track the meeples: give the tile, the tribe and how many "
                        f"were taken (missing: {', '.join(missing) or '–'}).")]
    return _check_tribe(state, turn, d, None)


def _check_path(meeples, d) -> list[Problem]:
    """§4: the path from the start tile, one meeple dropped on each tile after it, never
    diagonally, never straight back, the last meeple's tribe already on the end tile."""
    path, drops = d.get("path", []), d.get("drops")
    if drops is None or len(path) < 2:
        return [_path_problem("Koppints a kezdő lapkára, majd minden lépésre (legalább 2 lapka).",
                              "Tap the start tile, then each step (2 tiles at least).")]
    start, hand = tile_name(path[0]), hand_of(meeples, path[0])
    picked = sum(hand.values())
    if not picked:
        return [_path_problem(f"{start} üres: a lépés figurás lapkáról indul.",
                              f"{start} is empty: a move starts on a tile with meeples.")]
    if len(path) - 1 != picked or len(drops) != picked:
        return [_path_problem(f"{start} lapkán {picked} figura van, ezért {picked} lépés kell "
                              f"(az útvonal {len(path) - 1} lépés, {len(drops)} letett figura).",
                              f"{start} holds {picked} meeples, so the path takes {picked} steps "
                              f"(it has {len(path) - 1} steps and {len(drops)} meeples dropped).")]
    return _step_problems(path) or _drop_problems(meeples, path, drops, hand)


def _path_problem(hu: str, en: str) -> Problem:
    return Problem(rule(4), hu, en)


def _step_problems(path) -> list[Problem]:
    for i, (a, b) in enumerate(zip(path, path[1:])):
        if distance(a, b) != 1:
            return [_path_problem(f"{tile_name(a)} → {tile_name(b)}: csak a szomszédos lapkára lehet lépni, "
                                  "átlósan nem.", f"{tile_name(a)} → {tile_name(b)}: a step goes to a tile beside, "
                                  "never diagonally.")]
        if i and b == path[i - 1]:
            return [_path_problem(f"{tile_name(a)} → {tile_name(b)}: visszalépni tilos (épp onnan jöttél).",
                                  f"{tile_name(a)} → {tile_name(b)}: never straight back to the tile just left.")]
    return []


def _drop_problems(meeples, path, drops, hand) -> list[Problem]:
    if Counter(drops) != Counter(hand):
        return [_path_problem(f"A letett figurák ({_tribes(Counter(drops), 'hu')}) nem a felvettek "
                              f"({_tribes(Counter(hand), 'hu')}).",
                              f"The meeples dropped ({_tribes(Counter(drops), 'en')}) are not those picked up "
                              f"({_tribes(Counter(hand), 'en')}).")]
    if walk(meeples, path, drops)["count"] < 2:
        last, end = COLOURS[drops[-1]], tile_name(path[-1])
        return [_path_problem(f"Az utolsó figura ({last['hu']}) olyan lapkára kerül ({end}), ahol nincs "
                              f"{last['hu']} figura.", f"The last meeple ({last['en']}) goes on {end}, where no "
                              f"{last['en']} meeple stands.")]
    return []


def _tribes(counts, lang) -> str:
    return ", ".join(f"{n} {COLOURS[t][lang]}" for t, n in sorted(counts.items()))


def _check_claims(d, done) -> list[Problem]:
    """§13: what the app computes from the meeples may be sent along, but must agree."""
    wrong = [k for k in ("tile", "tribe", "count", "emptied") if k in d and d[k] != done[k]]
    if not wrong:
        return []
    said = ", ".join(f"{k} {_shown(k, done[k])} ({_shown(k, d[k])} given)" for k in wrong)
    said_hu = ", ".join(f"{k} {_shown(k, done[k])} (megadva: {_shown(k, d[k])})" for k in wrong)
    return [Problem(rule(13), f"A lépés a figurák szerint mást ad: {said_hu}.",
                    f"By the meeples the move gives otherwise: {said}.")]


def _shown(key, value) -> str:
    return tile_name(value) if key == "tile" else str(value).lower()


def _check_tribe(state, turn, d, meeples_after) -> list[Problem]:
    seat, me = turn["seat"], state["players"][turn["seat"]]
    tribe, count, fakirs = d["tribe"], d["count"], d.get("fakirs", 0)
    problems = []
    if not 2 <= count <= TRIBES[tribe]["count"]:
        problems.append(Problem(rule(4), "Legalább 2 azonos színű figurát kell felvenni (és legfeljebb "
                                "ahány van).", "At least 2 meeples of one colour are picked up (and no more than exist)."))
    if tribe in ("vizier", "elder"):
        kept = sum(p[tribe + "s"] for p in holdings_all(state)) + count
        if kept > TRIBES[tribe]["count"]:
            problems.append(_meeple_supply(tribe))
    if fakirs and (tribe not in ("builder", "assassin") or fakirs > me["fakirs"]):
        problems.append(Problem(rule(4), "Fakírt csak az építők és orgyilkosok bónuszához, a saját "
                                "lapjaidból dobhatsz.", "Fakirs are discarded only for builders or assassins, from your hand."))
    path = d.get("path", []) if meeples_after is None else []
    if path and (path[-1] != d["tile"] or any(distance(a, b) != 1 for a, b in zip(path, path[1:]))):
        problems.append(Problem(rule(4), "Az útvonal szomszédos lapkákon át a célig tart.",
                                "The path steps orthogonally from tile to tile and ends on the move's tile."))
    elif path and _new_rules(state):
        problems += _step_problems(path)
    if tribe == "merchant":
        problems += _check_merchant(state, d, count)
    elif d.get("cards"):
        problems.append(Problem(rule(4), "Kártyát a kereskedők adnak.", "Only merchants take cards."))
    if tribe == "assassin":
        problems += _check_victims(state, turn, d, count + fakirs, meeples_after)
    elif d.get("victims"):
        problems.append(Problem(rule(4), "Áldozat csak orgyilkosokkal van.", "Only assassins kill."))
    return problems


def _meeple_supply(tribe):
    return Problem(rule(1), f"Összesen {TRIBES[tribe]['count']} {TRIBES[tribe]['label']['hu']} van.",
                   f"There are only {TRIBES[tribe]['count']} {TRIBES[tribe]['label']['en']} meeples.")


def _check_merchant(state, d, count) -> list[Problem]:
    cards = d.get("cards", [])
    if state["displays"]:
        if cards and cards != state["card_row"][:count]:
            return [Problem(rule(4), "A kereskedők a sor elejéről veszik a lapokat.",
                            "Merchants take the cards from the front of the row.")]
        return []
    if len(cards) > count:
        return [Problem(rule(4), "Annyi lapot vehetsz el, ahány kereskedőt.", "Take as many cards as merchants.")]
    return _card_supply(state, Counter(cards))


def _check_victims(state, turn, d, reach, meeples_after) -> list[Problem]:
    victims = d.get("victims", [])
    seat = turn["seat"]
    if len(victims) > (2 if "Iblis" in turn["used"] else 1):
        return [Problem(rule(4), "Az orgyilkosok EGY figurát ölnek meg (Iblisszel kettőt).",
                        "Assassins kill ONE meeple (two with Iblis).")]
    if len(victims) == 2 and not _same_target(victims):
        return [Problem(rule(6), "Iblis: 2 figura ugyanazon a lapkán, vagy ugyanannak az ellenfélnek.",
                        "Iblis: 2 meeples on the same tile, or of the same opponent.")]
    problems, lost = [], Counter()
    for v in victims:
        if ("tile" in v) == ("seat" in v):
            problems.append(Problem(rule(4), "Az áldozat vagy egy lapkán, vagy egy játékos előtt van.",
                                    "The victim is either on a tile or in front of a player."))
        elif "tile" in v:
            steps = distance(v["tile"], d["tile"])
            if steps > reach:
                problems.append(Problem(rule(4), f"Az áldozat ({tile_name(v['tile'])}) {steps} lépésre van, a "
                                                 f"hatótáv {reach} (átlósan nem számít).",
                                        f"The victim ({tile_name(v['tile'])}) is {steps} steps away, the reach is "
                                        f"{reach} (no diagonal steps)."))
            elif meeples_after is not None:
                lost[(v["tile"], v["tribe"])] += 1
                if meeples_after[v["tile"]].get(v["tribe"], 0) < lost[(v["tile"], v["tribe"])]:
                    colour = COLOURS[v["tribe"]]
                    problems.append(Problem(rule(4), f"{tile_name(v['tile'])} lapkán nincs (elég) {colour['hu']} "
                                                     "figura.", f"No {colour['en']} meeple (enough) on "
                                                     f"{tile_name(v['tile'])}."))
        elif "seat" in v:
            other = v["seat"]
            if other == seat or not 0 <= other < state["n"] or v["tribe"] not in ("vizier", "elder"):
                problems.append(Problem(rule(4), "Egy ellenfél előtti vezír vagy vén lehet az áldozat.",
                                        "The victim is a vizier or elder in front of an opponent."))
                continue
            lost[(other, v["tribe"])] += 1
            if state["players"][other][v["tribe"] + "s"] < lost[(other, v["tribe"])]:
                problems.append(Problem(rule(4), "Annál a játékosnál nincs ilyen figura.",
                                        "That player has no such meeple."))
            if "Boaz" in state["players"][other]["djinns"]:
                problems.append(Problem(rule(6), "Boaz védi a vezíreit és véneit.",
                                        "Boaz protects that player's viziers and elders."))
    return problems


def _same_target(victims) -> bool:
    a, b = victims
    return ("tile" in a and a.get("tile") == b.get("tile")) or ("seat" in a and a.get("seat") == b.get("seat"))


def _after_move(turn) -> list[Problem]:
    if not turn["moved"]:
        return [Problem(rule(5), "Előbb lépjetek a figurákkal.", "Move the meeples first.")]
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
        problems.append(Problem(rule(6), f"A lapka akciója erre a lapkára tesz (szomszédosra csak {djinn}).",
                                f"The tile action places it on this tile (a neighbour only with {djinn})."))
    if state["supply"][supply] <= 0:
        problems.append(_supply_out(what))
    return problems


def _supply_out(what) -> Problem:
    hu = "pálmafa" if what == "palm" else "palota"
    return Problem(rule(5), f"Elfogyott a {hu}.", f"No {what} is left in the supply.")


def _action_free(state, turn, action) -> list[Problem]:
    if turn["action"]:
        return [Problem(rule(5), "A lapka akciója egyszer hajtható végre.", "The tile action is taken once.")]
    if turn.get("sold"):
        return [Problem(rule(5), "Eladás után már nincs lapkaakció: az áruk eladása a kör utolsó akciója.",
                        "After a sale no tile action is left: selling goods is the turn's last action.")]
    if TILES[state["board"][turn["tile"]]["type"]]["action"] != action:
        return [Problem(rule(5), "Ennek a lapkának más az akciója.", "This tile has another action.")]
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
        problems.append(Problem(rule(5), f"Itt {min(limit, shown)} lapot kell elvenni az első {window} közül "
                                         f"({shown} látható), nem {len(cards)}-t.",
                                f"Here {min(limit, shown)} card(s) are taken from the first {window} "
                                f"({shown} shown), not {len(cards)}."))
    elif not 1 <= len(cards) <= limit:
        problems.append(Problem(rule(5), f"Itt {limit} lapot vehetsz.", f"Here you buy {limit} card(s)."))
    if state["displays"] and Counter(cards) - Counter(state["card_row"][:window]):
        problems.append(Problem(rule(5), f"Az első {window} látható lap közül vehetsz.",
                                f"Buy from the first {window} visible cards."))
    elif not state["displays"]:
        problems += _card_supply(state, Counter(cards))
    gold = state["players"][turn["seat"]]["gold"]
    if gold < price:
        problems.append(Problem(rule(5), f"A vásárlás {price} arany; {gold} van.",
                                f"The purchase costs {price} gold; there is {gold}."))
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
        return [Problem(rule(7), "Ez a dzsinn már valakié.", "Somebody already owns this djinn.")]
    if from_row and state["displays"] and name not in state["djinn_row"]:
        return [Problem(rule(5), "A felcsapott dzsinnek közül választhatsz.", "Choose one of the djinns on display.")]
    if not from_row and name in state["djinn_row"]:
        return [Problem(rule(6), "A húzott dzsinn nem a felcsapottak közül való.",
                        "The drawn djinn is not one of those on display.")]
    return []


def _pay_problems(me, pay, allowed, cite: str) -> list[Problem]:
    if pay not in allowed:
        return [Problem(cite, "Ezzel nem lehet fizetni.", "That is not a valid payment.")]
    need = PAYMENTS[pay]
    if me["elders"] < need["elders"] or me["fakirs"] < need["fakirs"]:
        return [Problem(cite, "Nincs elég véned vagy fakírod a fizetéshez.", "Not enough elders or fakirs to pay.")]
    return []


def _check_djinn_used(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    name, seat = d["djinn"], turn["seat"]
    me = state["players"][seat]
    cost = DJINNS[name]["cost"]
    if name not in me["djinns"]:
        return [Problem(rule(5), "Csak a saját dzsinned képességét használhatod, a saját körödben.",
                        "Only the owner uses a djinn's power, on their own turn.")]
    if not cost or name == "Kumarbi":
        return [Problem(rule(6), "Ennek a dzsinnek nincs megidézhető képessége (magától hat).",
                        "This djinn has no power to call: it works by itself.")]
    if _new_rules(state) and [seat, name] in state.get("powers_used", []):
        return [Problem(rule(6), f"{name} képességét ebben a fordulóban már használtad: fordulónként egyszer "
                                 "használható (2 játékosnál a két köröd együtt).",
                        f"{name}'s power was already used this round: once per round (with 2 players, "
                        "across both of your turns).")]
    if name in turn["used"]:
        return [Problem(rule(5), "Egy fizetős képesség körönként egyszer használható.",
                        "A paid power is used once per turn.")]
    problems = _pay_problems(me, d["pay"], cost, rule(6))
    return problems + DJINN_CHECKS.get(name, _no_argument)(state, move)


def _no_argument(state, move) -> list[Problem]:
    return []


def _tile_arg(d) -> list[Problem]:
    if "tile" not in d:
        return [Problem(rule(6), "Add meg a lapkát.", "Name the tile.")]
    return []


def _djinn_place(tile_type, supply, what):
    def check_(state, move):
        d = move.data
        problems = _tile_arg(d)
        if problems:
            return problems
        if state["board"][d["tile"]]["type"] != tile_type:
            problems.append(Problem(rule(6), "Nem megfelelő lapka.", "Not the right kind of tile."))
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
            problems.append(Problem(rule(6), "A lapkán nem lehet teve, pálmafa vagy palota.",
                                    "The tile must have no camel, palm tree or palace."))
        if takes_camel and state["players"][turn["seat"]]["camels_left"] <= 0:
            problems.append(Problem(rule(4), "Nincs több tevéd.", "You have no camel left."))
        if empty and state.get("meeples") is not None:
            problems += _empty_tile(state["meeples"], d["tile"])
        return problems
    return check_


def _empty_tile(meeples, tile) -> list[Problem]:
    standing = sum(meeples[tile].values())
    if standing:
        return [Problem(rule(6), f"{tile_name(tile)} nem üres: {standing} figura áll rajta.",
                        f"{tile_name(tile)} is not empty: {standing} meeples stand on it.")]
    return []


def _check_anun_nak(state, move):
    problems = _djinn_claim(False, empty=True)(state, move)
    if state.get("meeples") is None or problems:
        return problems
    drawn = move.data.get("meeples")
    if drawn is None:
        return [Problem(rule(13), "Anun-Nak: add meg a zsákból húzott 3 figura színét.",
                        "Anun-Nak: give the colours of the 3 meeples drawn from the bag.")]
    bag = in_bag(state)
    short = [t for t, n in Counter(drawn).items() if n > bag.get(t, 0)]
    if short:
        return [Problem(rule(13), "A zsákban nincs ennyi: " + _tribes(Counter({t: bag.get(t, 0) for t in short}), "hu"),
                        "The bag does not hold that many: " + _tribes(Counter({t: bag.get(t, 0) for t in short}), "en"))]
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
        return [Problem(rule(6), "Add meg a megtartott dzsinnt.", "Name the djinn kept.")]
    return _djinn_free(state, d["keep"], from_row=False)


def _check_sloar(state, move):
    d = move.data
    if "card" not in d:
        return [Problem(rule(6), "Add meg a húzott lapot.", "Name the card drawn.")]
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
        problems.append(Problem(rule(5), "Legalább egy árut adj el.", "Sell at least one good."))
    if any(n > me["goods"].get(k, 0) for k, n in d["goods"].items()):
        problems.append(Problem(rule(5), "Csak a nálad lévő árukat adhatod el (fakírt nem).",
                                "Sell only goods you hold (never fakirs)."))
    return problems


def _check_turn_end(state, move) -> list[Problem]:
    turn, d = state["next"], move.data
    if d.get("no_move"):
        if turn["moved"]:
            return [Problem(rule(10), "Léptél, így nem mondhatod, hogy nincs lépés.",
                            "You moved, so there was a legal move.")]
        if state.get("meeples") is not None and some_move_exists(state["meeples"]):
            return [Problem(rule(10), "Van még szabályos lépés a táblán: lépni kell.",
                            "A legal move is left on the board: the meeples must move.")]
        return []
    if not turn["moved"]:
        return [Problem(rule(4), "Lépj a figurákkal, vagy jelezd, hogy nincs szabályos lépés.",
                        "Move the meeples, or declare that no legal move remains.")]
    return _tile_action_pending(state, turn)


def _tile_action_pending(state, turn) -> list[Problem]:
    """§5: the oasis' palm tree and the village's palace are compulsory while the supply lasts;
    the turn cannot end, nor goods be sold, before."""
    kind = state["board"][turn["tile"]]["type"]
    for tile_type, supply, hu, en in (("oasis", "palms", "pálmafát", "palm tree"),
                                      ("village", "palaces", "palotát", "palace")):
        if kind == tile_type and not turn["action"] and state["supply"][supply] > 0:
            return [Problem(rule(5), f"Kötelező: tegyél egy {hu} erre a lapkára ({tile_name(turn['tile'])}).",
                            f"Compulsory: place a {en} on this tile ({tile_name(turn['tile'])}).")]
    return []



# ---------------------------------------------------------------- sheets

SUPPLY_WORDS = {"viziers": ("vezír", "viziers"), "elders": ("vén", "elders"),
                "palms": ("pálmafa", "palm trees"), "palaces": ("palota", "palaces")}


def check_sheet(state, move) -> list[Problem]:
    d = move.data
    seat = d["seat"]
    if not 0 <= seat < state["n"]:
        return [Problem(rule(8), "Nincs ilyen játékos.", "There is no such player.")]
    if state["sheets"][seat] is not None:
        return [Problem(rule(8), "Ennek a játékosnak már van pontozólapja; javításhoz érvénytelenítsd.",
                        "This player's sheet is in; void it to correct it.")]
    problems = []
    if len(set(d["djinns"])) != len(d["djinns"]):
        problems.append(Problem(rule(7), "Egy dzsinn csak egyszer szerepelhet.", "A djinn is listed once."))
    others = [h for i, h in enumerate(holdings_all(state)) if i != seat]
    mine = sheet_holdings(d)
    owned = {dj for h in others for dj in h["djinns"]}
    if owned & set(d["djinns"]):
        problems.append(Problem(rule(7), f"Már másé: {', '.join(sorted(owned & set(d['djinns'])))}.",
                                f"Already owned by another player: {', '.join(sorted(owned & set(d['djinns'])))}."))
    everyone = others + [mine]
    for key, limit, section in (("viziers", TRIBES["vizier"]["count"], 1),
                             ("elders", TRIBES["elder"]["count"], 1),
                             ("palms", PALM_TREES, 1),
                             ("palaces", PALACES, 1)):
        if sum(h[key] for h in everyone) > limit:
            hu, en = SUPPLY_WORDS[key]
            problems.append(Problem(rule(section), f"Összesen legfeljebb {limit} {hu} van a játékban.",
                                    f"There are only {limit} {en} in the game."))
    problems += _card_supply(state, Counter(d["goods"]) + Counter({"fakir": d["fakirs"]}), skip_seat=seat)
    tiles = d.get("tiles", {})
    if tiles and d.get("tile_vp"):
        problems.append(Problem(rule(8), "A lapkák pontját vagy a lapkákat add meg, ne mindkettőt.",
                                "Enter the tiles' VP or the tiles, not both."))
    if sum(tiles.values()) > state["camels"]:
        problems.append(Problem(rule(2), f"Legfeljebb {state['camels']} lapkád lehet (tevék).",
                                f"At most {state['camels']} tiles (camels)."))
    used = Counter()
    for s in state["sheets"]:
        if s:
            used += Counter(s.get("tiles", {}))
    if any(used[k] + n > TILES[k]["count"] for k, n in tiles.items()):
        problems.append(Problem(rule(1), "Ennyi ilyen lapka nincs a 30 között.",
                                "There are not that many tiles of this kind among the 30."))
    return problems




CHECKS = {"board-laid": _check_board, "bid-placed": _check_bid, "round-ended": _check_round_end,
          "meeples-moved": _check_move, "palm-placed": _check_palm, "palace-placed": _check_palace,
          "goods-bought": _check_buy, "djinn-taken": _check_djinn_taken, "djinn-used": _check_djinn_used,
          "goods-sold": _check_sale, "turn-ended": _check_turn_end, "sheet-entered": check_sheet}
