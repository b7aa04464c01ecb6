"""Han (Michael Schacht, ABACUSSPIELE 2014): scored move by move, every rule checked.

Rules as implemented, with sources: docs/rules/han.md ("Han §n.m" references).
The board's unknown facts come from a pinned board profile (scoring/han_board.py);
while one is missing the app asks the table (province full, alliances, road chains).
"""
from __future__ import annotations

from scoring import han_board as board
from scoring import han_forms as forms
from scoring import han_rules as rules
from scoring.base import Boards, EventSpec, GameKind, Move, Option, Problem, clone, text
from scoring.han_board import COLOURS, SIDES

CARDS = {"violet": 10, "yellow": 11, "orange": 11, "green": 12, "red": 13}  # GAMES.md Han: 57
# Card removal at set-up (GAMES.md Han): side 2 as the Hungarian text; side 1 with 5 players
# none (Hungarian text), with 3-4 players the predecessor China's scheme, unconfirmed.
REMOVED = {(2, 4): 3, (2, 3): 4, (2, 2): 5, (1, 5): 0, (1, 4): 5, (1, 3): 10}
UNCONFIRMED_REMOVAL = {(1, 4), (1, 3)}
POINT_CARDS = (50, 100)

_id = {"type": "string", "maxLength": 24}
_seat = {"type": "integer", "minimum": 0, "maximum": 4}
_counts = {"type": "array", "maxItems": 5, "items": {"type": "integer", "minimum": 0, "maximum": 40}}


def _schema(required: list[str], **properties) -> dict:
    return {"type": "object", "additionalProperties": False, "required": required,
            "properties": properties}


EVENT_TYPES = {
    "pieces-placed": EventSpec(
        schema=_schema(["seat", "cards", "pieces"], seat=_seat,
                       cards={"type": "array", "maxItems": 6, "items": {"enum": list(COLOURS)}},
                       pieces={"type": "array", "maxItems": 4, "items": _schema(
                           ["type", "area"], type={"enum": ["pagoda", "envoy", "fortress"]}, area=_id,
                           site={"enum": ["ordinary", "border", "harbour", "fortress"]}, at={"type": "string", "maxLength": 30},
                           **{"with": _id})}),
        label=text("Lerakás", "Pieces placed")),
    "card-exchanged": EventSpec(schema=_schema(["seat"], seat=_seat),
                                label=text("Kártyacsere", "Card exchanged")),
    "draw-pile-ran-out": EventSpec(schema=_schema([]), label=text("Kifogyott a húzópakli", "Draw pile ran out")),
    "province-scored": EventSpec(schema=_schema(["area"], area=_id),
                                 label=text("Tartomány megtelt, kiértékelve", "Province full, scored")),
    "game-ended": EventSpec(schema=_schema([]),
                            label=text("Senki sem tud lerakni: vége", "Nobody can place: game over")),
    "alliances-entered": EventSpec(
        schema=_schema(["alliances"], alliances={"type": "array", "minItems": 1, "maxItems": 15, "items": _schema(
            ["n", "areas"], n={"type": "integer", "minimum": 1, "maximum": 15},
            areas={"type": "array", "minItems": 2, "maxItems": 2, "items": _id})}),
        label=text("Szövetségek megadva", "Alliances entered")),
    "road-chains-entered": EventSpec(
        schema=_schema(["chains"], chains={"type": "array", "maxItems": 25, "items": _schema(
            ["seat", "length", "fortified"], seat=_seat, length={"type": "integer", "minimum": 1, "maximum": 20},
            fortified={"type": "boolean"})}),
        label=text("Pagodasorok megadva", "Road chains entered")),
    "final-position-entered": EventSpec(
        schema=_schema(["areas", "harbours", "border_pagodas", "fortresses"],
                       areas={"type": "object", "maxProperties": 9, "additionalProperties": _schema(
                           ["pagodas", "envoys"], pagodas=_counts, envoys=_counts)},
                       harbours=_counts, border_pagodas=_counts,
                       fortresses={"type": "array", "maxItems": 5, "items": _schema(
                           ["seat", "area", "site"], seat=_seat, area=_id,
                           site={"enum": ["ordinary", "border", "harbour"]}, **{"with": _id})}),
        label=text("Végállás megadva", "End position entered")),
}

