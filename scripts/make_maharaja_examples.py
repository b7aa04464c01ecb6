"""Write examples/maharaja-4p.json: a whole 4-player Maharaja game, really played
through events.application.table.new_game / record on a temporary database, so every move
passed the rules. The players are a small, plain bot: build a palace (and a house)
in the Maharaja's city when the gold allows, otherwise take gold and add a house
there; now and then move a governor, fetch houses from the quarry or swap a
character, as a table would.

    .venv/bin/python scripts/make_maharaja_examples.py [--out PATH]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import app  # noqa: E402
from events.storage import store  # noqa: E402
from events.application.export import export_game, write  # noqa: E402
from events.application.table import check_move, load, new_game, record  # noqa: E402
from scoring.maharaja import apply as A, data as D, score as S  # noqa: E402

PLAYERS = [{"name": "Krisztina", "colour": "red"}, {"name": "Péter", "colour": "blue"},
           {"name": "Jenő", "colour": "green"}, {"name": "Anita", "colour": "yellow"}]
CHARACTERS = [D.MOGUL, D.SADHU, D.BUILDER, D.ARTIST]       # as in the rulebook's §8.0 example
GOVERNORS = list("CAFBGDE")                                 # the track as shuffled, bottom first
START_VILLAGES = [[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]]


class Table:
    def __init__(self, db, game_id):
        self.db, self.id = db, game_id

    @property
    def state(self) -> dict:
        return load(self.db, self.id).game

    def ok(self, type_, data) -> bool:
        return not check_move(load(self.db, self.id), type_, data)

    def play(self, type_, data, seat):
        table = load(self.db, self.id)
        record(self.db, self.id, type_, data, table.seq, seat, "example", f"ex-{table.seq + 1}")


def _site_free(g, city) -> str | None:
    site = g["cities"][city]
    if site["inner"] is None:
        return "inner"
    return "outer" if len(site["outer"]) < g["outer_sites"] else None


def _target(g) -> str | None:
    """The Maharaja's city if a palace fits there, else the next city, else any."""
    order = [g["maharaja"], A.next_city(g["track"]), *D.CITIES]
    return next((c for c in order if c and _site_free(g, c)), None)


def _travel(t: Table, seat: int, city: str) -> None:
    """Go to ``city``, through one village of another player when the fee is affordable."""
    g = t.state
    if g["architects"][seat] == city:
        return
    others = [f"v{i + 1}" for i, v in enumerate(g["villages"]) if v and seat not in v]
    own = [f"v{i + 1}" for i, v in enumerate(g["villages"]) if seat in v]
    via = [others[(g["round"] + seat) % len(others)]] if others else own[:1]
    if not t.ok("architect-travelled", {"city": city, "via": via}):
        via = own[:1]  # a village of his own: no fee (docs/rules/maharaja.md §8)
    t.play("architect-travelled", {"city": city, "via": via}, seat)


def _builder_house(t: Table, seat: int) -> None:
    g = t.state
    place = g["architects"][seat]
    if place and t.ok("house-built", {"place": place, "free": True}):
        t.play("house-built", {"place": place, "free": True}, seat)


def _palace_turn(t: Table, seat: int, city: str) -> None:
    t.play("actions-revealed", {"seat": seat, "actions": ["palace-house", "gold"]}, seat)
    t.play("gold-taken", {}, seat)
    _travel(t, seat, city)
    t.play("palace-built", {"city": city, "site": _site_free(t.state, city)}, seat)
    _builder_house(t, seat)
    for house in ({"place": city}, {"place": _free_village(t.state)}):
        if t.ok("house-built", house):
            t.play("house-built", house, seat)
            break
    t.play("turn-ended", {"renounce": True} if t.state["turn"]["parts"] else {}, seat)


def _free_village(g) -> str:
    return next(f"v{i + 1}" for i, v in enumerate(g["villages"]) if len(v) < g["village_cap"])


def _other_turn(t: Table, seat: int) -> None:
    g = t.state
    city = g["maharaja"]
    if g["reserve"][seat] < 2:
        second = "quarry"
    elif g["round"] % 4 == seat and A.governor_target(g["track"], city) is not None:
        second = "governor"               # bring the Maharaja back to this city sooner
    elif g["round"] == 3 and D.holds(g, seat, D.SADHU):
        second = "character"              # the Sadhu wants the Artist's cheap palaces
    else:
        second = "house"
    t.play("actions-revealed", {"seat": seat, "actions": ["gold", second]}, seat)
    t.play("gold-taken", {}, seat)
    if second == "quarry":
        t.play("quarry-used", {}, seat)
    elif second == "governor":
        t.play("governor-moved", {"city": city}, seat)
    elif second == "character":
        t.play("character-swapped", {"character": D.ARTIST}, seat)
        picker = t.state["picks"][0]
        t.play("character-picked", {"character": max(D.bank_characters(t.state))}, picker)
    else:
        _travel(t, seat, city)
        _builder_house(t, seat)
        if t.state["gold"][seat] >= 1:
            t.play("house-built", {"place": city}, seat)
    end = {} if not t.state["turn"]["parts"] else {"renounce": True}
    t.play("turn-ended", end, seat)


def play_game(db) -> str:
    game_id = new_game(db, "maharaja", PLAYERS, {}, "example")["id"]
    t = Table(db, game_id)
    t.play("governors-laid", {"order": GOVERNORS}, None)
    for seat, number in enumerate(CHARACTERS):
        t.play("character-chosen", {"seat": seat, "character": number, "paid": 0}, seat)
    placed = [0] * len(PLAYERS)
    while t.state["next"]["step"] == "start-house":
        seat = t.state["next"]["seat"]
        t.play("start-house-placed", {"seat": seat, "place": f"v{START_VILLAGES[seat][placed[seat]]}"}, seat)
        placed[seat] += 1
    while t.state["phase"] != "over":
        g = t.state
        seat = g["next"]["seat"]
        city = _target(g)
        left = g["palaces_each"] - sum(1 for p in g["palaces"] if p["seat"] == seat)
        if city and left and g["reserve"][seat] and g["gold"][seat] + 2 >= D.palace_cost(g, seat) + 2:
            _palace_turn(t, seat, city)
        else:
            _other_turn(t, seat)
    return game_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--out", default=os.path.join(root, "examples", "maharaja-4p.json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = app.connect(os.path.join(tmp, "example.db"))
        store.migrate(db)
        game_id = play_game(db)
        doc = export_game(db, game_id)
        g = load(db, game_id).game
        db.conn.close()
    write(doc, args.out)
    print(f"wrote {args.out}: {len(doc['events'])} events, {g['round']} rounds, gold {g['gold']}")


if __name__ == "__main__":
    main()
