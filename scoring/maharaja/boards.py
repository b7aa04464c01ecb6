"""Maharaja city-board profiles (optional): city names and colours and the roads
between the cities with the villages on them. The board's topology is not published,
so the shipped profile knows only the 7 cities; a player holding the board fills in
the rest once at /boards/maharaja/. With roads known, a journey must follow them
(docs/rules/maharaja.md §17).
"""
from __future__ import annotations

import re

from scoring.base import FormError, Problem, Text
from scoring.i18n import hu_and_en, msg
from scoring.maharaja.apply import travel_fees
from scoring.maharaja.data import CITIES, VILLAGES, rule
from scoring.schema import schema_problems

RULE = rule(17)
START = "S"                                  # the architects' start space
ENDS = (START, *CITIES)
MAX_ROADS = 60
_ROAD = re.compile(r"^\s*([A-GSa-gs])\s*[-–]\s*([A-GSa-gs])\s*:\s*([\d ,]+)$")


def place_names(options: dict | None) -> dict[str, str]:
    """The names the table's pinned profile gives places, by id: cities by letter ("A"),
    villages by number ("5"); none without a profile (the set-up's options)."""
    data = ((options or {}).get("board") or {}).get("data") or {}
    named = {c["id"]: c["name"] for c in data.get("cities", []) if c.get("name")}
    return named | {str(v["number"]): v["name"] for v in data.get("villages", []) if v.get("name")}


def blank() -> dict:
    return {"name": hu_and_en(msg("Maharaja board")), "source": "",
            "cities": [{"id": c, "name": "", "colour": ""} for c in CITIES], "roads": []}


def _builtin() -> dict:
    data = blank()
    data["source"] = ("7 cities, 30 villages, 1 or 2 villages a road. "
                      "One city name on record: Ahmadabad, the brown city lower left. "
                      "Roads and the other names are not published.")
    return data


BUILTIN = ({"id": "maharaja", "data": _builtin()},)

_TEXT = {"type": "string", "maxLength": 40}
SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["name", "cities", "roads"],
    "properties": {
        "name": {"type": "object", "additionalProperties": False, "required": ["hu", "en"],
                 "properties": {"hu": {"type": "string", "maxLength": 80}, "en": {"type": "string", "maxLength": 80}}},
        "source": {"type": "string", "maxLength": 1000},
        "cities": {"type": "array", "minItems": 7, "maxItems": 7, "items": {
            "type": "object", "additionalProperties": False, "required": ["id", "name", "colour"],
            "properties": {"id": {"enum": list(CITIES)}, "name": _TEXT, "colour": _TEXT}}},
        "villages": {"type": "array", "maxItems": VILLAGES, "items": {
            "type": "object", "additionalProperties": False, "required": ["number", "name"],
            "properties": {"number": {"type": "integer", "minimum": 1, "maximum": VILLAGES}, "name": _TEXT}}},
        "roads": {"type": "array", "maxItems": MAX_ROADS, "items": {
            "type": "object", "additionalProperties": False, "required": ["ends", "villages"],
            "properties": {"ends": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"enum": list(ENDS)}},
                           "villages": {"type": "array", "minItems": 1, "maxItems": 2,
                                        "items": {"type": "integer", "minimum": 1, "maximum": VILLAGES}}}}},
    },
}


def _p(message: Text) -> Problem:
    return Problem(RULE, message)


def validate(data) -> list[Problem]:
    shape = schema_problems(SCHEMA, data, RULE, msg("profile"))
    if shape:
        return shape
    problems = []
    if [c["id"] for c in data["cities"]] != list(CITIES):
        problems.append(_p(msg("The 7 cities are A–G in order.")))
    if any(r["ends"][0] == r["ends"][1] for r in data["roads"]):
        problems.append(_p(msg("A road joins two different places.")))
    named = [v["number"] for v in data.get("villages", [])]
    if len(named) != len(set(named)):
        problems.append(_p(msg("Each village has one name.")))
    on_roads = [v for r in data["roads"] for v in r["villages"]]
    if len(on_roads) != len(set(on_roads)):
        problems.append(_p(msg("Each village lies on one road only.")))
    return problems


