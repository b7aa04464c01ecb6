"""Maharaja's phone form (``parse_form``) and move log lines (``describe``)."""
from __future__ import annotations

import re

from scoring import maharaja_rules as R
from scoring.maharaja_board import cheapest_route
from scoring.base import FormError, Move, Problem, text

_PLACE = re.compile(r"^([A-G]|v([1-9]|[12][0-9]|30))$")


def _bad(hu: str, en: str) -> FormError:
    return FormError([Problem("form", hu, en)])


def _field(form, name: str, hu: str, en: str) -> str:
    value = (form.get(name) or "").strip()
    if not value:
        raise _bad(f"Válaszd ki: {hu}.", f"Choose: {en}.")
    return value


def _place(form, name: str, hu: str, en: str) -> str:
    value = _field(form, name, hu, en)
    if not _PLACE.match(value):
        raise _bad(f"Érvénytelen hely: {hu}.", f"Not a place: {en}.")
    return value


def _city(form, name: str, hu: str, en: str) -> str:
    value = _field(form, name, hu, en)
    if value not in R.CITIES:
        raise _bad(f"Érvénytelen város: {hu}.", f"Not a city: {en}.")
    return value


def _number(form, name: str, hu: str, en: str) -> int:
    value = _field(form, name, hu, en)
    if not value.isdigit() or len(value) > 4:
        raise _bad(f"{hu}: egész számot adj meg.", f"{en}: enter a whole number.")
    return int(value)


def _choice(form, name: str, choices, hu: str, en: str) -> str:
    value = _field(form, name, hu, en)
    if value not in choices:
        raise _bad(f"Érvénytelen választás: {hu}.", f"Not a valid choice: {en}.")
    return value


def _values(form, name: str) -> list[str]:
    getlist = getattr(form, "getlist", None)
    if getlist:
        return [v for v in getlist(name) if v]
    value = form.get(name)
    return [value] if value else []


def _pending_seat(state: dict, form) -> int:
    seat = state["pending"][0].get("seat") if state["pending"] else None
    return seat if seat is not None else _number(form, "seat", "játékos", "player")


def _travel(state, form) -> dict:
    via = []
    for value in _values(form, "via"):
        if not value.isdigit() or not 1 <= int(value) <= R.VILLAGES:
            raise _bad("Érvénytelen falu.", "Not a village.")
        via.append(int(value))
    city = _city(form, "travel_city", "úti cél", "destination")
    if not via and state.get("roads") and state.get("turn"):   # roads known: the app finds the way
        seat = state["turn"]["seat"]
        via = cheapest_route(state["roads"], state["villages"], seat, state["architects"][seat], city)
        if via is None:
            raise _bad("Nincs járható út ebbe a városba (ház nélküli falu zárja el).",
                       "No open road to this city (a village without houses blocks it).")
    return {"city": city, "via": sorted(set(via))}


PARSERS = {
    "governors-laid": lambda s, f: {"order": [_city(f, f"gov{i}", f"{i}. kormányzó", f"governor {i}")
                                              for i in range(1, 8)]},
    "character-chosen": lambda s, f: {"seat": _pending_seat(s, f),
                                      "character": _number(f, "character", "karakter", "character"),
                                      "paid": _number(f, "paid", "licit", "bid") if f.get("paid") else 0},
    "start-house-placed": lambda s, f: {"seat": _pending_seat(s, f),
                                        "place": _place(f, "place", "falu", "village")},
    "actions-revealed": lambda s, f: {"seat": _pending_seat(s, f), "actions": [
        _choice(f, "action1", R.ACTIONS, "1. cselekedet", "first action"),
        _choice(f, "action2", R.ACTIONS, "2. cselekedet", "second action")]},
    "architect-travelled": _travel,
    "gold-taken": lambda s, f: {},
    "house-built": lambda s, f: {"place": _place(f, "house_place", "hely", "place")},
    "house-built-free": lambda s, f: {"place": _place(f, "house_place", "hely", "place"), "free": True},
    "house-moved": lambda s, f: {"source": _place(f, "move_from", "honnan", "from"),
                                 "place": _place(f, "move_to", "hová", "to")},
    "house-moved-free": lambda s, f: {"source": _place(f, "move_from", "honnan", "from"),
                                      "place": _place(f, "move_to", "hová", "to"), "free": True},
    "quarry-used": lambda s, f: {},
    "palace-built": lambda s, f: {"city": _architect_city(s),
                                  "site": _choice(f, "palace_site", ("inner", "outer"), "palotahely", "site")},
    "governor-moved": lambda s, f: {"city": _city(f, "governor", "kormányzó", "governor")},
    "character-swapped": lambda s, f: {"character": _number(f, "swap_character", "karakter", "character")},
    "character-picked": lambda s, f: {"character": _number(f, "pick_character", "karakter", "character")},
    "chip-used": lambda s, f: {"action": _choice(f, "chip_action", [a for a in R.ACTIONS if a != "character"],
                                                 "plusz cselekedet", "extra action")},
    "turn-ended": lambda s, f: {},
    "turn-ended-renounce": lambda s, f: {"renounce": True},
}


