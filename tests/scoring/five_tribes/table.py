"""A Five Tribes game moved by its rules alone, as the rules tests move one (``Table``), the
demo board's tiles they name, and meeples laid on it (``layout``, ``BOARD``)."""
from collections import Counter

from jsonschema import Draft202012Validator

from scoring.base import Move
from scoring.five_tribes import GAME, GAME_V1
from scoring.five_tribes.data import EVENT_TYPES, TILE_INDEX, TRIBES
from scoring.five_tribes.demo import DEMO_BOARD
from scoring.five_tribes.score import score

NAMES = ["Peti", "Zoli", "Gerda", "Levi"]


def named(type_, data):
    """A payload written with tile indexes (version 1) as the app stores it now: tiles by name."""
    spec = EVENT_TYPES[type_]
    ints = isinstance(data.get("tile"), int) or any(isinstance(t, int) for t in data.get("path", [])) \
        or any(isinstance(v.get("tile"), int) for v in data.get("victims", []))
    return spec.upcasters[1](data) if spec.version == 2 and ints else data


class Table:
    """Plays moves through the schema, ``check`` and ``apply``, as the app records them.
    Tiles may be written as indexes (0 = A1, 7 = B2, …): they are named as the app names them."""

    def __init__(self, n=3, board=True, rules=2):
        self.game = GAME if rules == 2 else GAME_V1
        self.state = self.game.setup([{"name": x, "colour": ""} for x in NAMES[:n]], {})
        self.seq = 1
        if board:
            self.do("board-laid", {"tiles": DEMO_BOARD})

    def problems(self, type_, data):
        data = named(type_, data)
        errors = list(Draft202012Validator(EVENT_TYPES[type_].schema).iter_errors(data))
        assert not errors, errors
        return self.game.check(self.state, Move(self.seq + 1, type_, data))

    def do(self, type_, data):
        problems = self.problems(type_, data)
        assert problems == [], (type_, data, problems)
        self.seq += 1
        self.state = self.game.apply(self.state, Move(self.seq, type_, named(type_, data)))
        return self

    def refused(self, type_, data) -> list[str]:
        problems = self.problems(type_, data)
        assert problems, (type_, data)
        assert all(p.rule and p.hu and p.en for p in problems)
        return [p.rule for p in problems]

    def bids(self, *costs):
        for cost in costs:
            self.do("bid-placed", {"seat": self.state["bid_order"][len(self.state["bids"])], "cost": cost})
        return self

    def turn(self, tile, tribe, count, **extra):
        self.do("meeples-moved", {"tile": tile, "tribe": tribe, "count": count, **extra})
        return self

    def end(self):
        return self.do("turn-ended", {})

    def player(self, seat):
        return self.state["players"][seat]

    def points(self, seat) -> dict:
        return {p.category: p.points for p in score(self.state)[seat]}


B2, C2, D1, A1, C1 = 7, 8, 3, 0, 2   # DEMO_BOARD: B2 oasis (red), C2 sacred-10 (blue), D1 small market

LETTERS = {"V": "vizier", "E": "elder", "M": "merchant", "B": "builder", "A": "assassin"}


def layout(**tiles) -> list[list[str]]:
    """90 meeples, 3 a tile: the named tiles as given ("A1": "VVE"), every other tile filled in
    grid order from what is left in the bag, tribe by tribe in turn (V E M B A V E …)."""
    fixed = {TILE_INDEX[name]: [LETTERS[c] for c in word] for name, word in tiles.items()}
    bag = Counter({t: v["count"] for t, v in TRIBES.items()}) - Counter(t for m in fixed.values() for t in m)
    filler = []
    while sum(bag.values()):
        for t in TRIBES:
            if bag[t]:
                filler.append(t)
                bag[t] -= 1
    out = []
    for i in range(30):
        out.append(fixed[i] if i in fixed else [filler.pop(0) for _ in range(3)])
    return out


# A1 village, B1 sacred-6, C1 oasis, D1 small market, E1 large market, F1 village; A2 small market,
# B2 oasis, C2 sacred-10, D2 village (DEMO_BOARD).
BOARD = layout(A1="VVE", B1="MBA", C1="EMA", D1="EEB", C2="MBA", A2="EEE", B2="VMB", E1="AAM")
