"""Han: phone forms to events (``PARSERS``, keyed by the form's action), the new-game
form's options, and the words of the move log (``describe``)."""
from __future__ import annotations

import json
from collections import Counter
from typing import Callable, Mapping

from scoring import text as text_policy
from scoring.base import Move, text
from scoring.forms import fail as _fail
from scoring.forms import form_int, player_name
from scoring.han.data import COLOUR_TEXT, COLOURS, EVENT_TYPES, PIECE_TEXT, V1_END_REASON
from scoring.han.boards import area_name, place_names
from scoring.han.score import missing_alliances
from scoring.i18n import joined
from scoring.i18n import msg

MAX_CHAIN_ROWS = 12
RULE = "docs/rules/han.md §"  # + the section a field belongs to
END_REASON = text_policy.TextRule(text_policy.REASON.what, 200)  # game-ended's reason (data.py)


# ---- set-up ----------------------------------------------------------------------

def parse_options(form) -> dict:
    try:
        pinned = json.loads(form.get("opt_board") or "null")
    except ValueError:
        pinned = None
    if not isinstance(pinned, dict):
        _fail(msg("Choose a board profile."), RULE + "1.5")
    removed = (form.get("opt_removed_cards") or "").strip()
    return {"board": _board_or_answers(pinned, form),
            "start_player": form_int(form, "opt_start_player", msg("Start player"), RULE + "1.2", low=0),
            "fortress": form.get("opt_fortress") in ("1", "on"),
            "fortress_rule": "together" if form.get("opt_fortress_rule") == "together" else "hu",
            "removed_cards": form_int(form, "opt_removed_cards", msg("Cards removed"), RULE + "1.3",
                                       low=0, high=30)
            if removed else -1,
            "end_all_placed": form.get("opt_end_all_placed") in ("1", "on")}


def _board_or_answers(pinned: dict, form) -> dict:
    """The chosen profile; one whose provinces lack colours becomes the request to complete
    it with the colours chosen beside it (``colour_<profile>_<area>``), which the core
    saves as the profile's next version (docs/rules/han.md §1.5)."""
    data = pinned.get("data")
    areas = data.get("areas") if isinstance(data, dict) else None
    if not isinstance(areas, list) or not isinstance(pinned.get("id"), str) \
            or all(not isinstance(a, dict) or a.get("colour") is not None for a in areas):
        return pinned
    unknown = [a["id"] for a in areas if isinstance(a, dict) and a.get("colour") is None and isinstance(a.get("id"), str)]
    colours = {aid: form.get(f"colour_{pinned['id']}_{aid}") or "" for aid in unknown}
    return {"id": pinned["id"], "colours": colours}


# ---- moves -----------------------------------------------------------------------

def _seat(state: dict, form) -> int:
    """The seat named, or "turn": whoever's turn it is when the move arrives."""
    if (form.get("seat") or "turn") == "turn":
        return state["next"]["seat"]
    return form_int(form, "seat", msg("Player"), RULE + "2.1", low=0, high=state["n"] - 1)


def _placement(state: dict, form) -> dict:
    seat = _seat(state, form)
    area = (form.get("area") or "").strip()[:24]
    if not area:
        _fail(msg("Choose the province."), RULE + "2.2")
    cards = [form.get(f"card{i}") for i in (1, 2, 3) if form.get(f"card{i}")]
    if any(c not in COLOURS for c in cards):
        _fail(msg("Unknown card colour."), RULE + "2.3")
    if not cards:
        _fail(msg("Enter the cards played (1–3)."), RULE + "2.3")
    pieces = []
    for i in (1, 2):
        kind = form.get(f"piece{i}") or ""
        if not kind:
            continue
        if kind not in ("pagoda", "envoy", "fortress"):
            _fail(msg("Unknown piece."), RULE + "2.3")
        piece = {"type": kind, "area": area}
        if kind != "envoy":
            site = form.get(f"site{i}") or "ordinary"
            if site.startswith("at:"):
                piece.update(_at(state, area, site[3:][:30]))
            elif site.startswith("border:"):
                piece["site"], piece["with"] = "border", site[7:][:24]
            elif site in ("ordinary", "harbour", "fortress"):
                piece["site"] = site
            else:
                _fail(msg("Unknown kind of site."), RULE + "2.9")
        pieces.append(piece)
    if not pieces:
        _fail(msg("Choose at least one piece (1–2)."), RULE + "2.3")
    return {"seat": seat, "cards": cards, "pieces": pieces}


