"""Write the two Five Tribes example games, really recorded through events.table:

* examples/five-tribes-3p.json: a whole 3-player game kept turn by turn (displays
  tracked), played by a small seeded bot that picks among the legal choices the state
  offers (``view(state, players)``), until a player places the last camel;
* examples/five-tribes-sheet-4p.json: a 4-player game filled in on the score sheet only.

    .venv/bin/python scripts/make_five_tribes_examples.py [--seed N]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from events import store  # noqa: E402
from events.export import export_game  # noqa: E402
from events.table import load, new_game, record  # noqa: E402
from scoring.five_tribes.data import DJINNS, FAKIRS, GOODS, TILES, TRIBES, distance  # noqa: E402
from scoring.five_tribes.view import view  # noqa: E402

PLAYERS_3 = [{"name": "Peti", "colour": "red"}, {"name": "Zoli", "colour": "blue"},
             {"name": "Gerda", "colour": "green"}]
PLAYERS_4 = PLAYERS_3 + [{"name": "Levi", "colour": "yellow"}]


class Bot:
    """Decks as the table holds them, and a plain strategy over the legal choices."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.cards = [k for k, v in GOODS.items() for _ in range(v["count"])] + ["fakir"] * FAKIRS
        self.djinns = list(DJINNS)
        rng.shuffle(self.cards)
        rng.shuffle(self.djinns)

    def draw(self, n, deck):
        out, deck[:] = deck[:n], deck[n:]
        return out

    def lay(self):
        tiles = [k for k, v in TILES.items() for _ in range(v["count"])]
        self.rng.shuffle(tiles)
        return "board-laid", {"tiles": tiles, "djinns": self.draw(3, self.djinns), "cards": self.draw(9, self.cards)}

    def choose(self, g) -> tuple[str, dict]:
        pd = view(g, PLAYERS_3)
        if pd["kind"] == "lay":
            return self.lay()
        if pd["kind"] == "bid":
            return "bid-placed", {"seat": pd["seat"], "cost": self.rng.choice(pd["costs"][:4])}
        if pd["kind"] == "refill":
            return "round-ended", {"djinns": self.draw(pd["djinn_slots"], self.djinns),
                                   "cards": self.draw(pd["card_slots"], self.cards)}
        if not pd["moved"]:
            return self.power(g, pd) or self.move(g, pd)
        return self.act(g, pd)

    def move(self, g, pd):
        free = [i for i, c in enumerate(g["board"]) if c["owner"] is None]
        tile = self.rng.choice(free or range(30))
        me = g["players"][pd["seat"]]
        kept = {t: sum(p[t + "s"] for p in g["players"]) for t in ("vizier", "elder")}
        tribes = [t for t in TRIBES if t not in kept or kept[t] + 4 <= TRIBES[t]["count"]]
        tribe = self.rng.choice(tribes)
        count = self.rng.randint(2, 4)
        if tribe == "merchant":
            count = min(count, len(g["card_row"])) or 2
        data = {"tile": tile, "tribe": tribe, "count": count, "emptied": self.rng.random() < 0.55}
        if tribe == "assassin":
            data["victims"] = [self.victim(g, pd, tile, count)]
        if tribe == "builder" and me["fakirs"] and self.rng.random() < 0.5:
            data["fakirs"] = 1
        return "meeples-moved", data

    def victim(self, g, pd, tile, reach):
        targets = [(s, t) for s in pd["victim_seats"] for t in ("vizier", "elder") if g["players"][s][t + "s"]]
        if targets and self.rng.random() < 0.5:
            seat, tribe = self.rng.choice(targets)
            return {"seat": seat, "tribe": tribe}
        near = [i for i in range(30) if i != tile and distance(i, tile) <= reach]
        return {"tile": self.rng.choice(near), "tribe": self.rng.choice(list(TRIBES)),
                "emptied": self.rng.random() < 0.2}

    def power(self, g, pd):
        for w in pd["powers"]:
            if self.rng.random() > 0.4:
                continue
            data = {"djinn": w["name"], "pay": w["pays"][0]["id"]}
            board = g["board"]
            if w["name"] in ("Enki", "Bouraq"):
                kind, supply = ("oasis", "palms") if w["name"] == "Enki" else ("village", "palaces")
                spots = [i for i, c in enumerate(board) if c["type"] == kind]
                if not g["supply"][supply] or not spots:
                    continue
                data["tile"] = self.rng.choice(spots)
            elif w["needs"] == "tile":
                spots = [i for i, c in enumerate(board) if c["owner"] is None and not c["palms"] and not c["palaces"]]
                if not spots or g["players"][pd["seat"]]["camels_left"] == 0:
                    continue
                data["tile"] = self.rng.choice(spots)
            elif w["name"] == "Sloar":
                if not self.cards:
                    continue
                data["card"] = self.draw(1, self.cards)[0]
            elif w["name"] == "Sibittis":
                drawn = [d for d in self.draw(3, self.djinns)]
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
            return f"{a['kind']}-placed", {"tile": pd["tile"]}
        if a and a["kind"] == "market" and me["gold"] > 25 and self.rng.random() < 0.6:
            return "goods-bought", {"cards": [c["id"] for c in a["cards"]][:a["limit"]]}
        if a and a["kind"] == "djinn" and self.rng.random() < 0.8:
            return "djinn-taken", {"djinn": self.rng.choice(a["djinns"])["name"], "pay": a["pays"][0]["id"]}
        if len(pd["sell"]) >= 4 and not pd.get("sold") and self.rng.random() < 0.3:
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


def write(doc, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{path}: {len(doc['events'])} events")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2014)
    parser.add_argument("--out", default="examples")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = store.connect(os.path.join(tmp, "example.db"))
        store.migrate(db)
        kept = export_game(db, play_kept_game(db, args.seed))
        sheet = export_game(db, play_sheet_game(db))
        db.conn.close()
    os.makedirs(args.out, exist_ok=True)
    write(kept, os.path.join(args.out, "five-tribes-3p.json"))
    write(sheet, os.path.join(args.out, "five-tribes-sheet-4p.json"))


if __name__ == "__main__":
    main()
