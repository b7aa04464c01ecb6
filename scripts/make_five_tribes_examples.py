"""Write the two Five Tribes example games, really recorded through events.application.table:

* examples/five-tribes-3p.json: a whole 3-player game kept turn by turn with every meeple
  tracked (the app deals the board from a recorded seed; displays tracked), played by a
  small seeded bot that taps its moves through the board's draft and picks among the legal
  choices the state offers (``view(state, players)``), until a player places the last camel;
  (examples/five-tribes-3p-v1.json is the game recorded before, rules version 1, meeples not
  tracked: kept as it was, it still imports and replays);
* examples/five-tribes-sheet-4p.json: a 4-player game filled in on the score sheet only.

    .venv/bin/python scripts/make_five_tribes_examples.py [--seed N]
"""
from __future__ import annotations

import argparse
from collections import Counter
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import app  # noqa: E402
from events.storage import store  # noqa: E402
from events.application.export import export_game, write  # noqa: E402
from events.application.table import load, new_game, record  # noqa: E402
from scoring.five_tribes.data import DJINNS, FAKIRS, GOODS, TILE_NAMES, deal  # noqa: E402
from scoring.five_tribes.view import view  # noqa: E402

PLAYERS_3 = [{"name": "Peti", "colour": "red"}, {"name": "Zoli", "colour": "blue"},
             {"name": "Gerda", "colour": "green"}]
PLAYERS_4 = PLAYERS_3 + [{"name": "Levi", "colour": "yellow"}]


