"""In the Year of the Dragon (Stefan Feld, alea 2007): twelve months kept by the app.

The table enters only its choices (the event row as laid, the action groups as dealt,
each player's action, floors, recruits and whom to release); the app computes every
consequence: yields, events, decay, the month's scoring and the final scoring.

A month is a chain of guided steps held in the state: ``phase`` + ``turn`` (whose
move it is) + ``pending`` (decisions the rules demand, such as whom to release).
Rules as implemented, each with its source: docs/rules/dragon.md.
"""
from __future__ import annotations

from scoring.base import EventSpec, GameKind, Move, Option, Problem, ScorePart, clone, text
from scoring.dragon_data import (ACTION_NAMES, ACTION_PERSON, ACTIONS, AGES, CARDS, CATEGORIES,
                                 CONTAGION, DRAWN_EVENTS, FESTIVAL_POINTS,
                                 GROUP_SIZES, MAX_FLOORS, MONTHS, PERSONS, PRIVILEGE_DRAGONS,
                                 REFILL_TO, SHARED_GROUP_FEE, SMALL_PRIVILEGE, START_PALACES,
                                 START_YUAN, TRIBUTE, TYPES, WILD, person_name, supply_for,
                                 symbols, value, labels, PHASE_NAMES)

# Rule references (seed 004 = the Hungarian rulebook; sections by their Hungarian headings).
R_SETUP = "seed 004 Előkészületek"
R_EVENTS_ROW = "seed 004 Eseménylapkák"
R_OPENING = "seed 004 Előkészületek (első két alattvaló)"
R_PALACE = "seed 004 Előkészületek (paloták)"
R_FLOW = "seed 004 A játék folyamata"
R_ACTION = "seed 004 1. fázis"
R_BUILD = "seed 004 Építmény"
R_PRIVILEGE = "seed 004 Kiváltságjog"
R_PERSON = "seed 004 2. fázis"
R_EVENT = "seed 004 3. fázis"
R_TRIBUTE = "seed 004 Császári hűbér"
R_DROUGHT = "seed 004 Aszály"
R_RELEASE = "seed 004 3. fázis (Általános szabály)"
R_MONGOLS = "seed 004 Mongol támadás"
R_CONTAGION = "seed 004 Fertőzés"

# ---------------------------------------------------------------- event types

_INT = {"type": "integer", "minimum": 0, "maximum": 99}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 4}
_TYPE = {"enum": list(TYPES)}
_AGE = {"enum": list(AGES)}


def _obj(required, **props):
    return {"type": "object", "additionalProperties": False, "required": list(required),
            "properties": props}


EVENT_TYPES = {
    "dragon-events-laid": EventSpec(
        schema=_obj(["row"], row={"type": "array", "minItems": 10, "maxItems": 10,
                                  "items": {"enum": list(DRAWN_EVENTS)}}),
        label=text("Eseménysor lerakva", "Event row laid")),
    "dragon-opening-recruited": EventSpec(
        schema=_obj(["seat", "persons"], seat=_SEAT, persons={
            "type": "array", "minItems": 2, "maxItems": 2,
            "items": _obj(["type", "palace"], type=_TYPE, palace={"enum": [0, 1]})}),
        label=text("Első két alattvaló", "Opening recruitment")),
    "dragon-actions-dealt": EventSpec(
        schema=_obj(["groups"], groups={"type": "array", "minItems": 2, "maxItems": 5,
                                        "items": {"type": "array", "minItems": 1, "maxItems": 4,
                                                  "items": {"enum": list(ACTIONS)}}}),
        label=text("Akciókártyák kiosztva", "Action cards dealt")),
    "dragon-action-chosen": EventSpec(
        schema=_obj(["seat", "group", "action"], seat=_SEAT,
                    group={"type": "integer", "minimum": 0, "maximum": 4},
                    action={"enum": list(ACTIONS)}, privilege={"enum": ["small", "large"]}),
        label=text("Akció", "Action")),
    "dragon-money-refilled": EventSpec(
        schema=_obj(["seat"], seat=_SEAT),
        label=text("Pénz feltöltése 3 yüanra", "Money refilled to 3 yuan")),
    "dragon-floors-placed": EventSpec(
        schema=_obj(["seat", "add", "new"], seat=_SEAT,
                    add={"type": "array", "maxItems": 40, "items": _INT},
                    new={"type": "array", "maxItems": 20,
                         "items": {"type": "integer", "minimum": 1, "maximum": MAX_FLOORS}}),
        label=text("Palotaszintek lerakva", "Palace floors placed")),
    "dragon-person-recruited": EventSpec(
        schema=_obj(["seat", "card"], seat=_SEAT, card={"enum": list(TYPES) + [WILD]},
                    person=_obj(["type", "age"], type=_TYPE, age=_AGE),
                    palace={"type": "integer", "minimum": 0, "maximum": 40},
                    replace={"type": "integer", "minimum": 0, "maximum": 2},
                    away={"type": "boolean"}),
        label=text("Új alattvaló", "Person recruited")),
    "dragon-persons-released": EventSpec(
        schema=_obj(["seat", "persons"], seat=_SEAT, persons={
            "type": "array", "minItems": 1, "maxItems": 40,
            "items": {"type": "array", "minItems": 2, "maxItems": 2,
                      "prefixItems": [{"type": "integer", "minimum": 0, "maximum": 40},
                                      {"type": "integer", "minimum": 0, "maximum": 2}]}}),
        label=text("Alattvalók elbocsátva", "Persons released")),
}

