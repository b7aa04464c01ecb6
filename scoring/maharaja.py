"""Maharaja (Kramer & Kiesling, Phalanx 2004): set-up, guided rounds, automatic city
evaluations and the race to seven palaces.

A round is a sequence of guided steps kept in the state: the Maharaja moves (the app
does it), then each player in character order reveals his two actions and carries
out their parts, then the city is evaluated (the app does it). ``state["pending"]``
names the decision the table owes next; the phone form offers only legal choices.

Rules as implemented: docs/rules/maharaja.md ("seed 003 §n" = the Hungarian rulebook).
"""
from __future__ import annotations

import json

from scoring import maharaja_board as board
from scoring import maharaja_rules as R
from scoring.base import (Boards, EventSpec, FormError, GameKind, Move, Option, Problem, ScorePart, clone,
                          text)
from scoring.maharaja_checks import check, refuse
from scoring.maharaja_forms import describe, parse_form

_place = {"type": "string", "pattern": "^([A-G]|v([1-9]|[12][0-9]|30))$"}
_city = {"enum": list(R.CITIES)}
_action = {"enum": list(R.ACTIONS)}
_character = {"type": "integer", "minimum": 1, "maximum": 7}


def _spec(properties: dict, hu: str, en: str, required=None) -> EventSpec:
    return EventSpec(schema={"type": "object", "additionalProperties": False,
                             "required": list(properties) if required is None else required,
                             "properties": properties}, label=text(hu, en))


EVENT_TYPES = {
    "governors-laid": _spec({"order": {"type": "array", "items": _city, "minItems": 7, "maxItems": 7}},
                            "Kormányzósáv kirakva", "Governor track laid"),
    "character-chosen": _spec({"seat": {"type": "integer", "minimum": 0}, "character": _character,
                               "paid": {"type": "integer", "minimum": 0, "maximum": 1000}},
                              "Karakter választva", "Character chosen", required=["seat", "character"]),
    "start-house-placed": _spec({"seat": {"type": "integer", "minimum": 0}, "place": _place},
                                "Kezdő ház lerakva", "Starting house placed"),
    "actions-revealed": _spec({"seat": {"type": "integer", "minimum": 0},
                               "actions": {"type": "array", "items": _action, "minItems": 2, "maxItems": 2}},
                              "Cselekedetek felfedve", "Actions revealed"),
    "architect-travelled": _spec({"city": _city, "via": {"type": "array", "maxItems": R.VILLAGES, "uniqueItems": True,
                                                         "items": {"type": "integer", "minimum": 1,
                                                                   "maximum": R.VILLAGES}}},
                                 "Építész utazott", "Architect travelled"),
    "gold-taken": _spec({}, "2 arany", "Took 2 gold"),
    "house-built": _spec({"place": _place, "free": {"type": "boolean"}}, "Ház épült", "House built",
                         required=["place"]),
    "house-moved": _spec({"source": _place, "place": _place, "free": {"type": "boolean"}},
                         "Ház áthelyezve", "House moved", required=["source", "place"]),
    "quarry-used": _spec({}, "Kőbánya", "Quarry"),
    "palace-built": _spec({"city": _city, "site": {"enum": ["inner", "outer"]}}, "Palota épült", "Palace built"),
    "governor-moved": _spec({"city": _city}, "Kormányzó léptetve", "Governor moved"),
    "character-swapped": _spec({"character": _character}, "Karaktercsere", "Character swapped"),
    "character-picked": _spec({"character": _character}, "Karakter a bankból", "Character picked from the bank"),
    "chip-used": _spec({"action": {"enum": [a for a in R.ACTIONS if a != "character"]}},
                       "Cselekedetérme", "Action chip used"),
    "turn-ended": _spec({"renounce": {"type": "boolean"}}, "Kör vége (játékos)", "Turn ended", required=[]),
}

OPTIONS = (
    Option("short", False, text("Rövidebb játék: 6 palota, legfeljebb 8 forduló (11.1)",
                                "Short game: 6 palaces, at most 8 rounds (11.1)")),
    Option("yogi", False, text("Haladó: jógi és cselekedetérmék (11.2.2)", "Advanced: Yogi and action chips (11.2.2)")),
    Option("auction", False, text("Haladó: licit a karakterekre (11.2.5)", "Advanced: characters auctioned (11.2.5)")),
    Option("neutral_palaces", False, text("Haladó: semleges külső paloták 5-nél kevesebb játékosnál (11.2.4)",
                                          "Advanced: neutral outer palaces with fewer than 5 players (11.2.4)")),
    Option("homes", "", text("Haladó: otthonok – az 1–7. karakter városának betűje, pl. CAGBEDF (12.6)",
                             "Advanced: homes – the city letter of characters 1–7, e.g. CAGBEDF (12.6)"),
           help=text("Üresen hagyva nincs otthon-bónusz.", "Leave empty for no home bonus.")),
    Option("secret_gold", True, text("Az arany titkos: csak a saját telefonon látszik",
                                     "Gold is secret: shown only on the owner's phone")),
    Option("board", {}, text("Tábla-profil (nem kötelező)", "Board profile (optional)"),
           help=text("Városnevek és utak; nélküle A–G városok, az utakat nem ellenőrzi.",
                     "City names and roads; without one, cities A–G and travel not checked.")),
)
_TICKS = ("short", "yogi", "auction", "neutral_palaces", "secret_gold")


