"""In the Year of the Dragon: the fold step. The table enters only its choices; every
consequence (yields, the month's event, decay, the month's and the final scoring) is
computed here. ``apply`` never validates: ``check`` has passed the move.

Rule flow lives in ``state["next"]``: ``step`` (what the rules ask for now), ``seat``
(whose decision; None for the table's), ``later`` (who follows in this step: seats, or
for releases the further release entries), plus the step's own facts (``floors`` of a
build; ``count``, ``reason``, ``rule`` of a release). docs/rules/dragon.md §7.
"""
from __future__ import annotations

from typing import Callable

from scoring.base import Move, clone
from scoring.dragon.data import (CONTAGION, FESTIVAL_POINTS, MONTHS, PRIVILEGE_DRAGONS,
                                 R_CONTAGION, R_DROUGHT, R_MONGOLS, R_TRIBUTE, REFILL_TO, TRIBUTE,
                                 action_yield, count_symbols, group_fee,
                                 persons_of, privilege_price, symbols, turn_order, value)


def apply(state: dict, move: Move) -> dict:
    state = clone(state)
    APPLY[move.type](state, move)
    return state


# ---------------------------------------------------------------- the flow of a month (§7)


def _go(state: dict, step: str, seats: list[int]) -> None:
    """Start ``step`` with ``seats`` deciding in that order."""
    state["next"] = {"step": step, "seat": seats[0] if seats else None, "later": list(seats[1:])}


def _pass_on(state: dict, seq: int) -> None:
    """The next player of this step, or the next step."""
    step = "action" if state["next"]["step"] == "build" else state["next"]["step"]
    later = state["next"]["later"]
    if later:
        _go(state, step, later)
    elif step == "opening":
        _start_month(state)
    elif step == "action" and state["month"] < MONTHS:
        _go(state, "person", turn_order(state))
    else:
        _event(state, seq)


def _start_month(state: dict) -> None:
    state["month"] += 1
    state["groups"], state["dragons"], state["report"], state["notes"] = [], [], [], []
    _go(state, "deal", [])


def _advance_track(state: dict, seat: int, steps: int) -> None:
    """The person marker moves on and lands on top of any marker already there (§7)."""
    state["stamp"] += 1
    player = state["players"][seat]
    player["track"] += steps
    player["stamp"] = state["stamp"]


def _score(state: dict, seat: int, category: str, points: int, seq: int) -> None:
    if points:
        state["points"].append({"seat": seat, "cat": category, "pts": points, "seq": seq,
                                "month": state["month"], "label": None})


def _note(state: dict, seat: int, what: str, **facts) -> None:
    """What a move did, as facts, for the board's "this month" list (view.py:note_text
    says it in words when a page renders)."""
    state["notes"].append({"seat": seat, "what": what, **facts})


# ---------------------------------------------------------------- the moves


def _lay(state: dict, move: Move) -> None:
    state["row"] = ["peace", "peace"] + list(move.data["row"])
    _go(state, "opening", list(range(state["n"])))


def _opening(state: dict, move: Move) -> None:
    d = move.data
    player = state["players"][d["seat"]]
    for person in d["persons"]:
        player["palaces"][person["palace"]]["persons"].append({"type": person["type"], "age": "young"})
        state["supply"][person["type"]]["young"] -= 1
        _advance_track(state, d["seat"], value(person["type"], "young"))
    state["pairs"].append(sorted(p["type"] for p in d["persons"]))
    _pass_on(state, move.seq)


def _dealt(state: dict, move: Move) -> None:
    state["groups"] = [list(g) for g in move.data["groups"]]
    state["dragons"] = [0] * len(move.data["groups"])
    _go(state, "action", turn_order(state))


def _gain_yuan(state, seat, gain, seq):
    state["players"][seat]["yuan"] += gain


def _gain_rice(state, seat, gain, seq):
    state["players"][seat]["rice"] += gain


def _gain_fireworks(state, seat, gain, seq):
    state["players"][seat]["fireworks"] += gain


def _gain_steps(state, seat, gain, seq):
    _advance_track(state, seat, gain)


def _gain_points(state, seat, gain, seq):
    _score(state, seat, "research", gain, seq)


# What each yielding action gives (§9); build and privilege are handled apart.
YIELDS: dict[str, Callable[[dict, int, int, int], None]] = {
    "taxes": _gain_yuan, "harvest": _gain_rice, "fireworks": _gain_fireworks,
    "parade": _gain_steps, "research": _gain_points}


def _action(state: dict, move: Move) -> None:
    d = move.data
    seat, action = d["seat"], d["action"]
    player = state["players"][seat]
    fee = group_fee(state, d["group"])
    player["yuan"] -= fee
    state["dragons"][d["group"]] += 1
    gain = action_yield(player, action)
    price = privilege_price(state, d["privilege"]) if action == "privilege" else None
    _note(state, seat, "action", action=action, gain=gain, fee=fee, privilege=d.get("privilege"), price=price)
    if action == "privilege":
        player["yuan"] -= privilege_price(state, d["privilege"])
        player[d["privilege"]] += 1
    elif action == "build":
        state["next"] = {**state["next"], "step": "build", "floors": gain}
        return
    else:
        YIELDS[action](state, seat, gain, move.seq)
    _pass_on(state, move.seq)