OPTIONS = (
    Option("large_privilege", 6, text("Nagy kiváltságjog ára (yüan)", "Large privilege price (yuan)"),
           choices=(6, 7),
           help=text("6: a 2007-es kiadás és a magyar szabály; 7: újabb kiadás.",
                     "6: the 2007 edition and the Hungarian rules; 7: newer edition.")),
)

# ---------------------------------------------------------------- set-up


def setup(players: list[dict], options: dict) -> dict:
    n = len(players)
    return {
        "n": n, "large_privilege": options.get("large_privilege", 6),
        "phase": "lay-events", "month": 0, "turn": None, "order": [],
        "row": ["peace", "peace"], "supply": supply_for(n), "pairs": [],
        "groups": [], "dragons": [], "pending": [], "stamp": 0,
        "players": [{"yuan": START_YUAN, "rice": 0, "fireworks": 0, "small": 0, "large": 0,
                     "palaces": [{"floors": f, "persons": []} for f in START_PALACES],
                     "cards": list(CARDS), "track": 0, "stamp": 0} for _ in range(n)],
        "points": [], "report": [], "notes": [], "final": None, "ask": {},
    }


# ---------------------------------------------------------------- helpers (pure)


def turn_order(state: dict) -> list[int]:
    """Person-track order: further ahead first; on one space the marker placed later
    sits on top and is ahead (seed 004 1. fázis; GAMES.md tie-break)."""
    return sorted(range(state["n"]), key=lambda s: (-state["players"][s]["track"],
                                                    -state["players"][s]["stamp"], s))


def persons_of(player: dict) -> list[dict]:
    return [p for palace in player["palaces"] for p in palace["persons"]]


def count_symbols(player: dict, kind: str) -> int:
    return sum(symbols(p) for p in persons_of(player) if p["type"] == kind)


def free_rooms(player: dict) -> list[int]:
    return [i for i, pal in enumerate(player["palaces"]) if len(pal["persons"]) < pal["floors"]]


def available(state: dict, kind: str) -> list[str]:
    return [age for age, left in state["supply"][kind].items() if left > 0]


def action_yield(player: dict, action: str) -> int:
    """What an action gives: 1 for the card + the symbols of the matching persons."""
    return 1 + (1 if action == "taxes" else 0) + count_symbols(player, ACTION_PERSON[action]) \
        if action in ACTION_PERSON else 0


def privilege_price(state: dict, size: str) -> int:
    return SMALL_PRIVILEGE if size == "small" else state["large_privilege"]


def group_fee(state: dict, group: int) -> int:
    return SHARED_GROUP_FEE if state["dragons"][group] > 0 else 0


def _p(rule: str, hu: str, en: str) -> list[Problem]:
    return [Problem(rule, hu, en)]


# ---------------------------------------------------------------- check

_PHASE_OF = {"dragon-events-laid": "lay-events", "dragon-opening-recruited": "opening",
             "dragon-actions-dealt": "deal", "dragon-action-chosen": "action",
             "dragon-money-refilled": "action", "dragon-floors-placed": "build",
             "dragon-person-recruited": "person", "dragon-persons-released": "release"}


