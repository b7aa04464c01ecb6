"""Han: the fold step. ``apply(state, move)`` copies the state and runs the event type's
handler (``APPLY``) on the copy; the move was checked before (``scoring/han/check.py``),
so nothing here validates. "§n" is a section of docs/rules/han.md."""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, clone
from scoring.han.data import POINT_CARDS
from scoring.han.score import alliance_pair, is_full, roads_known, supply, totals, touches


def _placed(state: dict, move: Move) -> None:
    seat, touched = move.data["seat"], set()
    ordered = sorted(move.data["pieces"], key=lambda p: p.get("site") == "fortress")
    for p in ordered:
        record = _on_fortress(state, move, p) if p.get("site") == "fortress" else _piece(move, p)
        state["pieces"].append(record)
        touched |= {record["area"]} | ({record["with"]} if record["with"] else set())
    newly = [a for a in sorted(touched) if a not in state["scored"] and is_full(state, a)]
    for area in newly:
        state["scored"][area] = move.seq  # §3.2: scored the moment its sites are full
    _drew(state, len(move.data["cards"]))
    _end_turn(state, seat)


def _piece(move: Move, p: dict) -> dict:
    record = {"seq": move.seq, "seat": move.data["seat"], "type": p["type"], "area": p["area"],
              "with": p.get("with"), "site": p.get("site"), "fortified": False, "topped": False}
    if p.get("at"):
        record["at"] = p["at"]
    return record


def _on_fortress(state: dict, move: Move, p: dict) -> dict:
    """§2.11: the pagoda tops the latest open fortress there and copies its site."""
    fort = next(f for f in reversed(state["pieces"])
                if f["type"] == "fortress" and not f["topped"] and touches(f, p["area"]))
    fort["topped"] = True
    record = {"seq": move.seq, "seat": move.data["seat"], "type": "pagoda", "area": fort["area"],
              "with": fort["with"], "site": fort["site"], "fortified": True, "topped": False}
    if fort.get("at"):
        record["at"] = fort["at"]
    return record


def _exchanged(state: dict, move: Move) -> None:
    _drew(state, 1)
    _end_turn(state, move.data["seat"])


def _drew(state: dict, cards: int) -> None:
    """The player played ``cards`` and drew as many (§1.3: the expected pile)."""
    state["deck"]["drawn"] += cards
    state["deck"]["discarded"] += cards


def _pile_out(state: dict, move: Move) -> None:
    state["deck_outs"] += 1
    if state["deck_outs"] == 1:
        state["deck"]["reshuffle"] = {"drawn": state["deck"]["drawn"], "pile": state["deck"]["discarded"],
                                      "seq": move.seq}
    else:
        _start_last_round(state)


def _province_scored(state: dict, move: Move) -> None:
    state["scored"][move.data["area"]] = move.seq


def _ended(state: dict, move: Move) -> None:
    state["next"]["step"] = "final"


def _alliances(state: dict, move: Move) -> None:
    for a in move.data["alliances"]:
        state["entered_alliances"][str(a["n"])] = list(a["areas"])


def _chains(state: dict, move: Move) -> None:
    state["chains"] = {"seq": move.seq, "chains": [dict(c) for c in move.data["chains"]]}


def _tally(state: dict, move: Move) -> None:
    state["tally"] = {**clone(move.data), "seq": move.seq}
    state["next"]["step"] = "final"


def _end_turn(state: dict, seat: int) -> None:
    left = supply(state, seat)
    if state["end_all_placed"] and not any(left.values()):
        state["last_round"] = True  # §4.3 (option)
    state["next"]["seat"] = (seat + 1) % state["n"]
    if state["last_round"] and state["next"]["seat"] == state["start"]:
        state["next"]["step"] = "final"


def _start_last_round(state: dict) -> None:
    """§4.1: the round is finished; it ends when the start player's right-hand
    neighbour has played, i.e. when the turn comes back to the start player."""
    state["last_round"] = True
    if state["next"]["seat"] == state["start"]:
        state["next"]["step"] = "final"


def waiting_for(state: dict) -> list[str]:
    """What the final scoring still needs from the table."""
    needs = []
    if any(alliance_pair(state, n) is None for n in range(1, len(state["alliances"]) + 1)):
        needs.append("alliances")
    if state["chains"] is None and not roads_known(state):
        needs.append("chains")
    return needs


def _settle(state: dict) -> None:
    if state["next"]["step"] == "final" and not waiting_for(state):
        state["next"]["step"] = "over"


def _announce(state: dict, before: list[int], seq: int) -> None:
    """§3.8: a point card at 50 and another past 100 points."""
    after = state["totals"] = totals(state)
    for seat, (old, new) in enumerate(zip(before, after)):
        for mark in POINT_CARDS:
            if old < mark <= new:
                state["point_cards"].append({"seat": seat, "points": mark, "seq": seq})


APPLY: dict[str, Callable[[dict, Move], None]] = {
    "pieces-placed": _placed,
    "card-exchanged": _exchanged,
    "draw-pile-ran-out": _pile_out,
    "province-scored": _province_scored,
    "game-ended": _ended,
    "alliances-entered": _alliances,
    "road-chains-entered": _chains,
    "final-position-entered": _tally,
}


def apply(state: dict, move: Move) -> dict:
    before = state["totals"]
    state = clone(state)
    APPLY[move.type](state, move)
    _settle(state)
    _announce(state, before, move.seq)
    return state
