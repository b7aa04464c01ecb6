"""Write examples/dragon-4p.json: a whole 4-player In the Year of the Dragon game,
really played through events.application.table.new_game / record on a temporary database, so
every move passed the rules. The players are a small seeded bot that picks among the
legal choices the game's view offers (``view(state)["ask"]``), as a phone form does.

    .venv/bin/python scripts/make_dragon_examples.py [--seed N] [--out PATH]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import app  # noqa: E402
from events.storage import store  # noqa: E402
from events.application.export import export_game, write  # noqa: E402
from events.application.table import load, new_game, record  # noqa: E402
from scoring.dragon.data import ACTIONS, DRAWN_EVENTS, GROUP_SIZES, turn_order  # noqa: E402
from scoring.dragon.view import view  # noqa: E402

PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"},
           {"name": "Clara", "colour": "green"}, {"name": "David", "colour": "yellow"}]
# What the bot likes to hold, most liked first (a plain, readable strategy).
LIKES = ["healer", "farmer", "tax", "monk", "lady", "craftsman", "scholar", "warrior", "pyro"]


def event_row(rng: random.Random) -> list[str]:
    """Draw the 10 tiles; a tile identical to the last one laid slides one space on
    (docs/rules/dragon.md §4), which the retry loop models."""
    while True:
        tiles = [e for e in DRAWN_EVENTS for _ in range(2)]
        rng.shuffle(tiles)
        if all(a != b for a, b in zip(tiles, tiles[1:])):
            return tiles


def deal(rng: random.Random, n: int) -> list[list[str]]:
    cards = list(ACTIONS)
    rng.shuffle(cards)
    groups, start = [], 0
    for size in GROUP_SIZES[n]:
        groups.append(cards[start:start + size])
        start += size
    return groups


def choose(state: dict, rng: random.Random) -> tuple[str, dict]:
    """One legal move for the decision the state asks for."""
    phase, ask = state["next"]["step"], _ask(state)
    if phase == "lay-events":
        return "dragon-events-laid", {"row": event_row(rng)}
    if phase == "opening":
        taken = state["pairs"]
        while True:
            a, b = rng.sample(ask["types"], 2)
            if sorted([a, b]) not in taken:
                return "dragon-opening-recruited", {"seat": ask["seat"], "persons": [
                    {"type": a, "palace": 0}, {"type": b, "palace": 1}]}
    if phase == "deal":
        return "dragon-actions-dealt", {"groups": deal(rng, state["n"])}
    if phase == "action":
        return _action(state, rng)
    if phase == "build":
        return _floors(state)
    if phase == "person":
        return _person(state, rng)
    if phase == "release":
        return _release(state)
    raise RuntimeError(f"nothing to do in phase {phase}")


def _ask(state) -> dict:
    """The choices the phone form offers, with whose decision it is."""
    return {**view(state, [])["ask"], "seat": state["next"]["seat"]}


def _action(state, rng):
    ask = _ask(state)
    seat = ask["seat"]
    month, event = state["month"], state["row"][min(state["month"], 11)]
    player = state["players"][seat]
    wants = []
    for choice in ask["choices"]:
        weight = 1.0 / (1 + choice["fee"])
        action = choice["action"]
        if action == "taxes" and (player["yuan"] < 4 or event == "tribute"):
            weight *= 3
        if action == "harvest" and event == "drought" and player["rice"] < 3:
            weight *= 4
        if action == "fireworks" and event == "festival":
            weight *= 3
        if action == "build" and not _rooms(player):
            weight *= 3
        if action == "privilege":
            weight *= 2 if month < 8 else 0.5
        wants.append((weight, choice))
    if player["yuan"] < 2 and rng.random() < 0.5 or not wants:
        return "dragon-money-refilled", {"seat": seat}
    total = sum(w for w, _ in wants)
    pick = rng.uniform(0, total)
    for weight, choice in wants:
        pick -= weight
        if pick <= 0:
            break
    data = {"seat": seat, "group": choice["group"], "action": choice["action"]}
    if choice.get("size"):
        data["privilege"] = choice["size"]
    return "dragon-action-chosen", data


def _rooms(player) -> int:
    return sum(p["floors"] - len(p["persons"]) for p in player["palaces"])


def _floors(state):
    ask = _ask(state)
    player = state["players"][ask["seat"]]
    add, left = [0] * len(player["palaces"]), ask["floors"]
    for i, room in enumerate(ask["room"]):  # fill the inhabited palaces up first
        if player["palaces"][i]["persons"]:
            take = min(room, left)
            add[i], left = take, left - take
    new = []
    while left:
        new.append(min(3, left))
        left -= new[-1]
    return "dragon-floors-placed", {"seat": ask["seat"], "add": add, "new": new}


def _person(state, rng):
    ask = _ask(state)
    seat = ask["seat"]
    cards = [c for c in ask["cards"] if c["tiles"]]
    if not cards:
        return "dragon-person-recruited", {"seat": seat, "card": ask["cards"][0]["card"]}
    rank = {kind: i for i, kind in enumerate(LIKES)}
    non_wild = [c for c in cards if c["card"] != "wild"] or cards
    card = min(non_wild, key=lambda c: (rank[c["card"]] if c["card"] in rank else 9) + rng.random() * 4)
    tile = rng.choice(card["tiles"]) if card["card"] != "wild" else min(
        card["tiles"], key=lambda t: rank[t.split(":")[0]])
    kind, age = tile.split(":")
    data = {"seat": seat, "card": card["card"], "person": {"type": kind, "age": age}}
    places = ask["places"]
    if places[0]["value"].startswith("p:"):
        player = state["players"][seat]
        best = max(places, key=lambda p: player["palaces"][p["palace"]]["floors"])
        data["palace"] = best["palace"]
    else:
        worst = max((p for p in places if p["value"] != "away"), key=lambda p: rank[p["tile"].split(":")[0]])
        if rank[worst["tile"].split(":")[0]] > rank[kind]:
            data["palace"], data["replace"] = worst["palace"], _slot(state, seat, worst["palace"], worst["tile"])
        else:
            data["away"] = True
    return "dragon-person-recruited", data


def _slot(state, seat, palace, tile, taken=()) -> int:
    """Where in ``palace`` the first such person not yet ``taken`` lives (the form offers
    persons by what they are; the payload names the slot)."""
    kind, age = tile.split(":")
    persons = state["players"][seat]["palaces"][palace]["persons"]
    return next(j for j, p in enumerate(persons)
                if p == {"type": kind, "age": age} and [palace, j] not in taken)


def _release(state):
    ask = _ask(state)
    rank = {kind: i for i, kind in enumerate(LIKES)}
    persons = sorted(ask["persons"], key=lambda p: -rank[p["tile"].split(":")[0]])
    chosen, palaces = [], set()
    for p in persons:
        if ask["reason"] == "drought" and p["palace"] in palaces:
            continue
        chosen.append([p["palace"], _slot(state, ask["seat"], p["palace"], p["tile"], chosen)])
        palaces.add(p["palace"])
        if len(chosen) == ask["count"]:
            break
    return "dragon-persons-released", {"seat": ask["seat"], "persons": chosen}


def play_game(db, seed: int) -> str:
    rng = random.Random(seed)
    created = new_game(db, "dragon", PLAYERS, {"large_privilege": 6}, device="example-script")
    game_id = created["id"]
    table = load(db, game_id)
    while not table.rules.is_over(table.game):
        type_, data = choose(table.game, rng)
        seat = data.get("seat", turn_order(table.game)[0])
        record(db, game_id, type_, data, table.seq, seat, f"phone-{seat}", f"{table.seq + 1:04d}-{type_}")
        table = load(db, game_id)
    return game_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2007)
    parser.add_argument("--out", default=os.path.join("examples", "dragon-4p.json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = app.connect(os.path.join(tmp, "example.db"))
        store.migrate(db)
        game_id = play_game(db, args.seed)
        doc = export_game(db, game_id)
        db.conn.close()
    write(doc, args.out)
    print(f"{args.out}: {len(doc['events'])} events")


if __name__ == "__main__":
    main()