def check(state: dict, move: Move) -> list[Problem]:
    phase = state["phase"]
    wanted = _PHASE_OF.get(move.type)
    if phase == "over":
        return _p(R_FLOW, "A játék már véget ért.", "The game is over.")
    if wanted != phase:
        now = PHASE_NAMES[phase]
        return _p(R_FLOW, f"Most ez következik: {now['hu']}.", f"Phases go in order: now it is {now['en']}.")
    d = move.data
    if "seat" in d:
        expected = state["pending"][0]["seat"] if phase in ("build", "release") else state["turn"]
        if d["seat"] != expected:
            return _p(R_ACTION if phase != "release" else R_RELEASE,
                      "Nem ez a játékos következik.", "It is not this player's turn.")
    return _CHECKS[move.type](state, d)


def _check_row(state, d):
    row = d["row"]
    problems = []
    if any(row.count(e) != 2 for e in DRAWN_EVENTS):
        problems += _p(R_EVENTS_ROW, "Minden eseményből (a békén kívül) pontosan 2 kell.",
                       "Each event other than peace must appear exactly twice.")
    if any(a == b for a, b in zip(row, row[1:])):
        problems += _p(R_EVENTS_ROW, "Két azonos esemény nem lehet egymás mellett.",
                       "No two identical events may be adjacent.")
    return problems


def _check_opening(state, d):
    kinds = [p["type"] for p in d["persons"]]
    if kinds[0] == kinds[1]:
        return _p(R_OPENING, "Két különböző alattvalót kell választani.", "Choose two different persons.")
    if sorted(kinds) in state["pairs"]:
        return _p(R_OPENING, "Ezt a párost már valaki elvette.", "An earlier player already took this pair.")
    if any(state["supply"][k]["young"] < 1 for k in kinds):
        return _p(R_OPENING, "Nincs több ilyen fiatal személylapka.", "No young tile of that type is left.")
    return []


def _check_dealt(state, d):
    groups = d["groups"]
    flat = [a for g in groups for a in g]
    if sorted(flat) != sorted(ACTIONS):
        return _p(R_ACTION, "Mind a 7 akciókártya pontosan egyszer szerepeljen.",
                  "Each of the 7 action cards must be in exactly one group.")
    sizes = GROUP_SIZES[state["n"]]
    if sorted((len(g) for g in groups), reverse=True) != list(sizes):
        return _p(R_ACTION, f"A csoportok mérete {state['n']} játékosnál: {'/'.join(map(str, sizes))}.",
                  f"With {state['n']} players the groups hold {'/'.join(map(str, sizes))} cards.")
    return []


def _check_action(state, d):
    g = d["group"]
    if g >= len(state["groups"]) or d["action"] not in state["groups"][g]:
        return _p(R_ACTION, "Ez az akció nincs ebben a csoportban.", "That action is not in that group.")
    player = state["players"][d["seat"]]
    cost = group_fee(state, g)
    if d["action"] == "privilege":
        if "privilege" not in d:
            return _p(R_PRIVILEGE, "Válassz kis vagy nagy kiváltságjogot.", "Choose a small or a large privilege.")
        cost += privilege_price(state, d["privilege"])
    elif "privilege" in d:
        return _p(R_PRIVILEGE, "Kiváltságjog csak a kiváltságjog akcióval jár.",
                  "A privilege comes only with the privilege action.")
    if player["yuan"] < cost:
        return _p(R_ACTION, f"Ehhez {cost} yüan kell, de csak {player['yuan']} van.",
                  f"This costs {cost} yuan but the player has only {player['yuan']}; money never goes below zero.")
    return []


def _check_refill(state, d):
    return []


def _check_floors(state, d):
    pending = state["pending"][0]
    player = state["players"][d["seat"]]
    add, new = d["add"], d["new"]
    if len(add) != len(player["palaces"]):
        return _p(R_BUILD, "Minden meglévő palotához adj meg egy számot.", "Give a number for every existing palace.")
    if sum(add) + sum(new) != pending["floors"]:
        return _p(R_BUILD, f"Pontosan {pending['floors']} új szintet kell lerakni (csak az akció szintjeit).",
                  f"Place exactly the {pending['floors']} floors of this action; no other floors may move.")
    if any(pal["floors"] + a > MAX_FLOORS for pal, a in zip(player["palaces"], add)):
        return _p(R_PALACE, "Egy palota sosem lehet háromszintesnél magasabb.", "A palace never has more than 3 floors.")
    return []


