"""In the Year of the Dragon: refusals. Each names the rule (docs/rules/dragon.md §n)
and says, in both languages and with the numbers, what is wrong."""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, Problem, player as who, Text
from scoring.dragon.data import (ACTIONS, DRAWN_EVENTS, EVENT_NAMES, GROUP_SIZES, MAX_FLOORS, PERSONS,
                                 PERSON_NAMES, PHASE_NAMES, R_ACTION, R_BUILD, R_DEAL, R_DROUGHT, R_EVENTS_ROW,
                                 R_FLOW, R_OPENING, R_PALACE, R_PERSON, R_PRIVILEGE, R_RELEASE,
                                 R_TILES, TYPES, WILD, available, free_rooms, group_fee,
                                 person_name, privilege_price)
from scoring.i18n import joined
from scoring.i18n import msg, msgp

# The step of the month each event type answers (§7).
STEP_OF = {"dragon-events-laid": "lay-events", "dragon-opening-recruited": "opening",
           "dragon-actions-dealt": "deal", "dragon-action-chosen": "action",
           "dragon-money-refilled": "action", "dragon-floors-placed": "build",
           "dragon-person-recruited": "person", "dragon-persons-released": "release"}


def _p(rule: str, message: Text) -> list[Problem]:
    return [Problem(rule, message)]


def check(state: dict, move: Move) -> list[Problem]:
    step = state["next"]["step"]
    if step == "over":
        return _p(R_FLOW, msgp("refusal", "The game is over."))
    if STEP_OF[move.type] != step:
        now = PHASE_NAMES[step]
        return _p(R_FLOW, msg("Steps go in order: now it is %(now)s.", now=now))
    if "seat" in move.data and move.data["seat"] != state["next"]["seat"]:
        return _not_your_turn(state, move.data["seat"])
    return CHECKS[move.type](state, move)


def _not_your_turn(state: dict, seat: int) -> list[Problem]:
    due = who(state["next"]["seat"])
    asked = who(seat) if seat < state["n"] else f"#{seat + 1}"
    return _p(R_RELEASE if state["next"]["step"] == "release" else R_FLOW,
              msg("It is %(due)s's turn, not %(asked)s's.", due=due, asked=asked))


def _check_row(state: dict, move: Move) -> list[Problem]:
    row = move.data["row"]
    problems = []
    wrong = [e for e in DRAWN_EVENTS if row.count(e) != 2]
    if wrong:
        counts = joined(", ", [joined(": ", [EVENT_NAMES[e], row.count(e)]) for e in wrong])
        problems += _p(R_EVENTS_ROW, msg("Each event other than peace must appear exactly twice (%(counts)s).", counts=counts))
    clashes = [m + 3 for m, (a, b) in enumerate(zip(row, row[1:])) if a == b]
    if clashes:
        where = joined(", ", [msg("months %(m)s–%(next)s: %(event)s", m=m, next=m + 1, event=EVENT_NAMES[row[m - 3]])
                              for m in clashes])
        problems += _p(R_EVENTS_ROW, msg("No two identical events may be neighbours (%(where)s).", where=where))
    return problems


def _check_opening(state: dict, move: Move) -> list[Problem]:
    kinds = [p["type"] for p in move.data["persons"]]
    if kinds[0] == kinds[1]:
        name = PERSON_NAMES[kinds[0]]
        return _p(R_OPENING, msg("Choose two different persons (both are: %(name)s).", name=name))
    if sorted(kinds) in state["pairs"]:
        return _p(R_OPENING, msg("An earlier player already took this pair."))
    gone = [k for k in kinds if state["supply"][k]["young"] < 1]
    if gone:
        name = person_name({"type": gone[0], "age": "young"})
        return _p(R_OPENING, msg("No %(name)s tile is left (0).", name=name))
    return []


def _check_dealt(state: dict, move: Move) -> list[Problem]:
    groups = move.data["groups"]
    flat = [a for g in groups for a in g]
    if sorted(flat) != sorted(ACTIONS):
        return _p(R_DEAL, msg("Each of the 7 action cards must be in exactly one group (got %(count)s cards).", count=len(flat)))
    sizes = GROUP_SIZES[state["n"]]
    got = sorted((len(g) for g in groups), reverse=True)
    if got != list(sizes):
        want, have = "/".join(map(str, sizes)), "/".join(map(str, got))
        return _p(R_DEAL, msg("With %(n)s players the groups hold %(want)s cards (got %(have)s).", n=state['n'], want=want, have=have))
    return []


def _check_action(state: dict, move: Move) -> list[Problem]:
    d = move.data
    g = d["group"]
    if g >= len(state["groups"]) or d["action"] not in state["groups"][g]:
        return _p(R_ACTION, msg("That action is not in group %(value)s.", value=g + 1))
    cost = group_fee(state, g)
    if d["action"] == "privilege":
        if "privilege" not in d:
            return _p(R_PRIVILEGE, msg("Choose a small or a large privilege."))
        cost += privilege_price(state, d["privilege"])
    elif "privilege" in d:
        return _p(R_PRIVILEGE, msg("A privilege comes only with the privilege action."))
    yuan, name = state["players"][d["seat"]]["yuan"], who(d["seat"])
    if yuan < cost:
        return _p(R_ACTION, msg("This costs %(cost)s yuan; %(name)s has %(yuan)s. Money never goes below zero.", cost=cost, name=name, yuan=yuan))
    return []


def _check_refill(state: dict, move: Move) -> list[Problem]:
    return []


