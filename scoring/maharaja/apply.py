"""Maharaja's fold step: each recorded move changes the board, then the round flow
moves on (the app moves the Maharaja and evaluates the city itself). ``state["next"]``
says what the rules wait for: ``{"step": …, "seat": …}``; ``None`` once the game is over.

Also the rule computations the fold makes and ``check`` reuses: turn order, the governor
track, travel fees. Nothing here validates (that is ``check.py``)."""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, clone
from scoring.maharaja.data import (ACTIONS, LAST_BOX, MONK, PRE_BOXES, RENOUNCE_GOLD, SHORT_GAME_ROUNDS,
                                   START_HOUSES, START_RESERVE, TRADER, YOGI, HOUSE_COST, character_of,
                                   holds, is_city, palace_cost, palaces_left, village_index)
from scoring.maharaja.score import evaluate, presence

# ---- turn order (docs/rules/maharaja.md §6) -------------------------------------------


def order_key(state: dict, seat: int) -> int:
    """Lower character first; a seat without one goes last."""
    number = character_of(state, seat)
    return number if number is not None else 99


def character_order(state: dict) -> list[int]:
    return sorted(range(state["n"]), key=lambda s: (order_key(state, s), s))


def next_actor(state: dict) -> int | None:
    """Of those who have not acted this round, the lowest character."""
    waiting = [s for s in character_order(state) if s not in state["acted"]]
    return waiting[0] if waiting else None


# ---- the governor track (§3, §6, §11) ---------------------------------------------------

def bottom_governor(track: list) -> int | None:
    return next((i for i, city in enumerate(track) if city), None)


def next_city(track: list) -> str | None:
    """The city the Maharaja visits next: the lowest governor."""
    index = bottom_governor(track)
    return track[index] if index is not None else None


def maharaja_moves(track: list) -> tuple[list, str, int]:
    """Start of a round: the lowest governor's city gets the Maharaja and that governor
    goes to the box above the topmost one. Returns the new track, the city and the box
    index the governor reached."""
    track = list(track)
    low = bottom_governor(track)
    top = max(i for i, city in enumerate(track) if city)
    city = track[low]
    track[low] = None
    track[top + 1] = city
    return track, city, top + 1


def governor_target(track: list, city: str) -> int | None:
    """Where a governor moved two boxes down lands, or None if there is no such box."""
    index = track.index(city)
    return index - 2 if index >= 2 else None


def move_governor(track: list, city: str) -> list:
    """The governor goes two boxes down, the governors it passes move up one box; an
    empty box passed stays an empty box (§11)."""
    track = list(track)
    index = track.index(city)
    passed = track[index - 2:index]
    track[index - 2] = city
    track[index - 1], track[index] = passed
    return track


def box_number(index: int) -> int | None:
    """Track index -> the printed box number 1..10 (None above the arrow)."""
    return index - PRE_BOXES + 1 if index >= PRE_BOXES else None


# ---- travel (§8) ------------------------------------------------------------------------

def travel_fees(villages: list, seat: int, via: list[int]) -> dict[int, int]:
    """Passing a village where the traveller has no house costs 1 gold per house there,
    paid to each house's owner. ``via`` are village indexes 0..29."""
    fees: dict[int, int] = {}
    for index in via:
        owners = villages[index]
        if seat in owners:
            continue
        for owner in owners:
            fees[owner] = fees.get(owner, 0) + 1
    return fees


# ---- the round flow ----------------------------------------------------------------------

def _setup_step(state: dict) -> dict | None:
    if not any(state["track"]):
        return {"step": "lay-governors", "seat": None}
    without = [s for s in range(state["n"]) if character_of(state, s) is None]
    if without:
        return {"step": "choose-character", "seat": None if state["auction"] else without[0]}
    if state["start_houses"] < START_HOUSES * state["n"]:
        order = character_order(state)
        return {"step": "start-house", "seat": order[state["start_houses"] % state["n"]]}
    return None