def _check_recruit(state, d):
    player = state["players"][d["seat"]]
    card = d["card"]
    if card not in player["cards"]:
        return _p(R_PERSON, "Ezt a kártyát már kijátszotta.", "That card has already been played.")
    kinds = TYPES if card == WILD else (card,)
    offer = [k for k in kinds if available(state, k)]
    person = d.get("person")
    placing = [k for k in ("palace", "replace", "away") if k in d]
    if person is None:
        if offer:
            return _p(R_PERSON, "Van még ilyen személylapka: el kell venni.", "A tile of this card is still there: take it.")
        return _p(R_PERSON, "Lapka nélkül nincs mit lerakni.", "Without a tile there is nothing to place.") \
            if placing else []
    if person["type"] not in kinds:
        return _p(R_PERSON, "A lapka nem egyezik a kijátszott kártyával.", "The tile does not match the card played.")
    if person["age"] not in PERSONS[person["type"]]:
        return _p(R_SETUP, "Ilyen korú lapka nincs ebből a típusból.", "That type has no tile of that age.")
    if state["supply"][person["type"]][person["age"]] < 1:
        return _p(R_PERSON, "Ez a személylapka már elfogyott.", "No tile of that kind is left.")
    rooms = free_rooms(player)
    if d.get("away"):
        if rooms or "palace" in d or "replace" in d:
            return _p(R_PERSON, "Amíg van szabad szoba, az új alattvalót be kell fogadni.",
                      "While a room is free the new person must move in.")
        return []
    if "palace" not in d:
        return _p(R_PERSON, "Add meg, melyik palotába kerül.", "Say which palace the person goes into.")
    i = d["palace"]
    if i >= len(player["palaces"]):
        return _p(R_PALACE, "Nincs ilyen palota.", "There is no such palace.")
    if "replace" in d:
        if rooms:
            return _p(R_PERSON, "Amíg van szabad szoba, nem lehet cserélni.", "No replacing while a room is free.")
        if d["replace"] >= len(player["palaces"][i]["persons"]):
            return _p(R_PALACE, "Nincs ilyen alattvaló abban a palotában.", "No such person in that palace.")
        return []
    if i not in rooms:
        return _p(R_PALACE, "Abban a palotában nincs szabad szint (szintenként egy alattvaló).",
                  "That palace is full: one person per floor." + ("" if rooms else " Replace someone or send the new person away."))
    return []


def _check_release(state, d):
    pending = state["pending"][0]
    player = state["players"][d["seat"]]
    spots = [tuple(x) for x in d["persons"]]
    if len(set(spots)) != len(spots):
        return _p(R_RELEASE, "Minden alattvalót csak egyszer lehet elbocsátani.", "Each person can be released only once.")
    for pal, slot in spots:
        if pal >= len(player["palaces"]) or slot >= len(player["palaces"][pal]["persons"]):
            return _p(R_PALACE, "Nincs ilyen alattvaló.", "There is no such person.")
    if len(spots) != pending["count"]:
        return _p(pending["rule"], f"Pontosan {pending['count']} alattvalót kell elbocsátani (önként többet sem).",
                  f"Exactly {pending['count']} person(s) must be released, no more (no voluntary releases).")
    if pending["reason"] == "drought" and len({p for p, _ in spots}) != len(spots):
        return _p(R_DROUGHT, "Aszálykor palotánként legfeljebb egy alattvalót kell elbocsátani.",
                  "In a drought release one person from each palace you cannot supply.")
    return []


_CHECKS = {"dragon-events-laid": _check_row, "dragon-opening-recruited": _check_opening,
           "dragon-actions-dealt": _check_dealt, "dragon-action-chosen": _check_action,
           "dragon-money-refilled": _check_refill, "dragon-floors-placed": _check_floors,
           "dragon-person-recruited": _check_recruit, "dragon-persons-released": _check_release}

# ---------------------------------------------------------------- apply


def apply(state: dict, move: Move) -> dict:
    state = clone(state)
    _APPLY[move.type](state, move.data, move.seq)
    state["ask"] = {**ask(state), "track_order": turn_order(state)}
    return state


def _advance_track(state, seat, steps):
    state["stamp"] += 1
    player = state["players"][seat]
    player["track"] += steps
    player["stamp"] = state["stamp"]