OPTIONS = (
    Option("board", {}, text("Tábla-profil", "Board profile"),
           help=text("A tábla oldala és ismert adatai (tábla-szerkesztő).", "The board side and its known facts (board editor).")),
    Option("start_player", 0, text("Kezdőjátékos (császár)", "Start player (emperor)")),
    Option("fortress", False, text("Haladó játék: erődök", "Advanced game: fortresses")),
    Option("fortress_rule", "hu", text("Erőd ára", "Fortress cost"), choices=("hu", "together"),
           help=text("hu: bábunként egy kártya (8. példa); together: két kártya az erődre és rá a pagodára egy körben.",
                     "hu: one card per piece (example 8); together: two cards for the fortress and the pagoda on it in one turn.")),
    Option("removed_cards", -1, text("Kidobott kártyák száma", "Cards removed at set-up"),
           help=text("-1: az alapértelmezés oldal és létszám szerint.", "-1: the default for the side and player count.")),
    Option("end_all_placed", False, text("Vége akkor is, ha valaki minden bábuját lerakta", "Also end when a player has placed every piece"),
           help=text("Vitatott szabály; a magyar szöveg nem ismeri.", "Disputed rule; the Hungarian text does not have it.")),
)


def removed_default(side: int, players: int) -> int:
    return REMOVED.get((side, players), 0)


def check_setup(players: list[dict], options: dict) -> list[Problem]:
    pinned = options["board"]
    if not (isinstance(pinned, dict) and isinstance(pinned.get("data"), dict)
            and isinstance(pinned.get("id"), str) and isinstance(pinned.get("version"), int)):
        return [Problem("Han §1.5", "Válassz tábla-profilt.", "Choose a board profile.")]
    problems = board.playable(pinned["data"])
    if problems:
        return problems
    low, high = SIDES[pinned["data"]["side"]]["players"]
    if not low <= len(players) <= high:
        problems.append(Problem("Han §1.1, seed 000", f"Ezen az oldalon {low}–{high} játékos játszik.",
                                f"This side is for {low}–{high} players."))
    if not 0 <= options["start_player"] < len(players):
        problems.append(Problem("Han §1.2", "A kezdőjátékos az egyik játékos legyen.", "The start player must be one of the players."))
    if not -1 <= options["removed_cards"] <= 30:
        problems.append(Problem("Han §1.3", "A kidobott kártyák száma 0–30 (vagy -1).", "Cards removed: 0–30 (or -1)."))
    return problems


def setup(players: list[dict], options: dict) -> dict:
    data = options["board"]["data"]
    n, side = len(players), data["side"]
    removed = options["removed_cards"] if options["removed_cards"] >= 0 else removed_default(side, n)
    state = {
        "n": n, "side": side, "start": options["start_player"], "turn": options["start_player"],
        "areas": [dict(a) for a in data["areas"]],
        "border_pairs": [list(b["areas"]) for b in data["border_sites"]],
        "harbour_areas": [h["area"] for h in data["harbours"]],
        "alliances": [list(a["areas"]) for a in data["alliances"]],
        "roads": data.get("roads") or None,
        "road_sites": board.road_sites(data) if data.get("roads") else None,
        "fortress": options["fortress"], "fortress_rule": options["fortress_rule"],
        "end_all_placed": options["end_all_placed"],
        "pieces": [], "scored": {}, "phase": "play", "last_round": False, "deck_outs": 0,
        "deck": {"removed": removed, "size": sum(CARDS.values()) - removed - 3 * n - SIDES[side]["face_up"],
                 "drawn": 0, "discarded": 0, "reshuffle": None},
        "entered_alliances": {}, "chains": None, "tally": None,
        "point_cards": [], "last": {"seq": 0, "areas": [], "scored": []},
    }
    state["view"] = view(state)
    state["totals"] = [0] * n
    return state


