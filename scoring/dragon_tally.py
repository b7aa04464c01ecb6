"""In the Year of the Dragon, final tally mode (kind ``dragon-tally``): a game played
without the app; each player's finished position is entered and the app computes the
final scoring with its breakdown (seed 004 A játék vége; GAMES.md: 1 point per 3 yuan).

Rules as implemented: docs/rules/dragon.md §Final tally.
"""
from __future__ import annotations

from collections import Counter

from scoring.base import EventSpec, GameKind, Move, Problem, ScorePart, clone, text
from scoring.dragon_data import AGES, CATEGORIES, MAX_FLOORS, PERSONS, TYPES, labels, person_name, supply_for
from scoring.dragon_forms import _bad, _int
from scoring import dragon

MAX_PALACES = 8
R_END = "seed 004 A játék vége"

_N = {"type": "integer", "minimum": 0, "maximum": 999}
EVENT_TYPES = {
    "dragon-position-entered": EventSpec(
        schema={"type": "object", "additionalProperties": False,
                "required": ["seat", "score", "yuan", "rice", "fireworks", "track", "palaces"],
                "properties": {
                    "seat": {"type": "integer", "minimum": 0, "maximum": 4},
                    "score": _N, "yuan": _N, "rice": _N, "fireworks": _N, "track": _N,
                    "palaces": {"type": "array", "maxItems": MAX_PALACES, "items": {
                        "type": "object", "additionalProperties": False, "required": ["floors", "persons"],
                        "properties": {
                            "floors": {"type": "integer", "minimum": 1, "maximum": MAX_FLOORS},
                            "persons": {"type": "array", "maxItems": MAX_FLOORS, "items": {
                                "type": "object", "additionalProperties": False,
                                "required": ["type", "age"],
                                "properties": {"type": {"enum": list(TYPES)},
                                               "age": {"enum": list(AGES)}}}}}}}}},
        label=text("Végállás beírva", "Final position entered")),
}


def setup(players: list[dict], options: dict) -> dict:
    return {"n": len(players), "positions": [None] * len(players), "seqs": [None] * len(players)}


def check(state: dict, move: Move) -> list[Problem]:
    d = move.data
    if d["seat"] >= state["n"]:
        return [Problem(R_END, "Nincs ilyen játékos.", "There is no such player.")]
    if state["positions"][d["seat"]] is not None:
        return [Problem("tally §1", "Ennek a játékosnak a végállása már megvan (javítás: visszavonás).",
                        "This player's position is already entered (undo or void it to correct it).")]
    for palace in d["palaces"]:
        if len(palace["persons"]) > palace["floors"]:
            return [Problem(dragon.R_PALACE, "Egy palotában szintenként legfeljebb egy alattvaló lakhat.",
                            "A palace holds at most one person per floor.")]
        if any(p["age"] not in PERSONS[p["type"]] for p in palace["persons"]):
            return [Problem(dragon.R_SETUP, "Ilyen korú lapka nincs ebből a típusból.",
                            "That type has no tile of that age.")]
    return _check_supply(state, d)


def _check_supply(state: dict, d: dict) -> list[Problem]:
    """All courts together hold no more tiles of a kind than the game had
    (seed 004 Előkészületek, Megjegyzés: the supply by player count)."""
    held = Counter((p["type"], p["age"]) for position in state["positions"] + [d] if position
                   for palace in position["palaces"] for p in palace["persons"])
    supply = supply_for(state["n"])
    for (kind, age), count in sorted(held.items()):
        if count > supply[kind][age]:
            name = person_name({"type": kind, "age": age})
            return [Problem(dragon.R_SETUP,
                            f"{state['n']} játékosnál csak {supply[kind][age]} {name['hu']} lapka van, itt {count}.",
                            f"With {state['n']} players there are only {supply[kind][age]} {name['en']} tiles; "
                            f"the courts hold {count}.")]
    return []


def apply(state: dict, move: Move) -> dict:
    state = clone(state)
    state["positions"][move.data["seat"]] = dict(move.data)
    state["seqs"][move.data["seat"]] = move.seq
    return state