def _refill(state: dict, move: Move) -> None:
    seat = move.data["seat"]
    player = state["players"][seat]
    gain = max(0, REFILL_TO - player["yuan"])
    _note(state, seat, "refill", gain=gain)
    player["yuan"] = max(player["yuan"], REFILL_TO)
    _pass_on(state, move.seq)


def _floors(state: dict, move: Move) -> None:
    d = move.data
    player = state["players"][d["seat"]]
    for palace, extra in zip(player["palaces"], d["add"]):
        palace["floors"] += extra
    player["palaces"] += [{"floors": f, "persons": []} for f in d["new"]]
    _note(state, d["seat"], "floors", add=list(d["add"]), new=list(d["new"]))
    _pass_on(state, move.seq)


def _recruit(state: dict, move: Move) -> None:
    d = move.data
    state["players"][d["seat"]]["cards"].remove(d["card"])
    if d.get("person") is None:
        _note(state, d["seat"], "no-tile")
    elif d.get("away"):
        state["supply"][d["person"]["type"]][d["person"]["age"]] -= 1
        _note(state, d["seat"], "away", person={"type": d["person"]["type"], "age": d["person"]["age"]})
    else:
        _move_in(state, d)
    _pass_on(state, move.seq)


def _move_in(state: dict, d: dict) -> None:
    person = d["person"]
    state["supply"][person["type"]][person["age"]] -= 1
    tile = {"type": person["type"], "age": person["age"]}
    steps = value(person["type"], person["age"])
    persons = state["players"][d["seat"]]["palaces"][d["palace"]]["persons"]
    replaced = None
    if "replace" in d:
        replaced = persons[d["replace"]]
        persons[d["replace"]] = tile
    else:
        persons.append(tile)
    _advance_track(state, d["seat"], steps)
    _note(state, d["seat"], "moved-in", person=dict(tile), palace=d["palace"],
          replaced=dict(replaced) if replaced else None, steps=steps)


def _release(state: dict, move: Move) -> None:
    d = move.data
    player = state["players"][d["seat"]]
    for pal, slot in sorted((tuple(x) for x in d["persons"]), reverse=True):
        del player["palaces"][pal]["persons"][slot]
    state["report"].append({"seat": d["seat"], "released": len(d["persons"]), "chosen": True})
    _next_release(state, state["next"]["later"], move.seq)


def _next_release(state: dict, releases: list[dict], seq: int) -> None:
    if releases:
        state["next"] = {"step": "release", **releases[0], "later": releases[1:]}
    else:
        _finish_month(state, seq)


# ---------------------------------------------------------------- the month's event (§13–§18)


def _tribute(state: dict, seq: int, needs: dict) -> None:
    for seat, player in enumerate(state["players"]):
        paid = min(player["yuan"], TRIBUTE)
        player["yuan"] -= paid
        state["report"].append({"seat": seat, "paid_yuan": paid})
        if paid < TRIBUTE:
            needs[seat] = (TRIBUTE - paid, "tribute", R_TRIBUTE)


def _drought(state: dict, seq: int, needs: dict) -> None:
    for seat, player in enumerate(state["players"]):
        inhabited = sum(1 for pal in player["palaces"] if pal["persons"])
        paid = min(player["rice"], inhabited)
        player["rice"] -= paid
        state["report"].append({"seat": seat, "paid_rice": paid})
        if paid < inhabited:
            needs[seat] = (inhabited - paid, "drought", R_DROUGHT)