def _begin_round(state: dict) -> None:
    state["round"] += 1
    state["track"], state["maharaja"], box = maharaja_moves(state["track"])
    state["last_round"] = box == LAST_BOX or (state["short"] and state["round"] == SHORT_GAME_ROUNDS)
    state["acted"] = []


def _end_setup(state: dict) -> None:
    state["reserve"] = [START_RESERVE] * state["n"]
    state["bank_houses"] = [b - START_RESERVE for b in state["bank_houses"]]
    state["phase"] = "round"
    _begin_round(state)


def _evaluate(state: dict) -> None:
    rows = evaluate(state, state["maharaja"])
    for row in rows:
        state["gold"][row["seat"]] += row["gold"]
    state["evaluations"].append({"round": state["round"], "city": state["maharaja"], "rows": rows,
                                 "points": presence(state, state["maharaja"])})


def _game_ends(state: dict) -> bool:
    return state["last_round"] or any(palaces_left(state, s) == 0 for s in range(state["n"]))


def advance(state: dict) -> dict:
    """Work out what the rules wait for next; the app's own moves (the Maharaja, the
    evaluation) happen here."""
    if state["phase"] == "setup":
        state["next"] = _setup_step(state)
        if state["next"]:
            return state
        _end_setup(state)
    if state["picks"]:
        state["next"] = {"step": "pick-character", "seat": state["picks"][0]}
        return state
    if state["turn"] is not None:
        state["next"] = {"step": "actions", "seat": state["turn"]["seat"]}
        return state
    if len(state["acted"]) == state["n"]:
        _evaluate(state)
        if _game_ends(state):
            state["phase"], state["next"] = "over", None
            return state
        _begin_round(state)
    state["next"] = {"step": "reveal", "seat": next_actor(state)}
    return state


# ---- the fold step ------------------------------------------------------------------------

def _named_or_due(state: dict, move: Move) -> int | None:
    """A set-up or reveal step: the seat named (which must be whose turn it is, §6), else
    whose turn it is; in the auction, where it is nobody's turn, the phone that recorded it
    (§4)."""
    due = state["next"]["seat"] if state["next"] else None
    given = move.data.get("seat")
    return given if given is not None else (due if due is not None else move.seat)


def _picker(state: dict, move: Move) -> int | None:
    return state["picks"][0] if state["picks"] else None


def _turn_player(state: dict, move: Move) -> int | None:
    return state["turn"]["seat"] if state["turn"] else None


ACTORS: dict[str, Callable[[dict, Move], int | None]] = {
    "character-chosen": _named_or_due, "start-house-placed": _named_or_due, "actions-revealed": _named_or_due,
    "character-picked": _picker,
}


def acting_seat(state: dict, move: Move) -> int | None:
    """Who makes ``move`` (None for the governor track, laid by the table)."""
    return ACTORS.get(move.type, _turn_player)(state, move)


def apply(state: dict, move: Move) -> dict:
    state = clone(state)
    APPLY[move.type](state, move)
    return advance(state)


def _use(state, *parts) -> None:
    """Mark the first of ``parts`` still to do as done."""
    left = state["turn"]["parts"]
    for part in parts:
        if part in left:
            left.remove(part)
            return


def _actor(state) -> int:
    return state["turn"]["seat"]


def _add_house(state, seat, place):
    if is_city(place):
        state["cities"][place]["houses"][seat] += 1
    else:
        state["villages"][village_index(place)].append(seat)


def _remove_house(state, seat, place):
    if is_city(place):
        state["cities"][place]["houses"][seat] -= 1
    else:
        state["villages"][village_index(place)].remove(seat)


def _governors(state, move):
    state["track"][:PRE_BOXES] = move.data["order"]


def _choose(state, move):
    seat = acting_seat(state, move)
    state["characters"][move.data["character"] - 1] = seat
    state["gold"][seat] -= move.data.get("paid", 0)


def _start_house(state, move):
    seat = acting_seat(state, move)
    _add_house(state, seat, move.data["place"])
    state["reserve"][seat] -= 1
    state["start_houses"] += 1


