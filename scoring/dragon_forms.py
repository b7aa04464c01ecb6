"""In the Year of the Dragon: the phone form → event, the log's words, the demo game.

Every form posts only the choice; the seat comes from the state (whose turn it is),
so any seated phone can record for the player whose turn it is.
"""
from __future__ import annotations

from typing import Mapping

from scoring.base import FormError, Move, Problem, text
from scoring.dragon_data import (ACTION_NAMES, ACTIONS, EVENT_NAMES, PERSON_NAMES,
                                 PERSONS, TYPES, WILD, person_name)

BAD = Problem("form", "Hibás vagy hiányzó mező a lapon.", "A field of the form is missing or malformed.")


def _bad(hu: str | None = None, en: str | None = None):
    raise FormError([Problem("form", hu, en) if hu else BAD])


def _int(raw, low: int = 0, high: int = 99) -> int:
    try:
        number = int(str(raw).strip())
    except (TypeError, ValueError):
        _bad()
    if not low <= number <= high:
        _bad()
    return number


def _getlist(form, name: str) -> list[str]:
    if hasattr(form, "getlist"):
        return form.getlist(name)
    value = form.get(name)
    return value if isinstance(value, list) else ([value] if value else [])


def _seat(state: dict) -> int:
    if state["phase"] in ("build", "release"):
        return state["pending"][0]["seat"] if state["pending"] else 0
    return state["turn"] if state["turn"] is not None else 0


def parse_form(state: dict, form: Mapping[str, str]) -> tuple[str, dict]:
    action = form.get("action", "")
    parser = _PARSERS.get(action)
    if parser is None:
        _bad("Ismeretlen művelet.", "Unknown action.")
    return action, parser(state, form)


def _row(state, form):
    row = [form.get(f"ev{m}", "") for m in range(3, 13)]
    if any(e not in EVENT_NAMES or e == "peace" for e in row):
        _bad("Mind a 10 hónap eseményét add meg.", "Give the event of each of the 10 months.")
    return {"row": row}


def _opening(state, form):
    persons = []
    for i in (1, 2):
        kind = form.get(f"type{i}", "")
        if kind not in TYPES:
            _bad("Válassz két alattvalót.", "Choose two persons.")
        persons.append({"type": kind, "palace": _int(form.get(f"palace{i}"), 0, 1)})
    return {"seat": _seat(state), "persons": persons}


def _dealt(state, form):
    groups = [[] for _ in range(state["n"])]
    for name in ACTIONS:
        groups[_int(form.get(f"group_{name}"), 1, state["n"]) - 1].append(name)
    return {"groups": groups}


def _action(state, form):
    parts = (form.get("choice") or "").split(":")
    if len(parts) not in (2, 3) or parts[1] not in ACTIONS:
        _bad("Válassz egy akciót.", "Choose an action.")
    data = {"seat": _seat(state), "group": _int(parts[0], 0, 4), "action": parts[1]}
    if len(parts) == 3:
        if parts[2] not in ("small", "large"):
            _bad()
        data["privilege"] = parts[2]
    return data


def _refill(state, form):
    return {"seat": _seat(state)}


def _floors(state, form):
    seat = _seat(state)
    palaces = state["players"][seat]["palaces"]
    add = [_int(form.get(f"add{i}", "0") or "0", 0, 3) for i in range(len(palaces))]
    new = [_int(raw, 0, 3) for raw in _getlist(form, "new")]
    return {"seat": seat, "add": add, "new": [f for f in new if f]}


def _recruit(state, form):
    """``pick`` = "<card>|<type>:<age>" (or "<card>|" when no tile of it is left);
    ``place`` = "p:<palace>", "r:<palace>:<slot>" (replace) or "away"."""
    card, _, tile = (form.get("pick") or "").partition("|")
    if card not in TYPES and card != WILD:
        _bad("Válaszd ki a kijátszott kártyát és a lapkát.", "Choose the card played and the tile.")
    data = {"seat": _seat(state), "card": card}
    if not tile:
        return data
    kind, _, age = tile.partition(":")
    if kind not in PERSONS or age not in PERSONS[kind]:
        _bad()
    data["person"] = {"type": kind, "age": age}
    place = (form.get("place") or "").split(":")
    if place == ["away"]:
        data["away"] = True
    elif len(place) == 2 and place[0] == "p":
        data["palace"] = _int(place[1], 0, 40)
    elif len(place) == 3 and place[0] == "r":
        data["palace"], data["replace"] = _int(place[1], 0, 40), _int(place[2], 0, 2)
    else:
        _bad("Add meg, hová kerül az új alattvaló.", "Say where the new person goes.")
    return data


