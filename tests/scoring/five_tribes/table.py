"""A Five Tribes game moved by its rules alone, as the rules tests move one (``Table``), and
the demo board's tiles they name."""
from jsonschema import Draft202012Validator

from scoring.base import Move
from scoring.five_tribes import GAME, GAME_V1
from scoring.five_tribes.data import EVENT_TYPES
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