def _at(state: dict, area: str, site_id: str) -> dict:
    """A named site of the road network: its kind and, for a border site, the other area."""
    site = (state.get("road_sites") or {}).get(site_id)
    if site is None:
        _fail(msg("Unknown pagoda site."), RULE + "2.9")
    piece = {"site": site["kind"], "at": site_id}
    if site["kind"] == "border":
        piece["with"] = site["with"] if site["area"] == area else site["area"]
    return piece


def _pick(form, name) -> str | None:
    value = (form.get(name) or "").strip()
    return value[:24] or None


def _alliance_tapped(tile: str) -> dict:
    """A pair's button: "<n>:<area>:<area>", the alliance asked and the two provinces it joins."""
    n, _, pair = tile.partition(":")
    areas = pair.split(":")
    if not n.isdigit() or len(areas) != 2 or not all(areas):
        _fail(msg("Enter at least one alliance (two provinces)."), RULE + "3.5")
    return {"alliances": [{"n": int(n), "areas": [a[:24] for a in areas]}]}


def _alliances(state: dict, form) -> dict:
    action, _, tile = (form.get("action") or "").partition(":")
    if tile:   # one tap, one alliance (docs/decisions.md, One tap per choice)
        return _alliance_tapped(tile)
    entered = []
    for n in missing_alliances(state):
        pair = [_pick(form, f"al_{n}_a"), _pick(form, f"al_{n}_b")]
        if None not in pair:
            entered.append({"n": n, "areas": pair})
    if not entered:
        _fail(msg("Enter at least one alliance (two provinces)."), RULE + "3.5")
    return {"alliances": entered}


def _chains(form) -> dict:
    chains = []
    for i in range(MAX_CHAIN_ROWS):
        if not (form.get(f"chain_len_{i}") or "").strip():
            continue
        chains.append({"seat": form_int(form, f"chain_seat_{i}", msg("Player"), RULE + "3.6"),
                       "length": form_int(form, f"chain_len_{i}", msg("Length"), RULE + "3.6"),
                       "fortified": form.get(f"chain_fort_{i}") in ("1", "on")})
    return {"chains": chains}


def _count_field(form, name: str) -> int:
    raw = (form.get(name) or "").strip()
    return form_int(form, name, msg("Count"), RULE + "5", low=0, high=40) if raw else 0


def _tally(state: dict, form) -> dict:
    n = state["n"]
    areas = {a["id"]: {"pagodas": [_count_field(form, f"p_{a['id']}_{s}") for s in range(n)],
                       "envoys": [_count_field(form, f"e_{a['id']}_{s}") for s in range(n)]}
             for a in state["areas"]}
    fortresses = []
    for s in range(n):
        where = _pick(form, f"fort_{s}")
        if where:
            site = form.get(f"fort_site_{s}") or "ordinary"
            fort = {"seat": s, "area": where, "site": site if site in ("ordinary", "harbour") else "ordinary"}
            if site.startswith("border:"):
                fort.update(site="border", **{"with": site[7:][:24]})
            fortresses.append(fort)
    return {"areas": areas, "harbours": [_count_field(form, f"harbour_{s}") for s in range(n)],
            "border_pagodas": [_count_field(form, f"border_{s}") for s in range(n)], "fortresses": fortresses}




# ---- the move log ------------------------------------------------------------------

def _cards_text(cards: list[str]) -> dict:
    counts = Counter(cards)
    return joined(", ", [msg("%(count)s× %(colour)s", count=k, colour=COLOUR_TEXT[c]) if k > 1 else COLOUR_TEXT[c]
                         for c, k in counts.items()])


def _piece_text(p: dict, area) -> dict:
    name = PIECE_TEXT[p["type"]]
    site = p.get("site")
    extra = {"border": msg(" (border with %(value)s)", value=area(p.get('with'))),
             "harbour": msg(" (harbour)"), "fortress": msg(" (on a fortress)")}.get(site, text("", ""))
    at = f" @{p['at']}" if p.get("at") else ""
    return joined("", [name, extra, at])


def describe_placement(d: dict, who: str, area_name) -> dict:
    pieces = [_piece_text(p, area_name) for p in d["pieces"]]
    area = area_name(d["pieces"][0]["area"]) if d["pieces"] else "?"
    cards = _cards_text(d["cards"])
    return msg("%(who)s: %(pieces)s → %(area)s (%(cards)s)", who=who, pieces=joined(" + ", pieces), area=area, cards=cards)


def _pile_out(state: dict, form) -> dict:
    """The confirmation the app asks for when the pile ran out far from the expected count."""
    return {"confirmed": form.get("confirm_pile") in ("1", "on")}