def view(state: dict) -> dict:
    """What the board view shows, derived from the position (kept in the state so the
    templates need no rules of their own)."""
    areas = []
    for a in state["areas"]:
        aid = a["id"]
        pag, env = rules.pagodas(state, aid), rules.envoys(state, aid)
        cap = rules.capacity(state, aid)
        areas.append({"id": aid, "name": a["name"] or aid, "colour": a["colour"], "pagodas": pag, "envoys": env,
                      "free": None if cap is None or state["tally"] else cap - rules.used_sites(state, aid),
                      "room": max(pag) - sum(env), "scored": state["scored"].get(aid),
                      "open_forts": rules.open_fortresses(state, aid), "fortified": sorted(rules.fortified(state, aid)),
                      "confirmable": cap is None and aid not in state["scored"] and any(pag)
                      and not rules.open_fortresses(state, aid)})
    final = state["phase"] in ("final", "over")
    missing = forms.missing_alliances(state)
    return {"areas": areas, "harbours": rules.harbour_pagodas(state) if state["side"] == 1 else None,
            "supply": [rules.supply(state, s) for s in range(state["n"])], "deck": expected_deck(state),
            "border": list(state["tally"]["border_pagodas"]) if state["tally"] else
            [sum(p["seat"] == s and p["site"] == "border" and p["type"] == "pagoda" for p in state["pieces"])
             for s in range(state["n"])],
            "alliances": [rules.alliance_result(state, n) for n in range(1, 16)] if final else [],
            "emperor": (missing[0] if missing else None) if final else None,
            "missing_alliances": missing, "waiting": waiting_for(state) if final else [],
            "free_sites": rules.free_road_sites(state)}


# ---- checks ----------------------------------------------------------------------

PLAYING = ("play",)
NOT_NOW = Problem("Han §4", "A játék véget ért, a végső értékelés zajlik: több kör nincs.",
                  "The game has ended and the final scoring is on: no more turns.")
PILE_DONE = Problem("Han §4.1", "A húzópakli már kétszer kifogyott.", "The draw pile has already run out twice.")


def _turn_problem(state: dict, seat: int) -> list[Problem]:
    if not 0 <= seat < state["n"]:
        return [Problem("Han §2.1", "Nincs ilyen játékos.", "There is no such player.")]
    if seat != state["turn"]:
        return [Problem("Han §2.1, seed 001 Játékmenet",
                        f"Nem ő következik: a {state['turn'] + 1}. játékos van soron (óramutató járása szerint).",
                        f"Not their turn: player {state['turn'] + 1} is next (clockwise from the start player).")]
    return []


def check(state: dict, move: Move) -> list[Problem]:
    d, phase = move.data, state["phase"]
    if phase == "over":
        return [Problem("Han §4", "A játék már véget ért.", "The game has already ended.")]
    if move.type in ("pieces-placed", "card-exchanged"):
        if phase not in PLAYING:
            return [NOT_NOW]
        return _turn_problem(state, d["seat"]) or (
            rules.check_place(state, d) if move.type == "pieces-placed" else [])
    if move.type in ("draw-pile-ran-out", "game-ended", "province-scored") and phase not in PLAYING:
        return [NOT_NOW]
    if move.type == "draw-pile-ran-out" and state["deck_outs"] >= 2:
        return [PILE_DONE]
    if move.type == "province-scored":
        return _check_confirm_full(state, d["area"])
    if move.type == "alliances-entered":
        return forms.check_alliances(state, d)
    if move.type == "road-chains-entered":
        return forms.check_chains(state, d)
    if move.type == "final-position-entered":
        return forms.check_tally(state, d)
    return []


def _check_confirm_full(state: dict, area: str) -> list[Problem]:
    if rules.area_of(state, area) is None:
        return [Problem("Han §6", "Nincs ilyen tartomány.", "There is no such province.")]
    if area in state["scored"]:
        return [Problem("Han §3.2", "Ezt a tartományt már kiértékelték.", "This province has already been scored.")]
    if rules.capacity(state, area) is not None:
        return [Problem("Han §3.2", "A profil ismeri a helyek számát: a kiértékelés magától történik, amikor megtelik.",
                        "The profile knows the site count: scoring happens by itself when it is full.")]
    if not any(rules.pagodas(state, area)):
        return [Problem("Han §3.2", "Ebben a tartományban nincs pagoda.", "There is no pagoda in this province.")]
    if rules.open_fortresses(state, area):
        return [Problem("Han §2.11", "Itt még egy erődön nincs pagoda: a tartomány nem telt meg.",
                        "A fortress here has no pagoda on it yet: the province is not full.")]
    return []


