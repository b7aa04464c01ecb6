"""Final tally mode: the phone form → event, and the move log's words."""
from __future__ import annotations

from typing import Callable, Mapping

from scoring.base import Move, text
from scoring.dragon.data import MAX_FLOORS, PERSONS, R_FORM
from scoring.dragon_tally.data import MAX_PALACES
from scoring.forms import fail, form_choice, form_int, parse_action, player_name

_TILES = [f"{k}:{a}" for k, ages in PERSONS.items() for a in ages]
_COUNTS = {"score": text("Eddigi pontok", "Points so far"), "yuan": text("Yüan", "Yuan"),
           "rice": text("Rizs", "Rice"), "fireworks": text("Tűzijáték", "Fireworks"),
           "track": text("Személysáv", "Person track")}


def parse_form(state: dict, form: Mapping[str, str]) -> tuple[str, dict]:
    return parse_action(PARSERS, state, form, R_FORM)


def _position(state: dict, form) -> dict:
    data = {"seat": form_int(form, "seat", text("Játékos", "Player"), R_FORM, low=0, high=state["n"] - 1)}
    for name, label in _COUNTS.items():
        data[name] = form_int({name: form.get(name) or "0"}, name, label, R_FORM, low=0, high=999)
    data["palaces"] = [p for p in (_palace(form, i) for i in range(MAX_PALACES)) if p]
    return data


def _palace(form, i: int) -> dict | None:
    label = text(f"{i + 1}. palota", f"Palace {i + 1}")
    floors = form_int({"f": form.get(f"floors{i}") or "0"}, "f", label, R_FORM, low=0, high=MAX_FLOORS)
    persons = []
    for j in range(MAX_FLOORS):
        tile = form_choice(form, f"person{i}_{j}", _TILES, text(f"{label['hu']}, {j + 1}. lakó",
                                                               f"{label['en']}, person {j + 1}"),
                           optional=True, rule=R_FORM)
        if tile:
            kind, _, age = tile.partition(":")
            persons.append({"type": kind, "age": age})
    if persons and not floors:
        fail(f"{label['hu']}: alattvaló csak palotában lehet, add meg a szintek számát.",
             f"{label['en']}: persons live in palaces; give the palace's floors.", R_FORM)
    return {"floors": floors, "persons": persons} if floors else None


PARSERS: dict[str, Callable[[dict, Mapping], dict]] = {"dragon-position-entered": _position}


def describe(move: Move, players: list[dict], state: dict | None = None) -> dict[str, str]:
    d = move.data
    who = player_name(players, d["seat"])
    persons = sum(len(p["persons"]) for p in d["palaces"])
    return text(f"{who}: {d['score']} pont, {len(d['palaces'])} palota, {persons} alattvaló, "
                f"{d['yuan']} yüan, {d['rice']} rizs, {d['fireworks']} tűzijáték",
                f"{who}: {d['score']} points, {len(d['palaces'])} palaces, {persons} persons, "
                f"{d['yuan']} yuan, {d['rice']} rice, {d['fireworks']} fireworks")