def _festival(state: dict, seq: int, needs: dict) -> None:
    """6 points for the most fireworks, 3 for the second most (ties share; nobody with 0
    scores), both places taken from the counts at the festival; then each scorer returns
    half of his tiles rounded up, once (§16)."""
    held = [p["fireworks"] for p in state["players"]]  # fixed before anyone returns a tile
    levels = sorted({count for count in held if count > 0}, reverse=True)[:2]
    for rank, level in enumerate(levels):
        for seat, count in enumerate(held):
            if count == level:
                _festival_pays(state, seat, FESTIVAL_POINTS[rank], (count + 1) // 2, seq)


def _festival_v1(state: dict, seq: int, needs: dict) -> None:
    """Rules version 1, kept for the games recorded under it (§24): second place was
    matched after the leaders had returned their tiles, so a leader left with the
    runner-up's count scored and returned a second time."""
    counts = sorted({p["fireworks"] for p in state["players"] if p["fireworks"] > 0}, reverse=True)
    for rank, level in enumerate(counts[:2]):
        for seat, player in enumerate(state["players"]):
            if player["fireworks"] == level:
                _festival_pays(state, seat, FESTIVAL_POINTS[rank], (level + 1) // 2, seq)


def _festival_pays(state: dict, seat: int, points: int, returned: int, seq: int) -> None:
    _score(state, seat, "festival", points, seq)
    state["players"][seat]["fireworks"] -= returned
    state["report"].append({"seat": seat, "points": points, "returned_fireworks": returned})


# The festival of each rules version (§24).
FESTIVALS = {1: _festival_v1, 2: _festival}


def _festival_of_version(state: dict, seq: int, needs: dict) -> None:
    FESTIVALS[state["rules_version"]](state, seq, needs)


def _mongols(state: dict, seq: int, needs: dict) -> None:
    helmets = [count_symbols(p, "warrior") for p in state["players"]]
    for seat, h in enumerate(helmets):
        _score(state, seat, "mongols", h, seq)
        if h:
            state["report"].append({"seat": seat, "points": h})
    for seat, h in enumerate(helmets):
        if h == min(helmets):
            needs[seat] = (1, "mongols", R_MONGOLS)


def _contagion(state: dict, seq: int, needs: dict) -> None:
    for seat, player in enumerate(state["players"]):
        count = CONTAGION - count_symbols(player, "healer")
        if count > 0:
            needs[seat] = (count, "contagion", R_CONTAGION)


# Each event: (state, seq, needs) -> None, filling needs[seat] = (count, reason, rule)
# for the players who must release persons.
EVENTS: dict[str, Callable[[dict, int, dict], None]] = {
    "peace": lambda state, seq, needs: None, "tribute": _tribute, "drought": _drought,
    "festival": _festival_of_version, "mongols": _mongols, "contagion": _contagion}


def _event(state: dict, seq: int) -> None:
    """Resolve the month's event; ask for releases where the player has a choice, in
    person-track order; release everything when there is none (§13)."""
    needs: dict[int, tuple[int, str, str]] = {}
    EVENTS[state["row"][state["month"] - 1]](state, seq, needs)
    releases = []
    for seat in turn_order(state):
        if seat in needs:
            releases += _release_needed(state, seat, *needs[seat])
    _next_release(state, releases, seq)


def _release_needed(state: dict, seat: int, count: int, reason: str, rule: str) -> list[dict]:
    """The release this player must choose, or [] when he has no choice (everyone goes,
    at once, and the month's report says so)."""
    player = state["players"][seat]
    everyone = persons_of(player)
    if reason == "drought":
        inhabited = [pal for pal in player["palaces"] if pal["persons"]]
        forced = count >= len(inhabited) and all(len(pal["persons"]) == 1 for pal in inhabited)
    else:
        count = min(count, len(everyone))
        forced = count >= len(everyone)
    if count <= 0:
        return []
    if forced:
        for pal in player["palaces"]:
            pal["persons"] = []
        state["report"].append({"seat": seat, "released": len(everyone), "chosen": False})
        return []
    return [{"seat": seat, "count": count, "reason": reason, "rule": rule}]


def _finish_month(state: dict, seq: int) -> None:
    """Decay of uninhabited palaces, then the month's scoring (§19)."""
    for seat, player in enumerate(state["players"]):
        _decay(state, seat, player)
        _score(state, seat, "palaces", len(player["palaces"]), seq)
        _score(state, seat, "ladies", count_symbols(player, "lady"), seq)
        _score(state, seat, "privileges", player["small"] * PRIVILEGE_DRAGONS["small"]
               + player["large"] * PRIVILEGE_DRAGONS["large"], seq)
    state["last_report"] = {"month": state["month"], "items": state["report"], "notes": state["notes"]}
    if state["month"] < MONTHS:
        _start_month(state)
        return
    final_scoring(state, seq)
    _go(state, "over", [])


def _decay(state: dict, seat: int, player: dict) -> None:
    before = sum(pal["floors"] for pal in player["palaces"])
    for pal in player["palaces"]:
        if not pal["persons"]:
            pal["floors"] -= 1
    player["palaces"] = [pal for pal in player["palaces"] if pal["floors"] > 0]
    decayed = before - sum(pal["floors"] for pal in player["palaces"])
    if decayed:
        state["report"].append({"seat": seat, "decayed": decayed})


def final_scoring(state: dict, seq: int) -> None:
    """After month 12: 2 per person; monks: Buddhas × floors of their palace; rice and
    fireworks sold for 2 yuan each, then 1 point per 3 yuan (§20)."""
    state["final"] = []
    for seat, player in enumerate(state["players"]):
        persons = len(persons_of(player))
        monks = sum(symbols(p) * pal["floors"] for pal in player["palaces"]
                    for p in pal["persons"] if p["type"] == "monk")
        money = player["yuan"] + 2 * player["rice"] + 2 * player["fireworks"]
        _score(state, seat, "persons", 2 * persons, seq)
        _score(state, seat, "monks", monks, seq)
        _score(state, seat, "money", money // 3, seq)
        state["final"].append({"persons": persons, "monks": monks, "money": money, "yuan": player["yuan"],
                               "rice": player["rice"], "fireworks": player["fireworks"]})


APPLY: dict[str, Callable[[dict, Move], None]] = {
    "dragon-events-laid": _lay, "dragon-opening-recruited": _opening,
    "dragon-actions-dealt": _dealt, "dragon-action-chosen": _action,
    "dragon-money-refilled": _refill, "dragon-floors-placed": _floors,
    "dragon-person-recruited": _recruit, "dragon-persons-released": _release,
}