# ---- apply -----------------------------------------------------------------------

def apply(state: dict, move: Move) -> dict:
    before = state["totals"]
    state = clone(state)
    state["last"] = {"seq": move.seq, "areas": [], "scored": []}
    d = move.data
    if move.type == "pieces-placed":
        _place(state, move)
        state["deck"]["drawn"] += len(d["cards"])
        state["deck"]["discarded"] += len(d["cards"])
        _end_turn(state, d["seat"])
    elif move.type == "card-exchanged":
        state["deck"]["drawn"] += 1
        state["deck"]["discarded"] += 1
        _end_turn(state, d["seat"])
    elif move.type == "draw-pile-ran-out":
        state["deck_outs"] += 1
        if state["deck_outs"] == 1:
            state["deck"]["reshuffle"] = {"drawn": state["deck"]["drawn"], "pile": state["deck"]["discarded"]}
        else:
            _start_last_round(state)
    elif move.type == "province-scored":
        state["scored"][d["area"]] = move.seq
        state["last"] = {"seq": move.seq, "areas": [d["area"]], "scored": [d["area"]]}
    elif move.type == "game-ended":
        state["phase"] = "final"
    elif move.type == "alliances-entered":
        for a in d["alliances"]:
            state["entered_alliances"][str(a["n"])] = list(a["areas"])
    elif move.type == "road-chains-entered":
        state["chains"] = {"seq": move.seq, "chains": [dict(c) for c in d["chains"]]}
    elif move.type == "final-position-entered":
        state["tally"] = {**clone(d), "seq": move.seq}
        state["phase"] = "final"
    _settle(state)
    _announce(state, before, move.seq)
    state["view"] = view(state)
    return state


def _place(state: dict, move: Move) -> None:
    seat, touched = move.data["seat"], set()
    ordered = sorted(move.data["pieces"], key=lambda p: p.get("site") == "fortress")
    for p in ordered:
        if p.get("site") == "fortress":
            fort = next(f for f in reversed(state["pieces"])
                        if f["type"] == "fortress" and not f["topped"] and rules.touches(f, p["area"]))
            fort["topped"] = True
            record = {"seq": move.seq, "seat": seat, "type": "pagoda", "area": fort["area"],
                      "with": fort["with"], "site": fort["site"], "fortified": True, "topped": False}
            if fort.get("at"):
                record["at"] = fort["at"]
        else:
            record = {"seq": move.seq, "seat": seat, "type": p["type"], "area": p["area"],
                      "with": p.get("with"), "site": p.get("site"), "fortified": False, "topped": False}
            if p.get("at"):
                record["at"] = p["at"]
        state["pieces"].append(record)
        touched |= {record["area"]} | ({record["with"]} if record["with"] else set())
    newly = [a for a in sorted(touched) if a not in state["scored"] and rules.is_full(state, a)]
    for area in newly:
        state["scored"][area] = move.seq  # Han §3.2: scored the moment its sites are full
    state["last"] = {"seq": move.seq, "areas": sorted(touched), "scored": newly}


def _end_turn(state: dict, seat: int) -> None:
    left = rules.supply(state, seat)
    if state["end_all_placed"] and not any(left.values()):
        state["last_round"] = True  # Han §4.3 (option)
    state["turn"] = (seat + 1) % state["n"]
    if state["last_round"] and state["turn"] == state["start"]:
        state["phase"] = "final"


def _start_last_round(state: dict) -> None:
    """Han §4.1: the round is finished; it ends when the start player's right-hand
    neighbour has played, i.e. when the turn comes back to the start player."""
    state["last_round"] = True
    if state["turn"] == state["start"]:
        state["phase"] = "final"


