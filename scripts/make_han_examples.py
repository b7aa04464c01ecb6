"""Write examples/han-side1-3p.json and examples/han-side2-2p.json: two whole Han games
really played through events.application.table.new_game / record on a temporary database, so every
move passed the rules. The board is the INVENTED example layout of scoring/han/demo.py
(the printed topology is unpublished). A seeded bot holds real cards: a shuffled deck of
57 minus the removed cards, hands of 3, and it records the draw pile running out.

    .venv/bin/python scripts/make_han_examples.py [--seed N]
"""
from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import app  # noqa: E402
from events.storage import store  # noqa: E402
from events.application.export import export_game, write  # noqa: E402
from events.application.table import check_move, load, new_game, record  # noqa: E402
from scoring.han.data import CARDS, SIDES, removed_default  # noqa: E402
from scoring.han.demo import example_profile, pinned  # noqa: E402
from scoring.han.score import supply  # noqa: E402

GAMES = {
    "han-side1-3p": (1, [{"name": "Anita", "colour": "red"}, {"name": "Márk", "colour": "purple"},
                         {"name": "Éva", "colour": "blue"}], {"fortress": True}, 6),
    "han-side2-2p": (2, [{"name": "Jenő", "colour": "green"}, {"name": "Anita", "colour": "red"}], {}, 6),
}


class Table:
    """The physical cards the app never sees: deck, hands, discard pile."""

    def __init__(self, rng: random.Random, side: int, n: int):
        removed = removed_default(side, n)
        deck = [c for c, k in CARDS.items() for _ in range(k)]
        rng.shuffle(deck)
        self.rng, self.deck = rng, deck[removed:]
        self.hands = [[self.deck.pop() for _ in range(3)] for _ in range(n)]
        self.face_up = [self.deck.pop() for _ in range(SIDES[side]["face_up"])]
        self.discard: list[str] = []
        self.runs_out = 0

    def play(self, seat: int, cards: list[str]) -> int:
        """Discard ``cards`` and draw back to 3; returns how often the pile ran out."""
        for c in cards:
            self.hands[seat].remove(c)
            self.discard.append(c)
        outs = 0
        while len(self.hands[seat]) < 3 and self.deck:
            self.hands[seat].append(self.deck.pop())
            if not self.deck:  # the last card is drawn: the pile has run out
                self.runs_out += 1
                outs += 1
                if self.runs_out == 1:
                    self.deck, self.discard = self.discard, []
                    self.rng.shuffle(self.deck)
        return outs


def candidates(state: dict, seat: int, hand: list[str], rng: random.Random):
    """Placements the bot would like, most pieces first; the rules pick the legal ones."""
    areas = list(state["areas"])
    rng.shuffle(areas)
    subsets = {tuple(sorted(c)) for k in (1, 2, 3) for c in itertools.combinations(hand, k)}
    shapes = [("pagoda", "pagoda"), ("pagoda", "envoy"), ("envoy", "envoy"), ("pagoda",), ("envoy",)]
    if state["fortress"] and supply(state, seat)["fortress"]:
        shapes.insert(0, ("fortress", "on-fortress"))
    for area in areas:
        sites = ["ordinary"] + (["harbour"] if state["side"] == 1 else [])
        borders = [p for p in state["border_pairs"] if area["id"] in p]
        for shape in shapes:
            for site in sites:
                pieces = [_piece(kind, area["id"], site) for kind in shape]
                for cards in sorted(subsets, key=lambda c: (len(c), c)):
                    yield {"seat": seat, "cards": list(cards), "pieces": pieces}
        for pair in borders:
            other = pair[0] if pair[1] == area["id"] else pair[1]
            piece = {"type": "pagoda", "area": area["id"], "site": "border", "with": other}
            for cards in sorted(subsets):
                if len(cards) == 2:
                    yield {"seat": seat, "cards": list(cards), "pieces": [piece]}


def _piece(kind: str, area: str, site: str) -> dict:
    if kind == "envoy":
        return {"type": "envoy", "area": area}
    if kind == "on-fortress":
        return {"type": "pagoda", "area": area, "site": "fortress"}
    return {"type": kind, "area": area, "site": site}


def play(db, name: str, rng: random.Random) -> str:
    side, players, options, _ = GAMES[name]
    profile = pinned(example_profile(side), f"han-example-side{side}")
    created = new_game(db, "han", players, {"board": profile, **options}, "example-script")
    game_id, cards = created["id"], Table(rng, side, len(players))
    n = 0

    def send(type_, data, seat):
        nonlocal n
        n += 1
        record(db, game_id, type_, data, load(db, game_id).seq, seat, f"phone-{seat}", f"{name}-{n}")

    while True:
        table = load(db, game_id)
        state = table.game
        if state["next"]["step"] != "play":
            break
        seat = state["next"]["seat"]
        hand = cards.hands[seat]
        choice = next((c for c in candidates(state, seat, hand, rng) if rng.random() < 0.6
                       and not check_move(table, "pieces-placed", c)), None) if hand else None
        if choice:
            send("pieces-placed", choice, seat)
            outs = cards.play(seat, choice["cards"])
        else:
            send("card-exchanged", {"seat": seat}, seat)
            outs = cards.play(seat, [hand[0]]) if hand else 0
        for _ in range(outs):
            send("draw-pile-ran-out", {}, seat)
    state = load(db, game_id).game
    chains = []
    for seat in range(len(players)):   # the table reads its chains off the board
        if supply(state, seat)["pagoda"] <= 12 and rng.random() < 0.7:
            chains.append({"seat": seat, "length": rng.choice((4, 4, 5)), "fortified": False})
    send("road-chains-entered", {"chains": chains}, 0)
    return game_id


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0, help="added to each game's own seed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = app.connect(os.path.join(tmp, "examples.db"))
        store.migrate(db)
        for name, (*_, seed) in GAMES.items():
            game_id = play(db, name, random.Random(seed + args.seed))
            doc = export_game(db, game_id)
            path = os.path.join(ROOT, "examples", f"{name}.json")
            write(doc, path)
            print(f"{path}: {len(doc['events'])} events")


if __name__ == "__main__":
    main()
