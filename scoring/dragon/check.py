"""In the Year of the Dragon: refusals. Each names the rule (docs/rules/dragon.md §n)
and says, in both languages and with the numbers, what is wrong."""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, Problem, player as who
from scoring.dragon.data import (ACTIONS, DRAWN_EVENTS, EVENT_NAMES, GROUP_SIZES, MAX_FLOORS, PERSONS,
                                 PERSON_NAMES, PHASE_NAMES, R_ACTION, R_BUILD, R_DEAL, R_DROUGHT, R_EVENTS_ROW,
                                 R_FLOW, R_OPENING, R_PALACE, R_PERSON, R_PRIVILEGE, R_RELEASE,
                                 R_TILES, TYPES, WILD, available, free_rooms, group_fee,
                                 person_name, privilege_price)

# The step of the month each event type answers (§7).
STEP_OF = {"dragon-events-laid": "lay-events", "dragon-opening-recruited": "opening",
           "dragon-actions-dealt": "deal", "dragon-action-chosen": "action",
           "dragon-money-refilled": "action", "dragon-floors-placed": "build",
           "dragon-person-recruited": "person", "dragon-persons-released": "release"}


def _p(rule: str, hu: str, en: str) -> list[Problem]:
    return [Problem(rule, hu, en)]


def check(state: dict, move: Move) -> list[Problem]:
    step = state["next"]["step"]
    if step == "over":
        return _p(R_FLOW, "A játék már véget ért.", "The game is over.")
    if STEP_OF[move.type] != step:
        now = PHASE_NAMES[step]
        return _p(R_FLOW, f"Most ez következik: {now['hu']}.", f"Steps go in order: now it is {now['en']}.")
    if "seat" in move.data and move.data["seat"] != state["next"]["seat"]:
        return _not_your_turn(state, move.data["seat"])
    return CHECKS[move.type](state, move)


def _not_your_turn(state: dict, seat: int) -> list[Problem]:
    due = who(state["next"]["seat"])
    asked = who(seat) if seat < state["n"] else f"#{seat + 1}"
    return _p(R_RELEASE if state["next"]["step"] == "release" else R_FLOW,
              f"Most {due} következik, nem {asked}.", f"It is {due}'s turn, not {asked}'s.")


def _check_row(state: dict, move: Move) -> list[Problem]:
    row = move.data["row"]
    problems = []
    wrong = [e for e in DRAWN_EVENTS if row.count(e) != 2]
    if wrong:
        hu = ", ".join(f"{EVENT_NAMES[e]['hu']}: {row.count(e)}" for e in wrong)
        en = ", ".join(f"{EVENT_NAMES[e]['en']}: {row.count(e)}" for e in wrong)
        problems += _p(R_EVENTS_ROW, f"Minden eseményből (a békén kívül) pontosan 2 kell ({hu}).",
                       f"Each event other than peace must appear exactly twice ({en}).")
    clashes = [m + 3 for m, (a, b) in enumerate(zip(row, row[1:])) if a == b]
    if clashes:
        hu = ", ".join(f"{m}–{m + 1}. hónap: {EVENT_NAMES[row[m - 3]]['hu']}" for m in clashes)
        en = ", ".join(f"months {m}–{m + 1}: {EVENT_NAMES[row[m - 3]]['en']}" for m in clashes)
        problems += _p(R_EVENTS_ROW, f"Két azonos esemény nem lehet egymás mellett ({hu}).",
                       f"No two identical events may be neighbours ({en}).")
    return problems


def _check_opening(state: dict, move: Move) -> list[Problem]:
    kinds = [p["type"] for p in move.data["persons"]]
    if kinds[0] == kinds[1]:
        name = PERSON_NAMES[kinds[0]]
        return _p(R_OPENING, f"Két különböző alattvalót kell választani (mindkettő: {name['hu']}).",
                  f"Choose two different persons (both are: {name['en']}).")
    if sorted(kinds) in state["pairs"]:
        return _p(R_OPENING, "Ezt a párost már valaki elvette.", "An earlier player already took this pair.")
    gone = [k for k in kinds if state["supply"][k]["young"] < 1]
    if gone:
        name = person_name({"type": gone[0], "age": "young"})
        return _p(R_OPENING, f"Nincs több {name['hu']} lapka (0 maradt).", f"No {name['en']} tile is left (0).")
    return []