def _release(state, form):
    spots = []
    for raw in _getlist(form, "release"):
        parts = str(raw).split(":")
        if len(parts) != 2:
            _bad()
        spots.append([_int(parts[0], 0, 40), _int(parts[1], 0, 2)])
    if not spots:
        _bad("Jelöld be, kiket bocsát el.", "Tick the persons to release.")
    return {"seat": _seat(state), "persons": spots}


_PARSERS = {"dragon-events-laid": _row, "dragon-opening-recruited": _opening,
            "dragon-actions-dealt": _dealt, "dragon-action-chosen": _action,
            "dragon-money-refilled": _refill, "dragon-floors-placed": _floors,
            "dragon-person-recruited": _recruit, "dragon-persons-released": _release}

# ---------------------------------------------------------------- the log's words


def _name(players, seat) -> str:
    return players[seat]["name"] if isinstance(seat, int) and 0 <= seat < len(players) else "?"


def _join(items, lang):
    return ", ".join(i[lang] for i in items)


def describe(move: Move, players: list[dict], state: dict | None = None) -> dict[str, str]:
    d = move.data
    who = _name(players, d.get("seat"))
    if move.type == "dragon-events-laid":
        names = [EVENT_NAMES[e] for e in d["row"]]
        return text("Eseménysor (3–12. hónap): " + _join(names, "hu"),
                    "Event row (months 3–12): " + _join(names, "en"))
    if move.type == "dragon-opening-recruited":
        items = [text(f"{PERSON_NAMES[p['type']]['hu']} ({p['palace'] + 1}. palota)",
                      f"{PERSON_NAMES[p['type']]['en']} (palace {p['palace'] + 1})") for p in d["persons"]]
        return text(f"{who}: " + _join(items, "hu"), f"{who}: " + _join(items, "en"))
    if move.type == "dragon-actions-dealt":
        hu = " | ".join(" + ".join(ACTION_NAMES[a]["hu"] for a in g) for g in d["groups"])
        en = " | ".join(" + ".join(ACTION_NAMES[a]["en"] for a in g) for g in d["groups"])
        return text(f"Akciócsoportok: {hu}", f"Action groups: {en}")
    if move.type == "dragon-action-chosen":
        name = ACTION_NAMES[d["action"]]
        extra = {"small": text(" (kicsi)", " (small)"), "large": text(" (nagy)", " (large)")}.get(
            d.get("privilege"), text("", ""))
        return text(f"{who}: {name['hu']}{extra['hu']} – {d['group'] + 1}. csoport",
                    f"{who}: {name['en']}{extra['en']} – group {d['group'] + 1}")
    if move.type == "dragon-money-refilled":
        return text(f"{who}: pénz feltöltése 3 yüanra", f"{who}: refills money to 3 yuan")
    if move.type == "dragon-floors-placed":
        hu = ", ".join(f"{i + 1}. palota +{a}" for i, a in enumerate(d["add"]) if a)
        en = ", ".join(f"palace {i + 1} +{a}" for i, a in enumerate(d["add"]) if a)
        if d["new"]:
            hu += (", " if hu else "") + "új palota: " + ", ".join(f"{f} szint" for f in d["new"])
            en += (", " if en else "") + "new palace: " + ", ".join(f"{f} floor(s)" for f in d["new"])
        return text(f"{who}: {hu}", f"{who}: {en}")
    if move.type == "dragon-person-recruited":
        card = PERSON_NAMES[d["card"]]
        if "person" not in d:
            return text(f"{who}: {card['hu']} – nincs több lapka, nem kap semmit",
                        f"{who}: {card['en']} – no tile left, gets nothing")
        tile = person_name(d["person"])
        if d.get("away"):
            where = text("elküldve", "sent away")
        elif "replace" in d:
            where = text(f"{d['palace'] + 1}. palota, cserével", f"palace {d['palace'] + 1}, replacing")
        else:
            where = text(f"{d['palace'] + 1}. palota", f"palace {d['palace'] + 1}")
        if d["card"] != WILD:
            return text(f"{who}: {tile['hu']} ({where['hu']})", f"{who}: {tile['en']} ({where['en']})")
        return text(f"{who}: {card['hu']} → {tile['hu']} ({where['hu']})",
                    f"{who}: {card['en']} → {tile['en']} ({where['en']})")
    if move.type == "dragon-persons-released":
        n = len(d["persons"])
        return text(f"{who}: {n} alattvaló elbocsátva", f"{who}: {n} person(s) released")
    return text(move.type, move.type)


