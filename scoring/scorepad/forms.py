"""Generic score pad: the phone form → event, and the move log's words."""
from __future__ import annotations

from typing import Callable, Mapping

from scoring import text
from scoring.base import Move, player
from scoring.forms import fail, form_int, parse_action, player_name
from scoring.i18n import joined
from scoring.i18n import msgn
from scoring.i18n import msg
from scoring.scorepad.data import EVENT_TYPES, MAX_ROUND, R_FORM


def parse_form(state: dict, form: Mapping[str, str]) -> tuple[str, dict]:
    return parse_action(PARSERS, state, form, R_FORM, default="points-recorded")


def _points(state: dict, form) -> dict:
    seat = form_int(form, "seat", msg("Player"), R_FORM)
    points = form_int(form, "points", msg("Points"), R_FORM)
    if form.get("sign") == "-":  # phone keypads often lack a minus key
        points = -abs(points)
    return {"seat": seat, "points": points, "note": _note(form)}


def _row(state: dict, form) -> dict:
    """One field per player (``points_<seat>``, empty: no entry), a "−" tick per player
    (``minus_<seat>``: phone keypads often lack a minus key) and the round it fills."""
    r = form_int(form, "round", msg("Round"), R_FORM, low=1, high=MAX_ROUND)
    entries = []
    for seat in range(state["n"]):
        if not (form.get(f"points_{seat}") or "").strip():
            continue
        points = form_int(form, f"points_{seat}", joined("", [player(seat)]), R_FORM)
        if form.get(f"minus_{seat}"):
            points = -abs(points)
        entries.append({"seat": seat, "points": points})
    if not entries:
        fail(msg("Type at least one player's points."), R_FORM)
    data = {"round": r, "entries": entries}
    note = _note(form)
    return {**data, "note": note} if note else data


def _note(form) -> str:
    try:  # the one text policy (scoring/text.py): refused with the reason, never cut
        return text.clean(form.get("note") or "", text.NOTE)
    except text.BadText as refused:
        fail(refused.why, R_FORM)


PARSERS: dict[str, Callable[[dict, Mapping], dict]] = {
    "points-recorded": _points, "round-entered": _row, "round-closed": lambda state, form: {},
    "game-ended": lambda state, form: {}}


def describe(move: Move, players: list[dict], state: dict | None = None,
             options: dict | None = None) -> dict[str, str]:
    said = DESCRIBE.get(move.type)
    return said(move.data, players) if said else dict(EVENT_TYPES[move.type].label)


def _points_said(points: int) -> dict[str, str]:
    return msgn("%(points)s point", "%(points)s points", abs(points), points=f"{points:+d}")


def _said_points(d: dict, players: list[dict]) -> dict[str, str]:
    name = player_name(players, d["seat"])
    note = f" ({d['note']})" if d.get("note") else ""
    pts = _points_said(d["points"])
    return msg("%(name)s: %(pts)s%(note)s", name=name, pts=pts, note=note)


def _said_row(d: dict, players: list[dict]) -> dict[str, str]:
    items = [(player_name(players, e["seat"]), e["points"]) for e in d["entries"]]
    note = f" ({d['note']})" if d.get("note") else ""
    return msg("Round %(round)s: %(entries)s%(note)s", round=d["round"], note=note,
               entries=", ".join(f"{n} {p:+d}" for n, p in items))


DESCRIBE: dict[str, Callable[[dict, list[dict]], dict]] = {"points-recorded": _said_points,
                                                          "round-entered": _said_row}