def _score(state, seat, category, points, seq, label=None):
    if points:
        state["points"].append({"seat": seat, "cat": category, "pts": points, "seq": seq,
                                "month": state["month"], "label": label})


def _lay(state, d, seq):
    state["row"] = ["peace", "peace"] + list(d["row"])
    state["phase"], state["order"] = "opening", list(range(state["n"]))
    state["turn"] = 0


def _opening(state, d, seq):
    player = state["players"][d["seat"]]
    for person in d["persons"]:
        player["palaces"][person["palace"]]["persons"].append({"type": person["type"], "age": "young"})
        state["supply"][person["type"]]["young"] -= 1
        _advance_track(state, d["seat"], value(person["type"], "young"))
    state["pairs"].append(sorted(p["type"] for p in d["persons"]))
    _next_turn(state, seq)


def _dealt(state, d, seq):
    state["groups"] = [list(g) for g in d["groups"]]
    state["dragons"] = [0] * len(d["groups"])
    state["phase"], state["order"] = "action", turn_order(state)
    state["turn"] = state["order"][0]


def _action(state, d, seq):
    seat, action = d["seat"], d["action"]
    player = state["players"][seat]
    fee = group_fee(state, d["group"])
    player["yuan"] -= fee
    state["dragons"][d["group"]] += 1
    gain = action_yield(player, action)
    name = ACTION_NAMES[action]
    if action == "privilege":
        size = text("kicsi", "small") if d["privilege"] == "small" else text("nagy", "large")
        said = text(f"{name['hu']} ({size['hu']}): −{privilege_price(state, d['privilege'])} yüan",
                    f"{name['en']} ({size['en']}): −{privilege_price(state, d['privilege'])} yuan")
    else:
        got = _gain_text(action, gain)
        said = text(f"{name['hu']}: {got['hu']}", f"{name['en']}: {got['en']}")
    if fee:
        said = text(f"{said['hu']} (foglalt csoport: −{fee} yüan)", f"{said['en']} (taken group: −{fee} yuan)")
    _note(state, seat, said)
    if action == "taxes":
        player["yuan"] += gain
    elif action == "harvest":
        player["rice"] += gain
    elif action == "fireworks":
        player["fireworks"] += gain
    elif action == "parade":
        _advance_track(state, seat, gain)
    elif action == "research":
        _score(state, seat, "research", gain, seq)
    elif action == "privilege":
        player["yuan"] -= privilege_price(state, d["privilege"])
        player[d["privilege"]] += 1
    elif action == "build":
        state["pending"] = [{"kind": "build", "seat": seat, "floors": gain}]
        state["phase"] = "build"
        return
    _next_turn(state, seq)


def _refill(state, d, seq):
    player = state["players"][d["seat"]]
    _note(state, d["seat"], text(f"pénz 3 yüanra: +{max(0, REFILL_TO - player['yuan'])} yüan",
                                 f"money up to 3 yuan: +{max(0, REFILL_TO - player['yuan'])} yuan"))
    player["yuan"] = max(player["yuan"], REFILL_TO)
    _next_turn(state, seq)


def _floors(state, d, seq):
    player = state["players"][d["seat"]]
    for palace, extra in zip(player["palaces"], d["add"]):
        palace["floors"] += extra
    player["palaces"] += [{"floors": f, "persons": []} for f in d["new"]]
    extended = [text(f"{i + 1}. palota +{a}", f"palace {i + 1} +{a}") for i, a in enumerate(d["add"]) if a]
    started = [text(f"új {f} szintes palota", f"new {f}-floor palace") for f in d["new"]]
    _note(state, d["seat"], text("szintek: " + ", ".join(x["hu"] for x in extended + started),
                                 "floors: " + ", ".join(x["en"] for x in extended + started)))
    state["pending"], state["phase"] = [], "action"
    _next_turn(state, seq)