def _settle(state: dict) -> None:
    if state["phase"] == "final" and not waiting_for(state):
        state["phase"] = "over"


def waiting_for(state: dict) -> list[str]:
    """What the final scoring still needs from the table."""
    needs = []
    if any(rules.alliance_pair(state, n) is None for n in range(1, 16)):
        needs.append("alliances")
    if state["chains"] is None and not rules.roads_known(state):
        needs.append("chains")
    return needs


def _announce(state: dict, before: list[int], seq: int) -> None:
    """Han §3.8: a point card at 50 and another past 100 points."""
    after = state["totals"] = rules.totals(state)
    for seat, (old, new) in enumerate(zip(before, after)):
        for mark in POINT_CARDS:
            if old < mark <= new:
                state["point_cards"].append({"seat": seat, "points": mark, "seq": seq})


# ---- score, end, describe -------------------------------------------------------

def score(state: dict):
    return rules.score_parts(state)


def is_over(state: dict) -> bool:
    return state["phase"] == "over"


def tiebreak(state: dict, seat: int) -> tuple:
    """Han §3.9: most unplaced pagodas + envoys + fortresses."""
    return (sum(rules.supply(state, seat).values()),)


def expected_deck(state: dict) -> int:
    deck = state["deck"]
    if deck["reshuffle"] is None:
        return deck["size"] - deck["drawn"]
    return deck["reshuffle"]["pile"] - (deck["drawn"] - deck["reshuffle"]["drawn"])


def _name(players: list[dict], seat) -> str:
    return players[seat]["name"] if isinstance(seat, int) and 0 <= seat < len(players) else "?"


def _area_names(state: dict | None):
    """A province's name as the game's board profile gives it (ids are short, names are
    what the board shows); its id, capitalised, without a state or a name."""
    names = {a["id"]: a.get("name") for a in (state or {}).get("areas") or ()}
    return lambda area: names.get(area) or str(area).capitalize()


def describe(move: Move, players: list[dict], state: dict | None = None) -> dict[str, str]:
    d, area = move.data, _area_names(state)
    if move.type == "pieces-placed":
        return forms.describe_placement(d, _name(players, d["seat"]), area)
    if move.type == "card-exchanged":
        who = _name(players, d["seat"])
        return text(f"{who}: kártyacsere", f"{who}: exchanged a card")
    if move.type == "province-scored":
        return text(f"{area(d['area'])} megtelt: kiértékelve", f"{area(d['area'])} is full: scored")
    if move.type == "road-chains-entered":
        chains = ", ".join(f"{_name(players, c['seat'])} {c['length']}{'×2' if c['fortified'] else ''}"
                           for c in d["chains"]) or "–"
        return text(f"Pagodasorok: {chains}", f"Road chains: {chains}")
    if move.type == "alliances-entered":
        pairs = ", ".join(f"{a['n']}: {area(a['areas'][0])}–{area(a['areas'][1])}" for a in d["alliances"])
        return text(f"Szövetségek: {pairs}", f"Alliances: {pairs}")
    return dict(EVENT_TYPES[move.type].label)


def parse_options(form) -> dict:
    return forms.parse_options(form)


def demo():
    from scoring.han_demo import demo as _demo
    return _demo()


GAME = GameKind(
    kind="han", title=text("Han", "Han"), min_players=2, max_players=5, rules_version=1,
    event_types=EVENT_TYPES, setup=setup, check=check, apply=apply, score=score, is_over=is_over,
    describe=describe, parse_form=forms.parse_form, options=OPTIONS, check_setup=check_setup,
    categories={"provinces": text("Tartományok", "Provinces"), "harbours": text("Kikötők", "Harbours"),
                "alliances": text("Szövetségek", "Alliances"), "roads": text("Utak", "Roads")},
    tiebreak=tiebreak,
    tiebreak_rule=text("Döntetlennél a több le nem rakott pagoda + követ + erőd nyer.",
                       "Tie: most unplaced pagodas + envoys + fortresses wins."),
    has_board=True, parse_options=parse_options, demo=demo,
    boards=Boards(validate=board.validate, from_form=board.from_form, missing=board.missing,
                  builtin=board.BUILTIN),
)