def _check_dealt(state: dict, move: Move) -> list[Problem]:
    groups = move.data["groups"]
    flat = [a for g in groups for a in g]
    if sorted(flat) != sorted(ACTIONS):
        return _p(R_DEAL, f"Mind a 7 akciókártya pontosan egyszer szerepeljen (most {len(flat)} kártya).",
                  f"Each of the 7 action cards must be in exactly one group (got {len(flat)} cards).")
    sizes = GROUP_SIZES[state["n"]]
    got = sorted((len(g) for g in groups), reverse=True)
    if got != list(sizes):
        want, have = "/".join(map(str, sizes)), "/".join(map(str, got))
        return _p(R_DEAL, f"A csoportok mérete {state['n']} játékosnál: {want} (most {have}).",
                  f"With {state['n']} players the groups hold {want} cards (got {have}).")
    return []


def _check_action(state: dict, move: Move) -> list[Problem]:
    d = move.data
    g = d["group"]
    if g >= len(state["groups"]) or d["action"] not in state["groups"][g]:
        return _p(R_ACTION, f"Ez az akció nincs a(z) {g + 1}. csoportban.", f"That action is not in group {g + 1}.")
    cost = group_fee(state, g)
    if d["action"] == "privilege":
        if "privilege" not in d:
            return _p(R_PRIVILEGE, "Válassz kis vagy nagy kiváltságjogot.", "Choose a small or a large privilege.")
        cost += privilege_price(state, d["privilege"])
    elif "privilege" in d:
        return _p(R_PRIVILEGE, "Kiváltságjog csak a kiváltságjog akcióval jár.",
                  "A privilege comes only with the privilege action.")
    yuan, name = state["players"][d["seat"]]["yuan"], who(d["seat"])
    if yuan < cost:
        return _p(R_ACTION, f"Ez {cost} yüanba kerül; {name} csak {yuan} yüannal rendelkezik.",
                  f"This costs {cost} yuan; {name} has {yuan}. Money never goes below zero.")
    return []


def _check_refill(state: dict, move: Move) -> list[Problem]:
    return []


def _check_floors(state: dict, move: Move) -> list[Problem]:
    d, floors = move.data, state["next"]["floors"]
    palaces = state["players"][d["seat"]]["palaces"]
    add, new = d["add"], d["new"]
    if len(add) != len(palaces):
        return _p(R_BUILD, f"Mind a {len(palaces)} meglévő palotához adj meg egy számot (most {len(add)}).",
                  f"Give a number for each of the {len(palaces)} existing palaces (got {len(add)}).")
    placed = sum(add) + sum(new)
    if placed != floors:
        return _p(R_BUILD, f"Pontosan {floors} új szintet kell lerakni (most {placed}).",
                  f"Place exactly the {floors} floors of this action (got {placed}); no other floors may move.")
    for i, (pal, extra) in enumerate(zip(palaces, add)):
        if pal["floors"] + extra > MAX_FLOORS:
            return _p(R_PALACE, f"A(z) {i + 1}. palota {pal['floors']} + {extra} szintes lenne; legfeljebb {MAX_FLOORS}.",
                      f"Palace {i + 1} would have {pal['floors']} + {extra} floors; at most {MAX_FLOORS}.")
    return []


def _check_recruit(state: dict, move: Move) -> list[Problem]:
    d = move.data
    player = state["players"][d["seat"]]
    card = d["card"]
    if card not in player["cards"]:
        name, card_name = who(d["seat"]), PERSON_NAMES[card]
        return _p(R_PERSON, f"{name} már kijátszotta ezt a kártyát: {card_name['hu']}.",
                  f"{name} has already played the {card_name['en']} card.")
    kinds = TYPES if card == WILD else (card,)
    person = d.get("person")
    if person is None:
        return _check_no_tile(state, d, kinds)
    return _check_tile(state, person, card, kinds) or _check_place(state, d)


def _check_no_tile(state: dict, d: dict, kinds) -> list[Problem]:
    left = sum(state["supply"][k][a] for k in kinds for a in available(state, k))
    if left:
        return _p(R_PERSON, f"Van még ilyen személylapka ({left} maradt): el kell venni.",
                  f"Tiles of this card are still there ({left} left): take one.")
    if any(k in d for k in ("palace", "replace", "away")):
        return _p(R_PERSON, "Lapka nélkül nincs mit lerakni.", "Without a tile there is nothing to place.")
    return []


