"""Maharaja's phone forms (``parse_form``, ``parse_options``) and move log lines
(``describe``). The form offers only the step the rules wait for (``state["next"]``);
the seat is whose turn it is, never typed."""
from __future__ import annotations

import json
from typing import Callable, Mapping

from scoring.base import FormError, Move, Problem, Text, text
from scoring.forms import fail, form_choice, form_int, form_list, player_name
from scoring.i18n import joined
from scoring.i18n import msg, msgp
from scoring.maharaja.apply import acting_seat
from scoring.maharaja.boards import RULE as BOARD_RULE, cheapest_route, place_names
from scoring.maharaja.data import (ACTIONS, CHARACTERS, CHIP_ACTIONS, CITIES, EVENT_TYPES, TICKS, VILLAGES,
                                   place_label, rule)

PLACES = (*CITIES, *(f"v{i}" for i in range(1, VILLAGES + 1)))  # "A"…"G", "v1"…"v30"


# A field left empty or made up is refused citing the rule the field belongs to, never an
# internal tag: places (§1), the governor track (§3, §11), characters (§4, §12), actions (§7).

def _place(form, name: str, label: Text) -> str:
    return form_choice(form, name, PLACES, label, rule=rule(1))


def _city(form, name: str, label: Text, section: int) -> str:
    return form_choice(form, name, CITIES, label, rule=rule(section))


def _character(form, name: str, section: int) -> int:
    return form_int(form, name, msg("character"), rule=rule(section), low=1, high=len(CHARACTERS))


def _due_seat(state: dict, form) -> int:
    """Whose turn it is; only the auction (nobody's turn) asks who won the bid."""
    seat = state["next"]["seat"] if state["next"] else None
    if seat is not None:
        return seat
    return form_int(form, "seat", msg("player"), rule=rule(4), low=0, high=state["n"] - 1)


VILLAGE_VALUES = tuple(f"v{i}" for i in range(1, VILLAGES + 1))


def _travel(state, form) -> dict:
    via = _travel_villages(form)
    city = _city(form, "travel_city", msg("destination"), 8)
    if not via and state.get("roads") and state.get("turn"):   # roads known: the app finds the way
        seat = state["turn"]["seat"]
        route = cheapest_route(state["roads"], state["villages"], seat, state["architects"][seat], city)
        if route is None:
            fail(msg("No open road to this city (a village without houses blocks it)."), rule(8))
        via = [f"v{n}" for n in route]
    return {"city": city, "via": sorted(set(via), key=lambda v: int(v[1:]))}


def _travel_villages(form) -> list[str]:
    values = [v for v in form_list(form, "via") if v]
    for value in values:
        if value not in VILLAGE_VALUES:
            fail(msg("Not a village."), rule(8))
    return values


def _architect_city(state) -> str:
    turn = state.get("turn")
    city = state["architects"][turn["seat"]] if turn else None
    if city is None:
        fail(msgp("refusal", "A palace goes where your architect stands: travel to a city first."), rule(9))
    return city


def _choose(state, form) -> tuple[str, dict]:
    paid = form_int(form, "paid", msg("bid"), rule=rule(4), low=0, high=1000) if form.get("paid") else 0
    return "character-chosen", {"seat": _due_seat(state, form), "character": _character(form, "character", 4),
                                "paid": paid}


def _house(free: bool):
    def parse(state, form) -> tuple[str, dict]:
        data = {"place": _place(form, "house_place", msg("place"))}
        return "house-built", (data | {"free": True} if free else data)
    return parse


def _move_house(free: bool):
    def parse(state, form) -> tuple[str, dict]:
        data = {"source": _place(form, "move_from", msg("from")), "place": _place(form, "move_to", msg("to"))}
        return "house-moved", (data | {"free": True} if free else data)
    return parse