def _check_floors(state: dict, move: Move) -> list[Problem]:
    d, floors = move.data, state["next"]["floors"]
    palaces = state["players"][d["seat"]]["palaces"]
    add, new = d["add"], d["new"]
    if len(add) != len(palaces):
        return _p(R_BUILD, msg("Give a number for each of the %(count)s existing palaces (got %(count2)s).", count=len(palaces), count2=len(add)))
    placed = sum(add) + sum(new)
    if placed != floors:
        return _p(R_BUILD, msg("Place exactly the %(floors)s floors of this action (got %(placed)s); no other floors may move.", floors=floors, placed=placed))
    for i, (pal, extra) in enumerate(zip(palaces, add)):
        if pal["floors"] + extra > MAX_FLOORS:
            return _p(R_PALACE, msg("Palace %(value)s would have %(floors)s + %(extra)s floors; at most %(MAX_FLOORS)s.", value=i + 1, floors=pal['floors'], extra=extra, MAX_FLOORS=MAX_FLOORS))
    return []


def _check_recruit(state: dict, move: Move) -> list[Problem]:
    d = move.data
    player = state["players"][d["seat"]]
    card = d["card"]
    if card not in player["cards"]:
        name, card_name = who(d["seat"]), PERSON_NAMES[card]
        return _p(R_PERSON, msg("%(name)s has already played the %(card_name)s card.", name=name, card_name=card_name))
    kinds = TYPES if card == WILD else (card,)
    person = d.get("person")
    if person is None:
        return _check_no_tile(state, d, kinds)
    return _check_tile(state, person, card, kinds) or _check_place(state, d)


def _check_no_tile(state: dict, d: dict, kinds) -> list[Problem]:
    left = sum(state["supply"][k][a] for k in kinds for a in available(state, k))
    if left:
        return _p(R_PERSON, msg("Tiles of this card are still there (%(left)s left): take one.", left=left))
    if any(k in d for k in ("palace", "replace", "away")):
        return _p(R_PERSON, msg("Without a tile there is nothing to place."))
    return []


def _check_tile(state: dict, person: dict, card: str, kinds) -> list[Problem]:
    if person["type"] not in kinds:
        tile, played = PERSON_NAMES[person["type"]], PERSON_NAMES[card]
        return _p(R_PERSON, msg("A %(tile)s tile does not match the %(played)s card played.", tile=tile, played=played))
    if person["age"] not in PERSONS[person["type"]]:
        return _p(R_TILES, msg("That type has no tile of that age."))
    if state["supply"][person["type"]][person["age"]] < 1:
        name = person_name(person)
        return _p(R_PERSON, msg("No %(name)s tile is left (0).", name=name))
    return []


def _check_place(state: dict, d: dict) -> list[Problem]:
    player = state["players"][d["seat"]]
    rooms = free_rooms(player)
    if d.get("away"):
        if rooms or "palace" in d or "replace" in d:
            free = ", ".join(str(i + 1) for i in rooms) or "–"
            return _p(R_PERSON, msg("While a room is free (palace %(free)s) the new person must move in.", free=free))
        return []
    if "palace" not in d:
        return _p(R_PERSON, msg("Say which palace the person goes into."))
    i, count = d["palace"], len(player["palaces"])
    if i >= count:
        return _p(R_PALACE, msg("There is no palace %(value)s (%(count)s palaces).", value=i + 1, count=count))
    if "replace" in d:
        if rooms:
            free = ", ".join(str(r + 1) for r in rooms)
            return _p(R_PERSON, msg("No replacing while a room is free (palace %(free)s).", free=free))
        if d["replace"] >= len(player["palaces"][i]["persons"]):
            return _p(R_PALACE, msg("No such person in that palace."))
        return []
    if i not in rooms:
        floors = player["palaces"][i]["floors"]
        full = msg("Palace %(palace)s is full (%(floors)s floors, %(floors)s persons).", palace=i + 1, floors=floors)
        return _p(R_PALACE, full if rooms else joined(" ", [full, msg("Replace someone or send the new person away.")]))
    return []


def _check_release(state: dict, move: Move) -> list[Problem]:
    d, due = move.data, state["next"]
    palaces = state["players"][d["seat"]]["palaces"]
    spots = [tuple(x) for x in d["persons"]]
    if len(set(spots)) != len(spots):
        return _p(R_RELEASE, msg("Each person can be released only once."))
    for pal, slot in spots:
        if pal >= len(palaces) or slot >= len(palaces[pal]["persons"]):
            return _p(R_PALACE, msg("Palace %(value)s has no person %(value2)s.", value=pal + 1, value2=slot + 1))
    if len(spots) != due["count"]:
        return _p(due["rule"], msg("Exactly %(count)s person(s) must be released (got %(count2)s); no voluntary releases.", count=due['count'], count2=len(spots)))
    if due["reason"] == "drought" and len({p for p, _ in spots}) != len(spots):
        return _p(R_DROUGHT, msg("In a drought release one person from each palace you cannot supply."))
    return []


CHECKS: dict[str, Callable[[dict, Move], list[Problem]]] = {
    "dragon-events-laid": _check_row, "dragon-opening-recruited": _check_opening,
    "dragon-actions-dealt": _check_dealt, "dragon-action-chosen": _check_action,
    "dragon-money-refilled": _check_refill, "dragon-floors-placed": _check_floors,
    "dragon-person-recruited": _check_recruit, "dragon-persons-released": _check_release,
}
