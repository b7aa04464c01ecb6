"""In the Year of the Dragon: what the phone form and the board show, derived from the
folded facts when a page renders. The form offers only legal choices (``check`` still
refuses anything else), §23. Persons are offered by what they are and where they live
("old monk, palace 2": ``<palace>:<type>:<age>``), never by a slot number that shifts
when someone leaves; the form turns them into the payload's [palace, slot]."""
from __future__ import annotations

from typing import Callable

from scoring.dragon.data import (ACTION_NAMES, ACTIONS, GROUP_SIZES, MAX_FLOORS, REFILL_TO, TYPES, WILD,
                                 action_yield, available, free_rooms, gain_text, group_fee, person_name,
                                 privilege_price, turn_order)
from scoring.i18n import joined
from scoring.i18n import msg


def view(state: dict, players: list[dict], options: dict | None = None) -> dict:
    """``step``, ``seat`` (whose decision), ``track_order`` (courts in turn order),
    ``ask``: the choices of the decision the rules ask for now, and ``notes``: this month's
    moves in words ({"seat", "text": {"hu", "en"}})."""
    step = state["next"]["step"]
    ask = ASKS.get(step, lambda s: {})(state)
    return {"step": step, "seat": state["next"]["seat"], "track_order": turn_order(state), "ask": ask,
            "notes": [{"seat": note["seat"], "text": note_text(note)} for note in state["notes"]]}


def note_text(note: dict) -> dict[str, str]:
    """What a move of this month did (a fact the fold noted, apply.py:_note), in words."""
    return NOTES[note["what"]](note)


def _action_note(note: dict) -> dict:
    name = ACTION_NAMES[note["action"]]
    if note["action"] == "privilege":
        size = msg("small") if note["privilege"] == "small" else msg("large")
        price = note["price"]
        said = msg("%(name)s (%(size)s): −%(price)s yuan", name=name, size=size, price=price)
    else:
        got = gain_text(note["action"], note["gain"])
        said = msg("%(name)s: %(got)s", name=name, got=got)
    if note["fee"]:
        fee = note["fee"]
        said = msg("%(said)s (taken group: −%(fee)s yuan)", said=said, fee=fee)
    return said


def _floors_note(note: dict) -> dict:
    extended = [msg("palace %(value)s +%(a)s", value=i + 1, a=a) for i, a in enumerate(note["add"]) if a]
    started = [msg("new %(f)s-floor palace", f=f) for f in note["new"]]
    return msg("floors: %(floors)s", floors=joined(", ", extended + started))


def _moved_in_note(note: dict) -> dict:
    name, steps = person_name(note["person"]), note["steps"]
    where = msg("palace %(value)s", value=note['palace'] + 1)
    if note["replaced"]:
        gone = person_name(note["replaced"])
        where = msg("%(where)s, replacing the %(gone)s", where=where, gone=gone)
    return msg("%(name)s (%(where)s): +%(steps)s on the person track", name=name, where=where, steps=steps)


def _away_note(note: dict) -> dict:
    name = person_name(note["person"])
    return msg("%(name)s: sent away, no steps", name=name)


NOTES: dict[str, Callable[[dict], dict]] = {
    "action": _action_note, "floors": _floors_note, "moved-in": _moved_in_note, "away": _away_note,
    "refill": lambda note: msg("money up to 3 yuan: +%(gain)s yuan", gain=note['gain']),
    "no-tile": lambda note: msg("no tile of the card left: nothing")}


def _ask_opening(state: dict) -> dict:
    return {"types": [k for k in TYPES if state["supply"][k]["young"] > 0], "pairs": state["pairs"]}


def _ask_deal(state: dict) -> dict:
    sizes = GROUP_SIZES[state["n"]]
    return {"sizes": list(sizes), "actions": list(ACTIONS),
            "defaults": [g for g, size in enumerate(sizes) for _ in range(size)]}