def _check_tile(state: dict, person: dict, card: str, kinds) -> list[Problem]:
    if person["type"] not in kinds:
        tile, played = PERSON_NAMES[person["type"]], PERSON_NAMES[card]
        return _p(R_PERSON, f"A(z) {tile['hu']} lapka nem egyezik a kijátszott kártyával ({played['hu']}).",
                  f"A {tile['en']} tile does not match the {played['en']} card played.")
    if person["age"] not in PERSONS[person["type"]]:
        return _p(R_TILES, "Ilyen korú lapka nincs ebből a típusból.", "That type has no tile of that age.")
    if state["supply"][person["type"]][person["age"]] < 1:
        name = person_name(person)
        return _p(R_PERSON, f"Nincs több {name['hu']} lapka (0 maradt).", f"No {name['en']} tile is left (0).")
    return []


def _check_place(state: dict, d: dict) -> list[Problem]:
    player = state["players"][d["seat"]]
    rooms = free_rooms(player)
    if d.get("away"):
        if rooms or "palace" in d or "replace" in d:
            free = ", ".join(str(i + 1) for i in rooms) or "–"
            return _p(R_PERSON, f"Amíg van szabad szoba (palota: {free}), az új alattvalót be kell fogadni.",
                      f"While a room is free (palace {free}) the new person must move in.")
        return []
    if "palace" not in d:
        return _p(R_PERSON, "Add meg, melyik palotába kerül.", "Say which palace the person goes into.")
    i, count = d["palace"], len(player["palaces"])
    if i >= count:
        return _p(R_PALACE, f"Nincs {i + 1}. palota ({count} van).", f"There is no palace {i + 1} ({count} palaces).")
    if "replace" in d:
        if rooms:
            free = ", ".join(str(r + 1) for r in rooms)
            return _p(R_PERSON, f"Amíg van szabad szoba (palota: {free}), nem lehet cserélni.",
                      f"No replacing while a room is free (palace {free}).")
        if d["replace"] >= len(player["palaces"][i]["persons"]):
            return _p(R_PALACE, "Nincs ilyen alattvaló abban a palotában.", "No such person in that palace.")
        return []
    if i not in rooms:
        floors = player["palaces"][i]["floors"]
        return _p(R_PALACE, f"A(z) {i + 1}. palota tele van ({floors} szint, {floors} alattvaló).",
                  f"Palace {i + 1} is full ({floors} floors, {floors} persons)."
                  + ("" if rooms else " Replace someone or send the new person away."))
    return []


def _check_release(state: dict, move: Move) -> list[Problem]:
    d, due = move.data, state["next"]
    palaces = state["players"][d["seat"]]["palaces"]
    spots = [tuple(x) for x in d["persons"]]
    if len(set(spots)) != len(spots):
        return _p(R_RELEASE, "Minden alattvalót csak egyszer lehet elbocsátani.", "Each person can be released only once.")
    for pal, slot in spots:
        if pal >= len(palaces) or slot >= len(palaces[pal]["persons"]):
            return _p(R_PALACE, f"A(z) {pal + 1}. palotában nincs {slot + 1}. alattvaló.",
                      f"Palace {pal + 1} has no person {slot + 1}.")
    if len(spots) != due["count"]:
        return _p(due["rule"], f"Pontosan {due['count']} alattvalót kell elbocsátani (most {len(spots)}; önként többet sem).",
                  f"Exactly {due['count']} person(s) must be released (got {len(spots)}); no voluntary releases.")
    if due["reason"] == "drought" and len({p for p, _ in spots}) != len(spots):
        return _p(R_DROUGHT, "Aszálykor palotánként legfeljebb egy alattvalót kell elbocsátani.",
                  "In a drought release one person from each palace you cannot supply.")
    return []


CHECKS: dict[str, Callable[[dict, Move], list[Problem]]] = {
    "dragon-events-laid": _check_row, "dragon-opening-recruited": _check_opening,
    "dragon-actions-dealt": _check_dealt, "dragon-action-chosen": _check_action,
    "dragon-money-refilled": _check_refill, "dragon-floors-placed": _check_floors,
    "dragon-person-recruited": _check_recruit, "dragon-persons-released": _check_release,
}
