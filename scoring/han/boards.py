"""Han board profiles: what is known of the two board sides, and their validation.

The board's topology is published nowhere (docs/rules/han.md §6). A profile holds the
known facts and leaves the rest ``null``; someone holding the board fills it in with
the editor at /boards/han/, or the new-game form asks for the colours a game needs.
"""
from __future__ import annotations

import re
from functools import partial
from typing import Any, Mapping

from scoring.base import FormError, Problem
from scoring.han.data import ALLIANCES, AREAS, COLOUR_AREAS, COLOUR_TEXT, COLOURS, MAX_SITES, SIDES
from scoring.i18n import hu_and_en, msg
from scoring.schema import schema_problems

ID = re.compile(r"^[a-z0-9-]{1,24}$")
RULE = "docs/rules/han.md §6"


def _area(id_, name="", colour=None):
    return {"id": id_, "name": name, "colour": colour, "sites": None}


def blank(side: int) -> dict:
    """Every fact unknown: 9 unnamed areas, empty sites, 15 empty alliances."""
    spec = SIDES[side]
    return {"side": side, "name": hu_and_en(spec["name"]), "source": "",
            "areas": [_area(f"a{i}") for i in range(1, AREAS + 1)],
            "border_sites": [{"areas": [None, None]} for _ in range(spec["border_sites"])],
            "harbours": [{"area": None} for _ in range(spec["harbours"])],
            "alliances": [{"n": n, "areas": [None, None]} for n in range(1, ALLIANCES + 1)],
            "roads": None}


def _side1() -> dict:
    """What the rulebook's examples and board text tell (docs/rules/han.md §6): Vej red;
    Csi and Csin yellow; Lu and Csao orange; Csou the single violet province; alliance 3
    joins Vej and Csin, alliance 4 Csin and Su. Nothing else is published."""
    data = blank(1)
    data["areas"] = [_area("vej", "Vej", "red"), _area("csi", "Csi", "yellow"),
                     _area("csin", "Csin", "yellow"), _area("lu", "Lu", "orange"),
                     _area("csao", "Csao", "orange"), _area("csou", "Csou", "violet"),
                     _area("su", "Su"), _area("a8"), _area("a9")]
    data["alliances"][2]["areas"] = ["vej", "csin"]
    data["alliances"][3]["areas"] = ["csin", "su"]
    data["source"] = ("The Hungarian rulebook's examples 1-8 and board text (docs/rules/han.md §6). "
                      "Unknown: 2 names, 3 colours, every site count, border sites, harbours, "
                      "13 alliances, roads.")
    return data


def _side2() -> dict:
    data = blank(2)
    data["source"] = ("The capital in 9 districts, 2-4 players (docs/rules/han.md §6). "
                      "Names, colours, sites and alliances are not published.")
    return data


BUILTIN = ({"id": "han-side1", "data": _side1()}, {"id": "han-side2", "data": _side2()})

_PAIR = {"type": "array", "minItems": 2, "maxItems": 2,
         "items": {"type": ["string", "null"], "maxLength": 24}}
SCHEMA = {
    "type": "object", "additionalProperties": False,
    "required": ["side", "name", "areas", "border_sites", "harbours", "alliances"],
    "properties": {
        "side": {"enum": [1, 2]},
        "name": {"type": "object", "additionalProperties": False, "required": ["hu", "en"],
                 "properties": {"hu": {"type": "string", "maxLength": 80},
                                "en": {"type": "string", "maxLength": 80}}},
        "source": {"type": "string", "maxLength": 1000},
        "areas": {"type": "array", "minItems": AREAS, "maxItems": AREAS, "items": {
            "type": "object", "additionalProperties": False,
            "required": ["id", "name", "colour", "sites"],
            "properties": {"id": {"type": "string", "pattern": ID.pattern},
                           "name": {"type": "string", "maxLength": 40},
                           "colour": {"enum": [*COLOURS, None]},
                           "sites": {"type": ["integer", "null"], "minimum": 1,
                                     "maximum": MAX_SITES}}}},
        "border_sites": {"type": "array", "maxItems": 12, "items": {
            "type": "object", "additionalProperties": False, "required": ["areas"],
            "properties": {"areas": _PAIR}}},
        "harbours": {"type": "array", "maxItems": 12, "items": {
            "type": "object", "additionalProperties": False, "required": ["area"],
            "properties": {"area": {"type": ["string", "null"], "maxLength": 24}}}},
        "alliances": {"type": "array", "minItems": ALLIANCES, "maxItems": ALLIANCES, "items": {
            "type": "object", "additionalProperties": False, "required": ["n", "areas"],
            "properties": {"n": {"type": "integer"}, "areas": _PAIR}}},
        "roads": {"type": ["array", "null"], "maxItems": 60, "items": {
            "type": "array", "minItems": 2, "maxItems": 40, "items": {"type": "string", "maxLength": 30}}},
    },
}