def _recruit(state, d, seq):
    player = state["players"][d["seat"]]
    player["cards"].remove(d["card"])
    person = d.get("person")
    if person is not None:
        state["supply"][person["type"]][person["age"]] -= 1
        tile = {"type": person["type"], "age": person["age"]}
        name, steps = person_name(tile), value(person["type"], person["age"])
        if d.get("away"):
            _note(state, d["seat"], text(f"{name['hu']}: elküldve, nincs lépés", f"{name['en']}: sent away, no steps"))
        else:
            persons = player["palaces"][d["palace"]]["persons"]
            where = text(f"{d['palace'] + 1}. palota", f"palace {d['palace'] + 1}")
            if "replace" in d:
                gone = person_name(persons[d["replace"]])
                where = text(f"{where['hu']}, {gone['hu']} helyett", f"{where['en']}, replacing the {gone['en']}")
                persons[d["replace"]] = tile
            else:
                persons.append(tile)
            _advance_track(state, d["seat"], steps)
            _note(state, d["seat"], text(f"{name['hu']} ({where['hu']}): +{steps} a személysávon",
                                         f"{name['en']} ({where['en']}): +{steps} on the person track"))
    else:
        _note(state, d["seat"], text("nincs több ilyen lapka: semmi", "no tile of the card left: nothing"))
    _next_turn(state, seq)


def _note(state, seat, said):
    """What a move did, in both languages, for the board's "this month" list."""
    state.setdefault("notes", []).append({"seat": seat, "text": said})


def _release(state, d, seq):
    player = state["players"][d["seat"]]
    for pal, slot in sorted((tuple(x) for x in d["persons"]), reverse=True):
        del player["palaces"][pal]["persons"][slot]
    state["report"].append({"seat": d["seat"], "released": len(d["persons"]), "chosen": True})
    state["pending"].pop(0)
    if not state["pending"]:
        _finish_month(state, seq)


def _next_turn(state, seq):
    """The next player of this phase, or the next phase."""
    state["order"].pop(0)
    if state["order"]:
        state["turn"] = state["order"][0]
        return
    state["turn"] = None
    if state["phase"] == "opening":
        _start_month(state)
    elif state["phase"] == "action" and state["month"] < MONTHS:
        state["phase"], state["order"] = "person", turn_order(state)
        state["turn"] = state["order"][0]
    else:
        _event(state, seq)


def _start_month(state):
    state["month"] += 1
    state["phase"], state["groups"], state["dragons"] = "deal", [], []
    state["order"], state["turn"], state["report"], state["notes"] = [], None, [], []


# ---------------------------------------------------------------- the month's event


def _event(state, seq):
    """Resolve the event of the month (seed 004 3. fázis); ask for releases where the
    player has a choice, in person-track order; release everything when there is none."""
    event = state["row"][state["month"] - 1]
    state["phase"], state["pending"] = "release", []
    needs = {}  # seat -> (count, reason, rule)
    players = state["players"]
    if event == "tribute":
        for seat, player in enumerate(players):
            paid = min(player["yuan"], TRIBUTE)
            player["yuan"] -= paid
            state["report"].append({"seat": seat, "paid_yuan": paid})
            if paid < TRIBUTE:
                needs[seat] = (TRIBUTE - paid, "tribute", R_TRIBUTE)
    elif event == "drought":
        for seat, player in enumerate(players):
            inhabited = sum(1 for pal in player["palaces"] if pal["persons"])
            paid = min(player["rice"], inhabited)
            player["rice"] -= paid
            state["report"].append({"seat": seat, "paid_rice": paid})
            if paid < inhabited:
                needs[seat] = (inhabited - paid, "drought", R_DROUGHT)
    elif event == "festival":
        _festival(state, seq)
    elif event == "mongols":
        helmets = [count_symbols(p, "warrior") for p in players]
        for seat, h in enumerate(helmets):
            _score(state, seat, "mongols", h, seq)
            if h:
                state["report"].append({"seat": seat, "points": h})
        for seat, h in enumerate(helmets):
            if h == min(helmets):
                needs[seat] = (1, "mongols", R_MONGOLS)
    elif event == "contagion":
        for seat, player in enumerate(players):
            count = CONTAGION - count_symbols(player, "healer")
            if count > 0:
                needs[seat] = (count, "contagion", R_CONTAGION)
    for seat in turn_order(state):
        if seat in needs:
            count, reason, rule = needs[seat]
            _need_release(state, seat, count, reason, rule)
    if not state["pending"]:
        _finish_month(state, seq)


def _need_release(state, seat, count, reason, rule):
    player = state["players"][seat]
    everyone = persons_of(player)
    if reason == "drought":
        inhabited = [pal for pal in player["palaces"] if pal["persons"]]
        forced = count >= len(inhabited) and all(len(pal["persons"]) == 1 for pal in inhabited)
    else:
        count = min(count, len(everyone))
        forced = count >= len(everyone)
    if count <= 0:
        return
    if forced:  # no choice to make: every person goes
        for pal in player["palaces"]:
            pal["persons"] = []
        state["report"].append({"seat": seat, "released": len(everyone), "chosen": False})
        return
    state["pending"].append({"kind": "release", "seat": seat, "count": count, "reason": reason, "rule": rule})


