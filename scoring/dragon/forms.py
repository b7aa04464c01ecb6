"""In the Year of the Dragon: the phone form → event, and the move log's words.

Every form posts only the choice; the seat comes from the state (whose turn it is),
so any seated phone can record for the player whose turn it is (§23). Fields are read
with the shared readers of scoring/forms.py, refusing with a reason beside the form.
"""
from __future__ import annotations

from typing import Callable, Mapping

from scoring.base import Move, text
from scoring.dragon.data import (ACTION_NAMES, ACTIONS, DRAWN_EVENTS, EVENT_NAMES, MAX_FLOORS,
                                 PERSON_NAMES, PERSONS, R_FORM, TYPES, WILD, person_name)
from scoring.forms import fail, form_choice, form_int, form_list, parse_action, player_name
from scoring.i18n import joined, msgn
from scoring.i18n import msg

MAX_PALACES = 41  # the schema's bound on a palace index
_TILES = [f"{k}:{a}" for k, ages in PERSONS.items() for a in ages]
_CARDS = list(TYPES) + [WILD]
_CHOICES = [f"{g}:{a}" for g in range(5) for a in ACTIONS if a != "privilege"] + \
    [f"{g}:privilege:{size}" for g in range(5) for size in ("small", "large")]
_PERSONS = [f"{i}:{tile}" for i in range(MAX_PALACES) for tile in _TILES]  # "<palace>:<type>:<age>"
_PLACES = ["away"] + [f"p:{i}" for i in range(MAX_PALACES)] + [f"r:{person}" for person in _PERSONS]


def _seat(state: dict) -> int:
    seat = state["next"]["seat"]
    return seat if seat is not None else 0


def parse_form(state: dict, form: Mapping[str, str]) -> tuple[str, dict]:
    return parse_action(PARSERS, state, form, R_FORM)


def _row(state: dict, form) -> dict:
    row = [form_choice(form, f"ev{m}", DRAWN_EVENTS, msg("Month %(m)s", m=m), rule=R_FORM)
           for m in range(3, 13)]
    return {"row": row}


def _opening(state: dict, form) -> dict:
    persons = []
    for i in (1, 2):
        kind = form_choice(form, f"type{i}", TYPES, msg("Person %(i)s", i=i), rule=R_FORM)
        palace = form_int(form, f"palace{i}", msg("Person %(i)s's palace", i=i),
                          R_FORM, low=0, high=1)
        persons.append({"type": kind, "palace": palace})
    return {"seat": _seat(state), "persons": persons}


def _dealt(state: dict, form) -> dict:
    groups = [[] for _ in range(state["n"])]
    for name in ACTIONS:
        label = msg("Group of %(text)s", text=ACTION_NAMES[name])
        groups[form_int(form, f"group_{name}", label, R_FORM, low=1, high=state["n"]) - 1].append(name)
    return {"groups": groups}


def _action(state: dict, form) -> dict:
    choice = form_choice(form, "choice", _CHOICES, msg("Action"), rule=R_FORM)
    parts = choice.split(":")
    data = {"seat": _seat(state), "group": int(parts[0]), "action": parts[1]}
    if len(parts) == 3:
        data["privilege"] = parts[2]
    return data


def _refill(state: dict, form) -> dict:
    return {"seat": _seat(state)}


def _floors(state: dict, form) -> dict:
    seat = _seat(state)
    palaces = state["players"][seat]["palaces"]
    add = [form_int({"n": form.get(f"add{i}") or "0"}, "n", msg("Palace %(value)s", value=i + 1),
                    R_FORM, low=0, high=MAX_FLOORS) for i in range(len(palaces))]
    new = [form_int({"n": raw}, "n", msg("New palace"), R_FORM, low=0, high=MAX_FLOORS)
           for raw in form_list(form, "new")]
    return {"seat": seat, "add": add, "new": [f for f in new if f]}


def _recruit(state: dict, form) -> dict:
    """``pick`` = "<card>|<type>:<age>" (or "<card>|" when no tile of it is left);
    ``place`` = "p:<palace>", "r:<palace>:<type>:<age>" (replace that person) or "away"."""
    card, _, tile = (form.get("pick") or "").partition("|")
    if card not in _CARDS or (tile and tile not in _TILES):
        fail(msg("Choose the card played and the tile."), R_FORM)
    data = {"seat": _seat(state), "card": card}
    if not tile:
        return data
    kind, _, age = tile.partition(":")
    data["person"] = {"type": kind, "age": age}
    place = form_choice(form, "place", _PLACES, msg("Where it goes"), rule=R_FORM)
    if place == "away":
        data["away"] = True
    elif place.startswith("p:"):
        data["palace"] = int(place[2:])
    else:
        data["palace"], data["replace"] = _slots(state, [place[2:]])[0]
    return data


def _release(state: dict, form) -> dict:
    persons = [form_choice({"v": raw}, "v", _PERSONS, msg("Released"), rule=R_FORM)
               for raw in form_list(form, "release")]
    if not persons:
        fail(msg("Tick the persons to release."), R_FORM)
    return {"seat": _seat(state), "persons": [list(spot) for spot in _slots(state, persons)]}