PARSERS: dict[str, Callable[[dict, Mapping], tuple[str, dict]]] = {
    "governors-laid": lambda s, f: ("governors-laid", {"order": [
        _city(f, f"gov{i}", msg("governor %(i)s", i=i), 3) for i in range(1, 8)]}),
    "character-chosen": _choose,
    "start-house-placed": lambda s, f: ("start-house-placed", {"seat": _due_seat(s, f),
                                                               "place": _place(f, "place", msg("village"))}),
    "actions-revealed": lambda s, f: ("actions-revealed", {"seat": _due_seat(s, f), "actions": [
        form_choice(f, "action1", ACTIONS, msg("first action"), rule=rule(7)),
        form_choice(f, "action2", ACTIONS, msg("second action"), rule=rule(7))]}),
    "architect-travelled": lambda s, f: ("architect-travelled", _travel(s, f)),
    "gold-taken": lambda s, f: ("gold-taken", {}),
    "house-built": _house(free=False),
    "house-built-free": _house(free=True),
    "house-moved": _move_house(free=False),
    "house-moved-free": _move_house(free=True),
    "quarry-used": lambda s, f: ("quarry-used", {}),
    "palace-built": lambda s, f: ("palace-built", {"city": _architect_city(s), "site": form_choice(
        f, "palace_site", ("inner", "outer"), msg("site"), rule=rule(9))}),
    "governor-moved": lambda s, f: ("governor-moved", {"city": _city(f, "governor", msg("governor"), 11)}),
    "character-swapped": lambda s, f: ("character-swapped", {"character": _character(f, "swap_character", 12)}),
    "character-picked": lambda s, f: ("character-picked", {"character": _character(f, "pick_character", 12)}),
    "chip-used": lambda s, f: ("chip-used", {"action": form_choice(f, "chip_action", CHIP_ACTIONS,
                                                                    msg("extra action"),
                                                                    rule=rule(13))}),
    "turn-ended": lambda s, f: ("turn-ended", {}),
    "turn-ended-renounce": lambda s, f: ("turn-ended", {"renounce": True}),
}


# A tile is a button whose value names its move and its one choice ("architect-travelled:C"):
# one tap records the move, the choice filling the field a select once asked for
# (docs/decisions.md, One tap per choice).
TILE_FIELDS = {"actions-revealed": "action2", "architect-travelled": "travel_city", "palace-built": "palace_site",
               "house-built": "house_place", "house-built-free": "house_place", "governor-moved": "governor",
               "start-house-placed": "place", "character-swapped": "swap_character"}


def _tapped(form, name: str, value: str):
    """The form with a tile's choice in its field (a werkzeug MultiDict, or a plain dict)."""
    if hasattr(form, "getlist"):
        copy = form.copy()
        copy.setlist(name, [value])
        return copy
    return {**form, name: value}


def parse_form(state: dict, form) -> tuple[str, dict]:
    action, _, choice = (form.get("action") or "").partition(":")
    parser = PARSERS.get(action)
    if parser is None or state["next"] is None or (choice and action not in TILE_FIELDS):
        fail(msg("Unknown action."), rule(6))
    return parser(state, _tapped(form, TILE_FIELDS[action], choice) if choice else form)


def parse_options(form) -> dict:
    """The set-up form (templates/games/maharaja/_setup.html): ticks, homes, a pinned profile."""
    raw = (form.get("opt_board") or "").strip()
    try:
        pinned = json.loads(raw) if raw else {}
    except ValueError:
        pinned = None
    if not isinstance(pinned, dict):
        raise FormError([Problem(BOARD_RULE, msg("Not a board profile."))])
    return {**{name: form.get(f"opt_{name}") in ("1", "on") for name in TICKS},
            "homes": (form.get("opt_homes") or "").strip().upper()[:20], "board": pinned}


# ---- the move log ----------------------------------------------------------------------

def _city_named(names: dict, city: str) -> str:
    """A city as the board shows it: its letter, and its name once the table's board
    profile gives one ("C (Jaipur)")."""
    return f"{city} ({names[city]})" if names.get(city) else city




def _character_chosen(d, names):
    c, paid = CHARACTERS.get(d["character"], msg("?")), d.get("paid", 0)
    return msg("%(character)s (%(paid)s gold)", character=c, paid=paid) if paid else c