def _reveal(state, move):
    seat = acting_seat(state, move)
    parts = [p for action in move.data["actions"] for p in ACTIONS[action][0]]
    state["turn"] = {"seat": seat, "actions": list(move.data["actions"]), "parts": parts, "seq": move.seq,
                     "builder_used": False, "chip_used": False}
    if holds(state, seat, TRADER):
        state["gold"][seat] += 1                      # §12: the Trader's +1 at turn start
    if holds(state, seat, YOGI) and state["chips_bank"] > 0:
        state["chips"][seat] += 1                     # §13
        state["chips_bank"] -= 1


def _travel(state, move):
    seat = _actor(state)
    fees = travel_fees(state["villages"], seat, [village_index(v) for v in move.data["via"]])
    for owner, gold in fees.items():
        state["gold"][owner] += gold
    if not holds(state, seat, MONK):                  # §12: the bank pays for the Monk
        state["gold"][seat] -= sum(fees.values())
    state["architects"][seat] = move.data["city"]


def _gold(state, move):
    _use(state, "gold")
    state["gold"][_actor(state)] += 2


def _house(state, move):
    seat, place = _actor(state), move.data["place"]
    if move.data.get("free"):
        state["turn"]["builder_used"] = True
    else:
        _use(state, "house-city", "house") if is_city(place) else _use(state, "house")
        state["gold"][seat] -= HOUSE_COST
    state["reserve"][seat] -= 1
    _add_house(state, seat, place)


def _move_house(state, move):
    seat = _actor(state)
    if move.data.get("free"):
        state["turn"]["builder_used"] = True
    else:
        _use(state, "move")
    _remove_house(state, seat, move.data["source"])
    _add_house(state, seat, move.data["place"])


def _quarry(state, move):
    seat = _actor(state)
    _use(state, "quarry")
    taken = min(2, state["bank_houses"][seat])
    state["bank_houses"][seat] -= taken
    state["reserve"][seat] += taken


def _palace(state, move):
    seat, city = _actor(state), move.data["city"]
    _use(state, "palace")
    state["gold"][seat] -= palace_cost(state, seat)
    site = state["cities"][city]
    if move.data["site"] == "inner":
        site["inner"] = seat
    else:
        site["outer"].append(seat)
    state["palaces"].append({"seat": seat, "city": city, "site": move.data["site"], "seq": move.seq})


def _governor(state, move):
    _use(state, "governor")
    state["track"] = move_governor(state["track"], move.data["city"])


def _swap(state, move):
    seat, number = _actor(state), move.data["character"]
    _use(state, "character")
    old = character_of(state, seat)
    holder = state["characters"][number - 1]
    if old is not None:
        state["characters"][old - 1] = None
    state["characters"][number - 1] = seat
    if holder is not None:
        state["picks"].append(holder)


def _pick(state, move):
    seat = state["picks"].pop(0)
    state["characters"][move.data["character"] - 1] = seat


def _chip(state, move):
    seat = _actor(state)
    state["chips"][seat] -= 1
    state["chips_bank"] += 1
    state["turn"]["chip_used"] = True
    state["turn"]["parts"] += ACTIONS[move.data["action"]][0]


def _end_turn(state, move):
    seat = _actor(state)
    if move.data.get("renounce"):
        for other in range(state["n"]):
            if other != seat:
                state["gold"][other] += RENOUNCE_GOLD
        state["renounced"].append({"seat": seat, "round": state["round"], "seq": move.seq,
                                   "parts": list(state["turn"]["parts"])})
    state["acted"].append(seat)
    state["turn"] = None


APPLY: dict[str, Callable[[dict, Move], None]] = {
    "governors-laid": _governors, "character-chosen": _choose, "start-house-placed": _start_house,
    "actions-revealed": _reveal, "architect-travelled": _travel, "gold-taken": _gold,
    "house-built": _house, "house-moved": _move_house, "quarry-used": _quarry, "palace-built": _palace,
    "governor-moved": _governor, "character-swapped": _swap, "character-picked": _pick,
    "chip-used": _chip, "turn-ended": _end_turn,
}