def road_sites(data: dict) -> dict[str, dict] | None:
    """The pagoda sites, named so a road can list them: "<area>-1"… ordinary,
    "<area>-h1"… harbours, "b1"… border sites. None while a count or place is unknown."""
    if any(a["sites"] is None for a in data["areas"]) or any(h["area"] is None for h in data["harbours"]) \
            or any(None in b["areas"] for b in data["border_sites"]):
        return None
    sites = {}
    for area in data["areas"]:
        harbours = sum(h["area"] == area["id"] for h in data["harbours"])
        for k in range(1, area["sites"] - harbours + 1):
            sites[f"{area['id']}-{k}"] = {"area": area["id"], "kind": "ordinary", "with": None}
        for k in range(1, harbours + 1):
            sites[f"{area['id']}-h{k}"] = {"area": area["id"], "kind": "harbour", "with": None}
    for k, border in enumerate(data["border_sites"], start=1):
        sites[f"b{k}"] = {"area": border["areas"][0], "kind": "border", "with": border["areas"][1]}
    return sites


_p = partial(Problem, RULE)  # a problem of the profile: _p(msg("..."))


def _colour_counts(data: dict) -> list[Problem]:
    """Four colours twice and violet once (docs/rules/han.md §6)."""
    problems = []
    for colour in COLOURS:
        most = COLOUR_AREAS[colour]
        named = [area_name(data, a["id"]) for a in data["areas"] if a["colour"] == colour]
        if len(named) > most:
            c = COLOUR_TEXT[colour]
            problems.append(_p(
                msg("%(c)s: %(count)s areas (%(value)s), but at most %(most)s can have this colour (four colours twice, violet once).", c=c, count=len(named), value=', '.join(named), most=most)))
    return problems


def validate(data) -> list[Problem]:
    """Contradictions in a profile; unknown (null) facts are allowed."""
    shape = schema_problems(SCHEMA, data, RULE, msg("profile"))
    if shape:
        return shape
    problems = []
    ids = [a["id"] for a in data["areas"]]
    if len(set(ids)) != AREAS:
        problems.append(_p(msg("The 9 area ids must differ.")))
    problems += _colour_counts(data)
    spec = SIDES[data["side"]]
    if len(data["border_sites"]) != spec["border_sites"] or len(data["harbours"]) != spec["harbours"]:
        problems.append(_p(msg("This side has %(border_sites)s border sites and %(harbours)s harbours.", border_sites=spec['border_sites'], harbours=spec['harbours'])))
    known = set(ids)
    pairs = [("border", b["areas"]) for b in data["border_sites"]] + \
            [("alliance", a["areas"]) for a in data["alliances"]]
    refs = [a for _, pair in pairs for a in pair] + [h["area"] for h in data["harbours"]]
    if any(r is not None and r not in known for r in refs):
        problems.append(_p(msg("It refers to an unknown area.")))
    if any(pair[0] is not None and pair[0] == pair[1] for _, pair in pairs):
        problems.append(_p(msg("A border site or alliance joins two different areas.")))
    if [a["n"] for a in data["alliances"]] != list(range(1, ALLIANCES + 1)):
        problems.append(_p(msg("Alliances are numbered 1–15 in order.")))
    full = [frozenset(a["areas"]) for a in data["alliances"] if None not in a["areas"]]
    if len(full) != len(set(full)):
        problems.append(_p(msg("No two alliances may join the same two areas.")))
    for area in data["areas"]:
        harbours = sum(h["area"] == area["id"] for h in data["harbours"])
        if area["sites"] is not None and harbours > area["sites"]:
            problems.append(_p(msg("%(value)s: more harbours than pagoda sites.", value=area['name'] or area['id'])))
    return problems or _check_roads(data)


