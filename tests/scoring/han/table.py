"""Positions of Han built by its rules alone, as the rules tests build them: a new game,
pieces put out of turn, a move's problems, the pieces written short (P, E, F), and scores."""
from scoring.base import Move
from scoring.han import GAME
from scoring.han.boards import place_names
from scoring.han.demo import example_profile, pinned

JENO, ANITA, EVA, MARK = 0, 1, 2, 3
PLAYERS = [{"name": n, "colour": c} for n, c in
           (("Jenő", "green"), ("Anita", "red"), ("Éva", "blue"), ("Márk", "purple"))]


def new(players=4, side=1, profile=None, **options):
    data = profile or example_profile(side)
    opts = {**GAME.default_options(), "board": pinned(data), **options}
    people = (PLAYERS + [{"name": "Béla", "colour": "black"}])[:players]
    assert GAME.check_setup(people, opts) == []
    return GAME.setup(people, opts)


_seq = iter(range(2, 10_000))


def put(state, seat, cards, *pieces):
    """Apply a placement out of turn order (apply never validates): a position builder."""
    state = {**state, "next": {**state["next"], "seat": seat}}
    return GAME.apply(state, Move(next(_seq), "pieces-placed", {"seat": seat, "cards": cards, "pieces": list(pieces)}))


def move(state, seat, cards, *pieces):
    state = {**state, "next": {**state["next"], "seat": seat}}
    return Move(next(_seq), "pieces-placed", {"seat": seat, "cards": cards, "pieces": list(pieces)})


def problems(state, seat, cards, *pieces):
    return GAME.check({**state, "next": {**state["next"], "seat": seat}}, move(state, seat, cards, *pieces))


# The provinces' names of side 1's example profile, as the table's set-up gives them: the
# rules name a province by id (``place``), the table's board names it.
NAMES = place_names({"board": pinned(example_profile(1))})


def said(part) -> str:
    """A score part's label as a page shows it, its provinces named."""
    return part.as_dict((), NAMES)["label"]["en"]


def rules_of(found):
    return [p.rule.split(",")[0] for p in found]


def P(area, site="ordinary", **kw):
    return {"type": "pagoda", "area": area, "site": site, **kw}


def E(area):
    return {"type": "envoy", "area": area}


def F(area, site="ordinary"):
    return {"type": "fortress", "area": area, "site": site}


def big_board():
    data = example_profile(1)
    for area in data["areas"]:
        area["sites"] = 12
    return data


def final(state, seq=900):
    return GAME.apply(state, Move(seq, "game-ended", {}))


def points(state, seat, category=None):
    return sum(p.points for p in GAME.score(state)[seat] if category in (None, p.category))
