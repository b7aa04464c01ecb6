"""Generic score pad: points per player per round, for any game without a module.

Rules as implemented: docs/rules/scorepad.md (rule references "scorepad §n").
"""
from __future__ import annotations

from scoring.base import (EventSpec, FormError, GameKind, Move, Problem, ScorePart,
                          clone, text)
from scoring.forms import form_int

MAX_ABS_POINTS = 1_000_000
MAX_NOTE = 200

EVENT_TYPES = {
    "points-recorded": EventSpec(
        schema={"type": "object", "additionalProperties": False,
                "required": ["seat", "points"],
                "properties": {"seat": {"type": "integer"}, "points": {"type": "integer"},
                               "note": {"type": "string", "maxLength": MAX_NOTE}}},
        label=text("Pont beírva", "Points recorded")),
    "round-closed": EventSpec(
        schema={"type": "object", "additionalProperties": False},
        label=text("Kör lezárva", "Round closed")),
    "game-ended": EventSpec(
        schema={"type": "object", "additionalProperties": False},
        label=text("Játék vége", "Game ended")),
}


def setup(players: list[dict], options: dict) -> dict:
    # rounds[r - 1][seat]: that player's [points, [event seqs]] in round r, or None. Kept as
    # the moves come instead of regrouping every entry on every tap (docs/performance.md,
    # change 14): a long game has thousands of rounds.
    return {"seats": len(players), "round": 1, "rounds": [], "over": False}


def check(state: dict, move: Move) -> list[Problem]:
    if state["over"]:
        return [Problem("scorepad §3", "A játék már véget ért.", "The game has already ended.")]
    if move.type == "points-recorded":
        return _check_points(state, move.data)
    if move.type == "round-closed" and not _round_has_points(state):
        return [Problem("scorepad §2", "Ebben a körben még nincs beírt pont.",
                        "Nothing has been recorded in this round yet.")]
    return []


def _check_points(state: dict, data) -> list[Problem]:
    problems = []
    if not 0 <= data["seat"] < state["seats"]:
        problems.append(Problem("scorepad §1", "Nincs ilyen játékos.", "There is no such player."))
    if abs(data["points"]) > MAX_ABS_POINTS:
        problems.append(Problem("scorepad §1", f"A pont legfeljebb ±{MAX_ABS_POINTS} lehet.",
                                f"Points must be within ±{MAX_ABS_POINTS}."))
    return problems


def apply(state: dict, move: Move) -> dict:
    # A new state that shares the earlier rounds with the old one (they are never
    # changed): a deep copy per move made a 10,000-event game's append cost 13 ms
    # (docs/performance.md, change 11). The old state stays as it was.
    if move.type == "points-recorded":
        return {**state, "rounds": _with_points(state, move.data["seat"], move.data["points"], move.seq)}
    if move.type == "round-closed":
        return {**state, "round": state["round"] + 1}
    if move.type == "game-ended":
        return {**state, "over": True}
    return clone(state)


def _with_points(state: dict, seat: int, points: int, seq: int) -> list:
    rounds, index = list(state["rounds"]), state["round"] - 1
    while len(rounds) <= index:
        rounds.append([None] * state["seats"])
    row = list(rounds[index])
    earlier = row[seat]
    row[seat] = [earlier[0] + points, earlier[1] + [seq]] if earlier else [points, [seq]]
    rounds[index] = row
    return rounds


def _round_has_points(state: dict) -> bool:
    index = state["round"] - 1
    return index < len(state["rounds"]) and any(state["rounds"][index])


def score(state: dict) -> dict[int, list[ScorePart]]:
    parts: dict[int, list[ScorePart]] = {seat: [] for seat in range(state["seats"])}
    for round_no, row in enumerate(state["rounds"], start=1):
        label = text(f"{round_no}. kör", f"Round {round_no}")
        for seat, total in enumerate(row):
            if total:
                parts[seat].append(ScorePart(f"round-{round_no}", total[0], tuple(total[1]), label))
    return parts


def is_over(state: dict) -> bool:
    return state["over"]


def describe(move: Move, players: list[dict], state: dict | None = None) -> dict[str, str]:
    if move.type == "points-recorded":
        name = players[move.data["seat"]]["name"] if 0 <= move.data["seat"] < len(players) else "?"
        note = f" ({move.data['note']})" if move.data.get("note") else ""
        pts = move.data["points"]
        return text(f"{name}: {pts:+d} pont{note}", f"{name}: {pts:+d} points{note}")
    return dict(EVENT_TYPES[move.type].label)


def parse_form(state: dict, form) -> tuple[str, dict]:
    action = form.get("action", "points-recorded")
    if action in ("round-closed", "game-ended"):
        return action, {}
    if action != "points-recorded":
        raise FormError([Problem("form", "Ismeretlen művelet.", "Unknown action.")])
    seat = form_int(form, "seat", text("Játékos", "Player"))
    points = form_int(form, "points", text("Pont", "Points"))
    if form.get("sign") == "-":  # phone keypads often lack a minus key
        points = -abs(points)
    note = (form.get("note") or "").strip()
    if len(note) > MAX_NOTE:
        raise FormError([Problem("form", f"A megjegyzés legfeljebb {MAX_NOTE} karakter.",
                                 f"The note may be at most {MAX_NOTE} characters.")])
    return "points-recorded", {"seat": seat, "points": points, "note": note}


def demo() -> tuple[list[dict], dict, list[tuple[str, dict]]]:
    players = [{"name": "Anna", "colour": "red"}, {"name": "Béla", "colour": "blue"}]
    moves = [("points-recorded", {"seat": 0, "points": 12, "note": "first"}),
             ("points-recorded", {"seat": 1, "points": -3, "note": ""}),
             ("round-closed", {}),
             ("points-recorded", {"seat": 1, "points": 20}),
             ("game-ended", {})]
    return players, {}, moves


GAME = GameKind(
    kind="scorepad", title=text("Általános pontozólap", "Generic score pad"),
    min_players=1, max_players=12, rules_version=1, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    describe=describe, parse_form=parse_form, demo=demo,
)