def _festival(state, seq):
    """6 points for the most fireworks, 3 for the second most (ties share; nobody with
    0 scores); the scorers return half their tiles rounded up (seed 004 Sárkányfesztivál;
    GAMES.md)."""
    counts = sorted({p["fireworks"] for p in state["players"] if p["fireworks"] > 0}, reverse=True)
    for rank, level in enumerate(counts[:2]):
        for seat, player in enumerate(state["players"]):
            if player["fireworks"] == level:
                _score(state, seat, "festival", FESTIVAL_POINTS[rank], seq)
                returned = (level + 1) // 2
                player["fireworks"] -= returned
                state["report"].append({"seat": seat, "points": FESTIVAL_POINTS[rank],
                                        "returned_fireworks": returned})


def _finish_month(state, seq):
    """Decay of uninhabited palaces, then the month's scoring (seed 004 Hanyatlás, 4. fázis)."""
    state["phase"], state["pending"] = "scoring", []
    for seat, player in enumerate(state["players"]):
        kept = []
        for pal in player["palaces"]:
            if not pal["persons"]:
                pal["floors"] -= 1
                if pal["floors"] == 0:
                    continue
            kept.append(pal)
        decayed = sum(pal["floors"] for pal in player["palaces"]) - sum(pal["floors"] for pal in kept)
        if decayed:
            state["report"].append({"seat": seat, "decayed": decayed})
        player["palaces"] = kept
        _score(state, seat, "palaces", len(kept), seq)
        _score(state, seat, "ladies", count_symbols(player, "lady"), seq)
        _score(state, seat, "privileges", player["small"] * PRIVILEGE_DRAGONS["small"]
               + player["large"] * PRIVILEGE_DRAGONS["large"], seq)
    if state["month"] < MONTHS:
        report, notes = state["report"], state["notes"]
        _start_month(state)
        state["last_report"] = {"month": state["month"] - 1, "items": report, "notes": notes}
        return
    state["last_report"] = {"month": state["month"], "items": state["report"], "notes": state["notes"]}
    final_scoring(state, seq)
    state["phase"], state["turn"] = "over", None