def parse_options(form) -> dict:
    """The set-up form (templates/games/maharaja/_setup.html): ticks, homes, a pinned profile."""
    raw = (form.get("opt_board") or "").strip()
    try:
        pinned = json.loads(raw) if raw else {}
    except ValueError:
        pinned = None
    if not isinstance(pinned, dict):
        raise FormError([Problem("boards", "Érvénytelen tábla-profil.", "Not a board profile.")])
    return {**{name: form.get(f"opt_{name}") in ("1", "on") for name in _TICKS},
            "homes": (form.get("opt_homes") or "").strip().upper()[:20], "board": pinned}

# ---- set-up --------------------------------------------------------------------------

def check_setup(players: list[dict], options: dict) -> list[Problem]:
    pinned = options.get("board") or {}
    if pinned:
        data = pinned.get("data")
        problems = board.validate(data) if isinstance(data, dict) else \
            refuse("boards", "Érvénytelen tábla-profil.", "Not a board profile.")
        if problems:
            return problems
    homes = options.get("homes", "")
    if homes and sorted(homes) != list(R.CITIES):
        return refuse("seed 003 §12.6", "Az otthonok: az A–G betűk mindegyike egyszer (pl. CAGBEDF).",
                      "Homes: each letter A–G exactly once (e.g. CAGBEDF).")
    return []


def setup(players: list[dict], options: dict) -> dict:
    n = len(players)
    short = options.get("short", False)
    neutral = R.OUTER_SITES - (5 - n) if options.get("neutral_palaces") and n < 5 else R.OUTER_SITES
    state = {
        "n": n, "phase": "setup", "round": 0, "short": short, "auction": options.get("auction", False),
        "yogi": options.get("yogi", False), "homes": options.get("homes", ""),
        "secret_gold": options.get("secret_gold", True),
        "palaces_each": 6 if short else 7, "village_cap": 1 if n == 2 else 2, "outer_sites": neutral,
        "track": [None] * R.TRACK_BOXES, "maharaja": None, "last_round": False,
        "characters": [None] * (7 if options.get("yogi") else 6),
        "gold": [R.START_GOLD] * n, "reserve": [R.START_HOUSES] * n,
        "bank_houses": [R.HOUSES_PER_COLOUR - R.START_HOUSES] * n,
        "palaces": [], "architects": [None] * n, "chips": [0] * n, "chips_bank": 7,
        "cities": {c: {"houses": [0] * n, "inner": None, "outer": []} for c in R.CITIES},
        "villages": [[] for _ in range(R.VILLAGES)], "start_houses": 0,
        "acted": [], "turn": None, "picks": [], "evaluations": [], "renounced": [],
        "pending": [], **_from_board((options.get("board") or {}).get("data")),
    }
    return _advance(state)


def _from_board(data: dict | None) -> dict:
    """What the game keeps of a pinned city-board profile: names, colours, roads."""
    cities = data["cities"] if data else [{"id": c, "name": "", "colour": ""} for c in R.CITIES]
    return {"city_names": {c["id"]: c["name"] for c in cities},
            "city_colours": {c["id"]: c["colour"] for c in cities},
            "roads": data["roads"] if data else []}


def _setup_step(state: dict) -> dict | None:
    if not any(state["track"]):
        return {"kind": "lay-governors"}
    without = [s for s in range(state["n"]) if R.character_of(state, s) is None]
    if without:
        return {"kind": "choose-character", "seat": None if state["auction"] else without[0]}
    if state["start_houses"] < R.START_HOUSES * state["n"]:
        order = R.character_order(state)
        return {"kind": "start-house", "seat": order[state["start_houses"] % state["n"]]}
    return None


def _begin_round(state: dict) -> None:
    state["round"] += 1
    state["track"], state["maharaja"], box = R.maharaja_moves(state["track"])
    state["last_round"] = box == R.LAST_BOX or (state["short"] and state["round"] == 8)
    state["acted"] = []


