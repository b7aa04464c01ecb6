"""Maharaja's phone forms (``parse_form``, ``parse_options``) and move log lines
(``describe``). The form offers only the step the rules wait for (``state["next"]``);
the seat is whose turn it is, never typed."""
from __future__ import annotations

import json
from typing import Callable, Mapping

from scoring.base import FormError, Move, Problem, text
from scoring.forms import fail, form_choice, form_int, form_list, player_name
from scoring.maharaja.boards import RULE as BOARD_RULE, cheapest_route
from scoring.maharaja.data import (ACTIONS, CHARACTERS, CHIP_ACTIONS, CITIES, EVENT_TYPES, TICKS, VILLAGES,
                                   place_label, rule)

PLACES = (*CITIES, *(f"v{i}" for i in range(1, VILLAGES + 1)))


def _label(hu: str, en: str) -> dict:
    return text(hu, en)


def _place(form, name: str, hu: str, en: str) -> str:
    return form_choice(form, name, PLACES, _label(hu, en))


def _city(form, name: str, hu: str, en: str) -> str:
    return form_choice(form, name, CITIES, _label(hu, en))


def _character(form, name: str) -> int:
    return form_int(form, name, _label("karakter", "character"), low=1, high=len(CHARACTERS))


def _due_seat(state: dict, form) -> int:
    """Whose turn it is; only the auction (nobody's turn) asks who won the bid."""
    seat = state["next"]["seat"] if state["next"] else None
    if seat is not None:
        return seat
    return form_int(form, "seat", _label("játékos", "player"), low=0, high=state["n"] - 1)


def _travel(state, form) -> dict:
    via = [int(v) for v in _travel_villages(form)]
    city = _city(form, "travel_city", "úti cél", "destination")
    if not via and state.get("roads") and state.get("turn"):   # roads known: the app finds the way
        seat = state["turn"]["seat"]
        via = cheapest_route(state["roads"], state["villages"], seat, state["architects"][seat], city)
        if via is None:
            fail("Nincs járható út ebbe a városba (ház nélküli falu zárja el).",
                 "No open road to this city (a village without houses blocks it).", rule(8))
    return {"city": city, "via": sorted(set(via))}


def _travel_villages(form) -> list[str]:
    values = [v for v in form_list(form, "via") if v]
    for value in values:
        if not (value.isascii() and value.isdigit() and 1 <= int(value) <= VILLAGES):
            fail("Érvénytelen falu.", "Not a village.", rule(8))
    return values


def _architect_city(state) -> str:
    turn = state.get("turn")
    city = state["architects"][turn["seat"]] if turn else None
    if city is None:
        fail("Palota csak ott épülhet, ahol az építészed áll: előbb utazz egy városba.",
             "A palace goes where your architect stands: travel to a city first.", rule(9))
    return city


def _choose(state, form) -> tuple[str, dict]:
    paid = form_int(form, "paid", _label("licit", "bid"), low=0, high=1000) if form.get("paid") else 0
    return "character-chosen", {"seat": _due_seat(state, form), "character": _character(form, "character"),
                                "paid": paid}


def _house(free: bool):
    def parse(state, form) -> tuple[str, dict]:
        data = {"place": _place(form, "house_place", "hely", "place")}
        return "house-built", (data | {"free": True} if free else data)
    return parse


def _move_house(free: bool):
    def parse(state, form) -> tuple[str, dict]:
        data = {"source": _place(form, "move_from", "honnan", "from"), "place": _place(form, "move_to", "hová", "to")}
        return "house-moved", (data | {"free": True} if free else data)
    return parse


PARSERS: dict[str, Callable[[dict, Mapping], tuple[str, dict]]] = {
    "governors-laid": lambda s, f: ("governors-laid", {"order": [
        _city(f, f"gov{i}", f"{i}. kormányzó", f"governor {i}") for i in range(1, 8)]}),
    "character-chosen": _choose,
    "start-house-placed": lambda s, f: ("start-house-placed", {"seat": _due_seat(s, f),
                                                               "place": _place(f, "place", "falu", "village")}),
    "actions-revealed": lambda s, f: ("actions-revealed", {"seat": _due_seat(s, f), "actions": [
        form_choice(f, "action1", ACTIONS, _label("1. cselekedet", "first action")),
        form_choice(f, "action2", ACTIONS, _label("2. cselekedet", "second action"))]}),
    "architect-travelled": lambda s, f: ("architect-travelled", _travel(s, f)),
    "gold-taken": lambda s, f: ("gold-taken", {}),
    "house-built": _house(free=False),
    "house-built-free": _house(free=True),
    "house-moved": _move_house(free=False),
    "house-moved-free": _move_house(free=True),
    "quarry-used": lambda s, f: ("quarry-used", {}),
    "palace-built": lambda s, f: ("palace-built", {"city": _architect_city(s), "site": form_choice(
        f, "palace_site", ("inner", "outer"), _label("palotahely", "site"))}),
    "governor-moved": lambda s, f: ("governor-moved", {"city": _city(f, "governor", "kormányzó", "governor")}),
    "character-swapped": lambda s, f: ("character-swapped", {"character": _character(f, "swap_character")}),
    "character-picked": lambda s, f: ("character-picked", {"character": _character(f, "pick_character")}),
    "chip-used": lambda s, f: ("chip-used", {"action": form_choice(f, "chip_action", CHIP_ACTIONS,
                                                                    _label("plusz cselekedet", "extra action"))}),
    "turn-ended": lambda s, f: ("turn-ended", {}),
    "turn-ended-renounce": lambda s, f: ("turn-ended", {"renounce": True}),
}