def final_scoring(state, seq):
    """After month 12: 2 per person; monks: Buddhas × floors of their palace; rice and
    fireworks sold for 2 yuan each, then 1 point per 3 yuan (seed 004 A játék vége;
    GAMES.md: the example, not the '2 VP' sentence)."""
    state["final"] = []
    for seat, player in enumerate(state["players"]):
        persons = len(persons_of(player))
        monks = sum(symbols(p) * pal["floors"] for pal in player["palaces"]
                    for p in pal["persons"] if p["type"] == "monk")
        money = player["yuan"] + 2 * player["rice"] + 2 * player["fireworks"]
        _score(state, seat, "persons", 2 * persons, seq)
        _score(state, seat, "monks", monks, seq)
        _score(state, seat, "money", money // 3, seq)
        state["final"].append({"persons": persons, "monks": monks, "money": money, "yuan": player["yuan"],
                               "rice": player["rice"], "fireworks": player["fireworks"]})


_APPLY = {"dragon-events-laid": _lay, "dragon-opening-recruited": _opening,
          "dragon-actions-dealt": _dealt, "dragon-action-chosen": _action,
          "dragon-money-refilled": _refill, "dragon-floors-placed": _floors,
          "dragon-person-recruited": _recruit, "dragon-persons-released": _release}

# ---------------------------------------------------------------- the decision asked now


def _gain_text(action: str, gain: int) -> dict:
    unit = {"taxes": ("yüan", "yuan"), "build": ("palotaszint", "palace floor(s)"),
            "harvest": ("rizs", "rice"), "fireworks": ("tűzijáték", "fireworks"),
            "parade": ("lépés a személysávon", "step(s) on the person track"),
            "research": ("pont", "point(s)")}[action]
    return text(f"+{gain} {unit[0]}", f"+{gain} {unit[1]}")


def ask(state: dict) -> dict:
    """The legal choices of the decision the rules ask for now, for the phone form
    (only what is legal is offered; ``check`` still refuses anything else)."""
    phase = state["phase"]
    if phase == "opening":
        return {"seat": state["turn"], "types": [k for k in TYPES if state["supply"][k]["young"] > 0],
                "pairs": state["pairs"]}
    if phase == "deal":
        sizes = GROUP_SIZES[state["n"]]
        return {"seat": None, "sizes": list(sizes), "actions": list(ACTIONS),
                "defaults": [g for g, size in enumerate(sizes) for _ in range(size)]}
    if phase == "action":
        return _ask_action(state)
    if phase == "build":
        pending = state["pending"][0]
        player = state["players"][pending["seat"]]
        return {"seat": pending["seat"], "floors": pending["floors"],
                "room": [min(pending["floors"], MAX_FLOORS - pal["floors"]) for pal in player["palaces"]]}
    if phase == "person":
        return _ask_person(state)
    if phase == "release":
        pending = state["pending"][0]
        player = state["players"][pending["seat"]]
        return {"seat": pending["seat"], "count": pending["count"], "reason": pending["reason"],
                "rule": pending["rule"],
                "persons": [{"value": f"{i}:{j}", "palace": i, "tile": f"{p['type']}:{p['age']}"}
                            for i, pal in enumerate(player["palaces"]) for j, p in enumerate(pal["persons"])]}
    return {"seat": None}


def _ask_action(state: dict) -> dict:
    seat = state["turn"]
    player = state["players"][seat]
    choices = []
    for g, group in enumerate(state["groups"]):
        fee = group_fee(state, g)
        for action in group:
            if action == "privilege":
                for size in ("small", "large"):
                    cost = fee + privilege_price(state, size)
                    if player["yuan"] >= cost:
                        choices.append({"value": f"{g}:privilege:{size}", "group": g, "action": action,
                                        "fee": fee, "size": size, "cost": cost})
            elif player["yuan"] >= fee:
                choices.append({"value": f"{g}:{action}", "group": g, "action": action, "fee": fee,
                                "gain": _gain_text(action, action_yield(player, action))})
    return {"seat": seat, "choices": choices, "refill": max(0, REFILL_TO - player["yuan"])}


def _ask_person(state: dict) -> dict:
    seat = state["turn"]
    player = state["players"][seat]
    cards = []
    for card in dict.fromkeys(player["cards"]):
        kinds = TYPES if card == WILD else (card,)
        cards.append({"card": card, "tiles": [f"{k}:{a}" for k in kinds for a in available(state, k)]})
    rooms = free_rooms(player)
    places = [{"value": f"p:{i}", "palace": i} for i in rooms]
    if not rooms:
        places = [{"value": f"r:{i}:{j}", "palace": i, "tile": f"{p['type']}:{p['age']}"}
                  for i, pal in enumerate(player["palaces"]) for j, p in enumerate(pal["persons"])]
        places.append({"value": "away"})
    return {"seat": seat, "cards": cards, "places": places}


# ---------------------------------------------------------------- score


def score(state: dict) -> dict[int, list[ScorePart]]:
    parts: dict[int, list[ScorePart]] = {}
    for seat in range(state["n"]):
        mine = [e for e in state["points"] if e["seat"] == seat]
        seen = []
        for entry in mine:
            if entry["cat"] not in seen:
                seen.append(entry["cat"])
        parts[seat] = [ScorePart(cat, sum(e["pts"] for e in mine if e["cat"] == cat),
                                 tuple(sorted({e["seq"] for e in mine if e["cat"] == cat})),
                                 CATEGORIES[cat]) for cat in seen]
    return parts


def is_over(state: dict) -> bool:
    return state["phase"] == "over"


def tiebreak(state: dict, seat: int) -> tuple:
    player = state["players"][seat]
    return (player["track"], player["stamp"])


from scoring.dragon_forms import demo, describe, parse_form  # noqa: E402  (forms use the rules above)

GAME = GameKind(
    kind="dragon", title=text("A sárkány éve", "In the Year of the Dragon"),
    min_players=2, max_players=5, rules_version=1, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    describe=describe, parse_form=parse_form, options=OPTIONS, categories=labels(),
    tiebreak=tiebreak,
    tiebreak_rule=text("Döntetlennél a személysávon előrébb álló nyer.",
                       "Ties: the player further ahead on the person track wins."),
    has_board=True, demo=demo,
)