def _advance(state: dict) -> dict:
    """Work out the next step: the app's own moves (Maharaja, evaluation) happen here."""
    if state["phase"] == "setup":
        step = _setup_step(state)
        if step:
            state["pending"] = [step]
            return state
        state["reserve"] = [R.START_RESERVE] * state["n"]
        state["bank_houses"] = [b - R.START_RESERVE for b in state["bank_houses"]]
        state["phase"] = "round"
        _begin_round(state)
    if state["picks"]:
        state["pending"] = [{"kind": "pick-character", "seat": state["picks"][0]}]
        return state
    if state["turn"] is not None:
        state["pending"] = []
        return state
    if len(state["acted"]) == state["n"]:
        _evaluate(state)
        if state["last_round"] or any(R.palaces_left(state, s) == 0 for s in range(state["n"])):
            state["phase"], state["pending"] = "over", []
            return state
        _begin_round(state)
    state["pending"] = [{"kind": "reveal", "seat": R.next_actor(state)}]
    return state


def _evaluate(state: dict) -> None:
    rows = R.evaluate(state, state["maharaja"])
    for row in rows:
        state["gold"][row["seat"]] += row["gold"]
    state["evaluations"].append({"round": state["round"], "city": state["maharaja"], "rows": rows,
                                 "points": R.presence(state, state["maharaja"])})


# ---- apply -----------------------------------------------------------------------------

def apply(state: dict, move: Move) -> dict:
    state = clone(state)
    APPLY[move.type](state, move.data, move.seq)
    return _advance(state)


def _use(state, *parts) -> None:
    """Mark the first of ``parts`` still to do as done."""
    left = state["turn"]["parts"]
    for part in parts:
        if part in left:
            left.remove(part)
            return


def _apply_governors(state, data, seq):
    state["track"][:R.PRE_BOXES] = data["order"]


def _apply_choose(state, data, seq):
    state["characters"][data["character"] - 1] = data["seat"]
    state["gold"][data["seat"]] -= data.get("paid", 0)


def _add_house(state, seat, place):
    if R.is_city(place):
        state["cities"][place]["houses"][seat] += 1
    else:
        state["villages"][R.village_index(place)].append(seat)


def _remove_house(state, seat, place):
    if R.is_city(place):
        state["cities"][place]["houses"][seat] -= 1
    else:
        state["villages"][R.village_index(place)].remove(seat)


def _apply_start_house(state, data, seq):
    _add_house(state, data["seat"], data["place"])
    state["reserve"][data["seat"]] -= 1
    state["start_houses"] += 1


def _apply_reveal(state, data, seq):
    seat = data["seat"]
    parts = [p for action in data["actions"] for p in R.ACTIONS[action][0]]
    state["turn"] = {"seat": seat, "actions": list(data["actions"]), "parts": parts, "seq": seq,
                     "builder_used": False, "chip_used": False}
    if R.holds(state, seat, R.TRADER):
        state["gold"][seat] += 1                      # seed 003 §5.1: Trader +1 at turn start
    if R.holds(state, seat, R.YOGI) and state["chips_bank"] > 0:
        state["chips"][seat] += 1                     # seed 003 §11.2.2
        state["chips_bank"] -= 1


def _apply_travel(state, data, seq):
    seat = state["turn"]["seat"]
    fees = R.travel_fees(state["villages"], seat, [v - 1 for v in data["via"]])
    for owner, gold in fees.items():
        state["gold"][owner] += gold
    if not R.holds(state, seat, R.MONK):              # seed 003 §5.1: the bank pays for the Monk
        state["gold"][seat] -= sum(fees.values())
    state["architects"][seat] = data["city"]


def _apply_gold(state, data, seq):
    _use(state, "gold")
    state["gold"][state["turn"]["seat"]] += 2


def _apply_house(state, data, seq):
    seat, place = state["turn"]["seat"], data["place"]
    if data.get("free"):
        state["turn"]["builder_used"] = True
    else:
        _use(state, "house-city", "house") if R.is_city(place) else _use(state, "house")
        state["gold"][seat] -= R.HOUSE_COST
    state["reserve"][seat] -= 1
    _add_house(state, seat, place)


def _apply_move_house(state, data, seq):
    seat = state["turn"]["seat"]
    if data.get("free"):
        state["turn"]["builder_used"] = True
    else:
        _use(state, "move")
    _remove_house(state, seat, data["source"])
    _add_house(state, seat, data["place"])


def _apply_quarry(state, data, seq):
    seat = state["turn"]["seat"]
    _use(state, "quarry")
    taken = min(2, state["bank_houses"][seat])
    state["bank_houses"][seat] -= taken
    state["reserve"][seat] += taken