def _ended(state: dict, form) -> dict:
    """The confirmation and reason the app asks for while a player could still place."""
    try:  # the one text policy (scoring/text.py): a reason too long is refused, never cut
        reason = text_policy.clean(form.get("end_reason") or "", END_REASON)
    except text_policy.BadText as refused:
        _fail(refused.why, RULE + "4.2")
    return {"confirmed": form.get("confirm_end") in ("1", "on"), "reason": reason}


def _score_area(state: dict, form) -> dict:
    area = (form.get("score_area") or "").strip()[:24]
    if not area:
        _fail(msg("Choose the province that is full."), RULE + "3.2")
    return {"area": area}


_FIELDS: dict[str, Callable[[dict, Mapping], dict]] = {
    "pieces-placed": _placement,
    "card-exchanged": lambda state, form: {"seat": _seat(state, form)},
    "draw-pile-ran-out": _pile_out,
    "game-ended": _ended,
    "province-scored": _score_area,
    "alliances-entered": _alliances,
    "road-chains-entered": lambda state, form: _chains(form),
    "final-position-entered": _tally,
}
# Each action's form fields to its event: (state, form) -> (type, data).
PARSERS: dict[str, Callable[[dict, Mapping], tuple[str, dict]]] = {
    action: (lambda state, form, action=action, fields=fields: (action, fields(state, form)))
    for action, fields in _FIELDS.items()}


def parse_form(state: dict, form) -> tuple[str, dict]:
    action = form.get("action") or ""
    # a pair's button names the alliance and its provinces in its value (_alliances.html)
    parser = PARSERS.get("alliances-entered" if action.startswith("alliances-entered:") else action)
    if parser is None:
        _fail(msg("Unknown action."), RULE + "2")
    return parser(state, form)


def _area_names(state: dict | None, options: dict | None):
    """A province's name as the board view and the set-up call it: the pinned profile's
    name (``place_names``), else "#n", its place on the board (``area_name``); its id,
    capitalised, with neither the set-up nor a state at hand."""
    names = place_names(options)
    if not names and not (state or {}).get("areas"):
        return lambda area: str(area).capitalize()
    return lambda area: names.get(area) or area_name(state, area)


def _describe_placed(move: Move, players: list[dict], area) -> dict:
    return describe_placement(move.data, player_name(players, move.data["seat"]), area)


def _describe_exchanged(move: Move, players: list[dict], area) -> dict:
    who = player_name(players, move.data["seat"])
    return msg("%(who)s: exchanged a card", who=who)


def _describe_scored(move: Move, players: list[dict], area) -> dict:
    name = area(move.data["area"])
    return msg("%(name)s is full: scored", name=name)


def _describe_chains(move: Move, players: list[dict], area) -> dict:
    chains = ", ".join(f"{player_name(players, c['seat'])} {c['length']}{'×2' if c['fortified'] else ''}"
                       for c in move.data["chains"]) or "–"
    return msg("Road chains: %(chains)s", chains=chains)


def _describe_alliances(move: Move, players: list[dict], area) -> dict:
    pairs = ", ".join(f"{a['n']}: {area(a['areas'][0])}–{area(a['areas'][1])}" for a in move.data["alliances"])
    return msg("Alliances: %(pairs)s", pairs=pairs)


def _describe_pile_out(move: Move, players: list[dict], area) -> dict:
    label = EVENT_TYPES[move.type].label
    if not move.data.get("confirmed"):
        return dict(label)
    return msg("%(label)s (confirmed)", label=label)


def _describe_ended(move: Move, players: list[dict], area) -> dict:
    label, reason = EVENT_TYPES[move.type].label, move.data.get("reason") or ""
    if not move.data.get("confirmed") or reason == V1_END_REASON:
        return dict(label)
    return msg("Game ended (confirmed): %(reason)s", reason=reason)


DESCRIBE = {"pieces-placed": _describe_placed, "draw-pile-ran-out": _describe_pile_out, "game-ended": _describe_ended, "card-exchanged": _describe_exchanged,
            "province-scored": _describe_scored, "road-chains-entered": _describe_chains,
            "alliances-entered": _describe_alliances}


def describe(move: Move, players: list[dict], state: dict | None = None,
             options: dict | None = None) -> dict[str, str]:
    words = DESCRIBE.get(move.type)
    if words is None:  # the event's label says it all
        return dict(EVENT_TYPES[move.type].label)
    return words(move, players, _area_names(state, options))