def missing(data) -> list[dict]:
    out = []
    names = sum(not c["name"] for c in data["cities"])
    if names:
        out.append(msg("%(names)s city names", names=names))
    if not data["roads"]:
        out.append(msg("the roads (travel is not checked until then)"))
    return out


_VILLAGE_NAME = re.compile(r"^\s*(\d{1,2})\s*[:.]\s*(.*?)\s*$")


def _village_names(form) -> list[dict]:
    """One village a line, its number and the name the table knows it by: ``5: by the river``."""
    named = []
    for n, line in enumerate((form.get("villages") or "").splitlines(), start=1):
        if not line.strip():
            continue
        match = _VILLAGE_NAME.match(line)
        if not match or not 1 <= int(match.group(1)) <= VILLAGES or not match.group(2):
            raise FormError([_p(msg("Line %(n)s: write it as “5: by the river” (village 1–%(VILLAGES)s).", n=n, VILLAGES=VILLAGES))])
        named.append({"number": int(match.group(1)), "name": match.group(2)[:40]})
    return named


def from_form(base: dict, form) -> dict:
    """The editor: names and colours per city; villages' names, one a line (``5: by the
    river``); one road a line, e.g. ``S-A: 1, 2``."""
    roads = []
    for n, line in enumerate((form.get("roads") or "").splitlines(), start=1):
        if not line.strip():
            continue
        match = _ROAD.match(line)
        numbers = [v for v in re.split(r"[ ,]+", match.group(3).strip()) if v] if match else []
        # a village is a number of one or two ASCII digits: a 5,000-digit one is past int()'s limit
        villages = [int(v) for v in numbers if v.isascii() and len(v) <= 2]
        if not match or not 1 <= len(villages) == len(numbers) <= 2:
            raise FormError([_p(msg("Line %(n)s: write it as “A-B: 3, 4” (S = start space, 1–2 villages).", n=n))])
        roads.append({"ends": [match.group(1).upper(), match.group(2).upper()], "villages": villages})
    return {"name": {"hu": (form.get("name_hu") or "").strip()[:80] or base["name"]["hu"],
                     "en": (form.get("name_en") or "").strip()[:80] or base["name"]["en"]},
            "source": (form.get("source") or "").strip()[:1000],
            "cities": [{"id": c, "name": (form.get(f"city_{c}_name") or "").strip()[:40],
                        "colour": (form.get(f"city_{c}_colour") or "").strip()[:40]} for c in CITIES],
            "villages": _village_names(form), "roads": roads}


def roads_text(data) -> str:
    return "\n".join(f"{r['ends'][0]}-{r['ends'][1]}: {', '.join(map(str, r['villages']))}" for r in data["roads"])


def route_ok(roads: list[dict], origin: str | None, city: str, via: list[int]) -> bool:
    """With the roads known: can the architect get from ``origin`` (None: the start
    space) to ``city`` using only roads whose villages are all among ``via``?"""
    allowed = set(via)
    reach, frontier = {origin or START}, [origin or START]
    while frontier:
        here = frontier.pop()
        for road in roads:
            if here in road["ends"] and set(road["villages"]) <= allowed:
                there = road["ends"][1] if road["ends"][0] == here else road["ends"][0]
                if there not in reach:
                    reach.add(there)
                    frontier.append(there)
    return city in reach


def cheapest_route(roads: list[dict], villages: list, seat: int, origin: str | None, city: str) -> list[int] | None:
    """The villages of the cheapest open way from ``origin`` to ``city`` for ``seat``
    (fees as docs/rules/maharaja.md §8; a road with an empty village is closed), or None."""
    start = origin or START
    best = {start: (0, [])}
    frontier = [start]
    while frontier:
        frontier.sort(key=lambda place: best[place][0])
        here = frontier.pop(0)
        cost, path = best[here]
        for road in roads:
            if here not in road["ends"] or any(not villages[v - 1] for v in road["villages"]):
                continue
            there = road["ends"][1] if road["ends"][0] == here else road["ends"][0]
            fee = sum(travel_fees(villages, seat, [v - 1 for v in road["villages"]]).values())
            if there not in best or cost + fee < best[there][0]:
                best[there] = (cost + fee, path + road["villages"])
                frontier.append(there)
    return sorted(best[city][1]) if city in best and city != start else None