def _check_roads(data: dict) -> list[Problem]:
    if not data.get("roads"):
        return []
    sites = road_sites(data)
    if sites is None:
        return [_p(msg("Roads need every site known first (site counts, harbours, border sites)."))]
    unknown = sorted({s for road in data["roads"] for s in road if s not in sites})
    if unknown:
        return [_p(msg("Unknown sites on the roads: %(value)s.", value=', '.join(unknown[:5])))]
    if any(a == b for road in data["roads"] for a, b in zip(road, road[1:])):
        return [_p(msg("A road does not repeat a site."))]
    return []


def playable(data) -> list[Problem]:
    """What a game needs before it can start: a valid profile with all 9 colours,
    since every card check depends on them (docs/rules/han.md §1.5)."""
    problems = validate(data) if isinstance(data, dict) else [
        _p(msg("Choose a board profile."))]
    if not problems and any(a["colour"] is None for a in data["areas"]):
        problems.append(Problem("docs/rules/han.md §1.5", msg("The profile needs the colour of all 9 areas (board editor).")))
    return problems


def complete(data: dict, board: Mapping[str, Any]) -> dict:
    """The profile with the colours the table gave, at the start of a game, to the provinces
    of unknown colour: ``board = {"id": ..., "colours": {area id: colour}}``; refused while
    one is missing or the colours break "four colours twice, violet once" (§1.5, §6)."""
    answers = board.get("colours") or {}
    if not isinstance(answers, Mapping):
        raise FormError([Problem("docs/rules/han.md §1.5", msg("The colours: {\"<area id>\": \"<colour>\"}."))])
    unknown = [a for a in data["areas"] if a["colour"] is None]
    lacking = [area_name(data, a["id"]) for a in unknown if answers.get(a["id"]) not in COLOURS]
    if lacking:
        raise FormError([Problem(
            "docs/rules/han.md §1.5",
            msg("Give the colour of: %(value)s (what a piece costs depends on its province's colour).", value=', '.join(lacking)))])
    filled = {**data, "areas": [{**a, "colour": a["colour"] or answers[a["id"]]} for a in data["areas"]]}
    problems = _colour_counts(filled)
    if problems:
        raise FormError(problems)
    return filled


def learn(data: dict, state: dict) -> dict | None:
    """The profile with the alliances a table entered at its final scoring (docs/rules/han.md
    §6), each where the profile still has none; None when that adds nothing, or when the
    profile changed meanwhile so that the pairs no longer fit it (another area id, a pair
    another alliance already joins): the facts the profile holds are kept."""
    entered = state.get("entered_alliances") or {}
    ids = {a["id"] for a in data["areas"]}
    alliances = [dict(a, areas=list(a["areas"])) for a in data["alliances"]]
    taken = {frozenset(a["areas"]) for a in alliances if None not in a["areas"]}
    learned = False
    for alliance in alliances:
        pair = entered.get(str(alliance["n"]))
        if None not in alliance["areas"] or not pair or not set(pair) <= ids or frozenset(pair) in taken:
            continue
        alliance["areas"] = list(pair)
        taken.add(frozenset(pair))
        learned = True
    if not learned:
        return None
    filled = {**data, "alliances": alliances}
    return filled if not validate(filled) else None


