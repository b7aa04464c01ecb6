"""Generic score pad: the phone form → event, and the move log's words."""
from __future__ import annotations

from typing import Callable, Mapping

from scoring.base import Move, text
from scoring.forms import fail, form_int, parse_action, player_name
from scoring.scorepad.data import EVENT_TYPES, MAX_NOTE, R_FORM


def parse_form(state: dict, form: Mapping[str, str]) -> tuple[str, dict]:
    return parse_action(PARSERS, state, form, R_FORM, default="points-recorded")


def _points(state: dict, form) -> dict:
    seat = form_int(form, "seat", text("Játékos", "Player"), R_FORM)
    points = form_int(form, "points", text("Pont", "Points"), R_FORM)
    if form.get("sign") == "-":  # phone keypads often lack a minus key
        points = -abs(points)
    note = (form.get("note") or "").strip()
    if len(note) > MAX_NOTE:
        fail(f"A megjegyzés legfeljebb {MAX_NOTE} karakter (most {len(note)}).",
             f"The note may be at most {MAX_NOTE} characters (got {len(note)}).", R_FORM)
    return {"seat": seat, "points": points, "note": note}


PARSERS: dict[str, Callable[[dict, Mapping], dict]] = {
    "points-recorded": _points, "round-closed": lambda state, form: {},
    "game-ended": lambda state, form: {}}


def describe(move: Move, players: list[dict], state: dict | None = None) -> dict[str, str]:
    if move.type != "points-recorded":
        return dict(EVENT_TYPES[move.type].label)
    name = player_name(players, move.data["seat"])
    note = f" ({move.data['note']})" if move.data.get("note") else ""
    pts = move.data["points"]
    return text(f"{name}: {pts:+d} pont{note}", f"{name}: {pts:+d} point{'' if abs(pts) == 1 else 's'}{note}")
