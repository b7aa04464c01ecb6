"""Final tally mode: the phone form → event, and the move log's words."""
from __future__ import annotations

from typing import Callable, Mapping

from scoring.base import Move
from scoring.dragon.data import MAX_FLOORS, PERSONS, R_FORM
from scoring.dragon_tally.data import MAX_PALACES
from scoring.forms import fail, form_choice, form_int, parse_action, player_name
from scoring.i18n import msg

_TILES = [f"{k}:{a}" for k, ages in PERSONS.items() for a in ages]
_COUNTS = {"score": msg("Points so far"), "yuan": msg("Yuan"),
           "rice": msg("Rice"), "fireworks": msg("Fireworks"),
           "track": msg("Person track")}


def parse_form(state: dict, form: Mapping[str, str]) -> tuple[str, dict]:
    return parse_action(PARSERS, state, form, R_FORM)


def _position(state: dict, form) -> dict:
    data = {"seat": form_int(form, "seat", msg("Player"), R_FORM, low=0, high=state["n"] - 1)}
    for name, label in _COUNTS.items():
        data[name] = form_int({name: form.get(name) or "0"}, name, label, R_FORM, low=0, high=999)
    data["palaces"] = [p for p in (_palace(form, i) for i in range(MAX_PALACES)) if p]
    return data


def _palace(form, i: int) -> dict | None:
    label = msg("Palace %(value)s", value=i + 1)
    floors = form_int({"f": form.get(f"floors{i}") or "0"}, "f", label, R_FORM, low=0, high=MAX_FLOORS)
    persons = []
    for j in range(MAX_FLOORS):
        tile = form_choice(form, f"person{i}_{j}", _TILES, msg("%(label)s, person %(value)s", label=label, value=j + 1),
                           optional=True, rule=R_FORM)
        if tile:
            kind, _, age = tile.partition(":")
            persons.append({"type": kind, "age": age})
    if persons and not floors:
        fail(msg("%(label)s: persons live in palaces; give the palace's floors.", label=label), R_FORM)
    return {"floors": floors, "persons": persons} if floors else None


PARSERS: dict[str, Callable[[dict, Mapping], dict]] = {"dragon-position-entered": _position}


def describe(move: Move, players: list[dict], state: dict | None = None,
             options: dict | None = None) -> dict[str, str]:
    d = move.data
    who = player_name(players, d["seat"])
    persons = sum(len(p["persons"]) for p in d["palaces"])
    return msg("%(who)s: %(score)s points, %(count)s palaces, %(persons)s persons, %(yuan)s yuan, %(rice)s rice, %(fireworks)s fireworks", who=who, score=d['score'], count=len(d['palaces']), persons=persons, yuan=d['yuan'], rice=d['rice'], fireworks=d['fireworks'])