def final_parts(position: dict) -> dict[str, int]:
    """The final scoring of one position (same arithmetic as dragon.final_scoring)."""
    persons = [(p, pal["floors"]) for pal in position["palaces"] for p in pal["persons"]]
    monks = sum(PERSONS["monk"][p["age"]][0] * floors for p, floors in persons if p["type"] == "monk")
    money = position["yuan"] + 2 * position["rice"] + 2 * position["fireworks"]
    return {"earlier": position["score"], "persons": 2 * len(persons), "monks": monks, "money": money // 3}


def score(state: dict) -> dict[int, list[ScorePart]]:
    parts = {}
    for seat, position in enumerate(state["positions"]):
        if position is None:
            parts[seat] = []
            continue
        seq = (state["seqs"][seat],)
        parts[seat] = [ScorePart(cat, pts, seq, CATEGORIES[cat]) for cat, pts in final_parts(position).items()]
    return parts


def is_over(state: dict) -> bool:
    return all(p is not None for p in state["positions"])


def tiebreak(state: dict, seat: int) -> tuple:
    position = state["positions"][seat]
    return (position["track"] if position else 0,)


def describe(move: Move, players: list[dict], state: dict | None = None) -> dict[str, str]:
    d = move.data
    who = players[d["seat"]]["name"] if d["seat"] < len(players) else "?"
    persons = sum(len(p["persons"]) for p in d["palaces"])
    return text(f"{who}: {d['score']} pont, {len(d['palaces'])} palota, {persons} alattvaló, "
                f"{d['yuan']} yüan, {d['rice']} rizs, {d['fireworks']} tűzijáték",
                f"{who}: {d['score']} points, {len(d['palaces'])} palaces, {persons} persons, "
                f"{d['yuan']} yuan, {d['rice']} rice, {d['fireworks']} fireworks")


def parse_form(state: dict, form) -> tuple[str, dict]:
    if form.get("action") != "dragon-position-entered":
        _bad("Ismeretlen művelet.", "Unknown action.")
    data = {"seat": _int(form.get("seat"), 0, state["n"] - 1)}
    for name in ("score", "yuan", "rice", "fireworks", "track"):
        data[name] = _int(form.get(name) or "0", 0, 999)
    palaces = []
    for i in range(MAX_PALACES):
        floors = _int(form.get(f"floors{i}") or "0", 0, MAX_FLOORS)
        persons = []
        for j in range(MAX_FLOORS):
            raw = form.get(f"person{i}_{j}") or ""
            if raw:
                kind, _, age = raw.partition(":")
                if kind not in PERSONS or age not in PERSONS[kind]:
                    _bad()
                persons.append({"type": kind, "age": age})
        if floors:
            palaces.append({"floors": floors, "persons": persons})
        elif persons:
            _bad("Alattvaló csak palotában lehet: add meg a szintek számát.",
                 "Persons live in palaces: give the palace's floors.")
    data["palaces"] = palaces
    return "dragon-position-entered", data


def demo():
    """Ben's final scoring from seed 004 (25 points) and a second player."""
    players = [{"name": "Ben", "colour": "blue"}, {"name": "Anna", "colour": "red"}]
    young = lambda kind: {"type": kind, "age": "young"}  # noqa: E731
    ben = {"seat": 0, "score": 80, "yuan": 4, "rice": 1, "fireworks": 2, "track": 40, "palaces": [
        {"floors": 2, "persons": [young("monk"), young("lady")]},
        {"floors": 3, "persons": [{"type": "monk", "age": "old"}, young("tax"), young("craftsman")]},
        {"floors": 2, "persons": [young("healer"), young("farmer")]}]}
    anna = {"seat": 1, "score": 90, "yuan": 2, "rice": 0, "fireworks": 0, "track": 35, "palaces": [
        {"floors": 3, "persons": [young("scholar")]}]}
    return players, {}, [("dragon-position-entered", ben), ("dragon-position-entered", anna)]


GAME = GameKind(
    kind="dragon-tally", title=text("A sárkány éve – végső pontozás", "In the Year of the Dragon – final tally"),
    min_players=2, max_players=5, rules_version=1, event_types=EVENT_TYPES,
    setup=setup, check=check, apply=apply, score=score, is_over=is_over, describe=describe,
    parse_form=parse_form, categories=labels(), tiebreak=tiebreak,
    tiebreak_rule=dragon.GAME.tiebreak_rule, demo=demo,
)