def _start_house(d, names):
    where = place_label(d["place"], names)
    return msg("starting house – %(where)s", where=where)


def _revealed(d, names):
    acts = [ACTIONS[a][1] for a in d["actions"]]
    return joined(" + ", acts)


def _gold_taken(d, names):
    return msg("took 2 gold")


def _travelled(d, names):
    via = ", ".join(str(v).removeprefix("v") for v in d["via"]) or "–"
    return msg("Architect → city %(value)s (villages: %(via)s)", value=_city_named(names, d['city']), via=via)


def _free(d) -> dict:
    return msg(" (Builder, free)") if d.get("free") else text("", "")


def _house_built(d, names):
    where, free = place_label(d["place"], names), _free(d)
    return msg("House – %(where)s%(free)s", where=where, free=free)


def _house_moved(d, names):
    src, where, free = place_label(d["source"], names), place_label(d["place"], names), _free(d)
    return msg("House: %(src)s → %(where)s%(free)s", src=src, where=where, free=free)


def _palace(d, names):
    site = msg("inner") if d["site"] == "inner" else msg("outer")
    city = _city_named(names, d["city"])
    return msg("Palace – city %(city)s, %(site)s", city=city, site=site)


def _governor(d, names):
    city = _city_named(names, d["city"])
    return msg("Governor %(city)s two boxes down", city=city)


def _character_line(verb: dict):
    def line(d, names):
        c = CHARACTERS.get(d["character"], msg("?"))
        return msg("%(verb)s: %(c)s", verb=verb, c=c)
    return line


def _chip(d, names):
    act = ACTIONS[d["action"]][1]
    return msg("Action chip: %(act)s", act=act)


def _turn_ended(d, names):
    if d.get("renounce"):
        return msg("Turn ended, renouncing a part (every other player +2 gold)")
    return dict(EVENT_TYPES["turn-ended"].label)


def _governors(d, names):
    order = " ".join(d["order"])
    return msg("Governor track from the bottom: %(order)s", order=order)


LINES = {
    "governors-laid": _governors, "character-chosen": _character_chosen, "start-house-placed": _start_house,
    "actions-revealed": _revealed, "gold-taken": _gold_taken, "architect-travelled": _travelled,
    "house-built": _house_built,
    "house-moved": _house_moved, "palace-built": _palace, "governor-moved": _governor,
    "character-swapped": _character_line(msg("Swapped to")),
    "character-picked": _character_line(msg("Picked")), "chip-used": _chip, "turn-ended": _turn_ended,
}


def actor(move: Move, before: dict | None) -> int | None:
    """Who made the move: the seat its payload names, else whose move it was on the state
    ``before`` it (§6); None when that state is not at hand."""
    if move.data.get("seat") is not None:
        return move.data["seat"]
    return acting_seat(before, move) if before else None


def _taken_from(move: Move, before: dict | None) -> int | None:
    """Whom a swap took its character from, on the state ``before`` it (§12)."""
    if move.type != "character-swapped" or not before:
        return None
    return before["characters"][move.data["character"] - 1]


def describe(move: Move, players: list[dict], state: dict | None = None,
             options: dict | None = None) -> dict[str, str]:
    """The move in words, led by who made it ("Júlia: took 2 gold"); which phone recorded
    it is the log's to say. ``state``: the state the move was made on; ``options``: the
    table's set-up, whose board profile names places (either None: not at hand)."""
    line = LINES.get(move.type)
    said = line(move.data, place_names(options)) if line else dict(EVENT_TYPES[move.type].label)
    loser = _taken_from(move, state)
    if loser is not None:  # the swap's option named the player it took the character from
        said = msg("%(said)s (taken from %(who)s)", said=said, who=player_name(players, loser))
    seat = actor(move, state)
    if seat is None:
        return said
    who = player_name(players, seat)
    return msg("%(who)s: %(said)s", who=who, said=said)
