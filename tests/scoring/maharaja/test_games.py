"""Whole random Maharaja games: a seeded bot picks among the moves the rules accept;
after every move the invariants hold (gold, houses, sites, characters, turn order)."""
import random

import pytest

from scoring.maharaja import GAME as M
from scoring.maharaja import apply as A, data as D, score as S
from scoring.base import Move


def candidates(s: dict, rng: random.Random) -> list[tuple[str, dict]]:
    """Moves worth trying now (the rules decide which are legal)."""
    step = s["next"]
    seats = range(s["n"])
    if step and step["step"] == "lay-governors":
        return [("governors-laid", {"order": rng.sample(D.CITIES, 7)})]
    if step and step["step"] == "choose-character":
        return [("character-chosen", {"seat": seat, "character": c, "paid": paid})   # the last one chooses free
                for seat in seats for c in range(1, 8) for paid in (0, rng.choice([0, 1, 3]))]
    if step and step["step"] == "start-house":
        return [("start-house-placed", {"seat": step["seat"], "place": f"v{v}"}) for v in range(1, 31)]
    if step and step["step"] == "reveal":
        return [("actions-revealed", {"seat": step["seat"], "actions": rng.sample(list(D.ACTIONS), 2)})
                for _ in range(3)]
    if step and step["step"] == "pick-character":
        return [("character-picked", {"character": c}) for c in range(1, 8)]
    places = [*D.CITIES, *(f"v{v}" for v in rng.sample(range(1, 31), 6))]
    occupied = [i + 1 for i, v in enumerate(s["villages"]) if v]
    moves = [("gold-taken", {}), ("quarry-used", {}), ("turn-ended", {}), ("turn-ended", {"renounce": True})]
    moves += [("house-built", {"place": p, "free": f}) for p in places for f in (False, True)]
    moves += [("house-moved", {"source": a, "place": b}) for a in places for b in places[:4] if a != b]
    moves += [("palace-built", {"city": c, "site": site}) for c in D.CITIES for site in ("inner", "outer")]
    moves += [("governor-moved", {"city": c}) for c in D.CITIES]
    moves += [("character-swapped", {"character": c}) for c in range(1, 8)]
    moves += [("chip-used", {"action": a}) for a in D.ACTIONS if a != "character"]
    moves += [("architect-travelled", {"city": c, "via": [f"v{v}" for v in sorted(rng.sample(occupied, min(len(occupied), k)))]})
              for c in D.CITIES for k in (0, 1, 2)]
    return moves


def invariants(s: dict) -> None:
    assert min(s["gold"]) >= 0
    for seat in range(s["n"]):
        placed = sum(v.count(seat) for v in s["villages"]) + sum(c["houses"][seat] for c in s["cities"].values())
        assert placed + s["reserve"][seat] + s["bank_houses"][seat] == D.HOUSES_PER_COLOUR
        assert sum(p["seat"] == seat for p in s["palaces"]) <= s["palaces_each"]
    assert all(len(v) <= s["village_cap"] for v in s["villages"])
    assert all(len(c["outer"]) <= s["outer_sites"] for c in s["cities"].values())
    assert sorted(c for c in s["track"] if c) == list(D.CITIES) or s["phase"] == "setup"
    assert len(set(s["acted"])) == len(s["acted"])
    assert sum(s["chips"]) + s["chips_bank"] == 7
    if s["phase"] == "round" and not s["picks"]:
        assert sorted(h for h in s["characters"] if h is not None) == list(range(s["n"]))


@pytest.mark.parametrize("seed, n, options", [
    (1, 2, {}), (2, 3, {"short": True}), (3, 4, {"yogi": True}), (4, 5, {"auction": True}),
    (5, 3, {"neutral_palaces": True, "homes": "GFEDCBA"}), (6, 4, {"yogi": True, "short": True}),
])
def test_random_games_keep_every_invariant_and_end(seed, n, options):
    rng = random.Random(seed)
    players = [{"name": f"P{i}"} for i in range(n)]
    state = M.setup(players, {**{o.name: o.default for o in M.options}, **options})
    for _ in range(3000):
        if M.is_over(state):
            break
        legal = [m for m in candidates(state, rng) if not M.check(state, Move(0, *m))]
        assert legal, state["next"]
        builds = [m for m in legal if m[0] not in ("turn-ended", "architect-travelled")]
        type_, data = rng.choice(builds if builds and rng.random() < 0.8 else legal)
        state = M.apply(state, Move(0, type_, data))
        invariants(state)
    assert M.is_over(state)
    last = state["evaluations"][-1]
    assert last["round"] == state["round"]
    assert state["last_round"] or any(sum(p["seat"] == s for p in state["palaces"]) == state["palaces_each"]
                                      for s in range(n))