# ---------------------------------------------------------------- demo


def demo() -> tuple[list[dict], dict, list[tuple[str, dict]]]:
    """Two players through months 1–3: a build, a refill, a shared group, a privilege,
    a "?" card, and a contagion in which both players choose whom to release."""
    players = [{"name": "Anna", "colour": "red"}, {"name": "Béla", "colour": "blue"}]
    row = ["contagion", "tribute", "drought", "festival", "mongols",
           "contagion", "tribute", "drought", "festival", "mongols"]
    deal = {"groups": [["taxes", "build", "harvest", "fireworks"], ["parade", "research", "privilege"]]}
    moves = [
        ("dragon-events-laid", {"row": row}),
        ("dragon-opening-recruited", {"seat": 0, "persons": [{"type": "monk", "palace": 0},
                                                             {"type": "healer", "palace": 1}]}),
        ("dragon-opening-recruited", {"seat": 1, "persons": [{"type": "lady", "palace": 0},
                                                             {"type": "tax", "palace": 1}]}),
        # month 1: Anna (track 10) before Béla (4)
        ("dragon-actions-dealt", deal),
        ("dragon-action-chosen", {"seat": 0, "group": 0, "action": "build"}),
        ("dragon-floors-placed", {"seat": 0, "add": [1, 0], "new": []}),
        ("dragon-money-refilled", {"seat": 1}),
        ("dragon-person-recruited", {"seat": 0, "card": "scholar",
                                     "person": {"type": "scholar", "age": "young"}, "palace": 0}),
        ("dragon-person-recruited", {"seat": 1, "card": "healer",
                                     "person": {"type": "healer", "age": "young"}, "palace": 0}),
        # month 2
        ("dragon-actions-dealt", deal),
        ("dragon-action-chosen", {"seat": 0, "group": 1, "action": "privilege", "privilege": "small"}),
        ("dragon-action-chosen", {"seat": 1, "group": 1, "action": "research"}),
        ("dragon-person-recruited", {"seat": 0, "card": WILD,
                                     "person": {"type": "farmer", "age": "old"}, "palace": 0}),
        ("dragon-person-recruited", {"seat": 1, "card": "pyro",
                                     "person": {"type": "pyro", "age": "young"}, "palace": 1}),
        # month 3: contagion, 3 − 1 mortar = 2 persons each
        ("dragon-actions-dealt", deal),
        ("dragon-action-chosen", {"seat": 0, "group": 0, "action": "taxes"}),
        ("dragon-action-chosen", {"seat": 1, "group": 1, "action": "parade"}),
        ("dragon-person-recruited", {"seat": 0, "card": "warrior",
                                     "person": {"type": "warrior", "age": "young"}, "palace": 1}),
        ("dragon-person-recruited", {"seat": 1, "card": "craftsman",
                                     "person": {"type": "craftsman", "age": "young"},
                                     "palace": 0, "replace": 0}),
        ("dragon-persons-released", {"seat": 0, "persons": [[0, 2], [1, 1]]}),
        ("dragon-persons-released", {"seat": 1, "persons": [[0, 0], [1, 1]]}),
    ]
    return players, {}, moves
