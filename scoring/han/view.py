"""Han: what the board view and the forms show, derived from the folded facts when a
page renders (``Presentation.view``); templates read it as ``view``."""
from __future__ import annotations

from scoring.base import Move
from scoring.han.apply import waiting_for
from scoring.han.boards import area_name, place_names
from scoring.han.data import ALLIANCES, PILE_SLACK
from scoring.han.score import (alliance_pair, alliance_result, can_place, expected_pile, capacity, envoys, fortified, free_road_sites, harbour_pagodas,
                               missing_alliances, open_fortresses, pagodas, supply, used_sites)


def _area(state: dict, a: dict, names: dict) -> dict:
    aid = a["id"]
    pag, env = pagodas(state, aid), envoys(state, aid)
    cap = capacity(state, aid)
    return {"id": aid, "name": names.get(aid) or area_name(state, aid), "colour": a["colour"], "pagodas": pag, "envoys": env,
            "free": None if cap is None or state["tally"] else cap - used_sites(state, aid),
            "room": max(pag) - sum(env), "scored": state["scored"].get(aid),
            "open_forts": open_fortresses(state, aid), "fortified": sorted(fortified(state, aid)),
            "confirmable": cap is None and aid not in state["scored"] and any(pag)
            and not open_fortresses(state, aid)}


def _border_pagodas(state: dict) -> list[int]:
    if state["tally"]:
        return list(state["tally"]["border_pagodas"])
    return [sum(p["seat"] == s and p["site"] == "border" and p["type"] == "pagoda" for p in state["pieces"])
            for s in range(state["n"])]


def _last(state: dict, last: Move | None) -> dict:
    """What the last move changed, for the board to mark: the provinces its pieces went to
    or it scored, and those it scored (§3.2), from the pieces and scores that name it."""
    seq = last.seq if last else 0
    scored = sorted(area for area, by in state["scored"].items() if by == seq)
    placed = {a for p in state["pieces"] if p["seq"] == seq for a in (p["area"], p["with"]) if a}
    return {"seq": seq, "areas": sorted(placed | set(scored)), "scored": scored}


def _open_pairs(state: dict) -> list[tuple[str, str]]:
    """The pairs of provinces no alliance joins yet, the profile's or the table's: each a
    tap that names the next alliance asked (docs/rules/han.md §3.5, §6: no pair twice)."""
    ids = [a["id"] for a in state["areas"]]
    joined = {frozenset(p) for n in range(1, ALLIANCES + 1) if (p := alliance_pair(state, n))}
    return [(x, y) for i, x in enumerate(ids) for y in ids[i + 1:] if frozenset((x, y)) not in joined]


def view(state: dict, players: list[dict] | None = None, options: dict | None = None,
         last: Move | None = None) -> dict:
    """``last``: the newest move of the game (``Presentation.last_of``), whose changes the board
    marks; ``options``: the table's set-up, whose board profile names the provinces."""
    names = place_names(options)
    final = state["next"]["step"] in ("final", "over")
    missing = missing_alliances(state)
    return {"areas": [_area(state, a, names) for a in state["areas"]], "last": _last(state, last),
            "harbours": harbour_pagodas(state) if state["side"] == 1 else None,
            "supply": [supply(state, s) for s in range(state["n"])], "deck": expected_pile(state),
            "border": _border_pagodas(state),
            "alliances": [alliance_result(state, n) for n in range(1, ALLIANCES + 1)] if final else [],
            "emperor": (missing[0] if missing else None) if final else None,
            "missing_alliances": missing, "pairs": _open_pairs(state) if missing else [], "waiting": waiting_for(state) if final else [],
            "free_sites": free_road_sites(state),
            "pile_far": abs(expected_pile(state)) > PILE_SLACK,
            "able": {seat: kinds for seat in range(state["n"]) if (kinds := can_place(state, seat))}
            if state["next"]["step"] == "play" else {}}


def form_data(state: dict, view: dict) -> dict:
    """What the move form shows (templates/games/han/_form_fields.html, _tally.html,
    _alliances.html; ``Presentation.form_data``): the step (not whose turn: the form offers
    "whoever's turn it is"), the variant, the draw pile's outs, whether pieces are recorded,
    the cards the app expects in the pile only where the form says them (far from the count),
    and the view but for the last move's marks and the supplies, which only the board shows."""
    shown = {name: value for name, value in view.items() if name not in ("last", "supply", "deck")}
    return {"step": state["next"]["step"], "fortress": state["fortress"], "side": state["side"],
            "deck_outs": state["deck_outs"], "pieces": bool(state["pieces"]),
            "deck": view["deck"] if view["pile_far"] else None, "view": shown}


def board_parts(state: dict, view: dict, players: list[dict], seat: int | None = None) -> list[dict]:
    """The board by its parts (``Presentation.board_parts``; templates/games/han/_board_part.html):
    whose turn and the draw pile, each province, the harbours, the supplies, the alliances."""
    last = view["last"]
    status = {"id": "han-status", "is": "status", "next": state["next"], "last_round": state.get("last_round"),
              "deck_outs": state["deck_outs"], "deck": view["deck"],
              "point_cards": [(card["seat"], card["points"]) for card in state["point_cards"] if card["seq"] == last["seq"]]}
    areas = [{"id": f"han-area-{a['id']}", "is": "area", "a": a, "changed": a["id"] in last["areas"]}
             for a in view["areas"]]
    parts = [status, *areas]
    if view["harbours"] is not None:
        parts.append({"id": "han-harbours", "is": "harbours", "harbours": view["harbours"],
                      "of": len(state["harbour_areas"])})
    parts.append({"id": "han-supply", "is": "supply", "supply": view["supply"], "fortress": state["fortress"]})
    names = {a["id"]: a["name"] for a in view["areas"]} if view["alliances"] else {}
    parts.append({"id": "han-alliances", "is": "alliances", "alliances": view["alliances"],  # [] until the final steps
                  "emperor": view["emperor"], "names": names})
    return parts