def _architect_city(state) -> str:
    turn = state.get("turn")
    city = state["architects"][turn["seat"]] if turn else None
    if city is None:
        raise _bad("Palota csak ott épülhet, ahol az építészed áll: előbb utazz egy városba.",
                   "A palace goes where your architect stands: travel to a city first.")
    return city


def parse_form(state: dict, form) -> tuple[str, dict]:
    action = form.get("action", "")
    parser = PARSERS.get(action)
    if parser is None or state["phase"] == "over":
        raise _bad("Ismeretlen művelet.", "Unknown action.")
    data = parser(state, form)
    return action.removesuffix("-free").removesuffix("-renounce"), data


# ---- the move log -------------------------------------------------------------------

def _name(players, seat) -> str:
    return players[seat]["name"] if seat is not None and 0 <= seat < len(players) else "?"


def _where(place: str) -> dict:
    return R.place_label(place)


def _city_names(state: dict | None):
    """A city as the board shows it: its letter, and its name once the table's board
    profile gives one ("C (Jaipur)")."""
    names = (state or {}).get("city_names") or {}
    return lambda city: f"{city} ({names[city]})" if names.get(city) else str(city)


def describe(move: Move, players: list[dict], state: dict | None = None) -> dict[str, str]:
    d, t, city = move.data, move.type, _city_names(state)
    if t == "governors-laid":
        order = " ".join(d["order"])
        return text(f"Kormányzósáv alulról: {order}", f"Governor track from the bottom: {order}")
    if t == "character-chosen":
        who, c = _name(players, d["seat"]), R.CHARACTERS.get(d["character"], text("?", "?"))
        paid = d.get("paid", 0)
        return text(f"{who}: {c['hu']}" + (f" ({paid} arany)" if paid else ""),
                    f"{who}: {c['en']}" + (f" ({paid} gold)" if paid else ""))
    if t == "start-house-placed":
        where = _where(d["place"])
        return text(f"{_name(players, d['seat'])}: kezdő ház – {where['hu']}",
                    f"{_name(players, d['seat'])}: starting house – {where['en']}")
    if t == "actions-revealed":
        acts = [R.ACTIONS[a][1] for a in d["actions"]]
        who = _name(players, d["seat"])
        return text(f"{who}: {' + '.join(a['hu'] for a in acts)}", f"{who}: {' + '.join(a['en'] for a in acts)}")
    if t == "architect-travelled":
        via = ", ".join(str(v) for v in d["via"]) or "–"
        return text(f"Építész → {city(d['city'])} város (falvak: {via})", f"Architect → city {city(d['city'])} (villages: {via})")
    if t in ("house-built", "house-moved"):
        where = _where(d["place"])
        free = text(" (kőműves, ingyen)", " (Builder, free)") if d.get("free") else text("", "")
        if t == "house-moved":
            src = _where(d["source"])
            return text(f"Ház: {src['hu']} → {where['hu']}{free['hu']}", f"House: {src['en']} → {where['en']}{free['en']}")
        return text(f"Ház – {where['hu']}{free['hu']}", f"House – {where['en']}{free['en']}")
    if t == "palace-built":
        site = text("belső", "inner") if d["site"] == "inner" else text("külső", "outer")
        return text(f"Palota – {city(d['city'])} város, {site['hu']}", f"Palace – city {city(d['city'])}, {site['en']}")
    if t == "governor-moved":
        return text(f"{city(d['city'])} kormányzó két mezőt lejjebb", f"Governor {city(d['city'])} two boxes down")
    if t in ("character-swapped", "character-picked"):
        c = R.CHARACTERS.get(d["character"], text("?", "?"))
        verb = text("Karaktercsere", "Swapped to") if t == "character-swapped" else text("Választott", "Picked")
        return text(f"{verb['hu']}: {c['hu']}", f"{verb['en']}: {c['en']}")
    if t == "chip-used":
        act = R.ACTIONS[d["action"]][1]
        return text(f"Cselekedetérme: {act['hu']}", f"Action chip: {act['en']}")
    if t == "turn-ended" and d.get("renounce"):
        return text("Kör vége, lemondott cselekedettel (mindenki más +2 arany)",
                    "Turn ended, renouncing a part (every other player +2 gold)")
    from scoring.maharaja import EVENT_TYPES
    return dict(EVENT_TYPES[t].label)