def missing(data) -> list[dict]:
    """The facts this profile leaves to the table, for the editor and the set-up page."""
    out = []
    names = sum(not a["name"] for a in data["areas"])
    colours = sum(a["colour"] is None for a in data["areas"])
    sites = sum(a["sites"] is None for a in data["areas"])
    border = sum(None in b["areas"] for b in data["border_sites"])
    harbours = sum(h["area"] is None for h in data["harbours"])
    alliances = sum(None in a["areas"] for a in data["alliances"])
    for count, said in ((names, msg("%(count)s names")), (colours, msg("%(count)s colours (needed)")),
                        (sites, msg("%(count)s site counts (when a province fills)")),
                        (border, msg("%(count)s border sites")), (harbours, msg("%(count)s harbour areas")),
                        (alliances, msg("%(count)s alliances (asked at the end, then kept in the profile)"))):
        if count:
            out.append({lang: said[lang].replace("%(count)s", str(count)) for lang in said})
    if not data.get("roads"):
        out.append(msg("the road network (chains asked at the end)"))
    return out


def area_name(data_or_state, area_id) -> str:
    """The one name of a province wherever a player reads it (set-up, board, move log,
    refusals): the profile's name, else "#n", its place in the profile (area id "a<n>")."""
    for i, area in enumerate(data_or_state["areas"], start=1):
        if area["id"] == area_id:
            return area.get("name") or f"#{i}"
    return str(area_id)


def place_names(options) -> dict[str, str]:
    """Each province's name by id as the pinned profile of the set-up's ``options`` gives it
    (``area_name``): what the rules' ``place(id)`` and the board view say."""
    data = ((options or {}).get("board") or {}).get("data") or {}
    return {a["id"]: area_name(data, a["id"]) for a in data.get("areas", []) if isinstance(a, dict)}


# ---- the editor's form ------------------------------------------------------------

def _opt(form, name):
    value = (form.get(name) or "").strip()
    return value or None


def _int_or_none(form, name, label):
    raw = _opt(form, name)
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise FormError([_p(msg("%(label)s: enter a whole number.", label=label))]) from None


_ACCENTS = str.maketrans("áéíóöőúüű", "aeiooouuu")


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().translate(_ACCENTS)).strip("-")[:24]


def _ids(base: dict, names: list[str]) -> dict[str, str]:
    """Old area id -> new: readable ids from the names (the move log shows them)."""
    new_ids, taken = {}, set()
    for old, name in zip((a["id"] for a in base["areas"]), names):
        wanted = slug(name) if name else old
        new_ids[old] = wanted if wanted and wanted not in taken else old
        taken.add(new_ids[old])
    return new_ids if len(set(new_ids.values())) == len(new_ids) else {a["id"]: a["id"] for a in base["areas"]}


def from_form(base: dict, form) -> dict:
    """The editor's fields on top of ``base`` (the version being edited)."""
    side = base["side"]
    names = [(form.get(f"area_{i}_name") or "").strip()[:40] for i in range(len(base["areas"]))]
    ids = _ids(base, names)
    areas = []
    for i, old in enumerate(base["areas"]):
        areas.append({"id": ids[old["id"]], "name": names[i],
                      "colour": _opt(form, f"area_{i}_colour"),
                      "sites": _int_or_none(form, f"area_{i}_sites", f"{i + 1}.")})

    def _ref(name):
        value = _opt(form, name)
        return ids.get(value, value) if value else None
    spec = SIDES[side]
    return {"side": side, "name": {"hu": (form.get("name_hu") or "").strip()[:80] or base["name"]["hu"],
                                   "en": (form.get("name_en") or "").strip()[:80] or base["name"]["en"]},
            "source": (form.get("source") or "").strip()[:1000],
            "areas": areas,
            "border_sites": [{"areas": [_ref(f"border_{i}_a"), _ref(f"border_{i}_b")]}
                             for i in range(spec["border_sites"])],
            "harbours": [{"area": _ref(f"harbour_{i}")} for i in range(spec["harbours"])],
            "alliances": [{"n": n, "areas": [_ref(f"alliance_{n}_a"), _ref(f"alliance_{n}_b")]}
                          for n in range(1, ALLIANCES + 1)],
            "roads": _roads(form)}


def _roads(form) -> list | None:
    """One road per line, its sites in order, separated by spaces or commas."""
    lines = (form.get("roads") or "").replace(",", " ").splitlines()
    roads = [line.split() for line in lines if line.split()]
    return roads or None