class Bot:
    """Decks as the table holds them, and a plain strategy over the legal choices: moves are
    tapped as a phone taps them, through the board's draft (``view(...)["draft"]``)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.cards = [k for k, v in GOODS.items() for _ in range(v["count"])] + ["fakir"] * FAKIRS
        self.djinns = list(DJINNS)
        rng.shuffle(self.cards)
        rng.shuffle(self.djinns)

    def draw(self, n, deck):
        out, deck[:] = deck[:n], deck[n:]
        return out

    def draw_cards(self, g, n):
        """The rulebook shuffles the discards back when the pile runs out (§10)."""
        if len(self.cards) < n:
            held = Counter(g["card_row"])
            for p in g["players"]:
                held += Counter(p["goods"]) + Counter({"fakir": p["fakirs"]})
            every = Counter({k: v["count"] for k, v in GOODS.items()}) + Counter({"fakir": FAKIRS})
            self.cards = list((every - held).elements())
            self.rng.shuffle(self.cards)
        return self.draw(n, self.cards)

    def draw_djinns(self, g, n):
        if len(self.djinns) < n:
            out = {d for p in g["players"] for d in p["djinns"]} | set(g["djinn_row"])
            self.djinns = [d for d in DJINNS if d not in out]
            self.rng.shuffle(self.djinns)
        return self.draw(n, self.djinns)

    def lay(self):
        seed = self.rng.randrange(2 ** 32)
        tiles, meeples = deal(seed)
        return "board-laid", {"tiles": tiles, "meeples": meeples, "seed": seed,
                              "djinns": self.draw(3, self.djinns), "cards": self.draw(9, self.cards)}

    def choose(self, g) -> tuple[str, dict]:
        pd = view(g, PLAYERS_3)
        if pd["kind"] == "lay":
            return self.lay()
        if pd["kind"] == "bid":
            return "bid-placed", {"seat": pd["seat"], "cost": self.rng.choice(pd["costs"][:4])}
        if pd["kind"] == "refill":
            return "round-ended", {"djinns": self.draw_djinns(g, pd["djinn_slots"]),
                                   "cards": self.draw_cards(g, pd["card_slots"])}
        if not pd["moved"]:
            return self.power(g, pd) or self.move(g, pd)
        return self.act(g, pd)

    def move(self, g, pd):
        """Tap a start tile, then steps; of a few tries, one that wins a tile is kept."""
        if not pd["draft"]("")["taps"]:
            return "turn-ended", {"no_move": True}
        tries = [self.walk(pd) for _ in range(12)]
        d = next((t for t in tries if t["outcome"]["camel"]), tries[0])
        data = {"path": d["path"], "drops": d["drops"]}
        o = d["outcome"]
        data |= {"tile": o["tile"], "tribe": o["tribe"], "count": o["count"], "emptied": o["emptied"]}
        if o["tribe"] == "assassin" and o["victims"] and self.rng.random() < 0.8:
            victim = self.rng.choice(o["victims"])
            data["victims"] = [{"tile": victim["tile"], "tribe": victim["tribe"]} if "tile" in victim
                               else {"seat": victim["seat"], "tribe": victim["tribe"]}]
            if victim["fakirs"]:
                data["fakirs"] = victim["fakirs"]
        if o["tribe"] == "builder" and o["fakirs"] and self.rng.random() < 0.5:
            data["fakirs"] = 1
        return "meeples-moved", data

    def walk(self, pd) -> dict:
        path = [self.rng.choice(pd["draft"]("")["taps"])]
        while True:
            d = pd["draft"](".".join(path))
            if not d["left"]:
                return pd["draft"](".".join(path), self.rng.choice(d["lasts"]))
            path.append(self.rng.choice(d["taps"]))

    def power(self, g, pd):
        for w in pd["powers"]:
            if self.rng.random() > 0.4:
                continue
            data = {"djinn": w["name"], "pay": w["pays"][0]["id"]}
            board, meeples = g["board"], g["meeples"]
            if w["name"] in ("Enki", "Bouraq"):
                kind, supply = ("oasis", "palms") if w["name"] == "Enki" else ("village", "palaces")
                spots = [i for i, c in enumerate(board) if c["type"] == kind]
                if not g["supply"][supply] or not spots:
                    continue
                data["tile"] = TILE_NAMES[self.rng.choice(spots)]
            elif w["needs"] == "tile":
                empty = w["name"] in ("Anun-Nak", "Leta")
                spots = [i for i, c in enumerate(board) if c["owner"] is None and not c["palms"] and not c["palaces"]
                         and not (empty and any(meeples[i].values()))]
                if not spots or (w["name"] != "Anun-Nak" and g["players"][pd["seat"]]["camels_left"] == 0):
                    continue
                data["tile"] = TILE_NAMES[self.rng.choice(spots)]
                if w["name"] == "Anun-Nak":
                    bag = list(Counter(pd["bag"]).elements())
                    if len(bag) < 3:
                        continue
                    data["meeples"] = self.rng.sample(bag, 3)
            elif w["name"] == "Sloar":
                data["card"] = self.draw_cards(g, 1)[0]
            elif w["name"] == "Sibittis":
                drawn = self.draw_djinns(g, 3)
                if not drawn:
                    continue
                data["keep"] = drawn[0]
            elif w["needs"] is not None or w["name"] in ("Hagis", "Lamia", "Iblis"):
                continue
            return "djinn-used", data
        return None

    def act(self, g, pd):
        me = g["players"][pd["seat"]]
        a = pd["action"]
        if a and a["kind"] in ("palm", "palace"):
            return f"{a['kind']}-placed", {"tile": TILE_NAMES[pd["tile"]]}
        if a and a["kind"] == "market" and me["gold"] > 25 and self.rng.random() < 0.6:
            window = g["card_row"][:3 if a["limit"] == 1 and a["price"] == 3 else 6]
            return "goods-bought", {"cards": self.rng.sample(window, a["limit"])}
        if a and a["kind"] == "djinn" and self.rng.random() < 0.8:
            return "djinn-taken", {"djinn": self.rng.choice(a["djinns"])["name"], "pay": a["pays"][0]["id"]}
        if len(pd["sell"]) >= 4 and not g["next"].get("sold") and self.rng.random() < 0.3:
            return "goods-sold", {"goods": {s["id"]: s["max"] for s in pd["sell"]}}
        return self.power(g, pd) or ("turn-ended", {})


def play_kept_game(db, seed: int) -> str:
    rng = random.Random(seed)
    bot = Bot(rng)
    game_id = new_game(db, "five-tribes", PLAYERS_3, {}, device="example-script")["id"]
    table = load(db, game_id)
    while not table.rules.is_over(table.game):
        type_, data = bot.choose(table.game)
        seat = data.get("seat", table.game["next"].get("seat", 0))
        record(db, game_id, type_, data, table.seq, seat, f"phone-{seat}", f"{table.seq + 1:04d}-{type_}")
        table = load(db, game_id)
    return game_id


SHEETS_4 = [
    {"seat": 0, "gold": 34, "viziers": 7, "elders": 3, "djinns": ["Jafaar", "Hagis", "Al-Amin"], "palms": 2,
     "palaces": 3, "tiles": {"village": 2, "sacred-12": 1, "oasis": 2, "small-market": 1},
     "goods": {"fish": 3, "wheat": 2, "silk": 1, "ivory": 1}, "fakirs": 5},
    {"seat": 1, "gold": 61, "viziers": 4, "elders": 6, "djinns": ["Shamhat", "Enki"], "palms": 4, "palaces": 0,
     "tile_vp": 44, "goods": {"pottery": 2, "spice": 2, "gold": 1, "jewels": 1, "papyrus": 1}, "fakirs": 2},
    {"seat": 2, "gold": 48, "viziers": 4, "elders": 0, "djinns": ["Haurvatat", "Lamia"], "palms": 5,
     "palaces": 1, "tiles": {"oasis": 3, "large-market": 2, "sacred-15": 1}, "goods": {"fish": 1}, "fakirs": 3},
    {"seat": 3, "gold": 72, "viziers": 1, "elders": 2, "djinns": ["Monkir"], "palms": 0, "palaces": 4,
     "tile_vp": 38, "goods": {"wheat": 2, "silk": 2, "spice": 1, "papyrus": 1, "pottery": 1}, "fakirs": 0},
]


def play_sheet_game(db) -> str:
    game_id = new_game(db, "five-tribes", PLAYERS_4, {}, device="example-script")["id"]
    for sheet in SHEETS_4:
        seq = load(db, game_id).seq
        record(db, game_id, "sheet-entered", sheet, seq, sheet["seat"], f"phone-{sheet['seat']}", f"sheet-{sheet['seat']}")
    return game_id


def save(doc, path):
    write(doc, path)
    print(f"{path}: {len(doc['events'])} events")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--out", default="examples")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = app.connect(os.path.join(tmp, "example.db"))
        store.migrate(db)
        kept = export_game(db, play_kept_game(db, args.seed))
        sheet = export_game(db, play_sheet_game(db))
        db.conn.close()
    os.makedirs(args.out, exist_ok=True)
    save(kept, os.path.join(args.out, "five-tribes-3p.json"))
    save(sheet, os.path.join(args.out, "five-tribes-sheet-4p.json"))


if __name__ == "__main__":
    main()