def parse_form(state: dict, form) -> tuple[str, dict]:
    parser = PARSERS.get(form.get("action", ""))
    if parser is None or state["next"] is None:
        fail("Ismeretlen művelet.", "Unknown action.")
    return parser(state, form)


def parse_options(form) -> dict:
    """The set-up form (templates/games/maharaja/_setup.html): ticks, homes, a pinned profile."""
    raw = (form.get("opt_board") or "").strip()
    try:
        pinned = json.loads(raw) if raw else {}
    except ValueError:
        pinned = None
    if not isinstance(pinned, dict):
        raise FormError([Problem(BOARD_RULE, "Érvénytelen tábla-profil.", "Not a board profile.")])
    return {**{name: form.get(f"opt_{name}") in ("1", "on") for name in TICKS},
            "homes": (form.get("opt_homes") or "").strip().upper()[:20], "board": pinned}


# ---- the move log ----------------------------------------------------------------------

def _city_names(state: dict | None) -> Callable[[str], str]:
    """A city as the board shows it: its letter, and its name once the table's board
    profile gives one ("C (Jaipur)")."""
    names = (state or {}).get("city_names") or {}
    return lambda city: f"{city} ({names[city]})" if names.get(city) else str(city)


def _character_chosen(d, players, city):
    who, c = player_name(players, d["seat"]), CHARACTERS.get(d["character"], text("?", "?"))
    paid = d.get("paid", 0)
    return text(f"{who}: {c['hu']}" + (f" ({paid} arany)" if paid else ""),
                f"{who}: {c['en']}" + (f" ({paid} gold)" if paid else ""))


def _start_house(d, players, city):
    where, who = place_label(d["place"]), player_name(players, d["seat"])
    return text(f"{who}: kezdő ház – {where['hu']}", f"{who}: starting house – {where['en']}")


def _revealed(d, players, city):
    acts, who = [ACTIONS[a][1] for a in d["actions"]], player_name(players, d["seat"])
    return text(f"{who}: {' + '.join(a['hu'] for a in acts)}", f"{who}: {' + '.join(a['en'] for a in acts)}")


def _travelled(d, players, city):
    via = ", ".join(str(v) for v in d["via"]) or "–"
    return text(f"Építész → {city(d['city'])} város (falvak: {via})",
                f"Architect → city {city(d['city'])} (villages: {via})")


def _free(d) -> dict:
    return text(" (kőműves, ingyen)", " (Builder, free)") if d.get("free") else text("", "")


def _house_built(d, players, city):
    where, free = place_label(d["place"]), _free(d)
    return text(f"Ház – {where['hu']}{free['hu']}", f"House – {where['en']}{free['en']}")


def _house_moved(d, players, city):
    src, where, free = place_label(d["source"]), place_label(d["place"]), _free(d)
    return text(f"Ház: {src['hu']} → {where['hu']}{free['hu']}", f"House: {src['en']} → {where['en']}{free['en']}")


def _palace(d, players, city):
    site = text("belső", "inner") if d["site"] == "inner" else text("külső", "outer")
    return text(f"Palota – {city(d['city'])} város, {site['hu']}", f"Palace – city {city(d['city'])}, {site['en']}")


def _governor(d, players, city):
    return text(f"{city(d['city'])} kormányzó két mezőt lejjebb", f"Governor {city(d['city'])} two boxes down")


def _character_line(verb: dict):
    def line(d, players, city):
        c = CHARACTERS.get(d["character"], text("?", "?"))
        return text(f"{verb['hu']}: {c['hu']}", f"{verb['en']}: {c['en']}")
    return line


def _chip(d, players, city):
    act = ACTIONS[d["action"]][1]
    return text(f"Cselekedetérme: {act['hu']}", f"Action chip: {act['en']}")


def _turn_ended(d, players, city):
    if d.get("renounce"):
        return text("Kör vége, lemondott cselekedettel (mindenki más +2 arany)",
                    "Turn ended, renouncing a part (every other player +2 gold)")
    return dict(EVENT_TYPES["turn-ended"].label)


def _governors(d, players, city):
    order = " ".join(d["order"])
    return text(f"Kormányzósáv alulról: {order}", f"Governor track from the bottom: {order}")


LINES = {
    "governors-laid": _governors, "character-chosen": _character_chosen, "start-house-placed": _start_house,
    "actions-revealed": _revealed, "architect-travelled": _travelled, "house-built": _house_built,
    "house-moved": _house_moved, "palace-built": _palace, "governor-moved": _governor,
    "character-swapped": _character_line(text("Karaktercsere", "Swapped to")),
    "character-picked": _character_line(text("Választott", "Picked")), "chip-used": _chip, "turn-ended": _turn_ended,
}


def describe(move: Move, players: list[dict], state: dict | None = None) -> dict[str, str]:
    line = LINES.get(move.type)
    return line(move.data, players, _city_names(state)) if line else dict(EVENT_TYPES[move.type].label)