def _slots(state: dict, persons: list[str]) -> list[tuple[int, int]]:
    """The [palace, slot] of each person named "<palace>:<type>:<age>" in the court of the
    player whose turn it is; a person named twice is two such persons of that palace."""
    palaces = state["players"][_seat(state)]["palaces"]
    taken: list[tuple[int, int]] = []
    for person in persons:
        palace, kind, age = person.split(":")
        i = int(palace)
        tile = {"type": kind, "age": age}
        lives = palaces[i]["persons"] if i < len(palaces) else []
        free = [j for j, p in enumerate(lives) if p == tile and (i, j) not in taken]
        if not free:
            name = person_name(tile)
            fail(msg("Palace %(value)s holds no (further) %(name)s.", value=i + 1, name=name), R_FORM)
        taken.append((i, free[0]))
    return taken


PARSERS: dict[str, Callable[[dict, Mapping], dict]] = {
    "dragon-events-laid": _row, "dragon-opening-recruited": _opening,
    "dragon-actions-dealt": _dealt, "dragon-action-chosen": _action,
    "dragon-money-refilled": _refill, "dragon-floors-placed": _floors,
    "dragon-person-recruited": _recruit, "dragon-persons-released": _release,
}

# ---------------------------------------------------------------- the log's words


def _join(items, lang: str) -> str:
    return ", ".join(i[lang] for i in items)


def describe(move: Move, players: list[dict], state: dict | None = None,
             options: dict | None = None) -> dict[str, str]:
    """The move in words; ``state``, the state the move was made on, names who left a
    palace by it (None: the line without them)."""
    said = DESCRIBE[move.type](move.data)
    left = _left(move, state) if state else []
    if left:  # whom the form's choice named: the person replaced, the persons released
        persons = joined(", ", [msg("%(text)s (palace %(value)s)", text=person_name(p), value=pal + 1)
                                for pal, p in left])
        said = msg("%(said)s – left: %(persons)s", said=said, persons=persons)
    if "seat" not in move.data:
        return said
    who = player_name(players, move.data["seat"])
    return msg("%(who)s: %(said)s", who=who, said=said)


def _left(move: Move, before: dict) -> list[tuple[int, dict]]:
    """Who leaves a palace by ``move`` made on the state ``before``: (palace, person) each."""
    d = move.data
    if move.type == "dragon-persons-released":
        spots = [tuple(spot) for spot in d["persons"]]
    elif move.type == "dragon-person-recruited" and "replace" in d:
        spots = [(d["palace"], d["replace"])]
    else:
        return []
    palaces = before["players"][d["seat"]]["palaces"]
    return [(pal, palaces[pal]["persons"][slot]) for pal, slot in spots]


def _said_row(d: dict) -> dict:
    names = [EVENT_NAMES[e] for e in d["row"]]
    return msg("Event row (months 3–12): %(events)s", events=joined(", ", names))


def _said_opening(d: dict) -> dict:
    items = [msg("%(text)s (palace %(value)s)", text=PERSON_NAMES[p['type']], value=p['palace'] + 1) for p in d["persons"]]
    return joined(", ", items)


def _said_dealt(d: dict) -> dict:
    groups = joined(" | ", [joined(" + ", [ACTION_NAMES[a] for a in g]) for g in d["groups"]])
    return msg("Action groups: %(groups)s", groups=groups)


def _said_action(d: dict) -> dict:
    name = ACTION_NAMES[d["action"]]
    extra = {"small": msg(" (small)"), "large": msg(" (large)")}.get(
        d.get("privilege"), text("", ""))
    return msg("%(name)s%(extra)s – group %(value)s", name=name, extra=extra, value=d['group'] + 1)


def _said_refill(d: dict) -> dict:
    return msg("refills money to 3 yuan")


def _said_floors(d: dict) -> dict:
    said = [msg("palace %(palace)s +%(floors)s", palace=i + 1, floors=a) for i, a in enumerate(d["add"]) if a]
    if d["new"]:
        said.append(msg("new palace: %(floors)s", floors=joined(", ", [msgn("%(num)d floor", "%(num)d floors", f)
                                                                     for f in d["new"]])))
    return joined(", ", said)


def _said_recruit(d: dict) -> dict:
    card = PERSON_NAMES[d["card"]]
    if "person" not in d:
        return msg("%(card)s – no tile left, gets nothing", card=card)
    tile = person_name(d["person"])
    if d.get("away"):
        where = msg("sent away")
    elif "replace" in d:
        where = msg("palace %(value)s, replacing", value=d['palace'] + 1)
    else:
        where = msg("palace %(value)s", value=d['palace'] + 1)
    if d["card"] != WILD:
        return msg("%(tile)s (%(where)s)", tile=tile, where=where)
    return msg("%(card)s → %(tile)s (%(where)s)", card=card, tile=tile, where=where)


def _said_release(d: dict) -> dict:
    n = len(d["persons"])
    return msg("%(n)s person(s) released", n=n)


DESCRIBE: dict[str, Callable[[dict], dict]] = {
    "dragon-events-laid": _said_row, "dragon-opening-recruited": _said_opening,
    "dragon-actions-dealt": _said_dealt, "dragon-action-chosen": _said_action,
    "dragon-money-refilled": _said_refill, "dragon-floors-placed": _said_floors,
    "dragon-person-recruited": _said_recruit, "dragon-persons-released": _said_release,
}