def _ask_action(state: dict) -> dict:
    player = state["players"][state["next"]["seat"]]
    choices = []
    for g, group in enumerate(state["groups"]):
        fee = group_fee(state, g)
        for action in group:
            if action == "privilege":
                choices += _privileges(state, player, g, fee)
            elif player["yuan"] >= fee:
                choices.append({"value": f"{g}:{action}", "group": g, "action": action, "fee": fee,
                                "gain": gain_text(action, action_yield(player, action))})
    return {"choices": choices, "refill": max(0, REFILL_TO - player["yuan"])}


def _privileges(state: dict, player: dict, group: int, fee: int) -> list[dict]:
    choices = []
    for size in ("small", "large"):
        cost = fee + privilege_price(state, size)
        if player["yuan"] >= cost:
            choices.append({"value": f"{group}:privilege:{size}", "group": group, "action": "privilege",
                            "fee": fee, "size": size, "cost": cost})
    return choices


def _ask_build(state: dict) -> dict:
    floors = state["next"]["floors"]
    player = state["players"][state["next"]["seat"]]
    return {"floors": floors, "room": [min(floors, MAX_FLOORS - pal["floors"]) for pal in player["palaces"]]}


def _ask_person(state: dict) -> dict:
    player = state["players"][state["next"]["seat"]]
    cards = []
    for card in dict.fromkeys(player["cards"]):
        kinds = TYPES if card == WILD else (card,)
        cards.append({"card": card, "tiles": [f"{k}:{a}" for k in kinds for a in available(state, k)]})
    rooms = free_rooms(player)
    places = [{"value": f"p:{i}", "palace": i} for i in rooms]
    if not rooms:
        places = [{"value": f"r:{i}:{p['type']}:{p['age']}", "palace": i, "tile": f"{p['type']}:{p['age']}"}
                  for i, pal in enumerate(player["palaces"]) for p in pal["persons"]]
        places.append({"value": "away"})
    return {"cards": cards, "places": places}


def _ask_release(state: dict) -> dict:
    due = state["next"]
    player = state["players"][due["seat"]]
    return {"count": due["count"], "reason": due["reason"], "rule": due["rule"],
            "persons": [{"value": f"{i}:{p['type']}:{p['age']}", "palace": i, "tile": f"{p['type']}:{p['age']}"}
                        for i, pal in enumerate(player["palaces"]) for p in pal["persons"]]}


ASKS: dict[str, Callable[[dict], dict]] = {
    "opening": _ask_opening, "deal": _ask_deal, "action": _ask_action, "build": _ask_build,
    "person": _ask_person, "release": _ask_release}


def board_parts(state: dict, view: dict, players: list[dict], seat: int | None = None) -> list[dict]:
    """The board by its parts (``Presentation.board_parts``; templates/games/dragon/_board_part.html):
    whose decision, the event row, the action groups, this month's moves, the event's report,
    the final scoring, each court in person-track order, the supply."""
    over, month = state["next"]["step"] == "over", state["month"]
    report = {"month": month, "items": state["report"]} if state["next"]["step"] == "release" \
        else state.get("last_report")
    order = view["track_order"] if view and view.get("track_order") else range(state["n"])
    courts = [{"id": f"court-{s}", "is": "court", "seat": s, "place": n, "p": state["players"][s],
               "points": sum(p["pts"] for p in state["points"] if p["seat"] == s)} for n, s in enumerate(order, start=1)]
    return [{"id": "dragon-now", "is": "now", "over": over, "month": month, "step": state["next"]["step"],
             "seat": state["next"]["seat"], "seated": seat is not None},
            {"id": "dragon-row", "is": "row", "row": state["row"], "month": month},
            {"id": "dragon-groups", "is": "groups", "groups": state["groups"], "dragons": state["dragons"]},
            {"id": "dragon-notes", "is": "notes", "month": month, "notes": view["notes"] if view else []},
            {"id": "dragon-report", "is": "report", "rep": report if report and report["items"] else None,
             "event": state["row"][report["month"] - 1] if report and report["items"] else None},
            {"id": "dragon-final", "is": "final", "final": state["final"]},
            *courts,
            {"id": "dragon-supply", "is": "supply", "supply": state["supply"]}]