def _apply_palace(state, data, seq):
    seat, city = state["turn"]["seat"], data["city"]
    _use(state, "palace")
    state["gold"][seat] -= R.palace_cost(state, seat)
    site = state["cities"][city]
    if data["site"] == "inner":
        site["inner"] = seat
    else:
        site["outer"].append(seat)
    state["palaces"].append({"seat": seat, "city": city, "site": data["site"], "seq": seq})


def _apply_governor(state, data, seq):
    _use(state, "governor")
    state["track"] = R.move_governor(state["track"], data["city"])


def _apply_swap(state, data, seq):
    seat, number = state["turn"]["seat"], data["character"]
    _use(state, "character")
    old = R.character_of(state, seat)
    holder = state["characters"][number - 1]
    if old is not None:
        state["characters"][old - 1] = None
    state["characters"][number - 1] = seat
    if holder is not None:
        state["picks"].append(holder)


def _apply_pick(state, data, seq):
    seat = state["picks"].pop(0)
    state["characters"][data["character"] - 1] = seat


def _apply_chip(state, data, seq):
    seat = state["turn"]["seat"]
    state["chips"][seat] -= 1
    state["chips_bank"] += 1
    state["turn"]["chip_used"] = True
    state["turn"]["parts"] += R.ACTIONS[data["action"]][0]


def _apply_end(state, data, seq):
    seat = state["turn"]["seat"]
    if data.get("renounce"):
        for other in range(state["n"]):
            if other != seat:
                state["gold"][other] += R.RENOUNCE_GOLD
        state["renounced"].append({"seat": seat, "round": state["round"], "seq": seq,
                                   "parts": list(state["turn"]["parts"])})
    state["acted"].append(seat)
    state["turn"] = None


APPLY = {
    "governors-laid": _apply_governors, "character-chosen": _apply_choose,
    "start-house-placed": _apply_start_house, "actions-revealed": _apply_reveal,
    "architect-travelled": _apply_travel, "gold-taken": _apply_gold, "house-built": _apply_house,
    "house-moved": _apply_move_house, "quarry-used": _apply_quarry, "palace-built": _apply_palace,
    "governor-moved": _apply_governor, "character-swapped": _apply_swap, "character-picked": _apply_pick,
    "chip-used": _apply_chip, "turn-ended": _apply_end,
}


# ---- score and end ----------------------------------------------------------------------

def score(state: dict) -> dict[int, list[ScorePart]]:
    """The score is the palaces built (seed 003 §10), one part per city."""
    parts: dict[int, list[ScorePart]] = {s: [] for s in range(state["n"])}
    for seat in parts:
        for city in R.CITIES:
            mine = [p["seq"] for p in state["palaces"] if p["seat"] == seat and p["city"] == city]
            if mine:
                parts[seat].append(ScorePart("palaces", len(mine), tuple(mine),
                                             text(f"Paloták – {city} város", f"Palaces – city {city}")))
    return parts


def tiebreak(state: dict, seat: int) -> tuple:
    """Seed 003 §10: equal palaces → more gold; then the lower character number. While a game
    with secret gold runs, equal palaces share a rank: ranking them by gold would tell every
    phone who is richer (docs/rules/maharaja.md §5)."""
    if state.get("secret_gold", True) and state["phase"] != "over":
        return ()
    number = R.character_of(state, seat)
    return (state["gold"][seat], -(number or 99))


def is_over(state: dict) -> bool:
    return state["phase"] == "over"


# Score category plus the names the templates show (as other games do, via game.categories).
LABELS = {"palaces": text("Paloták", "Palaces"),
          **{f"char-{n}": label for n, label in R.CHARACTERS.items()},
          **{f"act-{a}": label for a, (_, label) in R.ACTIONS.items()},
          **{f"part-{p}": label for p, label in R.PARTS.items()}}


def demo():
    from scoring.maharaja_demo import demo_game
    return demo_game()


GAME = GameKind(
    kind="maharaja", title=text("Maharadzsa", "Maharaja"), min_players=2, max_players=5,
    rules_version=1, event_types=EVENT_TYPES, setup=setup, check=check, apply=apply, score=score,
    is_over=is_over, describe=describe, parse_form=parse_form, options=OPTIONS,
    categories=LABELS, check_setup=check_setup, tiebreak=tiebreak,
    tiebreak_rule=text("Azonos palotaszámnál a több arany, majd a kisebb karakterszám nyer "
                       "(titkos aranynál csak a játék végén dönt).",
                       "Equal palaces: more gold wins, then the lower character number "
                       "(with secret gold it decides only once the game is over)."),
    has_board=True, demo=demo, parse_options=parse_options,
    boards=Boards(validate=board.validate, from_form=board.from_form, missing=board.missing,
                  builtin=board.BUILTIN),
)
